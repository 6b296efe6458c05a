"""Edits of one message that queue up behind each other are sent as one: the newest.

Under load (a chat's outbox is behind, e.g. the bot is at Telegram's 30 messages a second)
several bookings in a row each queue an edit of the pinned standings. Every edit carries the
whole standings as they were after its booking, so only the newest one matters: the older
ones still waiting are skipped when their turn comes. Without a backlog each edit is the
newest when it runs and goes out at once, as before.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING

from skatbot.usecases.common.reply import Edit

if TYPE_CHECKING:
    from skatbot.handlers.delivery import Outbox

# outbox -> (chat id, message id) -> the newest edit queued for that message
_NEWEST: weakref.WeakKeyDictionary[Outbox, dict[tuple[int, int], int]] = weakref.WeakKeyDictionary()
_SKIPPED: weakref.WeakKeyDictionary[Outbox, list[int]] = weakref.WeakKeyDictionary()


def note(outbox: Outbox, chat_id: int, edits: Iterable[Edit]) -> None:
    """The edits of a reply just queued for ``chat_id``: each is now its message's newest."""
    newest = _NEWEST.setdefault(outbox, {})
    for edit in edits:
        if edit.text is not None and edit.render is None and not edit.every:
            newest[(chat_id, edit.message_id)] = id(edit)


def superseded(outbox: Outbox, chat_id: int, edit: Edit) -> bool:
    """True if a newer edit of the same message is queued behind ``edit`` (skip this one)."""
    newest = _NEWEST.get(outbox)
    if newest is None:
        return False
    key = (chat_id, edit.message_id)
    found = newest.get(key)
    if found is None or found == id(edit):
        newest.pop(key, None)  # this is the newest: nothing left to coalesce with
        return False
    counter = _SKIPPED.setdefault(outbox, [0])
    counter[0] += 1
    return True


def skipped(outbox: Outbox) -> int:
    """How many edits were skipped because a newer one of the same message was queued."""
    return _SKIPPED.get(outbox, [0])[0]
