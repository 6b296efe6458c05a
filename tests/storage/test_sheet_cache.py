"""The sheet cache may miss, but it never serves a list that differs from the database.

Runs on SQLite files and, with SKATBOT_TEST_DATABASE_URL, on PostgreSQL. "Another process" is
a second Database on the same database: it has its own cache and writes behind our back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from sqlalchemy import delete
from sqlalchemy.orm import Session

from skatbot.rules.errors import RuleError
from skatbot.rules.sheet import LogRow, replay
from skatbot.storage import lists as lists_store
from skatbot.storage.database import Database, ensure_chat
from skatbot.storage.lists_models import Player, Row, SheetList
from skatbot.usecases.sheet.booking import after_row

CHAT = -4711
GAMES = ["Grand ohne 1 Hand gewonnen", "Kreuz mit 2 gewonnen", "Null verloren"]


def new_list(session: Session, seed: str = "5eed") -> lists_store.ListInfo:
    ensure_chat(session, CHAT)
    return lists_store.create_list(
        session,
        CHAT,
        ["Anna", "Bernd", "Carla"],
        first_dealer=0,
        series_length=36,
        rules="isko",
        seed=seed,
        user_id=1,
    )


def book(session: Session, text: str) -> LogRow:
    lst = lists_store.open_list(session, CHAT)
    assert lst is not None
    loaded = lists_store.load(session, lst)
    dealer = loaded.sheet.next_dealer
    row = lists_store.append_row(
        session, lst, kind="game", dealer=dealer, declarer=(dealer + 1) % 3, announcement=text
    )
    after_row(session, loaded, row)  # offers the new sheet to the cache
    return row


def load(session: Session) -> lists_store.LoadedList:
    """The hot path's load (one query); ``book`` uses the other one (``repo.load``)."""
    loaded = lists_store.open_list_loaded(session, CHAT)
    assert loaded is not None
    return loaded


def behind_our_back(db: Database, *units: Callable[[Session], object]) -> None:
    """Run ``units`` as another process would: its own Database, its own cache."""
    other = Database(db.url)
    try:
        for unit in units:
            other.run_write(unit)
    finally:
        other.dispose()


def fresh_replay(loaded: lists_store.LoadedList) -> list[tuple[int, int, str | None]]:
    """What a replay without any cache shows: (nr, declarer, announcement) per entry."""
    sheet = replay(
        loaded.names,
        loaded.rows,
        first_dealer=loaded.lst.first_dealer,
        series_length=loaded.lst.series_length,
    )
    return [(e.nr, e.row.declarer or 0, e.row.announcement) for e in sheet.entries]


def entries(loaded: lists_store.LoadedList) -> list[tuple[int, int, str | None]]:
    return [(e.nr, e.row.declarer or 0, e.row.announcement) for e in loaded.sheet.entries]


def test_a_booking_is_served_from_the_cache_and_equals_a_fresh_replay(db: Database) -> None:
    db.run_write(new_list)
    for text in GAMES:
        db.run_write(lambda s, text=text: book(s, text))
    hits = db.sheets.hits
    loaded = db.run_read(load)
    assert db.sheets.hits == hits + 1
    assert entries(loaded) == fresh_replay(loaded)
    assert [e.row.announcement for e in loaded.sheet.entries] == GAMES
    # Prepared statements convert types per dialect (SQLite stores datetimes as text).
    assert isinstance(loaded.lst.created_at, dt.datetime)


def test_a_row_written_by_another_process_is_seen(db: Database) -> None:
    db.run_write(new_list)
    db.run_write(lambda s: book(s, GAMES[0]))
    assert len(db.run_read(load).rows) == 1  # cached now
    behind_our_back(db, lambda s: book(s, GAMES[1]))
    loaded = db.run_read(load)
    assert [e.row.announcement for e in loaded.sheet.entries] == GAMES[:2]


def test_a_renamed_player_is_seen(db: Database) -> None:
    db.run_write(new_list)
    db.run_write(lambda s: book(s, GAMES[0]))
    db.run_read(load)

    def rename(s: Session) -> None:
        loaded = load(s)
        lists_store.rename_player(s, loaded.players[1], "Berta")

    behind_our_back(db, rename)
    assert db.run_read(load).sheet.players == ("Anna", "Berta", "Carla")


