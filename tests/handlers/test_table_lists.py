"""Tables report themselves, as far as Telegram and the delivery are concerned: the
desk's pinned standings are edited at most once per interval (a burst of reports becomes one
edit), every table gets its topic with Telegram's thread ids, and a forum where the bot may
not open topics gets the /tisch codes.

The tournament itself (topics, signatures, reports, codes, refusals) is tested on the use
cases: tests/usecases/tournament/test_table_lists.py. The helpers here drive the real bot
on the strict stand-in (tests/handlers/test_rich_tables.py and test_racing_reports.py use them too).
"""

from __future__ import annotations

import itertools
import re
import time

import pytest

from skatbot.standin.botapi import BOT_ID, BotMessage, html_to_text
from skatbot.usecases.tournament import tables as tournament_tables
from tests.helpers import Bot
from tests.usecases.tournament.test_table_lists import (
    ELSEWHERE,
    FORUM,
    MANAGER,
    OTHER,
    PLAIN,
    PLAYERS,
    SEVEN,
    USER,
    WON,
    plan,
)

# Re-exported: the setting is the use-case tests'; other Telegram tests import it from here.
__all__ = ["ELSEWHERE", "MANAGER", "OTHER", "PLAIN", "PLAYERS", "SEVEN", "USER"]
SIGN_LABEL = tournament_tables.SIGN_LABEL


async def send(
    bot: Bot, text: str, chat_id: int, thread: int | None = None, user_id: int = MANAGER
) -> list[tuple[str, bool]]:
    """Post ``text`` (into forum topic ``thread``); (text, refusal) of what the bot sent."""
    before = len(bot.api.calls)
    if thread is None:
        uid = bot.api.push_message(
            text, chat_id=chat_id, user_id=user_id, first_name="P", chat_type="supergroup"
        )
    else:
        uid = bot.api.push_message(text, chat_id=chat_id, user_id=user_id, thread_id=thread)
    await bot.api.wait_confirmed(uid, timeout=30)
    out = []
    for call in bot.api.calls[before:]:
        if call.params.get("chat_id") != chat_id or not call.ok:
            continue
        if call.method in ("sendMessage", "sendDocument", "sendPhoto"):
            html = str(call.params.get("text") or call.params.get("caption") or "")
            mid = call.result.get("message_id") if isinstance(call.result, dict) else None
            out.append((html_to_text(html), (chat_id, mid) in bot.refusals))
    return out


async def ok(bot: Bot, text: str, chat_id: int, thread: int | None = None, **kw: int) -> str:
    out = await send(bot, text, chat_id, thread, **kw)
    joined = "\n".join(t for t, _ in out)
    assert out and not any(r for _, r in out), (text, joined)
    return joined


async def refused(
    bot: Bot, text: str, chat_id: int, thread: int | None, *expected: str, **kw: int
) -> str:
    out = await send(bot, text, chat_id, thread, **kw)
    joined = "\n".join(t for t, _ in out)
    assert any(r for _, r in out), (text, joined)
    for part in expected:
        assert part in joined, (part, joined)
    return joined


async def tap(bot: Bot, msg: BotMessage, data: str, user_id: int) -> str:
    """Press a button of ``msg``; the answerCallbackQuery text."""
    before = len(bot.api.calls)
    uid = bot.api.push_callback(
        data, message_id=msg.message_id, chat_id=msg.chat_id, user_id=user_id
    )
    await bot.api.wait_confirmed(uid, timeout=30)
    return " ".join(
        str(c.params.get("text", ""))
        for c in bot.api.calls[before:]
        if c.method == "answerCallbackQuery"
    )


def data_of(msg: BotMessage, label: str) -> str:
    for row in msg.buttons:
        for b in row:
            if b["text"] == label:
                return str(b["callback_data"])
    raise AssertionError(f"no button {label!r} on {msg.text!r}: {msg.buttons}")


def sign_message(bot: Bot, chat_id: int, thread: int | None) -> BotMessage:
    msgs = [
        m
        for m in bot.api.messages(chat_id, thread_id=thread if thread is not None else 0)
        if (m.text or "").startswith("✍️ Unterschreiben")
    ]
    assert msgs, "no sign message"
    return msgs[-1]


