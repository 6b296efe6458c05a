"""Preisskat tournaments (docs/rules.md §7): table plan, seeded draw, series results, standings.

Table plan
==========
``table_sizes(n)``: as many 4-tables as possible, the rest 3-tables, 4-tables first
(13 → [4, 3, 3, 3]).  1, 2 and 5 participants (and 0) have no plan.

The draw (exact algorithm, so anyone can recompute it)
=====================================================
Inputs: the seed (a string), the participant names, the series number ``s`` (1-based) and the
tables of the series 1 .. s−1.

1. Sort the names by ``(name.casefold(), name)``.  The input order does not matter.
2. Shuffle function ``shuffle(names, label)``: Fisher–Yates driven by SHA-256::

       a = list(names)
       for i in range(len(a) - 1, 0, -1):
           h = hashlib.sha256(f"{label}/{i}".encode("utf-8")).digest()
           j = int.from_bytes(h[:8], "big") % (i + 1)
           a[i], a[j] = a[j], a[i]

3. Cut the shuffled list into tables of ``table_sizes(n)`` in order (first 4-tables, then
   3-tables); a table lists its names in seat order.
4. Candidate ``k`` (k = 0, 1, …, CANDIDATES−1, ``CANDIDATES = 20``): shuffle with
   ``label = f"{seed}/{s}/{k}"``, cut (step 3), then improve it (step 5).  The candidate with
   the lowest cost wins, ties → lowest ``k``; the search stops at the first candidate with
   cost 0.  In series 1 there is no history, so candidate 0 is the draw:
   ``label = f"{seed}/1/0"``, no improvement.
5. Cost and improvement.  ``met(x, y)`` = how often x and y sat at the same table in the
   previous series.  ``cost(tables)`` = sum of ``met`` over all pairs sharing a table;
   ``conf(x, T)`` = sum of ``met(x, y)`` over the other names y at table T.  Improvement is
   a deterministic swap descent::

       repeat:
           changed = False
           for each position (t, a), tables in order, seats in order:
               p = tables[t][a];  c = conf(p, tables[t])
               if c == 0: continue
               best = 0;  target = None
               for each position (u, b) with u != t, tables in order, seats in order:
                   q = tables[u][b]
                   delta = (conf(p, tables[u] without q) + conf(q, tables[t] without p)
                            - c - conf(q, tables[u]))
                   if delta < best: best = delta;  target = (u, b)
               if target: swap p and q (q takes seat a at table t, p takes seat b at u)
                          changed = True
           until not changed

   ``delta`` is the exact change of ``cost``, so the descent ends.  Positions are visited
   in their order at the start of the pass (the current occupant of a seat is used).

The cost of a series is the increase of the sum over all pairs of C(times together, 2), so a
pair meeting for the third time weighs 2: repeats are spread rather than concentrated on a
few pairs.  For reporting, ``partner_repeats`` counts the pairs that sat together more than
once over all series, ``repeat_meetings`` counts every meeting after a pair's first.

With teams, :func:`skatbot.rules.teams.draw` keeps the members of a team at different tables
first (its docstring describes the changed steps); without a team of two or more
participants it is this :func:`draw`.

Series results and scores (Seeger-Fabian, Skatwettspielordnung 6.3.1)
=====================================================================
Per player and series: ``game_points + 50 × (won − lost) + B × (games lost by the others at
the table)`` with ``B = 40`` at a 3-table and ``B = 30`` at a 4-table.  A series has 36 games
at a 3-table and 48 at a 4-table unless configured otherwise; more won+lost games at a table
than that is an error.  The score is :func:`skatbot.rules.scoring.seeger_fabian_score`, the
function a list's totals use.  The tournament ranking sums score, won and lost over all series and
ranks with :func:`skatbot.rules.ranking.rank_standings` (ties: won, lost, lot by the seed).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from skatbot.rules.errors import TournamentError
from skatbot.rules.numbers import is_number
from skatbot.rules.ranking import Ranked, Standing, lot_key, rank_standings
from skatbot.rules.scoring import seeger_fabian_score

__all__ = [
    "CANDIDATES",
    "DEFAULT_SERIES_GAMES",
    "PlayedSeries",
    "SeriesRanking",
    "SeriesResult",
    "TournamentError",
    "check_series_lengths",
    "draw",
    "missing_results",
    "name_sort_key",
    "partner_repeats",
    "rank_series",
    "repeat_meetings",
    "seed_from_int",
    "series_scores",
    "shuffle",
    "table_sizes",
    "tournament_standings",
    "validate_seed",
    "validate_table_results",
]

#: Number of candidate shuffles tried per series (see module docstring, step 4).
CANDIDATES = 20
#: Games per series by table size (36 at a 3-table, 48 at a 4-table).
DEFAULT_SERIES_GAMES: Mapping[int, int] = {3: 36, 4: 48}
#: Longest accepted seed.
MAX_SEED_LENGTH = 64
#: The fix named by every refused seed.
SEED_EXAMPLE = "z. B. /auslosen 4711."


# --------------------------------------------------------------------------- table plan


def table_sizes(n: int) -> list[int]:
    """As many 4-tables as possible, the rest 3-tables; 4-tables first."""
    if n <= 0:
        raise TournamentError(
            "Noch keine Teilnehmer", "trage mit /teilnehmer mindestens 3 Personen ein."
        )
    if n == 1:
        raise TournamentError(
            "Mit 1 Teilnehmer geht keine Tischeinteilung auf",
            "nimm zwei Personen dazu (3 = ein Dreiertisch).",
        )
    if n == 2:
        raise TournamentError(
            "Mit 2 Teilnehmern geht keine Tischeinteilung auf",
            "nimm eine Person dazu (3 = ein Dreiertisch).",
        )
    if n == 5:
        raise TournamentError(
            "Mit 5 Teilnehmern geht keine Tischeinteilung auf",
            "nimm eine Person dazu (6 = 2 Dreiertische) oder spiele mit 4.",
        )
    threes = (-n) % 4  # n ≡ 0, 3, 2, 1 (mod 4) → 0, 1, 2, 3 three-tables
    fours = (n - 3 * threes) // 4
    return [4] * fours + [3] * threes


# --------------------------------------------------------------------------- seeds


def seed_from_int(x: int) -> str:
    """The seed string for a non-negative integer (decimal digits, e.g. ``"482913"``)."""
    if x < 0:
        raise ValueError("seed must be non-negative")
    return str(x)


def validate_seed(seed: str) -> str:
    """Return the stripped seed; raise :class:`TournamentError` if it cannot be used.

    A seed is 1..64 characters without whitespace and without ``/`` (``/`` separates the
    parts of the shuffle labels).
    """
    s = seed.strip()
    if not s:
        raise TournamentError("Der Startwert fehlt", SEED_EXAMPLE)
    if len(s) > MAX_SEED_LENGTH:
        raise TournamentError(
            f"Der Startwert ist zu lang (höchstens {MAX_SEED_LENGTH} Zeichen)", SEED_EXAMPLE
        )
    if "/" in s or any(ch.isspace() for ch in s):
        raise TournamentError(
            "Der Startwert darf keine Leerzeichen und keinen Schrägstrich enthalten",
            SEED_EXAMPLE,
        )
    return s


# --------------------------------------------------------------------------- draw


def name_sort_key(name: str) -> tuple[str, str]:
    """Canonical participant order before shuffling: ``(name.casefold(), name)``."""
    return (name.casefold(), name)


def shuffle(names: Sequence[str], label: str) -> list[str]:
    """Fisher–Yates shuffle driven by SHA-256 of ``f"{label}/{i}"`` (see module docstring)."""
    a = list(names)
    for i in range(len(a) - 1, 0, -1):
        h = hashlib.sha256(f"{label}/{i}".encode()).digest()
        j = int.from_bytes(h[:8], "big") % (i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def _cut(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables: list[list[str]] = []
    pos = 0
    for size in sizes:
        tables.append(list(order[pos : pos + size]))
        pos += size
    return tables


def _canonical_names(participants: Iterable[str]) -> list[str]:
    names = sorted(participants, key=name_sort_key)
    for a, b in itertools.pairwise(names):
        if a == b:
            raise TournamentError(
                f"„{a}“ steht doppelt in der Teilnehmerliste", "bitte einen Namen ändern."
            )
    for name in names:
        if not name.strip():
            raise TournamentError("Ein Teilnehmername ist leer", "bitte die Liste prüfen.")
    return names


_Met = dict[str, dict[str, int]]


def _met_counts(previous: Iterable[Iterable[Iterable[str]]]) -> _Met:
    met: _Met = {}
    for tables in previous:
        for table in tables:
            members = list(table)
            for x in members:
                row = met.setdefault(x, {})
                for y in members:
                    if y != x:
                        row[y] = row.get(y, 0) + 1
    return met


def _cost(tables: Sequence[Sequence[str]], met: _Met) -> int:
    total = 0
    for table in tables:
        for i, x in enumerate(table):
            row = met.get(x)
            if row:
                for y in table[i + 1 :]:
                    total += row.get(y, 0)
    return total


def _improve(tables: list[list[str]], met: _Met, team_of: Mapping[str, str] | None = None) -> None:
    """Swap descent of the module docstring (step 5), in place. With ``team_of`` (the draw
    with teams, ``rules/teams.py``) a swap that adds a same-team pair at a table is never
    taken; without it the descent is exactly the one of a draw without teams.

    Fast form of the same computation: with ``where[x]`` = table index of x,
    ``conf(p, T_u without q) = rowp[u] - met(p, q)`` where ``rowp[u]`` sums ``met(p, y)`` over
    all y at table u, and ``conf(q, T_t without p) = colt[q]`` where ``colt`` sums
    ``met(y, q)`` over the y at table t other than p.  Only non-zero entries are stored, so
    each candidate q costs a few dictionary look-ups.
    """
    empty: dict[str, int] = {}
    where: dict[str, int] = {}
    count: list[dict[str, int]] = []  # per table: members of each team there
    for t, table in enumerate(tables):
        here: dict[str, int] = {}
        for x in table:
            where[x] = t
            team = team_of.get(x) if team_of else None
            if team is not None:
                here[team] = here.get(team, 0) + 1
        count.append(here)

    def conf_at(x: str, t: int) -> int:
        row = met.get(x)
        if not row:
            return 0
        return sum(row.get(y, 0) for y in tables[t] if y != x)

    def team_delta(p: str, t: int, q: str, u: int) -> int:
        """How many same-team pairs swapping p (at t) and q (at u) adds."""
        assert team_of is not None
        a, b = team_of.get(p), team_of.get(q)
        if a == b:
            return 0
        d = 0
        if a is not None:
            d += count[u].get(a, 0) - (count[t][a] - 1)
        if b is not None:
            d += count[t].get(b, 0) - (count[u][b] - 1)
        return d

    own: dict[str, int] = {x: conf_at(x, where[x]) for x in where}
    positions = [(t, a) for t, table in enumerate(tables) for a in range(len(table))]

    changed = True
    while changed:
        changed = False
        for t, a in positions:
            p = tables[t][a]
            c = own[p]
            if c == 0:
                continue
            rowp_met = met.get(p, empty)
            rowp: dict[int, int] = {}
            for y, m in rowp_met.items():
                u = where.get(y)
                if u is not None:
                    rowp[u] = rowp.get(u, 0) + m
            colt: dict[str, int] = {}
            for y in tables[t]:
                if y == p:
                    continue
                for z, m in met.get(y, empty).items():
                    colt[z] = colt.get(z, 0) + m
            best = 0
            target: tuple[int, int] | None = None
            for u, table in enumerate(tables):
                if u == t:
                    continue
                ru = rowp.get(u, 0) - c
                for b, q in enumerate(table):
                    delta = ru - rowp_met.get(q, 0) + colt.get(q, 0) - own[q]
                    if delta < best and (not team_of or team_delta(p, t, q, u) <= 0):
                        best = delta
                        target = (u, b)
            if target is None:
                continue
            u, b = target
            q = tables[u][b]
            if team_of:
                for x, src, dst in ((p, t, u), (q, u, t)):
                    team = team_of.get(x)
                    if team is not None:
                        count[src][team] -= 1
                        count[dst][team] = count[dst].get(team, 0) + 1
            tables[t][a] = q
            tables[u][b] = p
            where[p] = u
            where[q] = t
            for x in tables[t]:
                own[x] = conf_at(x, t)
            for x in tables[u]:
                own[x] = conf_at(x, u)
            changed = True


def draw(
    participants: Sequence[str],
    seed: str,
    series: int,
    previous: Sequence[Sequence[Sequence[str]]] = (),
) -> list[list[str]]:
    """The tables of series ``series`` (1-based), each a list of names in seat order.

    ``previous`` are the tables of the series 1 .. series−1 (exactly ``series − 1`` of them).
    Deterministic; the algorithm is in the module docstring.
    """
    if series < 1:
        raise ValueError("series is 1-based")
    if len(previous) != series - 1:
        raise ValueError(
            f"series {series} needs the tables of the {series - 1} previous series, "
            f"got {len(previous)}"
        )
    seed = validate_seed(seed)
    names = _canonical_names(participants)
    sizes = table_sizes(len(names))
    met = _met_counts(previous)
    best: list[list[str]] | None = None
    best_cost = 0
    for k in range(CANDIDATES):
        tables = _cut(shuffle(names, f"{seed}/{series}/{k}"), sizes)
        if met:
            _improve(tables, met)
        c = _cost(tables, met)
        if best is None or c < best_cost:
            best, best_cost = tables, c
        if c == 0:
            break
    assert best is not None
    return best


def partner_repeats(series_tables: Sequence[Sequence[Sequence[str]]]) -> int:
    """Number of player pairs that sat at the same table in more than one series."""
    met = _met_counts(series_tables)
    return sum(1 for x, row in met.items() for y, m in row.items() if x < y and m > 1)


def repeat_meetings(series_tables: Sequence[Sequence[Sequence[str]]]) -> int:
    """Sum over all pairs of (times they sat together − 1), counting only pairs that met.

    :func:`partner_repeats` counts each repeated pair once.
    """
    met = _met_counts(series_tables)
    return sum(m - 1 for x, row in met.items() for y, m in row.items() if x < y and m > 1)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SeriesResult:
    """A player's totals from the table list of one series."""

    name: str
    game_points: int
    won: int
    lost: int


