"""When a game night starts, as players type it (``/spielabend Di 19:00``), and back.

The grammar (case does not matter, nor the order; commas and trailing dots are forgiven):

- **day**: ``heute``, ``morgen``, ``übermorgen``; a weekday (``Di``, ``Di.``, ``Dienstag``,
  ``dienstags``, ``Sonnabend``); a date (``12.12.``, ``12.12``, ``12.12.26``, ``12.12.2026``).
  A weekday next to another day must name the same day (``Di 8.12.``). No day: today.
- **time** (required): ``19:00``, ``19:30 Uhr``, ``19.30 Uhr``, ``19 Uhr``, ``19 Uhr 30``,
  ``19h``, ``19``. The clock is the 24-hour one Germans write; ``abends`` or ``nachmittags``
  next to an hour from 1 to 11 adds twelve hours (``8 Uhr abends`` is 20:00).
- **filler**: ``am``, ``um``, ``ab``, ``den``, ``nächsten``, ``kommenden``, ``diesen``, …

Read against ``now`` in Germany: a weekday is the next such day, today included; a date
without a year is this year's, or next year's once this year's has passed. The start must lie
after ``now`` and at most :data:`MAX_DAYS_AHEAD` days ahead, and must be a clock reading that
happens exactly once (not in the hour skipped or repeated when the clocks change). Every
refusal is a :class:`GameNightError` that names a command that works.

:func:`format_start` writes ``Di 8.12. 19:00``, and ``parse_start`` reads that text back to
the same moment for every start it accepts (without a year: the horizon is under a year).
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass

from skatbot.rules.calendar import berlin_moment, berlin_time
from skatbot.rules.errors import GameNightError

__all__ = ["MAX_DAYS_AHEAD", "GameNightStart", "format_start", "parse_start"]

#: How far ahead a game night may be planned (half a year: a club's Christmas evening in
#: summer is fine; a date further out is more likely a typo, and the text has no year).
MAX_DAYS_AHEAD = 180

WEEKDAY_SHORT = ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So")
WEEKDAY_LONG = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")
WEEKDAY_WORDS: dict[str, int] = {
    **{name.lower(): i for i, name in enumerate(WEEKDAY_SHORT)},
    **{name.lower(): i for i, name in enumerate(WEEKDAY_LONG)},
    **{name.lower() + "s": i for i, name in enumerate(WEEKDAY_LONG)},
    "sonnabend": 5,
    "sonnabends": 5,
}
DAY_WORDS = {"heute": 0, "morgen": 1, "übermorgen": 2, "uebermorgen": 2}
EVENING_WORDS = {"abends", "abend", "nachmittags", "nachmittag"}
FILLER_WORDS = {
    "am", "um", "ab", "den", "uhr", "morgens", "vormittags", "früh", "frueh", "mittags",
    "nächsten", "nächster", "naechsten", "naechster", "kommenden", "kommender",
    "diesen", "dieser",
}  # fmt: skip
KNOWN_WORDS = sorted({*WEEKDAY_WORDS, *DAY_WORDS, *EVENING_WORDS, *FILLER_WORDS})

EXAMPLE = "/spielabend Di 19:00"
DATE = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})(?:\.([0-9]{4}|[0-9]{2})?)?")
CLOCK = re.compile(r"([0-9]{1,2})(?::([0-9]{2})|\.([0-9]{2})(?=uhr|h))?(?:uhr|h)?")
DOTTED_CLOCK = re.compile(r"[0-9]{1,2}\.[0-9]{2}")
MINUTES = re.compile(r"[0-9]{1,2}")
SUFFIXES = ("uhr", "h")


@dataclass(frozen=True)
class GameNightStart:
    """When a game night starts: an aware moment, kept in Germany's time."""

    at: dt.datetime

    def __post_init__(self) -> None:
        if self.at.tzinfo is None:
            raise ValueError("a game night starts at an aware moment")
        object.__setattr__(self, "at", berlin_time(self.at))

    @property
    def unix_time(self) -> int:
        """Seconds since the epoch (what a Telegram ``date_time`` entity carries)."""
        return int(self.at.timestamp())

    def __str__(self) -> str:
        return format_start(self.at)


def format_start(at: dt.datetime) -> str:
    """``Di 8.12. 19:00``: weekday, day and month, and the clock in Germany."""
    local = berlin_time(at)
    return f"{WEEKDAY_SHORT[local.weekday()]} {local.day}.{local.month}. {local:%H:%M}"


