"""Every lost game carries the rule that lost it; a won game carries none."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from skatbot.rules import Announcement, evaluate, parse_announcement
from skatbot.rules.house import Ramsch
from skatbot.rules.value import WIN_MIN, LossReason
from tests.rules.test_properties import announcements


def reason(text: str) -> LossReason | None:
    return evaluate(parse_announcement(text)).loss_reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("grand mit 1 hand gewonnen", None),
        ("grand mit 1 hand verloren", LossReason.TYPED),
        ("null verloren", LossReason.TYPED),
        ("kreuz mit 2 augen 60", LossReason.POINTS),
        ("kreuz mit 2 verloren augen 40", LossReason.POINTS),
        # Schneider announced: 89 is not Schneider, 90 is
        ("kreuz mit 2 hand sa augen 89", LossReason.SCHNEIDER_MISSED),
        ("kreuz mit 2 hand sa augen 90", None),
        # Schwarz announced: card points alone never make Schwarz (tricks do)
        ("grand mit 1 hand swa augen 120", LossReason.SCHWARZ_MISSED),
        ("grand mit 1 hand swa augen 100", LossReason.SCHWARZ_MISSED),
        ("grand mit 1 hand swa schwarz augen 120", None),
        ("grand ouvert mit 1 augen 120", LossReason.OUVERT_NOT_SCHWARZ),
        ("grand ouvert mit 1 schwarz augen 120", None),
        # fewer than 61 points decides before the announcement
        ("grand mit 1 hand swa augen 50", LossReason.POINTS),
        # overbid: the reason when play alone would have won
        ("karo mit 1 reiz 30 gewonnen", LossReason.OVERBID),
        ("karo mit 1 reiz 30 augen 70", LossReason.OVERBID),
        ("karo mit 1 reiz 30 verloren", LossReason.OVERBID),
        ("karo mit 1 reiz 30 augen 40", LossReason.POINTS),
        ("null reiz 30 gewonnen", LossReason.OVERBID),
    ],
)
def test_loss_reason(text: str, expected: LossReason | None) -> None:
    assert reason(text) is expected


@settings(max_examples=800)
@given(announcements(house=True))
def test_a_game_is_lost_exactly_when_it_has_a_reason(a: Announcement) -> None:
    try:
        r = evaluate(a)
    except ValueError:  # contradictions are refused, nothing to explain
        return
    assert r.won is (r.loss_reason is None)
    if r.loss_reason is LossReason.OVERBID:
        assert r.overbid
    if r.overbid:
        assert r.loss_reason is not None
    points = a.card_points
    if points is not None and not r.won:
        assert (r.loss_reason is LossReason.POINTS) == (points < WIN_MIN)
        assert r.loss_reason is not LossReason.TYPED
    if r.loss_reason in (LossReason.SCHWARZ_MISSED, LossReason.OUVERT_NOT_SCHWARZ):
        assert a.schwarz_announced and not a.schwarz
        assert (r.loss_reason is LossReason.OUVERT_NOT_SCHWARZ) == a.ouvert
    if r.loss_reason is LossReason.SCHNEIDER_MISSED:
        assert a.schneider_announced and points is not None and WIN_MIN <= points < 90


def test_jungfrau_does_not_count_with_durchmarsch() -> None:
    dm = Ramsch(durchmarsch=1, pushes=1, virgins=1)
    assert (dm.counted_virgins, dm.ignored_virgins, dm.factor) == (0, 1, 2)
    plain = Ramsch(losers=(0,), points=55, pushes=1, virgins=1)
    assert (plain.counted_virgins, plain.ignored_virgins, plain.factor) == (1, 0, 4)
