"""Callback data of the buttons under booking replies (``v1:...``, at most 64 bytes).

The builder's own buttons are ``v1:b:<builder id>:<op>`` (see builder.py). Under a booking:

=================  ===========================================
``v1:n``           Neues Spiel (opens a builder)
``v1:k:<row>``     Korrigieren (builder prefilled with that game)
``v1:s:<row>``     Stornieren – asks first
``v1:sj:<row>``    Stornieren confirmed
``v1:sn:<row>``    Stornieren declined (buttons come back)
``v1:st``          Stand
=================  ===========================================

``<row>`` is the id of the log row; every tap is checked against the chat's open list.
"""

from __future__ import annotations

from skatbot.handlers.reply import Buttons

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
        (("Korrigieren", f"v1:k:{row_id}"), ("Stornieren", f"v1:s:{row_id}"), ("Stand", STAND)),
    )


def after_cancel_buttons() -> Buttons:
    return (new_game_row(),)


def confirm_cancel_buttons(row_id: int, nr: int) -> Buttons:
    return (((f"Ja, Spiel {nr} stornieren", f"v1:sj:{row_id}"), ("Nein", f"v1:sn:{row_id}")),)
