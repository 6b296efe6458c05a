"""Teams of a Preisskat tournament: the team-aware draw and the team ranking.

A participant may belong to one team (``teams``: participant name → team name; names and
team names are compared exactly, the caller unifies spellings).  Only a team with at least
two members among the participants matters to the draw; a "team" of one is like no team.

The draw with teams (exact algorithm, so anyone can recompute it)
================================================================
If no team has two or more members, :func:`draw` is :func:`skatbot.rules.tournament.draw`
(same tables, byte for byte).  Otherwise the steps of that module's docstring change as
follows (``m`` = number of tables):

1. Sort and shuffle exactly as without teams (labels ``f"{seed}/{s}/{k}"``).
2. Group: walk the shuffled list; every team (two or more members) becomes one block of its
   members in their shuffled order, placed where its first member stands; a participant
   without a team is a block of one.  Blocks keep the order of their first member.
3. Deal (instead of cutting): the seats are filled in the order seat 1 of table 1, 2, …, m,
   then seat 2 of table 1 … m, seat 3 …, finally seat 4 of the 4-tables (4-tables come
   first).  Between two seats of one table in this order lie the seats of every other table
   once, so a block of at most ``m`` names gets ``m`` different tables, and a larger block is
   spread as evenly as possible (the numbers of its members at any two tables differ by at
   most 1).  Hence the dealt tables have the fewest possible same-team pairs
   (:func:`fewest_team_pairs`): none if no team is larger than the number of tables.
   Then each table's names are put in the order of the shuffled list of step 1 (its seat
   order), so the first team block does not always get seat 1.
4. Improve with the swap descent of ``tournament.py`` step 5 (series 2 on; series 1 has no
   history), with one more condition: a swap may not add a same-team pair.  For each
   position, the target is the first swap with the lowest ``delta < 0`` among those whose
   ``team_delta`` (the change of the number of same-team pairs at tables) is ``<= 0``.
   (The dealt tables already have the fewest same-team pairs, so ``team_delta`` is 0.)
5. Candidates: the lowest ``(same-team pairs, repeat cost)`` wins, ties → lowest ``k``; the
   search stops at the first candidate whose repeat cost is 0.  In series 1 that is
   candidate 0.

Team ranking
============
A team's score is the sum of its members' tournament scores (``best=None``) or of its best
``best`` members by individual place (a team with fewer members counts all it has).  Teams
rank by higher score; ties go to the team whose best member has the better individual place
(places are distinct, so no lot is needed).  ``won`` and ``lost`` of a team are the sums over
its counted members and are shown only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from skatbot.rules import tournament as tr
from skatbot.rules.errors import TournamentError
from skatbot.rules.ranking import Ranked

__all__ = [
    "MAX_TEAM_NAME",
    "TeamRanked",
    "clean_team",
    "deal",
    "draw",
    "fewest_team_pairs",
    "grouped",
    "rank_teams",
    "real_teams",
    "team_pairs",
    "tie_decided_by_best_member",
]

#: Longest team name.
MAX_TEAM_NAME = 48
#: Characters a team name cannot contain (they separate entries: ``Anna [Nord], Bernd``).
_SEPARATORS = "[],\n"


# --------------------------------------------------------------------------- names


def clean_team(raw: str) -> str:
    """A team name as typed: NFC, inner whitespace collapsed, 1..48 visible characters,
    no brackets or commas, not ``-`` (which means "no team")."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    example = "z. B. /team Anna Skatfreunde Nord."
    if not name:
        raise TournamentError("Der Teamname fehlt", example)
    if name == "-":
        raise TournamentError("„-“ heißt „kein Team“ und geht nicht als Teamname", example)
    if len(name) > MAX_TEAM_NAME:
        raise TournamentError(
            f"Der Teamname „{name[:MAX_TEAM_NAME]}…“ ist zu lang",
            f"höchstens {MAX_TEAM_NAME} Zeichen.",
        )
    if any(c in _SEPARATORS for c in name):
        raise TournamentError(
            f"Der Teamname „{name}“ enthält eckige Klammern oder ein Komma",
            "die trennen die Einträge – bitte ohne: " + example,
        )
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") and c != "\u200d" for c in name):
        raise TournamentError("Ein Teamname enthält Steuerzeichen", "nur sichtbare Zeichen.")
    return name


def real_teams(participants: Iterable[str], teams: Mapping[str, str]) -> dict[str, str]:
    """``teams`` restricted to the participants and to teams with two or more of them."""
    names = list(participants)
    size: dict[str, int] = {}
    for name in names:
        team = teams.get(name)
        if team is not None:
            size[team] = size.get(team, 0) + 1
    return {n: teams[n] for n in names if n in teams and size[teams[n]] >= 2}


# --------------------------------------------------------------------------- draw


def grouped(order: Sequence[str], team_of: Mapping[str, str]) -> list[str]:
    """Step 2: every team's members as one block where its first member stands."""
    blocks: dict[tuple[bool, str], list[str]] = {}
    for name in order:
        team = team_of.get(name)
        key = (True, team) if team is not None else (False, name)
        blocks.setdefault(key, []).append(name)
    return [name for block in blocks.values() for name in block]


