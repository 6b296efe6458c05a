"""Seating a game night's yes-votes at tables, as the tournament draw seats a series.

:func:`seat` takes the names in the order they voted and a seed and says what a club does:

- **0 to 2**: no table (:attr:`SeatingKind.TOO_FEW`); wait for more votes or pick another day.
- **5**: a 4-table, and the last to vote waits (first come, first seated); or, offered as
  :attr:`GameNightSeating.alternative`, all five at one table, where in every game the dealer
  and the third player after the dealer sit out, so three play (:attr:`SeatingKind.FIVE`).
  A list has 3 or 4 players, so only the 4-table gets one.
- **3, 4, 6 and more**: 3- and 4-tables by :func:`skatbot.rules.tournament.table_sizes`
  (as many 4-tables as possible, 7 = 4 + 3, 10 = 4 + 3 + 3), seated by the draw of a
  tournament's first series (:func:`skatbot.rules.tournament.draw`), so anyone can recompute
  it from the seed (docs/preisskat.md); the vote order does not matter there.
- **more than** :data:`MAX_TABLES` **tables**: everybody is still seated, but the bot starts no
  lists itself (:attr:`SeatingKind.TOO_MANY`): one message per table's list would crowd the
  group's ~20 bot messages a minute, and an evening that size is a Preisskat, which the
  tournament desk (``/turnier``) runs with series and a ranking.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from skatbot.rules.errors import GameNightError
from skatbot.rules.tournament import draw, name_sort_key, shuffle, validate_seed

__all__ = ["MAX_TABLES", "GameNightSeating", "SeatingKind", "TablePlan", "seat"]

#: The most tables the bot starts lists for in one go (32 players).
MAX_TABLES = 8


class SeatingKind(StrEnum):
    TABLES = "tables"
    TOO_FEW = "too_few"
    FIVE = "five"
    TOO_MANY = "too_many"


@dataclass(frozen=True)
class TablePlan:
    """Tables (names in seat order, the first is the first dealer) and who waits."""

    tables: tuple[tuple[str, ...], ...] = ()
    waiting: tuple[str, ...] = ()

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(table) for table in self.tables)


@dataclass(frozen=True)
class GameNightSeating:
    """What the yes-votes make: the plan the bot carries out, an alternative, and why."""

    kind: SeatingKind
    names: tuple[str, ...]  # the yes-votes in vote order
    plan: TablePlan
    alternative: TablePlan | None = None

    @property
    def starts_lists(self) -> bool:
        """Whether the bot starts a list per table of :attr:`plan`."""
        return self.kind in (SeatingKind.TABLES, SeatingKind.FIVE)

    @property
    def text(self) -> str:
        """The German answer: what the votes make and, where it is not plain, what works."""
        n = len(self.names)
        if self.kind is SeatingKind.TOO_FEW:
            have = "Noch keine Zusage" if n == 0 else f"Erst {n} Zusage{'n' if n > 1 else ''}"
            return (
                f"{have} – für einen Tisch braucht es 3. "
                "Warte auf weitere Zusagen oder plane einen anderen Tag."
            )
        if self.kind is SeatingKind.FIVE:
            return (
                f"5 Zusagen: ein Vierertisch, {self.plan.waiting[0]} wartet (zuletzt zugesagt). "
                "Oder alle fünf an einen Tisch: in jedem Spiel setzen der Geber und der dritte "
                "nach ihm aus."
            )
        tables = _describe(self.plan.sizes)
        if self.kind is SeatingKind.TOO_MANY:
            return (
                f"{n} Zusagen – {tables}. So viele Listen startet der Bot nicht auf einmal: "
                "für einen Abend dieser Größe gibt es den Preisskat mit /turnier."
            )
        return f"{n} Zusagen – {tables}."


def seat(names: list[str] | tuple[str, ...], seed: str) -> GameNightSeating:
    """Seat the yes-votes ``names`` (in vote order) by the lot of ``seed`` (see the module)."""
    seed = validate_seed(seed)
    voters = tuple(names)
    _check_names(voters)
    n = len(voters)
    if n < 3:
        return GameNightSeating(SeatingKind.TOO_FEW, voters, TablePlan())
    if n == 5:
        four = TablePlan(_draw(voters[:4], seed), waiting=voters[4:])
        five = TablePlan((tuple(shuffle(sorted(voters, key=name_sort_key), f"{seed}/1/0")),))
        return GameNightSeating(SeatingKind.FIVE, voters, four, alternative=five)
    plan = TablePlan(_draw(voters, seed))
    kind = SeatingKind.TOO_MANY if len(plan.tables) > MAX_TABLES else SeatingKind.TABLES
    return GameNightSeating(kind, voters, plan)


def _draw(names: tuple[str, ...], seed: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(table) for table in draw(names, seed, 1))


def _check_names(names: tuple[str, ...]) -> None:
    """Every voter is one seat: a list tells players apart without regard to case."""
    seen: set[str] = set()
    for name in names:
        if not name.strip():
            raise GameNightError("Eine Zusage hat keinen Namen.", "Bitte die Umfrage prüfen.")
        if name.casefold() in seen:
            raise GameNightError(
                f"Zwei Zusagen heißen „{name}“.",
                "Einer von beiden braucht einen anderen Namen, z. B. mit dem Anfang des Nachnamens.",
            )
        seen.add(name.casefold())


def _describe(sizes: tuple[int, ...]) -> str:
    """``2 Vierertische und ein Dreiertisch``."""
    parts = []
    for size, word in ((4, "Vierertisch"), (3, "Dreiertisch")):
        count = sizes.count(size)
        if count:
            parts.append(f"ein {word}" if count == 1 else f"{count} {word}e")
    return " und ".join(parts)
