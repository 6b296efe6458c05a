"""League play: the seating of a match day, team sums, match points, the day's and the
season's table and the individual ranking.  Pure; the decisions are in ``docs/league.md``.

Table plan (Anlage 10 of the DSkV Sportordnung)
================================================
Each table seats at most one player of each team, tables have 3 or 4 seats.  With ``n``
players of the appearing teams and ``m`` the largest line-up, the day has
``T = max(m, ceil(n / 4))`` tables, ``n − 3T`` of them 4-tables (first) and ``4T − n``
3-tables: 4-4-4-3 → three 4-tables and one 3-table, 3-3-3-3 → three 4-tables, 4-4-4-0 →
four 3-tables.  A layout that cannot seat everybody that way (4-3-3, fewer than 3 teams) is
refused.

The seating of a day (exact algorithm, so anyone can recompute it)
==================================================================
The line-up for series 1 fixes the seating of the day: the plan is made of *seats*
``(team, slot)``, ``slot`` being the 1-based place of a player in the team's line-up for
series 1; a substitute later takes the seat of the player they replace.  Seats are written
``"TEAM#SLOT"`` wherever a name is needed (a team name may contain ``#``; the slot after the
last ``#`` is unambiguous).  For series ``s`` (1-based) and candidate ``k`` (0 .. 19):

1. The appearing teams sorted by ``(name.casefold(), name)`` are shuffled with
   :func:`skatbot.rules.tournament.shuffle` and the label ``f"{seed}/{s}/{k}"``; each team's
   slots ``"1" .. "size"`` with the label ``f"{seed}/{s}/{k}/{team}"``.
2. Which tables a team uses: the teams in the shuffled order, stably sorted by size
   (largest first), each take the ``size`` tables with the most free seats left (ties: the
   lower table number).  This greedy fill always succeeds when the plan exists (Gale–Ryser).
3. Series 1: in that order (largest first, then shuffled), each team's shuffled slots go to
   its tables in table order; a table's seat order is the order the teams were placed in.
   Series 1 is candidate 0.
4. From series 2 on: ``cost`` counts, over all pairs of seats sharing a table, how often
   they met in the earlier series of the day.  A depth-first search places the teams in the
   order of step 3, trying for each team the permutations of its shuffled slots over its
   tables (``itertools.permutations`` order), skipping any branch whose cost reaches the
   best found; it ends at cost 0 or after ``SEARCH_BUDGET`` permutations (once one
   complete seating is found).  The candidate with the lowest cost wins, ties → lowest
   ``k``; the candidates stop at the first of cost 0.  So no two players of one team ever
   share a table, and four teams of four play three (or four) series without two players
   meeting twice.

Four tables (the usual day: 4-4-4-4, 4-4-4-3, 4-4-4-0) and up to four series use a fixed
design instead of steps 1-4, so that no two players meet twice that day: the appearing
teams sorted as in step 1 are shuffled with the label ``f"{seed}/tag"`` (team ``k`` = its
0-based place), each team's slots ``1 .. size`` with ``f"{seed}/tag/{team}"`` (slot at
0-based position ``p``).  In series ``s`` that player sits at table ``p XOR λ·k`` with
``λ = s − 1`` and the product taken in GF(4) (``x² = x + 1``); a table's seats follow ``k``,
and the tables are ordered by size (stable: the 3-table last).  Two players of teams
``k ≠ k'`` at positions ``p, p'`` meet exactly when ``λ = (p XOR p') / (k XOR k')``: in at
most one series.

Scores
======
A seat's series score is Seeger-Fabian (``scoring.seeger_fabian_score``) of everything
played on it; a team's series sum is the sum of its seats.  When a player is replaced during
a series, each keeps their own game points and ``50 × (won − lost)``; the seat's bonus for
the others' lost games is shared in proportion to the games each played (rounded down, the
rest to the last one on the seat), so the parts add up to the seat's score.

Match points per series: one point for every appearing team with a lower sum, half a point
for every team with the same sum; the minus points are the other ``teams − 1 − plus``.  A team
that does not appear gets no match points and no game points (``0 : teams − 1``) and counts
as beaten by every appearing team.  Tables rank by match points, then by game points (a
league may set game points first); equal in both → the same place.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from skatbot.rules import tournament as tr
from skatbot.rules.errors import TournamentError
from skatbot.rules.scoring import opponents_bonus, seeger_fabian_score

__all__ = [
    "MAX_TEAMS",
    "ORDERS",
    "DayLine",
    "IndividualLine",
    "PersonScore",
    "Played",
    "Seat",
    "TeamSeries",
    "day_seating",
    "day_table",
    "format_points",
    "individual_ranking",
    "match_points",
    "plan_tables",
    "season_table",
    "seat_key",
    "seat_of_key",
    "series_seating",
    "table_scores",
]


#: Most teams of one match-day group (DSkV groups are 4; 3 or 5 happen).
MAX_TEAMS = 6

# --------------------------------------------------------------------------- seats


@dataclass(frozen=True, order=True)
class Seat:
    """A seat of the day: the ``slot``-th player (1-based) of ``team``'s series-1 line-up."""

    team: str
    slot: int