def table_topics(bot: Bot, series: int) -> dict[int, tuple[int, list[str]]]:
    """Table number -> (thread id, players in seat order) of the topics the bot created."""
    found = {}
    for thread, name in bot.api.topics.get(FORUM, {}).items():
        m = re.search(rf"S{series} Tisch (\d+)$", name)
        if m is None:
            continue
        opening = bot.api.messages(FORUM, thread_id=thread)[0]
        players = re.search(r"Neue Liste: (.+?) – ", opening.text or "")
        assert players, opening.text
        found[int(m.group(1))] = (thread, players.group(1).split(", "))
    return found


async def claim(
    bot: Bot, name: str, chat: int, thread: int | None = None, by: int = MANAGER
) -> None:
    """``/ich NAME`` at a table, confirmed with "Ja, stimmt" by ``by`` (the management, or a
    player of the table already linked)."""
    await ok(bot, f"/ich {name}", chat, thread, user_id=USER[name])
    shown = bot.api.messages(chat, thread_id=thread if thread is not None else 0)
    msg = [m for m in shown if (m.text or "").startswith("🙋")][-1]
    notice = await tap(bot, msg, data_of(msg, "✅ Ja, stimmt"), by)
    assert notice == "Bestätigt.", notice


async def play_table(bot: Bot, thread: int, players: list[str], series: int) -> None:
    for declarer, game in plan(players, series):
        await ok(bot, f"/spiel {declarer} {game}", FORUM, thread, user_id=USER[declarer])
    await ok(bot, "/abschluss", FORUM, thread, user_id=USER[players[0]])


async def sign_all(bot: Bot, thread: int, players: list[str], series: int) -> None:
    for seat, name in enumerate(players):
        if series == 1:  # not linked yet: /ich at the table first, confirmed by a neighbour
            await claim(bot, name, FORUM, thread, USER[players[seat - 1]] if seat else MANAGER)
        msg = sign_message(bot, FORUM, thread)
        if series == 1:  # linked now: the own name's button or the one button
            notice = await tap(bot, msg, f"{data_of(msg, SIGN_LABEL)}:{seat}", USER[name])
        else:  # known from series 1: the one button
            notice = await tap(bot, msg, data_of(msg, SIGN_LABEL), USER[name])
        assert "unterschrieben" in notice or "gemeldet" in notice, notice


async def setup_desk(bot: Bot, chat: int) -> None:
    await ok(bot, "/turnier Preisskat Vereinsheim", chat)
    await ok(bot, "/teilnehmer " + ", ".join(PLAYERS), chat)
    await ok(bot, "/serienlaenge 3 4", chat)


def pinned(bot: Bot, chat: int) -> BotMessage:
    found = [m for m in bot.api.messages(chat, thread_id=0) if m.pinned]
    assert len(found) == 1, found
    return found[0]


def edits_of(bot: Bot, chat: int, message_id: int) -> list[float]:
    return [
        c.time
        for c in bot.api.calls
        if c.method == "editMessageText"
        and c.ok
        and c.params.get("chat_id") == chat
        and c.params.get("message_id") == message_id
    ]


def opening_players(bot: Bot, chat: int, thread: int | None = None) -> list[str]:
    msgs = bot.api.messages(chat, thread_id=thread if thread is not None else 0)
    opening = [m for m in msgs if "Neue Liste" in (m.text or "")][-1]
    found = re.search(r"Neue Liste: (.+?) – ", opening.text or "")
    assert found
    return found.group(1).split(", ")


async def play_at(bot: Bot, chat: int, players: list[str]) -> None:
    for i in range(len(players)):
        declarer = players[(i + 1) % len(players)]
        await ok(bot, f"/spiel {declarer} {WON}", chat, user_id=USER[declarer])
    await ok(bot, "/abschluss", chat, user_id=USER[players[0]])


# --- the pinned standings: at most one edit per interval ---------------------------------------


