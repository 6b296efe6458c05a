"""/ich vergessen forgets everywhere, /ich daten names everything.

The account takes every role the bot knows (a list's, a Preisskat's and a league's creator, a
team's captain, a day's host) and enters something everywhere (games, a stake, participants,
a draw, results, line-ups). Then:

- every column of the schema that can hold an account's id or name (by its name, plus the
  columns of text that quote one) is in the registry ``own_data.HELD``, and the registry
  names no other: a new such column fails here until forgetting covers it;
- with the account in *every* such column, ``/ich daten`` counts each, ``/ich vergessen``
  leaves no name of the account in any text column of any table (and, on SQLite, nowhere in
  the database files) and its id only where it grants a role.

Runs on SQLite, and on PostgreSQL with SKATBOT_TEST_DATABASE_URL.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sqlalchemy import BigInteger, String, Text, func, select, update

from skatbot.storage.schema import metadata
from skatbot.usecases.gamenight.nights import vote
from tests.harness import Harness
from tests.helpers import PG_URL, Reply, ok
from tests.usecases.league.test_league import TEAMS

ME = 5550123  # an id no update, message or chat of the test has by chance
ACCOUNT = "Kunigundewitz"
AS_ME = {"user_id": ME, "name": ACCOUNT}
OTHER = {"user_id": 4, "name": "Otto"}
GROUP, TOURNAMENT_DESK, LEAGUE_DESK, HOST_CHAT, TABLE_CHAT = -1001, -1002, -1003, -1004, -1005

# What can hold an account: a column named like one, or a text that may quote a name.
ACCOUNT_LIKE = re.compile(
    r"(user_id|user_name|_by|_by_name|^owner_\w+|^captain_\w+|^host_\w+|^for_\w+|^signed)$"
)
QUOTING = {"processed_updates.reply", "outbox.payload", "outbox.blob", "league_days.confirmed"}
# Place ids: a private chat's id is its person's, but a place's data is the chat's (/loeschen)
PLACES = re.compile(r"(^|_)chat_id$")


async def private(chat: Harness, text: str) -> list[Reply]:
    return await chat.say(text, chat_id=ME, **AS_ME)  # type: ignore[arg-type]


async def my_code(chat: Harness, command: str, pattern: str) -> str:
    """The account, managing the league, names itself (answering its own message) for a
    role: the code arrives in its private chat."""
    await chat.say(command, chat_id=LEAGUE_DESK, reply_to=(ME, ACCOUNT), **AS_ME)  # type: ignore[arg-type]
    found = re.search(pattern, chat.last(ME).text)
    assert found is not None, chat.last(ME).text
    return found.group(1)


async def everywhere(chat: Harness) -> None:
    """The account in every role, having entered something everywhere."""
    await ok(chat, "/neu Anna Bernd Carla", chat_id=GROUP, **AS_ME)
    await ok(chat, "/ich Anna", chat_id=GROUP, **AS_ME)
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", chat_id=GROUP, **AS_ME)
    await ok(chat, "/einsatz 1 ct", chat_id=GROUP, **AS_ME)
    await chat.say("/spiel", chat_id=GROUP, **AS_ME)  # type: ignore[arg-type]  # a builder
    # a game night: planned, and a yes to it
    await ok(chat, "/spielabend morgen 19:00", "Spielabend", chat_id=GROUP, **AS_ME)
    poll_id = list(chat.polls)[-1]
    assert await chat.db.write(lambda s: vote(s, poll_id, ME, ACCOUNT, "", (0,)))
    # a Preisskat: created, participants, a draw, a result, ended
    await ok(chat, "/turnier Preisskat", chat_id=TOURNAMENT_DESK, **AS_ME)
    players = ", ".join(["Anna", "Bernd", "Carla", "Dora", "Emil", "Fritz"])
    await ok(chat, f"/teilnehmer {players}", chat_id=TOURNAMENT_DESK, **AS_ME)
    await ok(chat, "/auslosen", chat_id=TOURNAMENT_DESK, **AS_ME)
    await ok(chat, "/ergebnis Anna 100 1 0", chat_id=TOURNAMENT_DESK, **AS_ME)
    await ok(chat, "/teilnehmer Gustav", chat_id=TOURNAMENT_DESK, **AS_ME)  # the roster's log
    # a league: created, captain of Nord, host of day 1, a line-up, a table, a result
    await ok(chat, "/liga Kreisliga", chat_id=LEAGUE_DESK, **AS_ME)
    await ok(chat, TEAMS, chat_id=LEAGUE_DESK, **AS_ME)
    await private(chat, "/start")  # role codes come privately
    code = await my_code(chat, "/kapitaen Nord", r"/kapitaen (K\w+)")
    await ok(chat, f"/kapitaen {code}", "Kapitän", chat_id=LEAGUE_DESK, **AS_ME)
    await ok(chat, "/spieltag 1 Reken", chat_id=LEAGUE_DESK, **AS_ME)
    host = await my_code(chat, "/ausrichter", r"/ausrichter (A\w+)")
    await ok(chat, f"/ausrichter {host}", "richtet hier", chat_id=HOST_CHAT, **AS_ME)
    await ok(chat, "/aufstellung Nord: Anna, Bernd, Carla, Erik", chat_id=HOST_CHAT, **AS_ME)
    seating = await ok(chat, "/setzen", chat_id=HOST_CHAT, **AS_ME)
    table = re.search(r"/tisch (L\w{6})", seating).group(1)  # type: ignore[union-attr]
    linked = await ok(chat, f"/tisch {table}", chat_id=TABLE_CHAT, **AS_ME)
    first = re.search(r"Neue Liste: (\w+)", linked).group(1)  # type: ignore[union-attr]
    await ok(chat, f"/ich {first}", chat_id=TABLE_CHAT, **AS_ME)  # a name at a table
    await ok(chat, "/ergebnis Anna 100 1 0", chat_id=HOST_CHAT, **AS_ME)


def stored_names(chat: Harness) -> dict[str, int]:
    """Rows holding ACCOUNT, per text column of every table."""

    def read(session: Any) -> dict[str, int]:
        out = {}
        for table in metadata().sorted_tables:
            for column in table.columns:
                if isinstance(column.type, (String, Text)):
                    n = session.scalar(
                        select(func.count()).select_from(table).where(column.contains(ACCOUNT))
                    )
                    if n:
                        out[f"{table.name}.{column.name}"] = n
        return out

    return chat.db.run_read(read)  # type: ignore[no-any-return]


def stored_ids(chat: Harness) -> dict[str, int]:
    """Rows holding ME, per id column of every table (places aside)."""

    def read(session: Any) -> dict[str, int]:
        out = {}
        for table in metadata().sorted_tables:
            for column in table.columns:
                place = PLACES.search(column.name) or table.name == "chats"  # chats.id
                if isinstance(column.type, BigInteger) and not place:
                    n = session.scalar(select(func.count()).select_from(table).where(column == ME))
                    if n:
                        out[f"{table.name}.{column.name}"] = n
        return out

    return chat.db.run_read(read)  # type: ignore[no-any-return]


async def own_data(chat: Harness) -> tuple[dict[str, Any], str]:
    out = await private(chat, "/ich daten")
    doc = next(r.document for r in out if r.document)
    return json.loads(doc[1]), "\n".join(r.text for r in out)


async def test_forgetting_takes_the_league_roles_and_the_roster_along(chat: Harness) -> None:
    """The reproduced gaps: the account name stayed with a league's creator, a captain, a
    host and the Preisskat's roster, and /ich daten named none of those."""
    await everywhere(chat)
    data, summary = await own_data(chat)
    assert "Ligaleitung „Kreisliga“" in summary, summary
    assert "Kapitän von „Nord“ (Kreisliga)" in summary, summary
    assert "Ausrichter Spieltag 1 (Kreisliga)" in summary, summary
    assert data["stored"]["tournament_roster.user_name"] >= 1, data
    assert data["stored"]["league_lineups.user_id"] >= 1, data
    out = await private(chat, "/ich vergessen")
    assert not any(r.refusal for r in out), out
    left = stored_names(chat)
    for column in (
        "leagues.created_by_name",
        "league_teams.captain_name",
        "league_days.host_name",
        "tournament_roster.user_name",
    ):
        assert column not in left, left
    assert left == {}, left


