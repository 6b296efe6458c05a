"""Alembic migrations, applied programmatically at start (no alembic.ini needed at run time)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
# The newest revision in migrations/versions; tests/storage/test_migrations.py checks that it
# is Alembic's head, so a new migration cannot be forgotten here.
HEAD = "0022"


def alembic_config(engine: Engine | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        cfg.attributes["engine"] = engine
    return cfg


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None for a database Alembic has not touched)."""
    try:
        with engine.connect() as conn:
            value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except DBAPIError:  # no alembic_version table yet
        return None
    return value if isinstance(value, str) else None


def upgrade(engine: Engine, revision: str = "head") -> None:
    # A database that is up to date is the common start: asking it costs ~1 ms, loading
    # Alembic and replaying every migration a large part of the bot's start-up
    # (bench/run.py, part 5). A new, empty database is created at the head in one step.
    if revision == "head":
        current = current_revision(engine)
        if current == HEAD:
            return
        if current is None and not inspect(engine).get_table_names():
            create_at_head(engine)
            return
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


def create_at_head(engine: Engine) -> None:
    """Create the schema of the head revision in an empty database and stamp it, in one
    transaction (so on PostgreSQL a concurrent start sees all of it or nothing).
    tests/storage/test_migrations.py checks that this equals replaying the migrations."""
    from skatbot.storage.schema import metadata

    with engine.begin() as conn:
        metadata().create_all(conn)
        conn.execute(
            text(
                "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
                "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
            )
        )
        conn.execute(text("INSERT INTO alembic_version (version_num) VALUES (:v)"), {"v": HEAD})
