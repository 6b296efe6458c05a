"""Game values by the ISkO (docs/rules.md §3-4): worked examples, the value grid, card-point edges,
announcements, overbid and bids. Every expected value is written by hand in the tables."""

from __future__ import annotations

import pytest

from skatbot.rules import (
    BID_VALUES,
    Announcement,
    ContradictionError,
    GameType,
    InvalidBidError,
    RuleError,
    check_bid,
    evaluate,
    nearest_bids,
    parse_announcement,
)
from skatbot.rules.grammar import parse_with_notes
from skatbot.rules.value import GameResult, normalize


def ev(text: str) -> GameResult:
    return evaluate(parse_announcement(text))


# --- worked examples (seeds 000 and 003) -------------------------------------------------

# text, value, score, won, overbid
WORKED = [
    ("kreuz mit 2 gewonnen", 36, 36, True, False),  # (2 + 1) × 12
    ("herz ohne 2 hand schneider gewonnen", 50, 50, True, False),  # (2 + 3) × 10
    ("kreuz ouvert mit 2 gewonnen", 108, 108, True, False),  # (2 + 7) × 12
    ("null gewonnen", 23, 23, True, False),
    ("null hand gewonnen", 35, 35, True, False),
    ("null ouvert gewonnen", 46, 46, True, False),
    ("null ouvert hand gewonnen", 59, 59, True, False),
    ("null verloren", 23, -46, False, False),
    ("null hand verloren", 35, -70, False, False),
    ("null ouvert verloren", 46, -92, False, False),
    ("null ouvert hand verloren", 59, -118, False, False),
    ("karo mit 1 reiz 30 verloren", 36, -72, False, True),  # 18 < 30 → 4 × 9
    ("karo mit 1 reiz 30 gewonnen", 36, -72, False, True),
    ("karo mit 1 reiz 30 augen 70", 36, -72, False, True),
    ("herz mit 2 schneider gewonnen", 40, 40, True, False),  # 10 × (2 + 1 + 1)
    ("kreuz mit 1 hand schneider angesagt gewonnen", 60, 60, True, False),  # 12 × 5
    ("grand ouvert mit 4 gewonnen", 264, 264, True, False),  # 24 × 11
    ("grand ohne 1 hand gewonnen", 72, 72, True, False),  # 24 × 3
    ("pik ohne 1 verloren", 22, -44, False, False),  # 11 × 2, booked −2 × 22
]


@pytest.mark.parametrize(("text", "value", "score", "won", "overbid"), WORKED)
def test_worked_examples(text: str, value: int, score: int, won: bool, overbid: bool) -> None:
    r = ev(text)
    assert (r.value, r.score, r.won, r.overbid) == (value, score, won, overbid)


def test_karo_overbid_breakdown_and_booking() -> None:
    r = ev("karo mit 1 reiz 30 gewonnen")
    assert r.played_value == 18
    assert r.breakdown == ("Karo mit 1, Spiel 2 → 2 × 9 = 18; überreizt (Reiz 30) → 4 × 9 = 36")
    assert r.booking == "−2 × 36 = −72"


def test_grand_ohne_1_hand_breakdown() -> None:
    r = ev("grand ohne 1 hand gewonnen")
    assert r.breakdown == "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72"
    assert r.booking == "+72"


# --- the value grid: every base × min/max matadors × levels ------------------------------