def _series_label(series: int | None) -> str:
    """The prefix that says which series a refusal is about ("Serie 2: "), or nothing."""
    return "" if series is None else f"Serie {series}: "


def _series_games(size: int, table_size_games: Mapping[int, int]) -> int:
    try:
        return table_size_games[size]
    except KeyError:
        raise ValueError(f"no series length configured for a {size}-table") from None


def validate_table_results(
    table: Sequence[str],
    results: Sequence[SeriesResult],
    games_per_series: int | None = None,
    *,
    series: int | None = None,
) -> None:
    """Check the results entered for one table (some may still be missing).

    ``games_per_series`` defaults to 36 at a 3-table and 48 at a 4-table.  Raises
    :class:`TournamentError` for unknown names, a name entered twice, negative counts and
    more won+lost games at the table than the series has; with ``series`` its text begins
    "Serie N: ".
    """
    at = _series_label(series)
    if games_per_series is None:
        games_per_series = _series_games(len(table), DEFAULT_SERIES_GAMES)
    members = set(table)
    seen: set[str] = set()
    for r in results:
        if r.name not in members:
            raise TournamentError(
                f"{at}„{r.name}“ sitzt nicht an diesem Tisch ({', '.join(table)})",
                "bitte den Namen prüfen.",
            )
        if r.name in seen:
            raise TournamentError(
                f"{at}Für „{r.name}“ steht das Ergebnis doppelt da", "bitte nur einmal eintragen."
            )
        seen.add(r.name)
        if r.won < 0 or r.lost < 0:
            raise TournamentError(
                f"{at}{r.name}: gewonnene und verlorene Spiele können nicht negativ sein "
                f"(eingegeben: {r.won} gewonnen, {r.lost} verloren)."
            )
    total = sum(r.won + r.lost for r in results)
    if total > games_per_series:
        raise TournamentError(
            f"{at}Am Tisch {', '.join(table)} stehen {total} Spiele (gewonnen + verloren), "
            f"die Serie hat aber nur {games_per_series}",
            "bitte die Zahlen prüfen.",
        )


