"""Migration 0014 (a desk's season of tournaments): a tournament from before keeps every row
(SQLite copies the tournaments table to drop its unique constraint: nothing may cascade), is
number 1 and running, its participants play from series 1; a second tournament at the same
place can be stored afterwards (SQLite and, with SKATBOT_TEST_DATABASE_URL, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from skatbot.storage import table_lists
from skatbot.storage import tournament as trepo
from skatbot.storage.migrate import upgrade
from tests.storage.test_migrations import _empty_database


def test_upgrade_to_the_season_keeps_a_tournament(tmp_path: Path) -> None:
    db = _empty_database(tmp_path)
    try:
        upgrade(db.write_engine, "0010")
        with db.write_engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO chats (id, rules, settings, created_at) "
                    "VALUES (-1001, 'isko', '{}', CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO tournaments (chat_id, name, seed, games_3, games_4,"
                    " created_at) VALUES (-1001, 'Herbstskat', 'ab12', 36, 48,"
                    " CURRENT_TIMESTAMP)"
                )
            )
            for i, name in enumerate(["Anna", "Bernd", "Carla"], 1):
                conn.execute(
                    text(
                        "INSERT INTO tournament_participants (tournament_id, position, name)"
                        " VALUES (1, :i, :name)"
                    ),
                    {"i": i, "name": name},
                )
            conn.execute(
                text(
                    "INSERT INTO tournament_series (tournament_id, number, seed, tables,"
                    ' created_at) VALUES (1, 1, \'4711\', \'[["Anna", "Bernd", "Carla"]]\','
                    " CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO tournament_results (series_id, name, game_points, won, lost,"
                    " created_at) VALUES (1, 'Anna', 100, 2, 0, CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO tournament_tables (chat_id, tournament_id, series_id, table_no,"
                    " code, signed, reported, created_at) VALUES (-1001, 1, 1, 1, 'K7F2QX',"
                    " '{}', false, CURRENT_TIMESTAMP)"
                )
            )
        db.migrate()  # (ids from 1 in a new database: the rows above refer to them)

        def read(session):  # type: ignore[no-untyped-def]
            t = trepo.tournament_of(session, -1001)
            assert t is not None
            people = trepo.participants(session, t)
            series = trepo.load_series(session, t)
            table = table_lists.by_code(session, "K7F2QX")
            link = table.row if table is not None else None
            return (
                (t.number, t.closed_at, t.counting),
                [(p.name, p.from_series, p.left_from, p.refunded) for p in people],
                [(s.number, sorted(s.results)) for s in series],
                link is not None and not link.bot_topic,
            )

        assert db.run_write(read) == (
            (1, None, None),
            [("Anna", 1, None, False), ("Bernd", 1, None, False), ("Carla", 1, None, False)],
            [(1, ["Anna"])],
            True,
        )

        def next_one(session):  # type: ignore[no-untyped-def]
            first = trepo.tournament_of(session, -1001)
            trepo.close_tournament(first, 1)
            second = trepo.create_tournament(
                session, -1001, "Winterskat", seed="cd34", user_id=1, user_name="Olga"
            )
            return [(t.number, t.name) for t in trepo.tournaments_of(session, -1001)], second.id

        assert db.run_write(next_one)[0] == [(1, "Herbstskat"), (2, "Winterskat")]
    finally:
        db.dispose()