def deal(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Step 3: seat 1 of every table, then seat 2 of every table, … (sizes descending)."""
    tables: list[list[str]] = [[] for _ in sizes]
    seats = [(t, s) for s in range(max(sizes, default=0)) for t, n in enumerate(sizes) if s < n]
    if len(seats) != len(order):
        raise ValueError(f"{len(order)} names for {len(seats)} seats")
    for name, (t, _) in zip(order, seats, strict=True):
        tables[t].append(name)
    return tables


def team_pairs(tables: Iterable[Sequence[str]], team_of: Mapping[str, str]) -> int:
    """Number of pairs of one team sitting at the same table."""
    total = 0
    for table in tables:
        count: dict[str, int] = {}
        for name in table:
            team = team_of.get(name)
            if team is not None:
                count[team] = count.get(team, 0) + 1
        total += sum(c * (c - 1) // 2 for c in count.values())
    return total


def fewest_team_pairs(team_sizes: Iterable[int], tables: int) -> int:
    """The fewest same-team pairs at ``tables`` tables: each team spread evenly."""
    total = 0
    for size in team_sizes:
        q, r = divmod(size, tables)
        total += r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2
    return total


def draw(
    participants: Sequence[str],
    seed: str,
    series: int,
    previous: Sequence[Sequence[Sequence[str]]] = (),
    teams: Mapping[str, str] | None = None,
) -> list[list[str]]:
    """The tables of series ``series`` like :func:`skatbot.rules.tournament.draw`, keeping
    the members of a team at different tables where possible (module docstring).

    Without a team of two or more participants this is ``tournament.draw`` itself.
    """
    team_of = real_teams(participants, teams or {})
    if not team_of:
        return tr.draw(participants, seed, series, previous)
    if series < 1:
        raise ValueError("series is 1-based")
    if len(previous) != series - 1:
        raise ValueError(
            f"series {series} needs the tables of the {series - 1} previous series, "
            f"got {len(previous)}"
        )
    seed = tr.validate_seed(seed)
    names = tr._canonical_names(participants)
    sizes = tr.table_sizes(len(names))
    met = tr._met_counts(previous)
    best: list[list[str]] | None = None
    best_cost = (0, 0)
    for k in range(tr.CANDIDATES):
        order = tr.shuffle(names, f"{seed}/{series}/{k}")
        rank = {name: i for i, name in enumerate(order)}
        tables = [sorted(t, key=rank.__getitem__) for t in deal(grouped(order, team_of), sizes)]
        if met:
            tr._improve(tables, met, team_of)
        c = (team_pairs(tables, team_of), tr._cost(tables, met))
        if best is None or c < best_cost:
            best, best_cost = tables, c
        if c[1] == 0:
            break
    assert best is not None
    return best


# --------------------------------------------------------------------------- ranking


@dataclass(frozen=True)
class TeamRanked:
    """One line of the team ranking."""

    place: int  # 1-based, distinct
    team: str
    score: int  # sum over the counted members
    won: int
    lost: int
    counted: tuple[Ranked, ...]  # the members whose scores count, best place first
    uncounted: tuple[Ranked, ...]  # the others (only with ``best``), best place first


def rank_teams(
    ranked: Sequence[Ranked], teams: Mapping[str, str], best: int | None = None
) -> list[TeamRanked]:
    """The team ranking from the individual ranking (module docstring).

    ``teams`` maps participant names to team names; names not in ``ranked`` are ignored, as
    are participants without a team.  ``best`` counts only the best ``best`` members.
    """
    if best is not None and best < 1:
        raise ValueError("best counts at least one member")
    members: dict[str, list[Ranked]] = {}
    for r in sorted(ranked, key=lambda r: r.place):
        team = teams.get(r.standing.name)
        if team is not None:
            members.setdefault(team, []).append(r)
    lines = []
    for team, people in members.items():
        counted = people if best is None else people[:best]
        rest = people[len(counted) :]
        lines.append(
            (
                team,
                sum(r.standing.score for r in counted),
                tuple(counted),
                tuple(rest),
            )
        )
    lines.sort(key=lambda line: (-line[1], line[2][0].place))
    return [
        TeamRanked(
            place=i,
            team=team,
            score=score,
            won=sum(r.standing.won for r in counted),
            lost=sum(r.standing.lost for r in counted),
            counted=counted,
            uncounted=rest,
        )
        for i, (team, score, counted, rest) in enumerate(lines, 1)
    ]


def tie_decided_by_best_member(teams: Sequence[TeamRanked]) -> list[TeamRanked]:
    """The teams whose place was decided by the best member's place (equal score to a
    neighbour)."""
    out = []
    for i, line in enumerate(teams):
        before = i > 0 and teams[i - 1].score == line.score
        after = i + 1 < len(teams) and teams[i + 1].score == line.score
        if before or after:
            out.append(line)
    return out
