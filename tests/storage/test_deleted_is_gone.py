"""Deleted means gone from disk: after /loeschen neither the SQLite database file nor its
write-ahead log (-wal, -shm) holds a deleted name or account name; the database file is
created readable by its owner only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from skatbot.storage.database import Database
from tests.helpers import PG_URL, Bot, ok

pytestmark = pytest.mark.skipif(bool(PG_URL), reason="SQLite files")

CHAT, ADMIN, PLAYER = -1001, 7, 3
NAMES = ("Zebulonia", "Quirinella", "Xanthippos")
ACCOUNT = "Kunigundewitz"  # the Telegram name of the person who links to a name


def database_files(db: Database) -> list[Path]:
    path = Path(str(db.url.database))
    return [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]


def occurrences(db: Database, word: str) -> int:
    needle = word.encode()
    return sum(p.read_bytes().count(needle) for p in database_files(db))


async def test_loeschen_leaves_no_deleted_name_in_the_database_files(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await ok(bot, f"/neu {' '.join(NAMES)}", user_id=PLAYER, name=ACCOUNT)
    await ok(bot, f"/ich {NAMES[0]}", user_id=PLAYER, name=ACCOUNT)
    for n in range(6):
        await ok(
            bot, f"/spiel {NAMES[n % 3]} grand ohne 1 hand gewonnen", user_id=PLAYER, name=ACCOUNT
        )
    await ok(bot, f"/umbenennen {NAMES[2]} {NAMES[2]}a", user_id=PLAYER, name=ACCOUNT)
    await ok(bot, "/abschluss ja", user_id=PLAYER, name=ACCOUNT)
    # before: the names are on disk (else the search below could not fail)
    assert occurrences(bot.db, NAMES[0]) > 0
    assert occurrences(bot.db, ACCOUNT) > 0
    await ok(bot, "/loeschen", user_id=ADMIN)
    await ok(bot, "/loeschen ja", "Gelöscht", user_id=ADMIN)
    for word in (*NAMES, ACCOUNT):
        assert occurrences(bot.db, word) == 0, (word, [p.name for p in database_files(bot.db)])
    # the log was folded back and truncated at the deletion: what is left are the few pages
    # written after it (the reply's outbox row settled), not the history before it
    wal = Path(f"{bot.db.url.database}-wal")
    assert not wal.exists() or wal.stat().st_size <= 32 + 3 * (4096 + 24)


def test_a_new_database_file_is_its_owners_alone(tmp_path: Path) -> None:
    path = tmp_path / "neu.db"
    db = Database(f"sqlite:///{path}")
    try:
        db.migrate()
        for p in database_files(db):
            assert stat.S_IMODE(p.stat().st_mode) == 0o600, (p, oct(p.stat().st_mode))
    finally:
        db.dispose()


def test_an_existing_database_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "alt.db"
    path.touch()
    os.chmod(path, 0o640)
    db = Database(f"sqlite:///{path}")
    try:
        db.migrate()
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
    finally:
        db.dispose()
