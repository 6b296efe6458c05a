"""No update stops the bot: updates PTB cannot read, updates of unknown or wrong types and
garbled Bot API answers are logged, confirmed and told to their chat once; the poller and the
outbox carry on, and the next game is booked and answered. Through the real poller of
``skatbot run`` (``runner.run_polling``) on the strict stand-in; the odd updates (ids out of
range, wrong types, missing parts) through the webhook too."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from skatbot.handlers.resilience import UNREADABLE_NOTICE
from skatbot.storage.database import Database
from tests.helpers import GROUP_WINDOW, Bot, game_rows, ok
from tests.robustness.test_webhook import instance as webhook_instance
from tests.robustness.test_webhook import message
from tests.robustness.test_webhook import post as webhook_post
from tests.standin.fake_telegram import FakeBotApi, html_to_text

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


# -- odd updates: ids out of range, wrong types, missing parts -------------------------------------
# Telegram never sends these; each must be one logged line, confirmed, and change nothing.


def _message(text: object = "/neu Anna Bernd Carla") -> dict[str, Any]:
    return {
        "message_id": 500,
        "from": dict(USER),
        "chat": dict(GROUP),
        "date": 0,
        "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
    }


def _odd(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    message = _message()
    change(message)
    return {"message": message}


def _set(path: str, value: object) -> Callable[[dict[str, Any]], object]:
    *parents, last = path.split(".")

    def change(message: dict[str, Any]) -> None:
        holder = message
        for key in parents:
            holder = holder[key]
        holder[last] = value

    return change


BEYOND_64_BITS = 1 << 64
ODD_UPDATES: dict[str, dict[str, Any]] = {
    "chat id 0": _odd(_set("chat.id", 0)),
    "chat id beyond 64 bits": _odd(_set("chat.id", BEYOND_64_BITS)),
    "negative chat id beyond 64 bits": _odd(_set("chat.id", -BEYOND_64_BITS)),
    "chat id as text": _odd(_set("chat.id", str(CHAT))),
    "sender id beyond 64 bits": _odd(_set("from.id", BEYOND_64_BITS)),
    "sender id true": _odd(_set("from.id", True)),
    "message id beyond 64 bits": _odd(_set("message_id", BEYOND_64_BITS)),
    "topic id beyond 64 bits": _odd(
        lambda m: m.update(message_thread_id=BEYOND_64_BITS, is_topic_message=True)
    ),
    # a topic is a message: 32 bits in Telegram's schema, and stored so (PostgreSQL refuses more)
    "topic id beyond 32 bits": _odd(
        lambda m: m.update(message_thread_id=1 << 31, is_topic_message=True)
    ),
    "numeric text": _odd(_set("text", 5)),
    "text a list": _odd(_set("text", ["/neu"])),
    "entities not a list": _odd(_set("entities", "x")),
    "no sender in a group": _odd(lambda m: m.pop("from")),
    "no chat": _odd(lambda m: m.pop("chat")),
    "button data a number": {
        "callback_query": {
            "id": "cq-odd",
            "from": dict(USER),
            "message": {"message_id": 1, "date": 0, "chat": dict(GROUP)},
            "chat_instance": "ci",
            "data": 5,
        }
    },
}


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def assert_one_line_each(caplog: pytest.LogCaptureFixture, update_ids: list[int]) -> None:
    records = warnings_of(caplog)
    lines = [r.getMessage() for r in records]
    assert not [r for r in records if r.exc_info], lines  # no traceback
    for update_id in update_ids:
        assert len([line for line in lines if f"update {update_id} " in line]) == 1, lines
    assert len(records) == len(update_ids), lines


def assert_nothing_told_but_unreadable(api: Any) -> None:
    """No error notice; nothing sent anywhere but the one real chat (its "cannot read" note)."""
    sends = [c for c in api.calls if c.method.startswith("send")]
    assert all(c.params.get("chat_id") == CHAT for c in sends), [c.params for c in sends]
    texts = [str(c.params.get("text", "")) for c in sends]
    assert not [t for t in texts if "schiefgegangen" in t], texts
    assert not [t for t in texts if "Neue Liste" in t], texts  # nothing was processed


async def test_odd_updates_through_the_poller_are_one_line_each(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    caplog.clear()
    ids = [bot.api.push_update(dict(update)) for update in ODD_UPDATES.values()]
    await bot.api.wait_confirmed(ids[-1], timeout=30)
    assert bot.api.confirmed_offset > ids[-1]
    assert_one_line_each(caplog, ids)
    assert_nothing_told_but_unreadable(bot.api)
    assert bot.task is not None and not bot.task.done()  # the poller lives
    await ok(bot, "/neu Anna Bernd Carla", "Neue Liste")


async def test_odd_updates_through_the_webhook_are_answered_and_one_line_each(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    async with (
        FakeBotApi(group_window=GROUP_WINDOW) as api,
        webhook_instance(api, db) as server,
        httpx.AsyncClient() as client,
    ):
        api.add_chat(CHAT)
        caplog.set_level(logging.WARNING)
        caplog.clear()
        updates = [
            {"update_id": 100 + n, **update} for n, update in enumerate(ODD_UPDATES.values())
        ]
        updates.append({"update_id": BEYOND_64_BITS, "message": _message()})
        # valid JSON ("\ud800" escaped), but no UTF-8 can carry it (the stand-in's
        # getUpdates cannot send it either, so only here)
        updates.append({"update_id": 99, "message": _message("/neu Anna \ud800 Carla")})
        statuses = [await webhook_post(client, server, update) for update in updates]
        assert statuses == [200] * len(updates)  # answered (confirmed), none dropped
        await server.app.bot_data.outbox.wait_idle(None, 30)
        assert_one_line_each(caplog, [u["update_id"] for u in updates])
        assert_nothing_told_but_unreadable(api)
        assert await webhook_post(client, server, message(900, "/neu Anna Bernd Carla")) == 200
        await server.app.bot_data.outbox.wait_idle(None, 30)
        assert any("Neue Liste" in (m.text or "") for m in api.messages(CHAT))
