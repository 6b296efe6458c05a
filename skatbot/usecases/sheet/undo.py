"""``/rueckgaengig`` (typed also ``/rückgängig``) and "↩️ Rückgängig" under a strike or a
correction: the latest change of the running list taken back.

A change is a booking, a correction or a strike (``rules.sheet.CHANGES``). Taking it back
appends an undo row naming it: the list stays an append-only log, and the replay reads it as
if the change had never been written. A second ``/rueckgaengig`` takes back the change
before; an undo is never itself undone (what was taken back is entered again: ``/spiel``,
``/storno N``, ``/korrigieren N``).

Who may: whoever made the change, or a chat admin (``rights.CHANGE_MAKER``, checked by
:func:`may_undo` before the use case runs). The button names the change's log row: pressed
after the list changed again, it takes back nothing and says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from skatbot.rules.errors import RuleError
from skatbot.rules.sheet import LogRow, RowKind, Sheet, latest_change, undone_ids
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards, texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Answer, Command, Reply
from skatbot.usecases.common.rights import owns
from skatbot.usecases.sheet.booking import Keys, book
from skatbot.usecases.sheet.lists import require_list

COMMAND = "/rueckgaengig"
DATA = re.compile(r"v1:u:([0-9]{1,10})")


@dataclass(frozen=True)
class Undo:
    """/rueckgaengig: the latest change of the running list."""


@dataclass(frozen=True)
class UndoTap:
    """ "↩️ Rückgängig" (``v1:u:<row id>``): the change written as that row (0: data that is
    no such button's)."""

    row_id: int


def parse(cmd: Command) -> Undo:
    if cmd.args:
        raise RuleError(
            f"{COMMAND} nimmt immer die letzte Änderung zurück – ohne Nummer oder weitere Wörter.",
            hint=f"Einfach {COMMAND} senden. Ein bestimmtes Spiel streichen: /storno N · "
            "ändern: /korrigieren N …",
        )
    return Undo()


def parse_tap(cmd: Command) -> UndoTap:
    found = DATA.fullmatch(cmd.args[0] if cmd.args else "")
    return UndoTap(int(found[1]) if found else 0)


# --- what a change is, in words -------------------------------------------------------------


def _title(sheet: Sheet, row_id: int) -> tuple[int | None, str]:
    """The number and title of the play written as ``row_id`` on ``sheet``."""
    for entry in sheet.entries:
        if entry.row.id == row_id:
            return entry.nr, texts.entry_title(sheet, entry)
    return None, ""


def describe(sheet: Sheet, row: LogRow) -> str:
    """The change ``row`` as the list shows it now (``sheet``: before taking it back), e.g.
    "Spiel 7 (Anna: Grand ohne 1 – gewonnen)", "das Streichen von Spiel 3", "die Korrektur
    von Spiel 2" (HTML)."""
    if row.kind is RowKind.CANCEL and row.target is not None:
        _, title = _title(sheet, row.target)
        return f"das Streichen eines Spiels ({title})" if title else "ein Streichen"
    nr, title = _title(sheet, row.id)
    if row.target is not None:
        return f"die Korrektur von Spiel {nr}" if nr else "eine Korrektur"
    return f"Spiel {nr} ({title})" if nr else f"ein Spiel ({title})"


# --- the right ----------------------------------------------------------------------------------


def may_undo(session: Session, place: Place, request: object) -> None:
    """``rights.CHANGE_MAKER``: whoever made the change, or a chat admin. A request that
    names no change of the running list passes: the use case says what is wrong."""
    loaded = lists_store.open_list_loaded(session, place.id)
    if loaded is None:
        return
    if isinstance(request, UndoTap):
        row_id: int | None = request.row_id
    else:
        latest = latest_change(loaded.rows)
        row_id = latest.id if latest is not None else None
    author = lists_store.row_author(session, loaded.lst, row_id) if row_id else None
    if author is None or place.asker.is_admin or owns(place.asker.user_id, author.user_id):
        return
    who = author.name or "wer sie gemacht hat"
    by = f"ist von {author.name}" if author.name else "hat jemand anderes gemacht"
    raise RuleError(
        f"Die letzte Änderung {by} – zurücknehmen dürfen nur {who} und die Admins. "
        "Nichts geändert.",
        hint="Darum bitten – oder richtigstellen, wie jeder darf: /korrigieren N … · /storno N",
    )


# --- taking it back -----------------------------------------------------------------------------


def rueckgaengig(session: Session, place: Place, request: Undo) -> Reply:
    loaded = require_list(session, place)
    row = latest_change(loaded.rows)
    if row is None:
        raise RuleError(
            "Es gibt nichts zurückzunehmen – in dieser Liste ist nichts (mehr) eingetragen.",
            hint="Ein Spiel eintragen: /spiel NAME … – oder /spiel ohne Worte für die Knöpfe.",
        )
    return _take_back(session, place, loaded, row)


def undo_tap(session: Session, place: Place, request: UndoTap) -> Answer:
    """ "↩️ Rückgängig": the change under which it was put, if that is still the latest."""
    if not request.row_id:
        return Answer(notice="Diesen Knopf kenne ich nicht – nichts geändert.")
    loaded = lists_store.open_list_loaded(session, place.id)
    mine = loaded is not None and any(r.id == request.row_id for r in loaded.rows)
    if loaded is None or not mine:
        return Answer(
            notice="Diese Liste läuft nicht mehr – nichts zurückgenommen.", alert=True, buttons=()
        )
    if request.row_id in undone_ids(loaded.rows):
        return Answer(notice="Das ist schon zurückgenommen.", alert=True, buttons=())
    latest = latest_change(loaded.rows)
    if latest is None or latest.id != request.row_id:
        later = describe(loaded.sheet, latest) if latest is not None else "etwas anderes"
        return Answer(
            notice=(
                "Dieser Knopf gilt nicht mehr: danach wurde die Liste noch geändert "
                f"(zuletzt: {_plain(later)}). Nichts zurückgenommen. 👉 {COMMAND} nimmt "
                "die letzte Änderung zurück, /liste zeigt alle Spiele."
            ),
            alert=True,
            buttons=(),
        )
    reply = _take_back(session, place, loaded, latest)
    return Answer(notice="Zurückgenommen.", buttons=(), send=reply)


def _plain(html: str) -> str:
    """A callback notice is plain text: the marks of a struck title go."""
    return re.sub(r"</?s>", "", html)


def _take_back(
    session: Session, place: Place, loaded: lists_store.LoadedList, row: LogRow
) -> Reply:
    """Append the undo row of change ``row`` and word what the list is now."""
    what = describe(loaded.sheet, row)
    undo = {"kind": RowKind.UNDO, "target": row.id}
    booked = book(session, place, loaded, row=undo, keys=Keys.HEALTH)
    after = booked.after
    if row.target is None:  # a booking
        lines = [f"↩️ Zurückgenommen: {what}.", "Das Spiel ist von der Liste genommen."]
    else:  # the game the strike or correction was about, as it is again
        nr, title = _title(after, row.target)
        if row.kind is RowKind.CANCEL:
            lines = [f"↩️ Zurückgenommen: das Streichen von Spiel {nr}."]
            lines.append(f"Spiel {nr} zählt wieder: {title}.")
        else:
            lines = [f"↩️ Zurückgenommen: {what}."]
            lines.append(f"Spiel {nr} gilt wieder wie vorher: {title}.")
    lines.append(f"Stand: {texts.standings_line(after, loaded.lst.seed)}")
    lines.append(texts.progress(after))
    lines.append(f"👉 Noch eine Änderung zurück: {COMMAND}")
    buttons = (keyboards.new_game_row(), *booked.buttons)
    return Reply("\n".join(lines), buttons=buttons, edits=booked.edits)
