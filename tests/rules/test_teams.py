"""Teams: the team-aware draw and the team ranking (skatbot/rules/teams.py)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules import tournament as tr
from skatbot.rules.errors import TournamentError
from skatbot.rules.ranking import Standing, rank_standings
from skatbot.rules.teams import (
    clean_team,
    deal,
    draw,
    fewest_team_pairs,
    grouped,
    rank_teams,
    real_teams,
    team_pairs,
    tie_decided_by_best_member,
)

NAMES_13 = [
    "Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav",
    "Hanna", "Ida", "Jonas", "Karl", "Lena", "Moritz",
]  # fmt: skip
# 13 people at 4 tables: two teams of 4 (as many members as tables), one of 3, two alone.
TEAMS_13 = {
    "Anna": "Skatfreunde Nord", "Bernd": "Skatfreunde Nord", "Carla": "Skatfreunde Nord",
    "Dora": "Skatfreunde Nord", "Emil": "Kreuz Bube", "Frieda": "Kreuz Bube",
    "Gustav": "Kreuz Bube", "Hanna": "Kreuz Bube", "Ida": "Herz Dame", "Jonas": "Herz Dame",
    "Karl": "Herz Dame",
}  # fmt: skip


def people(n: int) -> list[str]:
    return [f"Spieler {i:04d}" for i in range(n)]


def series_of(
    names: Sequence[str], seed: str, count: int, teams: Mapping[str, str] | None
) -> list[list[list[str]]]:
    out: list[list[list[str]]] = []
    for s in range(1, count + 1):
        out.append(draw(names, seed, s, out, teams))
    return out


# --------------------------------------------------------------------------- the draw


def test_13_people_with_teams_never_share_a_table_over_many_seeds() -> None:
    """The must-show: 13 people, 2 series, teams no larger than the 4 tables."""
    for seed in range(300):
        s1, s2 = series_of(NAMES_13, str(seed), 2, TEAMS_13)
        for tables in (s1, s2):
            assert [len(t) for t in tables] == [4, 3, 3, 3]
            assert sorted(n for t in tables for n in t) == sorted(NAMES_13)
            for table in tables:
                teams_here = [TEAMS_13[n] for n in table if n in TEAMS_13]
                assert len(teams_here) == len(set(teams_here)), (seed, tables)
        # the draw still avoids repeats where it can: never worse than half the plain shuffle
        assert tr.partner_repeats([s1, s2]) <= 3, (seed, s1, s2)


def test_repeat_avoidance_with_teams_on_average() -> None:
    repeats = [tr.partner_repeats(series_of(NAMES_13, str(s), 2, TEAMS_13)) for s in range(100)]
    assert sum(repeats) / len(repeats) < 0.5


def test_without_teams_the_draw_is_the_old_draw() -> None:
    names = people(23)
    previous: list[list[list[str]]] = []
    for series in (1, 2, 3):
        old = tr.draw(names, "4711", series, previous)
        assert draw(names, "4711", series, previous) == old
        assert draw(names, "4711", series, previous, {}) == old
        # teams of one member and names that are not participants do not count
        lonely = {names[0]: "A", names[1]: "B", "Niemand": "A"}
        assert draw(names, "4711", series, previous, lonely) == old
        previous.append(old)


def test_reproducible_and_independent_of_input_order() -> None:
    rnd = random.Random(7)
    expected = series_of(NAMES_13, "482913", 3, TEAMS_13)
    for _ in range(5):
        shuffled = list(NAMES_13)
        rnd.shuffle(shuffled)
        items = list(TEAMS_13.items())
        rnd.shuffle(items)
        assert series_of(shuffled, "482913", 3, dict(items)) == expected


def test_grouping_and_dealing_examples() -> None:
    order = ["a1", "x", "b1", "a2", "y", "b2", "a3"]
    team_of = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "b2": "B"}
    assert grouped(order, team_of) == ["a1", "a2", "a3", "x", "b1", "b2", "y"]
    # seat 1 of every table, then seat 2, ...; 4-tables first
    assert deal(list("abcdefghijklm"), [4, 3, 3, 3]) == [
        ["a", "e", "i", "m"], ["b", "f", "j"], ["c", "g", "k"], ["d", "h", "l"],
    ]  # fmt: skip
    with pytest.raises(ValueError):
        deal(["a", "b"], [3])


def test_a_team_larger_than_the_tables_is_spread_evenly() -> None:
    # 9 people at 3 tables, one team of 5: at best 2 + 2 + 1 members -> 2 pairs
    names = people(9)
    teams = {n: "Groß" for n in names[:5]}
    assert fewest_team_pairs([5], 3) == 2
    for seed in range(50):
        for tables in series_of(names, str(seed), 3, teams):
            assert team_pairs(tables, teams) == 2
            counts = sorted(sum(n in teams for n in t) for t in tables)
            assert counts == [1, 2, 2]


def test_real_teams() -> None:
    teams = {"A": "x", "B": "x", "C": "y", "Z": "y"}
    assert real_teams(["A", "B", "C"], teams) == {"A": "x", "B": "x"}


def test_too_few_participants_still_refused_with_teams() -> None:
    with pytest.raises(TournamentError):
        draw(["A", "B", "C", "D", "E"], "1", 1, (), {"A": "x", "B": "x"})
    with pytest.raises(ValueError):
        draw(people(6), "1", 2, (), {"Spieler 0000": "x", "Spieler 0001": "x"})


team_assignments = (
    st.integers(3, 40)
    .filter(lambda n: n != 5)
    .flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.one_of(st.none(), st.integers(0, 6)), min_size=n, max_size=n)
        )
    )
)
seeds = st.text(alphabet="0123456789abcdefXYZ", min_size=1, max_size=8)


@settings(max_examples=120, deadline=None)
@given(team_assignments, seeds, st.integers(1, 3))
def test_fewest_possible_team_pairs_and_everyone_seated(
    case: tuple[int, list[int | None]], seed: str, count: int
) -> None:
    n, labels = case
    names = people(n)
    teams = {
        name: f"Team {label}"
        for name, label in zip(names, labels, strict=True)
        if label is not None
    }
    sizes = Counter(teams.values())
    all_series = series_of(names, seed, count, teams)
    m = len(tr.table_sizes(n))
    for tables in all_series:
        assert sorted(x for t in tables for x in t) == sorted(names)
        assert [len(t) for t in tables] == tr.table_sizes(n)
        pairs = team_pairs(tables, teams)
        assert pairs == fewest_team_pairs(sizes.values(), m)
        if max(sizes.values(), default=0) <= m:
            assert pairs == 0
    assert series_of(names, seed, count, teams) == all_series  # reproducible


def reference_team_draw(
    names: Sequence[str],
    seed: str,
    series: int,
    previous: Sequence[Sequence[Sequence[str]]],
    teams: Mapping[str, str],
) -> list[list[str]]:
    """Straight transcription of the docstring of rules/teams.py (slow, no shortcuts)."""
    size = Counter(teams[n] for n in names if n in teams)
    team = {n: teams[n] for n in names if n in teams and size[teams[n]] >= 2}
    met: Counter[frozenset[str]] = Counter()
    for earlier in previous:
        for table in earlier:
            for x, y in itertools.combinations(table, 2):
                met[frozenset((x, y))] += 1

    def conf(x: str, table: Sequence[str]) -> int:
        return sum(met[frozenset((x, y))] for y in table if y != x)

    def pairs(tables: Sequence[Sequence[str]]) -> int:
        return sum(
            1
            for t in tables
            for x, y in itertools.combinations(t, 2)
            if x in team and team.get(y) == team[x]
        )

    def cost(tables: Sequence[Sequence[str]]) -> int:
        return sum(met[frozenset((x, y))] for t in tables for x, y in itertools.combinations(t, 2))

    sizes = tr.table_sizes(len(names))
    best: list[list[str]] | None = None
    best_cost = (0, 0)
    for k in range(tr.CANDIDATES):
        a = tr.shuffle(sorted(names, key=lambda s: (s.casefold(), s)), f"{seed}/{series}/{k}")
        blocks: list[list[str]] = []
        block_of: dict[str, list[str]] = {}
        for x in a:
            if x in team and team[x] in block_of:
                block_of[team[x]].append(x)
            else:
                blocks.append([x])
                if x in team:
                    block_of[team[x]] = blocks[-1]
        order = [x for b in blocks for x in b]
        tables: list[list[str]] = [[] for _ in sizes]
        i = 0
        for seat in range(4):
            for t, n in enumerate(sizes):
                if seat < n:
                    tables[t].append(order[i])
                    i += 1
        tables = [sorted(t, key=a.index) for t in tables]  # seat order: the shuffled order
        positions = [(t, s) for t in range(len(tables)) for s in range(len(tables[t]))]
        changed = bool(previous)
        while changed:
            changed = False
            for t, s in positions:
                p = tables[t][s]
                c = conf(p, tables[t])
                if c == 0:
                    continue
                best_delta, target = 0, None
                for u, b in positions:
                    if u == t:
                        continue
                    q = tables[u][b]
                    delta = (
                        conf(p, [y for y in tables[u] if y != q])
                        + conf(q, [y for y in tables[t] if y != p])
                        - c
                        - conf(q, tables[u])
                    )
                    swapped = [list(x) for x in tables]
                    swapped[t][s], swapped[u][b] = q, p
                    if delta < best_delta and pairs(swapped) <= pairs(tables):
                        best_delta, target = delta, (u, b)
                if target is not None:
                    u, b = target
                    tables[t][s], tables[u][b] = tables[u][b], tables[t][s]
                    changed = True
        c2 = (pairs(tables), cost(tables))
        if best is None or c2 < best_cost:
            best, best_cost = tables, c2
        if c2[1] == 0:
            break
    assert best is not None
    return best


@pytest.mark.parametrize("n", [7, 9, 13, 16])
@pytest.mark.parametrize("seed", ["1", "4711"])
def test_draw_matches_reference_transcription(n: int, seed: str) -> None:
    names = people(n)
    teams = {x: f"T{i % 3}" for i, x in enumerate(names[: n - 2])}
    previous: list[list[list[str]]] = []
    for series in range(1, 5):
        tables = draw(names, seed, series, previous, teams)
        assert tables == reference_team_draw(names, seed, series, previous, teams), (n, series)
        previous.append(tables)


# --------------------------------------------------------------------------- team names


def test_clean_team() -> None:
    assert clean_team("  Skatfreunde   Nord ") == "Skatfreunde Nord"
    for bad in ["", " ", "-", "Nord, Süd", "A[b]", "x" * 49, "Nord\u0007"]:
        with pytest.raises(TournamentError):
            clean_team(bad)


# --------------------------------------------------------------------------- ranking


def ranked_of(scores: dict[str, int]) -> list:  # type: ignore[type-arg]
    return rank_standings([Standing(n, s, 0, 0) for n, s in scores.items()], "seed")


SCORES = {"Anna": 900, "Bernd": 700, "Carla": 650, "Dora": 500, "Emil": 400, "Frieda": 100}
TEAMS = {"Anna": "Nord", "Dora": "Nord", "Frieda": "Nord", "Bernd": "Süd", "Carla": "Süd"}


def test_team_ranking_sum_by_hand() -> None:
    teams = rank_teams(ranked_of(SCORES), TEAMS)
    # Nord: 900 + 500 + 100 = 1500; Süd: 700 + 650 = 1350; Emil has no team
    assert [(t.place, t.team, t.score) for t in teams] == [(1, "Nord", 1500), (2, "Süd", 1350)]
    assert [r.standing.name for r in teams[0].counted] == ["Anna", "Dora", "Frieda"]
    assert teams[0].uncounted == ()


def test_team_ranking_best_two_by_hand() -> None:
    teams = rank_teams(ranked_of(SCORES), TEAMS, best=2)
    # Nord: 900 + 500 = 1400 (Frieda not counted); Süd: 700 + 650 = 1350
    assert [(t.team, t.score) for t in teams] == [("Nord", 1400), ("Süd", 1350)]
    assert [r.standing.name for r in teams[0].uncounted] == ["Frieda"]
    # best 1: Anna 900 against Bernd 700
    assert [(t.team, t.score) for t in rank_teams(ranked_of(SCORES), TEAMS, best=1)] == [
        ("Nord", 900),
        ("Süd", 700),
    ]


def test_team_tie_goes_to_the_better_best_member() -> None:
    scores = {"Anna": 500, "Bernd": 600, "Carla": 300, "Dora": 200}
    teams = {"Anna": "A", "Carla": "A", "Bernd": "B", "Dora": "B"}
    ranked = rank_teams(ranked_of(scores), teams)
    # both 800; B's best member Bernd is 1st, A's best member Anna 2nd
    assert [(t.team, t.score) for t in ranked] == [("B", 800), ("A", 800)]
    assert tie_decided_by_best_member(ranked) == ranked
    assert tie_decided_by_best_member(rank_teams(ranked_of(SCORES), TEAMS)) == []


def test_best_must_be_positive() -> None:
    with pytest.raises(ValueError):
        rank_teams([], {}, best=0)
