"""Sheet replay: a list is an append-only log; everything shown is derived from it (docs/rules.md §2).

Rows are games, passed games, Ramsch games, cancellations, dealer overrides, house-rule
events (`/bock`, `/krank`, `/gesund`), the list's closing and reopening (`/abschluss`,
`/oeffnen`: history only, they change no game), undos (`/rueckgaengig`) and "keep" rows: a
correction or cancellation they name leaves the 3B3R sequence as it was played (the corrected
game moves the machine as the game it replaced did; a cancelled game still counts for the
sequence, without points). A correction is a play row that names the row it
corrects: the corrected row is struck and the correction is shown directly after it, with the
same dealer and the same number. An undo names the change it takes back (a play, a
correction or a cancellation): the replay reads the log as if that row had never been written.
Valid plays are numbered 1, 2, 3, ... in display order;
struck and cancelled rows have no number. Under house rules the 3B3R machine is replayed along.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from skatbot.rules import house as h
from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import parse_announcement
from skatbot.rules.ranking import Standing
from skatbot.rules.scoring import Booking, Totals, minus_sign, seeger_fabian
from skatbot.rules.value import GameResult, evaluate


class RowKind(enum.StrEnum):
    GAME = "game"
    PASS = "pass"
    RAMSCH = "ramsch"
    CANCEL = "cancel"
    DEALER = "dealer"
    BOCK = "bock"  # house rules: 3B3R trigger by hand
    SICK = "sick"  # house rules: a player is sick before a Ramsch
    HEALTHY = "healthy"  # house rules: the sick report is withdrawn
    CLOSE = "close"  # /abschluss: the series was closed (who and when; the list row says so too)
    REOPEN = "reopen"  # /oeffnen: a closed series was opened again
    UNDO = "undo"  # /rueckgaengig: the change ``target`` is taken back (never itself undone)
    # house rules: the 3B3R sequence stays as played across the change (a correction or a
    # cancellation) the row names as its target ("… wie gespielt")
    KEEP = "keep"


PLAYS = (RowKind.GAME, RowKind.PASS, RowKind.RAMSCH)
EVENTS = (RowKind.BOCK, RowKind.SICK, RowKind.HEALTHY)
MARKS = (RowKind.CLOSE, RowKind.REOPEN)  # the list's history; nothing on the sheet changes
# What /rueckgaengig takes back: a booking (a new play), a correction (a play naming the row
# it corrects) and a cancellation (/storno).
CHANGES = (*PLAYS, RowKind.CANCEL)


AS_PLAYED = " (wie gespielt)"  # a trigger that stands as played, after a change of its game


class Status(enum.StrEnum):
    VALID = "valid"
    STRUCK = "struck"
    CANCELLED = "cancelled"


def default_series_length(table_size: int) -> int:
    return 36 if table_size == 3 else 48


class LogRow(NamedTuple):
    """One stored row. ``target`` is the corrected row (plays) or the cancelled row (CANCEL).

    A NamedTuple rather than a frozen dataclass: a replay builds one per stored row on every
    update, and tuple construction is several times cheaper.
    """

    id: int
    kind: RowKind
    dealer: int | None = None  # seat index of the dealer (plays)
    declarer: int | None = None  # seat index (GAME)
    announcement: str | None = None  # canonical text (GAME, RAMSCH)
    target: int | None = None
    seat: int | None = None  # next dealer (DEALER), sick player (SICK)


@dataclass(frozen=True)
class HouseMark:
    """What the 3B3R machine said about one valid play."""

    bock: bool = False
    ramsch: bool = False
    sick_game: bool = False
    trigger: str | None = None
    violation: str | None = None  # the row does not fit the 3B3R sequence (after a change)


class Entry(NamedTuple):
    """A game, passed game or Ramsch as shown on the list (immutable)."""

    row: LogRow
    nr: int | None
    status: Status
    result: GameResult | None
    corrected_by: int | None
    points: dict[int, int]  # seat -> booked points (never mutated)
    ramsch: h.Ramsch | None = None
    house: HouseMark | None = None

    @property
    def passed(self) -> bool:
        return self.row.kind is RowKind.PASS


@dataclass(frozen=True)
class HouseTotal:
    """A player's total under house rules: start points + bookings (no Seeger-Fabian)."""

    name: str
    start: int
    points: int
    won: int
    lost: int

    @property
    def score(self) -> int:
        return self.start + self.points

    @property
    def steps(self) -> str:
        sign = "−" if self.points < 0 else "+"
        return f"{minus_sign(self.start)} {sign} {abs(self.points)} = {minus_sign(self.score)}"


