"""The pinned standings (/anheften) kept up to date: no Telegram types.

The message id lives in ``chats.settings`` (JSON) under ``pinned_standings``. Every change of
a list (``usecases.booking.book``) adds an ``Edit`` of that message to its reply; the runtime
applies it after the commit, so a deleted pinned message (edit fails) never breaks a booking.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import Session

from skatbot.rules.sheet import Sheet
from skatbot.storage import repo
from skatbot.storage.database import ensure_chat
from skatbot.storage.models import Chat
from skatbot.usecases import texts
from skatbot.usecases.reply import Edit

KEY = "pinned_standings"


def _settings(chat: Chat | None) -> dict[str, Any]:
    if chat is None:
        return {}
    try:
        data = json.loads(chat.settings or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def pinned_id(session: Session, chat_id: int, settings: str | None = None) -> int | None:
    """The pinned standings' message id from the chat's settings (read unless given)."""
    raw = settings if settings is not None else repo.chat_settings(session, chat_id)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    value = data.get(KEY) if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def store(session: Session, chat_id: int, message_id: int) -> None:
    chat = ensure_chat(session, chat_id, lock=True)
    data = _settings(chat)
    data[KEY] = message_id
    chat.settings = json.dumps(data)


def standings_text(sheet: Sheet, seed: str) -> str:
    return (
        "📌 <b>Stand</b> – wird nach jedem Spiel aktualisiert\n"
        + texts.totals_block(sheet, seed)
        + "\n"
        + texts.progress(sheet)
    )


def refresh(session: Session, loaded: repo.LoadedList, sheet: Sheet) -> tuple[Edit, ...]:
    """The edit of the pinned standings after a change of ``loaded`` to ``sheet`` (none if
    nothing is pinned)."""
    chat_id = loaded.lst.chat_id
    mid = pinned_id(session, chat_id, loaded.chat_settings)
    if mid is None:
        return ()
    return (
        Edit(
            mid,
            standings_text(sheet, loaded.lst.seed),
            on_gone=lambda s: forget(s, chat_id, mid),
        ),
    )


def forget(session: Session, chat_id: int, message_id: int) -> None:
    """The pinned message was deleted: stop editing it (unless another one was pinned since)."""
    chat = ensure_chat(session, chat_id, lock=True)
    data = _settings(chat)
    if data.get(KEY) == message_id:
        del data[KEY]
        chat.settings = json.dumps(data)
