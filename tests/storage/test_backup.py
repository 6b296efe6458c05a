"""Backup, restore and the move between databases (docs/backup.md), on real SQLite files and
a real PostgreSQL (``SKATBOT_TEST_DATABASE_URL``; its server also holds the extra databases
the moves go to).

- A backup taken while a burst of bookings runs through the real bot: every backup is one
  consistent moment (each booked game with its processed update, none twice), nothing is
  lost or doubled in the bot, and a restore equals its backup.
- kill -9 of a backup at three moments: nothing under the target name (or the old backup,
  whole), and the next backup clears what the killed one left.
- SQLite → PostgreSQL → SQLite: each copy equal, and the bot on the copy answers /stand the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import os
import shutil
import signal
import sqlite3
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool

from skatbot.backups import Schedule, ScheduleError, backups_in, parse_schedule, rotate
from skatbot.cli import main
from skatbot.storage import backup as backup_module
from skatbot.storage import copying
from skatbot.storage.backup import BackupRefused, move_database, restore_backup, take_backup
from skatbot.storage.database import Database, sync_url
from tests.helpers import PG_URL, Bot, game_rows, ok, running_bot
from tests.standin.fake_telegram import FakeBotApi

needs_pg = pytest.mark.skipif(not PG_URL, reason="needs SKATBOT_TEST_DATABASE_URL (PostgreSQL)")
GAMES = [
    "grand ohne 1 hand gewonnen",
    "kreuz mit 1 gewonnen",
    "pik ohne 2 verloren",
    "null gewonnen",
]
NAMES = ["Anna", "Bernd", "Carla"]
LATER = itertools.count(100_000, 1000).__next__  # update ids no earlier bot gave out


def url_of(db: Database) -> str:
    return db.url.render_as_string(hide_password=False)


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def differences(a: str, b: str) -> list[str]:
    """What differs between the databases at ``a`` and ``b`` (the product's own comparison,
    which the tests below also check against counts and values they know)."""
    engines = [create_engine(sync_url(u), poolclass=NullPool) for u in (a, b)]
    try:
        with engines[0].connect() as one, engines[1].connect() as two:
            return copying.differences(one, two)
    finally:
        for engine in engines:
            engine.dispose()


def rows_of(url: str, query: str) -> list[tuple[object, ...]]:
    engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(query))]
    finally:
        engine.dispose()


def new_sqlite(path: Path) -> str:
    db = Database(sqlite_url(path))
    db.migrate()
    db.dispose()
    return sqlite_url(path)


@contextlib.contextmanager
def extra_pg_database() -> Iterator[str]:
    """A new, empty PostgreSQL database next to the test database, dropped afterwards."""
    base = make_url(sync_url(PG_URL))
    name = f"{base.database}_copy_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


async def evening(bot: Bot, chat_id: int, games: int) -> None:
    await ok(bot, "/neu Anna Bernd Carla", chat_id=chat_id)
    for i in range(games):
        await ok(bot, f"/spiel {NAMES[i % 3]} {GAMES[i % 4]}", chat_id=chat_id)


# --- a backup while the bot books -------------------------------------------------------


async def test_a_backup_during_a_burst_of_bookings_is_one_consistent_moment(
    bot: Bot, db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chats = [-1001 - i for i in range(8)]  # 20 games each: within one series
    for chat_id in chats:
        await ok(bot, "/neu Anna Bernd Carla", chat_id=chat_id)

    def push(first: int, last: int) -> list[int]:
        return [
            bot.api.push_message(
                f"/spiel {NAMES[i % 3]} {GAMES[i % 4]}", chat_id=chats[i % 8], user_id=1 + i % 3
            )
            for i in range(first, last)
        ]

    # One backup is held right after taking its snapshot until 60 more games are booked and
    # committed: the bot books while the backup reads.
    snapshot_taken, go_on = threading.Event(), threading.Event()
    for name in ("_sqlite_copy", "_rows_copy"):
        original = getattr(backup_module, name)

        def held(*args: object, _original: Any = original) -> None:
            snapshot_taken.set()
            go_on.wait(60)
            _original(*args)

        monkeypatch.setattr(backup_module, name, held)
    ids = push(0, 20)
    for update_id in ids:
        await bot.api.wait_confirmed(update_id, timeout=60)
    backups = [tmp_path / "held.db"]
    taking = asyncio.create_task(asyncio.to_thread(take_backup, url_of(db), backups[0]))
    assert await asyncio.to_thread(snapshot_taken.wait, 60)
    during = push(20, 80)
    for update_id in during:
        await bot.api.wait_confirmed(update_id, timeout=60)
    go_on.set()
    await taking
    monkeypatch.undo()
    booked_in_held = rows_of(
        sqlite_url(backups[0]), "SELECT update_id FROM rows WHERE kind = 'game'"
    )
    assert sorted(r[0] for r in booked_in_held) == ids
    ids += during

    # And backups one after the other while a second burst is booked and answered.
    more = push(80, 160)
    burst = asyncio.gather(*(bot.api.wait_confirmed(u, timeout=60) for u in more))
    while not burst.done():
        backups.append(tmp_path / f"during-{len(backups)}.db")
        await asyncio.to_thread(take_backup, url_of(db), backups[-1])
    await burst
    ids += more
    backups.append(tmp_path / "after.db")
    await asyncio.to_thread(take_backup, url_of(db), backups[-1])

    live = game_rows(db)
    assert sorted(u for _, _, u in live) == ids  # none lost, none doubled
    live_by_id = {row_id: (text_, update) for row_id, text_, update in live}
    for path in backups:
        url = sqlite_url(path)
        games = rows_of(url, "SELECT id, announcement, update_id FROM rows WHERE kind = 'game'")
        # Each game in the backup is the bot's, unchanged, and booked once.
        assert all(live_by_id[r[0]] == (r[1], r[2]) for r in games), path
        assert len({r[2] for r in games}) == len(games)
        # A booking and its processed update are one commit: the backup has both or neither.
        processed = {r[0] for r in rows_of(url, "SELECT update_id FROM processed_updates")}
        assert {r[2] for r in games} == processed & set(ids), path
    assert differences(url_of(db), sqlite_url(backups[-1])) == []

    restored = new_sqlite(tmp_path / "restored.db")
    done = restore_backup(backups[-1], restored)
    assert done.rows == sum(
        len(rows_of(restored, f"SELECT * FROM {t.name}")) for t in copying.plain_tables()
    )
    assert differences(sqlite_url(backups[-1]), restored) == []
    assert [r[0] for r in rows_of(restored, "SELECT update_id FROM rows WHERE kind = 'game'")] == [
        u for _, _, u in live
    ]


# --- kill -9 ------------------------------------------------------------------------------

# A backup process that stops at one moment (to be killed there): after SQLite's copy (or
# PostgreSQL's rows) are in the hidden file, while they are compared, or right before the
# rename. It writes the marker file when it got there.
HELD = """
import os, sys, time
from pathlib import Path
from skatbot.storage import backup, copying