@functools.lru_cache(maxsize=4096)
def evaluate_text(text: str, house: bool = False) -> GameResult:
    """Evaluate stored canonical text (pure, so caching cannot serve anything stale)."""
    return evaluate(parse_announcement(text, house=house))


@dataclass(frozen=True)
class Sheet:
    """The replayed list: a value. Once ``replay`` (or ``extended``) has returned it, nothing
    changes it - the sheet cache hands the same object to every unit of work, so a change
    made in a unit that rolls back would outlive the rollback. A changed list is a new sheet
    (``extended``, ``with_series_length``)."""

    players: tuple[str, ...]
    first_dealer: int
    series_length: int
    entries: tuple[Entry, ...] = ()
    next_dealer: int = 0
    house: h.HouseRules | None = None
    state: h.HouseState = field(default_factory=h.HouseState)
    start: tuple[int, ...] = ()  # house rules: start points per seat

    @property
    def table_size(self) -> int:
        return len(self.players)

    @functools.cached_property
    def valid(self) -> tuple[Entry, ...]:
        """The valid plays (computed once: a sheet is not changed after its replay)."""
        return tuple(e for e in self.entries if e.status is Status.VALID)

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

    @functools.cached_property
    def _bookings(self) -> tuple[Booking, ...]:
        return tuple(b for e in self.valid if (b := _booking(self.players, e)) is not None)

    def bookings(self) -> list[Booking]:
        return list(self._bookings)

    def totals(self) -> list[Totals]:
        """Seeger-Fabian totals (ISkO lists)."""
        return seeger_fabian(self.players, self.bookings())

    def points_by_seat(self) -> list[int]:
        """Sum of all booked points per seat (house lists: without start points)."""
        sums = [0] * self.table_size
        for e in self.valid:
            for seat, pts in e.points.items():
                sums[seat] += pts
        return sums

    def extended(self, row: LogRow) -> Sheet:
        """The sheet after one new play appended at the end of the log.

        Equal to replaying the whole log (tested), without re-evaluating every earlier row: a
        new play (not a correction) is the last row in display order, so it gets the next
        number, runs on the current 3B3R state and decides the next dealer.
        """
        if row.kind not in PLAYS or row.target is not None or row.dealer is None:
            raise ValueError("only a new play at the end can extend a sheet")
        new = Sheet(
            players=self.players,
            first_dealer=self.first_dealer,
            series_length=self.series_length,
            house=self.house,
            state=self.state,
            start=self.start,
        )
        entry = _entry(new, row, self.games_played + 1, Status.VALID, None)
        _build(new, entries=(*self.entries, entry), next_dealer=(row.dealer + 1) % self.table_size)
        if "_bookings" in self.__dict__:  # the parent's totals were needed: so are these
            booking = _booking(self.players, entry)
            new.__dict__["_bookings"] = self._bookings + ((booking,) if booking else ())
        return new

    def with_series_length(self, n: int) -> Sheet:
        """The same sheet with a series of ``n`` games (/serie)."""
        new = dataclasses.replace(self, series_length=n)
        if "_bookings" in self.__dict__:
            new.__dict__["_bookings"] = self._bookings
        return new

    def won_lost(self) -> tuple[list[int], list[int]]:
        won = [0] * self.table_size
        lost = [0] * self.table_size
        for e in self.valid:
            if e.result is not None and e.row.declarer is not None:
                (won if e.result.won else lost)[e.row.declarer] += 1
        return won, lost

    def house_totals(self) -> list[HouseTotal]:
        points = self.points_by_seat()
        won, lost = self.won_lost()
        start = self.start or (0,) * self.table_size
        return [
            HouseTotal(name, start[i], points[i], won[i], lost[i])
            for i, name in enumerate(self.players)
        ]

    def standings(self) -> list[Standing]:
        """Score, won and lost per player under the list's rules (for the ranking)."""
        if self.house is not None:
            return [Standing(t.name, t.score, t.won, t.lost) for t in self.house_totals()]
        return [Standing(t.name, t.score, t.won, t.lost) for t in self.totals()]

    def check_can_add(self) -> None:
        """A game beyond the series length is refused (docs/rules.md §2)."""
        if self.games_played >= self.series_length:
            raise RuleError(
                f"Die Serie ist mit {self.series_length} "
                f"{'Spiel' if self.series_length == 1 else 'Spielen'} voll.",
                hint="Mit /serie N verlängern oder mit /abschluss abschließen.",
            )

    def sitting_out(self, dealer: int) -> int | None:
        return dealer if self.table_size == 4 else None

    def check_declarer(self, declarer: int, dealer: int) -> None:
        """At a 4-table the dealer sits out and cannot be declarer."""
        if self.table_size == 4 and declarer == dealer:
            raise RuleError(
                f"{self.players[dealer]} gibt und setzt aus – kann nicht Alleinspieler sein.",
                hint="Anderen Alleinspieler angeben oder den Geber mit /geber NAME ändern.",
            )

    def check_game_allowed(self, declarer: int, result: GameResult | None) -> None:
        """House rules: during Ramsch only a sick player's Grand Hand is a normal game."""
        if self.house is None or self.state.phase is not h.Phase.RAMSCH:
            return
        sick = self.state.sick_now
        if sick is None:
            raise RuleError(
                "Jetzt wird Ramsch gespielt.",
                hint="/ramsch VERLIERER AUGEN eintragen – oder erst /krank NAME.",
            )
        if declarer != sick:
            raise RuleError(
                f"{self.players[sick]} ist krank gemeldet und spielt jetzt Grand Hand.",
                hint=f"/spiel {self.players[sick]} grand mit 1 hand gewonnen – oder /gesund.",
            )
        if result is None:
            raise RuleError("Wer krank ist, muss spielen.", hint="Grand Hand eintragen.")
        h.check_sick_game(result, self.players[sick])

    def violations(self) -> list[str]:
        """Valid plays that do not fit the 3B3R sequence, e.g. "Spiel 7: Ramsch außerhalb …"."""
        return [
            f"Spiel {e.nr}: {e.house.violation}"
            for e in self.valid
            if e.house is not None and e.house.violation
        ]

    def check_pass_allowed(self) -> None:
        if self.house is not None and self.state.phase is h.Phase.RAMSCH:
            raise RuleError(
                "In der Ramsch-Phase wird nicht eingepasst – es wird Ramsch gespielt.",
                hint="/ramsch VERLIERER AUGEN eintragen.",
            )

    def check_ramsch_allowed(self) -> None:
        if self.house is None:
            raise RuleError(
                "Ramsch gibt es nur mit Hausregeln.",
                hint="Mit /regeln haus einschalten (gilt ab dem ersten Spiel einer Liste).",
            )
        if self.state.phase is not h.Phase.RAMSCH:
            raise RuleError(
                "Gerade ist keine Ramsch-Phase.",
                hint=f"Stand: {self.state.label()}. Ramsch folgt nach 3 Bock-Spielen.",
            )
        if self.state.sick_now is not None:
            raise RuleError(
                f"{self.players[self.state.sick_now]} ist krank gemeldet: erst Grand Hand.",
                hint="Oder /gesund, wenn doch alle gesund sind.",
            )


