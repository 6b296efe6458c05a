"""Alembic: upgrading from the first revision with data in it keeps every row (SQLite and,
with SKATBOT_TEST_DATABASE_URL, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

from skatbot.storage.database import Database
from skatbot.storage.migrate import upgrade
from skatbot.storage.schema import metadata
from tests.helpers import PG_URL


def _empty_database(tmp_path: Path) -> Database:
    if PG_URL:
        db = Database(PG_URL)
        with db.write_engine.begin() as conn:
            metadata().drop_all(conn)
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        return db
    return Database(f"sqlite:///{tmp_path / 'migrate.db'}")


def _seed_list(conn: Connection, settings: str, games: list[str], *, rules: str = "isko") -> None:
    """Chat -1001 (with ``rules`` and ``settings``) and its open list 1 of Anna, Bernd and
    Carla with ``games`` (update ids from 100), written as the old schema had them."""
    conn.execute(
        text(
            "INSERT INTO chats (id, rules, settings, created_at) "
            "VALUES (-1001, :rules, :settings, CURRENT_TIMESTAMP)"
        ),
        {"rules": rules, "settings": settings},
    )
    conn.execute(
        text(
            "INSERT INTO lists (id, chat_id, status, rules, first_dealer, series_length,"
            " seed, created_by, created_at) VALUES (1, -1001, 'open', 'isko', 0, 36,"
            " 'abcd1234', 1, CURRENT_TIMESTAMP)"
        )
    )
    for seat, name in enumerate(["Anna", "Bernd", "Carla"]):
        conn.execute(
            text(
                "INSERT INTO players (list_id, seat, name, start_points) "
                "VALUES (1, :seat, :name, 0)"
            ),
            {"seat": seat, "name": name},
        )
    for i, game in enumerate(games):
        conn.execute(
            text(
                "INSERT INTO rows (list_id, kind, dealer, declarer, announcement,"
                " update_id, created_at) VALUES (1, 'game', :dealer, :declarer, :a,"
                " :u, CURRENT_TIMESTAMP)"
            ),
            {"dealer": i % 3, "declarer": (i + 1) % 3, "a": game, "u": 100 + i},
        )


def test_upgrade_from_0001_keeps_every_row(tmp_path: Path) -> None:
    db = _empty_database(tmp_path)
    try:
        upgrade(db.write_engine, "0001")
        with db.write_engine.begin() as conn:
            _seed_list(
                conn,
                "{}",
                ["Grand ohne 1 Hand gewonnen", "Herz mit 2 verloren", "Null gewonnen"],
            )
            conn.execute(
                text(
                    "INSERT INTO rows (list_id, kind, target, update_id, created_at) "
                    "VALUES (1, 'cancel', 2, 200, CURRENT_TIMESTAMP)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO processed_updates (update_id, chat_id, reply) VALUES (100, -1001, 'ok')"
                )
            )

        def snapshot() -> dict[str, list[tuple[object, ...]]]:
            out = {}
            with db.read_engine.connect() as conn:
                for table, cols in {
                    "chats": "id, rules, settings",
                    "lists": "id, chat_id, status, series_length, seed, created_by",
                    "players": "id, list_id, seat, name",
                    "rows": "id, list_id, kind, dealer, declarer, announcement, target, update_id",
                    "processed_updates": "update_id, chat_id, reply",
                }.items():
                    out[table] = [
                        tuple(r)
                        for r in conn.execute(text(f"SELECT {cols} FROM {table} ORDER BY 1"))
                    ]
            return out

        before = snapshot()
        assert len(before["rows"]) == 4 and len(before["players"]) == 3
        upgrade(db.write_engine, "head")
        assert snapshot() == before
        tables = set(inspect(db.write_engine).get_table_names())
        assert {"tournaments", "alembic_version"} <= tables
        upgrade(db.write_engine, "head")  # applying again is a no-op
        assert snapshot() == before
    finally:
        db.dispose()


def test_head_is_alembics_newest_revision() -> None:
    from alembic.script import ScriptDirectory

    from skatbot.storage.migrate import HEAD, alembic_config

    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [HEAD]


def test_a_database_at_head_is_not_migrated_again_and_an_older_one_is(tmp_path: Path) -> None:
    from skatbot.storage.migrate import HEAD, current_revision

    db = _empty_database(tmp_path)
    try:
        assert current_revision(db.write_engine) is None
        upgrade(db.write_engine, "0002")
        assert current_revision(db.write_engine) == "0002"
        db.migrate()
        assert current_revision(db.write_engine) == HEAD
        assert "builders" in inspect(db.write_engine).get_table_names()
        db.migrate()  # at head: nothing to do, nothing breaks
        assert current_revision(db.write_engine) == HEAD
    finally:
        db.dispose()


def test_upgrade_to_topics_keeps_the_chats_list_in_topic_0(tmp_path: Path) -> None:
    """0005 (forum topics), from the revision before it with data: the chat's list, settings
    and pinned standings stay the chat's (topic 0); a topic of the same chat gets a place of
    its own with nothing in it."""
    from skatbot.storage import lists as lists_store
    from skatbot.storage import topic_places
    from skatbot.storage.migrate import current_revision
    from skatbot.storage.settings import ChatSettings

    db = _empty_database(tmp_path)
    try:
        upgrade(db.write_engine, "0004")
        with db.write_engine.begin() as conn:
            _seed_list(
                conn, '{"pinned_standings": 17}', ["Grand ohne 1 Hand gewonnen"], rules="haus"
            )
        upgrade(db.write_engine, "0005")
        assert current_revision(db.write_engine) == "0005"
        assert "topics" in inspect(db.write_engine).get_table_names()
        db.migrate()  # on to the head, whatever comes after

        def general(session):  # type: ignore[no-untyped-def]
            place = topic_places.place_id(session, -1001, 0)
            return place, lists_store.open_list_loaded(session, place)

        place, loaded = db.run_write(general)
        assert place == -1001
        assert loaded is not None and loaded.lst.id == 1
        assert loaded.names == ["Anna", "Bernd", "Carla"]
        assert [r.announcement for r in loaded.rows] == ["Grand ohne 1 Hand gewonnen"]
        assert loaded.chat_settings == ChatSettings(pinned_standings=17)

        def topic(session):  # type: ignore[no-untyped-def]
            place = topic_places.place_id(session, -1001, 42)
            return (
                place,
                lists_store.open_list(session, place),
                lists_store.chat_settings(session, place),
            )

        place, lst, settings = db.run_write(topic)
        assert topic_places.is_topic_place(place) and lst is None and settings is None
        assert db.run_write(lambda s: topic_places.place_id(s, -1001, 42)) == place
    finally:
        db.dispose()


def _schema(engine: Engine) -> dict[str, object]:
    """Everything of the schema a migration could get different from the models."""
    insp = inspect(engine)
    out: dict[str, object] = {}
    for table in sorted(insp.get_table_names()):
        out[table] = dict(
            columns=[(c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns(table)],
            primary_key=insp.get_pk_constraint(table)["constrained_columns"],
            foreign_keys=sorted(
                (
                    tuple(f["constrained_columns"]),
                    f["referred_table"],
                    tuple(f["referred_columns"]),
                    (f.get("options") or {}).get("ondelete"),
                )
                for f in insp.get_foreign_keys(table)
            ),
            indexes=sorted(
                (tuple(str(c) for c in i["column_names"]), bool(i["unique"]))
                for i in insp.get_indexes(table)
            ),
            unique=sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(table)),
            autoincrement=_sqlite_autoincrement(engine, table),
        )
    return out


def _sqlite_autoincrement(engine: Engine, table: str) -> bool | None:
    """Whether SQLite never reuses the table's ids (None on PostgreSQL: sequences never do)."""
    if engine.dialect.name != "sqlite":
        return None
    with engine.connect() as conn:
        sql = conn.execute(
            text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = :t"), {"t": table}
        ).scalar()
    return "AUTOINCREMENT" in str(sql).upper()


def test_a_new_database_is_created_at_head_as_the_migrations_would_leave_it(
    tmp_path: Path,
) -> None:
    """A fresh database skips Alembic (start-up time): it gets the models' schema and the head
    stamp at once. That must be the schema the migrations build, or old and new databases
    would differ; and the models must match it (compare_metadata finds nothing)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from skatbot.storage.migrate import HEAD, current_revision

    db = _empty_database(tmp_path)
    try:
        upgrade(db.write_engine, HEAD)  # replays every migration (not the fast path)
        replayed = _schema(db.write_engine)
        if PG_URL:
            db.dispose()
        else:
            db.dispose()
            (tmp_path / "migrate.db").unlink()
        db = _empty_database(tmp_path)
        db.migrate()  # empty: created at head in one step
        assert current_revision(db.write_engine) == HEAD
        assert _schema(db.write_engine) == replayed
        with db.write_engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, metadata()) == []
        db.migrate()  # at head: nothing to do
    finally:
        db.dispose()
