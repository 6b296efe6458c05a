"""/spielabend through Telegram: the real bot (PTB) on the strict stand-in. The poll as sent
(public, revoting), the votes as ``poll_answer`` updates (asked for in ``allowed_updates``),
closing by command and at the time (as stored: a restart loses nothing), a forum's topics, and
the fallbacks on older servers: before 9.6 no revoting (a vote cannot be changed), before 9.5
the start as plain text that reads the same."""

from __future__ import annotations

import asyncio
import datetime as dt
import re

import pytest
from sqlalchemy import update

from skatbot.handlers.game_night import close_due_now
from skatbot.handlers.registry import ALLOWED_UPDATES
from skatbot.rules.game_night import format_start
from skatbot.standin.botapi import BOT_ID
from skatbot.standin.versions import API_9_4, API_9_5
from skatbot.storage import game_nights as store
from skatbot.storage import lists as lists_store
from skatbot.storage.database import Database
from tests.helpers import GROUP_WINDOW, Bot, bot_at, ok, refused
from tests.standin.fake_telegram import FakeBotApi

GROUP = -1001
PLAYERS = [(21, "Anna"), (22, "Bernd"), (23, "Carla"), (24, "Dora")]


def sent(bot: Bot, method: str, since: int = 0) -> list[dict]:  # type: ignore[type-arg]
    return [c.params for c in bot.api.calls[since:] if c.method == method and c.ok]


async def vote(bot: Bot, poll_id: str, user_id: int, name: str, option: int = 0) -> None:
    update_id = bot.api.push_poll_answer(poll_id, [option], user_id=user_id, first_name=name)
    assert update_id is not None  # a public poll: the bot is told
    await bot.api.wait_confirmed(update_id, timeout=15)


def poll_of(bot: Bot) -> str:
    return list(bot.api.polls)[-1]


async def due_now(bot: Bot, poll_id: str) -> None:
    """Let the night's start pass (as if the clock had moved) and look for due nights."""
    past = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    bot.db.run_write(  # type: ignore[attr-defined]
        lambda s: s.execute(
            update(store.GameNightRow)
            .where(store.GameNightRow.poll == poll_id)
            .values(starts_at=past)
        )
    )
    await close_due_now(bot.app.bot, bot.app.bot_data)
    await bot.delivered()


def test_the_bot_asks_for_votes() -> None:
    assert "poll_answer" in ALLOWED_UPDATES


async def test_a_night_from_poll_to_list(bot: Bot) -> None:
    before = len(bot.api.calls)
    out = await ok(bot, "/spielabend morgen 19:00", "Spielabend", "vorgeschlagen von Spieler")
    announcement = sent(bot, "sendMessage", before)[0]["text"]
    assert re.search(r'<tg-time unix="\d+" format="wdt">', announcement)
    entity = next(c for c in bot.api.calls[before:] if c.method == "sendMessage").result
    assert entity["entities"][-1]["type"] == "date_time"  # type: ignore[index]
    (params,) = sent(bot, "sendPoll", before)
    assert params["is_anonymous"] is False and params["allows_revoting"] is True
    assert "members_only" not in params  # for channels only (sendPoll): a group gets none
    assert "19:00" in out
    poll_id = poll_of(bot)
    for user_id, name in PLAYERS:
        await vote(bot, poll_id, user_id, name)
    await vote(bot, poll_id, 22, "Bernd", 1)  # Bernd changes his mind: allowed since 9.6
    await vote(bot, poll_id, 22, "Bernd", 0)  # and back: now the last to say yes
    before = len(bot.api.calls)
    await refused(
        bot, "/spielabend schliessen", "Früher schließen dürfen nur", user_id=9, name="Mia"
    )
    closed = await ok(bot, "/spielabend schliessen", "4 Zusagen – ein Vierertisch.", "Neue Liste")
    assert "Bernd" in closed
    assert sent(bot, "stopPoll", before)
    assert bot.api.polls[poll_id].closed
    assert await bot.db.read(lambda s: lists_store.open_list(s, GROUP)) is not None


async def test_a_night_closes_at_its_time(bot: Bot) -> None:
    await ok(bot, "/spielabend morgen 19:00")
    poll_id = poll_of(bot)
    for user_id, name in PLAYERS[:3]:
        await vote(bot, poll_id, user_id, name)
    before = len(bot.api.calls)
    await due_now(bot, poll_id)
    texts = [p["text"] for p in sent(bot, "sendMessage", before)]
    assert any("3 Zusagen – ein Dreiertisch." in t for t in texts), texts
    assert bot.api.polls[poll_id].closed


async def test_a_forum_gets_a_topic_per_table(bot: Bot) -> None:
    forum = -1009001
    bot.api.add_forum(forum, title="Skatclub")
    bot.api.set_admins(forum, [BOT_ID])  # with the right to manage topics
    uid = bot.api.push_message("/spielabend morgen 19:00", chat_id=forum, chat_type="supergroup")
    await bot.api.wait_confirmed(uid, timeout=15)
    poll_id = poll_of(bot)
    names = ["Anna", "Bernd", "Carla", "Dora", "Erik", "Frieda", "Gerd"]
    for i, name in enumerate(names):
        await vote(bot, poll_id, 30 + i, name)
    before = len(bot.api.calls)
    await due_now(bot, poll_id)
    topics = sent(bot, "createForumTopic", before)
    assert sorted(t["name"].split(" · ")[1] for t in topics) == ["Tisch 1", "Tisch 2"]
    lists = [p for p in sent(bot, "sendMessage", before) if "Neue Liste" in p["text"]]
    assert len(lists) == 2 and all(p.get("message_thread_id") for p in lists)


