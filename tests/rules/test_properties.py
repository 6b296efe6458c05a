"""Property tests (hypothesis) over generated announcements and score lists."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skatbot.rules import (
    BID_VALUES,
    Announcement,
    Booking,
    GameType,
    RuleError,
    evaluate,
    format_announcement,
    parse_announcement,
    seeger_fabian,
)
from skatbot.rules.game import NULL_VALUE
from skatbot.rules.value import normalize


@st.composite
def raw_announcements(draw: st.DrawFn, house: bool = False) -> Announcement:
    game = draw(st.sampled_from(list(GameType)))
    flags: dict[str, Any] = {
        "hand": draw(st.booleans()),
        "ouvert": draw(st.booleans()),
        "bid": draw(st.none() | st.sampled_from(BID_VALUES)),
        "won": draw(st.none() | st.booleans()),
    }
    if house:
        flags["kontra"] = draw(st.booleans())
        flags["re"] = flags["kontra"] and draw(st.booleans())
    if game.is_null:
        return Announcement(game, **flags)
    return Announcement(
        game,
        matadors=draw(st.integers(1, game.max_matadors)),
        with_matadors=draw(st.booleans()),
        schneider=draw(st.booleans()),
        schneider_announced=draw(st.booleans()),
        schwarz=draw(st.booleans()),
        schwarz_announced=draw(st.booleans()),
        card_points=draw(st.none() | st.integers(0, 120) | st.sampled_from([0, 30, 60, 90, 120])),
        **flags,
    )


@st.composite
def announcements(draw: st.DrawFn, house: bool = False) -> Announcement:
    """Valid, normalised announcements (those ``normalize`` refuses are filtered)."""
    raw = draw(raw_announcements(house=house))
    try:
        a, _ = normalize(raw)
    except RuleError:
        assume(False)
        raise  # unreachable
    return a


@settings(max_examples=500)
@given(announcements(house=True))
def test_format_parse_round_trip(a: Announcement) -> None:
    assert parse_announcement(format_announcement(a), house=True) == a


@settings(max_examples=300)
@given(announcements())
def test_format_parse_round_trip_isko(a: Announcement) -> None:
    assert not a.kontra and not a.re
    assert parse_announcement(format_announcement(a)) == a


@settings(max_examples=500)
@given(announcements())
def test_values_and_bookings(a: Announcement) -> None:
    try:
        r = evaluate(a)
    except RuleError:
        assume(False)
        raise
    if r.won:
        assert r.score == r.value
    else:
        assert r.score == -2 * r.value
    if a.bid is not None:
        assert r.value >= a.bid
        assert r.overbid == (r.played_value < a.bid)
    if r.overbid:
        assert not r.won
    if a.game.is_null:
        assert r.value in NULL_VALUE.values()
        return
    assert r.played_value == r.multiplier * a.game.base
    assert r.value % a.game.base == 0
    if r.won and not r.overbid:
        assert r.value in BID_VALUES
        assert r.multiplier >= a.matadors + 1  # type: ignore[operator]


def test_every_bid_value_is_a_game_value() -> None:
    values: set[int] = set()
    for game in GameType:
        if game.is_null:
            for hand, ouvert in itertools.product([False, True], repeat=2):
                values.add(evaluate(Announcement(game, hand=hand, ouvert=ouvert, won=True)).value)
            continue
        for m in range(1, game.max_matadors + 1):
            for hand, schneider, sa, schwarz, swa, ouvert in itertools.product(
                [False, True], repeat=6
            ):
                a = Announcement(
                    game, matadors=m, hand=hand, schneider=schneider,
                    schneider_announced=sa, schwarz=schwarz, schwarz_announced=swa,
                    ouvert=ouvert, won=True,
                )  # fmt: skip
                try:
                    values.add(evaluate(a).value)
                except RuleError:
                    continue
    assert values == set(BID_VALUES)
    assert len(values) == 63


PLAYERS = {3: ["A", "B", "C"], 4: ["A", "B", "C", "D"]}


@st.composite
def score_lists(draw: st.DrawFn) -> tuple[int, list[Booking]]:
    size = draw(st.sampled_from([3, 4]))
    games = draw(
        st.lists(
            st.tuples(st.sampled_from(PLAYERS[size]), st.sampled_from(BID_VALUES), st.booleans()),
            max_size=60,
        )
    )
    return size, [Booking(p, v if won else -2 * v, won) for p, v, won in games]


@settings(max_examples=300)
@given(score_lists())
def test_seeger_fabian_history_sums_equal_totals(data: tuple[int, list[Booking]]) -> None:
    size, bookings = data
    players = PLAYERS[size]
    bonus = 40 if size == 3 else 30
    totals = {t.name: t for t in seeger_fabian(players, bookings)}
    # Replay the list row by row: every row's effect on every player.
    running = dict.fromkeys(players, 0)
    for b in bookings:
        running[b.declarer] += b.score + (50 if b.won else -50)
        if not b.won:
            for p in players:
                if p != b.declarer:
                    running[p] += bonus
    assert running == {p: t.score for p, t in totals.items()}
    for p in players:
        mine = [b for b in bookings if b.declarer == p]
        t = totals[p]
        assert t.game_points == sum(b.score for b in mine)
        assert t.won == sum(b.won for b in mine)
        assert t.lost == len(mine) - t.won
        assert t.opponents_lost == sum(1 for b in bookings if not b.won and b.declarer != p)
        assert t.score == t.game_points + 50 * (t.won - t.lost) + bonus * t.opponents_lost
    lost = sum(1 for b in bookings if not b.won)
    assert sum(t.score for t in totals.values()) == (
        sum(b.score for b in bookings) + 50 * (len(bookings) - 2 * lost) + bonus * (size - 1) * lost
    )
    # Each lost game adds exactly 80 (3-table) or 90 (4-table) to the others' bonus.
    assert sum(t.bonus * t.opponents_lost for t in totals.values()) == (
        (80 if size == 3 else 90) * lost
    )
