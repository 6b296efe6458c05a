"""Every message gets an answer: an unknown command or a typo is answered with the nearest
commands and the line to send; never a command for another bot, and in a group only what is
addressed to this bot or close to one of ours."""

from __future__ import annotations

from skatbot.usecases.place.typos import nearest
from tests.helpers import Bot, ok, refused, replies
from tests.standin.fake_telegram import BOT_USERNAME


def test_nearest_commands() -> None:
    ours = ["spiel", "spieler", "stand", "liste", "rangliste", "oeffnen", "abrechnung", "hilfe"]
    assert nearest("stnad", ours) == ["stand"]
    assert nearest("spile", ours) == ["spiel"]
    assert nearest("öffnen", ours) == ["oeffnen"]
    assert nearest("abr", ours) == ["abrechnung"]
    assert nearest("kick", ours) == []


async def test_a_typo_gets_the_nearest_command_with_its_line(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    text = await refused(bot, "/stnad", "/stnad kenne ich nicht. Meintest du /stand?")
    text = await refused(bot, "/spile anna grand mit 1 g", "Meintest du /spiel?")
    line = text[text.index("👉 ") + 2 :].split(" · ")[0]
    assert line == "/spiel anna grand mit 1 g"
    await ok(bot, line, "Anna: Grand mit 1 – gewonnen")
    await refused(bot, "/öffnen", "Meintest du /oeffnen?")


async def _silent(bot: Bot, message: str, **kw: int | str) -> None:
    assert await bot.say(message, **kw) == [], message  # type: ignore[arg-type]


async def test_what_other_bots_may_know_is_left_alone(bot: Bot) -> None:
    await _silent(bot, "/stnad@otherbot")
    await _silent(bot, "/kick Anna")  # far from ours: another bot's command
    await refused(bot, f"/kick@{BOT_USERNAME} Anna", "/kick kenne ich nicht", "/hilfe")


async def test_in_a_private_chat_every_unknown_command_is_answered(bot: Bot) -> None:
    before = len(bot.api.calls)
    update_id = bot.api.push_message("/kick", chat_id=501, user_id=501, chat_type="private")
    await bot.api.wait_confirmed(update_id, timeout=15)
    out = replies(bot.api.calls[before:], 501, bot.refusals)
    assert any("/kick kenne ich nicht" in r.text for r in out)
