"""No update stops the bot: updates PTB cannot read, updates of unknown or wrong types and
garbled Bot API answers are logged, confirmed and told to their chat once; the poller and the
outbox carry on, and the next game is booked and answered. Through the real poller of
``skatbot run`` (``runner.run_polling``) on the strict stand-in."""

from __future__ import annotations

import logging

import pytest

from skatbot.handlers.resilience import UNREADABLE_NOTICE
from tests.helpers import Bot, game_rows, ok
from tests.standin.fake_telegram import html_to_text

CHAT = -1001
USER = {"id": 1, "is_bot": False, "first_name": "Spieler"}
GROUP = {"id": CHAT, "type": "group", "title": "Skatrunde"}


def notices(bot: Bot) -> list[str]:
    return [
        m.text or ""
        for m in bot.api.messages(CHAT)
        if html_to_text(UNREADABLE_NOTICE) in (m.text or "")
    ]


async def test_malformed_updates_then_a_normal_game(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    await ok(bot, "/neu Anna Bernd Carla", "Neue Liste")
    menu = [m for m in bot.api.messages(CHAT) if m.buttons][-1]
    caplog.set_level(logging.WARNING)
    poison = [
        # a kind of update this bot version does not know (not asked for: never delivered)
        {"chat_boost_2030": {"chat": GROUP, "boost": {"id": 1}}},
        # a button tap without chat_instance: PTB's CallbackQuery raises TypeError
        {
            "callback_query": {
                "id": "cq-poison",
                "from": USER,
                "message": {"message_id": menu.message_id, "date": 0, "chat": GROUP},
                "data": menu.buttons[0][0]["callback_data"],
            }
        },
        # a message without date and sender
        {"message": {"message_id": 7001, "chat": GROUP, "text": "/stand"}},
        # wrong types everywhere
        {"message": {"message_id": "x", "date": "gestern", "chat": GROUP, "text": 5}},
        {"message": {"message_id": 7002, "date": 0, "chat": "keine", "text": "/stand"}},
        {"edited_message": ["not", "an", "object"]},
    ]
    ids = [bot.api.push_update(u) for u in poison]
    await bot.api.wait_confirmed(ids[-1], timeout=15)
    # each unreadable update was logged with its id and confirmed; its chat heard once each
    for update_id in ids[1:]:
        assert any(f"update {update_id} cannot be read" in r.getMessage() for r in caplog.records)
    assert bot.api.confirmed_offset > ids[-1]
    assert len(notices(bot)) == 3  # the three that name a chat readably
    assert bot.task is not None and not bot.task.done()  # the poller lives
    # and the next game is booked and answered
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", "Spiel 1", "Anna +72")
    assert len(game_rows(bot.db, CHAT)) == 1
    # nothing came again: a restart would not see them either
    assert all(u["update_id"] > ids[-1] for u in bot.api.pending_updates)


async def test_an_update_without_chat_is_confirmed_quietly(bot: Bot) -> None:
    before = len(bot.api.calls)
    uid = bot.api.push_update({"inline_query": {"id": "iq-poison", "query": "x"}})  # no from
    await bot.api.wait_confirmed(uid, timeout=15)
    assert not [c for c in bot.api.calls[before:] if c.method == "sendMessage"]
    await ok(bot, "/neu Anna Bernd Carla", "Neue Liste")


async def test_a_null_result_of_an_edit_is_settled_and_the_outbox_lives(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    await ok(bot, "/neu Anna Bernd Carla", "Neue Liste")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", "Anna +72")
    await bot.say("/anheften")  # from now on every booking edits the pinned standings
    bot.api.garble_next("editMessageText", None, times=5)
    bot.api.garble_next("editMessageReplyMarkup", None, times=5)
    caplog.set_level(logging.ERROR)
    # the garbled answers to those edits must not escape
    await ok(bot, "/spiel Bernd kreuz mit 2 verloren", "Spiel 2")
    await ok(bot, "/spiel Carla herz ohne 1 gewonnen", "Spiel 3")
    edits = [
        c
        for c in bot.api.calls
        if c.method in ("editMessageText", "editMessageReplyMarkup") and c.ok
    ]
    assert edits, "the bookings edited nothing: the test would prove nothing"
    failed = [r for r in caplog.records if "edit of message" in r.getMessage()]
    assert failed and all(r.exc_info is None for r in failed)  # one line each, no traceback
    assert len(game_rows(bot.db, CHAT)) == 3
    await ok(bot, "/stand", "3/36")


async def test_a_garbled_answer_to_a_send_is_settled_and_the_outbox_lives(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    await ok(bot, "/neu Anna Bernd Carla", "Neue Liste")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", "Anna +72")
    caplog.set_level(logging.ERROR)
    # Telegram takes the document, but the answer is no Message PTB can read
    bot.api.garble_next("sendDocument", {"garbled": True})
    bot.api.garble_next("sendMessage", None)
    await bot.say("/abschluss ja")
    await bot.say("/weiter")
    await bot.delivered()
    assert [c for c in bot.api.calls if c.method == "sendDocument" and c.ok], "no document sent"
    failed = [r for r in caplog.records if "reply to chat" in r.getMessage()]
    assert len(failed) == 1  # logged once, the row settled (not sent again)
    assert len([c for c in bot.api.calls if c.method == "sendDocument"]) == 1
    await ok(bot, "/spiel Bernd kreuz mit 2 verloren", "Spiel 1", "Bernd")