def replay(
    players: Sequence[str],
    rows: Sequence[LogRow],
    *,
    first_dealer: int = 0,
    series_length: int | None = None,
    house: h.HouseRules | None = None,
    start: Sequence[int] = (),
) -> Sheet:
    """Derive the sheet from the log (rows in id order)."""
    rows = without_undone(rows)
    size = len(players)
    sheet = Sheet(
        start=tuple(start),
        players=tuple(players),
        first_dealer=first_dealer,
        series_length=series_length or default_series_length(size),
        house=house,
        state=h.HouseState(length=house.phase_length(size) if house else h.PHASE_GAMES),
    )
    corrected_by: dict[int, int] = {}
    cancelled: dict[int, int] = {}  # cancelled row id -> id of the cancel row
    kept: set[int] = set()  # changes (a correction or a cancel row) that keep the sequence
    primary: list[LogRow] = []
    by_id: dict[int, LogRow] = {}
    for row in rows:
        by_id[row.id] = row
        if row.kind is RowKind.CANCEL and row.target is not None:
            cancelled[row.target] = row.id
        elif row.kind is RowKind.KEEP:
            if row.target is not None:
                kept.add(row.target)
        elif row.kind is RowKind.DEALER:
            continue  # only the next dealer depends on it (_next_dealer)
        elif row.kind in MARKS:
            continue  # closing and reopening change no game
        elif row.kind in EVENTS:
            primary.append(row)
        else:
            if row.target is not None:
                corrected_by[row.target] = row.id
            else:
                primary.append(row)
    nr = 0
    entries: list[Entry] = []
    for first in primary:
        if first.kind in EVENTS:
            if first.id not in cancelled:
                _apply_event(sheet, first)
            continue
        current: LogRow | None = first
        played: HouseMark | None = None  # how the previous row of the chain moved the machine
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
            as_played = played if row.id in kept else None
            moves = status is Status.VALID or cancelled.get(row.id) in kept
            entry = _entry(sheet, row, number, status, follow, as_played, moves=moves)
            played = entry.house if entry.house is not None and as_played is None else played
            entries.append(entry)
            current = by_id.get(follow) if follow is not None else None
    _build(sheet, entries=tuple(entries), next_dealer=_next_dealer(rows, size, first_dealer))
    return sheet