async def test_a_forum_without_the_right_gets_the_lines_to_start_each_list(bot: Bot) -> None:
    forum = -1009002
    bot.api.add_forum(forum, title="Skatclub")  # the bot is no admin: no topics
    uid = bot.api.push_message("/spielabend morgen 19:00", chat_id=forum, chat_type="supergroup")
    await bot.api.wait_confirmed(uid, timeout=15)
    poll_id = poll_of(bot)
    for user_id, name in PLAYERS[:3]:
        await vote(bot, poll_id, user_id, name)
    before = len(bot.api.calls)
    await due_now(bot, poll_id)
    texts = [p["text"] for p in sent(bot, "sendMessage", before)]
    assert any("Themen verwalten" in t and "/neu " in t for t in texts), texts


@pytest.mark.parametrize("version", [API_9_4, API_9_5])
async def test_older_servers(db: Database, version: tuple[int, int]) -> None:
    """Before 9.6 the server ignores ``allows_revoting`` (a regular poll keeps its default: a
    vote may be changed, and the bot counts the change); before 9.5 the start is plain text,
    the one written inside the tag: it reads the same."""
    async with bot_at(db, version) as bot:
        before = len(bot.api.calls)
        await ok(bot, "/spielabend morgen 19:00")
        poll_id = poll_of(bot)
        night = await bot.db.read(lambda s: store.by_poll(s, poll_id))
        assert night is not None
        announcement = [p["text"] for p in sent(bot, "sendMessage", before)][-1]
        assert format_start(night.starts_at) in announcement
        assert ("tg-time" in announcement) == (version >= API_9_5)
        assert ("sendPoll", "allows_revoting") in bot.api.ignored_params
        # the server knows no allows_revoting: a regular poll there keeps its old default,
        # a vote may be changed (sendPoll: "defaults to ... True for regular polls")
        assert bot.api.polls[poll_id].allows_revoting
        await vote(bot, poll_id, 21, "Anna")
        await vote(bot, poll_id, 21, "Anna", 1)  # Anna changes her mind: counted as a no
        for user_id, name in [*PLAYERS[1:], (25, "Erik")]:
            await vote(bot, poll_id, user_id, name)
        before = len(bot.api.calls)
        await due_now(bot, poll_id)
        closing = next(
            p["text"] for p in sent(bot, "sendMessage", before) if "Zusagen" in p["text"]
        )
        assert "4 Zusagen" in closing and "Anna" not in closing, closing
        assert await bot.db.read(lambda s: lists_store.open_list(s, GROUP)) is not None


def test_a_stored_reply_keeps_its_poll_and_the_poll_to_stop() -> None:
    """The durable outbox stores a reply's poll (with the continuation that records its id)
    and the poll it closes, so a restart sends them as the live delivery would."""
    from skatbot.handlers import durable
    from skatbot.usecases.common.reply import Call, Poll, Reply

    reply = Reply(
        "Spielabend",
        poll=Poll("Dabei?", ("Ja", "Nein"), Call("gamenight.poll_sent", (3,))),
        stop_poll=17,
    )
    again, _, _ = durable.decode(*durable.encode(reply))
    assert again.poll == reply.poll and again.stop_poll == 17
    assert durable.decode(*durable.encode(Reply("x")))[0].poll is None


async def test_a_night_due_while_the_bot_was_down_closes_at_start(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The night is stored: after a restart (the same Telegram, a new bot process) the loop
    beside the bot finds it due and closes it, without any update arriving."""
    monkeypatch.setenv("SKATBOT_NIGHT_CHECK", "0.1")
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        bot = Bot(api, db)
        await bot.start()
        await ok(bot, "/spielabend morgen 19:00")
        poll_id = poll_of(bot)
        for user_id, name in PLAYERS[:3]:
            await vote(bot, poll_id, user_id, name)
        await bot.shutdown()
        past = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
        db.run_write(
            lambda s: s.execute(
                update(store.GameNightRow)
                .where(store.GameNightRow.poll == poll_id)
                .values(starts_at=past)
            )
        )
        before = len(api.calls)
        again = Bot(api, db)
        await again.start()
        try:
            for _ in range(100):
                night = await db.read(lambda s: store.by_poll(s, poll_id))
                if night is not None and night.state == store.CLOSED:
                    break
                await asyncio.sleep(0.05)
            await again.delivered()
            texts = [p["text"] for p in sent(again, "sendMessage", before)]
            assert any("3 Zusagen – ein Dreiertisch." in t for t in texts), texts
            assert api.polls[poll_id].closed
            assert await db.read(lambda s: lists_store.open_list(s, GROUP)) is not None
        finally:
            await again.shutdown()
