"""The calendar in Germany: which day and clock time a stored moment is there.

Evenings, seasons and tournaments are dated by the day in Germany, whatever the server's
time zone. SQLite gives stored times back naive; they are UTC."""

from __future__ import annotations

import datetime as dt


def _last_sunday(year: int, month: int) -> dt.date:
    day = dt.date(year, month, 31)
    return day - dt.timedelta(days=(day.weekday() + 1) % 7)


def _berlin_offset(moment: dt.datetime) -> dt.timedelta:
    """CET/CEST by the EU rule (summer time from 01:00 UTC on the last Sunday of March to
    01:00 UTC on the last Sunday of October): the fallback without a time zone database."""
    utc = moment.astimezone(dt.UTC).replace(tzinfo=None)
    start = dt.datetime.combine(_last_sunday(utc.year, 3), dt.time(1))
    end = dt.datetime.combine(_last_sunday(utc.year, 10), dt.time(1))
    return dt.timedelta(hours=2 if start <= utc < end else 1)


def berlin_time(moment: dt.datetime) -> dt.datetime:
    """A stored time as the clock in Germany shows it (naive: UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    try:
        from zoneinfo import ZoneInfo

        return moment.astimezone(ZoneInfo("Europe/Berlin"))
    except Exception:  # no time zone data on this system (e.g. a slim image): the EU rule
        return moment.astimezone(dt.timezone(_berlin_offset(moment)))


def berlin_date(moment: dt.datetime | None) -> dt.date:
    """The calendar day in Germany of a stored time; ``None``: now."""
    return berlin_time(dt.datetime.now(dt.UTC) if moment is None else moment).date()


def berlin_today() -> dt.date:
    return berlin_date(None)


def berlin_moment(day: dt.date, clock: dt.time) -> dt.datetime | None:
    """The moment the clock in Germany shows ``clock`` on ``day`` (aware, Berlin time).

    ``None`` where that reading is not one moment: the hour skipped when summer time starts
    (02:00-03:00 on the last Sunday of March) and the hour shown twice when it ends (02:00-03:00
    on the last Sunday of October). Found by trying both offsets, so it works without a time
    zone database too."""
    wall = dt.datetime.combine(day, clock)
    # Kept in UTC: two times of one zone compare by their clock readings, so the two
    # moments of the repeated hour would count as one.
    candidates = [(wall - dt.timedelta(hours=h)).replace(tzinfo=dt.UTC) for h in (1, 2)]
    found = [utc for utc in candidates if berlin_time(utc).replace(tzinfo=None) == wall]
    return berlin_time(found[0]) if len(found) == 1 else None