def without_undone(rows: Sequence[LogRow]) -> Sequence[LogRow]:
    """The log as if every change an undo took back had never been written (and without
    the undo rows themselves)."""
    undone = {r.target for r in rows if r.kind is RowKind.UNDO}
    if not undone:
        return rows
    return [r for r in rows if r.kind is not RowKind.UNDO and r.id not in undone]


def undone_ids(rows: Sequence[LogRow]) -> frozenset[int]:
    """The ids of the changes an undo took back."""
    return frozenset(r.target for r in rows if r.kind is RowKind.UNDO and r.target is not None)


def latest_change(rows: Sequence[LogRow]) -> LogRow | None:
    """The change ``/rueckgaengig`` takes back next: the newest booking, correction or
    cancellation not taken back already (an undo is no change: undoing twice takes back
    the change before, never the undo)."""
    undone = undone_ids(rows)
    for row in reversed(rows):
        if row.kind in CHANGES and row.id not in undone:
            return row
    return None


def _build(sheet: Sheet, **fields: object) -> None:
    """Set ``fields`` of a sheet under construction (replay, extended): the only writes to a
    sheet, before anyone else sees it."""
    for name, value in fields.items():
        object.__setattr__(sheet, name, value)


def _next_dealer(rows: Sequence[LogRow], size: int, first_dealer: int) -> int:
    """Seat after the dealer of the last play; `/geber` overrides; corrections shift nothing
    unless they correct the dealer of the last game; cancelling the last game gives its
    dealer back (docs/rules.md §2)."""
    nxt = first_dealer
    chain: dict[int, int] = {}  # row id -> id of the first row of its correction chain
    dealer_of: dict[int, int] = {}
    alive: list[int] = []  # chains with a valid row, in play order
    overridden = False  # /geber after the last new play
    for row in rows:
        if row.kind in PLAYS:
            first = chain.get(row.target, row.id) if row.target is not None else row.id
            chain[row.id] = first
            if row.target is None:
                dealer_of[first] = row.dealer or 0
                alive.append(first)
                nxt = (dealer_of[first] + 1) % size
                overridden = False
            elif first in dealer_of and row.dealer is not None and row.dealer != dealer_of[first]:
                # A correction of the dealer (/korrigieren N … geber NAME): the dealing order
                # continues from the corrected dealer if that game is the last one.
                dealer_of[first] = row.dealer
                if alive and alive[-1] == first and not overridden:
                    nxt = (row.dealer + 1) % size
        elif row.kind is RowKind.DEALER and row.seat is not None:
            nxt = row.seat
            overridden = True
        elif row.kind is RowKind.CANCEL and row.target in chain:
            first = chain[row.target]
            if first in alive:
                was_last = alive[-1] == first
                alive.remove(first)
                if was_last:
                    nxt = dealer_of[first]
    return nxt


