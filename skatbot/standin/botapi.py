"""A minimal Telegram Bot API in process: the other side of ``skatbot console``.

``BotApi`` holds what Telegram holds for a bot - its chats, users, messages (as edited),
pending updates, files, commands, pins and forum topics - and answers Bot API calls on them
as Telegram does, refusals included. It knows no transport: ``answer(path, params, files)``
takes a call whose parameters are already decoded and gives the answer's status and JSON
body. The console reaches it through ``skatbot.standin.request.InProcessRequest`` (PTB's
``BaseRequest``: no socket, no server); the test suite also puts it behind a loopback HTTP
server (``tests/standin/server.py``) for what needs real HTTP (webhooks, PTB's own client).

Parameters are decoded as a client sends them (``decode_param``): string parameters raw,
everything else JSON. Answers are ``{"ok": true, "result": ...}`` with Bot API objects that
PTB can de-serialise. It implements the methods the bot calls (getUpdates, sendMessage, the
edits, sendDocument, sendPhoto, answerCallbackQuery, getMe, commands, pins, chat and member
queries) and parses Telegram HTML as Telegram shows it (``parse_html``/``html_to_text``; a
text Telegram could not parse is refused with its ``can't parse entities`` error).

Forum topics are modelled as Telegram has them (the console's forum chats): the General
topic is thread 1 and its messages carry no ``message_thread_id``; created topics
(createForumTopic, or a user's, ``new_topic``) are numbered from 2 on (a topic's id is its
creation message's); messages in a topic carry ``message_thread_id`` and
``is_topic_message``; a send into a closed topic answers ``TOPIC_CLOSED``, into a deleted one
``message thread not found``.

Ephemeral messages (Bot API 10.2/10.3: a group message only one member sees) are kept apart
from the group's (``ephemeral_messages``), with the rules and the version switch
(``api_version``) of ``skatbot.standin.ephemeral``.

Everything only tests need - Telegram's limits and strict checks, fault injection, fake
admins and rights, flood control, inline queries, membership changes - lives in the test
suite (``tests/standin/fake_telegram.py``), which extends ``BotApi`` through the hooks
``_before_call``/``_after_call``, ``_check_text``, ``_check_markup``, ``_check_edit``,
``_may_manage_topics``, ``_writable_chat``, ``_member`` and ``_METHODS``; being transport
free, the strict stand-in answers the same over HTTP and in process.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote

from skatbot.standin.ephemeral import (
    EPHEMERAL_EDIT_METHODS,
    EPHEMERAL_WINDOW,
    EphemeralRequest,
    EphemeralStore,
    Trigger,
    read_request,
)
from skatbot.standin.polls import PollState, read_poll
from skatbot.standin.records import ApiCall, ApiError, BotMessage, JSONDict, bad_request
from skatbot.standin.rich import RichContent, RichError, parse_rich, received_rich
from skatbot.standin.versions import API_9_4, API_9_5, API_10_1, API_10_2, API_10_3, CURRENT_API

__all__ = [
    "GENERAL_THREAD_ID",
    "GENERAL_TOPIC",
    "TOPIC_ICON_COLORS",
    "ApiCall",
    "ApiError",
    "BotApi",
    "BotMessage",
    "bad_request",
    "html_to_text",
    "parse_html",
]

_LOGGER = logging.getLogger(__name__)


BOT_ID = 4242
BOT_USERNAME = "skatbot_console_bot"
BOT_FIRST_NAME = "Skatbot"

MAX_TOPIC_NAME_LENGTH = 128
GENERAL_TOPIC = 0
"""``messages(chat_id, thread_id=GENERAL_TOPIC)``: the messages outside any forum topic."""
GENERAL_THREAD_ID = 1
"""The General topic of a forum as Telegram numbers it (its messages carry no thread id)."""
TOPIC_ICON_COLORS = (0x6FB9F0, 0xFFD67E, 0xCB86DB, 0x8EEE98, 0xFF93B2, 0xFB6F5F)

# Form fields that are strings in the Bot API and must not be JSON-decoded
# (a message text "42" must stay the string "42").
STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "inline_message_id",
        "url",
        "secret_token",
        "ip_address",
        "language_code",
        "description",
        "short_description",
        "name",
        "title",
        "custom_title",
        "emoji",
        "business_connection_id",
        "message_effect_id",
        "inline_query_id",
        "next_offset",
        "icon_custom_emoji_id",
    }
)


# ---------------------------------------------------------------------------------------------
# Telegram HTML


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


_ENTITY_RE = re.compile(r"&(lt|gt|amp|quot|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
}
_SUPPORTED_TAGS = frozenset({*_SIMPLE_TAGS, "span", "a", "tg-emoji"})
_DATE_TIME_FORMAT = re.compile(r"r|w?[dD]?[tT]?")
"""``date_time_format``: relative (``r``), or an optional weekday, short or long date, short or
long time (the server's spelling of TDLib's formatting types)."""


def _unescape_entity(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _NAMED:
        return _NAMED[name]
    number = int(name[2:], 16) if name[1:2] in ("x", "X") else int(name[1:])
    try:
        return chr(number)
    except (ValueError, OverflowError):
        return match.group(0)


class _HtmlParser:
    """Telegram's HTML parse mode, following the structure of TDLib's ``parse_html``.

    The error texts are TDLib's (``Unsupported start tag "div" at byte offset 3``, ...); byte
    offsets count UTF-8 bytes of the markup, entity offsets and lengths count UTF-16 code units.
    One deliberate difference: TDLib keeps an ``&`` that starts no entity as a literal
    character, the Bot API documentation requires it to be escaped - the stand-in refuses it,
    because unescaped ``&`` in a bot's output means unescaped user text, which breaks on the
    next ``<``.
    """

    def __init__(self, html: str, version: tuple[int, int] = CURRENT_API) -> None:
        self.since_9_5 = version >= API_9_5
        self.html = html
        self.n = len(html)
        self.out: list[str] = []
        self.pos16 = 0
        self.entities: list[JSONDict] = []
        self.stack: list[tuple[str, int, JSONDict | None]] = []

    def _byte_offset(self, index: int) -> int:
        return len(self.html[:index].encode("utf-8", "surrogatepass"))

    def _at(self, index: int) -> str:
        return self.html[index] if index < self.n else ""

    def _skip_spaces(self, i: int) -> int:
        while i < self.n and self.html[i].isspace():
            i += 1
        return i

    def parse(self) -> tuple[str, list[JSONDict]]:
        i = 0
        html = self.html
        while i < self.n:
            ch = html[i]
            if ch == "&":
                match = _ENTITY_RE.match(html, i)
                if match is None:
                    raise ValueError(
                        f'Character "&" at byte offset {self._byte_offset(i)} must be escaped '
                        'as "&amp;" (it starts no supported HTML entity)'
                    )
                self._emit(_unescape_entity(match))
                i = match.end()
            elif ch != "<":
                self._emit(ch)
                i += 1
            elif self._at(i + 1) == "/":
                i = self._end_tag(i)
            else:
                i = self._start_tag(i)
        if self.stack:
            raise ValueError(
                f'Can\'t find end tag corresponding to start tag "{self.stack[-1][0]}"'
            )
        self.entities.sort(key=lambda e: (e["offset"], -e["length"]))
        return "".join(self.out), self.entities

    def _emit(self, piece: str) -> None:
        self.out.append(piece)
        self.pos16 += _utf16_len(piece)

    def _end_tag(self, begin: int) -> int:
        if not self.stack:
            raise ValueError(f"Unexpected end tag at byte offset {self._byte_offset(begin)}")
        i = begin + 2
        while i < self.n and not self.html[i].isspace() and self.html[i] != ">":
            i += 1
        end_name = self.html[begin + 2 : i]
        i = self._skip_spaces(i)
        if self._at(i) != ">":
            raise ValueError(f"Unclosed end tag at byte offset {self._byte_offset(begin)}")
        tag, start, entity = self.stack.pop()
        if end_name and end_name.lower() != tag:
            raise ValueError(
                f"Unmatched end tag at byte offset {self._byte_offset(begin)}, "
                f'expected "</{tag}>", found "</{end_name}>"'
            )
        if entity is not None and self.pos16 > start:
            entity["offset"] = start
            entity["length"] = self.pos16 - start
            self.entities.append(entity)
        return i + 1

    def _start_tag(self, begin: int) -> int:
        html = self.html
        offset = self._byte_offset(begin)
        i = begin + 1
        while i < self.n and not html[i].isspace() and html[i] != ">":
            i += 1
        if i >= self.n:
            raise ValueError(f"Unclosed start tag at byte offset {offset}")
        tag = html[begin + 1 : i].lower()
        if tag not in _SUPPORTED_TAGS and not (tag == "tg-time" and self.since_9_5):
            raise ValueError(f'Unsupported start tag "{tag}" at byte offset {offset}')
        attrs: dict[str, str] = {}
        while True:
            i = self._skip_spaces(i)
            if i >= self.n:
                raise ValueError(f"Unclosed start tag at byte offset {offset}")
            if html[i] == ">":
                break
            name_begin = i
            while i < self.n and not html[i].isspace() and html[i] not in "=>":
                i += 1
            name = html[name_begin:i].lower()
            if not name:
                raise ValueError(f'Empty attribute name in the tag "{tag}" at byte offset {offset}')
            i = self._skip_spaces(i)
            if self._at(i) != "=":
                if tag == "blockquote" and name == "expandable":
                    attrs[name] = ""
                    continue
                raise ValueError(
                    "Expected equal sign in declaration of an attribute of the tag "
                    f'"{tag}" at byte offset {offset}'
                )
            i = self._skip_spaces(i + 1)
            if i >= self.n:
                raise ValueError(f"Unclosed start tag at byte offset {offset}")
            quote = html[i]
            if quote in "'\"":
                close = html.find(quote, i + 1)
                if close < 0:
                    raise ValueError(f"Unclosed start tag at byte offset {offset}")
                value = _ENTITY_RE.sub(_unescape_entity, html[i + 1 : close])
                i = close + 1
            else:
                token_begin = i
                while i < self.n and (html[i].isalnum() or html[i] in ".-"):
                    i += 1
                value = html[token_begin:i].lower()
                if i < self.n and not html[i].isspace() and html[i] != ">":
                    raise ValueError(
                        "Unexpected end of name token at byte offset "
                        f"{self._byte_offset(token_begin)}"
                    )
            attrs[name] = value
        self.stack.append((tag, self.pos16, self._entity(tag, attrs)))
        return i + 1

    def _entity(self, tag: str, attrs: dict[str, str]) -> JSONDict | None:
        if tag in _SIMPLE_TAGS:
            if tag == "blockquote" and "expandable" in attrs:
                return {"type": "expandable_blockquote"}
            if tag == "code" and self.stack and self.stack[-1][0] == "pre":
                language = attrs.get("class", "")
                parent = self.stack[-1][2]
                if language.startswith("language-") and parent is not None:
                    parent["language"] = language[len("language-") :]
                return None
            return {"type": _SIMPLE_TAGS[tag]}
        if tag == "span":
            if attrs.get("class") != "tg-spoiler":
                raise ValueError('Tag "span" must have class "tg-spoiler"')
            return {"type": "spoiler"}
        if tag == "a":
            href = attrs.get("href", "")
            return {"type": "text_link", "url": href} if href else None
        if tag == "tg-time":
            unix = attrs.get("unix", "")
            if not unix.isdigit():
                raise ValueError('Tag "tg-time" must have attribute "unix" with a Unix time')
            fmt = attrs.get("format", "")
            if not _DATE_TIME_FORMAT.fullmatch(fmt):
                raise ValueError(f'Invalid date-time format "{fmt}" in the tag "tg-time"')
            return {"type": "date_time", "unix_time": int(unix), "date_time_format": fmt}
        # tg-emoji
        if not attrs.get("emoji-id"):
            raise ValueError('Tag "tg-emoji" must have attribute "emoji-id"')
        return {"type": "custom_emoji", "custom_emoji_id": attrs["emoji-id"]}


def parse_html(html: str, version: tuple[int, int] = CURRENT_API) -> tuple[str, list[JSONDict]]:
    """Parse Telegram-flavoured HTML into plain text and MessageEntity dicts, as a server of Bot
    API ``version`` does (``<tg-time unix=… format=…>``, a ``date_time`` entity, since 9.5).

    Raises ``ValueError`` with Telegram's description for markup Telegram rejects: unsupported
    tags, unbalanced or unclosed tags, a bare ``<`` (``Unsupported start tag ""``) and - stricter
    than TDLib, as the Bot API documentation demands - an ``&`` that starts no entity.
    """
    return _HtmlParser(html, version).parse()


def html_to_text(html: str) -> str:
    """Plain text of Telegram HTML; lenient (falls back to stripping tags on bad markup)."""
    try:
        return parse_html(html)[0]
    except ValueError:
        stripped = re.sub(r"</?[a-zA-Z][^<>]*>", "", html)
        return _ENTITY_RE.sub(_unescape_entity, stripped)


def _command_entities(text: str) -> list[JSONDict]:
    if not text.startswith("/"):
        return []
    token = text.split(maxsplit=1)[0]
    return [{"type": "bot_command", "offset": 0, "length": _utf16_len(token)}]


# ---------------------------------------------------------------------------------------------
# Parameters as a Bot API client sends them


def has_lone_surrogate(value: Any) -> bool:
    """JSON's ``\\ud800`` decodes to a string UTF-8 cannot hold; Telegram answers 400."""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    return False