def account_columns() -> set[str]:
    return {
        f"{t.name}.{c.name}"
        for t in metadata().sorted_tables
        for c in t.columns
        if ACCOUNT_LIKE.search(c.name)
    } | QUOTING


def test_every_column_that_can_hold_an_account_is_forgotten_by_a_rule() -> None:
    from skatbot.storage.own_data import HELD

    held = [h.key for h in HELD]
    assert len(held) == len(set(held)), "a column twice in own_data.HELD"
    missing = account_columns() - set(held)
    assert not missing, (
        f"add these to skatbot/storage/own_data.HELD (how to forget them): {missing}"
    )
    extra = set(held) - account_columns()
    assert not extra, f"own_data.HELD names columns that hold no account: {extra}"
    tables = metadata().tables
    for h in HELD:
        assert h.column in tables[h.table].c, h
        if h.whose is not None:
            assert h.whose in tables[h.table].c, h


async def test_the_account_in_every_column_is_named_and_then_forgotten(chat: Harness) -> None:
    from skatbot.storage.own_data import HELD, Way

    await everywhere(chat)
    await ok(chat, "/turnier ende", chat_id=TOURNAMENT_DESK, **AS_ME)
    meta = metadata()
    skipped = (Way.TRANSIENT, Way.NO_ACCOUNT)

    def fill(session: Any) -> None:
        """The account in every row of every column that can hold it."""
        for h in HELD:
            table = meta.tables[h.table]
            assert h.way in skipped or session.scalar(select(func.count()).select_from(table)), (
                f"{h.table} has no row: extend everywhere()"
            )
            if h.way in (Way.CLEARED, Way.KEPT_ROLE):
                value = ME if h.whose is None else ACCOUNT
                session.execute(update(table).values({h.column: value}))
            elif h.way is Way.SIGNATURES:
                session.execute(update(table).values({h.column: json.dumps({"Anna": ME})}))
            elif h.way is Way.CONFIRMATIONS:
                session.execute(update(table).values({h.column: json.dumps({"1": ACCOUNT})}))
            elif h.way is Way.QUOTED:  # a reply text an earlier version stored
                session.execute(update(table).values({h.column: f"Verwaltet von {ACCOUNT}."}))

    chat.db.run_write(fill)
    data, summary = await own_data(chat)
    named = {h.key for h in HELD if h.way not in skipped}
    assert named <= set(data["stored"]), named - set(data["stored"])
    assert "Turnierleitung „Preisskat“" in summary, summary
    assert stored_names(chat), "the name is stored somewhere before"

    out = await private(chat, "/ich vergessen")
    assert not any(r.refusal for r in out), out
    assert stored_names(chat) == {}
    kept = {h.key for h in HELD if h.way is Way.KEPT_ROLE}
    assert set(stored_ids(chat)) == kept, stored_ids(chat)

    def signed(session: Any) -> list[str]:
        return list(session.scalars(select(meta.tables["tournament_tables"].c.signed)))

    assert all(str(ME) not in s for s in chat.db.run_read(signed))
    if not PG_URL:  # the name is gone from the database files too
        path = Path(str(chat.db.url.database))
        files = [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]
        assert sum(p.read_bytes().count(ACCOUNT.encode()) for p in files) == 0
    data, _ = await own_data(chat)
    assert set(data["stored"]) == kept, data["stored"]
    assert data["account_names"] == [ACCOUNT]  # only the name the private chat tells now
