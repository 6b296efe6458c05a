"""Tournament tables bound to people: who may link a table to a chat (the management, a
known player, or the draw's single-use deep link), that two chats never both get it (a lock
on the table's row; the race on PostgreSQL), releasing a wrong link, and signatures that
count only from the account linked to that player."""

from __future__ import annotations

import re
import threading
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select

from skatbot.handlers.routes import ROUTES, Kind
from skatbot.rules.errors import RuleError
from skatbot.storage.database import Database, lock_chat
from skatbot.storage.lists_models import SheetList
from skatbot.storage.schema import metadata
from skatbot.storage.tournament_models import TableLink
from skatbot.usecases.common.reply import Command
from skatbot.usecases.tournament import tables as tournament_tables
from tests.harness import Harness
from tests.helpers import PG_URL, fresh_database
from tests.standin.fake_telegram import BOT_USERNAME
from tests.usecases.tournament.test_table_lists import (
    SIGN_LABEL,
    WON,
    claim,
    data_of,
    messages,
    ok,
    opening_players,
    refused,
    sign_message,
    tap,
)

DESK = -1009201
TABLE_CHAT = -1009202
EVIL = -1009203  # an outsider's group
ELSE = -1009204
MANAGER = 7
OUTSIDER, STRANGERS = 666, (901, 902, 903)
SIX = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda"]  # two Dreiertische
USER = {name: 300 + i for i, name in enumerate(SIX)}


def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    def read(session: Any) -> dict[str, list[tuple[Any, ...]]]:
        return {
            t.name: sorted((tuple(r) for r in session.execute(select(t)).all()), key=repr)
            for t in metadata().sorted_tables
        }

    return db.run_read(read)  # type: ignore[no-any-return]


async def draw(chat: Harness) -> tuple[dict[str, str], dict[str, str]]:
    """A desk with six participants, series 1 drawn: table -> /tisch code, and table ->
    the deep link's /start payload (from the link buttons under the draw)."""
    await ok(chat, "/turnier Stadtpokal", DESK)
    await ok(chat, "/teilnehmer " + ", ".join(SIX), DESK)
    await ok(chat, "/serienlaenge 3 3", DESK)
    text = await ok(chat, "/auslosen 7", DESK)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", text))
    return codes, invites(chat)


def invites(chat: Harness) -> dict[str, str]:
    msg = [m for m in messages(chat, DESK) if m.buttons][-1]
    out = {}
    for row in msg.buttons:
        for text, link in row:
            url = urlsplit(link)
            assert url.netloc == "t.me" and url.path == f"/{BOT_USERNAME}", url
            table = re.search(r"Tisch (\d)", text)
            assert table
            out[table.group(1)] = parse_qs(url.query)["startgroup"][0]
    return out


async def test_an_outsider_cannot_take_a_table_over_with_its_code(chat: Harness) -> None:
    codes, _ = await draw(chat)
    before = dump(chat.db)
    for code in (codes["1"], codes["1"].lower()):
        text = await refused(
            chat,
            f"/tisch {code}",
            EVIL,
            None,
            "verknüpfen nur die Turnierleitung",
            "👉",
            user_id=OUTSIDER,
        )
        assert "Gruppe wählen" in text and f"/tisch {codes['1']}" in text, text
    assert dump(chat.db) == before  # nothing linked, nothing opened
    # the real table is not refused afterwards
    opened = await ok(chat, f"/tisch {codes['1']}", TABLE_CHAT, user_id=MANAGER)
    assert "Serie 1 · Tisch 1" in opened


async def test_a_known_player_may_link_their_own_table_in_series_two(chat: Harness) -> None:
    codes, _ = await draw(chat)
    await ok(chat, f"/tisch {codes['1']}", TABLE_CHAT, user_id=MANAGER)
    players = opening_players(chat, TABLE_CHAT)
    await ok(chat, f"/ich {players[0]}", TABLE_CHAT, user_id=USER[players[0]])
    # linked in the table's place; the code of the *other* table is still not theirs
    await refused(
        chat, f"/tisch {codes['2']}", ELSE, None, "verknüpfen nur", user_id=USER[players[0]]
    )


async def test_a_player_linked_at_the_desk_may_link_their_table(chat: Harness) -> None:
    codes, _ = await draw(chat)
    drawn = next(m.text for m in messages(chat, DESK) if "ausgelost" in m.text)
    tables = re.findall(r"Tisch (\d): (.+)", drawn)
    table_one = dict(tables)["1"].split(", ")
    player = table_one[0]
    await ok(chat, f"/ich {player}", DESK, user_id=USER[player])
    await refused(chat, f"/tisch {codes['2']}", ELSE, None, "verknüpfen nur", user_id=USER[player])
    opened = await ok(chat, f"/tisch {codes['1']}", ELSE, user_id=USER[player])
    assert "Serie 1 · Tisch 1" in opened
    # and signs there without another /ich
    for i in range(3):
        declarer = table_one[(i + 1) % 3]
        await ok(chat, f"/spiel {declarer} {WON}", ELSE, user_id=USER[declarer])
    await ok(chat, "/abschluss", ELSE, user_id=USER[player])
    msg = sign_message(chat, ELSE, None)
    notice = await tap(chat, msg, data_of(msg, SIGN_LABEL), USER[player])
    assert notice == f"Danke, {player} – unterschrieben.", notice


