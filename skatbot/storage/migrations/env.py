"""Alembic environment: the engine comes from ``config.attributes`` (see migrate.py)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

import skatbot.storage.builder_models
import skatbot.storage.message_links
import skatbot.storage.people
import skatbot.storage.places
import skatbot.storage.tournament_models  # noqa: F401
from skatbot.storage.models import Base

config = context.config
engine = config.attributes.get("engine")
if engine is None:  # `alembic` CLI use: URL from alembic.ini or SKATBOT_DATABASE_URL
    import os

    from skatbot.storage.database import sync_url

    url = os.environ.get("SKATBOT_DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    engine = create_engine(sync_url(url or "sqlite:///skatbot.db"))

with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
