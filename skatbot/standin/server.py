"""A fake Telegram Bot API server on loopback, good enough for python-telegram-bot.

The server speaks real HTTP/1.1 (keep-alive, Content-Length or chunked bodies) and accepts
the three body encodings a Bot API client may use:

* ``application/x-www-form-urlencoded`` - what PTB's ``HTTPXRequest`` sends for every call
  without a file upload. String parameters arrive raw, everything else JSON-encoded.
* ``multipart/form-data`` - what PTB sends as soon as a file is uploaded (``sendDocument``);
  the file is a part with a ``filename``, all other parameters are plain form fields.
* ``application/json`` - accepted for completeness (curl, other clients).

Answers are ``{"ok": true, "result": ...}`` with Bot API objects that PTB can de-serialise.
The stand-in is meant to be as strict as Telegram, so that a bot passing its tests does not
fail in a real group. Enforced (with Telegram's error texts):

* **Lengths** - a message text <= 4,096 and a caption <= 1,024, counted in UTF-16 code units
  *after* entity parsing (markup is free, an emoji outside the BMP counts 2): ``message is
  too long`` / ``message caption is too long``; an empty text: ``message text is empty``.
* **HTML parse mode** - TDLib's parser rules: unsupported tags, unclosed, unmatched or
  unexpected end tags, a bare ``<`` -> ``can't parse entities: ...``. Stricter than TDLib (as
  the Bot API documentation demands): an ``&`` that starts no supported entity is refused.
  Markdown parse modes are accepted but not parsed; any other ``parse_mode`` is refused.
* **Edits** - editMessageText/Caption/ReplyMarkup that change neither the text (with its
  entities) nor the keyboard: ``message is not modified``; editing a deleted or foreign message.
* **Inline keyboards** - every button needs a text and an action; ``callback_data`` 1-64 bytes
  (``BUTTON_DATA_INVALID``), on sends, edits and inline results. answerCallbackQuery: text
  <= 200 (``MESSAGE_TOO_LONG``), each query answered once. Callback queries carry the tapped
  message as it is now (its current ``reply_markup``, after edits).
* **Forum topics** - ``add_forum``/``create_topic`` and ``createForumTopic``;
  ``message_thread_id`` must name a topic of a forum (``message thread not found``, also for
  any thread id in a chat without topics). Sent messages keep ``message_thread_id`` and
  ``is_topic_message``; a reply without a thread id lands in the replied-to message's topic.
* **Flood control** - at most ``group_limit`` (20) sendMessage/sendDocument/sendPhoto/
  sendMediaGroup per group per sliding ``group_window`` (60 s); then 429 ``Too Many Requests:
  retry after N`` with ``parameters.retry_after``. Counted per chat, successful sends only.
* **Inline mode** - answerInlineQuery: a known, unanswered query id; <= 50 results with unique
  ids of 1-64 bytes; articles need a title and a message text checked like sendMessage's.
  getMe reports ``supports_inline_queries`` from ``inline``.
* **Membership** - after ``my_chat_member`` ``kicked``/``left`` (or leaveChat) every send is
  403 (``bot was kicked from the group chat`` / ``bot is not a member of the group chat``).
* ``chat not found``, ``message to edit not found``, ``query is too old ...``, 401 for a wrong
  token, 404 for an unknown method; ``fail_next`` injects 429/5xx answers and delays.

Not imitated: per-chat limits other than the group flood limit (1 message/s per private chat,
~30 messages/s overall), admin rights (pinning, ``can_manage_topics``), entity nesting rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import math
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from skatbot.httpio import BadRequest, read_request

__all__ = [
    "GENERAL_TOPIC",
    "ApiCall",
    "BotMessage",
    "FakeBotApi",
    "html_to_text",
    "parse_html",
]

_LOGGER = logging.getLogger(__name__)

JSONDict = dict[str, Any]

BOT_ID = 4242
BOT_USERNAME = "skatbot_test_bot"
BOT_FIRST_NAME = "Skatbot"
ANONYMOUS_ADMIN_ID = 1087968824  # "GroupAnonymousBot": messages of anonymous group admins
CHANNEL_BOT_ID = 136817688  # "Channel_Bot": messages sent on behalf of a channel

MAX_TEXT_LENGTH = 4096
"""Longest message text, in UTF-16 code units after entity parsing."""
MAX_CAPTION_LENGTH = 1024
"""Longest caption, in UTF-16 code units after entity parsing."""
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_INLINE_RESULTS = 50
MAX_TOPIC_NAME_LENGTH = 128
GENERAL_TOPIC = 0
"""``messages(chat_id, thread_id=GENERAL_TOPIC)``: the messages outside any forum topic."""
TOPIC_ICON_COLORS = (0x6FB9F0, 0xFFD67E, 0xCB86DB, 0x8EEE98, 0xFF93B2, 0xFB6F5F)
_SEND_METHODS = frozenset({"sendmessage", "senddocument", "sendphoto", "sendmediagroup"})
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

# Form fields that are strings in the Bot API and must not be JSON-decoded
# (a message text "42" must stay the string "42").
_STRING_FIELDS = frozenset(
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


class _ApiError(Exception):
    """A Bot API error answer (``ok: false``)."""

    def __init__(self, status: int, description: str, parameters: JSONDict | None = None):
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def _bad_request(description: str) -> _ApiError:
    return _ApiError(400, f"Bad Request: {description}")


@dataclass
class ApiCall:
    """One request the fake server received."""

    method: str
    """Bot API method name as spelled in the URL (e.g. ``sendMessage``)."""
    params: JSONDict
    """Parameters with JSON values decoded (``chat_id`` is an int, ``reply_markup`` a dict)."""
    files: dict[str, tuple[str, bytes]]
    """Uploaded multipart files: part name -> (filename, content)."""
    time: float
    """``time.monotonic()`` when the request arrived."""
    status: int = 0
    """HTTP status of the answer (200 on success); 0 while the request is still running."""
    result: Any = None
    """The ``result`` returned to the client (``None`` for failed calls)."""
    error: str | None = None
    """The ``description`` of an error answer."""

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass
class BotMessage:
    """Current state of a message the bot sent (after edits)."""

    chat_id: int
    message_id: int
    text: str | None
    """Text as Telegram shows it (HTML already parsed away); ``None`` for documents."""
    html: str | None
    """Text exactly as the bot sent it (with ``parse_mode`` markup)."""
    parse_mode: str | None
    reply_markup: JSONDict | None
    caption: str | None = None
    document: tuple[str, bytes] | None = None
    """(filename, content) of a sent document."""
    edits: int = 0
    pinned: bool = False
    deleted: bool = False
    obj: JSONDict = field(default_factory=dict)
    """The Message object as last returned by the API."""
    thread_id: int | None = None
    """Forum topic (``message_thread_id``) the message was sent to; ``None`` outside topics."""

    @property
    def buttons(self) -> list[list[JSONDict]]:
        """Rows of inline keyboard buttons (empty if there is no inline keyboard)."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard")
        return list(rows) if isinstance(rows, list) else []