GRID = [
    ("karo mit 1 gewonnen", 18),  # 9 × (1 + 1)
    ("karo mit 1 hand gewonnen", 27),  # 9 × (1 + 2)
    ("karo mit 1 schneider gewonnen", 27),  # 9 × (1 + 2)
    ("karo mit 1 hand schneider gewonnen", 36),  # 9 × (1 + 3)
    ("karo mit 1 schwarz gewonnen", 36),  # 9 × (1 + 3)
    ("karo mit 1 hand schneider angesagt gewonnen", 45),  # 9 × (1 + 4)
    ("karo mit 1 hand schneider angesagt schwarz gewonnen", 54),  # 9 × (1 + 5)
    ("karo mit 1 hand schwarz angesagt gewonnen", 63),  # 9 × (1 + 6)
    ("karo mit 1 ouvert gewonnen", 72),  # 9 × (1 + 7)
    ("karo ohne 11 gewonnen", 108),  # 9 × (11 + 1)
    ("karo ohne 11 hand gewonnen", 117),  # 9 × (11 + 2)
    ("karo ohne 11 schneider gewonnen", 117),  # 9 × (11 + 2)
    ("karo ohne 11 hand schneider gewonnen", 126),  # 9 × (11 + 3)
    ("karo ohne 11 schwarz gewonnen", 126),  # 9 × (11 + 3)
    ("karo ohne 11 hand schneider angesagt gewonnen", 135),  # 9 × (11 + 4)
    ("karo ohne 11 hand schneider angesagt schwarz gewonnen", 144),  # 9 × (11 + 5)
    ("karo ohne 11 hand schwarz angesagt gewonnen", 153),  # 9 × (11 + 6)
    ("karo ohne 11 ouvert gewonnen", 162),  # 9 × (11 + 7)
    ("herz mit 1 gewonnen", 20),  # 10 × (1 + 1)
    ("herz mit 1 hand gewonnen", 30),  # 10 × (1 + 2)
    ("herz mit 1 schneider gewonnen", 30),  # 10 × (1 + 2)
    ("herz mit 1 hand schneider gewonnen", 40),  # 10 × (1 + 3)
    ("herz mit 1 schwarz gewonnen", 40),  # 10 × (1 + 3)
    ("herz mit 1 hand schneider angesagt gewonnen", 50),  # 10 × (1 + 4)
    ("herz mit 1 hand schneider angesagt schwarz gewonnen", 60),  # 10 × (1 + 5)
    ("herz mit 1 hand schwarz angesagt gewonnen", 70),  # 10 × (1 + 6)
    ("herz mit 1 ouvert gewonnen", 80),  # 10 × (1 + 7)
    ("herz ohne 11 gewonnen", 120),  # 10 × (11 + 1)
    ("herz ohne 11 hand gewonnen", 130),  # 10 × (11 + 2)
    ("herz ohne 11 schneider gewonnen", 130),  # 10 × (11 + 2)
    ("herz ohne 11 hand schneider gewonnen", 140),  # 10 × (11 + 3)
    ("herz ohne 11 schwarz gewonnen", 140),  # 10 × (11 + 3)
    ("herz ohne 11 hand schneider angesagt gewonnen", 150),  # 10 × (11 + 4)
    ("herz ohne 11 hand schneider angesagt schwarz gewonnen", 160),  # 10 × (11 + 5)
    ("herz ohne 11 hand schwarz angesagt gewonnen", 170),  # 10 × (11 + 6)
    ("herz ohne 11 ouvert gewonnen", 180),  # 10 × (11 + 7)
    ("pik mit 1 gewonnen", 22),  # 11 × (1 + 1)
    ("pik mit 1 hand gewonnen", 33),  # 11 × (1 + 2)
    ("pik mit 1 schneider gewonnen", 33),  # 11 × (1 + 2)
    ("pik mit 1 hand schneider gewonnen", 44),  # 11 × (1 + 3)
    ("pik mit 1 schwarz gewonnen", 44),  # 11 × (1 + 3)
    ("pik mit 1 hand schneider angesagt gewonnen", 55),  # 11 × (1 + 4)
    ("pik mit 1 hand schneider angesagt schwarz gewonnen", 66),  # 11 × (1 + 5)
    ("pik mit 1 hand schwarz angesagt gewonnen", 77),  # 11 × (1 + 6)
    ("pik mit 1 ouvert gewonnen", 88),  # 11 × (1 + 7)
    ("pik ohne 11 gewonnen", 132),  # 11 × (11 + 1)
    ("pik ohne 11 hand gewonnen", 143),  # 11 × (11 + 2)
    ("pik ohne 11 schneider gewonnen", 143),  # 11 × (11 + 2)
    ("pik ohne 11 hand schneider gewonnen", 154),  # 11 × (11 + 3)
    ("pik ohne 11 schwarz gewonnen", 154),  # 11 × (11 + 3)
    ("pik ohne 11 hand schneider angesagt gewonnen", 165),  # 11 × (11 + 4)
    ("pik ohne 11 hand schneider angesagt schwarz gewonnen", 176),  # 11 × (11 + 5)
    ("pik ohne 11 hand schwarz angesagt gewonnen", 187),  # 11 × (11 + 6)
    ("pik ohne 11 ouvert gewonnen", 198),  # 11 × (11 + 7)
    ("kreuz mit 1 gewonnen", 24),  # 12 × (1 + 1)
    ("kreuz mit 1 hand gewonnen", 36),  # 12 × (1 + 2)
    ("kreuz mit 1 schneider gewonnen", 36),  # 12 × (1 + 2)
    ("kreuz mit 1 hand schneider gewonnen", 48),  # 12 × (1 + 3)
    ("kreuz mit 1 schwarz gewonnen", 48),  # 12 × (1 + 3)
    ("kreuz mit 1 hand schneider angesagt gewonnen", 60),  # 12 × (1 + 4)
    ("kreuz mit 1 hand schneider angesagt schwarz gewonnen", 72),  # 12 × (1 + 5)
    ("kreuz mit 1 hand schwarz angesagt gewonnen", 84),  # 12 × (1 + 6)
    ("kreuz mit 1 ouvert gewonnen", 96),  # 12 × (1 + 7)
    ("kreuz ohne 11 gewonnen", 144),  # 12 × (11 + 1)
    ("kreuz ohne 11 hand gewonnen", 156),  # 12 × (11 + 2)
    ("kreuz ohne 11 schneider gewonnen", 156),  # 12 × (11 + 2)
    ("kreuz ohne 11 hand schneider gewonnen", 168),  # 12 × (11 + 3)
    ("kreuz ohne 11 schwarz gewonnen", 168),  # 12 × (11 + 3)
    ("kreuz ohne 11 hand schneider angesagt gewonnen", 180),  # 12 × (11 + 4)
    ("kreuz ohne 11 hand schneider angesagt schwarz gewonnen", 192),  # 12 × (11 + 5)
    ("kreuz ohne 11 hand schwarz angesagt gewonnen", 204),  # 12 × (11 + 6)
    ("kreuz ohne 11 ouvert gewonnen", 216),  # 12 × (11 + 7)
    ("grand mit 1 gewonnen", 48),  # 24 × (1 + 1)
    ("grand mit 1 hand gewonnen", 72),  # 24 × (1 + 2)
    ("grand mit 1 schneider gewonnen", 72),  # 24 × (1 + 2)
    ("grand mit 1 hand schneider gewonnen", 96),  # 24 × (1 + 3)
    ("grand mit 1 schwarz gewonnen", 96),  # 24 × (1 + 3)
    ("grand mit 1 hand schneider angesagt gewonnen", 120),  # 24 × (1 + 4)
    ("grand mit 1 hand schneider angesagt schwarz gewonnen", 144),  # 24 × (1 + 5)
    ("grand mit 1 hand schwarz angesagt gewonnen", 168),  # 24 × (1 + 6)
    ("grand mit 1 ouvert gewonnen", 192),  # 24 × (1 + 7)
    ("grand ohne 4 gewonnen", 120),  # 24 × (4 + 1)
    ("grand ohne 4 hand gewonnen", 144),  # 24 × (4 + 2)
    ("grand ohne 4 schneider gewonnen", 144),  # 24 × (4 + 2)
    ("grand ohne 4 hand schneider gewonnen", 168),  # 24 × (4 + 3)
    ("grand ohne 4 schwarz gewonnen", 168),  # 24 × (4 + 3)
    ("grand ohne 4 hand schneider angesagt gewonnen", 192),  # 24 × (4 + 4)
    ("grand ohne 4 hand schneider angesagt schwarz gewonnen", 216),  # 24 × (4 + 5)
    ("grand ohne 4 hand schwarz angesagt gewonnen", 240),  # 24 × (4 + 6)
    ("grand ohne 4 ouvert gewonnen", 264),  # 24 × (4 + 7)
]


