"""Digits that are not ASCII: "²", "٣٦", "３６", "½" are no numbers. Every command that reads
a number answers them with a clear German refusal (a 👉 line) and changes nothing; none
reaches the internal-error notice, and "/serie ٣٦" is not read as 36. A property test feeds
every command arbitrary Unicode words.

On the use cases (the ``chat`` harness): an internal error there is the exception itself, so
it fails the test. /anheften is Telegram glue (it sends and pins before it writes) and the
inline query too: both are tested through the real bot in tests/handlers/test_unicode_numbers.py.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from skatbot.handlers.registry import ERROR_NOTICE
from skatbot.handlers.routes import commands
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import NumberError, is_number, parse_int
from skatbot.storage.schema import metadata
from skatbot.usecases.sheet.calculator import calculate
from tests.harness import Harness
from tests.helpers import html_to_text, ok

CHAT, DESK, ADMIN = -1001, -1002, 7


def dump(chat: Harness) -> dict[str, list[tuple[Any, ...]]]:
    def read(session: Any) -> dict[str, list[tuple[Any, ...]]]:
        return {
            t.name: sorted((tuple(r) for r in session.execute(select(t)).all()), key=repr)
            for t in metadata().sorted_tables
            # bookkeeping of the message itself: an edit of a refused /spiel may still book
            if t.name not in ("processed_updates", "message_links")
        }

    return chat.db.run_read(read)  # type: ignore[no-any-return]


LIST_INPUTS = [
    "/serie ²",
    "/serie ٣٦",
    "/serie ３６",
    "/storno ²",
    "/korrigieren ² Anna grand ohne 1 g",
    "/spiel Anna grand mit ² g",
    "/spiel Anna grand ohne 1 augen ²",
    "/spiel Anna grand ohne 1 reiz ² g",
    "/spiel Anna grand ohne 1 r² g",
    "/spiel Anna grand ohne ٣ g",
    "/saison ² 2026",
    "/saison ٢٠٢٦",
    "/saisonregeln beste ²",
    "/saisonregeln mindestens ½",
    "/einsatz ² ct",
    "/einsatz ١ ct",
    "/vordruck ³",
    "/statistik ²",
    # a list by number ("/liste 2"): foreign digits are refused, not read as "the latest list"
    "/liste ٢",
    "/stand ²",
    "/stand bild ３",
    "/pdf liste ٢",
    "/export ¹",
]
DESK_INPUTS = [
    "/gebuehren verlust 0,50 € ab ² 1 €",
    "/gebuehren startgeld ٥ €",
    "/serienlaenge ² ³",
    "/serienlaenge ٣٦ 48",
    "/teamwertung beste ²",
    "/ergebnis Anna ² 1 1",
    "/ergebnis Anna 100 ٣ 1",
    "/auslosen ²",
    "/preise ١٠٠ €",
    "/urkunden ²",
    "/tisch freigeben ²",
]


async def refused_unchanged(chat: Harness, message: str, chat_id: int) -> str:
    before = dump(chat)
    out = await chat.say(message, chat_id=chat_id, user_id=ADMIN)
    text = "\n".join(r.text for r in out)
    assert html_to_text(ERROR_NOTICE) not in text, (message, text)
    assert out and any(r.refusal for r in out), (message, text)
    assert "👉" in text, (message, text)
    assert dump(chat) == before, message
    return text


async def test_non_ascii_digits_are_refused_in_a_list_chat(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla", user_id=ADMIN)
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", user_id=ADMIN)
    for message in LIST_INPUTS:
        text = await refused_unchanged(chat, message, CHAT)
        if message.startswith("/serie "):
            assert "0–9" in text, text
        if message.startswith(("/stand ", "/pdf ")):  # the hint names the command asked
            assert f"z. B. {message.split()[0]} 2." in text, text
    # /serie ٣٦ was not read as 36: the series length is unchanged (36 by default) and 48 works
    await ok(chat, "/serie 48", "48", user_id=ADMIN)


async def test_non_ascii_digits_are_refused_at_a_desk(chat: Harness) -> None:
    await ok(chat, "/turnier Pokal", chat_id=DESK, user_id=ADMIN)
    await ok(
        chat,
        "/teilnehmer Anna [A], Bernd [A], Carla, Dora, Emil, Frieda",
        chat_id=DESK,
        user_id=ADMIN,
    )
    await ok(chat, "/auslosen 5", chat_id=DESK, user_id=ADMIN)
    for message in DESK_INPUTS:
        await refused_unchanged(chat, message, DESK)


async def test_house_rules_numbers(chat: Harness) -> None:
    await ok(chat, "/regeln haus", user_id=ADMIN)
    await ok(chat, "/neu Anna Bernd Carla", user_id=ADMIN)
    for message in ("/startpunkte Anna ²", "/startpunkte Anna -٣", "/ramsch Anna ²",
                    "/ramsch Anna 50 geschoben ²", "/bock ²"):  # fmt: skip
        out = await chat.say(message, user_id=ADMIN)
        text = "\n".join(r.text for r in out)
        assert html_to_text(ERROR_NOTICE) not in text, (message, text)
        if message != "/bock ²":
            assert any(r.refusal for r in out), (message, text)


def test_the_inline_calculator_answers_foreign_digits() -> None:
    for query in ("grand mit ²", "grand ohne ٣", "kreuz mit 1 reiz ²", "grand ohne 1 augen ３"):
        result = calculate(query, "skatbot_test_bot")
        assert result.title.startswith("⚠️") and "0–9" in result.title, (query, result)
        assert "👉" in result.message, result


def test_the_parser_reads_only_ascii_digits() -> None:
    assert parse_int("36", "die Serienlänge") == 36
    assert parse_int("-20", "Startpunkte", signed=True) == -20
    for word in ("²", "٣٦", "３６", "½", "3²", "", "+5", "1e3", "٣"):
        assert not is_number(word), word
        try:
            parse_int(word, "die Serienlänge", example="/serie 48")
        except NumberError as err:
            assert isinstance(err, RuleError)
            assert "Serienlänge" in err.message and err.hint
        else:
            raise AssertionError(word)


# --- every command, arbitrary Unicode words --------------------------------------------------

DIGITS = "0123456789²³¹⁰⁴½¼¾٠١٢٣٤٥٦٧٨٩۰۱۲３６０１०१२৩๓߃፫⑦Ⅻ"
SIGNS = "+-−±,.%€/:"
WORD = st.text(alphabet=DIGITS + SIGNS + "aZ", min_size=1, max_size=6)
# /anheften is Telegram glue: tests/handlers/test_unicode_numbers.py
GLUE = {r.name for r in commands() if not r.is_use_case}
EVERY = sorted(r.name for r in commands() if r.name not in ("help", "start", *GLUE))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(command=st.sampled_from(EVERY), words=st.lists(WORD, min_size=1, max_size=3))
@example(command="serie", words=["²"])  # the inputs that once reached the internal error
@example(command="storno", words=["²"])
@example(command="saison", words=["²", "2026"])
@example(command="saisonregeln", words=["beste", "²"])
@example(command="serienlaenge", words=["²", "³"])
@example(command="teamwertung", words=["beste", "²"])
@example(command="spiel", words=["Anna", "grand", "mit", "²"])
async def test_no_command_fails_on_unicode_words(
    chat: Harness, command: str, words: list[str]
) -> None:
    if not hasattr(chat, "_prepared"):
        await ok(chat, "/neu Anna Bernd Carla", user_id=ADMIN)
        await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", user_id=ADMIN)
        await ok(chat, "/turnier Pokal", chat_id=DESK, user_id=ADMIN)
        chat._prepared = True  # type: ignore[attr-defined]
    where = DESK if command in DESK_COMMANDS else CHAT
    message = f"/{command} " + " ".join(words)
    before = dump(chat)
    out = await chat.say(message, chat_id=where, user_id=ADMIN)
    text = "\n".join(r.text for r in out)
    assert html_to_text(ERROR_NOTICE) not in text, (message, text)
    if any(r.refusal for r in out):
        assert dump(chat) == before, message


DESK_COMMANDS = {
    "teilnehmer", "entfernen", "team", "teamwertung", "serienlaenge", "auslosen", "ergebnis",
    "fehlend", "rangliste", "urkunden", "gebuehren", "preise", "kasse",
}  # fmt: skip


# --- every command, each hostile word: a sweep that does not depend on the examples drawn ------

HOSTILE = ("²", "٣٦", "½")


async def test_every_command_answers_every_hostile_word(chat: Harness) -> None:
    """The property test above draws 60 examples over every command, so a given run may miss a
    command; here every command gets each hostile word alone and after a word that commands
    read numbers behind. None reaches the internal error; a refusal changes nothing."""
    await ok(chat, "/neu Anna Bernd Carla", user_id=ADMIN)
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", user_id=ADMIN)
    await ok(chat, "/turnier Pokal", chat_id=DESK, user_id=ADMIN)
    await ok(
        chat, "/teilnehmer Anna, Bernd, Carla, Dora, Emil, Frieda", chat_id=DESK, user_id=ADMIN
    )
    for command in EVERY:
        where = DESK if command in DESK_COMMANDS else CHAT
        for word in HOSTILE:
            for words in (word, f"Anna {word} 1"):
                message = f"/{command} {words}"
                before = dump(chat)
                out = await chat.say(message, chat_id=where, user_id=ADMIN)
                text = "\n".join(r.text for r in out)
                assert html_to_text(ERROR_NOTICE) not in text, (message, text)
                if any(r.refusal for r in out):
                    assert dump(chat) == before, message
