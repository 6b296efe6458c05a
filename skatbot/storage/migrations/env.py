"""Alembic environment: the engine comes from ``config.attributes`` (see migrate.py)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from skatbot.storage.schema import metadata

config = context.config
engine = config.attributes.get("engine")
if engine is None:  # `alembic` CLI use: URL from alembic.ini or SKATBOT_DATABASE_URL
    import os

    from skatbot.storage.database import sync_url

    url = os.environ.get("SKATBOT_DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    engine = create_engine(sync_url(url or "sqlite:///skatbot.db"))


def _sqlite_foreign_keys(connection: object, on: bool) -> None:
    """SQLite rebuilds a table for most changes (batch mode: copy, drop, rename); with
    foreign keys on, dropping the old table deletes or blocks every row that refers to it
    (ON DELETE CASCADE wiped players and games). The pragma only works outside a
    transaction, so it is set on the driver's connection before Alembic begins one."""
    raw = connection.connection.dbapi_connection  # type: ignore[attr-defined]
    raw.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


with engine.connect() as connection:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        _sqlite_foreign_keys(connection, False)
    try:
        context.configure(
            connection=connection,
            target_metadata=metadata(),
            render_as_batch=sqlite,
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()
    finally:
        if sqlite:
            _sqlite_foreign_keys(connection, True)
