"""Migration 0010 (teams): a tournament from before keeps every row and has no
teams; the team columns work after the upgrade (SQLite and, with SKATBOT_TEST_DATABASE_URL,
PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from skatbot.storage import tournament as trepo
from skatbot.storage import tournament_teams
from skatbot.storage.migrate import current_revision, upgrade
from tests.storage.test_migrations import _empty_database


def test_upgrade_to_teams_keeps_a_tournament(tmp_path: Path) -> None:
    db = _empty_database(tmp_path)
    try:
        upgrade(db.write_engine, "0008")
        with db.write_engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO chats (id, rules, settings, created_at) "
                    "VALUES (-1001, 'isko', '{}', CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO tournaments (id, chat_id, name, seed, games_3, games_4,"
                    " created_at) VALUES (1, -1001, 'Preisskat', 'ab12', 36, 48,"
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
        upgrade(db.write_engine, "0009")
        assert current_revision(db.write_engine) == "0009"
        db.migrate()

        def read(session):  # type: ignore[no-untyped-def]
            t = trepo.tournament_of(session, -1001)
            assert t is not None and t.team_best is None
            names = [p.name for p in trepo.participants(session, t)]
            series = trepo.load_series(session, t)
            return (
                names,
                tournament_teams.teams_of(session, t),
                series[0].tables,
                series[0].row.teams,
            )

        assert db.run_write(read) == (
            ["Anna", "Bernd", "Carla"],
            {},
            [["Anna", "Bernd", "Carla"]],
            None,
        )

        def set_team(session):  # type: ignore[no-untyped-def]
            t = trepo.tournament_of(session, -1001)
            tournament_teams.set_teams(session, t, {"Anna": "Nord", "Carla": "Nord"})
            return tournament_teams.teams_of(session, t)

        assert db.run_write(set_team) == {"Anna": "Nord", "Carla": "Nord"}
    finally:
        db.dispose()
