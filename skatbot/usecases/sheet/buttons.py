"""The buttons under the bot's replies (common/keyboards.py makes them): one use case per button,
``fn(session, place, request) -> Answer``, each a line of the route table
(``handlers/routes.py``) with the pattern of its callback data; its parser reads the data
(``cmd.args == (data,)``). ``runtime.execute_callback`` has checked that the data is on a
button of the tapped message, and locked the place.

The game builder's own buttons (``v1:b:…``) are ``builder.builder_tap``; /abschluss's
question is ``documents.close_tap``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from skatbot.rules.grammar import parse_announcement
from skatbot.rules.sheet import Entry
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm, keyboards, wording
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Answer, Command
from skatbot.usecases.sheet.builder import state as bs
from skatbot.usecases.sheet.builder.flow import UNKNOWN, open_builder_tapped, valid_entry
from skatbot.usecases.sheet.list_changes import Cancel, storno, storno_shown
from skatbot.usecases.sheet.views import ShowStand, stand

# v1:<kind>:<row id>, and for "Ja, stornieren" the question's seal (common/confirm.py; an
# older version's v1:sj:<row id> without one asks again)
DATA_ROW = re.compile(r"v1:(k|s|sj|sn|sq):([0-9]{1,10})(?::([0-9a-f]{16}))?")


@dataclass(frozen=True)
class RowTap:
    """A button under a booking: its kind (``k``, ``s``, ``sj``, ``sn``), the row it is
    about, and the seal of the question a "Ja" answers."""

    kind: str
    row_id: int
    sealed: str | None = None


@dataclass(frozen=True)
class Tap:
    """A button that carries nothing but itself (Neues Spiel, Stand, unknown data)."""


def parse_row(cmd: Command) -> RowTap | Tap:
    m = DATA_ROW.fullmatch(cmd.args[0] if cmd.args else "")
    if m is None:
        return Tap()
    return RowTap(m.group(1), int(m.group(2)), m.group(3))


def parse_tap(cmd: Command) -> Tap:
    return Tap()


# --- under a booking: Korrigieren, Stornieren (ask, yes, no) -----------------------------------


def _entry_of(
    session: Session, place: Place, request: RowTap | Tap, kind: str
) -> tuple[lists_store.LoadedList, Entry, RowTap] | Answer:
    """The still valid game a row button (``v1:<kind>:<row id>``) is about, or the answer
    that it is gone (or that the data is no such button's)."""
    if (
        not isinstance(request, RowTap)
        or request.kind != kind
        or (request.sealed is not None and kind != "sj")
    ):
        return Answer(notice=UNKNOWN)
    lst = lists_store.open_list(session, place.id)
    if lst is None:
        return Answer(notice="Hier läuft keine Liste mehr.", buttons=())
    loaded = lists_store.load(session, lst)
    entry = valid_entry(loaded, request.row_id)
    if entry is None or entry.nr is None:
        return Answer(
            notice="Dieses Spiel wurde inzwischen korrigiert oder storniert – /liste zeigt es.",
            buttons=(keyboards.new_game_row(),),
        )
    return loaded, entry, request


def korrigieren(session: Session, place: Place, request: RowTap | Tap) -> Answer:
    """ "Korrigieren" (``v1:k:<row id>``): a builder prefilled with that game."""
    found = _entry_of(session, place, request, "k")
    if isinstance(found, Answer):
        return found
    loaded, entry, _ = found
    state = bs.State(view="p")
    if entry.result is not None and entry.row.announcement is not None:
        a = parse_announcement(entry.row.announcement, house=loaded.sheet.house is not None)
        state = bs.from_announcement(a, entry.row.declarer)
    return open_builder_tapped(
        session, place, target=entry, state=state, source_message_id=place.asker.message_id
    )


def storno_ask(session: Session, place: Place, request: RowTap | Tap) -> Answer:
    """ "Stornieren" (``v1:s:<row id>``): asks, with Ja/Nein in place of the buttons; the
    question is sealed into its Ja (it stores nothing)."""
    found = _entry_of(session, place, request, "s")
    if isinstance(found, Answer):
        return found
    loaded, entry, tap = found
    assert entry.nr is not None
    sealed = confirm.seal(storno_shown(session, loaded, entry))
    return Answer(buttons=keyboards.confirm_cancel_buttons(tap.row_id, entry.nr, sealed))


def storno_yes(session: Session, place: Place, request: RowTap | Tap) -> Answer:
    """ "Ja, stornieren" (``v1:sj:<row id>:<seal>``): the game the question named, as it
    was, or nothing."""
    found = _entry_of(session, place, request, "sj")
    if isinstance(found, Answer):
        return found
    loaded, entry, tap = found
    assert entry.nr is not None
    shown = storno_shown(session, loaded, entry)
    if tap.sealed is None:  # a button of an older version: ask again
        return Answer(
            notice=f"Bitte noch einmal bestätigen: Spiel {entry.nr} stornieren?",
            buttons=keyboards.confirm_cancel_buttons(tap.row_id, entry.nr, confirm.seal(shown)),
        )
    try:
        confirm.answer_sealed(
            tap.sealed,
            shown,
            asked="das Spiel unter diesem Knopf",
            again=f"Neu fragen: „Stornieren“ unter dem Spiel tippen oder /storno {entry.nr}",
            undone="nichts storniert",
        )
    except confirm.NotConfirmed as refused:
        return Answer(notice=f"{refused.message} 👉 {refused.hint}", alert=True, buttons=())
    reply = wording.reply_of(storno(session, place, Cancel(str(entry.nr), confirmed=True)))
    assert not isinstance(reply, Answer)
    return Answer(notice="Storniert.", buttons=(), send=reply)


def storno_no(session: Session, place: Place, request: RowTap | Tap) -> Answer:
    """ "Nein" (``v1:sn:<row id>``): the booking's buttons again; the "Nein" of a typed
    /storno N (``v1:sq:<row id>``): the question's buttons go, nothing is struck."""
    if isinstance(request, RowTap) and request.kind == "sq":
        return Answer(notice="Nichts gestrichen.", buttons=())
    found = _entry_of(session, place, request, "sn")
    if isinstance(found, Answer):
        return found
    _, _, tap = found
    return Answer(notice="Nicht storniert.", buttons=keyboards.booking_buttons(tap.row_id))


# --- Neues Spiel, Stand, and anything else ------------------------------------------------------


def new_game(session: Session, place: Place, request: Tap) -> Answer:
    """ "Neues Spiel" (``v1:n``): opens the builder."""
    return open_builder_tapped(session, place)


def show_stand(session: Session, place: Place, request: Tap) -> Answer:
    """ "Stand" (``v1:st``): what /stand answers."""
    return Answer(send=stand(session, place, ShowStand()))


def unknown(session: Session, place: Place, request: Tap) -> Answer:
    """Data no route knows (an older version's button): nothing changes."""
    return Answer(notice=UNKNOWN)