async def test_a_burst_of_four_reports_edits_the_pinned_standings_once_more(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thirteen players, every table in its topic. The first table reports, the other three
    right after it, at once: the first report edits the pinned standings, the other three
    become one edit when the interval is up - no two edits closer than the interval."""
    monkeypatch.setattr(tournament_tables, "STANDINGS_EDIT_SECONDS", 0.6)
    bot.api.add_forum(FORUM, title="Preisskat")
    bot.api.set_admins(FORUM, [BOT_ID, MANAGER])
    await setup_desk(bot, FORUM)
    draw = await ok(bot, "/auslosen 4711", FORUM)
    assert "eigenes Thema" in draw and "/tisch" not in draw, draw
    await bot.delivered()
    started = time.monotonic()
    topics = table_topics(bot, 1)
    assert sorted(topics) == [1, 2, 3, 4], topics
    assert sorted(len(p) for _, p in topics.values()) == [3, 3, 3, 4]
    seated = sorted(n for _, p in topics.values() for n in p)
    assert seated == sorted(PLAYERS)
    for thread, players in topics.values():
        await play_table(bot, thread, players, 1)
        await sign_all(bot, thread, players[:-1], 1)  # all but the last signature
        last = players[-1]
        await claim(bot, last, FORUM, thread, USER[players[0]])
    await bot.delivered()
    mid = pinned(bot, FORUM).message_id
    before = len(edits_of(bot, FORUM, mid))
    uids = []
    for thread, players in topics.values():
        msg = sign_message(bot, FORUM, thread)
        data = data_of(msg, SIGN_LABEL)
        uids.append(
            bot.api.push_callback(
                data, message_id=msg.message_id, chat_id=FORUM, user_id=USER[players[-1]]
            )
        )
        if len(uids) == 1:  # the first report is handled before the others come
            await bot.api.wait_confirmed(uids[0], timeout=30)
    for uid in uids:
        await bot.api.wait_confirmed(uid, timeout=30)
    await bot.delivered()
    burst = len(edits_of(bot, FORUM, mid)) - before
    assert 1 <= burst <= 2, burst  # four reports: the first edit, then one coalesced
    elapsed = time.monotonic() - started
    desk = [m.text or "" for m in bot.api.messages(FORUM, thread_id=0)]
    assert any("Serie 1 komplett – Seriensieg" in t for t in desk), desk[-3:]

    # one pinned message, the four tables in it, edited at most once per interval
    standing = pinned(bot, FORUM)
    assert "Serie 1: 4/4 Tische" in (standing.text or "")
    edits = edits_of(bot, FORUM, standing.message_id)
    assert 1 <= len(edits) <= 4
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    assert all(g >= 0.6 * 0.9 for g in gaps), gaps
    assert len(edits) <= elapsed / 0.6 + 1


# --- a forum where the bot may not open topics ---------------------------------------------------


async def test_a_forum_without_the_right_gets_codes(bot: Bot) -> None:
    bot.api.add_forum(FORUM, title="Preisskat")  # the bot is no admin: no topics
    await ok(bot, "/turnier Ohne Themen", FORUM)
    await ok(bot, "/teilnehmer " + ", ".join(SEVEN), FORUM)
    draw = await ok(bot, "/auslosen 5", FORUM)
    assert "eigenes Thema" in draw
    await bot.delivered()
    assert bot.api.topics[FORUM] == {}
    desk = [m.text or "" for m in bot.api.messages(FORUM, thread_id=0)]
    told = [t for t in desk if "Themen für die Tische darf ich hier nicht anlegen" in t]
    assert len(told) == 1, desk  # one message for all tables
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", told[0]))
    assert sorted(codes) == ["1", "2"]
    topic = bot.api.create_topic(FORUM, "Tisch 2")  # a member makes a topic
    opened = await ok(bot, f"/tisch {codes['2']}", FORUM, topic)
    assert "Serie 1 · Tisch 2" in opened
    players = opening_players(bot, FORUM, topic)
    await refused(bot, f"/spiel {players[1]} {WON}", FORUM, None, "keine Liste")  # not the desk
