"""Callback data of the buttons under booking replies (``v1:...``, at most 64 bytes).

The builder's own buttons are ``v1:b:<builder id>:<op>`` (see sheet/builder/commands.py). Under a booking:

=================  ===========================================
``v1:n``           Neues Spiel (opens a builder)
``v1:k:<row>``     Korrigieren (builder prefilled with that game)
``v1:s:<row>``     Stornieren – asks first
``v1:sj:<row>``    Stornieren confirmed
``v1:sn:<row>``    Stornieren declined (buttons come back)
``v1:st``          Stand
``v1:g:<l>:<n>``   Alle gesund (house rules, before a Ramsch)
``v1:kr:<l>:<n>:<seat>``  that player is sick
=================  ===========================================

``<l>:<n>`` are the list id and its number of log rows when the question was asked: a tap
after the list changed is stale and changes nothing.

``<row>`` is the id of the log row; every tap is checked against the chat's open list.

A button that strikes is declared ``danger``, one that does what a question asked
``confirm`` (``reply.Button``): Telegram colours them where it can (handlers.outbox.keyboard).
"""

from __future__ import annotations

from skatbot.rules.house import Phase
from skatbot.rules.sheet import Sheet
from skatbot.usecases.common.reply import Button, Buttons, danger_button

VERSION = "v1"
NEW_GAME = "v1:n"
STAND = "v1:st"
LABEL_NEW = "Neues Spiel"


def new_game_row() -> tuple[tuple[str, str], ...]:
    return ((LABEL_NEW, NEW_GAME), ("Stand", STAND))


def booking_buttons(row_id: int) -> Buttons:
    """Under a booking (game, passed game, correction)."""
    return (
        ((LABEL_NEW, NEW_GAME),),
        (
            ("Korrigieren", f"v1:k:{row_id}"),
            danger_button("Stornieren", f"v1:s:{row_id}"),
            ("Stand", STAND),
        ),
    )


UNDO_LABEL = "↩️ Rückgängig"


def undo_row(row_id: int) -> tuple[tuple[str, str], ...]:
    """ "↩️ Rückgängig" for the change written as log row ``row_id`` (a strike, a
    correction): the data names that row, so a stale button cannot take back another."""
    return ((UNDO_LABEL, f"v1:u:{row_id}"),)


def correction_buttons(row_id: int) -> Buttons:
    """Under a correction: the way back first, then what is under a booking."""
    return (undo_row(row_id), *booking_buttons(row_id))


def after_cancel_buttons(row_id: int) -> Buttons:
    """Under a strike (``row_id``: its cancel row)."""
    return (undo_row(row_id), new_game_row())


def confirm_cancel_buttons(row_id: int, nr: int, sealed: str) -> Buttons:
    """The question "Spiel N stornieren?": its Ja carries the game's row and the seal of
    what the question showed (common/confirm.py)."""
    return (
        (
            danger_button(f"Ja, Spiel {nr} stornieren", f"v1:sj:{row_id}:{sealed}"),
            ("Nein", f"v1:sn:{row_id}"),
        ),
    )


def confirm_typed_cancel_buttons(row_id: int, nr: int, sealed: str) -> Buttons:
    """The question of a typed ``/storno N`` of an earlier game: its Ja is the one of
    "Stornieren" under a booking (sealed), its Nein leaves everything as it is."""
    return (
        (
            danger_button(f"Ja, Spiel {nr} streichen", f"v1:sj:{row_id}:{sealed}"),
            ("Nein", f"v1:sq:{row_id}"),
        ),
    )


def health_rows(sheet: Sheet, list_id: int, rows: int) -> Buttons:
    """ "Alle gesund?" before a Ramsch game: one button for all, one per player who may be sick."""
    state = sheet.state
    if sheet.house is None or state.phase is not Phase.RAMSCH or state.sick_now is not None:
        return ()
    out = sheet.sitting_out(sheet.next_dealer)
    sick = [
        (f"{name[:20]} krank", f"v1:kr:{list_id}:{rows}:{seat}")
        for seat, name in enumerate(sheet.players)
        if seat != out and seat not in state.sick_used
    ]
    return ((("Alle gesund", f"v1:g:{list_id}:{rows}"),), tuple(sick))


def with_health(buttons: Buttons, sheet: Sheet, list_id: int, rows: int) -> Buttons:
    return tuple(buttons) + health_rows(sheet, list_id, rows)


APP_PREFIX = "app:"
APP_LABEL = "📱 Mini App"


def app_button(topic_id: int = 0, list_id: int = 0, label: str = APP_LABEL) -> Button:
    """The Mini App's button for the chat it is sent to (``topic_id``, ``list_id``: 0 for
    the chat itself and its running list). The outbox makes it a t.me link (a group) or a
    ``web_app`` button (a private chat) signed for that chat, or leaves it out where the
    Mini App is not set up."""
    return Button(label, f"{APP_PREFIX}{topic_id}:{list_id}")
