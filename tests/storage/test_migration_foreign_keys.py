"""Migration 0017 (foreign keys): a database with dangling links from before is cleaned as
each key's ON DELETE would have done it, and a new row's id is above every id a link named
(SQLite and, with SKATBOT_TEST_DATABASE_URL, PostgreSQL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import text

from skatbot.storage import lists as lists_store
from skatbot.storage.migrate import current_revision, upgrade
from tests.helpers import PG_URL
from tests.storage.test_foreign_keys import dangling
from tests.storage.test_migration_roundtrip import counts, fill
from tests.storage.test_migrations import _empty_database

# Links to rows that are gone, as 0015 let them stay (no foreign key held them).
DANGLING = (
    "UPDATE league_tables SET list_id = 50",
    "UPDATE tournament_tables SET list_id = 60",
    "UPDATE lists SET continues = 70",
    "UPDATE people SET merged_into = 80",
)
# A table still linked to a list that exists: kept.
VALID = "INSERT INTO league_tables (id, day_id, series, table_no, code, list_id) VALUES (2, 1, 1, 2, 'gut', 1)"
# SQLite only (PostgreSQL's key on rows.target held since 0001): a cancel of a row that is
# gone, and a builder correcting that cancel - both go, the builder in the second pass.
SQLITE_ONLY = (
    "INSERT INTO rows (id, list_id, kind, target, created_at) "
    "VALUES (2, 1, 'cancel', 95, '2026-01-01 00:00:00')",
    "UPDATE builders SET target_row = 2",
)


def _seed(db: Any, sqlite_path: Path | None) -> None:
    if sqlite_path is None:
        with db.write_engine.begin() as conn:
            for sql in (*DANGLING, VALID, "UPDATE builders SET target_row = 90"):
                conn.execute(text(sql))
        return
    # the bot's connections keep foreign keys on; the broken rows need them off
    raw = sqlite3.connect(sqlite_path)
    try:
        with raw:
            for sql in (*DANGLING, VALID, *SQLITE_ONLY):
                raw.execute(sql)
    finally:
        raw.close()


def test_upgrade_cleans_dangling_links_and_ids_go_above_them(tmp_path: Path) -> None:
    db = _empty_database(tmp_path)
    sqlite_path = None if PG_URL else tmp_path / "migrate.db"
    try:
        upgrade(db.write_engine, "0015")
        fill(db.write_engine)  # a row with id 1 in every table
        db.dispose()
        _seed(db, sqlite_path)
        before = counts(db.write_engine)
        upgrade(db.write_engine, "0017")
        assert current_revision(db.write_engine) == "0017"

        with db.write_engine.connect() as conn:
            assert dangling(conn) == []  # type: ignore[arg-type]
            links = {
                "league_tables": conn.execute(
                    text("SELECT id, list_id FROM league_tables ORDER BY id")
                ).all(),
                "tournament_tables": conn.execute(
                    text("SELECT list_id FROM tournament_tables")
                ).all(),
                "continues": conn.execute(text("SELECT continues FROM lists")).all(),
                "merged_into": conn.execute(text("SELECT merged_into FROM people")).all(),
            }
        assert links == {
            "league_tables": [(1, None), (2, 1)],
            "tournament_tables": [(None,)],
            "continues": [(None,)],
            "merged_into": [(None,)],
        }
        after = counts(db.write_engine)
        gone = {t: (before[t], after[t]) for t in before if after[t] != before[t]}
        if sqlite_path is None:
            assert gone == {"builders": (1, 0)}  # correcting a row that is gone
        else:
            assert gone == {"builders": (1, 0), "rows": (2, 1)}
            assert _new_list_id(db) > 70  # the highest id a link named

    finally:
        db.dispose()


def _new_list_id(db: Any) -> int:
    def create(session: Any) -> int:
        lst = lists_store.create_list(
            session,
            -1001,
            ["Anna", "Bernd", "Carla"],
            first_dealer=0,
            series_length=36,
            rules="isko",
            seed="ab12",
            user_id=1,
        )
        return lst.id

    return int(db.run_write(create))
