"""Tables report themselves: a table list per forum topic (or /tisch CODE), the
players sign the closed list, the results enter the tournament, the desk's pinned standings
follow (edited at most once per interval).

Everything runs through the real bot on the strict stand-in; nothing is typed at the desk but
the setup and the first draw (the second comes from the one-tap button).
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time

import pytest

from skatbot.rules.scoring import seeger_fabian_score
from skatbot.standin.server import BOT_ID, BotMessage, html_to_text
from skatbot.usecases.tournament import tables as table_lists
from tests.helpers import Bot

FORUM = -1009101  # the tournament group (a forum): the desk is its General
PLAIN = -1009102  # a group without topics: the fallback with /tisch CODE
ELSEWHERE = -1009103  # another group, where a table may play
MANAGER = 7
PLAYERS = [
    "Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav",
    "Hanna", "Ida", "Jonas", "Karl", "Lena", "Mia",
]  # fmt: skip
USER = {name: 100 + i for i, name in enumerate(PLAYERS)}
WON, LOST = "grand ohne 1 hand gewonnen", "grand ohne 1 verloren"
WON_POINTS, LOST_POINTS = 72, -96  # grand (24) ohne 1 spiel 2 hand 3; lost, not hand: -2 x 48


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


def plan(players: list[str], series: int) -> list[tuple[str, str]]:
    """The games a table plays: (declarer, game). Games = players at the table (/serienlaenge
    3 4), each declared by the Vorhand (the dealer sits out at a 4-table); the first game
    is lost in series 2, every other game is won."""
    games = []
    for i in range(len(players)):
        declarer = players[(i + 1) % len(players)]
        games.append((declarer, LOST if (i == 0 and series == 2) else WON))
    return games


def by_hand(
    tables: list[list[str]], games: list[list[tuple[str, str]]]
) -> dict[str, tuple[int, int, int]]:
    """Seeger-Fabian per player of one series, computed from the games entered."""
    out = {}
    for players, played in zip(tables, games, strict=True):
        stats = {p: [0, 0, 0] for p in players}  # points, won, lost
        for declarer, game in played:
            s = stats[declarer]
            if game == WON:
                s[0] += WON_POINTS
                s[1] += 1
            else:
                s[0] += LOST_POINTS
                s[2] += 1
        lost_total = sum(s[2] for s in stats.values())
        for p, (points, won, lost) in stats.items():
            score = seeger_fabian_score(points, won, lost, lost_total - lost, len(players))
            out[p] = (score, won, lost)
    return out


async def play_table(bot: Bot, thread: int, players: list[str], series: int) -> None:
    for declarer, game in plan(players, series):
        await ok(bot, f"/spiel {declarer} {game}", FORUM, thread, user_id=USER[declarer])
    await ok(bot, "/abschluss", FORUM, thread, user_id=USER[players[0]])


async def sign_all(bot: Bot, thread: int, players: list[str], series: int) -> None:
    for seat, name in enumerate(players):
        if series == 1:  # not linked yet: /ich at the table first
            await ok(bot, f"/ich {name}", FORUM, thread, user_id=USER[name])
        msg = sign_message(bot, FORUM, thread)
        if series == 1:  # linked now: the own name's button or the one button
            notice = await tap(bot, msg, f"{data_of(msg, SIGN_LABEL)}:{seat}", USER[name])
        else:  # known from series 1: the one button
            notice = await tap(bot, msg, data_of(msg, SIGN_LABEL), USER[name])
        assert "unterschrieben" in notice or "gemeldet" in notice, notice


SIGN_LABEL = table_lists.SIGN_LABEL


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


# --- the whole tournament ------------------------------------------------------------------------


async def test_thirteen_players_two_series_every_table_in_its_topic(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_lists, "STANDINGS_EDIT_SECONDS", 0.6)
    bot.api.add_forum(FORUM, title="Preisskat")
    bot.api.set_admins(FORUM, [BOT_ID, MANAGER])
    await setup_desk(bot, FORUM)
    draw = await ok(bot, "/auslosen 4711", FORUM)
    assert "eigenes Thema" in draw and "/tisch" not in draw, draw
    await bot.delivered()
    totals: dict[str, list[int]] = {p: [0, 0, 0] for p in PLAYERS}
    started = time.monotonic()
    for series in (1, 2):
        topics = table_topics(bot, series)
        assert sorted(topics) == [1, 2, 3, 4], topics
        assert sorted(len(p) for _, p in topics.values()) == [3, 3, 3, 4]
        seated = sorted(n for _, p in topics.values() for n in p)
        assert seated == sorted(PLAYERS)
        for thread, players in topics.values():
            await play_table(bot, thread, players, series)
        progress = await ok(bot, "/fehlend", FORUM)
        assert "abgeschlossen, 3/3 Spiele, 0/3 unterschrieben" in progress, progress
        if series == 1:
            for thread, players in topics.values():
                await sign_all(bot, thread, players, series)
        else:  # all but the last signature, then the four last ones at once: a burst
            for thread, players in topics.values():
                await sign_all(bot, thread, players[:-1], series)
            await bot.delivered()
            await asyncio.sleep(0.7)  # the interval since the last edit has passed
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
            for uid in uids:
                await bot.api.wait_confirmed(uid, timeout=30)
            await bot.delivered()
            burst = len(edits_of(bot, FORUM, mid)) - before
            assert 1 <= burst <= 2, burst  # four reports: the first edit, then one coalesced
        await bot.delivered()
        tables = [p for _, (_, p) in sorted(topics.items())]
        games = [plan(p, series) for p in tables]
        for name, (score, won, lost) in by_hand(tables, games).items():
            totals[name][0] += score
            totals[name][1] += won
            totals[name][2] += lost
        desk = [m.text or "" for m in bot.api.messages(FORUM, thread_id=0)]
        assert any(f"Serie {series} komplett – Seriensieg" in t for t in desk), desk[-3:]
        if series == 1:
            last = [m for m in bot.api.messages(FORUM, thread_id=0) if m.buttons][-1]
            notice = await tap(bot, last, data_of(last, table_lists.DRAW_LABEL), MANAGER)
            assert "Ausgelost" in notice, notice
            await bot.delivered()
    elapsed = time.monotonic() - started

    ranking = await ok(bot, "/rangliste", FORUM)
    shown = re.findall(
        r"^\d+\. (\S+) – (−?-?\d+) Punkte · (\d+) gewonnen, (\d+) verloren", ranking, re.M
    )
    got = {n: [int(s.replace("−", "-")), int(w), int(lo)] for n, s, w, lo in shown}
    assert got == totals, (got, totals)
    order = sorted(PLAYERS, key=lambda n: (-totals[n][0], -totals[n][1], totals[n][2]))
    assert [n for n, *_ in shown][:3] == order[:3] or totals[order[2]] == totals[order[3]]

    # The pinned standings: one message, the ranking of both series, edited at most once
    # per interval (8 reports; a burst becomes one edit).
    standing = pinned(bot, FORUM)
    assert "Serie 1: 4/4 Tische · Serie 2: 4/4 Tische" in (standing.text or "")
    edits = edits_of(bot, FORUM, standing.message_id)
    assert 1 <= len(edits) <= 8
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    assert all(g >= 0.6 * 0.9 for g in gaps), gaps
    assert len(edits) <= elapsed / 0.6 + 1


# --- /tisch CODE where topics cannot be made, refusals, a correction after reporting ----------

SEVEN = PLAYERS[:7]  # a Vierertisch and a Dreiertisch
OTHER = -1009104  # a second group for the other table


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


async def test_codes_in_a_group_without_topics_refusals_and_a_withdrawn_report(bot: Bot) -> None:
    await ok(bot, "/turnier Vereinsmeisterschaft", PLAIN)
    await ok(bot, "/teilnehmer " + ", ".join(SEVEN), PLAIN)
    await ok(bot, "/serienlaenge 3 4", PLAIN)
    draw = await ok(bot, "/auslosen 99", PLAIN)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", draw))
    assert sorted(codes) == ["1", "2"], draw

    await refused(bot, "/tisch QQQQQQ", ELSEWHERE, None, "kenne ich nicht", "/tisch")
    await refused(bot, f"/tisch {codes['1']}", PLAIN, None, "Turnierleitung", "/tisch")
    assert "/tisch" in await ok(bot, "/fehlend", PLAIN)  # nothing linked

    opened = await ok(bot, f"/tisch {codes['1'].lower()}", ELSEWHERE)
    assert "Serie 1 · Tisch 1" in opened and "Neue Liste" in opened
    await bot.delivered()
    desk = [m.text or "" for m in bot.api.messages(PLAIN)]
    assert any("Serie 1 · Tisch 1 spielt jetzt in" in t for t in desk), desk[-2:]
    # a table list in the wrong chat: another table here, or this table a second time
    await refused(bot, f"/tisch {codes['2']}", ELSEWHERE, None, "Tisch 1", "anderes Thema")
    await refused(bot, f"/tisch {codes['1']}", OTHER, None, "hat schon seine Liste")
    await ok(bot, f"/tisch {codes['2']}", OTHER)
    one, two = opening_players(bot, ELSEWHERE), opening_players(bot, OTHER)
    assert sorted(one + two) == sorted(SEVEN)

    await play_at(bot, ELSEWHERE, one)
    await play_at(bot, OTHER, two)
    await bot.delivered()
    sign_one, sign_two = sign_message(bot, ELSEWHERE, None), sign_message(bot, OTHER, None)
    first = data_of(sign_one, SIGN_LABEL)
    # unlinked: neither "Unterschreiben" nor the own name counts; /ich at the table first
    for data in (first, f"{first}:0"):
        notice = await tap(bot, sign_one, data, USER[one[0]])
        assert "Unterschreiben kann nur, wer hier mit seinem Namen verknüpft ist" in notice
        assert f"/ich {one[0]}" in notice or "/ich DEINNAME" in notice, notice
    for name in one:
        await ok(bot, f"/ich {name}", ELSEWHERE, user_id=USER[name])
    for name in two:
        await ok(bot, f"/ich {name}", OTHER, user_id=USER[name])
    assert (
        await tap(bot, sign_one, f"{first}:0", USER[one[0]]) == f"Danke, {one[0]} – unterschrieben."
    )
    sign_one = sign_message(bot, ELSEWHERE, None)
    before = sign_one.text
    notice = await tap(bot, sign_one, first, USER[one[0]])  # a second signature
    assert f"Du hast schon als {one[0]} unterschrieben." in notice, notice
    # a player of the other table (signed there) is no player here
    await tap(bot, sign_two, f"{data_of(sign_two, SIGN_LABEL)}:0", USER[two[0]])
    notice = await tap(bot, sign_one, f"{first}:1", USER[two[0]])
    assert f"Du bist {two[0]} und sitzt nicht an Serie 1 · Tisch 1" in notice, notice
    notice = await tap(bot, sign_one, first, USER[two[0]])
    assert "Unterschreiben können nur die Spieler dieses Tisches." in notice, notice
    assert sign_message(bot, ELSEWHERE, None).text == before  # nothing changed

    for seat in range(1, len(one)):
        sign_one = sign_message(bot, ELSEWHERE, None)
        await tap(bot, sign_one, f"{first}:{seat}", USER[one[seat]])
    await bot.delivered()
    desk = [m.text or "" for m in bot.api.messages(PLAIN)]
    assert any("Serie 1 · Tisch 1 gemeldet" in t for t in desk), desk[-3:]
    missing = await ok(bot, "/fehlend", PLAIN)
    assert (
        f"Tisch 2 ({', '.join(two)}): abgeschlossen, {len(two)}/{len(two)} Spiele, 1/{len(two)} unterschrieben"
        in missing
    ), missing

    # a correction after reporting: the table opens again, the result is withdrawn
    reopened = await ok(bot, "/oeffnen", ELSEWHERE, user_id=MANAGER)
    assert "zurückgezogen" in reopened
    await bot.delivered()
    desk = [m.text or "" for m in bot.api.messages(PLAIN)]
    assert any(t.startswith("↩️ Serie 1 · Tisch 1: Liste wieder geöffnet") for t in desk), desk[-2:]
    missing = await ok(bot, "/fehlend", PLAIN)
    assert f"Tisch 1 ({', '.join(one)}): spielt, {len(one)}/{len(one)} Spiele" in missing, missing
    assert all(n in missing for n in one)  # their results are missing again
    await ok(bot, "/abschluss", ELSEWHERE, user_id=MANAGER)
    for seat in range(len(one)):
        await tap(
            bot,
            sign_message(bot, ELSEWHERE, None),
            first_sign(bot, ELSEWHERE, seat),
            USER[one[seat]],
        )
    await bot.delivered()
    desk = [m.text or "" for m in bot.api.messages(PLAIN)]
    assert sum("Serie 1 · Tisch 1 gemeldet" in t for t in desk) == 2


def first_sign(bot: Bot, chat: int, seat: int) -> str:
    msg = sign_message(bot, chat, None)
    data = data_of(msg, SIGN_LABEL)
    return data  # linked since the first signatures: the one button is enough


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
