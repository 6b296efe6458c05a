"""League rules: Anlage 10 table plans, the seeded seating of a day, scores with a
substitution, match points, the day's and the season's table, the individual ranking."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules import league as lg
from skatbot.rules.errors import TournamentError

FOUR = {"Nord": 4, "Süd": 4, "Ost": 4, "West": 4}


def _teams_at(table: list[lg.Seat]) -> list[str]:
    return [s.team for s in table]


@pytest.mark.parametrize(
    ("sizes", "plan"),
    [
        ((4, 4, 4, 4), [4, 4, 4, 4]),
        ((4, 4, 4, 3), [4, 4, 4, 3]),  # Anlage 10: three 4-tables and one 3-table
        ((3, 3, 3, 3), [4, 4, 4]),  # three 4-tables
        ((4, 4, 4, 0), [3, 3, 3, 3]),  # four 3-tables
        ((4, 4, 3, 3), [4, 4, 3, 3]),
        ((4, 4, 4), [3, 3, 3, 3]),
        ((3, 3, 3), [3, 3, 3]),
        ((4, 4, 4, 4, 4), [4, 4, 4, 4, 4]),
    ],
)
def test_anlage_10_plans(sizes: tuple[int, ...], plan: list[int]) -> None:
    assert lg.plan_tables({f"T{i}": n for i, n in enumerate(sizes)}) == plan


@pytest.mark.parametrize(
    "sizes", [(4, 3, 3), (4, 4), (4, 4, 0, 0), (5, 4, 4, 4), (4, 4, 3), (3,) * 7]
)
def test_impossible_plans_are_refused(sizes: tuple[int, ...]) -> None:
    with pytest.raises(TournamentError) as err:
        lg.plan_tables({f"T{i}": n for i, n in enumerate(sizes)})
    assert err.value.fix


def test_seating_of_a_full_group_one_player_of_each_team_and_every_slot_once() -> None:
    day = lg.day_seating(FOUR, "4711", 3)
    assert len(day) == 3
    for tables in day:
        assert [len(t) for t in tables] == [4, 4, 4, 4]
        for table in tables:
            assert sorted(_teams_at(table)) == sorted(FOUR)
        assert sorted(s for t in tables for s in t) == sorted(
            lg.Seat(team, i) for team in FOUR for i in range(1, 5)
        )


def test_three_series_of_four_teams_no_pair_meets_twice() -> None:
    day = lg.day_seating(FOUR, "4711", 3)
    pairs: set[tuple[lg.Seat, lg.Seat]] = set()
    for tables in day:
        for table in tables:
            for a in table:
                for b in table:
                    if a < b:
                        assert (a, b) not in pairs
                        pairs.add((a, b))


def test_the_seating_is_recomputable_and_depends_on_the_seed() -> None:
    assert lg.day_seating(FOUR, "4711", 3) == lg.day_seating(
        dict(reversed(FOUR.items())), "4711", 3
    )
    assert lg.day_seating(FOUR, "4711", 3) != lg.day_seating(FOUR, "4712", 3)
    first = lg.series_seating(FOUR, "4711", 1)
    assert lg.series_seating(FOUR, "4711", 2, [first]) == lg.day_seating(FOUR, "4711", 2)[1]


def test_short_team_sits_at_three_of_four_tables() -> None:
    sizes = {"Nord": 4, "Süd": 4, "Ost": 4, "West": 3}
    for tables in lg.day_seating(sizes, "99", 3):
        assert [len(t) for t in tables] == [4, 4, 4, 3]
        assert "West" not in _teams_at(tables[3])


@settings(max_examples=40, deadline=None)
@given(
    short=st.sampled_from([4, 3, 0]),
    seed=st.integers(0, 10**6),
    series=st.integers(1, 4),
)
def test_property_four_tables_no_two_players_meet_twice(short: int, seed: int, series: int) -> None:
    sizes = {"Nord": 4, "Süd": 4, "Ost": 4, "West": short}
    pairs: set[tuple[lg.Seat, lg.Seat]] = set()
    for tables in lg.day_seating(sizes, str(seed), series):
        for table in tables:
            for a in table:
                for b in table:
                    if a < b:
                        assert (a, b) not in pairs
                        pairs.add((a, b))


def test_seat_keys_round_trip_with_a_hash_in_the_team_name() -> None:
    seat = lg.Seat("Kreuz #1", 3)
    assert lg.seat_of_key(lg.seat_key(seat)) == seat


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 4), min_size=3, max_size=6),
    seed=st.integers(0, 10**6),
    series=st.integers(1, 4),
)
def test_property_every_feasible_layout_seats_one_per_team(
    sizes: list[int], seed: int, series: int
) -> None:
    teams = {f"Team {i}": n for i, n in enumerate(sizes)}
    try:
        plan = lg.plan_tables(teams)
    except TournamentError:
        return
    day = lg.day_seating(teams, str(seed), series)
    assert day == lg.day_seating(teams, str(seed), series)
    for tables in day:
        assert [len(t) for t in tables] == plan
        for table in tables:
            assert len(set(_teams_at(table))) == len(table)
        assert sorted(s for t in tables for s in t) == sorted(
            lg.Seat(team, i) for team, n in teams.items() for i in range(1, n + 1)
        )


# --------------------------------------------------------------------------- scores


def test_substitution_during_a_series_shares_the_bonus_by_games() -> None:
    a = [lg.Played("Anna", "Nord", 300, 5, 1, 16), lg.Played("Erik", "Nord", 200, 4, 0, 32)]
    table = [
        a,
        [lg.Played("Bernd", "Süd", 400, 6, 2, 48)],
        [lg.Played("Carla", "Ost", 100, 2, 3, 48)],
        [lg.Played("Dora", "West", 0, 1, 1, 48)],
    ]
    scores = {p.name: p for p in lg.table_scores(table)}
    # seat of Nord: 500 + 50 × (9 − 1) + 30 × (2 + 3 + 1) = 1,080
    # bonus 180: Anna 180 × 16 / 48 = 60, Erik the rest 120
    assert scores["Anna"].score == 300 + 50 * 4 + 60
    assert scores["Erik"].score == 200 + 50 * 4 + 120
    assert scores["Anna"].score + scores["Erik"].score == 1080
    assert scores["Bernd"].score == 400 + 200 + 30 * 5


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.integers(-300, 600), st.integers(0, 12), st.integers(0, 6), st.integers(0, 48)
            ),
            min_size=1,
            max_size=2,
        ),
        min_size=3,
        max_size=4,
    )
)
def test_property_parts_of_a_seat_add_up_to_its_score(
    seats: list[list[tuple[int, int, int, int]]],
) -> None:
    table = [
        [lg.Played(f"P{i}{j}", f"T{i}", gp, w, lo, g) for j, (gp, w, lo, g) in enumerate(seat)]
        for i, seat in enumerate(seats)
    ]
    lg.table_scores(table)  # asserts the sum per seat itself


# --------------------------------------------------------------------------- match points


def test_worked_example_of_the_sources() -> None:
    """3,502 (3rd, 1:2), 4,142 (3rd, 1:2), 3,990 (2nd, 2:1): 4:5, day total 11,634."""
    series = [
        {"Wir": 3502, "A": 4000, "B": 3600, "C": 3000},
        {"Wir": 4142, "A": 4500, "B": 4300, "C": 3900},
        {"Wir": 3990, "A": 4100, "B": 3800, "C": 3700},
    ]
    results = [lg.match_points(s) for s in series]
    ours = [next(line for line in r if line.team == "Wir") for r in results]
    assert [line.reason for line in ours] == ["3. Platz: 1:2", "3. Platz: 1:2", "2. Platz: 2:1"]
    table = {line.team: line for line in lg.day_table(results)}
    assert (table["Wir"].plus, table["Wir"].minus, table["Wir"].points) == (4, 5, 11634)


def test_ties_share_half_points_and_the_absent_team_gets_nothing() -> None:
    lines = {line.team: line for line in lg.match_points({"A": 900, "B": 900, "C": 500, "D": None})}
    assert lines["A"].reason == "1. Platz: 2½:½"
    assert lines["B"].reason == "1. Platz: 2½:½"
    assert lines["C"].reason == "3. Platz: 1:2"
    assert lines["D"].reason == "nicht angetreten: 0:3"
    assert lines["D"].points == 0
    assert sum(line.plus for line in lines.values()) == 6


@given(st.dictionaries(st.sampled_from("ABCDEF"), st.none() | st.integers(-500, 5000), min_size=3))
def test_property_match_points_sum_to_the_pairs(sums: dict[str, int | None]) -> None:
    n = len(sums)
    absent = sum(1 for s in sums.values() if s is None)
    lines = lg.match_points(sums)
    # one point per pair of teams, except between two teams that did not appear
    assert sum(line.plus for line in lines) == Fraction(n * (n - 1) - absent * (absent - 1), 2)
    for line in lines:
        assert line.plus + line.minus == n - 1
    present = [line for line in lines if line.appeared]
    for a in present:
        for b in present:
            if a.points > b.points:
                assert a.plus > b.plus and a.place < b.place


@given(
    st.dictionaries(st.sampled_from("ABCDEF"), st.none() | st.integers(-500, 5000), min_size=3),
    st.integers(1, 10),
)
def test_property_more_points_per_team_scale_every_line(
    sums: dict[str, int | None], per_team: int
) -> None:
    one = {line.team: line for line in lg.match_points(sums)}
    for line in lg.match_points(sums, per_team):
        assert line.plus == one[line.team].plus * per_team
        assert line.minus == one[line.team].minus * per_team
        assert line.place == one[line.team].place


def test_two_points_per_team_beaten() -> None:
    lines = {
        line.team: line.reason for line in lg.match_points({"A": 9, "B": 7, "C": 7, "D": None}, 2)
    }
    assert lines == {
        "A": "1. Platz: 6:0",
        "B": "2. Platz: 3:3",
        "C": "2. Platz: 3:3",
        "D": "nicht angetreten: 0:6",
    }


def test_season_table_ranks_by_match_points_then_game_points() -> None:
    day1 = [
        lg.DayLine(1, "A", Fraction(6), Fraction(3), 12000),
        lg.DayLine(2, "B", Fraction(5), Fraction(4), 11000),
        lg.DayLine(3, "C", Fraction(4), Fraction(5), 12500),
        lg.DayLine(4, "D", Fraction(3), Fraction(6), 10000),
    ]
    day2 = [
        lg.DayLine(1, "B", Fraction(7), Fraction(2), 11000),
        lg.DayLine(2, "C", Fraction(5), Fraction(4), 11000),
        lg.DayLine(3, "A", Fraction(3), Fraction(6), 9000),
        lg.DayLine(4, "D", Fraction(3), Fraction(6), 9000),
    ]
    table = lg.season_table([day1, day2], ["A", "B", "C", "D", "E"])
    # B 12:6; A and C 9:9, C has more game points (23,500 > 21,000); D 6:12; E no day
    assert [(line.place, line.team) for line in table] == [
        (1, "B"), (2, "C"), (3, "A"), (4, "D"), (5, "E"),
    ]  # fmt: skip
    assert table[0].days == 2 and table[4].days == 0


def test_a_league_may_rank_by_game_points_first() -> None:
    day = [
        lg.DayLine(1, "A", Fraction(6), Fraction(3), 10000),
        lg.DayLine(2, "B", Fraction(5), Fraction(4), 12000),
    ]
    assert [line.team for line in lg.season_table([day])] == ["A", "B"]
    assert [line.team for line in lg.season_table([day], order="spielpunkte")] == ["B", "A"]
    with pytest.raises(ValueError):
        lg.season_table([day], order="zufall")


def test_equal_match_and_game_points_share_the_place() -> None:
    day = [
        lg.DayLine(1, "A", Fraction(4), Fraction(5), 100),
        lg.DayLine(1, "B", Fraction(4), Fraction(5), 100),
    ]
    assert [line.place for line in lg.season_table([day])] == [1, 1]


def test_individual_ranking_by_average_with_a_minimum_share() -> None:
    scores = [
        lg.PersonScore("Anna", "Nord", 1200, 96),
        lg.PersonScore("Erik", "Nord", 900, 32),  # best average, too few games
        lg.PersonScore("Bernd", "Süd", 1500, 96),
        lg.PersonScore("Carla", "Ost", 1000, 48),
        lg.PersonScore("Carla", "Ost", 500, 48),
    ]
    lines, minimum = lg.individual_ranking(scores, 50)
    assert minimum == 48
    assert [(line.place, line.name) for line in lines] == [
        (1, "Bernd"), (1, "Carla"), (3, "Anna"), (None, "Erik"),
    ]  # fmt: skip
    assert lines[0].average == Fraction(1500, 96)


def test_the_readme_example_of_a_day_with_a_short_team() -> None:
    """docs/league.md "Recomputing a day's seating": the same tables as its stand-alone snippet."""
    lineup = {
        "Nord": ["Anna", "Bernd", "Carla", "Dora"],
        "Süd": ["Fritz", "Gabi", "Hans", "Inge"],
        "Ost": ["Karl", "Lena", "Max"],
        "West": ["Paul", "Quirin", "Rosa", "Susi"],
    }
    day = lg.day_seating({t: len(n) for t, n in lineup.items()}, "482913", 3)
    first = [[lineup[s.team][s.slot - 1] for s in table] for table in day[0]]
    assert first == [
        ["Max", "Susi", "Gabi", "Carla"],
        ["Karl", "Paul", "Inge", "Bernd"],
        ["Lena", "Rosa", "Fritz", "Anna"],
        ["Quirin", "Hans", "Dora"],
    ]


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from("ABCDE"),
            st.tuples(st.integers(0, 12), st.integers(0, 20000)),
            min_size=1,
        ),
        max_size=4,
    ),
    st.sampled_from(lg.ORDERS),
)
def test_property_season_table_is_sorted_and_places_are_shared_only_on_a_full_tie(
    days: list[dict[str, tuple[int, int]]], order: str
) -> None:
    lines = [
        [lg.DayLine(1, team, Fraction(p, 2), Fraction(0), pts) for team, (p, pts) in day.items()]
        for day in days
    ]
    table = lg.season_table(lines, "ABCDE", order)
    assert sorted(line.team for line in table) == list("ABCDE")

    def key(line: lg.DayLine) -> tuple[Fraction | int, ...]:
        return (line.plus, line.points) if order == "matchpunkte" else (line.points, line.plus)

    for i, (a, b) in enumerate(itertools.pairwise(table)):
        assert key(a) >= key(b)
        assert (b.place == a.place) == (key(a) == key(b))
        assert b.place in (a.place, i + 2)