def missing_results(
    tables: Sequence[Sequence[str]], results: Collection[str] | Mapping[str, SeriesResult]
) -> list[str]:
    """Names (table order, seat order) without a result yet; ``results`` is keyed by name."""
    return [name for table in tables for name in table if name not in results]


def series_scores(
    tables: Sequence[Sequence[str]],
    results: Mapping[str, SeriesResult],
    table_size_games: Mapping[int, int] = DEFAULT_SERIES_GAMES,
    *,
    series: int | None = None,
) -> dict[str, Standing]:
    """Seeger-Fabian score of every player for one series (all results must be present).

    score = game_points + 50 × (won − lost) + (40 at a 3-table, 30 at a 4-table)
    × (games lost by the other players at the same table), computed by
    :func:`skatbot.rules.scoring.seeger_fabian_score` like a list's totals.  With ``series`` a
    refusal's text begins "Serie N: ".
    """
    at = _series_label(series)
    seated = {name for table in tables for name in table}
    for key, r in results.items():
        if key != r.name:
            raise ValueError(f"results key {key!r} differs from the result's name {r.name!r}")
        if key not in seated:
            raise TournamentError(
                f"{at}„{key}“ sitzt in dieser Serie an keinem Tisch", "bitte den Namen prüfen."
            )
    missing = missing_results(tables, results)
    if missing:
        raise TournamentError(
            f"{at}Es fehlen noch Ergebnisse von {', '.join(missing)}",
            "/ergebnis NAME SPIELPUNKTE GEWONNEN VERLOREN.",
        )
    scores: dict[str, Standing] = {}
    for table in tables:
        table_results = [results[name] for name in table]
        games = _series_games(len(table), table_size_games)
        validate_table_results(table, table_results, games, series=series)
        lost_total = sum(r.lost for r in table_results)
        for r in table_results:
            score = seeger_fabian_score(
                r.game_points, r.won, r.lost, lost_total - r.lost, len(table)
            )
            scores[r.name] = Standing(name=r.name, score=score, won=r.won, lost=r.lost)
    return scores