@pytest.mark.parametrize(("text", "value"), GRID)
def test_value_grid_won(text: str, value: int) -> None:
    r = ev(text)
    assert (r.value, r.score, r.won, r.overbid) == (value, value, True, False)


@pytest.mark.parametrize(("text", "value"), GRID)
def test_value_grid_lost_is_booked_double(text: str, value: int) -> None:
    # Announced levels count when missed; reached levels ("schneider"/"schwarz" with
    # "verloren") mean the declarer was Schneider/Schwarz and count too.
    r = ev(text.replace("gewonnen", "verloren"))
    assert (r.value, r.score, r.won) == (value, -2 * value, False)


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("karo mit 0 gewonnen", "11"),
        ("herz ohne 0 gewonnen", "11"),
        ("pik mit 12 gewonnen", "11"),
        ("kreuz ohne 12 gewonnen", "11"),
        ("grand mit 0 gewonnen", "4"),
        ("grand mit 5 gewonnen", "4"),
        ("grand ohne 5 gewonnen", "4"),
    ],
)
def test_matadors_out_of_range_name_the_limit(text: str, limit: str) -> None:
    with pytest.raises(RuleError) as exc:
        ev(text)
    assert limit in str(exc.value)
    assert "Spitzen" in str(exc.value)


@pytest.mark.parametrize("text", ["karo gewonnen", "grand hand gewonnen", "kreuz augen 70"])
def test_missing_matadors_refused(text: str) -> None:
    with pytest.raises(RuleError, match="fehlen die Spitzen"):
        ev(text)