@dataclass
class _Fault:
    status: int
    description: str
    retry_after: int | None
    times: int
    delay: float


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

    def __init__(self, html: str) -> None:
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
        if tag not in _SUPPORTED_TAGS:
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
        # tg-emoji
        if not attrs.get("emoji-id"):
            raise ValueError('Tag "tg-emoji" must have attribute "emoji-id"')
        return {"type": "custom_emoji", "custom_emoji_id": attrs["emoji-id"]}


def parse_html(html: str) -> tuple[str, list[JSONDict]]:
    """Parse Telegram-flavoured HTML into plain text and MessageEntity dicts.

    Raises ``ValueError`` with Telegram's description for markup Telegram rejects: unsupported
    tags, unbalanced or unclosed tags, a bare ``<`` (``Unsupported start tag ""``) and - stricter
    than TDLib, as the Bot API documentation demands - an ``&`` that starts no entity.
    """
    return _HtmlParser(html).parse()


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
# HTTP helpers


_STATUS_PHRASES = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    413: "Request Entity Too Large",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def _decode_value(key: str, raw: str) -> Any:
    if key in _STRING_FIELDS:
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _unescape_multipart_param(value: str) -> str:
    # httpx escapes '"' as %22, control characters as %XX and '\' as '\\'.
    value = re.sub(
        r"%(0[0-9A-Fa-f]|1[0-9A-Fa-f]|22|7[Ff])", lambda m: chr(int(m.group(1), 16)), value
    )
    return value.replace("\\\\", "\\")


def _parse_header_params(value: str) -> tuple[str, dict[str, str]]:
    """Split ``form-data; name="x"; filename="y"`` into ('form-data', {...})."""
    main, _, rest = value.partition(";")
    params: dict[str, str] = {}
    for m in re.finditer(r';?\s*([A-Za-z0-9_*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)', ";" + rest):
        key = m.group(1).lower()
        val = m.group(2).strip()
        if val.startswith('"') and val.endswith('"') and len(val) >= 2:
            val = _unescape_multipart_param(val[1:-1])
        if key.endswith("*"):
            # RFC 5987: utf-8''percent-encoded
            charset, _, encoded = val.partition("''")
            val = unquote(encoded, encoding=charset or "utf-8")
            key = key[:-1]
        params[key] = val
    return main.strip().lower(), params


