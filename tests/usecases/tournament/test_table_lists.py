"""Tables report themselves: a table list per forum topic (or /tisch CODE), the
players sign the closed list, the results enter the tournament, the desk's pinned standings
follow.

Nothing is typed at the desk but the setup and the first draw (the second comes from the
one-tap button). How often the pinned standings are edited (coalesced over an interval), the
topics' thread ids and a forum where the bot may not open topics are Telegram's and the
delivery's: tests/handlers/test_table_lists.py.
"""

from __future__ import annotations

import re

from skatbot.rules.scoring import seeger_fabian_score
from skatbot.usecases.tournament import tables as tournament_tables
from tests.harness import Harness, Message

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
SIGN_LABEL = tournament_tables.SIGN_LABEL


async def send(
    chat: Harness, text: str, chat_id: int, thread: int | None = None, user_id: int = MANAGER
) -> list[tuple[str, bool]]:
    """Post ``text`` (into forum topic ``thread``); (text, refusal) of the messages the bot
    sent to that chat (edits of earlier messages are not counted)."""
    name = "P" if thread is None else "Spieler"
    out = await chat.say(text, chat_id=chat_id, thread_id=thread or 0, user_id=user_id, name=name)
    return [(r.text, r.refusal) for r in out if r.method != "editMessageText"]


async def ok(chat: Harness, text: str, chat_id: int, thread: int | None = None, **kw: int) -> str:
    out = await send(chat, text, chat_id, thread, **kw)
    joined = "\n".join(t for t, _ in out)
    assert out and not any(r for _, r in out), (text, joined)
    return joined


async def refused(
    chat: Harness, text: str, chat_id: int, thread: int | None, *expected: str, **kw: int
) -> str:
    out = await send(chat, text, chat_id, thread, **kw)
    joined = "\n".join(t for t, _ in out)
    assert any(r for _, r in out), (text, joined)
    for part in expected:
        assert part in joined, (part, joined)
    return joined


async def tap(chat: Harness, msg: Message, data: str, user_id: int) -> str:
    """Press a button of ``msg``; the notice it answers."""
    return (await chat.tap(msg, data, user_id=user_id)).notice


async def claim(
    chat: Harness,
    name: str,
    chat_id: int,
    thread: int | None = None,
    by: int = MANAGER,
    user_id: int | None = None,
) -> None:
    """``/ich NAME`` at a table is a claim until someone the table knows confirms it: the
    management (``by`` = MANAGER) or a player of the table already linked."""
    who = USER[name] if user_id is None else user_id
    text = await ok(chat, f"/ich {name}", chat_id, thread, user_id=who)
    assert "Stimmt das?" in text, text
    notice = await tap(chat, chat.last(chat_id, with_buttons=True), "Ja, stimmt", by)
    assert notice == "Bestätigt.", notice


def data_of(msg: Message, label: str) -> str:
    for row in msg.buttons:
        for text, data in row:
            if text == label:
                return data
    raise AssertionError(f"no button {label!r} on {msg.text!r}: {msg.buttons}")


def messages(chat: Harness, chat_id: int, thread: int | None = None) -> list[Message]:
    """The bot's messages in ``chat_id`` (only those of forum topic ``thread``: 0 is outside
    any topic), oldest first."""
    return sorted(
        (
            m
            for (c, _), m in chat.messages.items()
            if c == chat_id and (thread is None or m.thread_id == thread)
        ),
        key=lambda m: m.message_id,
    )


def sign_message(chat: Harness, chat_id: int, thread: int | None) -> Message:
    msgs = [
        m
        for m in messages(chat, chat_id, thread if thread is not None else 0)
        if m.text.startswith("✍️ Unterschreiben")
    ]
    assert msgs, "no sign message"
    return msgs[-1]


def table_topics(chat: Harness, series: int) -> dict[int, tuple[int, list[str]]]:
    """Table number -> (thread id, players in seat order) of the topics the bot created (and
    did not remove again)."""
    found = {}
    for (forum, thread), name in sorted(chat.topic_names.items()):
        m = re.search(rf"S{series} Tisch (\d+)$", name)
        if forum != FORUM or m is None or (forum, thread) in chat.closed_topics:
            continue
        opening = messages(chat, FORUM, thread)[0]
        players = re.search(r"Neue Liste: (.+?) – ", opening.text)
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


async def play_table(chat: Harness, thread: int, players: list[str], series: int) -> None:
    for declarer, game in plan(players, series):
        await ok(chat, f"/spiel {declarer} {game}", FORUM, thread, user_id=USER[declarer])
    await ok(chat, "/abschluss", FORUM, thread, user_id=USER[players[0]])


async def sign_all(chat: Harness, thread: int, players: list[str], series: int) -> None:
    for seat, name in enumerate(players):
        if series == 1:  # not linked yet: /ich at the table first, confirmed by a neighbour
            by = USER[players[seat - 1]] if seat else MANAGER
            await claim(chat, name, FORUM, thread, by)
        msg = sign_message(chat, FORUM, thread)
        if series == 1:  # linked now: the own name's button or the one button
            notice = await tap(chat, msg, f"{data_of(msg, SIGN_LABEL)}:{seat}", USER[name])
        else:  # known from series 1: the one button
            notice = await tap(chat, msg, data_of(msg, SIGN_LABEL), USER[name])
        assert "unterschrieben" in notice or "gemeldet" in notice, notice