@pytest.mark.parametrize(
    "text",
    [
        "null mit 1 gewonnen",
        "null ohne 2 verloren",
        "null schneider gewonnen",
        "null schwarz verloren",
        "null hand schneider angesagt gewonnen",
        "null hand schwarz angesagt gewonnen",
        "null augen 70",
        "null augen 0",
    ],
)
def test_null_refuses_matadors_levels_and_points(text: str) -> None:
    with pytest.raises(RuleError):
        ev(text)


# --- card-point edges (Kreuz mit 1: base 12, matadors 1) ---------------------------------

# text, value, score, won, schneider, schwarz
POINT_EDGES = [
    ("kreuz mit 1 augen 0", 36, -72, False, True, False),  # Schneider, no schwarz token
    ("kreuz mit 1 augen 30", 36, -72, False, True, False),  # 30 is Schneider: 12 × 3
    ("kreuz mit 1 augen 31", 24, -48, False, False, False),  # 31 is not
    ("kreuz mit 1 augen 60", 24, -48, False, False, False),  # 60:60 is lost
    ("kreuz mit 1 augen 61", 24, 24, True, False, False),
    ("kreuz mit 1 augen 89", 24, 24, True, False, False),  # 89 is not Schneider
    ("kreuz mit 1 augen 90", 36, 36, True, True, False),  # 90 is
    ("kreuz mit 1 augen 120", 36, 36, True, True, False),  # 120 points are not Schwarz
    ("kreuz mit 1 schwarz augen 120", 48, 48, True, True, True),  # 12 × 4
    ("kreuz mit 1 schwarz verloren augen 0", 48, -96, False, True, True),
    ("kreuz mit 1 schwarz augen 0", 48, -96, False, True, True),
    ("kreuz mit 1 schneider augen 95", 36, 36, True, True, False),
    ("kreuz mit 1 schneider augen 25", 36, -72, False, True, False),
    ("kreuz mit 1 gewonnen augen 61", 24, 24, True, False, False),
    ("kreuz mit 1 verloren augen 60", 24, -48, False, False, False),
    ("kreuz mit 1 verloren augen 30", 36, -72, False, True, False),
    ("grand ohne 2 augen 100", 96, 96, True, True, False),  # 24 × (2 + 1 + 1)
]