@dataclass
class _Typed:
    """What the words named, before it is read against ``now``."""

    day: dt.date | None = None
    day_word: str = ""
    weekday: int | None = None
    hour: int | None = None
    minute: int = 0
    evening: bool = False


def parse_start(text: str, now: dt.datetime) -> GameNightStart:
    """The start a player typed (the words after ``/spielabend``), read against ``now``."""
    # Compared in UTC: Python compares two times of one zone by their clock readings.
    now = berlin_time(now).astimezone(dt.UTC)  # naive: UTC, as everywhere in the calendar
    today = berlin_time(now).date()
    typed = _read_words(text, today)
    if typed.hour is None:
        said = typed.day_word or WEEKDAY_SHORT[typed.weekday if typed.weekday is not None else 1]
        raise GameNightError("Die Uhrzeit fehlt.", f"Zum Beispiel: /spielabend {said} 19:00")
    hour = typed.hour + 12 if typed.evening and 1 <= typed.hour <= 11 else typed.hour
    if hour > 23 or typed.minute > 59:
        raise GameNightError(
            f"{typed.hour}:{typed.minute:02d} ist keine Uhrzeit.",
            f"Stunden 0 bis 23, Minuten 0 bis 59, z. B. {EXAMPLE}",
        )
    clock = dt.time(hour, typed.minute)
    day = _day(typed, today)
    moment = berlin_moment(day, clock)
    if moment is None:
        raise GameNightError(
            f"Um {clock:%H:%M} in der Nacht der Zeitumstellung gibt es keine eindeutige Uhrzeit.",
            f"Nimm 03:00 oder später, z. B. /spielabend {day.day}.{day.month}. 19:00",
        )
    start = moment.astimezone(dt.UTC)
    if start <= now:
        raise GameNightError(f"{format_start(start)} ist schon vorbei.", _later(start, now))
    if start - now > dt.timedelta(days=MAX_DAYS_AHEAD):
        raise GameNightError(
            f"Der {day.day}.{day.month}.{day.year} ist mehr als {MAX_DAYS_AHEAD} Tage hin.",
            f"Plane höchstens ein halbes Jahr im Voraus, z. B. {EXAMPLE}",
        )
    return GameNightStart(start)


def _read_words(text: str, today: dt.date) -> _Typed:
    typed = _Typed()
    typed_words = text.replace(",", " ").split()
    if typed_words and typed_words[0].lower().startswith("/spielabend"):
        typed_words = typed_words[1:]
    tokens = [word.lower() for word in typed_words]
    if not tokens:
        raise GameNightError("Wann soll gespielt werden?", f"Zum Beispiel: {EXAMPLE}")
    i = 0
    while i < len(tokens):
        token = tokens[i]
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        date = DATE.fullmatch(token)
        clock = CLOCK.fullmatch(token)
        word = token.rstrip(".")
        dotted_clock = after in SUFFIXES and DOTTED_CLOCK.fullmatch(token)  # "19.30 Uhr"
        if date and not dotted_clock:
            _set_day(typed, _date(date, today), token)
        elif clock or dotted_clock:
            if typed.hour is not None:
                raise GameNightError("Zwei Uhrzeiten angegeben.", f"Nimm eine, z. B. {EXAMPLE}")
            typed.hour, typed.minute, i = _clock(token, tokens, i)
        elif word in DAY_WORDS:
            _set_day(typed, today + dt.timedelta(days=DAY_WORDS[word]), token)
        elif word in WEEKDAY_WORDS:
            if typed.weekday is not None:
                raise GameNightError("Zwei Wochentage angegeben.", f"Nimm einen, z. B. {EXAMPLE}")
            typed.weekday = WEEKDAY_WORDS[word]
        elif word in EVENING_WORDS:
            typed.evening = True
        elif word not in FILLER_WORDS:
            raise _unknown(typed_words[i])
        i += 1
    return typed


