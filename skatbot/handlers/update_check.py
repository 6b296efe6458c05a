"""What Telegram never sends: an update whose numbers, types or parts are impossible.

PTB's ``Update.de_json`` checks little: a message with a numeric ``text``, a chat id of 0 or
one beyond 64 bits is read as given, and then fails deep inside a handler, the database or
the Bot API (a traceback each, an error notice, a connection closed unanswered). ``oddity``
finds such an update first, so that it is refused like any unreadable one: one logged line,
confirmed, nothing processed (``resilience.parse_update``).

Checked: every number of the update fits in 64 bits (Telegram's ids all do; a topic's id in
32); every string can be written as UTF-8; and, for the parts the bot reads, the type of each
field and the fields an object cannot lack (the ``Shape`` of each). Fields not listed are
left to PTB, kinds of update not listed are not looked at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeGuard

INT64 = range(-(1 << 63), 1 << 63)
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_DEPTH = 64  # Telegram nests a few levels (a reply's reply markup); JSON may nest 1,000


class _Id:
    """A chat or user id: an integer, never 0."""


class _Int32:
    """A message or topic id: 32 bits in Telegram's own schema (its TL type ``int``)."""


ID = _Id()
INT32 = _Int32()


@dataclass(eq=False)
class Shape:
    """The fields of one kind of object that the bot reads: field -> ``str``, ``int``,
    ``bool``, ``ID``, another shape, or ``[shape]`` for a list of them; ``required``: the
    fields it always has (PTB refuses some of them missing by itself, not all)."""

    fields: dict[str, Any]
    required: tuple[str, ...] = ()


USER = Shape(
    {"id": ID, "is_bot": bool, "first_name": str, "last_name": str, "username": str},
    required=("id",),
)
CHAT = Shape(
    {
        "id": ID,
        "type": str,
        "title": str,
        "username": str,
        "first_name": str,
        "last_name": str,
        "is_forum": bool,
    },
    required=("id", "type"),
)
ENTITY = Shape({"type": str, "offset": int, "length": int})
TOPIC = Shape({"name": str})
MESSAGE = Shape(
    {
        "message_id": int,
        "message_thread_id": INT32,  # stored as 32 bits (the outbox's topic)
        "date": int,
        "edit_date": int,
        "from": USER,
        "sender_chat": CHAT,
        "chat": CHAT,
        "text": str,
        "caption": str,
        "entities": [ENTITY],
        "caption_entities": [ENTITY],
        "is_topic_message": bool,
        "forum_topic_created": TOPIC,
        "forum_topic_edited": TOPIC,
        "migrate_to_chat_id": ID,
        "migrate_from_chat_id": ID,
        "new_chat_members": [USER],
        "left_chat_member": USER,
    },
    required=("message_id", "chat"),
)
MESSAGE.fields["reply_to_message"] = MESSAGE
CALLBACK_QUERY = Shape(
    {
        "id": str,
        "from": USER,
        "message": MESSAGE,
        "inline_message_id": str,
        "chat_instance": str,
        "data": str,
    },
    required=("id", "from"),
)
INLINE_QUERY = Shape({"id": str, "from": USER, "query": str, "offset": str}, ("id", "from"))
CHAT_MEMBER = Shape({"status": str, "user": USER}, required=("user",))
MEMBER_UPDATED = Shape(
    {
        "chat": CHAT,
        "from": USER,
        "date": int,
        "old_chat_member": CHAT_MEMBER,
        "new_chat_member": CHAT_MEMBER,
    },
    required=("chat", "from"),
)
UPDATE = Shape(
    {
        "update_id": int,
        "message": MESSAGE,
        "edited_message": MESSAGE,
        "channel_post": MESSAGE,
        "edited_channel_post": MESSAGE,
        "callback_query": CALLBACK_QUERY,
        "inline_query": INLINE_QUERY,
        "my_chat_member": MEMBER_UPDATED,
        "chat_member": MEMBER_UPDATED,
    },
    required=("update_id",),
)
# A user's message in anything but a channel always names its sender: ``from`` (for a
# message on behalf of a chat, a placeholder user along with ``sender_chat``).
SENT_BY_SOMEONE = ("message", "edited_message")


def valid_id(value: object) -> TypeGuard[int]:
    """A chat or user id as Telegram has them: a 64-bit integer other than 0."""
    return type(value) is int and value != 0 and value in INT64


def oddity(data: dict[str, Any]) -> str | None:
    """What makes ``data`` (a raw update) one Telegram cannot have sent, in a few words, or
    ``None``."""
    found = _numbers_and_strings(data)
    if found is not None:
        return found
    found = _against(data, UPDATE, "update")
    if found is not None:
        return found
    for kind in SENT_BY_SOMEONE:
        message = data.get(kind)
        if isinstance(message, dict):
            chat = message.get("chat")
            channel = isinstance(chat, dict) and chat.get("type") == "channel"
            if not channel and "from" not in message:
                return f"{kind}.from missing"
    return None


def _numbers_and_strings(data: object) -> str | None:
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > _MAX_DEPTH:
            return "nested too deeply"
        if isinstance(value, dict):
            for key, item in value.items():
                if not key.isascii() and _SURROGATE.search(key):
                    return "a name that is no UTF-8"
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif type(value) is int and value not in INT64:
            return "a number beyond 64 bits"
        elif isinstance(value, str) and not value.isascii() and _SURROGATE.search(value):
            return "a text that is no UTF-8"
    return None


def _against(value: object, shape: Shape, path: str, depth: int = 0) -> str | None:
    if not isinstance(value, dict):
        return f"{path} is no object"
    if depth > _MAX_DEPTH:
        return f"{path} nested too deeply"
    for field in shape.required:
        if value.get(field) is None:
            return f"{path}.{field} missing"
    for field, item in value.items():
        expected = shape.fields.get(field)
        if expected is None or item is None:  # not read here, or left out (does not apply)
            continue
        where = f"{path}.{field}"
        if isinstance(expected, Shape):
            found = _against(item, expected, where, depth + 1)
        elif isinstance(expected, list):
            found = _each(item, expected[0], where, depth + 1)
        else:
            found = _typed(item, expected, where)
        if found is not None:
            return found
    return None


def _each(items: object, shape: Shape, path: str, depth: int) -> str | None:
    if not isinstance(items, list):
        return f"{path} is no list"
    for index, item in enumerate(items):
        found = _against(item, shape, f"{path}[{index}]", depth)
        if found is not None:
            return found
    return None


def _typed(item: object, expected: object, path: str) -> str | None:
    if expected is ID:
        return None if valid_id(item) else f"{path} is no id: {_short(item)}"
    if expected is INT32:
        fits = type(item) is int and -(1 << 31) <= item < 1 << 31
        return None if fits else f"{path} is no 32-bit number: {_short(item)}"
    if expected is int:
        return None if type(item) is int else f"{path} is no whole number: {_short(item)}"
    if expected is bool:
        return None if isinstance(item, bool) else f"{path} is no true/false: {_short(item)}"
    if expected is str:
        return None if isinstance(item, str) else f"{path} is no text: {_short(item)}"
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