def tournament_standings(series: Iterable[Mapping[str, Standing]], seed: str) -> list[Ranked]:
    """Sum score, won and lost over all series (outputs of :func:`series_scores`) and rank.

    Ties are broken by won, lost and the lot under the tournament ``seed``.
    """
    totals: dict[str, tuple[int, int, int]] = {}
    for scores in series:
        for name, s in scores.items():
            score, won, lost = totals.get(name, (0, 0, 0))
            totals[name] = (score + s.score, won + s.won, lost + s.lost)
    return rank_standings(
        (Standing(name, score, won, lost) for name, (score, won, lost) in totals.items()),
        seed,
    )


class PlayedSeries(Protocol):
    """A drawn series as stored: its number, tables and the results entered so far."""

    @property
    def number(self) -> int: ...
    @property
    def tables(self) -> Sequence[Sequence[str]]: ...
    @property
    def results(self) -> Mapping[str, SeriesResult]: ...


def check_series_lengths(
    series: Iterable[PlayedSeries], table_size_games: Mapping[int, int]
) -> None:
    """Whether the results entered so far fit new series lengths (``{3: games, 4: games}``).

    Raises :class:`TournamentError` for the first table with more won+lost games than its
    new length allows; the text begins "Serie N: ".
    """
    for s in series:
        for table in s.tables:
            entered = [s.results[n] for n in table if n in s.results]
            games = _series_games(len(table), table_size_games)
            validate_table_results(table, entered, games, series=s.number)


