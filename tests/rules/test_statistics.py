"""Statistics over replayed sheets (rules/statistics.py): properties over generated lists of
lists, and the running scores of a series."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules.house import HouseRules
from skatbot.rules.sheet import LogRow, RowKind, Sheet, replay
from skatbot.rules.statistics import (
    GRAND,
    HAND,
    NULL,
    OUVERT,
    SUIT,
    Series,
    compute,
    running_scores,
    series_scores,
)

GAMES = [
    "Grand mit 1 gewonnen",
    "Grand ohne 2 Hand gewonnen",
    "Kreuz mit 1 verloren",
    "Herz ohne 2 Hand gewonnen",
    "Karo mit 1 gewonnen",
    "Pik mit 1 Reiz 36 gewonnen",  # overbid: lost
    "Null gewonnen",
    "Null ouvert verloren",
    "Grand mit 1 Hand Schneider angesagt verloren",
]
PEOPLE = ["anna", "bernd", "carla", "dora", "emil"]


@st.composite
def sheets(draw: st.DrawFn, size: int, house: bool = False) -> Sheet:
    """A list of ``size`` players with valid games, passed games, a correction and a
    cancellation (the dealer at a 4-table never declares)."""
    rows: list[LogRow] = []
    n = draw(st.integers(0, 10))
    for i in range(n):
        dealer = i % size
        row_id = len(rows) + 1
        if draw(st.integers(0, 5)) == 0:
            rows.append(LogRow(row_id, RowKind.PASS, dealer=dealer))
            continue
        seats = [s for s in range(size) if size == 3 or s != dealer]
        declarer = draw(st.sampled_from(seats))
        rows.append(LogRow(row_id, RowKind.GAME, dealer, declarer, draw(st.sampled_from(GAMES))))
    if rows and draw(st.booleans()):
        target = draw(st.sampled_from(rows))
        if target.kind is RowKind.GAME:
            rows.append(target._replace(id=len(rows) + 1, announcement=GAMES[0], target=target.id))
    if rows and draw(st.booleans()):
        rows.append(LogRow(len(rows) + 1, RowKind.CANCEL, target=draw(st.sampled_from(rows)).id))
    names = [p.title() for p in PEOPLE[:size]]
    return replay(names, rows, series_length=48, house=HouseRules() if house else None)


@st.composite
def seasons(draw: st.DrawFn) -> list[Series]:
    out = []
    for list_id in range(1, draw(st.integers(1, 6)) + 1):
        size = draw(st.sampled_from([3, 4]))
        sheet = draw(sheets(size, house=draw(st.integers(0, 4)) == 0))
        people = tuple(draw(st.permutations(PEOPLE))[:size])
        day = dt.date(2026, 1, 1) + dt.timedelta(days=draw(st.integers(0, 300)))
        out.append(Series(list_id, day, people, sheet))
    return out


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_counts_add_up(season: list[Series]) -> None:
    stats = compute(season)
    players = stats.players.values()
    assert stats.series == len(season)
    assert stats.games == sum(s.sheet.games_played for s in season)
    # every declared game is won or lost, is exactly one of Grand, Farbe, Null, and belongs
    # to exactly one player
    assert stats.declared == stats.won + sum(p.lost for p in players)
    assert stats.declared == sum(stats.kinds[k].declared for k in (GRAND, SUIT, NULL))
    assert stats.declared == sum(p.declared for p in players)
    assert stats.won == sum(p.won for p in players)
    for kind in (GRAND, SUIT, NULL, HAND, OUVERT):
        assert stats.kinds[kind].declared == sum(p.kinds[kind].declared for p in players)
        assert stats.kinds[kind].won <= stats.kinds[kind].declared
    for p in players:
        assert p.won + p.lost == p.declared
        assert p.series == sum(1 for s in season if p.key in s.people)
        assert p.games == sum(s.sheet.games_played for s in season if p.key in s.people)
        assert p.longest_won <= p.won and p.longest_lost <= p.lost
        assert (p.current <= 0 or p.won > 0) and (p.current >= 0 or p.lost > 0)
        assert (p.current == 0) == (p.declared == 0)
        assert abs(p.current) <= max(p.longest_won, p.longest_lost)
        if p.declared:
            assert p.best_game is not None and p.worst_game is not None
            assert p.best_game.score >= p.worst_game.score
        sf = p.sf_results
        assert len(sf) == sum(1 for s in season if p.key in s.people and s.isko)
        if sf:
            avg = p.sf_average
            assert avg is not None and p.best_series is not None and p.worst_series is not None
            assert p.worst_series.score <= avg <= p.best_series.score
        for rival in p.rivals.values():
            assert 0 <= rival.ahead <= rival.together <= p.series
    if stats.highest_game is not None:
        assert all(
            p.best_game is None or p.best_game.score <= stats.highest_game.value for p in players
        )
    if stats.longest_won is not None:
        assert stats.longest_won.value == max(p.longest_won for p in players)


@settings(max_examples=100, deadline=None)
@given(seasons())
def test_the_order_of_the_input_does_not_matter(season: list[Series]) -> None:
    """The lists are taken in list order whatever order they come in."""
    a, b = compute(season), compute(list(reversed(season)))
    assert a == b


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([3, 4]).flatmap(lambda n: sheets(n, house=False)))
def test_running_scores_end_at_the_standings(sheet: Sheet) -> None:
    running = running_scores(sheet)
    assert len(running) == sheet.games_played + 1
    assert running[0] == (0,) * sheet.table_size
    assert list(running[-1]) == series_scores(sheet)
    # after k games the scores are the Seeger-Fabian totals of the first k games
    for k in range(len(running)):
        prefix = replay(
            sheet.players,
            [e.row._replace(target=None) for e in sheet.valid[:k]],
            series_length=48,
        )
        assert list(running[k]) == series_scores(prefix)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([3, 4]).flatmap(lambda n: sheets(n, house=True)))
def test_running_scores_under_house_rules_end_at_the_standings(sheet: Sheet) -> None:
    running = running_scores(sheet)
    assert list(running[-1]) == series_scores(sheet)


def test_one_person_on_two_seats_counts_one_series() -> None:
    """Two merged spellings at one table (the real who-is-who may do that): one series."""
    sheet = replay(
        ["Hans", "Johann", "Carla"],
        [LogRow(1, RowKind.GAME, 0, 1, "Grand mit 1 gewonnen")],
        series_length=36,
    )
    stats = compute([Series(1, dt.date(2026, 1, 1), ("hans", "hans", "carla"), sheet)])
    assert stats.players["hans"].series == 1
    assert stats.players["hans"].declared == 1
    assert set(stats.players["hans"].rivals) == {"carla"}


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_a_players_record_names_everyone_who_holds_it(season: list[Series]) -> None:
    """Most series, most games won, the longest streaks: every player with the best value
    holds the record (first seen first), not only the first one to reach it."""
    stats = compute(season)
    players = list(stats.players.values())
    for record, value in (
        (stats.most_series, lambda p: p.series),
        (stats.most_won, lambda p: p.won),
        (stats.longest_won, lambda p: p.longest_won),
        (stats.longest_lost, lambda p: p.longest_lost),
    ):
        best = max((value(p) for p in players), default=0)
        if best == 0:
            assert record is None
            continue
        assert record is not None and record.value == best
        assert record.holders == tuple(p.key for p in players if value(p) == best)


def test_four_players_with_two_series_each_all_hold_most_series() -> None:
    sheet = replay(["A", "B", "C", "D"], [], series_length=48)
    people = ("anna", "bernd", "carla", "dora")
    season = [Series(n, dt.date(2026, 1, n), people, sheet) for n in (1, 2)]
    most = compute(season).most_series
    assert most is not None and most.value == 2 and most.holders == people
