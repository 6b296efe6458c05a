"""Ranking ties (docs/rules.md §5): score, then won, then fewer lost, then a seeded lot."""

from __future__ import annotations

import hashlib
import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatbot.rules.ranking import Ranked, Standing, lot_key, lot_note, rank_standings


def names_in_order(ranked: list[Ranked]) -> list[str]:
    return [r.standing.name for r in ranked]


def test_lot_key_is_sha256_of_seed_newline_name() -> None:
    assert lot_key("1234", "Anna") == hashlib.sha256(b"1234\nAnna").hexdigest()
    # pinned, so a format change cannot slip through unnoticed
    assert lot_key("1234", "Anna") == (
        "502180bf144b0397d606ee8f84678e2bef6828b8b0dfb812660ff0838018a2cc"
    )
    assert lot_key("1234", "Jürgen") == hashlib.sha256("1234\nJürgen".encode()).hexdigest()


def test_score_decides_first() -> None:
    ranked = rank_standings(
        [
            Standing("Anna", 900, 5, 5),
            Standing("Bernd", 1067, 12, 3),
            Standing("Carla", 1000, 20, 0),
        ],
        "1",
    )
    assert names_in_order(ranked) == ["Bernd", "Carla", "Anna"]
    assert [r.place for r in ranked] == [1, 2, 3]
    assert not any(r.by_lot for r in ranked)
    assert lot_note(ranked, "1") == ""


def test_score_tie_broken_by_more_won() -> None:
    ranked = rank_standings([Standing("Anna", 1000, 10, 2), Standing("Bernd", 1000, 11, 5)], "1")
    assert names_in_order(ranked) == ["Bernd", "Anna"]
    assert not any(r.by_lot for r in ranked)


def test_score_and_won_tie_broken_by_fewer_lost() -> None:
    ranked = rank_standings([Standing("Anna", 1000, 10, 4), Standing("Bernd", 1000, 10, 2)], "1")
    assert names_in_order(ranked) == ["Bernd", "Anna"]
    assert not any(r.by_lot for r in ranked)


def test_full_tie_broken_by_lot_and_reported() -> None:
    seed = "1234"
    tied = [Standing("Anna", 1000, 10, 2), Standing("Bernd", 1000, 10, 2)]
    ranked = rank_standings([Standing("Carla", 1200, 1, 1), *tied], seed)
    expected = sorted(["Anna", "Bernd"], key=lambda n: lot_key(seed, n))
    assert names_in_order(ranked) == ["Carla", *expected]
    assert [r.by_lot for r in ranked] == [False, True, True]
    assert [r.place for r in ranked] == [1, 2, 3]
    assert lot_note(ranked, seed) == (
        f"Gleichstand bei {expected[0]} und {expected[1]}: "
        "Platz durch Los (Startwert 1234) entschieden."
    )
    assert lot_note(ranked) == (
        f"Gleichstand bei {expected[0]} und {expected[1]}: Platz durch Los entschieden."
    )


def test_lot_is_stable_and_order_independent() -> None:
    standings = [Standing(n, 500, 7, 3) for n in ["Anna", "Bernd", "Carla", "Dieter"]]
    results = {
        tuple(names_in_order(rank_standings(list(p), "4711")))
        for p in itertools.permutations(standings)
    }
    assert len(results) == 1
    (order,) = results
    assert list(order) == sorted(order, key=lambda n: lot_key("4711", n))
    ranked = rank_standings(standings, "4711")
    assert all(r.by_lot for r in ranked)
    note = lot_note(ranked, "4711")
    assert note == (
        f"Gleichstand bei {order[0]}, {order[1]}, {order[2]} und {order[3]}: "
        "Plätze durch Los (Startwert 4711) entschieden."
    )


def test_different_seed_can_change_the_lot() -> None:
    standings = [Standing(f"Spieler {i}", 0, 0, 0) for i in range(6)]
    orders = {tuple(names_in_order(rank_standings(standings, str(s)))) for s in range(10)}
    assert len(orders) > 1


def test_two_separate_tie_groups_give_two_sentences() -> None:
    ranked = rank_standings(
        [
            Standing("Anna", 1000, 10, 2),
            Standing("Bernd", 1000, 10, 2),
            Standing("Carla", 800, 9, 1),
            Standing("Dieter", 700, 5, 5),
            Standing("Erika", 700, 5, 5),
        ],
        "99",
    )
    assert [r.by_lot for r in ranked] == [True, True, False, True, True]
    note = lot_note(ranked, "99")
    assert note.count("Gleichstand bei") == 2
    assert "Carla" not in note
    first, second = note.split(". ")
    assert "Anna" in first and "Bernd" in first
    assert "Dieter" in second and "Erika" in second


def test_by_lot_only_for_full_ties() -> None:
    ranked = rank_standings(
        [
            Standing("Anna", 1000, 10, 2),
            Standing("Bernd", 1000, 10, 3),
            Standing("Carla", 1000, 9, 2),
        ],
        "1",
    )
    assert names_in_order(ranked) == ["Anna", "Bernd", "Carla"]
    assert not any(r.by_lot for r in ranked)


def test_duplicate_names_rejected() -> None:
    with pytest.raises(ValueError, match="doppelt"):
        rank_standings([Standing("Anna", 1, 0, 0), Standing("Anna", 2, 0, 0)], "1")


def test_empty() -> None:
    assert rank_standings([], "1") == []
    assert lot_note([], "1") == ""


@given(
    st.lists(
        st.tuples(st.integers(-50, 50), st.integers(0, 3), st.integers(0, 3)),
        min_size=0,
        max_size=12,
    ),
    st.text(min_size=1, max_size=8),
    st.randoms(use_true_random=False),
)
def test_ranking_properties(
    rows: list[tuple[int, int, int]], seed: str, rnd: random.Random
) -> None:
    standings = [Standing(f"P{i}", s, w, lo) for i, (s, w, lo) in enumerate(rows)]
    ranked = rank_standings(standings, seed)
    shuffled = list(standings)
    rnd.shuffle(shuffled)
    assert rank_standings(shuffled, seed) == ranked
    assert [r.place for r in ranked] == list(range(1, len(rows) + 1))
    for a, b in itertools.pairwise(ranked):
        ka = (-a.standing.score, -a.standing.won, a.standing.lost)
        kb = (-b.standing.score, -b.standing.won, b.standing.lost)
        assert ka <= kb
        if ka == kb:
            assert a.by_lot and b.by_lot
            assert lot_key(seed, a.standing.name) < lot_key(seed, b.standing.name)
    assert (lot_note(ranked, seed) == "") == (not any(r.by_lot for r in ranked))