def decode_param(key: str, raw: str) -> Any:
    """A parameter as a client sends it (a form field: strings raw, everything else
    JSON-encoded) decoded to its value."""
    if key in STRING_PARAMS:
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


# The Bot API


class BotApi:
    """A minimal Bot API in process: what ``skatbot console`` talks to.

    A PTB application reaches it through ``InProcessRequest(api)`` (``skatbot.standin.request``)
    with the token ``api.token``; any base URL will do, only the path is read.
    """

    _METHODS: tuple[str, ...] = (
        "getMe",
        "getUpdates",
        "deleteWebhook",
        "sendMessage",
        "editMessageText",
        "sendRichMessage",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "deleteMessage",
        "answerCallbackQuery",
        "sendDocument",
        "sendPhoto",
        "sendChatAction",
        "getFile",
        "setMyCommands",
        "deleteMyCommands",
        "getMyCommands",
        "pinChatMessage",
        "unpinChatMessage",
        "unpinAllChatMessages",
        "getChat",
        "getChatMember",
        "getChatAdministrators",
        "getChatMemberCount",
        "leaveChat",
        "close",
        "logOut",
        "createForumTopic",
        "deleteForumTopic",
        "closeForumTopic",
        "reopenForumTopic",
        "editEphemeralMessageText",
        "editEphemeralMessageCaption",
        "editEphemeralMessageMedia",
        "editEphemeralMessageReplyMarkup",
        "deleteEphemeralMessage",
        "sendPoll",
        "stopPoll",
    )
    """Bot API methods served; each is the method ``_m_<name>``."""

    def __init__(
        self,
        token: str = "4242:TEST",
        *,
        first_update_id: int = 1,
        username: str = BOT_USERNAME,
        rich_messages: bool = True,
        api_version: tuple[int, int] = CURRENT_API,
        clock: Callable[[], float] = time.monotonic,
    ):
        """``rich_messages=False`` plays a Bot API server older than 10.1: sendRichMessage is
        an unknown method and editMessageText ignores ``rich_message``. ``api_version`` is
        the Bot API version played for what came later (``skatbot.standin.ephemeral``):
        before ``(10, 2)`` no ephemeral messages (their parameters are ignored, their methods
        404), before ``(10, 3)`` no ``ephemeral_message_parameters``, disabled buttons, rich
        button rows or compact tables; before ``(10, 1)`` no rich messages either. ``clock``
        is the time source of the 15 seconds an ephemeral answer may take."""
        self.token = token
        self.api_version = api_version
        self.rich_messages = rich_messages and api_version >= API_10_1
        self._clock = clock
        self.calls: list[ApiCall] = []
        self.ignored_params: list[tuple[str, str]] = []
        """(method, parameter) of every parameter a call passed that the played version does
        not know and therefore ignored, as a Bot API server does (an ephemeral send to a
        server before 10.2 is posted to the whole group)."""
        self.ephemeral = EphemeralStore()
        """The ephemeral messages: ``ephemeral_messages`` shows them."""
        self._members: dict[int, set[int]] = {}
        self._tapped_message: dict[str, int] = {}
        self._seq = 0
        self.polls: dict[str, PollState] = {}
        """The bot's polls by id (``skatbot.standin.polls``)."""
        self.confirmed_offset = 0
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}
        self.bot_user: JSONDict = {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": BOT_FIRST_NAME,
            "username": username,
        }
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed: asyncio.Condition | None = None
        self._pending: list[JSONDict] = []
        self._next_update_id = first_update_id
        self._allowed_updates: list[str] | None = None
        self._dropped: set[int] = set()
        self._chats: dict[int, JSONDict] = {}
        self._users: dict[int, JSONDict] = {}
        self.chat_owner: int | None = None
        """A user who owns every chat (the console's own user); everybody else is a member."""
        self._next_message_id: dict[int, int] = {}
        self._messages: dict[int, dict[int, JSONDict]] = {}
        self._bot_messages: dict[int, dict[int, BotMessage]] = {}
        self._callback_ids: dict[str, bool] = {}
        self._next_callback_id = 1
        self._files: dict[str, tuple[str, bytes, str]] = {}
        self._next_file = 1
        self._documents: list[tuple[int, tuple[str, bytes]]] = []
        self._photos: list[tuple[int, tuple[str, bytes]]] = []
        self.topics: dict[int, dict[int, str]] = {}
        """Forum topics per chat: thread id -> name (the General topic, thread 1, is not
        listed: it always exists in a forum)."""
        self.closed_topics: set[tuple[int, int]] = set()
        """(chat id, thread id) of the closed topics: posting there answers TOPIC_CLOSED."""
        self._topic_colors: dict[tuple[int, int], int] = {}
        self._handlers: dict[str, Callable[[JSONDict, dict[str, tuple[str, bytes]]], Any]] = {
            name.lower(): getattr(self, f"_m_{name}") for name in self._METHODS
        }

    # -- feeding updates ------------------------------------------------------------------

    def _user(self, user_id: int, first_name: str, username: str | None) -> JSONDict:
        user: JSONDict = {
            "id": user_id,
            "is_bot": False,
            "first_name": first_name,
            "language_code": "de",
        }
        if username:
            user["username"] = username
        self._users[user_id] = user
        return dict(user)

    def _chat(
        self, chat_id: int, chat_type: str, title: str, user: JSONDict | None = None
    ) -> JSONDict:
        known = self._chats.get(chat_id)
        if known is not None and known.get("type") == chat_type and chat_type != "private":
            if title and known.get("title") != title:
                known["title"] = title
            return dict(known)
        chat: JSONDict = {"id": chat_id, "type": chat_type}
        if chat_type == "private":
            src = user or {}
            chat["first_name"] = src.get("first_name", "Spieler")
            if src.get("username"):
                chat["username"] = src["username"]
        else:
            chat["title"] = title
        self._chats[chat_id] = chat
        return dict(chat)

    def add_chat(self, chat_id: int, *, chat_type: str = "group", title: str = "Skatrunde") -> None:
        """Make a chat known (the bot gets ``chat not found`` for unknown chats)."""
        self._chat(chat_id, chat_type, title)

    def make_forum(self, chat_id: int, *, title: str = "Skatrunde") -> None:
        """Make a chat a forum supergroup (topics enabled, ``is_forum`` in every message). As
        in Telegram the General topic is thread 1 (message id 1 is taken by it), so the first
        created topic is thread 2 or later."""
        self._chat(chat_id, "supergroup", title)
        self._chats[chat_id]["is_forum"] = True
        self.topics.setdefault(chat_id, {})
        if self._next_message_id.get(chat_id, 0) < GENERAL_THREAD_ID:
            self._next_message_id[chat_id] = GENERAL_THREAD_ID

    def is_forum(self, chat_id: int) -> bool:
        return bool(self._chats.get(chat_id, {}).get("is_forum"))

    def new_topic(
        self,
        chat_id: int,
        name: str,
        icon_color: int | None = None,
        *,
        by_bot: bool = False,
        thread_id: int | None = None,
    ) -> int:
        """A new topic of the forum ``chat_id``; returns its ``message_thread_id``: the id of
        its creation (service) message, so it never collides with other message ids."""
        topics = self.topics.setdefault(chat_id, {})
        if icon_color is None:
            icon_color = TOPIC_ICON_COLORS[len(topics) % len(TOPIC_ICON_COLORS)]
        if thread_id is None:
            thread_id = self._new_message_id(chat_id)
        elif thread_id in self._messages.get(chat_id, {}):
            topics[thread_id] = name  # a caller's own thread id: no creation message then
            self._topic_colors[(chat_id, thread_id)] = icon_color
            return thread_id
        else:
            self._next_message_id[chat_id] = max(self._next_message_id.get(chat_id, 0), thread_id)
        creator = (
            dict(self.bot_user) if by_bot else {"id": 1, "is_bot": False, "first_name": "Spieler"}
        )
        self._messages.setdefault(chat_id, {})[thread_id] = {
            "message_id": thread_id,
            "from": creator,
            "chat": dict(self._chats[chat_id]),
            "date": int(time.time()),
            "message_thread_id": thread_id,
            "is_topic_message": True,
            "forum_topic_created": {"name": name, "icon_color": icon_color},
        }
        topics[thread_id] = name
        self._topic_colors[(chat_id, thread_id)] = icon_color
        return thread_id

    def _new_message_id(self, chat_id: int) -> int:
        mid = self._next_message_id.get(chat_id, 0) + 1
        self._next_message_id[chat_id] = mid
        return mid

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
    ) -> int:
        """Queue a Message update from a user; returns its update_id. ``thread_id`` posts
        into that forum topic (the chat becomes a forum supergroup; thread 1 is the General
        topic); in a forum every message is a supergroup's."""
        message = self._topic_message(
            text,
            chat_id=chat_id,
            user=self._user(user_id, first_name, username),
            chat_type=chat_type,
            chat_title=chat_title,
            reply_to=reply_to,
            thread_id=thread_id,
        )
        return self.push_update({"message": message})

    def _topic_message(
        self,
        text: str,
        *,
        chat_id: int,
        user: JSONDict,
        chat_type: str,
        chat_title: str,
        reply_to: int | None,
        thread_id: int | None,
    ) -> JSONDict:
        """A new user message, in forum topic ``thread_id`` if given."""
        if thread_id is not None or self.is_forum(chat_id):
            chat_type = "supergroup"
            self._chat(chat_id, chat_type, chat_title, user)
            self.make_forum(chat_id, title=chat_title)
        if thread_id == GENERAL_THREAD_ID:
            thread_id = None  # the General topic: its messages carry no thread id
        if thread_id is not None and thread_id not in self.topics[chat_id]:
            self.new_topic(chat_id, f"Thema {thread_id}", None, thread_id=thread_id)
        message = self._user_message(
            text,
            chat_id=chat_id,
            user=user,
            chat_type=chat_type,
            chat_title=chat_title,
            reply_to=reply_to,
        )
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
            if reply_to is None:  # Telegram: a topic message "replies" to the topic's creation
                created = self._messages.get(chat_id, {}).get(thread_id)
                if created is not None:
                    message["reply_to_message"] = copy.deepcopy(created)
        return message

    def _user_message(
        self,
        text: str,
        *,
        chat_id: int,
        user: JSONDict,
        chat_type: str,
        chat_title: str,
        reply_to: int | None,
    ) -> JSONDict:
        """A new user message (stored, so that replies and button taps can refer to it)."""
        chat = self._chat(chat_id, chat_type, chat_title, user)
        message: JSONDict = {
            "message_id": self._new_message_id(chat_id),
            "from": user,
            "chat": chat,
            "date": int(time.time()),
            "text": text,
        }
        entities = _command_entities(text)
        if entities:
            message["entities"] = entities
        if reply_to is not None:
            message["reply_to_message"] = self._message_stub(chat_id, reply_to)
        self._messages.setdefault(chat_id, {})[message["message_id"]] = message
        self._members.setdefault(chat_id, set()).add(int(user["id"]))
        return message

    def push_callback(
        self,
        data: str,
        *,
        message_id: int,
        chat_id: int = -1001,
        user_id: int = 1,
        first_name: str = "Spieler",
        ephemeral_message_id: int | None = None,
    ) -> int:
        """Queue a CallbackQuery update (a button press on a message); returns its update_id.
        ``ephemeral_message_id`` presses a button of the bot's ephemeral message to
        ``user_id`` instead (its ``message_id`` is 0; only its reader can press it)."""
        if ephemeral_message_id is not None:
            sent = self.ephemeral.message(chat_id, user_id, ephemeral_message_id)
            if sent is None:
                raise LookupError(
                    f"no ephemeral message {ephemeral_message_id} to {user_id} in chat {chat_id}"
                )
            message = sent.obj
        else:
            found = self._messages.get(chat_id, {}).get(message_id)
            if found is None:
                raise LookupError(f"no message {message_id} in chat {chat_id}")
            message = found
        known = self._users.get(user_id)
        username = known.get("username") if known else None
        user = self._user(user_id, first_name, username)
        query_id = f"{BOT_ID}{self._next_callback_id:08d}"
        self._next_callback_id += 1
        self._callback_ids[query_id] = False
        self._members.setdefault(chat_id, set()).add(user_id)
        if ephemeral_message_id is None:
            self._tapped_message[query_id] = message_id
        self.ephemeral.taps[query_id] = Trigger(
            chat_id, user_id, self._clock(), from_ephemeral=ephemeral_message_id is not None
        )
        query: JSONDict = {
            "id": query_id,
            "from": user,
            "message": copy.deepcopy(message),
            "chat_instance": f"ci{chat_id}",
            "data": data,
        }
        return self.push_update({"callback_query": query})

    def push_ephemeral_command(
        self,
        text: str,
        *,
        chat_id: int = -1001,
        user_id: int = 1,
        first_name: str = "Spieler",
        chat_type: str = "group",
        chat_title: str = "Skatrunde",
    ) -> int:
        """Queue an ephemeral command from a user (a Message only the bot receives: its
        ``message_id`` is 0, it has an ``ephemeral_message_id``); returns its update_id.

        As in Telegram the user can send one only for a command the bot declared with
        ``is_ephemeral`` (setMyCommands), in a group, to a server of Bot API 10.2 or later;
        anything else is refused here (``RuntimeError``): the app would send a normal
        message. The bot may answer it ephemerally within 15 seconds
        (``reply_parameters.ephemeral_message_id``)."""
        if self.api_version < API_10_2:
            raise RuntimeError("no ephemeral commands before Bot API 10.2")
        if chat_type not in ("group", "supergroup"):
            raise RuntimeError("ephemeral commands exist only in groups and supergroups")
        name = text.split(maxsplit=1)[0].lstrip("/").split("@", 1)[0] if text else ""
        declared = any(
            c.get("command") == name and c.get("is_ephemeral") is True
            for commands in self.commands.values()
            for c in commands
        )
        if not declared:
            raise RuntimeError(f"/{name} is not declared with is_ephemeral (setMyCommands)")
        user = self._user(user_id, first_name, None)
        chat = self._chat(chat_id, chat_type, chat_title, user)
        self._members.setdefault(chat_id, set()).add(user_id)
        ephemeral_id = self.ephemeral.new_id(chat_id)
        message: JSONDict = {
            "message_id": 0,
            "ephemeral_message_id": ephemeral_id,
            "receiver_user": dict(self.bot_user),
            "from": user,
            "chat": chat,
            "date": int(time.time()),
            "text": text,
        }
        entities = _command_entities(text)
        if entities:
            message["entities"] = entities
        self.ephemeral.incoming.setdefault(chat_id, {})[ephemeral_id] = Trigger(
            chat_id, user_id, self._clock()
        )
        return self.push_update({"message": message})

    def push_poll_answer(
        self,
        poll_id: str,
        option_ids: list[int],
        *,
        user_id: int = 1,
        first_name: str = "Spieler",
    ) -> int | None:
        """A member votes in the bot's poll (``[]``: takes the vote back); returns the
        ``poll_answer`` update's id (``None`` for an anonymous poll: Telegram tells the bot
        nothing). What the app would not let the member do is refused (``RuntimeError``): a
        closed poll, a second vote where the poll allows no revoting, several options where
        it allows one, an option that does not exist."""
        poll = self.polls[poll_id]
        if self._poll_closed(poll):
            raise RuntimeError("the poll is closed")
        if user_id in poll.votes and not poll.allows_revoting:
            raise RuntimeError("this poll allows no change of a vote")
        if len(option_ids) > 1 and not poll.allows_multiple_answers:
            raise RuntimeError("this poll allows one option")
        if any(not 0 <= i < len(poll.options) for i in option_ids):
            raise RuntimeError("no such option")
        if not option_ids and user_id not in poll.votes:
            raise RuntimeError("nothing to take back")
        user = self._user(user_id, first_name, self._users.get(user_id, {}).get("username"))
        self._members.setdefault(poll.chat_id, set()).add(user_id)
        if option_ids:
            poll.votes[user_id] = sorted(option_ids)
        else:
            poll.votes.pop(user_id, None)
        self._poll_message_changed(poll)
        if poll.is_anonymous:
            return None
        answer = {
            "poll_id": poll_id,
            "user": user,
            "option_ids": sorted(option_ids),
            "option_persistent_ids": [str(i) for i in sorted(option_ids)],
        }
        return self.push_update({"poll_answer": answer})

    def close_due_polls(self) -> list[str]:
        """Close the polls whose ``open_period``/``close_date`` has passed (by the stand-in's
        clock), each with a ``poll`` update as Telegram sends for the bot's polls; returns
        their ids."""
        closed = []
        for poll in self.polls.values():
            if not poll.closed and poll.close_at is not None and self._clock() >= poll.close_at:
                poll.closed = True
                self._poll_message_changed(poll)
                self.push_update({"poll": poll.obj(self.api_version)})
                closed.append(poll.poll_id)
        return closed

    def _poll_closed(self, poll: PollState) -> bool:
        return poll.closed or (poll.close_at is not None and self._clock() >= poll.close_at)

    def _poll_message_changed(self, poll: PollState) -> None:
        msg = self._bot_messages.get(poll.chat_id, {}).get(poll.message_id)
        if msg is not None:
            msg.obj["poll"] = poll.obj(self.api_version)
        stored = self._messages.get(poll.chat_id, {}).get(poll.message_id)
        if stored is not None:
            stored["poll"] = poll.obj(self.api_version)

    def remove_member(self, chat_id: int, user_id: int) -> None:
        """``user_id`` left ``chat_id``: an ephemeral message to them is refused
        (``USER_NOT_PARTICIPANT``)."""
        self._members.get(chat_id, set()).discard(user_id)

    def push_update(self, update: JSONDict) -> int:
        """Queue a raw Update dict; assigns ``update_id`` if absent. Returns the update_id."""
        update = dict(update)
        if "update_id" not in update:
            update["update_id"] = self._next_update_id
        self._next_update_id = max(self._next_update_id, int(update["update_id"]) + 1)
        for key in ("message", "edited_message", "channel_post", "callback_query"):
            obj = update.get(key)
            if isinstance(obj, dict):
                msg = obj.get("message") if key == "callback_query" else obj
                chat = msg.get("chat") if isinstance(msg, dict) else None
                if isinstance(chat, dict) and "id" in chat and chat["id"] not in self._chats:
                    self._chats[chat["id"]] = dict(chat)
        self._pending.append(update)
        self._pending.sort(key=lambda u: int(u["update_id"]))
        self._notify()
        return int(update["update_id"])

    @property
    def pending_updates(self) -> list[JSONDict]:
        """Updates not yet confirmed by a getUpdates offset."""
        return list(self._pending)

    # -- inspection -----------------------------------------------------------------------

    def sent(self, method: str | None = None, chat_id: int | None = None) -> list[ApiCall]:
        """Successful calls, optionally filtered by method (case-insensitive) and chat_id."""
        result = []
        for call in self.calls:
            if not call.ok:
                continue
            if method is not None and call.method.lower() != method.lower():
                continue
            if chat_id is not None and call.params.get("chat_id") != chat_id:
                continue
            result.append(call)
        return result

    def messages(self, chat_id: int = -1001, thread_id: int | None = None) -> list[BotMessage]:
        """Current state of the bot's (not deleted) messages in a chat, oldest first.

        ``thread_id=None`` (default): all of them, in every topic; ``thread_id=N``: only those
        in forum topic N; ``thread_id=GENERAL_TOPIC`` (0): only those outside any topic.
        """
        msgs = self._bot_messages.get(chat_id, {})
        return [
            m
            for _, m in sorted(msgs.items())
            if not m.deleted and (thread_id is None or (m.thread_id or 0) == thread_id)
        ]

    def message(self, chat_id: int, message_id: int) -> BotMessage:
        return self._bot_messages[chat_id][message_id]

    def ephemeral_messages(
        self, chat_id: int = -1001, receiver: int | None = None
    ) -> list[BotMessage]:
        """Current state of the bot's (not deleted) ephemeral messages in a chat, oldest
        first; ``receiver``: only those to that user. ``messages`` never lists them: they
        are not the group's."""
        msgs = self.ephemeral.sent.get(chat_id, {})
        return [
            m
            for _, m in sorted(msgs.items())
            if not m.deleted and (receiver is None or m.receiver == receiver)
        ]

    def user_name(self, user_id: int) -> str:
        """The first name a user wrote under (``Nutzer N`` for one never seen)."""
        return str(self._users.get(user_id, {}).get("first_name") or f"Nutzer {user_id}")

    def documents(self, chat_id: int | None = None) -> list[tuple[str, bytes]]:
        """(filename, bytes) of all documents the bot sent, oldest first."""
        return [doc for cid, doc in self._documents if chat_id is None or cid == chat_id]

    def photos(self, chat_id: int | None = None) -> list[tuple[str, bytes]]:
        """(filename, bytes) of all photos the bot sent, oldest first."""
        return [photo for cid, photo in self._photos if chat_id is None or cid == chat_id]

    async def wait_confirmed(self, update_id: int, timeout: float = 10) -> None:
        """Return once a getUpdates call has confirmed ``update_id`` (offset > update_id), or
        it was dropped because the bot does not take its kind (``allowed_updates``)."""
        await self._wait_for(
            lambda: self.confirmed_offset > update_id or update_id in self._dropped, timeout
        )

    async def _wait_for(self, predicate: Callable[[], bool], timeout: float) -> None:
        cond = self._condition()
        async with cond:
            await asyncio.wait_for(cond.wait_for(predicate), timeout)

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    def _notify(self) -> None:
        cond = self._changed
        if cond is None:
            return

        async def notify() -> None:
            async with cond:
                cond.notify_all()

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(notify())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- answering a call -----------------------------------------------------------------

    async def answer(
        self, path: str, params: JSONDict, files: dict[str, tuple[str, bytes]]
    ) -> tuple[int, bytes, str]:
        """Telegram's answer (status, body, content type) to a call of ``path`` -
        ``/bot<token>/<method>`` or a download ``/file/bot<token>/<file path>`` - with its
        parameters (``decode_param``) and uploaded files (part name -> (filename, content)),
        whatever carried the call (``InProcessRequest``, or the tests' HTTP server)."""
        file_match = re.fullmatch(r"/file/bot([^/]+)/(.+)", path)
        if file_match:
            # PTB quotes the token in a file URL (``4242%3ATEST``), as Telegram accepts it
            return self._download(unquote(file_match.group(1)), unquote(file_match.group(2)))
        match = re.fullmatch(r"/bot([^/]*)/([A-Za-z_]+)", path)
        if match is None:
            return self._json(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        token, method = match.groups()
        if has_lone_surrogate(params):
            return self._error(bad_request("strings must be encoded in UTF-8"))
        call = ApiCall(method=method, params=params, files=files, time=time.monotonic())
        if token != self.token:
            call.status, call.error = 401, "Unauthorized"
            self.calls.append(call)
            return self._json(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        self.calls.append(call)
        handler = self._handlers.get(method.lower())
        if method.lower() == "sendrichmessage" and not self.rich_messages:
            handler = None  # before Bot API 10.1
        if method.lower() in EPHEMERAL_EDIT_METHODS and self.api_version < API_10_2:
            handler = None
        if handler is None:
            call.status, call.error = 404, "Not Found: method not found"
            self._notify()
            return self._error(ApiError(404, "Not Found: method not found"))
        try:
            token_ = await self._before_call(method, params)
            result = handler(params, files)
            if isinstance(result, Awaitable):
                result = await result
            self._after_call(token_)
            result = self._answer(method, result)
        except ApiError as exc:
            call.status, call.error = exc.status, exc.description
            self._notify()
            return self._error(exc)
        except Exception as exc:  # a bug in the fake itself
            _LOGGER.exception("fake Bot API: %s failed", method)
            call.status, call.error = 500, f"Internal Server Error: {exc}"
            self._notify()
            return self._error(ApiError(500, f"Internal Server Error: {exc}"))
        call.status, call.result = 200, result
        self._notify()
        return self._json(200, {"ok": True, "result": result})

    async def _before_call(self, method: str, params: JSONDict) -> Any:
        """Runs before every known method; may raise ``ApiError``. Its result is passed to
        ``_after_call`` once the method succeeded."""
        return None

    def _after_call(self, token: Any) -> None:
        """Runs after a method succeeded."""

    def _answer(self, method: str, result: Any) -> Any:
        """The ``result`` sent back for a method that succeeded (a subclass may garble it)."""
        return result

    @staticmethod
    def _json(status: int, obj: JSONDict) -> tuple[int, bytes, str]:
        return status, json.dumps(obj, ensure_ascii=False).encode(), "application/json"

    def _error(self, exc: ApiError) -> tuple[int, bytes, str]:
        payload: JSONDict = {"ok": False, "error_code": exc.status, "description": exc.description}
        if exc.parameters:
            payload["parameters"] = exc.parameters
        return self._json(exc.status, payload)

    def _download(self, token: str, file_path: str) -> tuple[int, bytes, str]:
        if token != self.token:
            return self._json(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        for _file_id, (_name, content, path) in self._files.items():
            if path == file_path:
                return 200, content, "application/octet-stream"
        return self._json(404, {"ok": False, "error_code": 404, "description": "Not Found"})

    # -- helpers for methods --------------------------------------------------------------

    def _known_chat(self, params: JSONDict, key: str = "chat_id") -> JSONDict:
        if key not in params:
            raise bad_request("chat_id is empty")
        chat_id = params[key]
        if isinstance(chat_id, str):
            try:
                chat_id = int(chat_id)
            except ValueError:
                raise bad_request("chat not found") from None
        chat = self._chats.get(chat_id)
        if chat is None:
            raise bad_request("chat not found")
        return dict(chat)

    def _writable_chat(self, params: JSONDict) -> JSONDict:
        """The chat a send goes to (a subclass may refuse it, e.g. after the bot left)."""
        return self._known_chat(params)

    def _thread(self, chat: JSONDict, params: JSONDict) -> int | None:
        """The forum topic a send goes to; 400 ``message thread not found`` for a thread id
        that is no topic of the forum, ``TOPIC_CLOSED`` for a closed topic. Thread 1 is the
        General topic (the message carries no thread id); in a chat without topics a thread
        id is ignored, as Telegram does. A reply without ``message_thread_id`` lands in the
        topic of the replied-to message, as in Telegram (topics are reply threads)."""
        raw = params.get("message_thread_id")
        if raw is None or raw == "" or raw == 0:
            reply_id = self._reply_id(params)
            if reply_id is None:
                return None
            replied = self._messages.get(chat["id"], {}).get(reply_id, {})
            inherited = (
                replied.get("message_thread_id") if replied.get("is_topic_message") else None
            )
            return int(inherited) if inherited else None
        try:
            thread_id = int(raw)
        except (TypeError, ValueError):
            raise bad_request("message thread not found") from None
        if thread_id == 0 or not chat.get("is_forum") or thread_id == GENERAL_THREAD_ID:
            return None
        if thread_id not in self.topics.get(chat["id"], {}):
            raise bad_request("message thread not found")
        if (chat["id"], thread_id) in self.closed_topics:
            raise bad_request("TOPIC_CLOSED")
        return thread_id

    @staticmethod
    def _reply_id(params: JSONDict) -> int | None:
        reply = params.get("reply_parameters")
        reply_id = reply.get("message_id") if isinstance(reply, dict) else None
        reply_id = reply_id or params.get("reply_to_message_id")
        try:
            return int(reply_id) if reply_id else None
        except (TypeError, ValueError):
            return None

    def _message_stub(self, chat_id: int, message_id: int) -> JSONDict:
        known = self._messages.get(chat_id, {}).get(message_id)
        if known is not None:
            stub = dict(known)
            stub.pop("reply_to_message", None)
            return stub
        chat = self._chats.get(chat_id, {"id": chat_id, "type": "group", "title": "Skatrunde"})
        return {"message_id": message_id, "chat": dict(chat), "date": int(time.time())}

    def _format_text(
        self,
        text: Any,
        parse_mode: Any,
        entities: Any,
        *,
        caption: bool = False,
        too_long: str | None = None,
    ) -> tuple[str, list[JSONDict]]:
        """Parse a text or caption as Telegram does (``parse_mode`` HTML), then ``_check_text``."""
        text = "" if text is None else str(text)
        mode = str(parse_mode or "")
        if mode.lower() == "html":
            try:
                plain, ents = parse_html(text, self.api_version)
            except ValueError as exc:
                raise bad_request(f"can't parse entities: {exc}") from None
        elif mode in ("", "Markdown", "MarkdownV2"):
            # Markdown is not parsed (the bot uses HTML): taken as plain text.
            plain, ents = text, list(entities) if isinstance(entities, list) else []
        else:
            raise bad_request(f"unsupported parse_mode {mode}")
        self._check_text(plain, caption=caption, too_long=too_long)
        return plain, ents

    def _check_text(self, plain: str, *, caption: bool, too_long: str | None) -> None:
        """Check a parsed text or caption (a subclass enforces Telegram's limits)."""

    def _check_markup(self, markup: Any) -> JSONDict | None:
        """The ``reply_markup`` of a send or edit (a subclass checks the buttons; the chat's
        part is ``_check_web_app``)."""
        return self._known_markup(markup) if isinstance(markup, dict) else None

    def _known_markup(self, markup: JSONDict) -> JSONDict:
        """``markup`` as the played server reads it: a button's field it does not know is
        ignored - ``disabled`` before 10.3 (the button keeps whatever else it does, or has no
        action and is refused), ``style`` before 9.4."""
        rows = markup.get("inline_keyboard")
        unknown = [
            key
            for key, since in (("disabled", API_10_3), ("style", API_9_4))
            if self.api_version < since
        ]
        if not unknown or not isinstance(rows, list):
            return markup
        buttons = [b for r in rows if isinstance(r, list) for b in r if isinstance(b, dict)]
        if not any(key in b for b in buttons for key in unknown):
            return markup
        markup = copy.deepcopy(markup)
        for row in markup["inline_keyboard"]:
            for button in row if isinstance(row, list) else []:
                for key in unknown if isinstance(button, dict) else []:
                    button.pop(key, None)
        return markup

    def _known_commands(self, commands: list[Any]) -> list[JSONDict]:
        """BotCommands as the played server keeps them: before 10.2 ``is_ephemeral`` is an
        unknown field, ignored (the command is an ordinary one)."""
        kept = [dict(c) for c in commands if isinstance(c, dict)]
        if self.api_version < API_10_2:
            for command in kept:
                if command.pop("is_ephemeral", None) is not None:
                    self.ignored_params.append(("setMyCommands", "BotCommand.is_ephemeral"))
        return kept

    def _check_edit(
        self, msg: BotMessage, content: tuple[str, list[JSONDict]], markup: JSONDict | None
    ) -> None:
        """Check an edit of ``msg`` to ``content`` (text or caption with its entities) and
        ``markup`` before it is applied (a subclass refuses "message is not modified")."""

    # -- ephemeral messages ---------------------------------------------------------------

    def _bot_is_admin(self, chat_id: int) -> bool:
        """Whether the bot administers the chat (an admin may send ephemeral messages at any
        time); the console's bot is a plain member, a subclass may configure it."""
        return False

    def _is_member(self, chat_id: int, user_id: int) -> bool:
        return user_id == self.chat_owner or user_id in self._members.get(chat_id, set())

    def _ephemeral_receiver(
        self, method: str, chat: JSONDict, params: JSONDict
    ) -> tuple[JSONDict, int | None] | None:
        """The receiver of an ephemeral send (and the message it replaces), ``None`` for a
        public send; ``ApiError`` for what Telegram refuses (the module doc of
        ``skatbot.standin.ephemeral``)."""
        request = read_request(method, params, self.api_version, self.ignored_params)
        if request is None:
            return None
        if request.receiver_user_id is None and request.callback_query_id is None:
            raise bad_request("a reply to an ephemeral message must be ephemeral")
        if chat.get("type") not in ("group", "supergroup"):
            raise bad_request("BOT_NOT_ADMIN")
        if request.receiver_user_id is None:
            raise bad_request("receiver_user_id must be specified for an ephemeral message")
        receiver = request.receiver_user_id
        if receiver == BOT_ID or self._users.get(receiver, {}).get("is_bot"):
            raise bad_request("USER_IS_BOT")
        if not self._is_member(chat["id"], receiver):
            raise bad_request("USER_NOT_PARTICIPANT")
        replaces = None
        if request.replace_callback_query_message:
            tap = self.ephemeral.taps.get(request.callback_query_id or "")
            if tap is None or tap.from_ephemeral:
                raise bad_request(
                    "replace_callback_query_message can be used only for a callback query "
                    "from a regular message"
                )
            replaces = self._tapped_message.get(request.callback_query_id or "")
        self._check_trigger(chat["id"], request)
        user = dict(self._users.get(receiver) or {"id": receiver, "is_bot": False})
        user.setdefault("first_name", f"Nutzer {receiver}")
        return user, replaces

    def _check_trigger(self, chat_id: int, request: EphemeralRequest) -> None:
        """A tap or an ephemeral command of the receiver less than 15 s ago - or an admin."""
        now = self._clock()
        if request.callback_query_id is not None:
            tap = self.ephemeral.taps.get(request.callback_query_id)
            if tap is None or now - tap.time > EPHEMERAL_WINDOW:
                raise bad_request(
                    "query is too old and response timeout expired or query ID is invalid"
                )
            if tap.chat_id != chat_id or tap.user_id != request.receiver_user_id:
                raise bad_request("USER_ID_INVALID")
        if request.reply_ephemeral_id is not None:
            command = self.ephemeral.incoming.get(chat_id, {}).get(request.reply_ephemeral_id)
            if (
                command is None
                or command.user_id != request.receiver_user_id
                or now - command.time > EPHEMERAL_WINDOW
            ):
                raise bad_request("message to be replied not found")
        if (
            request.callback_query_id is None
            and request.reply_ephemeral_id is None
            and not self._bot_is_admin(chat_id)
        ):
            raise bad_request("BOT_NOT_ADMIN")

    def _store_bot_message(
        self,
        chat: JSONDict,
        params: JSONDict,
        *,
        text: str | None = None,
        entities: list[JSONDict] | None = None,
        extra: JSONDict | None = None,
        thread_id: int | None = None,
        receiver: tuple[JSONDict, int | None] | None = None,
    ) -> tuple[JSONDict, BotMessage]:
        """Store a sent message: the group's, or with ``receiver`` (``_ephemeral_receiver``)
        an ephemeral one, which only its reader sees."""
        chat_id = chat["id"]
        markup = self._check_markup(params.get("reply_markup"))
        _check_web_app(chat, markup)
        ephemeral_id = self.ephemeral.new_id(chat_id) if receiver is not None else None
        message: JSONDict = {
            "message_id": self._new_message_id(chat_id) if ephemeral_id is None else 0,
            "from": dict(self.bot_user),
            "chat": chat,
            "date": int(time.time()),
        }
        if receiver is not None:
            message["ephemeral_message_id"] = ephemeral_id
            message["receiver_user"] = dict(receiver[0])
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        if text is not None:
            message["text"] = text
            if entities:
                message["entities"] = entities
        if extra:
            message.update(extra)
        if markup and "inline_keyboard" in markup:
            message["reply_markup"] = markup
        reply_id = self._reply_id(params)
        if reply_id:
            message["reply_to_message"] = self._message_stub(chat_id, reply_id)
        self._seq += 1
        bot_message = BotMessage(
            chat_id=chat_id,
            message_id=message["message_id"],
            text=text,
            html=str(params["text"]) if text is not None and "text" in params else None,
            parse_mode=params.get("parse_mode"),
            reply_markup=markup,
            obj=message,
            thread_id=thread_id,
            seq=self._seq,
        )
        if receiver is not None and ephemeral_id is not None:
            bot_message.receiver = int(receiver[0]["id"])
            bot_message.ephemeral_id = ephemeral_id
            bot_message.replaces = receiver[1]
            self.ephemeral.sent.setdefault(chat_id, {})[ephemeral_id] = bot_message
            return copy.deepcopy(message), bot_message
        self._messages.setdefault(chat_id, {})[message["message_id"]] = message
        self._bot_messages.setdefault(chat_id, {})[message["message_id"]] = bot_message
        return copy.deepcopy(message), bot_message

    def _editable(self, params: JSONDict) -> BotMessage:
        if "inline_message_id" in params:
            raise bad_request("inline messages are not supported by the stand-in")
        chat = self._known_chat(params)
        mid = params.get("message_id")
        if mid is None:
            raise bad_request("message identifier is not specified")
        msg = self._bot_messages.get(chat["id"], {}).get(int(mid))
        if msg is None and int(mid) in self._messages.get(chat["id"], {}):
            raise bad_request("message can't be edited")  # somebody else's message
        if msg is None or msg.deleted:
            raise bad_request("message to edit not found")
        return msg

    # -- Bot API methods ------------------------------------------------------------------

    def _m_getMe(self, params: JSONDict, files: Any) -> JSONDict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _m_getUpdates(self, params: JSONDict, files: Any) -> list[JSONDict]:
        offset = int(params.get("offset") or 0)
        limit = max(1, min(100, int(params.get("limit") or 100)))
        timeout = max(0.0, float(params.get("timeout") or 0))
        allowed = params.get("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = [str(a) for a in allowed] or None
        if offset < 0:
            keep = self._pending[offset:] if -offset < len(self._pending) else self._pending
            if self._pending and keep:
                self._confirm(int(keep[0]["update_id"]))
        elif offset > 0:
            self._confirm(offset)
        deadline = time.monotonic() + timeout
        cond = self._condition()
        while True:
            self._drop_disallowed()
            if self._pending or time.monotonic() >= deadline:
                break
            async with cond:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        cond.wait_for(lambda: bool(self._pending)),
                        max(0.0, deadline - time.monotonic()),
                    )
        return copy.deepcopy(self._pending[:limit])

    def _confirm(self, offset: int) -> None:
        self._pending = [u for u in self._pending if int(u["update_id"]) >= offset]
        if offset > self.confirmed_offset:
            self.confirmed_offset = offset
            self._notify()

    def _drop_disallowed(self) -> None:
        if self._allowed_updates is None:
            return
        allowed = set(self._allowed_updates)
        kept = [u for u in self._pending if any(k in allowed for k in u if k != "update_id")]
        if len(kept) != len(self._pending):
            self._dropped.update(int(u["update_id"]) for u in self._pending if u not in kept)
            self._notify()
        self._pending = kept

    def _m_deleteWebhook(self, params: JSONDict, files: Any) -> bool:
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _m_sendMessage(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._writable_chat(params)
        thread_id = self._thread(chat, params)
        receiver = self._ephemeral_receiver("sendMessage", chat, params)
        text, entities = self._format_text(
            params.get("text"), params.get("parse_mode"), params.get("entities")
        )
        message, _ = self._store_bot_message(
            chat, params, text=text, entities=entities, thread_id=thread_id, receiver=receiver
        )
        return message

    def _rich(self, params: JSONDict) -> RichContent:
        raw = params.get("rich_message")
        if isinstance(raw, str):
            with contextlib.suppress(ValueError):
                params["rich_message"] = raw = json.loads(raw)
        try:
            return parse_rich(raw, self.api_version)
        except RichError as exc:
            raise bad_request(str(exc)) from None

    def _m_sendRichMessage(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._writable_chat(params)
        thread_id = self._thread(chat, params)
        receiver = self._ephemeral_receiver("sendRichMessage", chat, params)
        content = self._rich(params)
        message, msg = self._store_bot_message(
            chat, params, text=content.plain(), entities=[], thread_id=thread_id, receiver=receiver
        )
        html = str(params["rich_message"]["html"])
        msg.rich, msg.rich_html = content, html
        for obj in (message, msg.obj):
            obj.pop("text", None)
            obj["rich_message"] = received_rich(content, html)
        return message

    def _edit_rich(self, msg: BotMessage, params: JSONDict) -> JSONDict:
        content = self._rich(params)
        html = str(params["rich_message"]["html"])
        markup = self._check_markup(params.get("reply_markup"))
        self._check_rich_edit(msg, html, markup)
        msg.text, msg.html, msg.parse_mode = content.plain(), None, None
        msg.rich, msg.rich_html = content, html
        msg.reply_markup = markup
        msg.edits += 1
        msg.obj.pop("text", None)
        msg.obj.pop("entities", None)
        msg.obj["rich_message"] = received_rich(content, html)
        self._set_markup(msg, markup)
        msg.obj["edit_date"] = int(time.time())
        return copy.deepcopy(msg.obj)

    def _check_rich_edit(self, msg: BotMessage, html: str, markup: JSONDict | None) -> None:
        """Check a rich edit before it is applied (a subclass refuses "not modified")."""

    def _m_editMessageText(self, params: JSONDict, files: Any) -> JSONDict:
        return self._edit_text(self._editable(params), params, rich=self.rich_messages)

    def _edit_text(self, msg: BotMessage, params: JSONDict, *, rich: bool) -> JSONDict:
        """editMessageText and editEphemeralMessageText: ``rich`` whether the method takes
        ``rich_message`` on the played server."""
        if msg.text is None:
            raise bad_request("there is no text in the message to edit")
        if rich and params.get("rich_message") is not None:
            return self._edit_rich(msg, params)
        if params.get("text") is None:
            raise bad_request("message text is empty")
        text, entities = self._format_text(
            params.get("text"), params.get("parse_mode"), params.get("entities")
        )
        markup = self._check_markup(params.get("reply_markup"))
        self._check_edit(msg, (text, entities), markup)
        msg.text, msg.html, msg.parse_mode = text, str(params.get("text")), params.get("parse_mode")
        msg.rich = msg.rich_html = None
        msg.obj.pop("rich_message", None)
        msg.reply_markup = markup
        msg.edits += 1
        msg.obj["text"] = text
        msg.obj.pop("entities", None)
        if entities:
            msg.obj["entities"] = entities
        self._set_markup(msg, markup)
        msg.obj["edit_date"] = int(time.time())
        return copy.deepcopy(msg.obj)

    def _m_editMessageCaption(self, params: JSONDict, files: Any) -> JSONDict:
        return self._edit_caption(self._editable(params), params)

    def _edit_caption(self, msg: BotMessage, params: JSONDict) -> JSONDict:
        if msg.document is None and msg.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption, entities = self._format_text(
            params.get("caption"),
            params.get("parse_mode"),
            params.get("caption_entities"),
            caption=True,
        )
        markup = self._check_markup(params.get("reply_markup"))
        self._check_edit(msg, (caption, entities), markup)
        msg.caption = caption or None
        msg.reply_markup = markup
        msg.edits += 1
        msg.obj.pop("caption", None)
        msg.obj.pop("caption_entities", None)
        if caption:
            msg.obj["caption"] = caption
        if entities:
            msg.obj["caption_entities"] = entities
        self._set_markup(msg, markup)
        msg.obj["edit_date"] = int(time.time())
        return copy.deepcopy(msg.obj)

    def _m_editMessageReplyMarkup(self, params: JSONDict, files: Any) -> JSONDict:
        return self._edit_markup(self._editable(params), params)

    def _edit_markup(self, msg: BotMessage, params: JSONDict) -> JSONDict:
        markup = self._check_markup(params.get("reply_markup"))
        _check_web_app(msg.obj.get("chat") or {}, markup)
        self._check_edit(msg, self._content(msg), markup)
        msg.reply_markup = markup
        msg.edits += 1
        self._set_markup(msg, markup)
        msg.obj["edit_date"] = int(time.time())
        return copy.deepcopy(msg.obj)

    def _ephemeral_message(self, params: JSONDict, *, deleting: bool = False) -> BotMessage:
        """The bot's ephemeral message an edit or deletion names (chat_id, receiver_user_id,
        ephemeral_message_id)."""
        chat = self._known_chat(params)
        receiver, ephemeral_id = params.get("receiver_user_id"), params.get("ephemeral_message_id")
        msg = None
        if isinstance(receiver, int) and isinstance(ephemeral_id, int):
            msg = self.ephemeral.message(chat["id"], receiver, ephemeral_id)
        if msg is None:
            raise bad_request(
                "message to delete not found" if deleting else "message to edit not found"
            )
        return msg

    def _m_editEphemeralMessageText(self, params: JSONDict, files: Any) -> bool:
        rich = self.rich_messages and self.api_version >= API_10_3
        self._edit_text(self._ephemeral_message(params), params, rich=rich)
        return True

    def _m_editEphemeralMessageCaption(self, params: JSONDict, files: Any) -> bool:
        self._edit_caption(self._ephemeral_message(params), params)
        return True

    def _m_editEphemeralMessageReplyMarkup(self, params: JSONDict, files: Any) -> bool:
        self._edit_markup(self._ephemeral_message(params), params)
        return True

    def _m_editEphemeralMessageMedia(
        self, params: JSONDict, files: dict[str, tuple[str, bytes]]
    ) -> bool:
        """A new photo or document for an ephemeral one: before 10.3 a file already on the
        server only ("A new file can't be uploaded")."""
        msg = self._ephemeral_message(params)
        media = params.get("media")
        if isinstance(media, str):
            with contextlib.suppress(ValueError):
                media = json.loads(media)
        if not isinstance(media, dict) or media.get("type") not in ("photo", "document"):
            raise bad_request("can't parse InputMedia JSON object")
        kind = str(media["type"])
        if msg.photo is None and msg.document is None:
            raise bad_request("there is no media in the message to edit")
        ref = media.get("media")
        if isinstance(ref, str) and ref.startswith("attach://") and self.api_version < API_10_3:
            raise bad_request("can't upload a new file; use a file_id or a URL")
        _file_id, filename, content = self._upload({kind: ref}, files, kind, f"{kind}s")
        msg.photo = (filename, content) if kind == "photo" else None
        msg.document = (filename, content) if kind == "document" else None
        msg.edits += 1
        return True

    def _m_sendPoll(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._writable_chat(params)
        thread_id = self._thread(chat, params)
        self._ephemeral_receiver("sendPoll", chat, params)  # polls are never ephemeral
        poll = read_poll(
            params,
            self.api_version,
            self.ignored_params,
            channel=chat.get("type") == "channel",
            now=self._clock(),
        )
        poll.poll_id = f"{5000 + len(self.polls) + 1}"
        poll.chat_id = chat["id"]
        message, msg = self._store_bot_message(
            chat, params, extra={"poll": poll.obj(self.api_version)}, thread_id=thread_id
        )
        poll.message_id = msg.message_id
        msg.poll_id, msg.text = poll.poll_id, poll.question
        self.polls[poll.poll_id] = poll
        return message

    def _m_stopPoll(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._known_chat(params)
        mid = params.get("message_id")
        msg = self._bot_messages.get(chat["id"], {}).get(int(mid)) if isinstance(mid, int) else None
        if msg is None or msg.poll_id is None or msg.deleted:
            raise bad_request("message with poll to stop not found")
        poll = self.polls[msg.poll_id]
        if self._poll_closed(poll):
            raise bad_request("poll has already been closed")
        poll.closed = True
        self._poll_message_changed(poll)
        return poll.obj(self.api_version)

    def _m_deleteEphemeralMessage(self, params: JSONDict, files: Any) -> bool:
        self._ephemeral_message(params, deleting=True).deleted = True
        return True

    @staticmethod
    def _set_markup(msg: BotMessage, markup: JSONDict | None) -> None:
        msg.obj.pop("reply_markup", None)
        if markup and "inline_keyboard" in markup:
            msg.obj["reply_markup"] = markup

    def _m_deleteMessage(self, params: JSONDict, files: Any) -> bool:
        chat = self._known_chat(params)
        mid = int(params.get("message_id") or 0)
        if mid not in self._messages.get(chat["id"], {}):
            raise bad_request("message to delete not found")
        del self._messages[chat["id"]][mid]
        bot_msg = self._bot_messages.get(chat["id"], {}).get(mid)
        if bot_msg is not None:
            bot_msg.deleted = True
        return True

    def _m_answerCallbackQuery(self, params: JSONDict, files: Any) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        if query_id not in self._callback_ids:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        self._callback_ids[query_id] = True
        return True

    @staticmethod
    def _content(msg: BotMessage) -> tuple[str, list[JSONDict]]:
        """The text (or caption) of a sent message with its entities, as it is now."""
        if msg.text is not None:
            return msg.text, msg.obj.get("entities", [])
        return msg.caption or "", msg.obj.get("caption_entities", [])

    def _upload(
        self, params: JSONDict, files: dict[str, tuple[str, bytes]], part: str, folder: str
    ) -> tuple[str, str, bytes]:
        """The file of a send: an upload (``attach://`` or the part ``part``) or the file id
        of an earlier one. Returns (file id, filename, content)."""
        ref = params.get(part)
        upload: tuple[str, bytes] | None = None
        if isinstance(ref, str) and ref.startswith("attach://"):
            upload = files.get(ref[len("attach://") :])
        elif part in files:
            upload = files[part]
        if upload is not None:
            filename, content = upload
            if not content:
                raise bad_request("file must be non-empty")
            self._check_upload(part, filename, content)
            file_id = f"BQACAgIAAx{self._next_file:06d}"
            self._files[file_id] = (filename, content, f"{folder}/file_{self._next_file}")
            self._next_file += 1
            return file_id, filename, content
        if isinstance(ref, str) and ref in self._files:
            filename, content, _ = self._files[ref]
            return ref, filename, content
        raise bad_request("wrong file identifier/HTTP URL specified")

    def _check_upload(self, part: str, filename: str, content: bytes) -> None:
        """Check an uploaded file (a subclass enforces Telegram's limits for photos)."""

    def _send_file(
        self,
        params: JSONDict,
        extra: JSONDict,
        chat: JSONDict,
        thread_id: int | None,
        receiver: tuple[JSONDict, int | None] | None = None,
    ) -> tuple[JSONDict, BotMessage]:
        """Store a sent document or photo with its caption (checked like a text)."""
        caption: str | None = None
        caption_raw = params.get("caption")
        if caption_raw:
            caption, cap_entities = self._format_text(
                caption_raw,
                params.get("parse_mode"),
                params.get("caption_entities"),
                caption=True,
            )
            extra["caption"] = caption
            if cap_entities:
                extra["caption_entities"] = cap_entities
        message, bot_msg = self._store_bot_message(
            chat, params, extra=extra, thread_id=thread_id, receiver=receiver
        )
        bot_msg.caption = caption
        return message, bot_msg

    def _m_sendDocument(self, params: JSONDict, files: dict[str, tuple[str, bytes]]) -> JSONDict:
        chat = self._writable_chat(params)
        thread_id = self._thread(chat, params)
        receiver = self._ephemeral_receiver("sendDocument", chat, params)
        file_id, filename, content = self._upload(params, files, "document", "documents")
        extra: JSONDict = {
            "document": {
                "file_id": file_id,
                "file_unique_id": f"AgAD{file_id[-6:]}",
                "file_name": filename,
                "mime_type": _guess_mime(filename),
                "file_size": len(content),
            }
        }
        message, bot_msg = self._send_file(params, extra, chat, thread_id, receiver)
        bot_msg.document = (filename, content)
        if receiver is None:  # the group's documents (an ephemeral one is its reader's)
            self._documents.append((chat["id"], (filename, content)))
        return message

    def _m_sendPhoto(self, params: JSONDict, files: dict[str, tuple[str, bytes]]) -> JSONDict:
        """A picture: Telegram answers with its sizes (here the one uploaded) and no name."""
        chat = self._writable_chat(params)
        thread_id = self._thread(chat, params)
        receiver = self._ephemeral_receiver("sendPhoto", chat, params)
        file_id, filename, content = self._upload(params, files, "photo", "photos")
        width, height = image_size(content) or (0, 0)
        extra: JSONDict = {
            "photo": [
                {
                    "file_id": file_id,
                    "file_unique_id": f"AgAD{file_id[-6:]}",
                    "width": width,
                    "height": height,
                    "file_size": len(content),
                }
            ]
        }
        message, bot_msg = self._send_file(params, extra, chat, thread_id, receiver)
        bot_msg.photo = (filename, content)
        if receiver is None:
            self._photos.append((chat["id"], (filename, content)))
        return message

    def _m_sendChatAction(self, params: JSONDict, files: Any) -> bool:
        self._thread(self._writable_chat(params), params)
        return True

    def _m_getFile(self, params: JSONDict, files: Any) -> JSONDict:
        file_id = str(params.get("file_id") or "")
        if file_id not in self._files:
            raise bad_request("invalid file_id")
        _name, content, path = self._files[file_id]
        return {
            "file_id": file_id,
            "file_unique_id": f"AgAD{file_id[-6:]}",
            "file_size": len(content),
            "file_path": path,
        }

    @staticmethod
    def _commands_key(params: JSONDict) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), str(params.get("language_code") or "")

    def _m_setMyCommands(self, params: JSONDict, files: Any) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise bad_request("commands must be non-empty")
        self.commands[self._commands_key(params)] = self._known_commands(commands)
        return True

    def _m_deleteMyCommands(self, params: JSONDict, files: Any) -> bool:
        self.commands.pop(self._commands_key(params), None)
        return True

    def _m_getMyCommands(self, params: JSONDict, files: Any) -> list[JSONDict]:
        return [dict(c) for c in self.commands.get(self._commands_key(params), [])]

    def _m_pinChatMessage(self, params: JSONDict, files: Any) -> bool:
        chat = self._writable_chat(params)
        mid = int(params.get("message_id") or 0)
        if mid not in self._messages.get(chat["id"], {}):
            raise bad_request("message to pin not found")
        bot_msg = self._bot_messages.get(chat["id"], {}).get(mid)
        if bot_msg is not None:
            bot_msg.pinned = True
        return True

    def _m_unpinChatMessage(self, params: JSONDict, files: Any) -> bool:
        chat = self._writable_chat(params)
        msgs = self._bot_messages.get(chat["id"], {})
        mid = params.get("message_id")
        if mid is None:
            pinned = [m for _, m in sorted(msgs.items()) if m.pinned]
            if pinned:
                pinned[-1].pinned = False
            return True
        bot_msg = msgs.get(int(mid))
        if bot_msg is None or not bot_msg.pinned:
            raise bad_request("message to unpin not found")
        bot_msg.pinned = False
        return True

    def _m_unpinAllChatMessages(self, params: JSONDict, files: Any) -> bool:
        chat = self._writable_chat(params)
        for msg in self._bot_messages.get(chat["id"], {}).values():
            msg.pinned = False
        return True

    def _m_getChat(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._known_chat(params)
        pinned = [m for _, m in sorted(self._bot_messages.get(chat["id"], {}).items()) if m.pinned]
        full: JSONDict = {
            **chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }
        if pinned:
            full["pinned_message"] = copy.deepcopy(pinned[-1].obj)
        return full

    def _member(self, chat_id: int, user_id: int) -> JSONDict:
        """Whoever wrote, tapped or voted in the chat is a plain member, ``chat_owner`` its
        creator (a subclass may configure administrators); anybody else has ``left``, as
        Telegram answers for a user who is not in the chat (the Mini App's API asks)."""
        user = dict(self._users.get(user_id) or {})
        if user_id == BOT_ID:
            user = dict(self.bot_user)
        if not user:
            user = {"id": user_id, "is_bot": False, "first_name": f"Nutzer {user_id}"}
        if user_id == self.chat_owner:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if not self.is_member(chat_id, user_id):
            return {"status": "left", "user": user}
        return {"status": "member", "user": user}

    def is_member(self, chat_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is in chat ``chat_id``: the bot, someone who wrote, tapped or
        voted there (or was added with ``add_member``) until ``remove_member``; a private
        chat is its user's."""
        if chat_id > 0:
            return chat_id == user_id
        return user_id == BOT_ID or user_id in self._members.get(chat_id, ())

    def add_member(self, chat_id: int, user_id: int) -> None:
        self._members.setdefault(chat_id, set()).add(user_id)

    def _m_getChatMember(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._known_chat(params)
        user_id = params.get("user_id")
        if not isinstance(user_id, int):
            raise bad_request("invalid user_id specified")
        return self._member(chat["id"], user_id)

    def _m_getChatAdministrators(self, params: JSONDict, files: Any) -> list[JSONDict]:
        self._known_chat(params)
        return []

    def _m_getChatMemberCount(self, params: JSONDict, files: Any) -> int:
        self._known_chat(params)
        return len(self._users) + 1

    def _m_leaveChat(self, params: JSONDict, files: Any) -> bool:
        self._known_chat(params)
        return True

    def _may_manage_topics(self, chat_id: int) -> bool:
        """The bot may create, close and delete topics (the console's forums made it an
        administrator with that right; a subclass may take it away)."""
        return True

    def _m_createForumTopic(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._writable_chat(params)
        if not chat.get("is_forum"):
            raise bad_request("the chat is not a forum")
        if not self._may_manage_topics(chat["id"]):
            raise bad_request("not enough rights to create a topic")
        name = str(params.get("name") or "")
        if not name.strip():
            raise bad_request("TOPIC_TITLE_EMPTY")
        if len(name) > MAX_TOPIC_NAME_LENGTH:
            raise bad_request("TOPIC_TITLE_TOO_LONG")
        color = params.get("icon_color")
        if color is not None and color not in TOPIC_ICON_COLORS:
            raise bad_request("TOPIC_ICON_COLOR_INVALID")
        thread_id = self.new_topic(chat["id"], name, color, by_bot=True)
        topic: JSONDict = {
            "message_thread_id": thread_id,
            "name": name,
            "icon_color": self._topic_colors[(chat["id"], thread_id)],
        }
        if params.get("icon_custom_emoji_id"):
            topic["icon_custom_emoji_id"] = str(params["icon_custom_emoji_id"])
        return topic

    def _topic_param(self, params: JSONDict) -> tuple[int, int]:
        """close/reopen/deleteForumTopic: a topic of a forum, and the right to manage topics."""
        chat = self._writable_chat(params)
        if not chat.get("is_forum"):
            raise bad_request("the chat is not a forum")
        if not self._may_manage_topics(chat["id"]):
            raise bad_request("not enough rights to manage topics")
        try:
            thread_id = int(params.get("message_thread_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise bad_request("message thread not found") from None
        if thread_id not in self.topics.get(chat["id"], {}):
            raise bad_request("message thread not found")
        return chat["id"], thread_id

    def _m_deleteForumTopic(self, params: JSONDict, files: Any) -> bool:
        chat_id, thread_id = self._topic_param(params)
        del self.topics[chat_id][thread_id]  # later sends there: message thread not found
        self.closed_topics.discard((chat_id, thread_id))
        return True

    def _m_closeForumTopic(self, params: JSONDict, files: Any) -> bool:
        key = self._topic_param(params)
        if key in self.closed_topics:
            raise bad_request("TOPIC_NOT_MODIFIED")
        self.closed_topics.add(key)
        return True

    def _m_reopenForumTopic(self, params: JSONDict, files: Any) -> bool:
        key = self._topic_param(params)
        if key not in self.closed_topics:
            raise bad_request("TOPIC_NOT_MODIFIED")
        self.closed_topics.discard(key)
        return True

    def _m_close(self, params: JSONDict, files: Any) -> bool:
        return True

    def _m_logOut(self, params: JSONDict, files: Any) -> bool:
        return True


def image_size(content: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG or JPEG, read from its header; ``None`` for anything else."""
    if content[:8] == b"\x89PNG\r\n\x1a\n" and content[12:16] == b"IHDR":
        return int.from_bytes(content[16:20], "big"), int.from_bytes(content[20:24], "big")
    if content[:2] == b"\xff\xd8":  # JPEG: the first start-of-frame marker has the size
        i = 2
        while i + 9 < len(content) and content[i] == 0xFF:
            marker = content[i + 1]
            length = int.from_bytes(content[i + 2 : i + 4], "big")
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height = int.from_bytes(content[i + 5 : i + 7], "big")
                return int.from_bytes(content[i + 7 : i + 9], "big"), height
            i += 2 + length
    return None


def _guess_mime(filename: str) -> str:
    import mimetypes

    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


def _check_web_app(chat: JSONDict, markup: JSONDict | None) -> None:
    """A ``web_app`` button only in a private chat (Bot API: "Available only in private
    chats between a user and the bot"); elsewhere Telegram answers BUTTON_TYPE_INVALID."""
    if markup is None or chat.get("type") == "private":
        return
    for row in markup.get("inline_keyboard") or ():
        for button in row if isinstance(row, list) else ():
            if isinstance(button, dict) and "web_app" in button:
                raise bad_request("BUTTON_TYPE_INVALID")
