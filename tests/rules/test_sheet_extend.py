"""Sheet.extended (the incremental path used after every new booking) equals a full replay."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules.house import HouseRules
from skatbot.rules.sheet import LogRow, RowKind, Sheet, replay

GAMES = [
    "Grand ohne 1 Hand gewonnen",
    "Kreuz mit 2 verloren",
    "Herz mit 1 Reiz 30 gewonnen",
    "Null ouvert verloren",
    "Karo mit 1 Augen 60",
    "Grand mit 1 Kontra Re gewonnen",
]


def view(sheet: Sheet) -> tuple[object, ...]:
    return (
        [(e.row.id, e.nr, e.status, e.points, e.house) for e in sheet.entries],
        sheet.next_dealer,
        sheet.state,
        sheet.games_played,
    )


@st.composite
def logs(draw: st.DrawFn) -> tuple[list[LogRow], LogRow, bool]:
    house = draw(st.booleans())
    rows: list[LogRow] = []
    plays: list[int] = []
    dealer = 0
    for i in range(1, draw(st.integers(0, 30)) + 1):
        choice = draw(st.sampled_from(["game", "pass", "cancel", "correct", "dealer", "bock"]))
        if choice in ("cancel", "correct") and plays:
            target = draw(st.sampled_from(plays))
            if choice == "cancel":
                rows.append(LogRow(i, RowKind.CANCEL, target=target))
            else:
                rows.append(LogRow(i, RowKind.PASS, dealer=0, target=target))
        elif choice == "dealer":
            rows.append(LogRow(i, RowKind.DEALER, seat=draw(st.integers(0, 2))))
        elif choice == "bock" and house:
            rows.append(LogRow(i, RowKind.BOCK))
        else:
            text = draw(st.sampled_from(GAMES if house else GAMES[:5]))
            kind = RowKind.GAME if choice != "pass" else RowKind.PASS
            rows.append(LogRow(i, kind, dealer, 1, text if kind is RowKind.GAME else None))
            plays.append(i)
            dealer = (dealer + 1) % 3
    new_id = len(rows) + 1
    text = draw(st.sampled_from(GAMES if house else GAMES[:5]))
    new = LogRow(new_id, RowKind.GAME, draw(st.integers(0, 2)), 2, text)
    return rows, new, house


@settings(max_examples=200, deadline=None)
@given(logs())
def test_extended_equals_full_replay(case: tuple[list[LogRow], LogRow, bool]) -> None:
    rows, new, house = case
    rules = HouseRules() if house else None
    players = ["Anna", "Bernd", "Carla"]
    before = replay(players, rows, house=rules, series_length=200)
    full = replay(players, [*rows, new], house=rules, series_length=200)
    assert view(before.extended(new)) == view(full)
    # The totals too: computed from scratch, and carried on from the parent's bookings.
    assert before.extended(new).standings() == full.standings()
    before.totals()
    assert before.extended(new).totals() == full.totals()
