"""Refusals carry a machine-readable mark (``Reply.refusal``); the tests read that instead of
looking for the "⚠️" in the text, which users see unchanged and which a reply that is no
refusal may show too. On the use cases (the ``chat`` harness); that the outbox records the
mark for the bot's tests (``Bot.refusals``) is tested through the real bot in
tests/handlers/test_refusal_mark.py."""

from __future__ import annotations

import pytest

from tests.harness import Harness
from tests.helpers import ok, refused

ADMIN = 7


async def test_a_refusal_is_marked_and_reads_as_before(chat: Harness) -> None:
    out = await chat.say("/spiel Anna grand gewonnen")
    assert [r.refusal for r in out] == [True]
    assert out[0].text.startswith("⚠️ In diesem Chat läuft keine Liste"), out[0].text
    assert "\n👉 " in out[0].text
    # a typo in a game (a RuleError inside the unit) and a game without its player
    await ok(chat, "/neu Anna Bernd Carla")
    await refused(chat, "/spiel Anna grnad ohne 1 gewonnen", "Unbekanntes Wort „grnad“")
    missing = await chat.say("/spiel grand ohne 1 hand gewonnen")
    assert [r.refusal for r in missing] == [True], missing


async def test_a_warning_that_is_no_refusal_is_not_marked(chat: Harness) -> None:
    chat.set_admins(-1001, ADMIN)
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")
    # /loeschen asks with a "⚠️" line: a question, not a refusal
    question = await ok(chat, "/loeschen", "Alle Daten dieses Chats löschen?", user_id=ADMIN)
    assert question.startswith("⚠️ ")
    # ... while a plain member is refused
    await refused(chat, "/loeschen", "Löschen dürfen nur die Admins", user_id=ADMIN + 1)


async def test_ok_and_refused_check_the_mark_on_the_harness(chat: Harness) -> None:
    with pytest.raises(AssertionError):
        await ok(chat, "/stand")  # no list yet: refused
    with pytest.raises(AssertionError):
        await refused(chat, "/neu Anna Bernd Carla")
