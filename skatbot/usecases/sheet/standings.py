"""The pinned standings (/anheften) kept up to date: no Telegram types.

The message id lives in the chat's settings (``ChatSettings.pinned_standings``). Every change
of a list (``usecases.sheet.booking.book``) adds an ``Edit`` of that message to its reply; the
runtime applies it after the commit, so a deleted pinned message (edit fails) never breaks a
booking.
"""

from __future__ import annotations

import dataclasses

from skatbot.rules.sheet import Sheet
from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.settings import ChatSettings
from skatbot.storage.unit import Session
from skatbot.usecases.common import rich, texts
from skatbot.usecases.common.continuations import continuation
from skatbot.usecases.common.reply import Call, Command, Edit
from skatbot.usecases.sheet.lists import require_list


def pinned_id(session: Session, chat_id: int, settings: ChatSettings | None = None) -> int | None:
    """The pinned standings' message id from the chat's settings (read unless given)."""
    if settings is None:
        settings = chats.settings_of(session, chat_id)
    return settings.pinned_standings


@continuation("standings.store")
def store(session: Session, chat_id: int, message_id: int) -> None:
    chats.update_settings(
        session, chat_id, lambda s: dataclasses.replace(s, pinned_standings=message_id)
    )


def pinned_text(session: Session, cmd: Command) -> str | None:
    """What /anheften sends and pins: the open list's standings (None: the update was
    handled before)."""
    if lists_store.processed(session, cmd.update_id) is not None:
        return None
    loaded = require_list(session, cmd)
    settings = rich.settings_of(session, cmd.place_id, loaded.chat_settings)
    return standings_text(loaded.sheet, loaded.lst.seed, settings)


PINNED_TITLE = "📌 <b>Stand</b> – wird nach jedem Spiel aktualisiert"


def standings_text(sheet: Sheet, seed: str, settings: ChatSettings | None = None) -> str:
    """The pinned standings; a table too if the chat wants tables (``settings``)."""
    text = PINNED_TITLE + "\n" + texts.totals_block(sheet, seed) + "\n" + texts.progress(sheet)
    doc = rich.standings_doc(sheet, seed, title=PINNED_TITLE, tail=texts.progress(sheet))
    return rich.maybe(text, doc, settings) if settings is not None else text


def refresh(session: Session, loaded: lists_store.LoadedList, sheet: Sheet) -> tuple[Edit, ...]:
    """The edit of the pinned standings after a change of ``loaded`` to ``sheet`` (none if
    nothing is pinned)."""
    chat_id = loaded.lst.chat_id
    mid = pinned_id(session, chat_id, loaded.chat_settings)
    if mid is None:
        return ()
    return (
        Edit(
            mid,
            standings_text(
                sheet, loaded.lst.seed, rich.settings_of(session, chat_id, loaded.chat_settings)
            ),
            on_gone=Call("standings.forget", (chat_id, mid)),
        ),
    )


@continuation("standings.forget")
def forget(session: Session, chat_id: int, message_id: int) -> None:
    """The pinned message was deleted: stop editing it (unless another one was pinned since)."""

    def without(s: ChatSettings) -> ChatSettings:
        if s.pinned_standings != message_id:
            return s
        return dataclasses.replace(s, pinned_standings=None)

    chats.update_settings(session, chat_id, without)
