"""Input data for the PDF documents.

The PDF package knows nothing about the rules engine or storage: the caller maps a sheet
replay onto these plain dataclasses.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SheetRow:
    """One row of the game log, in the order the rows were entered."""

    nr: int | None
    """Game number shown in the "Nr" column; ``None`` for a struck/cancelled row."""
    dealer: str
    text: str
    """Canonical game text, e.g. "Grand ohne 1 Hand", "eingepasst", "Ramsch"."""
    bid: int | None
    value: int | None
    bookings: dict[str, int]
    """Player -> points booked in this row (empty for a passed game)."""
    running: dict[str, int]
    """Player -> running sum after this row (unchanged for struck rows); under house rules
    it starts at the player's start points."""
    struck: bool = False
    """Corrected or cancelled: drawn struck through."""
    note: str = ""
    """E.g. "überreizt", "korrigiert → Spiel 7", "storniert", "Bock"."""
    overbid: bool = False
    won: bool | None = None


@dataclass(frozen=True)
class PlayerTotal:
    """The Serienabschluss line of one player."""

    name: str
    game_points: int
    """Seeger-Fabian game points; under house rules the sum of the bookings (without start)."""
    won: int
    lost: int
    others_lost: int
    score: int
    steps: str
    """The calculation, e.g. "437 + 50 × (12 − 3) + 30 × 6 = 1067"."""


@dataclass(frozen=True)
class SeriesDocument:
    title: str
    """E.g. "Skatliste – Skatrunde"."""
    date: datetime.date
    rules: str
    """E.g. "ISkO / Seeger-Fabian" or "Hausregeln (3B3R)"."""
    players: list[str]
    """Seat order."""
    table_size: int
    """3 or 4."""
    rows: list[SheetRow]
    totals: list[PlayerTotal]
    """In seat order."""
    ranking: list[tuple[int, str, int]]
    """(place, name, score), best first."""
    ranking_note: str = ""
    """E.g. "Platz 2 durch Los entschieden"."""
    closed: bool = False
    """True once the series is closed (/abschluss); otherwise the PDF shows a Zwischenstand."""
    closed_on: datetime.date | None = None
    """The day the series was closed (shown under the header of a closed list)."""
    subtitle: str = ""
    """Optional extra header line, e.g. "Tisch 2 · Serie 1"."""
    house: bool = False
    """House rules: no Seeger-Fabian columns; the closing shows start points and bookings."""
    start: dict[str, int] = field(default_factory=dict)
    """House rules: start points per player. The running sums of ``rows`` include them; a
    start row heads the table when any is not zero."""
    money: list[str] = field(default_factory=list)
    """The settlement under the list's stake, one line each; empty: none."""
    curve: list[tuple[int, ...]] = field(default_factory=list)
    """The chart: every seat's score before the first game and after each one, as the chat's
    picture draws it (``rules.statistics.running_scores``); empty: the running sums."""
    curve_label: str = ""
    """What the curve counts, e.g. "Seeger-Fabian" (the picture's subtitle says the same)."""
