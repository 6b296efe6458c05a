"""The counting rules of a tournament: the sum (a missing series counts 0) and the average
per series played with a minimum; ties and the lot."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from skatbot.rules.ranking import Standing, lot_note
from skatbot.rules.tournament import Counting, rank_average, tournament_standings


def series(**scores: tuple[int, int, int]) -> dict[str, Standing]:
    return {n: Standing(n, *v) for n, v in scores.items()}


def test_a_missing_series_counts_0_in_the_sum() -> None:
    ranked = tournament_standings(
        [series(Anna=(300, 3, 0), Bernd=(200, 2, 0)), series(Bernd=(200, 2, 0))], "s"
    )
    assert [(r.standing.name, r.standing.score) for r in ranked] == [("Bernd", 400), ("Anna", 300)]


def test_the_average_ranks_per_series_played_from_the_minimum_on() -> None:
    one = series(Anna=(300, 3, 0), Bernd=(200, 2, 0), Carla=(500, 5, 0))
    two = series(Anna=(300, 3, 0), Bernd=(250, 2, 1))
    ranked, left_out = rank_average([one, two], "s", 2)
    assert [(r.standing.name, r.standing.score) for r in ranked] == [("Anna", 600), ("Bernd", 450)]
    assert left_out == ["Carla"]  # one series only
    ranked, left_out = rank_average([one, two], "s", 1)
    assert [r.standing.name for r in ranked] == ["Carla", "Anna", "Bernd"] and not left_out


def test_equal_averages_go_by_won_then_lost_then_the_lot() -> None:
    # Anna 300 in one series, Bernd 600 in two: both average 300 and 3 won per series
    ranked, _ = rank_average(
        [series(Anna=(300, 3, 0), Bernd=(300, 3, 0)), series(Bernd=(300, 3, 0))], "x", 1
    )
    assert all(r.by_lot for r in ranked)
    first = min(["Anna", "Bernd"], key=lambda n: hashlib.sha256(f"x\n{n}".encode()).hexdigest())
    assert ranked[0].standing.name == first
    # the lot's note groups by the average, not by the (different) totals
    n = {"Anna": 1, "Bernd": 2}
    note = lot_note(ranked, "x", lambda r: r.standing.score / n[r.standing.name])
    assert note.startswith("Gleichstand bei ") and note.count("Gleichstand") == 1
    ranked, _ = rank_average([series(Anna=(300, 3, 1), Bernd=(300, 3, 0))], "x", 1)
    assert [r.standing.name for r in ranked] == ["Bernd", "Anna"] and not ranked[0].by_lot


@given(st.integers(min_value=1, max_value=50))
def test_the_counting_rule_is_stored_as_its_code(minimum: int) -> None:
    rule = Counting(True, minimum)
    assert Counting.parse(rule.code) == rule
    assert Counting.parse(None) == Counting() == Counting.parse("quatsch")
    assert Counting().code is None


# --- the Setzliste ------------------------------------------------------------------------------

from skatbot.rules.ranking import lot_key  # noqa: E402
from skatbot.rules.tournament import seeded_tables, seeding_order, table_sizes  # noqa: E402

NAMES = [f"P{i:02d}" for i in range(1, 14)]


def test_block_seating_places_1_to_4_at_table_1() -> None:
    tables = seeded_tables(NAMES)
    assert tables == [NAMES[0:4], NAMES[4:7], NAMES[7:10], NAMES[10:13]]


def test_the_unranked_follow_by_lot() -> None:
    order = seeding_order(["B", "A"], ["A", "B", "Z", "Y"], "s")
    assert order[:2] == ["B", "A"]
    assert order[2:] == sorted(["Y", "Z"], key=lambda n: lot_key("s", n))


def test_teams_are_kept_apart_by_moving_the_lower_ranked_down() -> None:
    teams = {"P01": "Nord", "P02": "Nord", "P05": "Süd"}
    tables = seeded_tables(NAMES, teams)
    assert tables[0] == ["P01", "P03", "P04", "P05"]  # P02 (Nord) swapped with P05
    assert tables[1] == ["P02", "P06", "P07"]


@given(
    st.integers(min_value=3, max_value=40).filter(lambda n: n != 5),
    st.lists(st.sampled_from(["A", "B", "C", None]), min_size=40, max_size=40),
)
def test_seating_is_a_permutation_in_the_planned_tables(n: int, team_of: list[str | None]) -> None:
    names = [f"P{i:02d}" for i in range(n)]
    teams = {name: t for name, t in zip(names, team_of, strict=False) if t is not None}
    tables = seeded_tables(names, teams)
    assert sorted(x for table in tables for x in table) == sorted(names)
    assert [len(table) for table in tables] == table_sizes(n)
    # a team with no more members than tables never shares a table where a later seat fit
    for team in {"A", "B", "C"}:
        members = [x for x in names if teams.get(x) == team]
        if len(members) <= len(tables) and len(teams) == len(members):  # one team only
            assert all(sum(teams.get(x) == team for x in table) <= 1 for table in tables)
    assert seeded_tables(names, teams) == tables  # reproducible


@given(st.integers(min_value=6, max_value=40), st.data())
def test_one_team_no_larger_than_the_tables_sits_apart(n: int, data: st.DataObject) -> None:
    names = [f"P{i:02d}" for i in range(n)]
    tables_count = len(table_sizes(n))
    members = data.draw(
        st.lists(st.sampled_from(names), unique=True, min_size=2, max_size=tables_count)
    )
    tables = seeded_tables(names, dict.fromkeys(members, "Nord"))
    assert all(sum(x in members for x in table) <= 1 for table in tables), tables