@pytest.mark.parametrize(("text", "value", "score", "won", "schneider", "schwarz"), POINT_EDGES)
def test_card_point_edges(
    text: str, value: int, score: int, won: bool, schneider: bool, schwarz: bool
) -> None:
    r = ev(text)
    assert (r.value, r.score, r.won) == (value, score, won)
    assert (r.schneider, r.schwarz) == (schneider, schwarz)


@pytest.mark.parametrize(
    "text",
    [
        "kreuz mit 1 schwarz augen 119",
        "kreuz mit 1 schwarz augen 1",
        "kreuz mit 1 schwarz verloren augen 120",
        "kreuz mit 1 schwarz gewonnen augen 0",
        "kreuz mit 1 schneider augen 70",
        "kreuz mit 1 schneider augen 89",
        "kreuz mit 1 schneider augen 31",
    ],
)
def test_levels_contradicting_points_refused(text: str) -> None:
    with pytest.raises(ContradictionError):
        ev(text)


@pytest.mark.parametrize("points", [121, 200, 9999])
def test_card_points_above_120_refused(points: int) -> None:
    with pytest.raises(RuleError, match="120"):
        ev(f"kreuz mit 1 augen {points}")


def test_result_missing_refused() -> None:
    with pytest.raises(RuleError, match="Ergebnis fehlt"):
        ev("kreuz mit 1 hand")


# --- announcements ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "same"),
    [
        ("kreuz mit 1 schneider angesagt gewonnen", "kreuz mit 1 hand schneider angesagt gewonnen"),
        ("kreuz mit 1 sa gewonnen", "kreuz mit 1 hand sa gewonnen"),
        ("grand ohne 2 schwarz angesagt gewonnen", "grand ohne 2 hand swa gewonnen"),
        ("grand ohne 2 swa verloren", "grand ohne 2 hand swa verloren"),
    ],
)
def test_announcing_implies_hand_and_says_so(text: str, same: str) -> None:
    """Only a Hand game announces: the announcement sets Hand, as ouvert does, with a note."""
    a, notes = parse_with_notes(text)
    assert a.hand
    assert a == parse_with_notes(same)[0]
    assert any("Hand automatisch" in n for n in notes)
    assert ev(text).value == ev(same).value


def test_schwarz_announced_implies_schneider_announced() -> None:
    a, notes = parse_with_notes("kreuz mit 1 hand schwarz angesagt gewonnen")
    assert a.schwarz_announced and a.schneider_announced
    assert any("Schneider angesagt" in n for n in notes)
    # 12 × (1 + Spiel + Hand + Schneider + angesagt + Schwarz + angesagt) = 12 × 7
    assert ev("kreuz mit 1 hand schwarz angesagt gewonnen").value == 84


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("kreuz ouvert mit 2 gewonnen", 108),  # 12 × (2 + 7)
        ("grand ouvert ohne 1 gewonnen", 192),  # 24 × (1 + 7)
        ("karo offen mit 1 gewonnen", 72),  # 9 × (1 + 7)
        ("pik ouvert hand mit 3 gewonnen", 110),  # 11 × (3 + 7), hand typed too
    ],
)
def test_suit_and_grand_ouvert_imply_hand_and_announcements(text: str, value: int) -> None:
    a, _ = parse_with_notes(text)
    assert a.ouvert and a.hand and a.schneider_announced and a.schwarz_announced
    assert ev(text).value == value


@pytest.mark.parametrize("text", ["kreuz ouvert mit 2 gewonnen", "grand offen ohne 4 +"])
def test_ouvert_note_says_what_was_set(text: str) -> None:
    _, notes = parse_with_notes(text)
    assert len(notes) == 1
    assert "Ouvert" in notes[0] and "automatisch" in notes[0]


def test_ouvert_note_in_result_when_evaluating_raw_announcement() -> None:
    r = evaluate(Announcement(GameType.GRAND, matadors=1, ouvert=True, won=True))
    assert any("automatisch" in n for n in r.notes)
    assert r.value == 192