async def setup_desk(chat: Harness, chat_id: int) -> None:
    await ok(chat, "/turnier Preisskat Vereinsheim", chat_id)
    await ok(chat, "/teilnehmer " + ", ".join(PLAYERS), chat_id)
    await ok(chat, "/serienlaenge 3 4", chat_id)


def pinned(chat: Harness, chat_id: int) -> Message:
    found = [m for m in messages(chat, chat_id, 0) if m.pinned]
    assert len(found) == 1, found
    return found[0]


# --- the whole tournament ------------------------------------------------------------------------


async def test_thirteen_players_two_series_every_table_in_its_topic(chat: Harness) -> None:
    chat.add_forum(FORUM)
    chat.set_admins(FORUM, MANAGER)
    await setup_desk(chat, FORUM)
    draw = await ok(chat, "/auslosen 4711", FORUM)
    assert "eigenes Thema" in draw and "/tisch" not in draw, draw
    totals: dict[str, list[int]] = {p: [0, 0, 0] for p in PLAYERS}
    for series in (1, 2):
        topics = table_topics(chat, series)
        assert sorted(topics) == [1, 2, 3, 4], topics
        assert sorted(len(p) for _, p in topics.values()) == [3, 3, 3, 4]
        seated = sorted(n for _, p in topics.values() for n in p)
        assert seated == sorted(PLAYERS)
        for thread, players in topics.values():
            await play_table(chat, thread, players, series)
        progress = await ok(chat, "/fehlend", FORUM)
        assert "abgeschlossen, 3/3 Spiele, 0/3 unterschrieben" in progress, progress
        for thread, players in topics.values():
            await sign_all(chat, thread, players, series)
        tables = [p for _, (_, p) in sorted(topics.items())]
        games = [plan(p, series) for p in tables]
        for name, (score, won, lost) in by_hand(tables, games).items():
            totals[name][0] += score
            totals[name][1] += won
            totals[name][2] += lost
        desk = [m.text for m in messages(chat, FORUM, 0)]
        assert any(f"Serie {series} komplett – Seriensieg" in t for t in desk), desk[-3:]
        if series == 1:
            last = [m for m in messages(chat, FORUM, 0) if m.buttons][-1]
            notice = await tap(chat, last, data_of(last, tournament_tables.DRAW_LABEL), MANAGER)
            assert "Ausgelost" in notice, notice

    ranking = await ok(chat, "/rangliste", FORUM)
    shown = re.findall(
        r"^\d+\. (\S+) – (−?-?\d+) Punkte · (\d+) gewonnen, (\d+) verloren", ranking, re.M
    )
    got = {n: [int(s.replace("−", "-")), int(w), int(lo)] for n, s, w, lo in shown}
    assert got == totals, (got, totals)
    order = sorted(PLAYERS, key=lambda n: (-totals[n][0], -totals[n][1], totals[n][2]))
    assert [n for n, *_ in shown][:3] == order[:3] or totals[order[2]] == totals[order[3]]

    # The pinned standings: one message, edited to the ranking of both series (how often:
    # tests/handlers/test_table_lists.py).
    standing = pinned(chat, FORUM)
    assert "Serie 1: 4/4 Tische · Serie 2: 4/4 Tische" in standing.text
    assert standing.edits >= 1


# --- /tisch CODE where topics cannot be made, refusals, a correction after reporting ----------

SEVEN = PLAYERS[:7]  # a Vierertisch and a Dreiertisch
OTHER = -1009104  # a second group for the other table


def opening_players(chat: Harness, chat_id: int, thread: int | None = None) -> list[str]:
    msgs = messages(chat, chat_id, thread if thread is not None else 0)
    opening = [m for m in msgs if "Neue Liste" in m.text][-1]
    found = re.search(r"Neue Liste: (.+?) – ", opening.text)
    assert found
    return found.group(1).split(", ")


async def play_at(chat: Harness, chat_id: int, players: list[str]) -> None:
    for i in range(len(players)):
        declarer = players[(i + 1) % len(players)]
        await ok(chat, f"/spiel {declarer} {WON}", chat_id, user_id=USER[declarer])
    await ok(chat, "/abschluss", chat_id, user_id=USER[players[0]])


