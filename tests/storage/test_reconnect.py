"""PostgreSQL: a unit that meets a connection the server dropped runs again on a new one."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from skatbot.storage.database import Database

from ..conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="needs SKATBOT_TEST_DATABASE_URL")


def backend_pid(session: Session) -> int:
    return int(session.execute(text("SELECT pg_backend_pid()")).scalar_one())


async def test_a_unit_survives_a_server_side_disconnect(db: Database) -> None:
    before = await db.write(backend_pid)  # the pool now holds this connection
    dba = Database(db.url)  # another process, e.g. an administrator or a server restart
    try:
        killed = dba.run_write(
            lambda s: s.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": before})
        ).scalar_one()
    finally:
        dba.dispose()
    assert killed
    after = await db.write(backend_pid)  # meets the dead connection first, then a new one
    assert after != before
