"""The strict Telegram stand-in of the test suite: ``FakeBotApi``.

It extends the product's minimal Bot API (``skatbot.standin.botapi.BotApi``, what ``skatbot
console`` talks to) with everything only tests need, and is served over loopback HTTP
(``tests/standin/server.py``: ``async with FakeBotApi() as api``, ``api.url``); being a
``BotApi``, it answers the same in process (``InProcessRequest(api)``, no server started).
It is meant to be as strict as Telegram, so that a bot passing its tests does not fail in a
real group. Enforced (with Telegram's error texts):

* **Lengths** - a message text <= 4,096 and a caption <= 1,024, counted in UTF-16 code units
  *after* entity parsing (markup is free, an emoji outside the BMP counts 2): ``message is
  too long`` / ``message caption is too long``; an empty text: ``message text is empty``.
* **HTML parse mode** - TDLib's parser rules (in the product's ``parse_html``): unsupported
  tags, unclosed, unmatched or unexpected end tags, a bare ``<`` -> ``can't parse entities``;
  an ``&`` that starts no supported entity is refused.
* **Edits** - editMessageText/Caption/ReplyMarkup that change neither the text (with its
  entities) nor the keyboard: ``message is not modified``; editing a deleted or foreign message.
* **Photos** (sendPhoto) - a PNG or JPEG (else ``IMAGE_PROCESS_FAILED``) of at most 10 MB
  (``file is too big``) whose width + height is at most 10,000 and whose sides are at most
  20:1 (``PHOTO_INVALID_DIMENSIONS``); the caption as for documents.
* **Inline keyboards** - every button needs a text and an action; ``callback_data`` 1-64 bytes
  (``BUTTON_DATA_INVALID``), on sends, edits and inline results. answerCallbackQuery: text
  <= 200 (``MESSAGE_TOO_LONG``), each query answered once. Callback queries carry the tapped
  message as it is now (its current ``reply_markup``, after edits).
* **Forum topics** - ``add_forum``/``create_topic`` and ``createForumTopic`` (only a forum,
  and only by a bot that is an administrator with ``can_manage_topics``: ``set_admins`` with
  the bot's id; ``deny_topic_rights`` takes the right away: ``not enough rights to create a
  topic``); ``closeForumTopic``/``reopenForumTopic`` with the same right (``close_topic``/
  ``reopen_topic`` from a test; a send into a closed topic answers ``TOPIC_CLOSED``, closing
  a closed topic ``TOPIC_NOT_MODIFIED``), ``deleteForumTopic`` also needs the right to delete
  messages (``deny_delete_rights`` takes it away), for an existing topic;
  ``message_thread_id`` must name a topic of a forum (``message thread not found``); in a chat
  without topics it is ignored, as Telegram does. The General topic is thread 1 and its
  messages carry no ``message_thread_id``; created topics are numbered from 2 on (a topic's
  id is its creation message's). Sent messages keep ``message_thread_id`` and
  ``is_topic_message``; a reply without a thread id lands in the replied-to message's topic;
  a user's message in a topic carries the topic's creation message as ``reply_to_message``.
* **Flood control** - at most ``group_limit`` (20) sendMessage/sendDocument/sendPhoto/
  sendMediaGroup per group per sliding ``group_window`` (60 s); then 429 ``Too Many Requests:
  retry after N`` with ``parameters.retry_after``. Counted per chat, successful sends only.
* **Inline mode** - answerInlineQuery: a known, unanswered query id; <= 50 results with unique
  ids of 1-64 bytes; articles need a title and a message text checked like sendMessage's.
  getMe reports ``supports_inline_queries`` from ``inline``.
* **Membership** - after ``my_chat_member`` ``kicked``/``left`` (or leaveChat) every send is
  403 (``bot was kicked from the group chat`` / ``bot is not a member of the group chat``).
  A send to a user the bot has seen who never wrote to it privately (no private chat yet) is
  403 ``bot can't initiate conversation with a user``; to a user never seen ``chat not found``.
* **Admins** - ``set_admins`` configures getChatMember/getChatAdministrators.
* **Rich messages** - with ``rich_messages=True`` a Bot API 10.1 server: sendRichMessage and
  editMessageText with ``rich_message`` (HTML form), checked against the documented limits
  (``skatbot.standin.rich``), "message is not modified" for an identical rich edit; by default
  an older server (sendRichMessage is an unknown method, 404).
* **Ephemeral messages** (Bot API 10.2/10.3, ``api_version``; ``skatbot.standin.ephemeral``):
  as the console's Bot API (15 s after the receiver's tap or ephemeral command, or any time
  from an admin bot, ``set_admins`` with the bot's id; the texts in ``docs/testing.md``), plus
  the limits and "message is not modified" for their edits; ephemeral sends are not counted
  by the flood control. Before 10.2 their parameters are ignored (a public message,
  ``ignored_params``) and their methods 404; before 10.3 ``ephemeral_message_parameters``
  is ignored, a button's ``disabled`` too (a button with nothing else is refused), and rich
  button rows are an unsupported tag.
* ``chat not found``, ``message to edit not found``, ``query is too old ...``, 401 for a wrong
  token, 404 for an unknown method; ``fail_next`` injects 429/5xx answers and delays;
  ``garble_next`` answers a successful call with another result (``null``); ``hold_sends``
  holds every send some seconds before it succeeds (slow flood control); a lone surrogate in
  a parameter is a 400.

Not imitated: per-chat limits other than the group flood limit (1 message/s per private chat,
~30 messages/s overall), admin rights other than ``can_manage_topics`` (pinning), entity
nesting rules.
"""

