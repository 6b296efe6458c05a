"""One path for every change of a list's sheet: ``book``.

A booking, a correction, a cancellation, a Ramsch, a rename, start points, the dealer, the
series length or a 3B3R event: each writes (a log row, or the players, or the list) and gets
back a ``Booked``: the sheet after the change, the new row, and what every reply to a change
carries - the buttons its kind of change gets (with "Alle gesund?" before a Ramsch) and the
refresh of the pinned standings. The use case then words its text from ``Booked.after`` and
``Booked.row`` and builds its reply once with ``Booked.reply(text)``: the call goes one way,
no callback back into the use case.

``book_game`` books one game given as canonical text and words its reply: ``/spiel``
(sheet/spiel.py) and the button builder (sheet/builder/commands.py) both book through it, so
the builder does not import the ``/spiel`` use case that opens it. No Telegram types here.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.rules.house import rules_from_code
from skatbot.rules.sheet import PLAYS, Entry, LogRow, RowKind, Sheet, evaluate_text, replay
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards, texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Buttons, Command, Edit, Reply
from skatbot.usecases.sheet import standings
from skatbot.usecases.sheet.lists import At


class Keys(enum.Enum):
    """The buttons under the reply of a change."""

    # Neues Spiel · Korrigieren · Stornieren · Stand (+ Alle gesund?); a correction also
    # ↩️ Rückgängig
    BOOKING = "booking"
    CANCEL = "cancel"  # ↩️ Rückgängig · Neues Spiel · Stand (+ Alle gesund?)
    HEALTH = "health"  # only "Alle gesund?" (if a Ramsch is next)
    NONE = "none"


def user_fields(at: At) -> dict[str, object]:
    """Who made a change, as its log row records them."""
    if isinstance(at, Place):
        asker = at.asker
        return {
            "user_id": asker.user_id,
            "user_name": asker.name[:128],
            "update_id": asker.update_id,
        }
    return {"user_id": at.user_id, "user_name": at.user_name[:128], "update_id": at.update_id}


def _replay_with(loaded: lists_store.LoadedList, new: LogRow) -> Sheet:
    """The sheet with one more row, without another database read."""
    if new.kind in PLAYS and new.target is None and new.dealer is not None:
        return loaded.sheet.extended(new)  # the common case: no full replay needed
    lst = loaded.lst
    return replay(
        loaded.names,
        [*loaded.rows, new],
        first_dealer=lst.first_dealer,
        series_length=loaded.sheet.series_length,
        house=rules_from_code(lst.rules),
        start=[p.start_points for p in loaded.players],
    )


def after_row(
    session: Session, loaded: lists_store.LoadedList, new: LogRow, command: str = ""
) -> Sheet:
    """The sheet with one more row; refuses a row that breaks the 3B3R sequence (the hint
    names the later game to strike first, then ``command`` again, when it is a command)."""
    after = _replay_with(loaded, new)
    if after.house is not None:
        broken = after.violations()
        if len(broken) > len(loaded.sheet.violations()):
            hint = "Erst die späteren Spiele korrigieren oder stornieren."
            later = re.match(r"Spiel ([0-9]+)", broken[-1])
            if later is not None:
                hint = f"Erst Spiel {later[1]} streichen: /storno {later[1]}"
                if command.split(maxsplit=1)[:1] == ["/korrigieren"]:  # not an edit's text
                    hint += f" – dann noch einmal: {' '.join(command.split())}"
            raise RuleError(f"Das passt nicht zum Bock-/Ramsch-Ablauf: {broken[-1]}.", hint=hint)
    lists_store.remember(session, loaded, new, after)
    return after


@dataclass(frozen=True)
class Booked:
    """A change of a list, written: the sheet after it, the row it appended (None when the
    players or the list changed), and the buttons and pinned-standings edits its reply gets."""

    after: Sheet
    row: LogRow | None
    buttons: Buttons
    edits: tuple[Edit, ...]

    def reply(self, text: str) -> Reply:
        """The reply to the change: ``text`` (worded by the use case) with its buttons and the
        refresh of the pinned standings."""
        return Reply(text, buttons=self.buttons, edits=self.edits)


def book(
    session: Session,
    at: At,
    loaded: lists_store.LoadedList,
    *,
    row: dict[str, object] | None = None,
    after: Sheet | None = None,
    keys: Keys = Keys.BOOKING,
    typed: str | None = None,
) -> Booked:
    """Change ``loaded``: the one path of every change of a list.

    ``row``: the fields of the log row to append, its ``kind`` a ``RowKind`` (the user's
    fields are added); else the change was written already - ``after`` is the sheet it gives,
    or (not given) the players changed (names, start points) and the sheet is replayed from
    the database. ``keys``: the buttons the reply gets. ``typed``: the command as sent, for
    a refusal's hint to repeat (a Command's own text unless given).
    """
    if typed is None:
        typed = at.text if isinstance(at, Command) else ""
    new: LogRow | None = None
    rows = len(loaded.rows)
    if row is not None:
        fields = dict(row)
        kind = fields.pop("kind")
        assert isinstance(kind, RowKind), kind
        new = lists_store.append_row(session, loaded.lst, kind=kind, **fields, **user_fields(at))
        after = after_row(session, loaded, new, typed)
        rows += 1
    elif after is None:
        after = lists_store.load(session, loaded.lst).sheet
    return Booked(
        after,
        new,
        buttons=_buttons(keys, new, after, loaded.lst.id, rows),
        edits=standings.refresh(session, loaded, after),
    )


def book_game(
    session: Session,
    at: At,
    loaded: lists_store.LoadedList,
    declarer: int,
    text: str,
    notes: tuple[str, ...] = (),
) -> Reply:
    """Book one game given as canonical text (``/spiel`` and the button builder)."""
    sheet = loaded.sheet
    sheet.check_can_add()
    dealer = sheet.next_dealer
    sheet.check_declarer(declarer, dealer)
    sheet.check_game_allowed(declarer, evaluate_text(text, sheet.house is not None))
    booked = book(
        session,
        at,
        loaded,
        row={"kind": RowKind.GAME, "dealer": dealer, "declarer": declarer, "announcement": text},
    )
    after = booked.after
    return booked.reply(game_text(after, after.entries[-1], loaded.lst.seed, "✅", notes))


def game_text(sheet: Sheet, entry: Entry, seed: str, icon: str, notes: tuple[str, ...] = ()) -> str:
    """The reply to a booked game (``icon`` ✅) or a corrected one (✏️): its title, the
    parser's notes, the breakdown and booking, the standings and the next deal."""
    lines = [
        f"{icon} <b>Spiel {entry.nr}/{sheet.series_length}</b> · {texts.entry_title(sheet, entry)}"
    ]
    lines.extend(f"ℹ️ {escape(n)}" for n in notes)
    lines.extend(texts.booking_lines(sheet, entry))
    lines.append(f"Stand: {texts.standings_line(sheet, seed)}")
    lines.append(texts.progress(sheet))
    return "\n".join(lines)


def _buttons(keys: Keys, new: LogRow | None, after: Sheet, list_id: int, rows: int) -> Buttons:
    if keys is Keys.NONE:
        return ()
    first: Buttons = ()
    if keys is Keys.BOOKING and new is not None and new.target is not None:
        first = keyboards.correction_buttons(new.id)
    elif keys is Keys.BOOKING and new is not None:
        first = keyboards.booking_buttons(new.id)
    elif keys is Keys.CANCEL and new is not None:
        first = keyboards.after_cancel_buttons(new.id)
    return keyboards.with_health(first, after, list_id, rows)
