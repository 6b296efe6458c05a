"""Every message addressed to the bot gets an answer, through PTB and the strict stand-in:
every command of the route table typed wrong, every word of the table of synonyms, and the
messages of the issue that went unanswered; suggestions go by meaning first, then spelling.
A command for another bot stays unanswered (the rule for groups)."""

from __future__ import annotations

from skatbot.handlers.routes import ROUTES, commands
from skatbot.usecases.place.typos import SYNONYMS, unknown_command_text
from tests.helpers import Bot, ok, refused

NAMES = [r.name for r in commands(ROUTES)]


def typo(name: str) -> str:
    """``name`` with two neighbouring letters swapped (from the middle on: /stnad)."""
    for i in range(max(1, len(name) // 2), len(name)):
        if name[i - 1] != name[i]:
            return name[: i - 1] + name[i] + name[i - 1] + name[i + 1 :]
    return name + name[-1]


def meaning(word: str) -> str:
    """The command the table of synonyms names first for ``word`` (a route)."""
    means = SYNONYMS[word][0]
    return next(c for c in means.commands if c in NAMES)


async def test_every_command_typed_wrong_gets_the_command(bot: Bot) -> None:
    for i, name in enumerate(NAMES):
        typed = typo(name)
        assert typed not in NAMES, typed
        # several groups: the bot's pace per group stays out of the way
        text = await refused(bot, f"/{typed}", f"/{typed} kenne ich nicht", chat_id=-2000 - i % 8)
        assert f"/{name}" in text, (name, text)
        assert "👉" in text, text


async def test_every_synonym_gets_the_command_it_means(bot: Bot) -> None:
    words = [w for w in SYNONYMS if w.isascii() and w not in NAMES]
    assert len(words) >= 40
    for i, word in enumerate(words):
        text = await refused(bot, f"/{word}", chat_id=-3000 - i % 8)
        assert f"/{meaning(word)}" in text, (word, text)
        assert "👉" in text, text


async def test_the_messages_that_went_unanswered(bot: Bot) -> None:
    await refused(bot, "/hallo", "Hallo", "/hilfe")
    if "unterschreiben" in NAMES:  # the signature's own command: its synonyms lead there
        await refused(bot, "/unterschrift", "Meintest du /unterschreiben?")
    else:
        await refused(bot, "/unterschreiben", "Meintest du /abschluss?")
    await refused(bot, "/wiederherstellen 1", "Meintest du /rueckgaengig?")
    await refused(bot, "/stornieren 3", "Meintest du /storno 3?", "👉 /storno 3")
    text = await refused(bot, "/punkte", "Meintest du /stand?")
    assert "startpunkte" not in text
    text = await refused(bot, "/löschen 3", "Meintest du /storno 3?")
    assert "/turnier" not in text


async def test_rueckgaengig_typed_with_umlauts_runs(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(bot, "/rückgängig", "Zurückgenommen: Spiel 1")
    await refused(bot, "/Rückgängig", "nichts zurückzunehmen")
    assert await bot.say("/rückgängig@otherbot") == []


async def test_the_rule_for_other_bots_stays(bot: Bot) -> None:
    assert await bot.say("/stornieren@otherbot 3") == []
    assert await bot.say("/hallo@otherbot") == []
    assert await bot.say("/kick Anna") == []  # neither meaning nor near ours: another bot's


def test_the_signature_goes_to_its_own_command_once_there_is_one() -> None:
    without = unknown_command_text("/unterschreiben", ["abschluss", "hilfe"], addressed=False)
    assert without is not None and "Meintest du /abschluss?" in without
    ours = ["unterschreiben", "abschluss", "hilfe"]
    found = unknown_command_text("/unterschrift", ours, addressed=False)
    assert found is not None and "Meintest du /unterschreiben?" in found