from __future__ import annotations

import asyncio
import copy
import math
import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from skatbot.standin.botapi import (
    BOT_ID,
    GENERAL_THREAD_ID,
    GENERAL_TOPIC,
    TOPIC_ICON_COLORS,
    ApiCall,
    ApiError,
    BotMessage,
    JSONDict,
    _command_entities,
    _utf16_len,
    bad_request,
    html_to_text,
    image_size,
    parse_html,
)
from skatbot.standin.ephemeral import read_request
from skatbot.standin.versions import API_10_2, API_10_3, CURRENT_API
from tests.standin.server import STATUS_PHRASES, BotApiServer

__all__ = [
    "ANONYMOUS_ADMIN_ID",
    "BOT_USERNAME",
    "CHANNEL_BOT_ID",
    "GENERAL_THREAD_ID",
    "GENERAL_TOPIC",
    "TOPIC_ICON_COLORS",
    "ApiCall",
    "BotMessage",
    "FakeBotApi",
    "JSONDict",
    "html_to_text",
    "parse_html",
]

BOT_USERNAME = "skatbot_test_bot"
ANONYMOUS_ADMIN_ID = 1087968824  # "GroupAnonymousBot": messages of anonymous group admins
CHANNEL_BOT_ID = 136817688  # "Channel_Bot": messages sent on behalf of a channel

MAX_TEXT_LENGTH = 4096
"""Longest message text, in UTF-16 code units after entity parsing."""
MAX_CAPTION_LENGTH = 1024
"""Longest caption, in UTF-16 code units after entity parsing."""
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000  # width + height
MAX_PHOTO_RATIO = 20
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_INLINE_RESULTS = 50


_SEND_METHODS = frozenset(
    {"sendmessage", "senddocument", "sendphoto", "sendmediagroup", "sendrichmessage", "sendpoll"}
)
_BUTTON_STYLES = frozenset({"", "default", "primary", "danger", "success"})
"""``InlineKeyboardButton.style`` (Bot API 9.4), as the Bot API server reads it."""
_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "login_url",
    "web_app",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_INLINE_RESULT_TYPES = frozenset(
    {
        "article",
        "photo",
        "gif",
        "mpeg4_gif",
        "video",
        "audio",
        "voice",
        "document",
        "location",
        "venue",
        "contact",
        "game",
        "sticker",
    }
)


@dataclass
class _Fault:
    status: int
    description: str
    retry_after: int | None
    times: int
    delay: float