def _apply_event(sheet: Sheet, row: LogRow) -> None:
    state = sheet.state
    if row.kind is RowKind.BOCK:
        _build(sheet, state=h.manual_bock(state))
    elif row.kind is RowKind.SICK and row.seat is not None and state.phase is h.Phase.RAMSCH:
        _build(sheet, state=dataclasses.replace(state, sick_now=row.seat))
    elif row.kind is RowKind.HEALTHY:
        _build(sheet, state=dataclasses.replace(state, sick_now=None))


def _violation(sheet: Sheet, row: LogRow, result: GameResult | None) -> str | None:
    """Why a valid play does not fit the 3B3R state it is replayed in (None if it fits)."""
    state = sheet.state
    if state.phase is not h.Phase.RAMSCH:
        if row.kind is RowKind.RAMSCH:
            return "Ramsch außerhalb der Ramsch-Phase"
        return None
    if row.kind is RowKind.PASS:
        return "eingepasst in der Ramsch-Phase"
    if row.kind is RowKind.GAME:
        if state.sick_now is None or row.declarer != state.sick_now:
            return "normales Spiel in der Ramsch-Phase"
        if result is not None:
            try:
                h.check_sick_game(result)
            except RuleError as err:
                return err.message
    return None


def _booking(players: tuple[str, ...], e: Entry) -> Booking | None:
    """What a valid entry books for Seeger-Fabian (None for passed games and Ramsch)."""
    if e.result is None or e.row.declarer is None:
        return None
    return Booking(players[e.row.declarer], e.result.score, e.result.won)


def _entry(
    sheet: Sheet,
    row: LogRow,
    nr: int | None,
    status: Status,
    follow: int | None,
    as_played: HouseMark | None = None,
    *,
    moves: bool = True,
) -> Entry:
    """Evaluate one play; a valid one (or one whose cancellation keeps the sequence:
    ``moves``) also drives the house machine. ``as_played``: the mark of the row this
    correction replaced, when the change keeps the sequence - its trigger and whether it
    counted for the phase stand."""
    house = sheet.house
    result = None
    ramsch = None
    if row.kind is RowKind.GAME and row.announcement is not None:
        result = evaluate_text(row.announcement, house is not None)
    elif row.kind is RowKind.RAMSCH and row.announcement is not None:
        ramsch = h.parse_ramsch_text(row.announcement)
    if house is None:
        points = {row.declarer: result.score} if result and row.declarer is not None else {}
        return Entry(row, nr, status, result, follow, points)
    state = sheet.state
    sick_game = (
        state.phase is h.Phase.RAMSCH
        and state.sick_now is not None
        and result is not None
        and row.declarer == state.sick_now
    )
    violation = _violation(sheet, row, result) if status is Status.VALID else None
    if result is not None and row.declarer is not None:
        points = {row.declarer: h.house_booking(result, bock=state.bock)}
        trigger = h.game_trigger(result, points[row.declarer], state)
    elif ramsch is not None:
        points = ramsch.bookings()
        limit = h.TRIGGER_LIMIT_ACTIVE if state.active else h.TRIGGER_LIMIT
        trigger = f"über {limit} Punkte" if any(abs(p) > limit for p in points.values()) else None
    else:
        points, trigger = {}, None
    if as_played is not None:
        sick_game, trigger = as_played.sick_game, as_played.trigger
        if trigger is not None and not trigger.endswith(AS_PLAYED):
            trigger += AS_PLAYED
    mark = HouseMark(
        bock=state.bock,
        ramsch=ramsch is not None,
        sick_game=sick_game,
        trigger=trigger,
        violation=violation,
    )
    if moves:
        new = h.advance(state, counts=not sick_game, trigger=trigger is not None)
        if sick_game and row.declarer is not None:
            new = dataclasses.replace(
                new, sick_now=None, sick_used=state.sick_used | {row.declarer}
            )
        _build(sheet, state=new)
    return Entry(row, nr, status, result, follow, points, ramsch, mark)