async def test_the_deep_link_is_long_single_use_and_void_after_the_next_draw(chat: Harness) -> None:
    codes, links = await draw(chat)
    assert sorted(links) == ["1", "2"]
    for payload in links.values():
        code = payload.removeprefix(tournament_tables.INVITE_PREFIX)
        assert len(code) * 6 >= 96, code  # URL-safe base64: 6 bits a character
    # "add to group" sends /start <payload> there; whoever tapped it
    opened = await ok(chat, f"/start@{BOT_USERNAME} {links['1']}", EVIL, user_id=OUTSIDER)
    assert "Serie 1 · Tisch 1" in opened and "Neue Liste" in opened, opened
    # used up: a second group gets a clear refusal
    await refused(
        chat, f"/start {links['1']}", ELSE, None, "gilt nicht mehr", "👉", user_id=OUTSIDER
    )
    # a guessed one neither
    await refused(chat, "/start tisch_AAAAAAAAAAAAAAAA", ELSE, None, "gilt nicht mehr")
    # the management releases the wrong link: the list there is an ordinary list again
    released = await ok(chat, "/tisch freigeben 1", DESK, user_id=MANAGER)
    assert "Serie 1 · Tisch 1 ist frei" in released, released
    assert any("gehört nicht mehr zu Serie 1 · Tisch 1" in m.text for m in messages(chat, EVIL))
    fresh = invites(chat)
    assert fresh["1"] != links["1"]
    await ok(chat, f"/start {fresh['1']}", TABLE_CHAT, user_id=USER["Anna"])
    # the next draw voids the links of series 1 that were not used
    unused = links["2"].removeprefix(tournament_tables.INVITE_PREFIX)

    def invite_of(code: str) -> Any:
        return chat.db.run_read(
            lambda s: s.scalar(select(TableLink.invite).where(TableLink.code == code))
        )

    assert invite_of(codes["2"]) == unused
    results = "\n".join(f"{n} 10 1 0" for n in SIX)
    await ok(chat, f"/ergebnis {results}", DESK, user_id=MANAGER)
    await ok(chat, "/auslosen 8", DESK, user_id=MANAGER)
    assert invite_of(codes["2"]) is None
    await refused(chat, f"/start {links['2']}", ELSE, None, "gilt nicht mehr")


async def test_releasing_is_for_the_management(chat: Harness) -> None:
    codes, _ = await draw(chat)
    await ok(chat, f"/tisch {codes['2']}", TABLE_CHAT, user_id=MANAGER)
    before = dump(chat.db)
    await refused(chat, "/tisch freigeben 2", DESK, None, "verwalten", "👉", user_id=OUTSIDER)
    await refused(chat, "/tisch freigeben ²", DESK, None, "keine Zahl", "👉", user_id=MANAGER)
    await refused(chat, "/tisch freigeben 9", DESK, None, "Welcher Tisch?", user_id=MANAGER)
    await refused(chat, "/tisch freigeben 1", DESK, None, "mit keiner Liste", user_id=MANAGER)
    assert dump(chat.db) == before
    await ok(chat, "/tisch freigeben 2", DESK, user_id=MANAGER)


async def closed_table(chat: Harness) -> list[str]:
    codes, _ = await draw(chat)
    await ok(chat, f"/tisch {codes['1']}", TABLE_CHAT, user_id=MANAGER)
    players = opening_players(chat, TABLE_CHAT)
    for i in range(3):
        declarer = players[(i + 1) % 3]
        await ok(chat, f"/spiel {declarer} {WON}", TABLE_CHAT, user_id=USER[declarer])
    await ok(chat, "/abschluss", TABLE_CHAT, user_id=MANAGER)
    return players