@pytest.mark.parametrize(
    ("text", "value", "hand"),
    [
        ("null ouvert gewonnen", 46, False),
        ("null ouvert hand gewonnen", 59, True),
        ("null offen hand +", 59, True),
    ],
)
def test_null_ouvert_with_and_without_hand(text: str, value: int, hand: bool) -> None:
    a, notes = parse_with_notes(text)
    assert a.hand is hand
    assert not a.schneider_announced and not a.schwarz_announced
    assert notes == ()
    assert ev(text).value == value


# text, value, score (all lost)
LOST_ANNOUNCED = [
    ("kreuz mit 1 hand sa augen 85", 60, -120),  # 12 × 5: Schneider + angesagt count
    ("kreuz mit 1 hand schneider angesagt augen 89", 60, -120),
    ("kreuz mit 1 hand sa verloren", 60, -120),
    ("kreuz mit 1 hand sa augen 20", 60, -120),  # declarer Schneider: still one level
    ("kreuz mit 1 hand sa augen 60", 60, -120),
]


@pytest.mark.parametrize(("text", "value", "score"), LOST_ANNOUNCED)
def test_missed_announcement_lost_and_counted(text: str, value: int, score: int) -> None:
    r = ev(text)
    assert (r.value, r.score, r.won, r.overbid) == (value, score, False, False)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # 24 × (2 + Spiel + Hand + Schneider + angesagt + Schwarz + angesagt) = 24 × 8
        ("grand ohne 2 hand swa augen 100", 192),
        ("grand ohne 2 hand swa augen 120", 192),  # 120 points without `schwarz`: a trick lost
        ("grand ohne 2 hand swa verloren", 192),
        ("kreuz ouvert mit 2 verloren", 108),  # 12 × 9
        ("kreuz ouvert mit 2 augen 95", 108),
    ],
)
def test_missed_schwarz_announcement(text: str, value: int) -> None:
    r = ev(text)
    assert (r.value, r.score, r.won) == (value, -2 * value, False)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("grand ohne 2 hand swa schwarz augen 120", 192),
        ("kreuz ouvert mit 2 schwarz augen 120", 108),
    ],
)
def test_schwarz_announcement_made(text: str, value: int) -> None:
    r = ev(text)
    assert (r.value, r.score, r.won) == (value, value, True)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("kreuz mit 1 hand swa gewonnen augen 120", 84),  # 12 × 7
        ("kreuz ouvert mit 2 gewonnen augen 120", 108),  # 12 × 9
    ],
)
def test_won_schwarz_announcement_with_120_points(text: str, value: int) -> None:
    r = ev(text)
    assert (r.value, r.score, r.won) == (value, value, True)


@pytest.mark.parametrize(
    "text",
    [
        "kreuz mit 1 gewonnen augen 50",
        "kreuz mit 1 gewonnen augen 60",
        "kreuz mit 1 hand sa gewonnen augen 85",
        "kreuz mit 1 hand schneider angesagt gewonnen augen 89",
        "kreuz mit 1 verloren augen 70",
        "kreuz mit 1 verloren augen 61",
        "grand mit 2 reiz 72 verloren augen 70",  # value == bid: not overbid
    ],
)
def test_outcome_contradicting_points_refused(text: str) -> None:
    with pytest.raises(ContradictionError):
        ev(text)


def test_verloren_with_won_points_allowed_when_overbid() -> None:
    r = ev("karo mit 1 reiz 30 verloren augen 70")
    assert (r.value, r.score, r.won, r.overbid) == (36, -72, False, True)


# --- overbid ------------------------------------------------------------------------------