def seat_key(seat: Seat) -> str:
    return f"{seat.team}#{seat.slot}"


def seat_of_key(key: str) -> Seat:
    team, _, slot = key.rpartition("#")
    return Seat(team, int(slot))


# --------------------------------------------------------------------------- table plan


def _present(sizes: Mapping[str, int]) -> dict[str, int]:
    return {team: n for team, n in sizes.items() if n > 0}


def plan_tables(sizes: Mapping[str, int]) -> list[int]:
    """The table sizes of a day for the line-up sizes of the teams (0: not appearing)."""
    present = _present(sizes)
    for team, n in present.items():
        if n > 4:
            raise TournamentError(
                f"„{team}“ hat {n} Spieler in der Aufstellung, an einem Tisch sitzt aber nur "
                "einer je Mannschaft",
                "höchstens 4 aufstellen, die anderen sind Ersatz.",
            )
    if len(present) > MAX_TEAMS:
        raise TournamentError(
            f"{len(present)} Mannschaften an einem Spieltag – eine Gruppe hat höchstens "
            f"{MAX_TEAMS}",
            "die Liga in Gruppen teilen (je Gruppe eine Liga).",
        )
    if len(present) < 3:
        raise TournamentError(
            f"Nur {len(present)} Mannschaft(en) treten an – ein Tisch braucht 3 Mannschaften",
            "mindestens 3 Mannschaften aufstellen.",
        )
    total = sum(present.values())
    tables = max(max(present.values()), math.ceil(total / 4))
    threes = 4 * tables - total
    fours = tables - threes
    if fours < 0 or not _fill(present, [4] * fours + [3] * threes):
        layout = "-".join(str(n) for n in sorted(present.values(), reverse=True))
        raise TournamentError(
            f"Die Aufstellungen {layout} lassen sich nicht so setzen, dass an jedem Tisch "
            "3 oder 4 Spieler verschiedener Mannschaften sitzen",
            "eine Mannschaft mit 4 statt 3 Spielern aufstellen (oder eine mit 3 statt 4).",
        )
    return [4] * fours + [3] * threes


def _fill(order: Mapping[str, int], capacity: Sequence[int]) -> dict[str, list[int]] | None:
    """Step 2: the tables each team uses (teams in ``order``'s order), or None."""
    free = list(capacity)
    used: dict[str, list[int]] = {}
    for team, n in sorted(order.items(), key=lambda item: -item[1]):
        ranked = sorted(range(len(free)), key=lambda t: (-free[t], t))[:n]
        if len(ranked) < n or any(free[t] <= 0 for t in ranked):
            return None
        for t in ranked:
            free[t] -= 1
        used[team] = sorted(ranked)
    return used if not any(free) else None


# --------------------------------------------------------------------------- seating


#: Permutations tried per candidate by the search of step 4 (it stops earlier at cost 0).
SEARCH_BUDGET = 5000