async def test_three_strangers_cannot_sign_for_a_table(chat: Harness) -> None:
    players = await closed_table(chat)
    before = dump(chat.db)
    msg = sign_message(chat, TABLE_CHAT, None)
    first = data_of(msg, SIGN_LABEL)
    for seat, stranger in enumerate(STRANGERS):
        for data in (first, f"{first}:{seat}"):
            notice = await tap(chat, msg, data, stranger)
            assert "Unterschreiben kann nur, wer hier mit seinem Namen verknüpft ist" in notice
            assert "/ich" in notice, notice
    assert dump(chat.db) == before
    assert not any("Tisch 1 gemeldet" in m.text for m in messages(chat, DESK))
    # a linked player who taps someone else's name is refused clearly
    await claim(chat, players[0], TABLE_CHAT, user_id=USER[players[0]])
    msg = sign_message(chat, TABLE_CHAT, None)
    notice = await tap(chat, msg, f"{first}:1", USER[players[0]])
    assert f"Du bist {players[0]} – für {players[1]} unterschreibt {players[1]} selbst" in notice


async def test_the_management_signs_for_a_player_without_a_phone(chat: Harness) -> None:
    players = await closed_table(chat)
    first = data_of(sign_message(chat, TABLE_CHAT, None), SIGN_LABEL)
    for name in players[:2]:
        await claim(chat, name, TABLE_CHAT, user_id=USER[name])
        notice = await tap(chat, sign_message(chat, TABLE_CHAT, None), first, USER[name])
        assert notice == f"Danke, {name} – unterschrieben.", notice
    # the management may not sign for someone linked to an account ...
    await claim(chat, players[2], TABLE_CHAT, user_id=USER[players[2]])
    notice = await tap(chat, sign_message(chat, TABLE_CHAT, None), f"{first}:2", MANAGER)
    assert "unterschreibt selbst" in notice, notice
    await ok(chat, "/ich nicht", TABLE_CHAT, user_id=USER[players[2]])
    # ... but for the one without a phone
    notice = await tap(chat, sign_message(chat, TABLE_CHAT, None), f"{first}:2", MANAGER)
    assert "gemeldet" in notice, notice
    assert any("Serie 1 · Tisch 1 gemeldet" in m.text for m in messages(chat, DESK))


# --- the race: two chats link one table at the same moment (PostgreSQL) -------------------------


@pytest.mark.skipif(not PG_URL, reason="the row lock is PostgreSQL's (SQLite has one writer)")
def test_two_chats_linking_one_table_at_once_get_it_once(tmp_path: Any) -> None:
    db = fresh_database(tmp_path)
    try:
        desk = -1009301

        def cmd(chat: int, text: str, user: int = MANAGER) -> Command:
            return Command(
                place_id=chat, chat_title=f"Chat {chat}", user_id=user, user_name="Olga",
                update_id=0, args=tuple(text.split()[1:]), text=text, telegram_chat_id=chat,
            )  # fmt: skip

        def desk_use_case(name: str) -> Any:  # a desk command as its route serves it
            return next(r for r in ROUTES if r.kind is Kind.COMMAND and r.name == name).use_case

        turnier, teilnehmer, auslosen = (
            desk_use_case(n) for n in ("turnier", "teilnehmer", "auslosen")
        )
        db.run_write(lambda s: turnier(s, cmd(desk, "/turnier Rennen")))
        names = ", ".join(f"Spieler{i}" for i in range(12))  # three Vierertische
        db.run_write(lambda s: teilnehmer(s, cmd(desk, f"/teilnehmer {names}")))
        db.run_write(lambda s: auslosen(s, cmd(desk, "/auslosen 1")))
        codes = db.run_read(lambda s: list(s.scalars(select(TableLink.code))))
        assert len(codes) == 3
        tisch = next(r for r in ROUTES if r.name == "tisch").use_case  # as the runtime runs it
        wins = 0
        for n, code in enumerate(codes * 4):  # 12 races: 3 tables, then released and again
            chats = (-1009400 - 2 * n, -1009401 - 2 * n)
            barrier = threading.Barrier(2, timeout=20)
            outcome: dict[int, str] = {}

            def link(
                chat: int,
                code: str = code,
                barrier: threading.Barrier = barrier,
                outcome: dict[int, str] = outcome,
            ) -> None:
                def unit(s: Any) -> None:
                    lock_chat(s, chat)
                    barrier.wait()  # both chats are inside their transaction now
                    tisch(s, cmd(chat, f"/tisch {code}"))

                try:
                    db.run_write(unit)
                    outcome[chat] = "linked"
                except RuleError as err:
                    outcome[chat] = err.message

            threads = [threading.Thread(target=link, args=(c,)) for c in chats]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            values = list(outcome.values())
            assert values.count("linked") == 1, outcome
            assert any("hat schon seine Liste" in v for v in values), outcome
            count = db.run_read(
                lambda s, c=chats: len(
                    s.scalars(select(SheetList.id).where(SheetList.chat_id.in_(c))).all()
                )
            )
            assert count == 1, (outcome, count)
            wins += 1
            no = codes.index(code) + 1
            db.run_write(lambda s, no=no: tisch(s, cmd(desk, f"/tisch freigeben {no}")))
        assert wins == 12
    finally:
        db.dispose()