# text, played value, value, score, won, overbid
OVERBID = [
    ("karo mit 1 reiz 30 gewonnen", 18, 36, -72, False, True),  # 9 × 4 = 36 ≥ 30
    ("karo mit 1 reiz 27 gewonnen", 18, 27, -54, False, True),  # exactly 9 × 3
    ("herz mit 1 reiz 33 augen 95", 30, 40, -80, False, True),  # 10 × 3 = 30 < 33 → 40
    ("grand mit 1 reiz 60 gewonnen", 48, 72, -144, False, True),  # 24 × 3 = 72 ≥ 60
    ("grand mit 1 reiz 264 gewonnen", 48, 264, -528, False, True),
    ("null reiz 24 gewonnen", 23, 35, -70, False, True),
    ("null reiz 35 gewonnen", 23, 35, -70, False, True),
    ("null hand reiz 36 gewonnen", 35, 46, -92, False, True),
    ("null ouvert reiz 50 gewonnen", 46, 59, -118, False, True),
    ("null reiz 48 verloren", 23, 59, -118, False, True),
    ("null ouvert hand reiz 59 gewonnen", 59, 59, 59, True, False),  # value == bid
    ("null reiz 23 gewonnen", 23, 23, 23, True, False),
    ("grand mit 2 reiz 72 gewonnen", 72, 72, 72, True, False),  # value == bid
    ("karo mit 1 reiz 18 gewonnen", 18, 18, 18, True, False),
    ("karo mit 1 reiz 27 augen 95", 27, 27, 27, True, False),  # Schneider reaches the bid
    ("kreuz mit 1 reiz 36 augen 30", 36, 36, -72, False, False),  # declarer Schneider: 36
    ("kreuz mit 1 reiz 48 augen 30", 36, 48, -96, False, True),
]


@pytest.mark.parametrize(("text", "played", "value", "score", "won", "overbid"), OVERBID)
def test_overbid(text: str, played: int, value: int, score: int, won: bool, overbid: bool) -> None:
    r = ev(text)
    assert (r.played_value, r.value, r.score, r.won, r.overbid) == (
        played,
        value,
        score,
        won,
        overbid,
    )


@pytest.mark.parametrize("bid", [60, 63, 264])
def test_no_null_reaches_a_bid_above_59(bid: int) -> None:
    with pytest.raises(RuleError, match="59"):
        ev(f"null ouvert hand reiz {bid} gewonnen")


# --- bids ---------------------------------------------------------------------------------

ALL_BIDS = (
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63,
    66, 70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132,
    135, 140, 143, 144, 150, 153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187, 192, 198,
    204, 216, 240, 264,
)  # fmt: skip


def test_bid_values_are_the_63_real_game_values() -> None:
    assert len(BID_VALUES) == 63
    assert min(BID_VALUES) == 18 and max(BID_VALUES) == 264
    assert BID_VALUES == ALL_BIDS


@pytest.mark.parametrize("bid", ALL_BIDS)
def test_every_bid_value_accepted(bid: int) -> None:
    assert check_bid(bid) == bid


@pytest.mark.parametrize(
    ("bid", "lower", "upper"),
    [
        (19, 18, 20),
        (21, 20, 22),
        (17, None, 18),
        (0, None, 18),
        (265, 264, None),
        (241, 240, 264),
        (25, 24, 27),
    ],
)
def test_invalid_bid_names_nearest(bid: int, lower: int | None, upper: int | None) -> None:
    assert nearest_bids(bid) == (lower, upper)
    with pytest.raises(InvalidBidError) as exc:
        check_bid(bid)
    assert (exc.value.lower, exc.value.upper) == (lower, upper)
    for n in (lower, upper):
        if n is not None:
            assert str(n) in str(exc.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("herz mit 1 reiz 19 gewonnen", "19 ist kein Reizwert – nächste gültige: 18 oder 20."),
        ("herz mit 1 reiz 17 gewonnen", "17 ist kein Reizwert – nächste gültige: 18."),
        ("herz mit 1 reiz 265 gewonnen", "265 ist kein Reizwert – nächste gültige: 264."),
    ],
)
def test_invalid_bid_message(text: str, message: str) -> None:
    with pytest.raises(InvalidBidError) as exc:
        ev(text)
    assert exc.value.message == message


def test_normalize_refuses_invalid_bid_on_raw_announcement() -> None:
    with pytest.raises(InvalidBidError):
        normalize(Announcement(GameType.NULL, bid=19, won=True))