async def test_codes_in_a_group_without_topics_refusals_and_a_withdrawn_report(
    chat: Harness,
) -> None:
    await ok(chat, "/turnier Vereinsmeisterschaft", PLAIN)
    await ok(chat, "/teilnehmer " + ", ".join(SEVEN), PLAIN)
    await ok(chat, "/serienlaenge 3 4", PLAIN)
    draw = await ok(chat, "/auslosen 99", PLAIN)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", draw))
    assert sorted(codes) == ["1", "2"], draw

    await refused(chat, "/tisch QQQQQQ", ELSEWHERE, None, "kenne ich nicht", "/tisch")
    await refused(chat, f"/tisch {codes['1']}", PLAIN, None, "Turnierleitung", "/tisch")
    assert "/tisch" in await ok(chat, "/fehlend", PLAIN)  # nothing linked

    opened = await ok(chat, f"/tisch {codes['1'].lower()}", ELSEWHERE)
    assert "Serie 1 · Tisch 1" in opened and "Neue Liste" in opened
    desk = [m.text for m in messages(chat, PLAIN)]
    assert any("Serie 1 · Tisch 1 spielt jetzt in" in t for t in desk), desk[-2:]
    # a table list in the wrong chat: another table here, or this table a second time
    await refused(chat, f"/tisch {codes['2']}", ELSEWHERE, None, "Tisch 1", "anderes Thema")
    await refused(chat, f"/tisch {codes['1']}", OTHER, None, "hat schon seine Liste")
    await ok(chat, f"/tisch {codes['2']}", OTHER)
    one, two = opening_players(chat, ELSEWHERE), opening_players(chat, OTHER)
    assert sorted(one + two) == sorted(SEVEN)

    await play_at(chat, ELSEWHERE, one)
    await play_at(chat, OTHER, two)
    sign_one, sign_two = sign_message(chat, ELSEWHERE, None), sign_message(chat, OTHER, None)
    first = data_of(sign_one, SIGN_LABEL)
    # unlinked: neither "Unterschreiben" nor the own name counts; /ich at the table first
    for data in (first, f"{first}:0"):
        notice = await tap(chat, sign_one, data, USER[one[0]])
        assert "Unterschreiben kann nur, wer hier mit seinem Namen verknüpft ist" in notice
        assert f"/ich {one[0]}" in notice or "/ich DEINNAME" in notice, notice
    for names, where in ((one, ELSEWHERE), (two, OTHER)):
        for i, name in enumerate(names):
            await claim(chat, name, where, by=USER[names[i - 1]] if i else MANAGER)
    assert (
        await tap(chat, sign_one, f"{first}:0", USER[one[0]])
        == f"Danke, {one[0]} – unterschrieben."
    )
    sign_one = sign_message(chat, ELSEWHERE, None)
    before = sign_one.text
    notice = await tap(chat, sign_one, first, USER[one[0]])  # a second signature
    assert f"Du hast schon als {one[0]} unterschrieben." in notice, notice
    # a player of the other table (signed there) is no player here
    await tap(chat, sign_two, f"{data_of(sign_two, SIGN_LABEL)}:0", USER[two[0]])
    notice = await tap(chat, sign_one, f"{first}:1", USER[two[0]])
    assert f"Du bist {two[0]} und sitzt nicht an Serie 1 · Tisch 1" in notice, notice
    notice = await tap(chat, sign_one, first, USER[two[0]])
    assert "Unterschreiben können nur die Spieler dieses Tisches." in notice, notice
    assert sign_message(chat, ELSEWHERE, None).text == before  # nothing changed

    for seat in range(1, len(one)):
        sign_one = sign_message(chat, ELSEWHERE, None)
        await tap(chat, sign_one, f"{first}:{seat}", USER[one[seat]])
    desk = [m.text for m in messages(chat, PLAIN)]
    assert any("Serie 1 · Tisch 1 gemeldet" in t for t in desk), desk[-3:]
    missing = await ok(chat, "/fehlend", PLAIN)
    assert (
        f"Tisch 2 ({', '.join(two)}): abgeschlossen, {len(two)}/{len(two)} Spiele, 1/{len(two)} unterschrieben"
        in missing
    ), missing

    # a correction after reporting: the table opens again, the result is withdrawn
    reopened = await ok(chat, "/oeffnen", ELSEWHERE, user_id=MANAGER)
    assert "zurückgezogen" in reopened
    desk = [m.text for m in messages(chat, PLAIN)]
    assert any(t.startswith("↩️ Serie 1 · Tisch 1: Liste wieder geöffnet") for t in desk), desk[-2:]
    missing = await ok(chat, "/fehlend", PLAIN)
    assert f"Tisch 1 ({', '.join(one)}): spielt, {len(one)}/{len(one)} Spiele" in missing, missing
    assert all(n in missing for n in one)  # their results are missing again
    await ok(chat, "/abschluss", ELSEWHERE, user_id=MANAGER)
    for seat in range(len(one)):
        await tap(
            chat,
            sign_message(chat, ELSEWHERE, None),
            first_sign(chat, ELSEWHERE, seat),
            USER[one[seat]],
        )
    desk = [m.text for m in messages(chat, PLAIN)]
    assert sum("Serie 1 · Tisch 1 gemeldet" in t for t in desk) == 2


def first_sign(chat: Harness, chat_id: int, seat: int) -> str:
    msg = sign_message(chat, chat_id, None)
    data = data_of(msg, SIGN_LABEL)
    return data  # linked since the first signatures: the one button is enough