def _search(
    sizes: Mapping[str, int], capacity: Sequence[int], label: str, met: tr._Met
) -> tuple[int, list[list[str]]]:
    """Steps 1-4 for one candidate: the cheapest tables found and their cost."""
    teams = tr.shuffle(sorted(sizes, key=tr.name_sort_key), label)
    used = _fill({team: sizes[team] for team in teams}, capacity)
    assert used is not None  # plan_tables checked it
    order = sorted(teams, key=lambda team: -sizes[team])
    slots = {
        team: tr.shuffle([str(i) for i in range(1, sizes[team] + 1)], f"{label}/{team}")
        for team in teams
    }
    # Tables of one size are interchangeable (the cost counts meetings, not table numbers):
    # the first team's slots may stay in their shuffled order.
    symmetric = len(set(capacity)) == 1
    tables: list[list[str]] = [[] for _ in capacity]
    best: list[list[str]] = []
    best_cost = [math.inf]
    tried = [0]

    def place(i: int, cost: int) -> None:
        if i == len(order):
            best[:] = [list(t) for t in tables]
            best_cost[0] = cost
            return
        team = order[i]
        perms = [slots[team]] if i == 0 and symmetric else itertools.permutations(slots[team])
        tries = []
        for perm in perms:
            keys = [f"{team}#{slot}" for slot in perm]
            added = 0
            for t, key in zip(used[team], keys, strict=True):
                row = met.get(key)
                if row:
                    added += sum(row.get(other, 0) for other in tables[t])
            tries.append((added, keys))
        tries.sort(key=lambda item: item[0])  # stable: the cheapest first
        for added, keys in tries:
            if tried[0] >= SEARCH_BUDGET and best:
                return
            tried[0] += 1
            if cost + added >= best_cost[0]:
                continue
            for t, key in zip(used[team], keys, strict=True):
                tables[t].append(key)
            place(i + 1, cost + added)
            for t in used[team]:
                tables[t].pop()
            if best_cost[0] == 0:
                return

    if not met:  # series 1: the shuffled slots in table order (the first permutation)
        for team in order:
            for t, slot in zip(used[team], slots[team], strict=True):
                tables[t].append(f"{team}#{slot}")
        return 0, tables
    place(0, 0)
    return int(best_cost[0]), best


# Multiplication in GF(4) = {0, 1, x, x + 1} written 0, 1, 2, 3 (x² = x + 1); addition is XOR.
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _design(
    present: Mapping[str, int], capacity: Sequence[int], seed: str, series: int
) -> list[list[Seat]] | None:
    """The Latin-square seating of four tables (module docstring, "four tables"), or None
    where it does not apply."""
    sizes = sorted(present.values())
    if len(capacity) != 4 or len(present) > 4 or series > 4:
        return None
    if sizes[0] not in (3, 4) or any(n != 4 for n in sizes[1:]):
        return None
    teams = tr.shuffle(sorted(present, key=tr.name_sort_key), f"{seed}/tag")
    tables: list[list[Seat]] = [[] for _ in range(4)]
    for k, team in enumerate(teams):
        slots = tr.shuffle([str(i) for i in range(1, present[team] + 1)], f"{seed}/tag/{team}")
        for p, slot in enumerate(slots):
            tables[p ^ _GF4_MUL[series - 1][k]].append(Seat(team, int(slot)))
    tables.sort(key=lambda table: -len(table))  # stable: the 3-table last
    return tables


