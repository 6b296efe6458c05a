"""The season table and the Skatzahl: worked examples and properties."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules import rating as rt
from skatbot.rules.season import (
    Counting,
    Result,
    SeasonRules,
    Series,
    season_table,
    series_ranks,
    series_value,
)

NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil"]


def series(i: int, games: int, *results: tuple[str, int, int, int]) -> Series:
    return Series(
        f"s{i:03d}",
        dt.date(2026, 1, 1) + dt.timedelta(days=7 * i),
        games,
        tuple(Result(n.casefold(), n, sc, w, lo) for n, sc, w, lo in results),
    )


def test_worked_example_sum_average_best_minimum_lantern() -> None:
    s = [
        series(0, 36, ("Anna", 300, 5, 1), ("Bernd", 100, 3, 2), ("Carla", -50, 1, 3)),
        series(1, 48, ("Anna", 200, 4, 2), ("Bernd", 400, 6, 0), ("Dora", 0, 0, 0)),
        series(2, 36, ("Anna", -100, 1, 4), ("Bernd", 100, 2, 1), ("Carla", 500, 7, 0)),
    ]
    t = season_table(s, SeasonRules())
    # Bernd 100 + 400 + 100 · Carla −50 + 500 · Anna 300 + 200 − 100 · Dora 0
    assert [(x.place, x.name, x.total, x.played) for x in t.ranked] == [
        (1, "Bernd", 600, 3),
        (2, "Carla", 450, 2),
        (3, "Anna", 400, 3),
        (4, "Dora", 0, 1),
    ]
    # Average per series, normalised to 48 games: Anna 300·48/36=400, 200, −100·48/36=−133⅓.
    t = season_table(s, SeasonRules(Counting.AVERAGE))
    anna = next(x for x in t.ranked if x.name == "Anna")
    assert anna.total == (Fraction(400) + 200 + Fraction(-400, 3)) / 3
    # Best 2 of Anna's 3: 400 and 200 -> 300; won/lost over those two only.
    t = season_table(s, SeasonRules(Counting.AVERAGE, best=2))
    anna = next(x for x in t.ranked if x.name == "Anna")
    assert anna.total == 300 and (anna.won, anna.lost) == (9, 3)
    # Minimum 2 series: Dora (1) is not ranked; the lantern goes to the last ranked.
    t = season_table(s, SeasonRules(minimum=2, lantern=True))
    assert [x.name for x in t.unranked] == ["Dora"]
    assert t.lantern == ("anna",)


def test_ties_by_won_then_lost_then_shared() -> None:
    s = [
        series(0, 36, ("Anna", 100, 3, 1), ("Bernd", 100, 4, 1), ("Carla", 100, 3, 0)),
        series(1, 36, ("Dora", 100, 3, 1), ("Emil", -10, 0, 1), ("Carla", 0, 0, 0)),
    ]
    t = season_table(s, SeasonRules())
    assert [(x.place, x.name) for x in t.ranked] == [
        (1, "Bernd"),  # 4 won
        (2, "Carla"),  # 3 won, 0 lost
        (3, "Anna"),  # 3 won, 1 lost: shares with Dora
        (3, "Dora"),
        (5, "Emil"),
    ]


results = st.lists(
    st.tuples(
        st.sampled_from(NAMES),
        st.integers(-500, 1500),
        st.integers(0, 12),
        st.integers(0, 12),
    ),
    min_size=3,
    max_size=4,
    unique_by=lambda r: r[0],
)
seasons = st.lists(st.tuples(st.sampled_from([36, 48, 24]), results), min_size=1, max_size=12)
rules = st.builds(
    SeasonRules,
    st.sampled_from(list(Counting)),
    st.integers(1, 5),
    st.one_of(st.none(), st.integers(1, 6)),
    st.booleans(),
)


def build(data: list[tuple[int, list[tuple[str, int, int, int]]]]) -> list[Series]:
    return [series(i, games, *res) for i, (games, res) in enumerate(data)]


@settings(max_examples=150, deadline=None)
@given(seasons, rules, st.randoms(use_true_random=False))
def test_properties_of_the_table(data, r, rnd) -> None:  # type: ignore[no-untyped-def]
    s = build(data)
    t = season_table(s, r)
    # The order of the input does not matter.
    shuffled = list(s)
    rnd.shuffle(shuffled)
    assert season_table(shuffled, r) == t
    # Everyone is either ranked (enough series) or not; nobody twice.
    keys = [x.key for x in (*t.ranked, *t.unranked)]
    assert len(keys) == len(set(keys))
    assert all(x.played >= r.minimum for x in t.ranked)
    assert all(x.played < r.minimum for x in t.unranked)
    # Best first; places follow the tie rule and only full ties share one.
    for a, b in zip(t.ranked, t.ranked[1:], strict=False):
        assert (-a.total, -a.won, a.lost) <= (-b.total, -b.won, b.lost)
        assert (a.place == b.place) == ((a.total, a.won, a.lost) == (b.total, b.won, b.lost))
    # Counted series: at most N, the best ones.
    for x in (*t.ranked, *t.unranked):
        assert len(x.counted) == (x.played if r.best is None else min(r.best, x.played))
        assert list(x.counted) == sorted(x.counted, reverse=True)
    # The sum without a limit is the plain sum of the scores.
    if r.counting is Counting.SUM and r.best is None:
        for x in t.ranked:
            assert x.total == sum(res.score for se in s for res in se.results if res.key == x.key)
    # The lantern is on the last place only, and only if asked.
    if t.lantern:
        assert r.lantern and {x.place for x in t.ranked if x.key in t.lantern} == {
            t.ranked[-1].place
        }


@settings(max_examples=100, deadline=None)
@given(seasons, st.sampled_from(list(Counting)), st.integers(0, 11), st.integers(1, 400))
def test_a_better_series_never_lowers_a_place(data, counting, which, more) -> None:  # type: ignore[no-untyped-def]
    s = build(data)
    target = s[which % len(s)]
    name = target.results[0].key
    better = [
        Series(
            x.id,
            x.day,
            x.games,
            tuple(
                Result(r.key, r.name, r.score + more, r.won, r.lost)
                if x is target and r.key == name
                else r
                for r in x.results
            ),
        )
        for x in s
    ]
    rules_ = SeasonRules(counting)
    before = next(x for x in season_table(s, rules_).ranked if x.key == name)
    after = next(x for x in season_table(better, rules_).ranked if x.key == name)
    assert after.total > before.total
    assert after.place is not None and before.place is not None
    assert after.place <= before.place


def test_series_value_normalises_to_48_games() -> None:
    assert series_value(360, 36, Counting.AVERAGE) == 480
    assert series_value(360, 36, Counting.SUM) == 360


def test_series_ranks_share_full_ties() -> None:
    r = [Result("a", "A", 10, 1, 0), Result("b", "B", 10, 1, 0), Result("c", "C", 5, 0, 0)]
    assert [rank for _, rank in series_ranks(r)] == [1, 1, 3]


# --- the Skatzahl ------------------------------------------------------------------------------


def test_a_new_person_has_1000_and_the_winner_rises() -> None:
    assert rt.skatzahl(rt.Rating()) == 1000
    s = [
        series(i, 36, ("Anna", 500, 8, 0), ("Bernd", 0, 2, 2), ("Carla", -200, 0, 4))
        for i in range(10)
    ]
    seen = []
    for i in range(10):
        seen.append(rt.skatzahl(rt.replay(s, until=s[i].day)["anna"]))
    assert seen == sorted(seen) and len(set(seen)) == 10
    final = rt.replay(s)
    assert final["anna"].mu > final["bernd"].mu > final["carla"].mu
    assert final["anna"].sigma < rt.SIGMA0 and final["anna"].series == 10


def test_long_absence_makes_the_rating_uncertain_again() -> None:
    s = [
        series(i, 36, ("Anna", 500, 8, 0), ("Bernd", 0, 2, 2), ("Carla", -200, 0, 4))
        for i in range(20)
    ]
    last = s[-1].day
    now = rt.replay(s, until=last)["anna"]
    soon = rt.replay(s, until=last + dt.timedelta(days=rt.GRACE_DAYS))["anna"]
    later = rt.replay(s, until=last + dt.timedelta(days=120))["anna"]
    much_later = rt.replay(s, until=last + dt.timedelta(days=800))["anna"]
    assert soon == now  # within the grace period nothing changes
    assert later.mu == now.mu and now.sigma < later.sigma < rt.SIGMA0
    assert much_later.sigma == rt.SIGMA0
    assert rt.skatzahl(now) > rt.skatzahl(later) > rt.skatzahl(much_later)


@settings(max_examples=30, deadline=None)
@given(seasons)
def test_the_rating_is_a_replay(data) -> None:  # type: ignore[no-untyped-def]
    s = build(data)
    assert rt.replay(s) == rt.replay(list(reversed(s)))  # chronological, whatever the input order
    keys = {r.key for x in s for r in x.results}
    assert set(rt.replay(s)) == keys
