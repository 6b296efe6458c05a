"""Refusals carry a machine-readable mark (``Reply.refusal``, recorded by the outbox as
``Outbox.refusals``); the tests read that instead of looking for the "⚠️" in the text, which
users see unchanged and which a reply that is no refusal may show too."""

from __future__ import annotations

import pytest

from tests.helpers import Bot, ok, refused

ADMIN = 7


async def test_a_refusal_is_marked_and_reads_as_before(bot: Bot) -> None:
    out = await bot.say("/spiel Anna grand gewonnen")
    assert [r.refusal for r in out] == [True]
    assert out[0].text.startswith("⚠️ In diesem Chat läuft keine Liste"), out[0].text
    assert "\n👉 " in out[0].text
    # a typo in a game (a RuleError inside the unit) and a game without its player
    await ok(bot, "/neu Anna Bernd Carla")
    await refused(bot, "/spiel Anna grnad ohne 1 gewonnen", "Unbekanntes Wort „grnad“")
    missing = await bot.say("/spiel grand ohne 1 hand gewonnen")
    assert [r.refusal for r in missing] == [True], missing


async def test_a_warning_that_is_no_refusal_is_not_marked(bot: Bot) -> None:
    bot.api.set_admins(-1001, [ADMIN])
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    # /loeschen asks with a "⚠️" line: a question, not a refusal
    question = await ok(bot, "/loeschen", "Alle Daten dieses Chats löschen?", user_id=ADMIN)
    assert question.startswith("⚠️ ")
    # ... while a plain member is refused
    await refused(bot, "/loeschen", "Löschen dürfen nur die Admins", user_id=ADMIN + 1)


async def test_ok_and_refused_check_the_mark(bot: Bot) -> None:
    with pytest.raises(AssertionError):
        await ok(bot, "/stand")  # no list yet: refused
    with pytest.raises(AssertionError):
        await refused(bot, "/neu Anna Bernd Carla")