class FakeBotApi(BotApiServer):
    """The strict stand-in: use ``async with FakeBotApi() as api:`` (see the module doc)."""

    _METHODS = (
        *BotApiServer._METHODS,
        "answerInlineQuery",
        "setWebhook",
        "getWebhookInfo",
    )

    def __init__(
        self,
        token: str = "4242:TEST",
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        first_update_id: int = 1,
        group_limit: int | None = 20,
        group_window: float = 60.0,
        inline: bool = True,
        clock: Callable[[], float] = time.monotonic,
        rich_messages: bool = False,
        api_version: tuple[int, int] = CURRENT_API,
    ):
        """``group_limit`` sends per sliding ``group_window`` seconds are allowed in each
        group or supergroup (``None``: no flood control); ``inline`` is what getMe reports as
        ``supports_inline_queries`` (BotFather's inline mode); ``clock`` is the time source
        of the flood control (tests may pass a fake one). ``rich_messages`` plays a Bot API
        10.1 server (sendRichMessage, editMessageText with ``rich_message``); the default is
        an older one, which does not know them, so the bot's text form is what most tests
        (and the recorded evenings) see. ``api_version`` plays the Bot API version for
        ephemeral messages and the 10.3 additions (``API_10_2``: the 10.2 shape; below it no
        ephemeral messages at all); ``clock`` also times their 15 seconds."""
        super().__init__(
            token,
            host=host,
            port=port,
            first_update_id=first_update_id,
            username=BOT_USERNAME,
            rich_messages=rich_messages,
            api_version=api_version,
            clock=clock,
        )
        self.group_limit = group_limit
        self.group_window = group_window
        self.inline = inline
        self._clock = clock
        self._group_sends: dict[int, deque[float]] = {}
        self.flood_refusals = 0
        """How many sends the flood control refused with 429."""
        self.left_chats: set[int] = set()
        """Chats the bot is not in (left or kicked): sending there answers 403."""
        self._kicked: set[int] = set()
        self._admins: dict[int, tuple[int | None, set[int]]] = {}
        self._inline_ids: dict[str, bool] = {}
        self.inline_answers: list[JSONDict] = []
        """Parameters of every accepted answerInlineQuery call."""
        self._no_topic_rights: set[int] = set()
        self._no_delete_rights: set[int] = set()
        self._faults: dict[str, list[_Fault]] = {}
        self._garbled: dict[str, list[Any]] = {}
        self.send_hold: float | None = None
        """Seconds every send is held before it succeeds (``hold_sends``)."""
        self.user_messages: dict[int, JSONDict] = {}
        """The Message of each ``push_message`` by its update id (a test answers it)."""
        self.webhook: JSONDict | None = None
        """The parameters of setWebhook while a webhook is set (getUpdates then answers 409)."""

    # -- feeding updates ------------------------------------------------------------------

    def add_forum(self, chat_id: int, *, title: str = "Skatrunde") -> None:
        """Make a chat known as a forum supergroup (topics enabled, no topics yet). As in
        Telegram the General topic is thread 1 (message id 1 is taken by it), so the first
        created topic is thread 2 or later."""
        self.make_forum(chat_id, title=title)

    def close_topic(self, chat_id: int, thread_id: int) -> None:
        """An admin closes a topic: sends there answer ``TOPIC_CLOSED`` until reopened."""
        if thread_id not in self.topics.get(chat_id, {}):
            raise LookupError(f"no topic {thread_id} in chat {chat_id}")
        self.closed_topics.add((chat_id, thread_id))

    def reopen_topic(self, chat_id: int, thread_id: int) -> None:
        self.closed_topics.discard((chat_id, thread_id))

    def create_topic(self, chat_id: int, name: str, *, icon_color: int | None = None) -> int:
        """Create a forum topic as a member would; returns its ``message_thread_id``.

        As in Telegram the thread id is the id of the topic's creation (service) message, so
        it never collides with other message ids of the chat. The chat becomes a forum.
        """
        if not self._chats.get(chat_id, {}).get("is_forum"):
            title = str(self._chats.get(chat_id, {}).get("title") or "Skatrunde")
            self.add_forum(chat_id, title=title)
        return self.new_topic(chat_id, name, icon_color)

    def push_message(
        self,
        text: str,
        *,
        chat_id: int = -1001,
        user_id: int = 1,
        first_name: str = "Spieler",
        username: str | None = None,
        chat_type: str = "group",
        chat_title: str = "Skatrunde",
        reply_to: int | None = None,
        thread_id: int | None = None,
        sender_chat: JSONDict | None = None,
    ) -> int:
        """Queue a Message update from a user; returns its update_id.

        ``thread_id`` posts into that forum topic (the chat becomes a forum supergroup);
        ``sender_chat`` sends on behalf of a chat as Telegram does: ``from`` is then the
        placeholder user (GroupAnonymousBot for the group itself, else Channel_Bot).
        """
        if sender_chat is not None:
            anonymous_admin = sender_chat.get("id") == chat_id
            user_id, first_name, username = (
                (ANONYMOUS_ADMIN_ID, "Group", "GroupAnonymousBot")
                if anonymous_admin
                else (CHANNEL_BOT_ID, "Channel", "Channel_Bot")
            )
        user = self._user(user_id, first_name, username)
        if sender_chat is not None:
            user["is_bot"] = True
            self._users[user_id] = dict(user)
        self.left_chats.discard(chat_id)
        self._kicked.discard(chat_id)
        message = self._topic_message(
            text,
            chat_id=chat_id,
            user=user,
            chat_type=chat_type,
            chat_title=chat_title,
            reply_to=reply_to,
            thread_id=thread_id,
        )
        if sender_chat is not None:
            message["sender_chat"] = dict(sender_chat)
        update_id = self.push_update({"message": message})
        self.user_messages[update_id] = message
        return update_id

    def push_edit(self, text: str, *, chat_id: int, message_id: int) -> int:
        """Queue an ``edited_message`` update: the user changed their message to ``text``."""
        known = self._messages.get(chat_id, {}).get(message_id)
        if known is None or known.get("from", {}).get("id") == BOT_ID:
            raise LookupError(f"no user message {message_id} in chat {chat_id}")
        known["text"] = text
        known["edit_date"] = int(time.time())
        entities = _command_entities(text)
        known.pop("entities", None)
        if entities:
            known["entities"] = entities
        return self.push_update({"edited_message": copy.deepcopy(known)})

    def push_my_chat_member(self, chat_id: int, status: str, *, user_id: int = 1) -> int:
        """Queue a ``my_chat_member`` update: the bot's status in the chat became ``status``
        (``member``, ``administrator``, ``left``, ``kicked``).

        After ``left`` or ``kicked`` every send to the chat answers 403 (``bot is not a member
        of the group chat`` / ``bot was kicked from the group chat``) until a later ``member``
        or ``administrator`` (or a new user message, which implies the bot is back).
        ``administrator`` makes the bot one of the chat's admins (getChatMember, what only an
        admin may do); any other status takes that away."""
        chat = self._chats.get(chat_id) or self._chat(chat_id, "group", "Skatrunde")
        was = self._bot_status(chat_id)
        old = (
            was
            if was != status
            else ("left" if status in ("member", "administrator") else "member")
        )
        self._set_bot_status(chat_id, status)
        user = self._users.get(user_id) or self._user(user_id, "Spieler", None)
        return self.push_update(
            {
                "my_chat_member": {
                    "chat": dict(chat),
                    "from": dict(user),
                    "date": int(time.time()),
                    "old_chat_member": {"status": old, "user": dict(self.bot_user)},
                    "new_chat_member": self._bot_member(status),
                }
            }
        )

    def _bot_status(self, chat_id: int) -> str:
        if chat_id in self._kicked:
            return "kicked"
        return "left" if chat_id in self.left_chats else "member"

    def _set_bot_status(self, chat_id: int, status: str) -> None:
        if status in ("left", "kicked"):
            self.left_chats.add(chat_id)
        else:
            self.left_chats.discard(chat_id)
        if status == "kicked":
            self._kicked.add(chat_id)
        else:
            self._kicked.discard(chat_id)
        # promoted or demoted: what getChatMember and the admin-only checks go by
        owner, admins = self._admins.get(chat_id, (None, set()))
        admins = admins | {BOT_ID} if status == "administrator" else admins - {BOT_ID}
        self._admins[chat_id] = (owner, admins)

    def _bot_member(self, status: str) -> JSONDict:
        if status == "administrator":
            return {**self._member_admin(dict(self.bot_user)), "can_be_edited": False}
        if status == "kicked":
            return {"status": "kicked", "user": dict(self.bot_user), "until_date": 0}
        return {"status": status, "user": dict(self.bot_user)}

    def push_inline_query(
        self, query: str, *, user_id: int = 1, first_name: str = "Spieler"
    ) -> int:
        """Queue an ``inline_query`` update (someone typed ``@bot query`` in any chat).

        Refused (``RuntimeError``) when the bot was built with ``inline=False``: Telegram
        sends inline queries only to bots with inline mode switched on in BotFather."""
        if not self.inline:
            raise RuntimeError("inline mode is off for this bot (FakeBotApi(inline=False))")
        known = self._users.get(user_id)
        user = self._user(user_id, first_name, known.get("username") if known else None)
        query_id = f"iq{self._next_callback_id:08d}"
        self._next_callback_id += 1
        self._inline_ids[query_id] = False
        return self.push_update(
            {"inline_query": {"id": query_id, "from": user, "query": query, "offset": ""}}
        )

    def set_admins(
        self, chat_id: int, user_ids: Iterable[int], *, owner: int | None = None
    ) -> None:
        """Configure administrators of a chat (everyone else is a plain ``member``)."""
        self._admins[chat_id] = (owner, set(user_ids))

    def deny_topic_rights(self, chat_id: int) -> None:
        """The bot (an admin or not) may not manage topics in ``chat_id``."""
        self._no_topic_rights.add(chat_id)

    def deny_delete_rights(self, chat_id: int) -> None:
        """The bot may not delete messages in ``chat_id`` (so no deleteForumTopic either)."""
        self._no_delete_rights.add(chat_id)

    def _may_manage_topics(self, chat_id: int) -> bool:
        return self._bot_is_admin(chat_id) and chat_id not in self._no_topic_rights

    def _bot_is_admin(self, chat_id: int) -> bool:
        owner, admins = self._admins.get(chat_id, (None, set()))
        return owner == BOT_ID or BOT_ID in admins

    def fail_next(
        self,
        method: str,
        *,
        status: int,
        description: str = "",
        retry_after: int | None = None,
        times: int = 1,
        delay: float = 0.0,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail.

        ``status`` 429 answers ``Too Many Requests`` with ``parameters.retry_after``; any other
        status >= 400 answers that error. ``delay`` sleeps before answering (to provoke client
        timeouts); with ``status=200`` the call is delayed and then executed normally - like
        Telegram, the effect happens even if the client has given up waiting.
        """
        self._faults.setdefault(method.lower(), []).append(
            _Fault(status, description, retry_after, times, delay)
        )

    def garble_next(self, method: str, result: Any = None, *, times: int = 1) -> None:
        """The next ``times`` successful calls of ``method`` take effect but answer
        ``result`` (default ``null``) instead of what Telegram would, as a broken proxy or
        a bug in a Bot API server might."""
        self._garbled.setdefault(method.lower(), []).extend([result] * times)

    def _answer(self, method: str, result: Any) -> Any:
        garbled = self._garbled.get(method.lower())
        if garbled:
            return garbled.pop(0)
        return result

    async def wait_for_call(
        self, method: str, *, count: int = 1, timeout: float = 10
    ) -> list[ApiCall]:
        """Wait until at least ``count`` successful calls of ``method`` were made."""
        await self._wait_for(lambda: len(self.sent(method)) >= count, timeout)
        return self.sent(method)

    # -- hooks of the base server -----------------------------------------------------------

    def hold_sends(self, seconds: float | None) -> None:
        """Slow flood control: from now on every send (sendMessage, sendDocument, ...) is held
        ``seconds`` and then succeeds, as Telegram does for flood waits up to about 8 s
        instead of answering 429 (``None``: off). A client that gives up sooner and sends
        again gets its message twice."""
        self.send_hold = seconds

    async def _before_call(self, method: str, params: JSONDict) -> Any:
        await self._apply_faults(method)
        if self.send_hold and method.lower() in _SEND_METHODS:
            await asyncio.sleep(self.send_hold)
        return self._flood_check(method, params)

    def _after_call(self, token: Any) -> None:
        if token is not None:
            self._group_sends.setdefault(token, deque()).append(self._clock())

    def _flood_check(self, method: str, params: JSONDict) -> int | None:
        """Refuse a send over the group limit with 429; returns the chat id to count the send
        against (``None`` when the call is not a group send or flood control is off)."""
        if self.group_limit is None or method.lower() not in _SEND_METHODS:
            return None
        if self._ephemeral_send(method, params):
            return None  # not posted to the group (whether Telegram counts it: not documented)
        try:
            chat_id = int(params.get("chat_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None
        if chat_id >= 0:
            return None
        now = self._clock()
        sends = self._group_sends.setdefault(chat_id, deque())
        while sends and sends[0] <= now - self.group_window:
            sends.popleft()
        if len(sends) >= self.group_limit:
            retry = max(1, math.ceil(sends[0] + self.group_window - now))
            self.flood_refusals += 1
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})
        return chat_id

    async def _apply_faults(self, method: str) -> None:
        faults = self._faults.get(method.lower())
        if not faults:
            return
        fault = faults[0]
        fault.times -= 1
        if fault.times <= 0:
            faults.pop(0)
        if fault.delay:
            await asyncio.sleep(fault.delay)
        if fault.status == 429:
            retry = fault.retry_after if fault.retry_after is not None else 1
            raise ApiError(
                429,
                fault.description or f"Too Many Requests: retry after {retry}",
                {"retry_after": retry},
            )
        if fault.status >= 400:
            phrase = STATUS_PHRASES.get(fault.status, "Error")
            raise ApiError(
                fault.status,
                fault.description or phrase,
                {"retry_after": fault.retry_after} if fault.retry_after else None,
            )

    def _ephemeral_send(self, method: str, params: JSONDict) -> bool:
        try:
            request = read_request(method, params, self.api_version)
        except ApiError:
            return False  # refused by the method itself
        return request is not None and request.receiver_user_id is not None

    def _writable_chat(self, params: JSONDict) -> JSONDict:
        raw = params.get("chat_id")
        chat_id = int(raw) if isinstance(raw, int | str) and str(raw).isdigit() else 0
        if chat_id > 0 and chat_id not in self._chats and chat_id in self._users:
            # a user the bot has seen (in a group) who never started it: no private chat
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        chat = self._known_chat(params)
        if chat["id"] in self.left_chats:
            kind = {
                "group": "group chat",
                "supergroup": "supergroup chat",
                "channel": "channel chat",
            }.get(chat["type"])
            if kind is None:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if chat["id"] in self._kicked:
                raise ApiError(403, f"Forbidden: bot was kicked from the {kind}")
            raise ApiError(403, f"Forbidden: bot is not a member of the {kind}")
        return chat

    def _check_text(self, plain: str, *, caption: bool, too_long: str | None) -> None:
        """The limits (4,096 for texts, 1,024 for captions) count UTF-16 code units of the text
        *after* entity parsing, so markup is free and an emoji outside the BMP counts 2."""
        if not caption and not plain.strip():
            raise bad_request("message text is empty")
        limit = MAX_CAPTION_LENGTH if caption else MAX_TEXT_LENGTH
        if _utf16_len(plain) > limit:
            default = "message caption is too long" if caption else "message is too long"
            raise bad_request(too_long or default)

    def _check_upload(self, part: str, filename: str, content: bytes) -> None:
        if part != "photo":
            return
        if len(content) > MAX_PHOTO_BYTES:
            raise bad_request("file is too big")
        size = image_size(content)
        if size is None:
            raise bad_request("IMAGE_PROCESS_FAILED")
        width, height = size
        if (
            not width
            or not height
            or width + height > MAX_PHOTO_SIDES
            or max(width, height) > MAX_PHOTO_RATIO * min(width, height)
        ):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")

    def _check_markup(self, markup: Any) -> JSONDict | None:
        if markup is None or markup == "":
            return None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        markup = self._known_markup(markup)
        rows = markup.get("inline_keyboard")
        if rows is None:
            return markup
        if not isinstance(rows, list):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array'
            )
        for row in rows:
            if not isinstance(row, list):
                raise bad_request(
                    'can\'t parse inline keyboard button: field "inline_keyboard" must be an array of arrays'
                )
            for button in row:
                if not isinstance(button, dict):
                    raise bad_request(
                        "can't parse inline keyboard button: InlineKeyboardButton must be an Object"
                    )
                if not isinstance(button.get("text"), str) or not button["text"]:
                    raise bad_request(
                        'can\'t parse inline keyboard button: Field "text" must be of type String'
                    )
                actions = _BUTTON_ACTIONS
                if self.api_version >= API_10_3:
                    actions = (*_BUTTON_ACTIONS, "disabled")
                if not any(key in button for key in actions):
                    raise bad_request(
                        "can't parse inline keyboard button: Text buttons are unallowed in the "
                        "inline keyboard"
                    )
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise bad_request("BUTTON_DATA_INVALID")
                style = button.get("style")
                if style is not None and str(style).lower() not in _BUTTON_STYLES:
                    raise bad_request(
                        "can't parse inline keyboard button: invalid button style specified"
                    )
        return markup

    @staticmethod
    def _same_markup(a: JSONDict | None, b: JSONDict | None) -> bool:
        """Equal for "message is not modified": no keyboard and an empty one are the same."""

        def norm(markup: JSONDict | None) -> Any:
            if not markup or not markup.get("inline_keyboard"):
                return None
            return markup["inline_keyboard"]

        return bool(norm(a) == norm(b))

    def _check_rich_edit(self, msg: BotMessage, html: str, markup: JSONDict | None) -> None:
        if html == msg.rich_html and self._same_markup(markup, msg.reply_markup):
            raise bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )

    def _check_edit(
        self, msg: BotMessage, content: tuple[str, list[JSONDict]], markup: JSONDict | None
    ) -> None:
        if content == self._content(msg) and self._same_markup(markup, msg.reply_markup):
            raise bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )

    # -- Bot API methods ------------------------------------------------------------------

    async def _m_getUpdates(self, params: JSONDict, files: Any) -> list[JSONDict]:
        if self.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        return await super()._m_getUpdates(params, files)

    def _m_deleteWebhook(self, params: JSONDict, files: Any) -> bool:
        self.webhook = None
        return super()._m_deleteWebhook(params, files)

    def _m_setWebhook(self, params: JSONDict, files: Any) -> bool:
        url = str(params.get("url") or "")
        if not url:
            self.webhook = None
            return True
        if not url.startswith("https://"):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = dict(params)
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _m_getWebhookInfo(self, params: JSONDict, files: Any) -> JSONDict:
        return {
            "url": (self.webhook or {}).get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }

    def _m_getMe(self, params: JSONDict, files: Any) -> JSONDict:
        return {**super()._m_getMe(params, files), "supports_inline_queries": self.inline}

    def _m_answerCallbackQuery(self, params: JSONDict, files: Any) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        if self._callback_ids.get(query_id, True):
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and _utf16_len(str(text)) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request("MESSAGE_TOO_LONG")
        self._callback_ids[query_id] = True
        return True

    def _m_answerInlineQuery(self, params: JSONDict, files: Any) -> bool:
        query_id = str(params.get("inline_query_id") or "")
        if self._inline_ids.get(query_id, True):
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = params.get("results")
        if not isinstance(results, list):
            raise bad_request("can't parse inline query results JSON object")
        if len(results) > MAX_INLINE_RESULTS:
            raise bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            self._check_inline_result(result, seen)
        self._inline_ids[query_id] = True
        self.inline_answers.append(copy.deepcopy(params))
        return True

    def _check_inline_result(self, result: Any, seen: set[str]) -> None:
        def cant_parse(what: str) -> ApiError:
            return bad_request(f"can't parse inline query result: {what}")

        if not isinstance(result, dict):
            raise cant_parse("InlineQueryResult must be an Object")
        kind = result.get("type")
        if not isinstance(kind, str):
            raise cant_parse('Can\'t find field "type"')
        if kind not in _INLINE_RESULT_TYPES:
            raise cant_parse("Result type is not supported")
        if "id" not in result:
            raise cant_parse('Can\'t find field "id"')
        result_id = str(result["id"])
        if not result_id:
            raise bad_request("RESULT_ID_EMPTY")
        if len(result_id.encode()) > 64:
            raise bad_request("RESULT_ID_INVALID")
        if result_id in seen:
            raise bad_request("RESULT_ID_DUPLICATE")
        seen.add(result_id)
        self._check_markup(result.get("reply_markup"))
        if kind != "article":
            return  # other result types: only the id rules are checked
        if "title" not in result:
            raise cant_parse('Can\'t find field "title"')
        if not str(result["title"]).strip():
            raise bad_request("ARTICLE_TITLE_EMPTY")
        content = result.get("input_message_content")
        if not isinstance(content, dict):
            raise cant_parse('Can\'t find field "input_message_content"')
        if "message_text" in content:
            self._format_text(
                content.get("message_text"),
                content.get("parse_mode"),
                content.get("entities"),
                too_long="MESSAGE_TOO_LONG",
            )

    def _m_deleteForumTopic(self, params: JSONDict, files: Any) -> bool:
        chat_id, _thread_id = self._topic_param(params)
        if chat_id in self._no_delete_rights:  # Telegram: can_delete_messages
            raise bad_request("not enough rights to delete the topic")
        return super()._m_deleteForumTopic(params, files)

    def _m_setMyCommands(self, params: JSONDict, files: Any) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH" if commands else "commands must be non-empty")
        for cmd in commands:
            name = str(cmd.get("command", "")) if isinstance(cmd, dict) else ""
            desc = str(cmd.get("description", "")) if isinstance(cmd, dict) else ""
            if not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(desc) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            flag = cmd.get("is_ephemeral")
            if self.api_version >= API_10_2 and flag is not None and not isinstance(flag, bool):
                raise bad_request('field "is_ephemeral" must be of type Boolean')
        self.commands[self._commands_key(params)] = self._known_commands(commands)
        return True

    def _member(self, chat_id: int, user_id: int) -> JSONDict:
        user = dict(self._users.get(user_id) or {})
        if user_id == BOT_ID:
            user = dict(self.bot_user)
        if not user:
            user = {"id": user_id, "is_bot": False, "first_name": f"Nutzer {user_id}"}
        owner, admins = self._admins.get(chat_id, (None, set()))
        if owner == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in admins:
            member = self._member_admin(user)
            if self._chats.get(chat_id, {}).get("is_forum"):
                member["can_manage_topics"] = not (
                    user_id == BOT_ID and chat_id in self._no_topic_rights
                )
            return member
        if chat_id in self.left_chats and user_id == BOT_ID:
            if chat_id in self._kicked:
                return {"status": "kicked", "user": user, "until_date": 0}
            return {"status": "left", "user": user}
        if not self.is_member(chat_id, user_id):
            return {"status": "left", "user": user}
        return {"status": "member", "user": user}

    @staticmethod
    def _member_admin(user: JSONDict) -> JSONDict:
        return {
            "status": "administrator",
            "user": user,
            "can_be_edited": False,
            "is_anonymous": False,
            "can_manage_chat": True,
            "can_delete_messages": True,
            "can_manage_video_chats": True,
            "can_restrict_members": True,
            "can_promote_members": False,
            "can_change_info": True,
            "can_invite_users": True,
            "can_post_stories": False,
            "can_edit_stories": False,
            "can_delete_stories": False,
            "can_pin_messages": True,
        }

    def _m_getChatMember(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._known_chat(params)
        user_id = params.get("user_id")
        if not isinstance(user_id, int):
            raise bad_request("invalid user_id specified")
        return self._member(chat["id"], user_id)

    def _m_getChatAdministrators(self, params: JSONDict, files: Any) -> list[JSONDict]:
        chat = self._known_chat(params)
        owner, admins = self._admins.get(chat["id"], (None, set()))
        ids = ([owner] if owner is not None else []) + sorted(admins - {owner})
        return [self._member(chat["id"], uid) for uid in ids]

    def _m_leaveChat(self, params: JSONDict, files: Any) -> bool:
        chat = self._known_chat(params)
        self._set_bot_status(chat["id"], "left")
        return True
