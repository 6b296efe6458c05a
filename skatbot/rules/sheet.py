"""Sheet replay: a list is an append-only log; everything shown is derived from it (SPEC §2).

Rows are games, passed games, cancellations and dealer overrides. A correction is a game row
that names the row it corrects: the corrected row is struck and the correction is shown directly
after it, with the same dealer and the same number. Valid games are numbered 1, 2, 3, ... in
display order; struck and cancelled rows have no number.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import parse_announcement
from skatbot.rules.scoring import Booking, Totals, seeger_fabian
from skatbot.rules.value import GameResult, evaluate


class RowKind(enum.StrEnum):
    GAME = "game"
    PASS = "pass"
    CANCEL = "cancel"
    DEALER = "dealer"


class Status(enum.StrEnum):
    VALID = "valid"
    STRUCK = "struck"
    CANCELLED = "cancelled"


def default_series_length(table_size: int) -> int:
    return 36 if table_size == 3 else 48


@dataclass(frozen=True)
class LogRow:
    """One stored row. ``target`` is the corrected row (GAME) or the cancelled row (CANCEL)."""

    id: int
    kind: RowKind
    dealer: int | None = None  # seat index of the dealer (GAME, PASS)
    declarer: int | None = None  # seat index (GAME)
    announcement: str | None = None  # canonical text (GAME)
    target: int | None = None
    seat: int | None = None  # next dealer (DEALER)


@dataclass(frozen=True)
class Entry:
    """A game or passed game as shown on the list."""

    row: LogRow
    nr: int | None
    status: Status
    result: GameResult | None
    corrected_by: int | None = None

    @property
    def passed(self) -> bool:
        return self.row.kind is RowKind.PASS


@functools.lru_cache(maxsize=4096)
def evaluate_text(text: str, house: bool = False) -> GameResult:
    """Evaluate stored canonical text (pure, so caching cannot serve anything stale)."""
    return evaluate(parse_announcement(text, house=house))


@dataclass
class Sheet:
    """The replayed list."""

    players: tuple[str, ...]
    first_dealer: int
    series_length: int
    entries: list[Entry] = field(default_factory=list)
    next_dealer: int = 0

    @property
    def table_size(self) -> int:
        return len(self.players)

    @property
    def valid(self) -> list[Entry]:
        return [e for e in self.entries if e.status is Status.VALID]

    @property
    def games_played(self) -> int:
        return len(self.valid)

    @property
    def vorhand(self) -> int:
        return (self.next_dealer + 1) % self.table_size

    def entry(self, nr: int) -> Entry:
        for e in self.entries:
            if e.nr == nr:
                return e
        last = self.games_played
        hint = f"Gültig sind 1 bis {last}." if last else "Es ist noch kein Spiel eingetragen."
        raise RuleError(f"Spiel {nr} gibt es nicht.", hint=hint + " /liste zeigt die Nummern.")

    def bookings(self) -> list[Booking]:
        out = []
        for e in self.valid:
            if e.result is not None and e.row.declarer is not None:
                out.append(Booking(self.players[e.row.declarer], e.result.score, e.result.won))
        return out

    def totals(self) -> list[Totals]:
        return seeger_fabian(self.players, self.bookings())

    def check_can_add(self) -> None:
        """A game beyond the series length is refused (SPEC §2)."""
        if self.games_played >= self.series_length:
            raise RuleError(
                f"Die Serie ist mit {self.series_length} Spielen voll.",
                hint="Mit /serie N verlängern oder mit /abschluss abschließen.",
            )

    def check_declarer(self, declarer: int, dealer: int) -> None:
        """At a 4-table the dealer sits out and cannot be declarer."""
        if self.table_size == 4 and declarer == dealer:
            raise RuleError(
                f"{self.players[dealer]} gibt und setzt aus – kann nicht Alleinspieler sein.",
                hint="Anderen Alleinspieler angeben oder den Geber mit /geber NAME ändern.",
            )


def replay(
    players: Sequence[str],
    rows: Sequence[LogRow],
    *,
    first_dealer: int = 0,
    series_length: int | None = None,
    house: bool = False,
) -> Sheet:
    """Derive the sheet from the log (rows in id order)."""
    sheet = Sheet(
        players=tuple(players),
        first_dealer=first_dealer,
        series_length=series_length or default_series_length(len(players)),
    )
    corrected_by: dict[int, int] = {}
    cancelled: set[int] = set()
    primary: list[LogRow] = []
    by_id: dict[int, LogRow] = {}
    override: LogRow | None = None
    last_play_id = -1
    for row in rows:
        by_id[row.id] = row
        if row.kind is RowKind.CANCEL and row.target is not None:
            cancelled.add(row.target)
        elif row.kind is RowKind.DEALER:
            override = row
        else:
            last_play_id = max(last_play_id, row.id)
            if row.target is not None:
                corrected_by[row.target] = row.id
            else:
                primary.append(row)
    nr = 0
    last_valid: LogRow | None = None
    for first in primary:
        current: LogRow | None = first
        while current is not None:
            row = current
            follow = corrected_by.get(row.id)
            status = Status.VALID
            if row.id in cancelled:
                status = Status.CANCELLED
            elif follow is not None:
                status = Status.STRUCK
            number = None
            if status is Status.VALID:
                nr += 1
                number = nr
                last_valid = row
            result = None
            if row.kind is RowKind.GAME and row.announcement is not None:
                result = evaluate_text(row.announcement, house)
            sheet.entries.append(Entry(row, number, status, result, follow))
            current = by_id.get(follow) if follow is not None else None
    if override is not None and override.id > last_play_id and override.seat is not None:
        sheet.next_dealer = override.seat
    elif last_valid is not None and last_valid.dealer is not None:
        sheet.next_dealer = (last_valid.dealer + 1) % len(players)
    else:
        sheet.next_dealer = first_dealer
    return sheet