def series_seating(
    sizes: Mapping[str, int],
    seed: str,
    series: int,
    previous: Sequence[Sequence[Sequence[Seat]]] = (),
) -> list[list[Seat]]:
    """The tables of series ``series`` (seat order), given the tables of the series before."""
    if series < 1 or len(previous) != series - 1:
        raise ValueError("series is 1-based and needs the tables of every earlier series")
    seed = tr.validate_seed(seed)
    present = _present(sizes)
    capacity = plan_tables(present)
    designed = _design(present, capacity, seed, series)
    if designed is not None:
        return designed
    met = tr._met_counts([[[seat_key(s) for s in table] for table in ts] for ts in previous])
    best: list[list[str]] | None = None
    best_cost = 0
    for k in range(tr.CANDIDATES):
        cost, tables = _search(present, capacity, f"{seed}/{series}/{k}", met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    return [[seat_of_key(key) for key in table] for table in best]


def day_seating(sizes: Mapping[str, int], seed: str, series: int) -> list[list[list[Seat]]]:
    """The tables of every series of a day (``series`` of them), from the series-1 line-up
    sizes and the seed."""
    days: list[list[list[Seat]]] = []
    for s in range(1, series + 1):
        days.append(series_seating(sizes, seed, s, days))
    return days


# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class Played:
    """One person's part of a seat in one series: their list totals and the games played."""

    name: str
    team: str
    game_points: int
    won: int
    lost: int
    games: int


@dataclass(frozen=True)
class PersonScore:
    name: str
    team: str
    score: int
    games: int


def table_scores(table: Sequence[Sequence[Played]]) -> list[PersonScore]:
    """The scores at one table; each seat is the people who played on it in turn (module
    docstring: the others' lost games are shared by games played)."""
    size = len(table)
    lost_total = sum(p.lost for seat in table for p in seat)
    out: list[PersonScore] = []
    for seat in table:
        won = sum(p.won for p in seat)
        lost = sum(p.lost for p in seat)
        points = sum(p.game_points for p in seat)
        others = lost_total - lost
        seat_score = seeger_fabian_score(points, won, lost, others, size)
        bonus = opponents_bonus(size) * others
        games = sum(p.games for p in seat)
        given = 0
        for i, p in enumerate(seat):
            share = (
                bonus - given if i == len(seat) - 1 else (bonus * p.games // games if games else 0)
            )
            given += share
            own = p.game_points + 50 * (p.won - p.lost)
            out.append(PersonScore(p.name, p.team, own + share, p.games))
        assert sum(o.score for o in out[len(out) - len(seat) :]) == seat_score
    return out


# --------------------------------------------------------------------------- match points


@dataclass(frozen=True)
class TeamSeries:
    """A team's result in one series."""

    team: str
    place: int  # 1-based; equal sums share the better place; absent teams come last
    points: int  # the team's series sum (0 when absent)
    plus: Fraction
    minus: Fraction
    appeared: bool

    @property
    def reason(self) -> str:
        if not self.appeared:
            return f"nicht angetreten: {format_points(self.plus, self.minus)}"
        return f"{self.place}. Platz: {format_points(self.plus, self.minus)}"


def _half(x: Fraction) -> str:
    whole = math.floor(x)
    if x == whole:
        return str(whole)
    return f"{whole}½" if whole else "½"


def format_points(plus: Fraction, minus: Fraction) -> str:
    """``3:0``, ``1½:1½``."""
    return f"{_half(plus)}:{_half(minus)}"


def match_points(sums: Mapping[str, int | None], per_team: int = 1) -> list[TeamSeries]:
    """Match points of one series from the team sums (``None``: the team did not appear):
    ``per_team`` for each team beaten, half of it for an equal sum (DSkV: 1, so 3:0, 2:1, 1:2,
    0:3 in a group of four; some associations count 2 per team beaten)."""
    teams = len(sums)
    there = {team: s for team, s in sums.items() if s is not None}
    lines = []
    for team, s in sums.items():
        if s is None:
            plus = Fraction(0)
            place = len(there) + 1
        else:
            lower = sum(1 for o in there.values() if o < s) + (teams - len(there))
            same = sum(1 for o in there.values() if o == s) - 1
            plus = (Fraction(lower) + Fraction(same, 2)) * per_team
            place = 1 + sum(1 for o in there.values() if o > s)
        lines.append(
            TeamSeries(
                team, place, s or 0, plus, Fraction((teams - 1) * per_team) - plus, s is not None
            )
        )
    lines.sort(key=lambda line: (line.place, tr.name_sort_key(line.team)))
    return lines


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class DayLine:
    """A line of a day's or the season's table."""

    place: int
    team: str
    plus: Fraction
    minus: Fraction
    points: int  # game points
    days: int = 1  # match days counted (the season table)


#: The orders a table may rank by (a league's setting): match points first (the DSkV's
#: published tables), or game points first.
ORDERS = ("matchpunkte", "spielpunkte")


def _ranked(
    rows: Iterable[tuple[str, Fraction, Fraction, int, int]], order: str = "matchpunkte"
) -> list[DayLine]:
    if order not in ORDERS:
        raise ValueError(f"unknown order {order!r}")
    if order == "matchpunkte":
        ordered = sorted(rows, key=lambda r: (-r[1], -r[3], tr.name_sort_key(r[0])))
    else:
        ordered = sorted(rows, key=lambda r: (-r[3], -r[1], tr.name_sort_key(r[0])))
    out: list[DayLine] = []
    for i, (team, plus, minus, points, days) in enumerate(ordered):
        prev = out[-1] if out else None
        same = prev is not None and prev.plus == plus and prev.points == points
        place = prev.place if same and prev is not None else i + 1
        out.append(DayLine(place, team, plus, minus, points, days))
    return out


def day_table(series: Sequence[Sequence[TeamSeries]], order: str = "matchpunkte") -> list[DayLine]:
    """The day's table: match points summed over the series, then game points (``order``
    "spielpunkte": the other way round)."""
    acc: dict[str, tuple[Fraction, Fraction, int]] = {}
    for lines in series:
        for line in lines:
            plus, minus, points = acc.get(line.team, (Fraction(0), Fraction(0), 0))
            acc[line.team] = (plus + line.plus, minus + line.minus, points + line.points)
    return _ranked(((team, p, m, pts, 1) for team, (p, m, pts) in acc.items()), order)


def season_table(
    days: Sequence[Sequence[DayLine]], teams: Iterable[str] = (), order: str = "matchpunkte"
) -> list[DayLine]:
    """The season table: match points of all days summed, ties by total game points (``order``
    "spielpunkte": the other way round); teams without a day yet are listed with 0:0."""
    acc: dict[str, tuple[Fraction, Fraction, int, int]] = {
        team: (Fraction(0), Fraction(0), 0, 0) for team in teams
    }
    for lines in days:
        for line in lines:
            plus, minus, points, n = acc.get(line.team, (Fraction(0), Fraction(0), 0, 0))
            acc[line.team] = (plus + line.plus, minus + line.minus, points + line.points, n + 1)
    return _ranked(((team, p, m, pts, n) for team, (p, m, pts, n) in acc.items()), order)


# --------------------------------------------------------------------------- individual


@dataclass(frozen=True)
class IndividualLine:
    place: int | None  # None: below the minimum share of games
    name: str
    team: str
    score: int
    games: int

    @property
    def average(self) -> Fraction:
        return Fraction(self.score, self.games) if self.games else Fraction(0)


def individual_ranking(
    scores: Iterable[PersonScore], min_share_percent: int
) -> tuple[list[IndividualLine], int]:
    """Players by average score per game played; ranked only with at least
    ``min_share_percent`` % of the most games anyone played.  Returns the lines (ranked
    first, then the others by average) and that minimum number of games."""
    acc: dict[tuple[str, str], tuple[int, int]] = {}
    for p in scores:
        score, games = acc.get((p.name, p.team), (0, 0))
        acc[(p.name, p.team)] = (score + p.score, games + p.games)
    most = max((g for _, g in acc.values()), default=0)
    minimum = math.ceil(most * min_share_percent / 100)
    lines = [
        IndividualLine(None, name, team, score, games)
        for (name, team), (score, games) in acc.items()
        if games > 0
    ]
    lines.sort(key=lambda r: (-r.average, -r.games, tr.name_sort_key(r.name)))
    ranked: list[IndividualLine] = []
    for line in lines:
        if line.games < minimum:
            continue
        prev = ranked[-1] if ranked else None
        place = (
            prev.place
            if prev is not None and prev.average == line.average and prev.games == line.games
            else len(ranked) + 1
        )
        ranked.append(IndividualLine(place, line.name, line.team, line.score, line.games))
    rest = [line for line in lines if line.games < minimum]
    return ranked + rest, minimum