def _parse_multipart(body: bytes, boundary: str) -> tuple[JSONDict, dict[str, tuple[str, bytes]]]:
    params: JSONDict = {}
    files: dict[str, tuple[str, bytes]] = {}
    delimiter = b"--" + boundary.encode("latin-1")
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        chunk = chunk.removeprefix(b"\r\n")
        head, sep, content = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        content = content.removesuffix(b"\r\n")
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        _, disposition = _parse_header_params(headers.get("content-disposition", ""))
        part_name = disposition.get("name")
        if part_name is None:
            continue
        if "filename" in disposition:
            files[part_name] = (disposition["filename"], content)
        else:
            params[part_name] = _decode_value(part_name, content.decode("utf-8", "replace"))
    return params, files


# ---------------------------------------------------------------------------------------------
# The server


class FakeBotApi:
    """Fake Telegram Bot API on ``127.0.0.1`` (random port).

    Use ``async with FakeBotApi() as api:`` or ``await api.start()`` / ``await api.stop()``,
    then build the PTB application with ``.base_url(f"{api.url}/bot")`` and
    ``.base_file_url(f"{api.url}/file/bot")`` and the token ``api.token``.
    """

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
    ):
        """``group_limit`` sends per sliding ``group_window`` seconds are allowed in each
        group or supergroup (``None``: no flood control); ``inline`` is what getMe reports as
        ``supports_inline_queries`` (BotFather's inline mode); ``clock`` is the time source
        of the flood control (tests may pass a fake one)."""
        self.token = token
        self.group_limit = group_limit
        self.group_window = group_window
        self.inline = inline
        self._clock = clock
        self._group_sends: dict[int, deque[float]] = {}
        self.flood_refusals = 0
        """How many sends the flood control refused with 429."""
        self.url = ""
        self._host = host
        self._port = port
        self.calls: list[ApiCall] = []
        self.confirmed_offset = 0
        self.webhook: JSONDict | None = None
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}
        self.left_chats: set[int] = set()
        """Chats the bot is not in (left or kicked): sending there answers 403."""
        self._kicked: set[int] = set()
        self.bot_user: JSONDict = {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": BOT_FIRST_NAME,
            "username": BOT_USERNAME,
        }
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed: asyncio.Condition | None = None
        self._pending: list[JSONDict] = []
        self._next_update_id = first_update_id
        self._allowed_updates: list[str] | None = None
        self._chats: dict[int, JSONDict] = {}
        self._users: dict[int, JSONDict] = {}
        self._next_message_id: dict[int, int] = {}
        self._messages: dict[int, dict[int, JSONDict]] = {}
        self._bot_messages: dict[int, dict[int, BotMessage]] = {}
        self._admins: dict[int, tuple[int | None, set[int]]] = {}
        self._callback_ids: dict[str, bool] = {}
        self._inline_ids: dict[str, bool] = {}
        self.inline_answers: list[JSONDict] = []
        """Parameters of every accepted answerInlineQuery call."""
        self.topics: dict[int, dict[int, str]] = {}
        """Forum topics per chat: thread id -> name."""
        self._topic_colors: dict[tuple[int, int], int] = {}
        self._next_callback_id = 1
        self._files: dict[str, tuple[str, bytes, str]] = {}
        self._next_file = 1
        self._faults: dict[str, list[_Fault]] = {}
        self._documents: list[tuple[int, tuple[str, bytes]]] = []
        self._handlers: dict[str, Callable[[JSONDict, dict[str, tuple[str, bytes]]], Any]] = {
            name.lower(): getattr(self, f"_m_{name}")
            for name in (
                "getMe",
                "getUpdates",
                "deleteWebhook",
                "setWebhook",
                "getWebhookInfo",
                "sendMessage",
                "editMessageText",
                "editMessageReplyMarkup",
                "editMessageCaption",
                "deleteMessage",
                "answerCallbackQuery",
                "answerInlineQuery",
                "createForumTopic",
                "sendDocument",
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
            )
        }

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        self._changed = asyncio.Condition()
        self._server = await asyncio.start_server(self._serve, self._host, self._port)
        sock = self._server.sockets[0]
        host, port = sock.getsockname()[:2]
        self.url = f"http://{host}:{port}"

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.gather(*self._connections, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 1)

    async def __aenter__(self) -> FakeBotApi:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- test API: feeding updates --------------------------------------------------------

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

    def add_forum(self, chat_id: int, *, title: str = "Skatrunde") -> None:
        """Make a chat known as a forum supergroup (topics enabled, no topics yet)."""
        self._chat(chat_id, "supergroup", title)
        self._chats[chat_id]["is_forum"] = True
        self.topics.setdefault(chat_id, {})

    def create_topic(self, chat_id: int, name: str, *, icon_color: int | None = None) -> int:
        """Create a forum topic as a member would; returns its ``message_thread_id``.

        As in Telegram the thread id is the id of the topic's creation (service) message, so
        it never collides with other message ids of the chat. The chat becomes a forum.
        """
        if not self._chats.get(chat_id, {}).get("is_forum"):
            title = str(self._chats.get(chat_id, {}).get("title") or "Skatrunde")
            self.add_forum(chat_id, title=title)
        return self._new_topic(chat_id, name, icon_color)

    def _new_topic(self, chat_id: int, name: str, icon_color: int | None) -> int:
        topics = self.topics.setdefault(chat_id, {})
        if icon_color is None:
            icon_color = TOPIC_ICON_COLORS[len(topics) % len(TOPIC_ICON_COLORS)]
        thread_id = self._new_message_id(chat_id)
        self._messages.setdefault(chat_id, {})[thread_id] = {
            "message_id": thread_id,
            "from": dict(self.bot_user),
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
        if thread_id is not None:
            chat_type = "supergroup"
        chat = self._chat(chat_id, chat_type, chat_title, user)
        if thread_id is not None:
            self._chats[chat_id]["is_forum"] = True
            chat = dict(self._chats[chat_id])
            self.topics.setdefault(chat_id, {}).setdefault(thread_id, f"Thema {thread_id}")
        self.left_chats.discard(chat_id)
        self._kicked.discard(chat_id)
        message: JSONDict = {
            "message_id": self._new_message_id(chat_id),
            "from": user,
            "chat": chat,
            "date": int(time.time()),
            "text": text,
        }
        if sender_chat is not None:
            message["sender_chat"] = dict(sender_chat)
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        entities = _command_entities(text)
        if entities:
            message["entities"] = entities
        if reply_to is not None:
            message["reply_to_message"] = self._message_stub(chat_id, reply_to)
        self._messages.setdefault(chat_id, {})[message["message_id"]] = message
        return self.push_update({"message": message})

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
        or ``administrator`` (or a new user message, which implies the bot is back)."""
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

    def push_callback(
        self,
        data: str,
        *,
        message_id: int,
        chat_id: int = -1001,
        user_id: int = 1,
        first_name: str = "Spieler",
    ) -> int:
        """Queue a CallbackQuery update (a button press on a message); returns its update_id."""
        message = self._messages.get(chat_id, {}).get(message_id)
        if message is None:
            raise LookupError(f"no message {message_id} in chat {chat_id}")
        known = self._users.get(user_id)
        username = known.get("username") if known else None
        user = self._user(user_id, first_name, username)
        query_id = f"{BOT_ID}{self._next_callback_id:08d}"
        self._next_callback_id += 1
        self._callback_ids[query_id] = False
        query: JSONDict = {
            "id": query_id,
            "from": user,
            "message": copy.deepcopy(message),
            "chat_instance": f"ci{chat_id}",
            "data": data,
        }
        return self.push_update({"callback_query": query})

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

    def set_admins(
        self, chat_id: int, user_ids: Iterable[int], *, owner: int | None = None
    ) -> None:
        """Configure administrators of a chat (everyone else is a plain ``member``)."""
        self._admins[chat_id] = (owner, set(user_ids))

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

    # -- test API: inspection -------------------------------------------------------------

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

    def documents(self, chat_id: int | None = None) -> list[tuple[str, bytes]]:
        """(filename, bytes) of all documents the bot sent, oldest first."""
        return [doc for cid, doc in self._documents if chat_id is None or cid == chat_id]

    async def wait_confirmed(self, update_id: int, timeout: float = 10) -> None:
        """Return once a getUpdates call has confirmed ``update_id`` (offset > update_id)."""
        await self._wait_for(lambda: self.confirmed_offset > update_id, timeout)

    async def wait_for_call(
        self, method: str, *, count: int = 1, timeout: float = 10
    ) -> list[ApiCall]:
        """Wait until at least ``count`` successful calls of ``method`` were made."""
        await self._wait_for(lambda: len(self.sent(method)) >= count, timeout)
        return self.sent(method)

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

    # -- HTTP -----------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while True:
                try:
                    request = await read_request(reader)
                except BadRequest:
                    break  # a malformed request ends the connection
                if request is None:
                    break
                _verb, target, headers, body = request
                status, payload, content_type = await self._dispatch(target, headers, body)
                keep_alive = headers.get("connection", "").lower() != "close"
                phrase = _STATUS_PHRASES.get(status, "Error")
                head = (
                    f"HTTP/1.1 {status} {phrase}\r\n"
                    f"Content-Type: {content_type}\r\n"
                    f"Content-Length: {len(payload)}\r\n"
                    f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n"
                    "Server: skatbot-standin\r\n\r\n"
                )
                writer.write(head.encode("latin-1") + payload)
                await writer.drain()
                if not keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        except Exception:
            _LOGGER.exception("fake Bot API: connection handler failed")
        finally:
            self._connections.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _dispatch(
        self, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, bytes, str]:
        path = urlsplit(target)
        file_match = re.fullmatch(r"/file/bot([^/]+)/(.+)", path.path)
        if file_match:
            return self._download(file_match.group(1), unquote(file_match.group(2)))
        match = re.fullmatch(r"/bot([^/]*)/([A-Za-z_]+)", path.path)
        if match is None:
            return self._json(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        token, method = match.groups()
        try:
            params, files = self._parse_body(path.query, headers, body)
        except ValueError as exc:
            return self._error(_bad_request(str(exc)))
        call = ApiCall(method=method, params=params, files=files, time=time.monotonic())
        if token != self.token:
            call.status, call.error = 401, "Unauthorized"
            self.calls.append(call)
            return self._json(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        self.calls.append(call)
        handler = self._handlers.get(method.lower())
        if handler is None:
            call.status, call.error = 404, "Not Found: method not found"
            self._notify()
            return self._error(_ApiError(404, "Not Found: method not found"))
        try:
            await self._apply_faults(method)
            flood_chat = self._flood_check(method, params)
            result = handler(params, files)
            if isinstance(result, Awaitable):
                result = await result
            if flood_chat is not None:
                self._group_sends.setdefault(flood_chat, deque()).append(self._clock())
        except _ApiError as exc:
            call.status, call.error = exc.status, exc.description
            self._notify()
            return self._error(exc)
        except Exception as exc:  # a bug in the fake itself
            _LOGGER.exception("fake Bot API: %s failed", method)
            call.status, call.error = 500, f"Internal Server Error: {exc}"
            self._notify()
            return self._error(_ApiError(500, f"Internal Server Error: {exc}"))
        call.status, call.result = 200, result
        self._notify()
        return self._json(200, {"ok": True, "result": result})

    def _flood_check(self, method: str, params: JSONDict) -> int | None:
        """Refuse a send over the group limit with 429; returns the chat id to count the send
        against (``None`` when the call is not a group send or flood control is off)."""
        if self.group_limit is None or method.lower() not in _SEND_METHODS:
            return None
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
            raise _ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})
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
            raise _ApiError(
                429,
                fault.description or f"Too Many Requests: retry after {retry}",
                {"retry_after": retry},
            )
        if fault.status >= 400:
            phrase = _STATUS_PHRASES.get(fault.status, "Error")
            raise _ApiError(
                fault.status,
                fault.description or phrase,
                {"retry_after": fault.retry_after} if fault.retry_after else None,
            )

    @staticmethod
    def _parse_body(
        query: str, headers: dict[str, str], body: bytes
    ) -> tuple[JSONDict, dict[str, tuple[str, bytes]]]:
        params: JSONDict = {k: _decode_value(k, v) for k, v in parse_qsl(query)}
        files: dict[str, tuple[str, bytes]] = {}
        ctype, cparams = _parse_header_params(headers.get("content-type", ""))
        if not body:
            return params, files
        if ctype == "application/json":
            data = json.loads(body)
            if not isinstance(data, dict):
                raise ValueError("request body must be a JSON object")
            params.update(data)
        elif ctype == "multipart/form-data":
            boundary = cparams.get("boundary")
            if not boundary:
                raise ValueError("multipart body without boundary")
            form, files = _parse_multipart(body, boundary)
            params.update(form)
        else:
            for k, v in parse_qsl(body.decode("utf-8"), keep_blank_values=True):
                params[k] = _decode_value(k, v)
        return params, files

    @staticmethod
    def _json(status: int, obj: JSONDict) -> tuple[int, bytes, str]:
        return status, json.dumps(obj, ensure_ascii=False).encode(), "application/json"

    def _error(self, exc: _ApiError) -> tuple[int, bytes, str]:
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
            raise _bad_request("chat_id is empty")
        chat_id = params[key]
        if isinstance(chat_id, str):
            try:
                chat_id = int(chat_id)
            except ValueError:
                raise _bad_request("chat not found") from None
        chat = self._chats.get(chat_id)
        if chat is None:
            raise _bad_request("chat not found")
        return dict(chat)

    def _writable_chat(self, params: JSONDict) -> JSONDict:
        chat = self._known_chat(params)
        if chat["id"] in self.left_chats:
            kind = {
                "group": "group chat",
                "supergroup": "supergroup chat",
                "channel": "channel chat",
            }.get(chat["type"])
            if kind is None:
                raise _ApiError(403, "Forbidden: bot was blocked by the user")
            if chat["id"] in self._kicked:
                raise _ApiError(403, f"Forbidden: bot was kicked from the {kind}")
            raise _ApiError(403, f"Forbidden: bot is not a member of the {kind}")
        return chat

    def _thread(self, chat: JSONDict, params: JSONDict) -> int | None:
        """The forum topic a send goes to; 400 ``message thread not found`` for a thread id
        that is no topic of a forum, or any non-zero thread id in a chat without topics.
        A reply without ``message_thread_id`` lands in the topic of the replied-to message,
        as in Telegram (topics are reply threads)."""
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
            raise _bad_request("message thread not found") from None
        if thread_id == 0:
            return None
        if not chat.get("is_forum") or thread_id not in self.topics.get(chat["id"], {}):
            raise _bad_request("message thread not found")
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

    @staticmethod
    def _format_text(
        text: Any,
        parse_mode: Any,
        entities: Any,
        *,
        caption: bool = False,
        too_long: str | None = None,
    ) -> tuple[str, list[JSONDict]]:
        """Parse a text or caption as Telegram does and check it.

        The limits (4,096 for texts, 1,024 for captions) count UTF-16 code units of the text
        *after* entity parsing, so markup is free and an emoji outside the BMP counts 2.
        """
        text = "" if text is None else str(text)
        mode = str(parse_mode or "")
        if mode.lower() == "html":
            try:
                plain, ents = parse_html(text)
            except ValueError as exc:
                raise _bad_request(f"can't parse entities: {exc}") from None
        elif mode in ("", "Markdown", "MarkdownV2"):
            # Markdown is not parsed by the stand-in (the bot uses HTML): taken as plain text.
            plain, ents = text, list(entities) if isinstance(entities, list) else []
        else:
            raise _bad_request(f"unsupported parse_mode {mode}")
        if not caption and not plain.strip():
            raise _bad_request("message text is empty")
        limit = MAX_CAPTION_LENGTH if caption else MAX_TEXT_LENGTH
        if _utf16_len(plain) > limit:
            default = "message caption is too long" if caption else "message is too long"
            raise _bad_request(too_long or default)
        return plain, ents

    @staticmethod
    def _check_markup(markup: Any) -> JSONDict | None:
        if markup is None or markup == "":
            return None
        if not isinstance(markup, dict):
            raise _bad_request("can't parse reply keyboard markup JSON object")
        rows = markup.get("inline_keyboard")
        if rows is None:
            return markup
        if not isinstance(rows, list):
            raise _bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array'
            )
        for row in rows:
            if not isinstance(row, list):
                raise _bad_request(
                    'can\'t parse inline keyboard button: field "inline_keyboard" must be an array of arrays'
                )
            for button in row:
                if not isinstance(button, dict):
                    raise _bad_request(
                        "can't parse inline keyboard button: InlineKeyboardButton must be an Object"
                    )
                if not isinstance(button.get("text"), str) or not button["text"]:
                    raise _bad_request(
                        'can\'t parse inline keyboard button: Field "text" must be of type String'
                    )
                if not any(key in button for key in _BUTTON_ACTIONS):
                    raise _bad_request(
                        "can't parse inline keyboard button: Text buttons are unallowed in the "
                        "inline keyboard"
                    )
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise _bad_request("BUTTON_DATA_INVALID")
        return markup

    @staticmethod
    def _same_markup(a: JSONDict | None, b: JSONDict | None) -> bool:
        """Equal for "message is not modified": no keyboard and an empty one are the same."""

        def norm(markup: JSONDict | None) -> Any:
            if not markup or not markup.get("inline_keyboard"):
                return None
            return markup["inline_keyboard"]

        return bool(norm(a) == norm(b))

    def _store_bot_message(
        self,
        chat: JSONDict,
        params: JSONDict,
        *,
        text: str | None = None,
        entities: list[JSONDict] | None = None,
        extra: JSONDict | None = None,
        thread_id: int | None = None,
    ) -> tuple[JSONDict, BotMessage]:
        chat_id = chat["id"]
        markup = self._check_markup(params.get("reply_markup"))
        message: JSONDict = {
            "message_id": self._new_message_id(chat_id),
            "from": dict(self.bot_user),
            "chat": chat,
            "date": int(time.time()),
        }
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
        self._messages.setdefault(chat_id, {})[message["message_id"]] = message
        bot_message = BotMessage(
            chat_id=chat_id,
            message_id=message["message_id"],
            text=text,
            html=str(params["text"]) if text is not None and "text" in params else None,
            parse_mode=params.get("parse_mode"),
            reply_markup=markup,
            obj=message,
            thread_id=thread_id,
        )
        self._bot_messages.setdefault(chat_id, {})[message["message_id"]] = bot_message
        return copy.deepcopy(message), bot_message

    def _editable(self, params: JSONDict) -> BotMessage:
        if "inline_message_id" in params:
            raise _bad_request("inline messages are not supported by the stand-in")
        chat = self._known_chat(params)
        mid = params.get("message_id")
        if mid is None:
            raise _bad_request("message identifier is not specified")
        msg = self._bot_messages.get(chat["id"], {}).get(int(mid))
        if msg is None and int(mid) in self._messages.get(chat["id"], {}):
            raise _bad_request("message can't be edited")  # somebody else's message
        if msg is None or msg.deleted:
            raise _bad_request("message to edit not found")
        return msg

    # -- Bot API methods ------------------------------------------------------------------

    def _m_getMe(self, params: JSONDict, files: Any) -> JSONDict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": self.inline,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _m_getUpdates(self, params: JSONDict, files: Any) -> list[JSONDict]:
        if self.webhook is not None:
            raise _ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
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
        self._pending = [
            u for u in self._pending if any(k in allowed for k in u if k != "update_id")
        ]

    def _m_deleteWebhook(self, params: JSONDict, files: Any) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _m_setWebhook(self, params: JSONDict, files: Any) -> bool:
        url = str(params.get("url") or "")
        if not url:
            self.webhook = None
            return True
        if not url.startswith("https://"):
            raise _bad_request("bad webhook: An HTTPS URL must be provided for webhook")
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

    def _m_sendMessage(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._writable_chat(params)
        thread_id = self._thread(chat, params)
        text, entities = self._format_text(
            params.get("text"), params.get("parse_mode"), params.get("entities")
        )
        message, _ = self._store_bot_message(
            chat, params, text=text, entities=entities, thread_id=thread_id
        )
        return message

    def _m_editMessageText(self, params: JSONDict, files: Any) -> JSONDict:
        msg = self._editable(params)
        if msg.text is None:
            raise _bad_request("there is no text in the message to edit")
        text, entities = self._format_text(
            params.get("text"), params.get("parse_mode"), params.get("entities")
        )
        markup = self._check_markup(params.get("reply_markup"))
        old_entities = msg.obj.get("entities", [])
        if (
            text == msg.text
            and entities == old_entities
            and self._same_markup(markup, msg.reply_markup)
        ):
            raise _bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
        msg.text, msg.html, msg.parse_mode = text, str(params.get("text")), params.get("parse_mode")
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
        msg = self._editable(params)
        if msg.document is None:
            raise _bad_request("there is no caption in the message to edit")
        caption, entities = self._format_text(
            params.get("caption"),
            params.get("parse_mode"),
            params.get("caption_entities"),
            caption=True,
        )
        markup = self._check_markup(params.get("reply_markup"))
        old_entities = msg.obj.get("caption_entities", [])
        if (
            caption == (msg.caption or "")
            and entities == old_entities
            and self._same_markup(markup, msg.reply_markup)
        ):
            raise _bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
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
        msg = self._editable(params)
        markup = self._check_markup(params.get("reply_markup"))
        if self._same_markup(markup, msg.reply_markup):
            raise _bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )
        msg.reply_markup = markup
        msg.edits += 1
        self._set_markup(msg, markup)
        msg.obj["edit_date"] = int(time.time())
        return copy.deepcopy(msg.obj)

    @staticmethod
    def _set_markup(msg: BotMessage, markup: JSONDict | None) -> None:
        msg.obj.pop("reply_markup", None)
        if markup and "inline_keyboard" in markup:
            msg.obj["reply_markup"] = markup

    def _m_deleteMessage(self, params: JSONDict, files: Any) -> bool:
        chat = self._known_chat(params)
        mid = int(params.get("message_id") or 0)
        if mid not in self._messages.get(chat["id"], {}):
            raise _bad_request("message to delete not found")
        del self._messages[chat["id"]][mid]
        bot_msg = self._bot_messages.get(chat["id"], {}).get(mid)
        if bot_msg is not None:
            bot_msg.deleted = True
        return True

    def _m_answerCallbackQuery(self, params: JSONDict, files: Any) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        if self._callback_ids.get(query_id, True):
            raise _bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and _utf16_len(str(text)) > MAX_CALLBACK_ANSWER_LENGTH:
            raise _bad_request("MESSAGE_TOO_LONG")
        self._callback_ids[query_id] = True
        return True

    def _m_answerInlineQuery(self, params: JSONDict, files: Any) -> bool:
        query_id = str(params.get("inline_query_id") or "")
        if self._inline_ids.get(query_id, True):
            raise _bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = params.get("results")
        if not isinstance(results, list):
            raise _bad_request("can't parse inline query results JSON object")
        if len(results) > MAX_INLINE_RESULTS:
            raise _bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            self._check_inline_result(result, seen)
        self._inline_ids[query_id] = True
        self.inline_answers.append(copy.deepcopy(params))
        return True

    def _check_inline_result(self, result: Any, seen: set[str]) -> None:
        def cant_parse(what: str) -> _ApiError:
            return _bad_request(f"can't parse inline query result: {what}")

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
            raise _bad_request("RESULT_ID_EMPTY")
        if len(result_id.encode()) > 64:
            raise _bad_request("RESULT_ID_INVALID")
        if result_id in seen:
            raise _bad_request("RESULT_ID_DUPLICATE")
        seen.add(result_id)
        self._check_markup(result.get("reply_markup"))
        if kind != "article":
            return  # other result types: only the id rules are checked
        if "title" not in result:
            raise cant_parse('Can\'t find field "title"')
        if not str(result["title"]).strip():
            raise _bad_request("ARTICLE_TITLE_EMPTY")
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

    def _m_sendDocument(self, params: JSONDict, files: dict[str, tuple[str, bytes]]) -> JSONDict:
        chat = self._writable_chat(params)
        thread_id = self._thread(chat, params)
        ref = params.get("document")
        upload: tuple[str, bytes] | None = None
        if isinstance(ref, str) and ref.startswith("attach://"):
            upload = files.get(ref[len("attach://") :])
        elif "document" in files:
            upload = files["document"]
        if upload is not None:
            filename, content = upload
            if not content:
                raise _bad_request("file must be non-empty")
            file_id = f"BQACAgIAAx{self._next_file:06d}"
            self._files[file_id] = (filename, content, f"documents/file_{self._next_file}")
            self._next_file += 1
        elif isinstance(ref, str) and ref in self._files:
            file_id = ref
            filename, content, _ = self._files[ref]
        else:
            raise _bad_request("wrong file identifier/HTTP URL specified")
        caption_raw = params.get("caption")
        extra: JSONDict = {
            "document": {
                "file_id": file_id,
                "file_unique_id": f"AgAD{file_id[-6:]}",
                "file_name": filename,
                "mime_type": _guess_mime(filename),
                "file_size": len(content),
            }
        }
        caption: str | None = None
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
        message, bot_msg = self._store_bot_message(chat, params, extra=extra, thread_id=thread_id)
        bot_msg.caption = caption
        bot_msg.document = (filename, content)
        self._documents.append((chat["id"], (filename, content)))
        return message

    def _m_sendChatAction(self, params: JSONDict, files: Any) -> bool:
        self._thread(self._writable_chat(params), params)
        return True

    def _m_createForumTopic(self, params: JSONDict, files: Any) -> JSONDict:
        chat = self._writable_chat(params)
        if not chat.get("is_forum"):
            raise _bad_request("the chat is not a forum")
        name = str(params.get("name") or "")
        if not name.strip():
            raise _bad_request("TOPIC_TITLE_EMPTY")
        if len(name) > MAX_TOPIC_NAME_LENGTH:
            raise _bad_request("TOPIC_TITLE_TOO_LONG")
        color = params.get("icon_color")
        if color is not None and color not in TOPIC_ICON_COLORS:
            raise _bad_request("TOPIC_ICON_COLOR_INVALID")
        thread_id = self._new_topic(chat["id"], name, color)
        topic: JSONDict = {
            "message_thread_id": thread_id,
            "name": name,
            "icon_color": self._topic_colors[(chat["id"], thread_id)],
        }
        if params.get("icon_custom_emoji_id"):
            topic["icon_custom_emoji_id"] = str(params["icon_custom_emoji_id"])
        return topic

    def _m_getFile(self, params: JSONDict, files: Any) -> JSONDict:
        file_id = str(params.get("file_id") or "")
        if file_id not in self._files:
            raise _bad_request("invalid file_id")
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
        if not isinstance(commands, list) or len(commands) > 100:
            raise _bad_request(
                "BOT_COMMANDS_TOO_MUCH" if commands else "commands must be non-empty"
            )
        for cmd in commands:
            name = str(cmd.get("command", "")) if isinstance(cmd, dict) else ""
            desc = str(cmd.get("description", "")) if isinstance(cmd, dict) else ""
            if not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise _bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(desc) <= 256:
                raise _bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._commands_key(params)] = [dict(c) for c in commands]
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
            raise _bad_request("message to pin not found")
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
            raise _bad_request("message to unpin not found")
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
        user = dict(self._users.get(user_id) or {})
        if user_id == BOT_ID:
            user = dict(self.bot_user)
        if not user:
            user = {"id": user_id, "is_bot": False, "first_name": f"Nutzer {user_id}"}
        owner, admins = self._admins.get(chat_id, (None, set()))
        if owner == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in admins:
            return self._member_admin(user)
        if chat_id in self.left_chats and user_id == BOT_ID:
            if chat_id in self._kicked:
                return {"status": "kicked", "user": user, "until_date": 0}
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
            raise _bad_request("invalid user_id specified")
        return self._member(chat["id"], user_id)

    def _m_getChatAdministrators(self, params: JSONDict, files: Any) -> list[JSONDict]:
        chat = self._known_chat(params)
        owner, admins = self._admins.get(chat["id"], (None, set()))
        ids = ([owner] if owner is not None else []) + sorted(admins - {owner})
        return [self._member(chat["id"], uid) for uid in ids]

    def _m_getChatMemberCount(self, params: JSONDict, files: Any) -> int:
        self._known_chat(params)
        return len(self._users) + 1

    def _m_leaveChat(self, params: JSONDict, files: Any) -> bool:
        chat = self._known_chat(params)
        self._set_bot_status(chat["id"], "left")
        return True

    def _m_close(self, params: JSONDict, files: Any) -> bool:
        return True

    def _m_logOut(self, params: JSONDict, files: Any) -> bool:
        return True


def _guess_mime(filename: str) -> str:
    import mimetypes

    return mimetypes.guess_type(filename)[0] or "application/octet-stream"
