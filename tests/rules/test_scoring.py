"""Seeger-Fabian totals (docs/rules.md §5, Skatwettspielordnung 6.3.1), expected values by hand."""

from __future__ import annotations

import pytest

from skatbot.rules import Booking, Totals, evaluate, parse_announcement, seeger_fabian
from skatbot.rules.scoring import opponents_bonus


def booking(declarer: str, text: str) -> Booking:
    r = evaluate(parse_announcement(text))
    return Booking(declarer, r.score, r.won)


def by_name(totals: list[Totals]) -> dict[str, Totals]:
    return {t.name: t for t in totals}


@pytest.mark.parametrize(("size", "bonus"), [(3, 40), (4, 30)])
def test_opponents_bonus(size: int, bonus: int) -> None:
    assert opponents_bonus(size) == bonus


@pytest.mark.parametrize("size", [0, 2, 5])
def test_opponents_bonus_refuses_other_tables(size: int) -> None:
    with pytest.raises(ValueError):
        opponents_bonus(size)


def test_grand_ohne_1_hand_won_is_122() -> None:
    totals = by_name(seeger_fabian(["A", "B", "C"], [booking("A", "grand ohne 1 hand +")]))
    assert totals["A"].score == 122  # 72 + 50
    assert totals["B"].score == 0 and totals["C"].score == 0
    assert totals["A"].steps == "72 + 50 × (1 − 0) + 40 × 0 = 122"


def test_lost_pik_ohne_1_at_a_4_table() -> None:
    totals = by_name(seeger_fabian(["A", "B", "C", "D"], [booking("A", "pik ohne 1 verloren")]))
    assert totals["A"].game_points == -44
    assert totals["A"].score == -94  # −2 × 22 − 50
    for other in "BCD":  # the sitting-out dealer too
        assert totals[other].score == 30
        assert totals[other].opponents_lost == 1
    assert totals["A"].steps == "−44 + 50 × (0 − 1) + 30 × 0 = −94"


def test_lost_pik_ohne_1_at_a_3_table() -> None:
    totals = by_name(seeger_fabian(["A", "B", "C"], [booking("A", "pik ohne 1 -")]))
    assert [totals[p].score for p in "ABC"] == [-94, 40, 40]


def test_lost_null_ouvert_hand() -> None:
    totals = by_name(seeger_fabian(["A", "B", "C"], [booking("A", "null ouvert hand v")]))
    assert totals["A"].score == -168  # −2 × 59 − 50
    assert totals["B"].score == 40


def test_overbid_counts_as_lost() -> None:
    totals = by_name(seeger_fabian(["A", "B", "C"], [booking("A", "karo mit 1 reiz 30 g")]))
    assert (totals["A"].won, totals["A"].lost, totals["A"].score) == (0, 1, -122)  # −72 − 50


def test_isko_worked_example_1067() -> None:
    won = [72, 72, 72, 72, 72, 48, 48, 48, 23, 30, 24, 24]  # 12 games, 605 points
    lost = [-48, -48, -72]  # 3 games, −168 points → 437
    bookings = [Booking("A", s, True) for s in won] + [Booking("A", s, False) for s in lost]
    bookings += [Booking("B", -46, False)] * 3  # the others lost 6
    bookings += [Booking("C", -70, False)] * 2
    bookings += [Booking("D", -44, False)]
    totals = by_name(seeger_fabian(["A", "B", "C", "D"], bookings))
    a = totals["A"]
    assert (a.game_points, a.won, a.lost, a.opponents_lost) == (437, 12, 3, 6)
    assert a.score == 1067
    assert a.steps == "437 + 50 × (12 − 3) + 30 × 6 = 1.067"
    # B: −138 − 150 + 30 × (3 + 2 + 1) = −108; C: −140 − 100 + 30 × 7 = −30;
    # D: −44 − 50 + 30 × 8 = 146
    assert [totals[p].score for p in "BCD"] == [-108, -30, 146]
    assert totals["B"].steps == "−138 + 50 × (0 − 3) + 30 × 6 = −108"


def test_totals_in_seat_order_and_empty_list() -> None:
    totals = seeger_fabian(["Carla", "Anna", "Bernd"], [])
    assert [t.name for t in totals] == ["Carla", "Anna", "Bernd"]
    assert all(t.score == 0 and t.bonus == 40 for t in totals)


def test_table_size_override() -> None:
    # A 4-table list evaluated with only three names known still uses the 4-table bonus.
    totals = by_name(seeger_fabian(["A", "B", "C"], [Booking("A", -48, False)], table_size=4))
    assert totals["B"].score == 30


def test_unknown_declarer_refused() -> None:
    with pytest.raises(ValueError):
        seeger_fabian(["A", "B", "C"], [Booking("Z", 24, True)])


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C", "D", "E"]])
def test_bad_table_size_refused(players: list[str]) -> None:
    with pytest.raises(ValueError):
        seeger_fabian(players, [])


@pytest.mark.parametrize(
    ("game_points", "won", "lost", "others", "size", "score", "steps"),
    [
        (0, 0, 0, 0, 3, 0, "0 + 50 × (0 − 0) + 40 × 0 = 0"),
        (-200, 1, 5, 2, 3, -320, "−200 + 50 × (1 − 5) + 40 × 2 = −320"),
        (100, 2, 0, 3, 4, 290, "100 + 50 × (2 − 0) + 30 × 3 = 290"),
    ],
)
def test_totals_formula(
    game_points: int, won: int, lost: int, others: int, size: int, score: int, steps: str
) -> None:
    t = Totals("A", game_points, won, lost, others, size)
    assert t.score == score
    assert t.steps == steps