url, target, moment, marker = sys.argv[1:5]

def hold(original):
    def held(*args, **kwargs):
        result = original(*args, **kwargs) if moment != "rename" else None
        Path(marker).write_text("here")
        time.sleep(600)
        return result
    return held

if moment == "copied":
    backup._sqlite_copy = hold(backup._sqlite_copy)
    backup._rows_copy = hold(backup._rows_copy)
elif moment == "checking":
    copying.differences = hold(copying.differences)
else:
    os.replace = hold(os.replace)
backup.take_backup(url, Path(target), replace=True)
"""


@pytest.mark.parametrize("moment", ["copied", "checking", "rename"])
async def test_kill_9_during_a_backup_leaves_no_file_under_the_target_name(
    bot: Bot, db: Database, tmp_path: Path, moment: str
) -> None:
    await evening(bot, -1001, 6)
    folder = tmp_path / "sicherungen"
    folder.mkdir()
    target = folder / "skatbot.db"
    old = folder / "alt.db"
    if moment == "rename":  # an earlier backup under the name: it stays whole
        take_backup(url_of(db), target)
        old.write_bytes(target.read_bytes())
        await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    marker = tmp_path / "marker"
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HELD,
        url_of(db),
        str(target),
        moment,
        str(marker),
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        for _ in range(6000):
            if marker.exists() or proc.returncode is not None:
                break
            await asyncio.sleep(0.01)
        assert marker.exists(), f"the backup did not get to {moment}"
        hidden = [p for p in folder.iterdir() if p.name.startswith(".skatbot.db.unfertig-")]
        assert len(hidden) == 1 and hidden[0].stat().st_size > 0  # it was writing
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert proc.returncode == -signal.SIGKILL
    if moment == "rename":
        assert target.read_bytes() == old.read_bytes()
        old.unlink()
    else:
        assert not target.exists()
    # The next backup to that name clears what the killed one left, and is whole.
    take_backup(url_of(db), target, replace=True)
    assert sorted(p.name for p in folder.iterdir()) == ["skatbot.db"]
    assert differences(url_of(db), sqlite_url(target)) == []


# --- restore: empty targets, --ersetzen, ids never reused -------------------------------


async def test_restore_refuses_a_database_that_is_not_empty_and_replaces_it_when_told(
    bot: Bot, db: Database, tmp_path: Path
) -> None:
    await evening(bot, -1001, 4)
    backup = tmp_path / "b.db"
    take_backup(url_of(db), backup)
    other = tmp_path / "other.db"
    other_db = Database(sqlite_url(other))
    other_db.migrate()
    async with running_bot(other_db) as elsewhere:
        await evening(elsewhere, -2002, 8)  # more rows than the backup has
    other_db.dispose()
    before = other.read_bytes()
    with pytest.raises(BackupRefused, match=r"nicht leer.*--ersetzen"):
        restore_backup(backup, sqlite_url(other))
    assert rows_of(sqlite_url(other), "SELECT id FROM chats") == [(-2002,)]
    assert other.read_bytes() == before

    used = dict(rows_of(sqlite_url(other), "SELECT name, seq FROM sqlite_sequence"))
    restore_backup(backup, sqlite_url(other), replace=True)
    assert differences(sqlite_url(backup), sqlite_url(other)) == []
    assert rows_of(sqlite_url(other), "SELECT id FROM chats") == [(-1001,)]
    # Not merged, and no id the replaced content had handed out is handed out again.
    now = dict(rows_of(sqlite_url(other), "SELECT name, seq FROM sqlite_sequence"))
    assert all(now[name] >= seq for name, seq in used.items())


async def test_ids_of_deleted_rows_are_not_handed_out_again_after_a_restore(
    bot: Bot, db: Database, tmp_path: Path
) -> None:
    await evening(bot, -1001, 3)
    await ok(bot, "/neu Xaver Yvonne Zora", chat_id=-1002)
    highest_list = max(r[0] for r in rows_of(url_of(db), "SELECT id FROM lists"))
    # The newest list deleted (with its players, by the cascade): its id was handed out, no
    # row keeps it.
    db.run_write(lambda s: s.execute(text("DELETE FROM lists WHERE id = :i"), {"i": highest_list}))
    backup = tmp_path / "b.db"
    take_backup(url_of(db), backup)
    target = new_sqlite(tmp_path / "t.db")
    restore_backup(backup, target)
    restored = Database(target)
    try:
        async with running_bot(restored, first_update_id=LATER()) as again:
            await ok(again, "/neu Olga Paul Quirin", chat_id=-1003)
        new_id = rows_of(target, "SELECT id FROM lists WHERE chat_id = -1003")[0][0]
    finally:
        restored.dispose()
    assert new_id == highest_list + 1


def test_a_restore_of_something_that_is_no_backup_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("kein SQLite")
    target = new_sqlite(tmp_path / "t.db")
    with pytest.raises(BackupRefused, match="keine skatbot-Sicherung"):
        restore_backup(junk, target)
    with pytest.raises(BackupRefused, match="gibt es nicht"):
        restore_backup(tmp_path / "fehlt.db", target)


# --- the move: SQLite → PostgreSQL → SQLite -----------------------------------------------


async def stand(db: Database, chat_id: int) -> str:
    """/stand asked of a bot started on ``db``: a new update (the copy knows the old ids as
    processed and would answer them with their stored replies)."""
    async with running_bot(db, first_update_id=LATER()) as b:
        return await ok(b, "/stand", chat_id=chat_id)


@needs_pg
async def test_the_move_sqlite_postgresql_sqlite_keeps_every_row_and_the_standings(
    tmp_path: Path,
) -> None:
    source = Database(sqlite_url(tmp_path / "club.db"))
    source.migrate()
    async with running_bot(source) as b:
        await evening(b, -1001, 9)
        await evening(b, -1002, 5)
        await ok(b, "/abschluss ja", chat_id=-1001)
        await ok(b, "/weiter", chat_id=-1001)  # a list continuing another: a self reference
        await ok(b, "/spiel Anna grand ohne 1 hand gewonnen", chat_id=-1001)
        await ok(b, "/storno 1", chat_id=-1001)  # a row naming another row
        before = {c: await ok(b, "/stand", chat_id=c) for c in (-1001, -1002)}
    source.dispose()
    assert rows_of(
        sqlite_url(tmp_path / "club.db"), "SELECT 1 FROM lists WHERE continues IS NOT NULL"
    )
    assert rows_of(sqlite_url(tmp_path / "club.db"), "SELECT 1 FROM rows WHERE target IS NOT NULL")

    back = sqlite_url(tmp_path / "back.db")
    with extra_pg_database() as pg:
        move_database(sqlite_url(tmp_path / "club.db"), pg)
        assert differences(sqlite_url(tmp_path / "club.db"), pg) == []
        on_pg = Database(pg)
        try:
            assert {c: await stand(on_pg, c) for c in before} == before
        finally:
            on_pg.dispose()
        with pytest.raises(BackupRefused, match="nicht leer"):  # a second move into it
            move_database(sqlite_url(tmp_path / "club.db"), pg)
        move_database(pg, back)
        assert differences(pg, back) == []
    assert differences(sqlite_url(tmp_path / "club.db"), back) == []
    copy = Database(back)
    try:
        assert {c: await stand(copy, c) for c in before} == before
    finally:
        copy.dispose()


@needs_pg
async def test_a_postgresql_backup_restores_into_sqlite_and_back(
    tmp_path: Path,
) -> None:
    with extra_pg_database() as pg:
        db = Database(pg)
        db.migrate()
        try:
            async with running_bot(db) as b:
                await evening(b, -1001, 5)
            take_backup(pg, tmp_path / "pg.db")
        finally:
            db.dispose()
        assert differences(pg, sqlite_url(tmp_path / "pg.db")) == []
        restore_backup(tmp_path / "pg.db", new_sqlite(tmp_path / "lite.db"))
        restore_backup(tmp_path / "pg.db", pg, replace=True)
        assert differences(sqlite_url(tmp_path / "lite.db"), pg) == []


# --- the command line ----------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


async def test_the_commands_and_their_exit_codes(
    bot: Bot,
    db: Database,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await evening(bot, -1001, 3)
    monkeypatch.setenv("SKATBOT_DATABASE_URL", url_of(db))
    target = tmp_path / "b.db"
    code, out, err = cli(capsys, "sicherung", str(target))
    assert (code, err) == (0, "")
    assert out.startswith(f"Sicherung geschrieben: {target} (") and "Geprüft" in out
    code, out, err = cli(capsys, "sicherung", str(target))
    assert code == 2 and "gibt es schon" in err and "--ersetzen" in err
    assert cli(capsys, "sicherung", str(target), "--ersetzen")[0] == 0
    code, _, err = cli(capsys, "sicherung", str(tmp_path / "nicht-da" / "b.db"))
    assert code == 2 and "mkdir -p" in err
    code, _, err = cli(capsys, "sicherung")
    assert code == 2 and "DATEI" in err

    restored = tmp_path / "r.db"
    monkeypatch.setenv("SKATBOT_DATABASE_URL", sqlite_url(restored))
    code, out, err = cli(capsys, "wiederherstellen", str(target))
    assert code == 0 and out.startswith("Wiederhergestellt aus") and err == ""
    code, _, err = cli(capsys, "wiederherstellen", str(target))
    assert code == 2 and "nicht leer" in err
    assert cli(capsys, "wiederherstellen", str(target), "--ersetzen")[0] == 0
    assert differences(sqlite_url(target), sqlite_url(restored)) == []

    moved = tmp_path / "m.db"
    code, out, err = cli(capsys, "umzug", sqlite_url(moved))
    assert code == 0 and "SKATBOT_DATABASE_URL auf das Ziel" in out
    code, _, err = cli(capsys, "umzug", sqlite_url(moved))
    assert code == 2 and "nicht leer" in err
    assert differences(sqlite_url(restored), sqlite_url(moved)) == []
    code, _, err = cli(capsys, "umzug", sqlite_url(restored))
    assert code == 2 and "dieselbe Datenbank" in err
    code, _, err = cli(capsys, "umzug", "quatsch")
    assert code == 2 and err.startswith("„quatsch“ ist keine Datenbank-URL")
    code, _, err = cli(capsys, "umzug", sqlite_url(tmp_path / "fehlt" / "m.db"))
    assert code == 2 and "mkdir -p" in err and "ZIEL-URL" in err
    assert not (tmp_path / "fehlt").exists()


def test_a_backup_refuses_to_overwrite_the_running_database(
    db: Database,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if db.url.get_backend_name() != "sqlite":
        pytest.skip("a database file")
    monkeypatch.setenv("SKATBOT_DATABASE_URL", url_of(db))
    code, _, err = cli(capsys, "sicherung", str(db.url.database), "--ersetzen")
    assert code == 2 and "die laufende Datenbank selbst" in err


def test_help_lists_the_new_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--help")
    assert code == 0
    for name in ("sicherung", "wiederherstellen", "umzug"):
        assert name in out
    code, out, _ = cli(capsys, "wiederherstellen", "--help")
    assert code == 0 and "--ersetzen" in out


# --- the schedule ---------------------------------------------------------------------------


def test_the_schedule_setting(tmp_path: Path) -> None:
    assert parse_schedule("") is None
    assert parse_schedule(f"verzeichnis={tmp_path}") == Schedule(tmp_path)
    assert parse_schedule(f" verzeichnis = {tmp_path} , alle=6h, behalten=3") == Schedule(
        tmp_path, dt.timedelta(hours=6), 3
    )
    assert parse_schedule(f"verzeichnis={tmp_path},alle=2d").every == dt.timedelta(days=2)  # type: ignore[union-attr]
    bad = {
        "alle=24h": "Verzeichnis fehlt",
        f"verzeichnis={tmp_path / 'fehlt'}": f"mkdir -p {tmp_path / 'fehlt'}",
        f"verzeichnis={tmp_path},alle=0h": "alle=24h",
        f"verzeichnis={tmp_path},alle=morgen": "alle=24h",
        f"verzeichnis={tmp_path},behalten=0": "behalten=14",
        f"verzeichnis={tmp_path},behalten=viele": "behalten=14",
        f"verzeichnis={tmp_path},oft=1": "So schreiben",
        f"verzeichnis={tmp_path},behalten=2,behalten=3": "So schreiben",
    }
    for value, fix in bad.items():
        with pytest.raises(ScheduleError, match="SKATBOT_SICHERUNG") as err:
            parse_schedule(value)
        assert fix in str(err.value), value


def test_rotation_keeps_the_newest(tmp_path: Path) -> None:
    names = [f"skatbot-2026-12-0{d}-030000.db" for d in range(1, 8)]
    for name in names:
        (tmp_path / name).write_text("x")
    (tmp_path / "eigene.db").write_text("kept: not one of the schedule's")
    removed = rotate(tmp_path, 3)
    assert [p.name for p in removed] == names[:4]
    assert [p.name for p in backups_in(tmp_path)] == names[4:]
    assert (tmp_path / "eigene.db").exists()


async def test_the_running_bot_takes_backups_on_its_schedule_and_rotates_them(
    tmp_path: Path,
) -> None:
    db_path = tmp_path / "club.db"
    folder = tmp_path / "sicherungen"
    folder.mkdir()
    env = dict(os.environ)
    env.update(
        SKATBOT_DATABASE_URL=sqlite_url(db_path),
        SKATBOT_SICHERUNG=f"verzeichnis={folder},alle=1s,behalten=2",
        SKATBOT_RATE_LIMIT="0",
    )
    async with FakeBotApi(group_limit=None) as api:
        env.update(TELEGRAM_BOT_TOKEN=api.token, TELEGRAM_API_BASE_URL=api.url)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "skatbot",
            "run",
            env=env,
            cwd=Path(__file__).resolve().parents[2],
            stdout=asyncio.subprocess.DEVNULL,
            stderr=(tmp_path / "log").open("wb"),
        )
        try:
            first = api.push_message("/neu Anna Bernd Carla")
            await api.wait_confirmed(first, timeout=60)
            seen: set[str] = set()
            most = 0
            for _ in range(6000):
                names = {p.name for p in backups_in(folder)}
                seen |= names
                most = max(most, len(names))
                if len(seen) >= 4:
                    break
                await asyncio.sleep(0.01)
            booked = api.push_message("/spiel Anna grand ohne 1 hand gewonnen")
            await api.wait_confirmed(booked, timeout=60)
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), 30)
    assert proc.returncode == 0, (tmp_path / "log").read_text()
    assert len(seen) >= 4 and most <= 3  # the new one is written before the oldest goes
    kept = backups_in(folder)
    assert 1 <= len(kept) <= 2
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]
    newest = rows_of(sqlite_url(kept[-1]), "SELECT id FROM chats")
    assert newest == [(-1001,)]


def test_a_bad_schedule_stops_the_start_with_a_german_fix(tmp_path: Path) -> None:
    env = dict(os.environ)
    env.update(
        TELEGRAM_BOT_TOKEN="123:abc",
        SKATBOT_DATABASE_URL=sqlite_url(tmp_path / "x.db"),
        SKATBOT_SICHERUNG=f"verzeichnis={tmp_path},alle=bald",
    )
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "skatbot", "run"],
        env=env,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("SKATBOT_SICHERUNG: „alle=bald“")
    assert not (tmp_path / "x.db").exists()


def test_sqlite_backup_is_a_file_on_its_own(db: Database, tmp_path: Path) -> None:
    take_backup(url_of(db), tmp_path / "b.db")
    with contextlib.closing(sqlite3.connect(tmp_path / "b.db")) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() is not None
    assert (tmp_path / "b.db").stat().st_mode & 0o777 == 0o600


# --- the check itself ---------------------------------------------------------------------


async def test_the_check_finds_a_changed_a_missing_and_an_extra_row_and_a_counter_behind(
    bot: Bot, db: Database, tmp_path: Path
) -> None:
    await evening(bot, -1001, 3)
    backup = tmp_path / "b.db"
    take_backup(url_of(db), backup)
    copy = sqlite_url(backup)
    changes = {
        "UPDATE players SET name = 'Anne' WHERE name = 'Anna'": "Tabelle players: Zeile id=",
        "DELETE FROM processed_updates WHERE update_id = (SELECT max(update_id) FROM "
        "processed_updates)": "fehlt in der Kopie",
        "INSERT INTO chats (id, rules, settings, created_at) VALUES (7, 'isko', '{}', "
        "'2026-01-01 00:00:00')": "ist in der Kopie zu viel",
        # ids handed out beyond the last row the copy has (deleted rows): the copy would
        # hand them out again
        "UPDATE sqlite_sequence SET seq = seq + 5 WHERE name = 'rows'": "Tabelle rows: die nächste",
    }
    for change, found in changes.items():
        shutil.copyfile(backup, tmp_path / "changed.db")
        with contextlib.closing(sqlite3.connect(tmp_path / "changed.db")) as conn:
            conn.execute("PRAGMA foreign_keys=OFF")
            conn.execute(change)
            conn.commit()
        changed = sqlite_url(tmp_path / "changed.db")
        if "sqlite_sequence" in change:
            problems = differences(changed, copy)
        else:
            problems = differences(copy, changed)
        assert len(problems) == 1 and found in problems[0], (change, problems)
    assert differences(copy, url_of(db)) == []


def test_an_older_backup_is_brought_up_to_date_on_restore_and_left_as_it_was(
    tmp_path: Path,
) -> None:
    from skatbot.storage.migrate import HEAD, upgrade

    old = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{old}", poolclass=NullPool)
    upgrade(engine, "0020")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO chats (id, rules, settings, created_at) VALUES "
                          "(-1001, 'isko', '{}', '2026-01-01 00:00:00')"))  # fmt: skip
    engine.dispose()
    before = old.read_bytes()
    target = new_sqlite(tmp_path / "t.db")
    restore_backup(old, target)
    assert old.read_bytes() == before
    assert rows_of(target, "SELECT id FROM chats") == [(-1001,)]
    assert rows_of(target, "SELECT version_num FROM alembic_version") == [(HEAD,)]


async def test_a_row_naming_a_later_row_of_its_table_is_copied(
    bot: Bot, db: Database, tmp_path: Path
) -> None:
    await evening(bot, -1001, 2)
    await ok(bot, "/neu Xaver Yvonne Zora", chat_id=-1002)
    # The first list continuing the second: key order alone would insert a dangling reference.
    db.run_write(
        lambda s: s.execute(
            text(
                "UPDATE lists SET continues = (SELECT max(id) FROM lists) WHERE id = (SELECT min(id) FROM lists)"
            )
        )
    )
    backup = tmp_path / "b.db"
    take_backup(url_of(db), backup)
    target = new_sqlite(tmp_path / "t.db")
    restore_backup(backup, target)
    assert differences(url_of(db), target) == []
    (first, continues), _ = rows_of(target, "SELECT id, continues FROM lists ORDER BY id")
    assert continues is not None and continues > first