def _clock(token: str, tokens: list[str], i: int) -> tuple[int, int, int]:
    """Hour, minute and the index of the last token used, from ``19:30``, ``19.30 Uhr``,
    ``19 Uhr 30``, ``19h`` or ``19``."""
    hour_text, _, minute_text = (
        token.removesuffix("uhr").removesuffix("h").replace(":", ".").partition(".")
    )
    hour, minute = int(hour_text), int(minute_text or 0)
    rest = tokens[i + 1 : i + 3]
    if not minute_text and len(rest) == 2 and rest[0] in SUFFIXES and MINUTES.fullmatch(rest[1]):
        return hour, int(rest[1]), i + 2  # "19 Uhr 30"
    return hour, minute, i + 1 if rest[:1] and rest[0] in SUFFIXES else i


def _date(match: re.Match[str], today: dt.date) -> dt.date:
    """The date of ``12.12.`` (next such date, today included), ``12.12.26`` or ``12.12.2026``."""
    day, month, year = int(match.group(1)), int(match.group(2)), match.group(3)
    years = [int(year) + (2000 if len(year) == 2 else 0)] if year else [today.year, today.year + 1]
    dates = []
    for y in years:
        try:
            dates.append(dt.date(y, month, day))
        except ValueError:
            continue
    if not dates:
        raise GameNightError(
            f"Den {day}.{month}. gibt es nicht.",
            "Bitte das Datum prüfen, z. B. /spielabend 12.12. 19:00",
        )
    coming = [d for d in dates if d >= today]
    # The horizon is counted in moments, a date in Berlin's days: a start just after midnight
    # at the horizon's end is a day more away by the calendar. So one day of slack here; the
    # moment is checked against the horizon later.
    far = (coming[0] - today).days > MAX_DAYS_AHEAD + 1 if coming else False
    if year is None and far and dates[0] < today:
        return dates[0]  # "4.12." on 5.12. is yesterday, not next year: refused as past
    return coming[0] if coming else dates[0]  # all past: refused as past later


def _set_day(typed: _Typed, day: dt.date, word: str) -> None:
    if typed.day is not None and typed.day != day:
        raise GameNightError(
            f"Zwei Tage angegeben: „{typed.day_word}“ und „{word}“.", f"Nimm einen, z. B. {EXAMPLE}"
        )
    typed.day, typed.day_word = day, word


def _day(typed: _Typed, today: dt.date) -> dt.date:
    """The day meant: a weekday must match a named day; a weekday alone is the next such day."""
    if typed.day is None:
        if typed.weekday is None:
            return today
        return today + dt.timedelta(days=(typed.weekday - today.weekday()) % 7)
    if typed.weekday is not None and typed.weekday != typed.day.weekday():
        real = typed.day.weekday()
        raise GameNightError(
            f"Der {typed.day.day}.{typed.day.month}. ist ein {WEEKDAY_LONG[real]}, "
            f"kein {WEEKDAY_LONG[typed.weekday]}.",
            f"Bitte Tag oder Datum prüfen, z. B. /spielabend {WEEKDAY_SHORT[real]} "
            f"{typed.day.day}.{typed.day.month}. 19:00",
        )
    return typed.day


def _later(start: dt.datetime, now: dt.datetime) -> str:
    """The fix for a start that has passed: twelve hours later the same day, else a week later."""
    local = berlin_time(start)
    if local.hour < 12:
        evening = berlin_moment(local.date(), local.time().replace(hour=local.hour + 12))
        if evening is not None and evening.astimezone(dt.UTC) > now:
            return f"Meinst du abends? /spielabend {format_start(evening)}"
    week = berlin_moment(local.date() + dt.timedelta(days=7), local.time())
    if week is not None and week.astimezone(dt.UTC) > now:
        return f"Für nächste Woche: /spielabend {format_start(week)}"
    return f"Nimm einen kommenden Tag, z. B. {EXAMPLE}"


def _unknown(token: str) -> GameNightError:
    guess = difflib.get_close_matches(token.rstrip(".").lower(), KNOWN_WORDS, n=1, cutoff=0.75)
    if guess and guess[0] in WEEKDAY_WORDS:
        meant = WEEKDAY_LONG[WEEKDAY_WORDS[guess[0]]]
        return GameNightError(
            f"„{token}“ kenne ich nicht.",
            f"Meinst du {meant}? Zum Beispiel: /spielabend {meant} 19:00",
        )
    if guess:
        return GameNightError(f"„{token}“ kenne ich nicht.", f"Meinst du „{guess[0]}“? {EXAMPLE}")
    return GameNightError(
        f"„{token}“ kenne ich nicht.", f"Schreib Tag und Uhrzeit, z. B. {EXAMPLE} oder morgen 19:30"
    )
