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
