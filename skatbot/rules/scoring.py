"""Seeger-Fabian totals (Skatwettspielordnung 6.3.1).

Declarer: +50 per won game, −50 per lost game. Every other player at the table (at a 4-table
the sitting-out dealer too): +40 at a 3-table, +30 at a 4-table per game lost by someone else.
Passed games score nothing. The sum over a table is therefore not zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

WIN_BONUS = 50


def opponents_bonus(table_size: int) -> int:
    """40 points at a 3-table, 30 at a 4-table, per game lost by another player."""
    if table_size == 3:
        return 40
    if table_size == 4:
        return 30
    raise ValueError(f"table size must be 3 or 4, not {table_size}")


def seeger_fabian_score(
    game_points: int, won: int, lost: int, others_lost: int, table_size: int
) -> int:
    """The one Seeger-Fabian formula: a player's score for one list or tournament series.

    ``game_points + 50 × (won − lost) + B × others_lost`` with ``B`` = 40 at a 3-table, 30 at
    a 4-table; ``others_lost`` counts the games lost by the other players at the table.
    The worked example of docs/rules.md §5: ``seeger_fabian_score(437, 12, 3, 6, 4) == 1067``.
    """
    return game_points + WIN_BONUS * (won - lost) + opponents_bonus(table_size) * others_lost


class Booking(NamedTuple):
    """One booked game: who played it and what they scored (+value or −2 × value).

    A NamedTuple (immutable like the rest): a list's totals are summed after every booking,
    and a frozen dataclass cost five times as much to create.
    """

    declarer: str
    score: int
    won: bool


@dataclass(frozen=True)
class Totals:
    """A player's Serienabschluss."""

    name: str
    game_points: int
    won: int
    lost: int
    opponents_lost: int  # games lost by the other players at the table
    table_size: int

    @property
    def bonus(self) -> int:
        return opponents_bonus(self.table_size)

    @property
    def score(self) -> int:
        return seeger_fabian_score(
            self.game_points, self.won, self.lost, self.opponents_lost, self.table_size
        )

    @property
    def steps(self) -> str:
        """E.g. "437 + 50 × (12 − 3) + 30 × 6 = 1067" (minus signs typographic)."""
        return (
            f"{minus_sign(self.game_points)} + 50 × ({self.won} − {self.lost}) + "
            f"{self.bonus} × {self.opponents_lost} = {minus_sign(self.score)}"
        )


def minus_sign(n: int) -> str:
    """A number as German lists print it, the one format of texts, tables and PDFs alike:
    the typographic minus (U+2212) and a dot between thousands: "−94", "1.305"."""
    text = f"{abs(n):,}".replace(",", ".")
    return f"−{text}" if n < 0 else text


def seeger_fabian(
    players: Sequence[str], bookings: Iterable[Booking], table_size: int | None = None
) -> list[Totals]:
    """Totals per player (in the given seat order) for the bookings of one list."""
    size = table_size if table_size is not None else len(players)
    opponents_bonus(size)  # validates
    points = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    for b in bookings:
        if b.declarer not in points:
            raise ValueError(f"unknown declarer {b.declarer!r}")
        points[b.declarer] += b.score
        if b.won:
            won[b.declarer] += 1
        else:
            lost[b.declarer] += 1
    all_lost = sum(lost.values())
    return [Totals(p, points[p], won[p], lost[p], all_lost - lost[p], size) for p in players]
