"""Backups taken by the running bot on a schedule, the oldest ones removed (docs/backup.md).

``SKATBOT_SICHERUNG=verzeichnis=/srv/skatbot/sicherungen,alle=24h,behalten=14``: a backup
into that folder every 24 hours (the first one at start when the newest there is older
than that), keeping the 14 newest. Checked at start; a bad value stops the start with one
German line naming the fix.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

from skatbot.storage.backup import take_backup

log = logging.getLogger(__name__)

ENV = "SKATBOT_SICHERUNG"
EXAMPLE = "verzeichnis=/srv/skatbot/sicherungen,alle=24h,behalten=14"
NAME_FORMAT = "skatbot-%Y-%m-%d-%H%M%S.db"
NAME_PATTERN = re.compile(r"^skatbot-\d{4}-\d{2}-\d{2}-\d{6}\.db$")
UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "std": 3600, "d": 86400, "t": 86400}
RETRY = dt.timedelta(minutes=10)  # after a failed backup (disk full, database away)


class ScheduleError(ValueError):
    """A bad ``SKATBOT_SICHERUNG``: the German line says what to write instead."""


@dataclass(frozen=True)
class Schedule:
    folder: Path
    every: dt.timedelta = dt.timedelta(hours=24)
    keep: int = 14


def _duration(value: str) -> dt.timedelta:
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]+)\s*", value.lower())
    if not match or match.group(2) not in UNITS or int(match.group(1)) == 0:
        raise ScheduleError(
            f"{ENV}: „alle={value}“ verstehe ich nicht. Eine Zahl mit Einheit schreiben: "
            "z. B. alle=24h, alle=30m oder alle=7d (h Stunden, m Minuten, d Tage)."
        )
    return dt.timedelta(seconds=int(match.group(1)) * UNITS[match.group(2)])


def parse_schedule(value: str) -> Schedule | None:
    """The schedule a ``SKATBOT_SICHERUNG`` value asks for (None when empty)."""
    value = value.strip()
    if not value:
        return None
    fields: dict[str, str] = {}
    for part in value.split(","):
        key, sep, val = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in ("verzeichnis", "alle", "behalten") or key in fields:
            raise ScheduleError(
                f"{ENV}: „{part.strip()}“ verstehe ich nicht. So schreiben: {EXAMPLE} "
                "(alle und behalten dürfen fehlen)."
            )
        fields[key] = val.strip()
    if not fields.get("verzeichnis"):
        raise ScheduleError(f"{ENV}: das Verzeichnis fehlt. So schreiben: {EXAMPLE}")
    folder = Path(fields["verzeichnis"]).expanduser()
    if not folder.is_dir():
        raise ScheduleError(
            f"{ENV}: das Verzeichnis {folder} gibt es nicht: erst anlegen (mkdir -p {folder})."
        )
    if not os.access(folder, os.W_OK):
        raise ScheduleError(
            f"{ENV}: in {folder} darf skatbot nicht schreiben: dem Benutzer des Bots "
            "Schreibrechte geben (chown) oder ein anderes Verzeichnis wählen."
        )
    every = _duration(fields["alle"]) if "alle" in fields else Schedule.every
    keep = Schedule.keep
    if "behalten" in fields:
        if not fields["behalten"].isdigit() or int(fields["behalten"]) < 1:
            raise ScheduleError(
                f"{ENV}: „behalten={fields['behalten']}“ geht nicht. Eine ganze Zahl ab 1 "
                "schreiben: so viele der neuesten Sicherungen bleiben, z. B. behalten=14."
            )
        keep = int(fields["behalten"])
    return Schedule(folder=folder, every=every, keep=keep)


def schedule_from_env() -> Schedule | None:
    return parse_schedule(os.environ.get(ENV, ""))


def backups_in(folder: Path) -> list[Path]:
    """The schedule's backups in ``folder``, oldest first (their names sort by time)."""
    return sorted(p for p in folder.iterdir() if NAME_PATTERN.match(p.name))


def _taken_at(path: Path) -> dt.datetime:
    return dt.datetime.strptime(path.name, NAME_FORMAT).replace(tzinfo=dt.UTC)


def rotate(folder: Path, keep: int) -> list[Path]:
    """Remove all but the ``keep`` newest backups; the removed ones."""
    old = backups_in(folder)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def next_due(schedule: Schedule, now: dt.datetime) -> dt.datetime:
    """When the next backup is due: ``every`` after the newest one, or now."""
    taken = backups_in(schedule.folder)
    if not taken:
        return now
    return min(_taken_at(taken[-1]) + schedule.every, now + schedule.every)


def backup_now(schedule: Schedule, database_url: str, now: dt.datetime) -> Path:
    """Take one backup now (blocking) and rotate the folder."""
    target = schedule.folder / now.astimezone(dt.UTC).strftime(NAME_FORMAT)
    done = take_backup(database_url, target)
    removed = rotate(schedule.folder, schedule.keep)
    log.info(
        "backup %s written (%d rows), %d old ones removed", target.name, done.rows, len(removed)
    )
    return target


async def run_schedule(schedule: Schedule, database_url: str, stop: asyncio.Event) -> None:
    """Take backups on ``schedule`` until ``stop`` is set; in a worker thread each, so the bot
    answers meanwhile. A failed backup is logged and tried again after a while."""
    due = next_due(schedule, dt.datetime.now(dt.UTC))
    while not stop.is_set():
        wait = (due - dt.datetime.now(dt.UTC)).total_seconds()
        if wait > 0:
            try:
                await asyncio.wait_for(stop.wait(), wait)
                return
            except TimeoutError:
                pass
        now = dt.datetime.now(dt.UTC)
        try:
            await asyncio.to_thread(backup_now, schedule, database_url, now)
            due = now + schedule.every
        except Exception as err:
            log.error("scheduled backup failed: %s", err)
            due = now + min(RETRY, schedule.every)