def test_a_rolled_back_booking_is_never_cached(db: Database) -> None:
    db.run_write(new_list)
    db.run_write(lambda s: book(s, GAMES[0]))

    def book_then_fail(s: Session) -> None:
        book(s, GAMES[1])
        raise RuleError("refused after the insert")

    with pytest.raises(RuleError):
        db.run_write(book_then_fail)
    # On SQLite the rolled-back row id is handed out again - to a different game, which
    # gives the log the same row count and last row id the failed booking would have had.
    behind_our_back(db, lambda s: book(s, GAMES[2]))
    loaded = db.run_read(load)
    assert [e.row.announcement for e in loaded.sheet.entries] == [GAMES[0], GAMES[2]]
    assert entries(loaded) == fresh_replay(loaded)


def test_a_list_recreated_under_the_same_id_is_not_mistaken_for_the_old_one(db: Database) -> None:
    first = db.run_write(lambda s: new_list(s, seed="aaaa"))
    db.run_write(lambda s: book(s, GAMES[0]))
    db.run_read(load)

    def wipe(s: Session) -> None:  # what deleting a chat's data does, behind our back
        s.execute(delete(Row).where(Row.list_id == first.id))
        s.execute(delete(Player).where(Player.list_id == first.id))
        s.execute(delete(SheetList).where(SheetList.id == first.id))

    behind_our_back(db, wipe, lambda s: new_list(s, seed="bbbb"), lambda s: book(s, GAMES[1]))
    loaded = db.run_read(load)
    assert [e.row.announcement for e in loaded.sheet.entries] == [GAMES[1]]


def test_the_cache_is_bounded() -> None:
    from skatbot.storage.sheet_cache import SheetCache, SheetKey

    cache = SheetCache(max_lists=2)
    infos = [
        lists_store.ListInfo(i, CHAT, "open", "isko", 0, 36, "s", None, None, None)
        for i in (1, 2, 3)
    ]
    for info in infos:
        cache.put(SheetKey(info, (), 0, None), ((), None))  # type: ignore[arg-type]
    assert len(cache) == 2
    assert cache.get(SheetKey(infos[0], (), 0, None)) is None
    assert cache.get(SheetKey(infos[2], (), 0, None)) is not None
    assert cache.get(SheetKey(infos[2], (), 1, 7)) is None  # another key: a miss, not a hit


def test_a_rolled_back_series_length_is_never_served(db: Database) -> None:
    """/serie in a unit that rolls back must leave no trace in the cached sheet: /stand
    shows the database's series length (it showed the rolled-back one: 2/48 against 36)."""
    from skatbot.handlers.routes import ROUTES
    from skatbot.usecases.common.reply import Command

    def cmd(*args: str) -> Command:
        return Command(CHAT, "Skat", 1, "Anna", 99, args)

    serie, stand = (next(r for r in ROUTES if r.name == n).use_case for n in ("serie", "stand"))

    db.run_write(new_list)
    db.run_write(lambda s: book(s, GAMES[0]))
    assert db.run_read(load).sheet.series_length == 36  # cached now

    def serie_then_fail(s: Session) -> None:
        assert "48 Spiele" in serie(s, cmd("48")).text
        raise RuntimeError("the unit fails after /serie")

    with pytest.raises(RuntimeError):
        db.run_write(serie_then_fail)
    assert db.run_read(lambda s: lists_store.open_list(s, CHAT)).series_length == 36  # type: ignore[union-attr]
    assert db.run_read(load).sheet.series_length == 36
    assert "Spiel 2/36" in db.run_read(lambda s: stand(s, cmd())).text


def test_a_cached_sheet_cannot_be_changed_in_place(db: Database) -> None:
    """The cache shares one sheet among units of work: a sheet is a value."""
    import dataclasses

    db.run_write(new_list)
    db.run_write(lambda s: book(s, GAMES[0]))
    sheet = db.run_read(load).sheet
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheet.series_length = 48  # type: ignore[misc]
    assert isinstance(sheet.entries, tuple) and isinstance(sheet.valid, tuple)
    longer = sheet.with_series_length(48)
    assert (longer.series_length, sheet.series_length) == (48, 36)
    assert longer.entries == sheet.entries and longer.totals() == sheet.totals()