@dataclass(frozen=True)
class Counting:
    """How a tournament counts its series (rule text in docs/tournament-season.md).

    ``average`` False (the default): the sum over the complete series; a series a
    participant did not play counts 0. True: the average per series played (score, won and
    lost alike); only who played at least ``minimum`` complete series is ranked.
    """

    average: bool = False
    minimum: int = 1

    @classmethod
    def parse(cls, code: str | None) -> Counting:
        if code and code.startswith("schnitt:") and is_number(code[8:]):
            return cls(True, max(1, int(code[8:])))
        return cls()

    @property
    def code(self) -> str | None:
        return f"schnitt:{self.minimum}" if self.average else None


@dataclass(frozen=True)
class SeriesRanking:
    """The tournament ranking over the complete series, and which series count."""

    ranked: list[Ranked]
    complete: list[int]  # numbers of the series in the ranking
    incomplete: list[int]  # numbers of the series still missing results
    played: dict[str, int] = field(default_factory=dict)  # complete series played, per name
    unranked: list[str] = field(default_factory=list)  # average rule: below its minimum


def rank_average(
    series: Sequence[Mapping[str, Standing]], seed: str, minimum: int
) -> tuple[list[Ranked], list[str]]:
    """Rank by the average per series played (score, then won, then lost, then the lot),
    over whoever played at least ``minimum`` of ``series``; also the names left out (in
    name order). The standings carry the totals."""
    totals: dict[str, tuple[int, int, int, int]] = {}
    for scores in series:
        for name, x in scores.items():
            score, won, lost, n = totals.get(name, (0, 0, 0, 0))
            totals[name] = (score + x.score, won + x.won, lost + x.lost, n + 1)
    eligible = {k: v for k, v in totals.items() if v[3] >= minimum}

    def key(name: str) -> tuple[Fraction, Fraction, Fraction]:
        score, won, lost, n = eligible[name]
        return (-Fraction(score, n), -Fraction(won, n), Fraction(lost, n))

    order = sorted(eligible, key=lambda name: (key(name), lot_key(seed, name)))
    ranked = []
    for i, name in enumerate(order):
        tied = (i > 0 and key(order[i - 1]) == key(name)) or (
            i + 1 < len(order) and key(order[i + 1]) == key(name)
        )
        score, won, lost, _ = eligible[name]
        ranked.append(Ranked(i + 1, Standing(name, score, won, lost), tied))
    left_out = sorted(set(totals) - set(eligible), key=name_sort_key)
    return ranked, left_out


