"""An undo row takes back the latest change of a list's log (a booking, a strike, a
correction): replayed, the list is the list before that change; undoing again takes back
the change before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules.sheet import LogRow, RowKind, Sheet, latest_change, replay

PLAYERS = ("Anna", "Bernd", "Carla")
GAMES = (
    "Grand ohne 1 Hand gewonnen",
    "Kreuz mit 2 gewonnen",
    "Null verloren",
    "Pik mit 1 verloren",
)

# an operation: ("book", declarer, game), ("strike", pick), ("correct", pick, declarer, game)
Op = tuple[str, int, int, int]
ops = st.lists(
    st.tuples(
        st.sampled_from(("book", "book", "strike", "correct")),
        st.integers(0, 50),
        st.integers(0, 2),
        st.integers(0, len(GAMES) - 1),
    ),
    min_size=1,
    max_size=25,
)


def _sheet(rows: list[LogRow]) -> Sheet:
    return replay(PLAYERS, rows)


def _apply(rows: list[LogRow], op: Op) -> LogRow | None:
    """The row ``op`` appends to ``rows`` (None: nothing to strike or correct)."""
    kind, pick, declarer, game = op
    sheet = _sheet(rows)
    new_id = len(rows) + 1
    if kind == "book":
        return LogRow(new_id, RowKind.GAME, sheet.next_dealer, declarer, GAMES[game])
    if not sheet.valid:
        return None
    entry = sheet.valid[pick % len(sheet.valid)]
    if kind == "strike":
        return LogRow(new_id, RowKind.CANCEL, target=entry.row.id)
    return LogRow(new_id, RowKind.GAME, entry.row.dealer, declarer, GAMES[game], entry.row.id)


def _undo(rows: list[LogRow]) -> LogRow:
    change = latest_change(rows)
    assert change is not None
    return LogRow(len(rows) + 1, RowKind.UNDO, target=change.id)


@settings(max_examples=200, deadline=None)
@given(ops, st.integers(1, 5))
def test_undo_replays_to_the_list_before_the_change(operations: list[Op], undos: int) -> None:
    rows: list[LogRow] = []
    before: list[Sheet] = []  # the sheet before each change
    for op in operations:
        row = _apply(rows, op)
        if row is not None:
            before.append(_sheet(rows))
            rows.append(row)
    for _ in range(min(undos, len(before))):
        rows.append(_undo(rows))
        assert _sheet(rows) == before.pop()


def test_an_undo_is_never_undone_itself() -> None:
    rows = [
        LogRow(1, RowKind.GAME, 0, 1, GAMES[0]),
        LogRow(2, RowKind.GAME, 1, 2, GAMES[1]),
        LogRow(3, RowKind.UNDO, target=2),
    ]
    change = latest_change(rows)
    assert change is not None and change.id == 1  # the change before, not the undo
    rows.append(LogRow(4, RowKind.UNDO, target=1))
    assert latest_change(rows) is None
    assert _sheet(rows).games_played == 0
    assert _sheet(rows).next_dealer == 0


def test_an_undone_strike_gives_the_game_its_number_back() -> None:
    rows = [
        LogRow(1, RowKind.GAME, 0, 1, GAMES[0]),
        LogRow(2, RowKind.GAME, 1, 2, GAMES[1]),
        LogRow(3, RowKind.CANCEL, target=1),
        LogRow(4, RowKind.UNDO, target=3),
    ]
    sheet = _sheet(rows)
    assert [e.nr for e in sheet.valid] == [1, 2]
    assert sheet == _sheet(rows[:2])
