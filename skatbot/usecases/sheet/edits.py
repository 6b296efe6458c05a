"""Edited messages as use cases: an edit of a message that booked a game corrects that
booking (``handlers/edits.py`` has the rules of what an edit does and the PTB glue).

The runtime links the message of a ``/spiel``, ``/korrigieren`` or ``/eingepasst`` to the
row it booked (``storage.message_links``), and the delivery the bot's reply to it once sent;
``apply_edit`` corrects the booking of an edited message like ``/korrigieren N …`` would.
"""

from __future__ import annotations

import dataclasses

from skatbot.rules.errors import RuleError
from skatbot.rules.sheet import Entry, Sheet, Status
from skatbot.storage import lists as lists_store
from skatbot.storage import message_links
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Command, Edit, Reply
from skatbot.usecases.sheet.list_changes import (
    correction_fields,
    unchanged,
    without_number_prefix,
    write_correction,
)

NOT_APPLIED = "Bearbeitung nicht übernommen:"


def apply_edit(
    session: Session, cmd: Command, name: str
) -> tuple[Reply, str, message_links.Link | None]:
    """Correct what the edited message booked: what to send, the text to record, and the
    message's link when the reply is a new message answering it (to be recorded once sent)."""
    assert cmd.source_message_id is not None
    words = list(without_number_prefix(cmd.args) if name == "korrigieren" else cmd.args)
    typed = f"/{name} {' '.join(cmd.args)}".rstrip()
    link, loaded, entry = _edited_entry(session, cmd, name, words, typed)
    nr = entry.nr
    assert nr is not None
    rest = _game_words(name, words)
    example = f"{loaded.names[0]} grand ohne 1 hand gewonnen"
    line = f"/korrigieren {nr} {' '.join(rest) or example}"
    if name == "korrigieren" and (not words or words[0] != str(nr)):
        raise RuleError(
            f"{NOT_APPLIED} Diese Nachricht hat Spiel {nr} korrigiert; die Nummer lässt sich "
            "durch Bearbeiten nicht ändern.",
            hint=f"Spiel {nr} ändern: {line}\n👉 Ein anderes Spiel: als neue Nachricht "
            "/korrigieren mit seiner Nummer (siehe /liste).",
        )
    try:
        if name == "spiel" and not rest:
            raise RuleError("Wer hat gespielt und was?", hint=f"Z. B. /spiel {example}")
        fields, notes = correction_fields(loaded, nr, rest)
        if unchanged(entry, fields):
            return Reply(""), "", None
        corrected = write_correction(session, cmd, loaded, nr, fields, notes)
    except RuleError as err:
        hints = [h for h in (err.hint, f"Zum Korrigieren: {line}") if h]
        raise RuleError(
            f"{NOT_APPLIED} {err.message} Spiel {nr} bleibt, wie es war.",
            hint="\n👉 ".join(hints),
        ) from err
    shown = _show(link, corrected)
    return shown, corrected.text, (link if shown.text else None)


def _edited_entry(
    session: Session, cmd: Command, name: str, words: list[str], typed: str
) -> tuple[message_links.Link, lists_store.LoadedList, Entry]:
    """The game the edited message booked, as it is now in the running list (a correction
    of it, if corrected since); refused when there is none, the list is closed or the game
    is cancelled."""
    assert cmd.source_message_id is not None
    link = message_links.find(session, cmd.place_id, cmd.source_message_id)
    booked = message_links.booked_row(session, link) if link is not None else None
    if link is None or booked is None:
        raise _nothing_booked(typed)
    row_id, list_id = booked
    loaded = lists_store.open_list_loaded(session, cmd.place_id)
    if loaded is None or loaded.lst.id != list_id:
        _refuse_closed(session, list_id, row_id, name, words)
    assert loaded is not None
    entry = current_entry(loaded.sheet, row_id)
    if entry is None:
        raise _nothing_booked(typed)
    if entry.status is Status.CANCELLED or entry.nr is None:
        example = f"{loaded.names[0]} grand ohne 1 hand gewonnen"
        again = " ".join(_game_words(name, words)) or example
        raise RuleError(
            f"{NOT_APPLIED} Dieses Spiel ist storniert.", hint=f"Neu eintragen: /spiel {again}"
        )
    return link, loaded, entry


def _nothing_booked(typed: str) -> RuleError:
    return RuleError(
        f"{NOT_APPLIED} Zu dieser Nachricht ist kein Spiel eingetragen.",
        hint=f"Als neue Nachricht schicken: {typed}",
    )


def current_entry(sheet: Sheet, row_id: int) -> Entry | None:
    """The entry that row ``row_id`` is now: itself, or the last of its corrections."""
    by_row = {e.row.id: e for e in sheet.entries}
    entry = by_row.get(row_id)
    while entry is not None and entry.corrected_by is not None:
        entry = by_row.get(entry.corrected_by)
    return entry


def _game_words(name: str, words: list[str]) -> list[str]:
    """The words that name the game (``/korrigieren``'s without its number)."""
    if name == "eingepasst":
        return ["passe"]
    if name == "korrigieren":
        return words[1:]
    return words


def _refuse_closed(
    session: Session, list_id: int, row_id: int, name: str, words: list[str]
) -> None:
    lst = lists_store.get_list(session, list_id)
    entry = current_entry(lists_store.load(session, lst).sheet, row_id) if lst is not None else None
    nr = entry.nr if entry is not None and entry.nr is not None else None
    game = f"Spiel {nr}" if nr is not None else "Das Spiel"
    line = f"/korrigieren {nr if nr is not None else 'N'} {' '.join(_game_words(name, words))}"
    raise RuleError(
        f"{NOT_APPLIED} Die Liste ist abgeschlossen; {game} bleibt, wie es war.",
        hint=f"Korrigieren geht nur, solange die Liste läuft – dort mit: {line.rstrip()}",
    )


def _show(link: message_links.Link, corrected: Reply) -> Reply:
    """Edit the bot's reply to the message; a new message if that reply is unknown (the
    caller links it: later edits edit that one)."""
    note = "✏️ <i>Nachricht bearbeitet</i> · "
    text = note + corrected.text
    if link.reply_message_id is not None:
        edit = Edit(link.reply_message_id, text, corrected.buttons)
        return Reply("", edits=(edit, *corrected.edits))
    return dataclasses.replace(corrected, text=text)