def rank_series(
    series: Iterable[PlayedSeries],
    table_size_games: Mapping[int, int],
    seed: str,
    counting: Counting | None = None,
) -> SeriesRanking:
    """Rank over the complete series only; a series with a result missing does not count yet."""
    complete: list[int] = []
    incomplete: list[int] = []
    scores: list[dict[str, Standing]] = []
    for s in series:
        if missing_results(s.tables, s.results):
            incomplete.append(s.number)
            continue
        scores.append(series_scores(s.tables, s.results, table_size_games, series=s.number))
        complete.append(s.number)
    played: dict[str, int] = {}
    for one in scores:
        for name in one:
            played[name] = played.get(name, 0) + 1
    if counting is not None and counting.average:
        ranked, unranked = rank_average(scores, seed, counting.minimum)
        return SeriesRanking(ranked, complete, incomplete, played, unranked)
    return SeriesRanking(tournament_standings(scores, seed), complete, incomplete, played)


# --- the Setzliste: seating by the ranking ------------------------------------------------------

SETZLISTE = "setzliste"  # the seed stored for a series seated by the ranking


def seeding_order(ranked: Sequence[str], present: Iterable[str], seed: str) -> list[str]:
    """Who sits where in a Setzliste: the present participants in ranking order, then those
    without a place (arrived late, or below the average rule's minimum) by the lot of
    ``seed`` (:func:`skatbot.rules.ranking.lot_key`)."""
    here = set(present)
    order = [n for n in ranked if n in here]
    rest = sorted(here - set(order), key=lambda n: lot_key(seed, n))
    return order + rest


def seeded_tables(order: Sequence[str], teams: Mapping[str, str] | None = None) -> list[list[str]]:
    """Block seating: places 1-4 at table 1, 5-8 at table 2, ... (4-tables first, then the
    3-tables, as :func:`table_sizes` plans them). With ``teams`` (name -> team) two members
    of one team at a table are parted by :func:`_part_teams`. Each table seats by ranking."""
    tables = _cut(order, table_sizes(len(order)))
    rank = {n: i for i, n in enumerate(order)}
    if teams:
        _part_teams(tables, teams, rank)
    return [sorted(table, key=rank.__getitem__) for table in tables]


def _part_teams(tables: list[list[str]], teams: Mapping[str, str], rank: Mapping[str, int]) -> None:
    """Swap until no table has two members of one team, or no swap helps. A swap moves the
    lower-ranked member of a pair to the nearest seat that fits (the tables after it first,
    then the ones before it, nearest first): no one of the mover's team at the seat's table,
    no one of the seat holder's team at the mover's. Each swap removes a pair and adds none,
    so it ends."""

    def team(name: str) -> str | None:
        return teams.get(name)

    def fits(name: str, table: list[str], leaving: str) -> bool:
        own = team(name)
        return own is None or all(team(n) != own for n in table if n != leaving)

    progress = True
    while progress:
        progress = False
        for i, table in enumerate(tables):
            seen: set[str] = set()
            mover = None
            for name in sorted(table, key=rank.__getitem__):
                own = team(name)
                if own is not None and own in seen:
                    mover = name
                    break
                if own is not None:
                    seen.add(own)
            if mover is None:
                continue
            near = [*range(i + 1, len(tables)), *range(i - 1, -1, -1)]
            for j in near:
                other = next(
                    (
                        x
                        for x in sorted(tables[j], key=rank.__getitem__)
                        if fits(mover, tables[j], x) and fits(x, table, mover)
                    ),
                    None,
                )
                if other is not None:
                    table[table.index(mover)] = other
                    tables[j][tables[j].index(other)] = mover
                    progress = True
                    break
