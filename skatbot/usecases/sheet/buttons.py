"""The buttons under the bot's replies (common/keyboards.py makes them): one use case per button,
``fn(session, cmd) -> Answer``, each a line of the route table (``handlers/routes.py``) with
the pattern of its callback data. ``cmd.args == (data,)``; ``runtime.execute_callback`` has
checked that the data is on a button of the tapped message.

The game builder's own buttons (``v1:b:…``) are ``builder.builder_tap``; /abschluss's
question is ``documents.close_tap``.
"""

from __future__ import annotations

import dataclasses
import re

from skatbot.rules.grammar import parse_announcement
from skatbot.rules.sheet import Entry
from skatbot.storage import lists as lists_store
from skatbot.storage import questions
from skatbot.storage.database import lock_chat
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm, keyboards
from skatbot.usecases.common.confirm import Shown
from skatbot.usecases.common.reply import Answer, Command
from skatbot.usecases.sheet.builder import state as bs
from skatbot.usecases.sheet.builder.commands import UNKNOWN, open_builder, valid_entry
from skatbot.usecases.sheet.commands import stand, storno

# v1:<kind>:<row id>, and for "Ja, stornieren" the question's seal (common/confirm.py; an
# older version's v1:sj:<row id> without one asks again)
DATA_ROW = re.compile(r"v1:(k|s|sj|sn):([0-9]{1,10})(?::([0-9a-f]{16}))?")


def _data(cmd: Command) -> str:
    return cmd.args[0] if cmd.args else ""


# --- under a booking: Korrigieren, Stornieren (ask, yes, no) -----------------------------------


def _booked_entry(
    session: Session, cmd: Command, kind: str
) -> tuple[lists_store.LoadedList, Entry, int] | Answer:
    """The still valid game a row button (``v1:<kind>:<row id>``) is about, or the answer
    that it is gone."""
    m = DATA_ROW.fullmatch(_data(cmd))
    if m is None or m.group(1) != kind or (m.group(3) is not None and kind != "sj"):
        return Answer(notice=UNKNOWN)
    row_id = int(m.group(2))
    lock_chat(session, cmd.place_id)
    lst = lists_store.open_list(session, cmd.place_id)
    if lst is None:
        return Answer(notice="Hier läuft keine Liste mehr.", buttons=())
    loaded = lists_store.load(session, lst)
    entry = valid_entry(loaded, row_id)
    if entry is None or entry.nr is None:
        return Answer(
            notice="Dieses Spiel wurde inzwischen korrigiert oder storniert – /liste zeigt es.",
            buttons=(keyboards.new_game_row(),),
        )
    return loaded, entry, row_id


def korrigieren(session: Session, cmd: Command) -> Answer:
    """ "Korrigieren" (``v1:k:<row id>``): a builder prefilled with that game."""
    found = _booked_entry(session, cmd, "k")
    if isinstance(found, Answer):
        return found
    loaded, entry, _ = found
    state = bs.State(view="p")
    if entry.result is not None and entry.row.announcement is not None:
        a = parse_announcement(entry.row.announcement, house=loaded.sheet.house is not None)
        state = bs.from_announcement(a, entry.row.declarer)
    return Answer(
        send=open_builder(session, cmd, target=entry, state=state, source_message_id=cmd.message_id)
    )


def _storno_shown(session: Session, loaded: lists_store.LoadedList, entry: Entry) -> Shown:
    """The game as "Spiel N stornieren?" names it: its row, as stored."""
    return Shown(
        f"row:{entry.row.id}",
        questions.thing_state(session, "rows", entry.row.id),
        f"Spiel {entry.nr} der Liste Nr. {lists_store.list_number(session, loaded.lst)}",
    )


def storno_ask(session: Session, cmd: Command) -> Answer:
    """ "Stornieren" (``v1:s:<row id>``): asks, with Ja/Nein in place of the buttons; the
    question is sealed into its Ja (it stores nothing)."""
    found = _booked_entry(session, cmd, "s")
    if isinstance(found, Answer):
        return found
    loaded, entry, row_id = found
    assert entry.nr is not None
    sealed = confirm.seal(_storno_shown(session, loaded, entry))
    return Answer(buttons=keyboards.confirm_cancel_buttons(row_id, entry.nr, sealed))


def storno_yes(session: Session, cmd: Command) -> Answer:
    """ "Ja, stornieren" (``v1:sj:<row id>:<seal>``): the game the question named, as it
    was, or nothing."""
    found = _booked_entry(session, cmd, "sj")
    if isinstance(found, Answer):
        return found
    loaded, entry, row_id = found
    assert entry.nr is not None
    shown = _storno_shown(session, loaded, entry)
    m = DATA_ROW.fullmatch(_data(cmd))
    sealed = m.group(3) if m is not None else None
    if sealed is None:  # a button of an older version: ask again
        return Answer(
            notice=f"Bitte noch einmal bestätigen: Spiel {entry.nr} stornieren?",
            buttons=keyboards.confirm_cancel_buttons(row_id, entry.nr, confirm.seal(shown)),
        )
    try:
        confirm.answer_sealed(
            sealed,
            shown,
            asked="das Spiel unter diesem Knopf",
            again=f"Neu fragen: „Stornieren“ unter dem Spiel tippen oder /storno {entry.nr}",
            undone="nichts storniert",
        )
    except confirm.NotConfirmed as refused:
        return Answer(notice=f"{refused.message} 👉 {refused.hint}", alert=True, buttons=())
    reply = storno(session, dataclasses.replace(cmd, args=(str(entry.nr),)))
    return Answer(notice="Storniert.", buttons=(), send=reply)


def storno_no(session: Session, cmd: Command) -> Answer:
    """ "Nein" (``v1:sn:<row id>``): the booking's buttons again."""
    found = _booked_entry(session, cmd, "sn")
    if isinstance(found, Answer):
        return found
    _, _, row_id = found
    return Answer(notice="Nicht storniert.", buttons=keyboards.booking_buttons(row_id))


# --- Neues Spiel, Stand, and anything else ------------------------------------------------------


def new_game(session: Session, cmd: Command) -> Answer:
    """ "Neues Spiel" (``v1:n``): opens the builder."""
    return Answer(send=open_builder(session, cmd))


def show_stand(session: Session, cmd: Command) -> Answer:
    """ "Stand" (``v1:st``): what /stand answers."""
    return Answer(send=stand(session, cmd))


def unknown(_session: Session, _cmd: Command) -> Answer:
    """Data no route knows (an older version's button): nothing changes."""
    return Answer(notice=UNKNOWN)
