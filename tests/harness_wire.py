"""The harness's end of the real outbox: the Bot API calls it makes, answered in memory.

The harness hands every reply to the product's own ``outbox.Delivery`` (captions, rich
messages and their text fallback, splitting, ``on_sent``, edits and their coalescing, topics,
posts, a refused private chat's ``instead``), and ``Wire`` is the transport it talks to: a
chat's messages kept as the chat shows them, answered as Telegram answers (a new message id,
"message is not modified", "message to edit not found", no rich messages on an older server,
no private message to someone who never wrote to the bot). A message only one member sees
(an ephemeral message, ``ephemeral_message_parameters``) is kept apart with its reader
(``Harness.for_reader``); on an older server (``Harness.ephemeral_messages = False``) the
parameter is ignored and the message is the chat's, as Telegram does. The strict checks of lengths and
HTML belong to the stand-in of the ``bot`` fixture.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from telegram.error import BadRequest, EndPointNotFound, Forbidden

from skatbot.handlers.outbox import ephemeral, rich
from skatbot.handlers.outbox.coalesce import EditCoalescer
from skatbot.handlers.outbox.pacer import Pacer
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.outbox.sender import SEND
from skatbot.standin.rich import RichContent, parse_rich
from tests.helpers import Reply as Seen
from tests.standin.fake_telegram import html_to_text

if TYPE_CHECKING:
    from tests.harness import Harness

Buttons = tuple[tuple[tuple[str, str], ...], ...]


class UntimedEdits(EditCoalescer):
    """Edits the product sends at most once per so many seconds (a table's standings) go at
    once: the harness has no clock to wait for (the timing is the ``bot`` fixture's)."""

    def due(self, chat_id: int, message_id: int, every: float, send: Any) -> bool:
        return True


def unpaced_outbox() -> Outbox:
    """The product's outbox without pacing: a command costs what its use case costs."""
    outbox = Outbox(Pacer(group_limit=None, per_second=None))
    outbox.edits = UntimedEdits(outbox.submit)
    return outbox


@dataclass
class Sent:
    """A message as Telegram answers a send: its id (a ``telegram.Message`` has more)."""

    message_id: int


@dataclass
class Topic:
    message_thread_id: int


def buttons_of(markup: Any) -> Buttons:
    """The keyboard the outbox serialised (``sender.markup``), as (label, data) rows."""
    if not markup:
        return ()
    keyboard = json.loads(markup) if isinstance(markup, str) else markup
    return tuple(
        tuple((b["text"], b.get("callback_data") or b.get("url", "")) for b in row)
        for row in keyboard["inline_keyboard"]
    )


def rows_of(content: RichContent) -> Buttons:
    """The button rows inside a rich message (Bot API 10.3), as (label, data) rows: a
    reader's buttons are these, then the keyboard under the message (a disabled one has no
    data)."""
    return tuple(
        tuple((b.text, b.callback_data or b.url or "") for b in row)
        for row in content.button_rows()
    )


class Wire:
    """The transport the outbox talks to in the harness (``outbox.transport.Transport``)."""

    def __init__(self, harness: Harness) -> None:
        self.h = harness

    def _check_chat(self, chat_id: int) -> None:
        if chat_id > 0 and chat_id not in self.h.started:
            raise Forbidden("Forbidden: bot can't initiate conversation with a user")

    async def do_api_request(self, endpoint: str, api_kwargs: dict[str, Any]) -> Any:
        chat_id = int(api_kwargs["chat_id"])
        thread_id = int(api_kwargs.get("message_thread_id") or 0)
        markup = buttons_of(api_kwargs.get("reply_markup"))
        if endpoint == "sendMessage":
            self._check_chat(chat_id)
            html = api_kwargs["text"]
            only = api_kwargs.get(ephemeral.PARAMETER)
            if only is not None and self.h.ephemeral_messages:
                # a message only its receiver sees: kept apart from the chat's messages
                reader = int(only["receiver_user_id"])
                self.h.for_reader.append((chat_id, reader, Seen(SEND, html_to_text(html), html)))
                ephemeral_id = self.h.send_ephemeral(chat_id, thread_id, reader, html, markup)
                return {
                    "message_id": 0,
                    "ephemeral_message_id": ephemeral_id,
                    "receiver_user": {"id": reader, "is_bot": False},
                }
            return {"message_id": self.h.send(chat_id, thread_id, html, markup)}
        if endpoint == rich.SEND:
            self._check_chat(chat_id)
            if not self.h.rich_messages:
                raise EndPointNotFound("Not Found: method not found")
            message = api_kwargs["rich_message"]
            content = parse_rich(message)
            plain = content.plain()
            seen = Seen("sendRichMessage", plain, message["html"])
            markup = rows_of(content) + markup
            return {"message_id": self.h.send(chat_id, thread_id, escape(plain), markup, seen=seen)}
        if endpoint == rich.EDIT and "rich_message" in api_kwargs:
            if not self.h.rich_messages:
                raise EndPointNotFound("Not Found: method not found")
            content = parse_rich(api_kwargs["rich_message"])
            markup = rows_of(content) + markup
            return self._edit(
                chat_id, int(api_kwargs["message_id"]), escape(content.plain()), markup
            )
        if endpoint in (ephemeral.EDIT_TEXT, ephemeral.EDIT_MARKUP):
            if not self.h.ephemeral_messages:
                raise EndPointNotFound("Not Found: method not found")
            key = (chat_id, int(api_kwargs["ephemeral_message_id"]))
            msg = self.h.ephemeral.get(key)
            if msg is None or msg.reader != int(api_kwargs["receiver_user_id"]):
                raise BadRequest("Bad Request: message to edit not found")
            html = api_kwargs.get("text") if endpoint == ephemeral.EDIT_TEXT else None
            new_html = msg.html if html is None else str(html)
            if (new_html, markup) == (msg.html, msg.buttons):
                raise BadRequest("Bad Request: message is not modified")
            msg.html, msg.buttons = new_html, markup
            msg.edits += 1
            seen = Seen(endpoint, html_to_text(new_html), new_html)
            self.h.for_reader.append((chat_id, msg.reader, seen))
            return True
        if endpoint == "sendPoll":
            self._check_chat(chat_id)
            if chat_id in self.h.no_polls:
                raise BadRequest("Bad Request: not enough rights to send polls to the chat")
            options = [o["text"] for o in json.loads(api_kwargs["options"])]
            text = api_kwargs["question"] + "".join(f"\n○ {o}" for o in options)
            seen = Seen("sendPoll", text, escape(text))
            message_id = self.h.send(chat_id, thread_id, escape(text), seen=seen)
            poll_id = f"poll-{chat_id}-{message_id}"
            self.h.polls[poll_id] = (chat_id, message_id)
            return {"message_id": message_id, "poll": {"id": poll_id, "question": text}}
        if endpoint == "stopPoll":
            key = (chat_id, int(api_kwargs["message_id"]))
            if key in self.h.stopped_polls:
                raise BadRequest("Bad Request: poll has already been closed")
            self.h.stopped_polls.add(key)
            return {"id": "", "is_closed": True}
        raise BadRequest(f"Bad Request: the harness does not know {endpoint}")

    async def send_document(self, chat_id: int, document: bytes, **kw: Any) -> Sent:
        return self._media("sendDocument", chat_id, document, **kw)

    async def send_photo(self, chat_id: int, photo: bytes, **kw: Any) -> Sent:
        return self._media("sendPhoto", chat_id, photo, **kw)

    def _media(
        self,
        method: str,
        chat_id: int,
        data: bytes,
        *,
        caption: str | None,
        parse_mode: str | None,
        reply_markup: Any,
        message_thread_id: int | None,
        filename: str | None,
    ) -> Sent:
        self._check_chat(chat_id)
        html = caption or ""
        if caption and parse_mode is None:
            html = escape(caption)
        message_id = self.h.send(
            chat_id,
            message_thread_id or 0,
            html,
            buttons_of(reply_markup),
            document=(filename or "", data),
            method=method,
        )
        return Sent(message_id)

    async def edit_message_text(
        self, text: str, chat_id: int, message_id: int, *, parse_mode: Any, reply_markup: Any
    ) -> Any:
        return self._edit(chat_id, message_id, text, buttons_of(reply_markup))

    async def edit_message_reply_markup(
        self, chat_id: int, message_id: int, *, reply_markup: Any
    ) -> Any:
        return self._edit(chat_id, message_id, None, buttons_of(reply_markup))

    def _edit(self, chat_id: int, message_id: int, html: str | None, buttons: Buttons) -> Any:
        msg = self.h.messages.get((chat_id, message_id))
        if msg is None:
            raise BadRequest("Bad Request: message to edit not found")
        new_html = msg.html if html is None else html
        if (new_html, buttons) == (msg.html, msg.buttons):
            raise BadRequest("Bad Request: message is not modified")
        msg.html, msg.buttons = new_html, buttons
        msg.edits += 1
        self.h.show(chat_id, message_id, Seen("editMessageText", html_to_text(new_html), new_html))
        return True

    async def pin_chat_message(
        self, chat_id: int, message_id: int, *, disable_notification: bool
    ) -> bool:
        msg = self.h.messages.get((chat_id, message_id))
        if msg is None:
            raise BadRequest("Bad Request: message to pin not found")
        msg.pinned = True
        return True

    async def create_forum_topic(self, chat_id: int, name: str) -> Topic:
        if chat_id not in self.h.forums:
            raise BadRequest("Bad Request: the chat is not a forum")
        thread = self.h.new_topic(chat_id, name)
        return Topic(thread)

    async def delete_forum_topic(self, chat_id: int, message_thread_id: int) -> bool:
        self.h.closed_topics.add((chat_id, message_thread_id))
        return True

    async def close_forum_topic(self, chat_id: int, message_thread_id: int) -> bool:
        self.h.closed_topics.add((chat_id, message_thread_id))
        return True
