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


KEEP_WORDS = ("wie", "gespielt")  # "/korrigieren 5 … wie gespielt", "/storno 5 wie gespielt"


def _replay_with(loaded: lists_store.LoadedList, *new: LogRow) -> Sheet:
    """The sheet with more rows, without another database read."""
    if (
        len(new) == 1
        and new[0].kind in PLAYS
        and new[0].target is None
        and new[0].dealer is not None
    ):
        return loaded.sheet.extended(new[0])  # the common case: no full replay needed
    lst = loaded.lst
    return replay(
        loaded.names,
        [*loaded.rows, *new],
        first_dealer=lst.first_dealer,
        series_length=loaded.sheet.series_length,
        house=rules_from_code(lst.rules),
        start=[p.start_points for p in loaded.players],
    )


def after_row(
    session: Session,
    loaded: lists_store.LoadedList,
    new: LogRow,
    command: str = "",
    keep: LogRow | None = None,
) -> Sheet:
    """The sheet with one more row (and ``keep``, the row keeping the 3B3R sequence across
    it); refuses a row that breaks the 3B3R sequence, naming every game it breaks and, when
    the sequence kept as played fits, the change "wie gespielt" (``command``: the command as
    typed, repeated in that hint when it is the change's own)."""
    rows = (new,) if keep is None else (new, keep)
    after = _replay_with(loaded, *rows)
    if after.house is not None:
        broken = _broken(loaded.sheet, after)
        if broken:
            raise _sequence_refusal(loaded, new, broken, command)
    lists_store.remember(session, loaded, new, after, rows[1:])
    return after


def _broken(before: Sheet, after: Sheet) -> dict[str, list[int]]:
    """The games a change would newly break, by reason, with their numbers as the list
    shows them now (a cancellation renumbers the games after it)."""
    numbers = {e.row.id: e.nr for e in before.valid}
    old = {e.row.id for e in before.valid if e.house is not None and e.house.violation}
    broken: dict[str, list[int]] = {}
    for e in after.valid:
        if e.house is None or not e.house.violation or e.row.id in old:
            continue
        nr = numbers.get(e.row.id) or e.nr  # a correction keeps its game's number
        if nr is not None:
            broken.setdefault(e.house.violation, []).append(nr)
    return broken


def _sequence_refusal(
    loaded: lists_store.LoadedList, new: LogRow, broken: dict[str, list[int]], command: str
) -> RuleError:
    """Every game the change breaks at once; the hint keeps all of them when it can."""
    parts = [f"{_games(nrs)} ({reason})" for reason, nrs in broken.items()]
    message = f"Das passt nicht zum Bock-/Ramsch-Ablauf – betroffen: {'; '.join(parts)}."
    if new.kind is RowKind.CANCEL or new.target is not None:
        keep = LogRow(id=new.id + 1, kind=RowKind.KEEP, target=new.id)
        if not _broken(loaded.sheet, _replay_with(loaded, new, keep)):
            line = _as_played(loaded, new, command)
            return RuleError(
                message,
                hint="Bock und Ramsch so lassen, wie sie gespielt wurden – dann bleiben alle "
                f"Spiele stehen: {line}",
            )
    return RuleError(
        message,
        hint="Diese Änderung geht nur mit anderem Ablauf: erst die genannten Spiele "
        "korrigieren (/korrigieren N …) – /liste zeigt sie.",
    )


def _games(nrs: list[int]) -> str:
    """ "Spiel 5", "Spiel 5 und 6", "Spiel 5, 6 und 7"."""
    shown = [str(n) for n in sorted(nrs)]
    if len(shown) == 1:
        return f"Spiel {shown[0]}"
    return f"Spiel {', '.join(shown[:-1])} und {shown[-1]}"


def _as_played(loaded: lists_store.LoadedList, new: LogRow, command: str) -> str:
    """The change as a command that keeps the sequence: the command as typed plus "wie
    gespielt", or (a button, an edit) the change written out as ``/korrigieren``/``/storno``."""
    words = command.split()
    if words[:1] in (["/korrigieren"], ["/storno"]):
        return " ".join([*words, *KEEP_WORDS])
    target = next(e for e in loaded.sheet.entries if e.row.id == new.target)
    if new.kind is RowKind.CANCEL:
        # an earlier game's strike asks first, and its "Ja" strikes without "wie gespielt":
        # the line that works names the answer too
        yes = " ja" if target.nr is not None and target.nr < loaded.sheet.games_played else ""
        return f"/storno {target.nr}{yes} wie gespielt"
    line = [f"/korrigieren {target.nr}"]
    if new.kind is RowKind.PASS:
        line.append("passe")
    elif new.declarer is not None and new.announcement is not None:
        line += [texts.command_name(loaded.names, new.declarer), new.announcement.lower()]
    if new.dealer is not None and new.dealer != target.row.dealer:
        line.append(f"geber {texts.command_name(loaded.names, new.dealer)}")
    return " ".join([*line, *KEEP_WORDS])


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
    keep: bool = False,
) -> Booked:
    """Change ``loaded``: the one path of every change of a list.

    ``row``: the fields of the log row to append, its ``kind`` a ``RowKind`` (the user's
    fields are added); else the change was written already - ``after`` is the sheet it gives,
    or (not given) the players changed (names, start points) and the sheet is replayed from
    the database. ``keys``: the buttons the reply gets. ``typed``: the command as sent, for
    a refusal's hint to repeat (a Command's own text unless given). ``keep``: under house
    rules the 3B3R sequence stays as played across the change (a correction or a
    cancellation: a "keep" row naming it follows it).
    """
    if typed is None:
        typed = at.text if isinstance(at, Command) else ""
    new: LogRow | None = None
    rows = len(loaded.rows)
    if row is not None:
        fields = dict(row)
        kind = fields.pop("kind")
        assert isinstance(kind, RowKind), kind
        who = user_fields(at)
        new = lists_store.append_row(session, loaded.lst, kind=kind, **fields, **who)
        kept = None
        if keep and loaded.sheet.house is not None:
            kept = lists_store.append_row(
                session, loaded.lst, kind=RowKind.KEEP, target=new.id, **who
            )
            rows += 1
        after = after_row(session, loaded, new, typed, kept)
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
    dealer = check_game(loaded.sheet, declarer, text)
    booked = book(
        session,
        at,
        loaded,
        row={"kind": RowKind.GAME, "dealer": dealer, "declarer": declarer, "announcement": text},
    )
    after = booked.after
    return booked.reply(game_text(after, after.entries[-1], loaded.lst.seed, "✅", notes))


def check_game(sheet: Sheet, declarer: int, text: str) -> int:
    """Whether the game may be booked next (``RuleError`` with the fix if not); its dealer."""
    sheet.check_can_add()
    dealer = sheet.next_dealer
    sheet.check_declarer(declarer, dealer)
    sheet.check_game_allowed(declarer, evaluate_text(text, sheet.house is not None))
    return dealer


def game_preview(loaded: lists_store.LoadedList, declarer: int, text: str) -> Sheet:
    """The sheet as ``book_game`` would leave it, computed and checked alike, nothing
    written: the Mini App shows a game's value and effect before it is booked."""
    dealer = check_game(loaded.sheet, declarer, text)
    new = LogRow(
        id=max((r.id for r in loaded.rows), default=0) + 1,
        kind=RowKind.GAME,
        dealer=dealer,
        declarer=declarer,
        announcement=text,
    )
    after = _replay_with(loaded, new)
    if after.house is not None and _broken(loaded.sheet, after):
        raise _sequence_refusal(loaded, new, _broken(loaded.sheet, after), "/spiel")
    return after


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
