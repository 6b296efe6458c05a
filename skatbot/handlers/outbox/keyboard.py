"""Inline keyboards on the wire: a reply's ``Buttons`` as the Bot API's JSON, with each
button's colour and state where the server shows them.

A ``Button`` declares what it does (``role``) and why it cannot act now (``disabled``);
here that becomes ``style`` (Bot API 9.4: "success" for a confirmation, "danger" for what
strikes or deletes) and ``disabled`` (10.3: the button is greyed out and does nothing).

An older server does not say its version, and treats the two fields differently:
- ``style`` before 9.4 is an unknown field, ignored (the button keeps its default look). It
  is always sent.
- ``disabled`` before 10.3 is ignored too, and a button with nothing else to do is refused
  (``Text buttons are unallowed in the inline keyboard``). So a disabled button goes out as
  ``disabled`` alone (the documentation allows exactly one action per button); when a server
  refuses it, that is remembered for the bot (``ButtonSupport``) and the message is sent again
  with the button as an ordinary one carrying its callback data, whose tap the use case
  answers with the reason (it checks the state again anyway). Nothing is lost either way.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from telegram.error import BadRequest, TelegramError

from skatbot.usecases.common.keyboards import APP_PREFIX
from skatbot.usecases.common.reply import CONFIRM, DANGER, Button, Buttons

log = logging.getLogger(__name__)

STYLES = {CONFIRM: "success", DANGER: "danger"}


def button_json(button: tuple[str, str], *, disabled_known: bool = True) -> dict[str, Any]:
    """One ``InlineKeyboardButton``."""
    label, data = button
    out: dict[str, Any] = {"text": label}
    if isinstance(button, Button) and button.disabled and disabled_known:
        out["disabled"] = {}  # DisabledButton: "Currently holds no information."
    elif data.startswith("https://"):
        out["url"] = data
    else:
        out["callback_data"] = data
    if isinstance(button, Button) and button.role:
        out["style"] = STYLES[button.role]
    return out


AppLink = Callable[[str, int], "dict[str, Any] | None"]
"""The Mini App button's action for marker data ``app:TOPIC:LIST`` in chat ``chat_id``
(``{"url": …}`` or ``{"web_app": {"url": …}}``), ``None`` where it is not set up."""


def resolved(
    rows: Buttons, chat_id: int, app_link: AppLink | None, *, disabled_known: bool = True
) -> list[list[dict[str, Any]]]:
    """``rows`` as button JSON, each Mini App marker made the chat's own link (or left
    out, and a row left empty with it)."""
    out = []
    for row in rows:
        buttons = []
        for b in row:
            if b[1].startswith(APP_PREFIX):
                action = app_link(b[1], chat_id) if app_link is not None else None
                if action is not None:
                    buttons.append({"text": b[0], **action})
                continue
            buttons.append(button_json(b, disabled_known=disabled_known))
        if buttons:
            out.append(buttons)
    return out


def markup(rows: Buttons | None, *, disabled_known: bool = True) -> Any:
    """The inline keyboard as the Bot API's JSON text (``None`` without buttons);
    ``disabled_known=False`` sends disabled buttons as ordinary ones (a server before 10.3).

    PTB passes a string through unchanged; building its InlineKeyboardMarkup and serialising
    it again cost ~55 µs per reply, this ~4 µs for the same bytes.
    """
    if not rows:
        return None
    keyboard = [[button_json(b, disabled_known=disabled_known) for b in row] for row in rows]
    return json.dumps({"inline_keyboard": keyboard}, ensure_ascii=False)


def has_disabled(rows: Buttons | None) -> bool:
    return any(isinstance(b, Button) and b.disabled for row in rows or () for b in row)


@dataclass
class ButtonSupport:
    """What the server showed it does not know about buttons (one per outbox, for the bot):
    ``disabled`` (Bot API 10.3). Learnt from a refusal, not tried again."""

    disabled_known: bool = True
    app_link: AppLink | None = None  # set by the application (handlers.miniapp)

    def markup(self, rows: Buttons | None, chat_id: int = 0) -> Any:
        """``rows`` as the markup for chat ``chat_id`` (its Mini App button resolved)."""
        if rows and any(b[1].startswith(APP_PREFIX) for row in rows for b in row):
            keyboard = resolved(rows, chat_id, self.app_link, disabled_known=self.disabled_known)
            return (
                json.dumps({"inline_keyboard": keyboard}, ensure_ascii=False) if keyboard else None
            )
        return markup(rows, disabled_known=self.disabled_known)

    def note(self, err: TelegramError, rows: Buttons | None) -> bool:
        """True if ``err`` refused a disabled button of ``rows`` (then remembered: send again)."""
        if not self.disabled_known or not has_disabled(rows):
            return False
        # The server's text is "can't parse inline keyboard button: Text buttons are
        # unallowed in the inline keyboard"; any refusal of a button counts, so that a
        # wording we do not know still gets the message out with ordinary buttons.
        if not isinstance(err, BadRequest) or "button" not in err.message.lower():
            return False
        log.info("the Bot API server has no disabled buttons (%s): ordinary ones from now", err)
        self.disabled_known = False
        return True
