"""The season table ("Jahreswertung", "Vereinsmeisterschaft") over closed series. Pure.

Input: the series of a period (a closed list, or one table of a complete tournament series),
each with every person's Seeger-Fabian score, games won and lost. The chat's counting rules
(``SeasonRules``, set with /saisonregeln):

- ``counting``: ``SUM`` adds the scores of the counted series; ``AVERAGE`` averages them after
  normalising each to 48 games (score × 48 / games of that series, so a 36-game series at a
  3-table weighs as much as a 48-game one). Only a series played to its length (``length``)
  is normalised: a broken-off one counts with the score it has, unscaled (one game worth 98
  must not become 4,704 per 48 games), and the table names it (``Table.unscaled``);
- ``minimum``: a person needs at least this many series in the period to be ranked (the rest
  is listed apart, "noch nicht gewertet");
- ``best``: only a person's best N series count (by the value above; equal values: the earlier
  series first); ``None``: all count;
- ``lantern``: the last place is shown as "Rote Laterne".

Ranking: higher total first; equal totals: more games won, then fewer games lost (both over
the counted series); a full tie shares the place (1, 2, 2, 4). Values are exact fractions;
only the display rounds (one decimal for averages).
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "NORMAL_GAMES",
    "Counting",
    "Line",
    "Result",
    "SeasonRules",
    "Series",
    "Table",
    "chronological",
    "season_table",
    "series_ranks",
    "series_value",
]

NORMAL_GAMES = 48


class Counting(enum.StrEnum):
    SUM = "summe"
    AVERAGE = "schnitt"


@dataclass(frozen=True)
class SeasonRules:
    counting: Counting = Counting.SUM
    minimum: int = 1
    best: int | None = None
    lantern: bool = False


@dataclass(frozen=True)
class Result:
    """One person's result in one series."""

    key: str  # the person (usecases.people.persons.Person.key)
    name: str
    score: int  # Seeger-Fabian total of the series
    won: int
    lost: int
    spelling: str = ""  # the name as written on the list, if it differs from ``name``


@dataclass(frozen=True)
class Series:
    id: str  # e.g. "liste:17", "turnier:3:2:1" - unique, orders equal days
    day: dt.date
    games: int  # games played (passed games count); normalises AVERAGE
    results: tuple[Result, ...]
    at: dt.datetime | None = None  # when it was played (orders the series of one day)
    length: int | None = None  # the games it was planned for (a list); None: complete

    @property
    def broken_off(self) -> bool:
        """Fewer games than planned: AVERAGE counts it unscaled."""
        return self.length is not None and self.games < self.length


@dataclass(frozen=True)
class Line:
    key: str
    name: str
    played: int  # series in the period
    counted: tuple[Fraction, ...]  # the values that count, best first
    total: Fraction  # SUM: sum of counted; AVERAGE: their mean
    won: int  # over the counted series
    lost: int
    place: int | None  # None: not ranked (fewer than ``minimum`` series)


@dataclass(frozen=True)
class Table:
    rules: SeasonRules
    series: int  # series in the period
    ranked: tuple[Line, ...]  # best first
    unranked: tuple[Line, ...]  # fewer series than the minimum, most series first
    lantern: tuple[str, ...]  # keys on the last place, if the rules show the Rote Laterne
    unscaled: tuple[str, ...] = ()  # AVERAGE: ids of broken-off series, counted as played


def series_value(
    score: int, games: int, counting: Counting, *, broken_off: bool = False
) -> Fraction:
    """What one series is worth for the season: the score, or it normalised to 48 games
    (a broken-off series never: it counts as played)."""
    if counting is Counting.SUM or broken_off:
        return Fraction(score)
    return Fraction(score * NORMAL_GAMES, max(games, 1))


def chronological(series: Iterable[Series]) -> list[Series]:
    """Oldest first: by day, then the time played, then id."""
    return sorted(series, key=lambda s: (s.day, s.at.timestamp() if s.at else 0.0, s.id))


def season_table(series: Iterable[Series], rules: SeasonRules) -> Table:
    """Rank the people of ``series`` under ``rules`` (see the module docstring)."""
    items = chronological(series)
    per: dict[str, list[tuple[Fraction, int, Result]]] = {}
    names: dict[str, str] = {}
    for index, s in enumerate(items):
        for r in s.results:
            per.setdefault(r.key, []).append(
                (series_value(r.score, s.games, rules.counting, broken_off=s.broken_off), index, r)
            )
            names[r.key] = r.name  # the latest series' name (items are in order)
    lines: list[Line] = []
    for key, got in per.items():
        chosen = sorted(got, key=lambda x: (-x[0], x[1]))
        if rules.best is not None:
            chosen = chosen[: rules.best]
        values = tuple(v for v, _, _ in chosen)
        total = sum(values, Fraction(0))
        if rules.counting is Counting.AVERAGE and values:
            total /= len(values)
        lines.append(
            Line(
                key=key,
                name=names[key],
                played=len(got),
                counted=values,
                total=total,
                won=sum(r.won for _, _, r in chosen),
                lost=sum(r.lost for _, _, r in chosen),
                place=None,
            )
        )

    def tie(line: Line) -> tuple[Fraction, int, int]:
        return (-line.total, -line.won, line.lost)

    ranked = sorted(
        (x for x in lines if x.played >= rules.minimum),
        key=lambda x: (*tie(x), x.name.casefold(), x.key),
    )
    placed: list[Line] = []
    for i, line in enumerate(ranked):
        place = placed[-1].place if placed and tie(placed[-1]) == tie(line) else i + 1
        placed.append(_with_place(line, place))
    lantern: tuple[str, ...] = ()
    if rules.lantern and len(placed) >= 2 and placed[-1].place != 1:
        lantern = tuple(x.key for x in placed if x.place == placed[-1].place)
    unranked = sorted(
        (x for x in lines if x.played < rules.minimum),
        key=lambda x: (-x.played, x.name.casefold(), x.key),
    )
    unscaled = tuple(s.id for s in items if s.broken_off and rules.counting is Counting.AVERAGE)
    return Table(rules, len(items), tuple(placed), tuple(unranked), lantern, unscaled)


def _with_place(line: Line, place: int | None) -> Line:
    return Line(
        line.key, line.name, line.played, line.counted, line.total, line.won, line.lost, place
    )


def series_ranks(results: Iterable[Result]) -> list[tuple[Result, int]]:
    """The order within one series (for the rating): score, then won, then fewer lost;
    a full tie shares the rank. Ranks are 1-based."""
    items = sorted(results, key=lambda r: (-r.score, -r.won, r.lost, r.key))
    out: list[tuple[Result, int]] = []
    for i, r in enumerate(items):
        prev = out[-1] if out else None
        same = prev is not None and (prev[0].score, prev[0].won, prev[0].lost) == (
            r.score,
            r.won,
            r.lost,
        )
        out.append((r, prev[1] if same and prev is not None else i + 1))
    return out
