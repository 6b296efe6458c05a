"""What the stand-in's Bot API records and answers: a call, an error answer, a message the bot
sent. Apart from ``botapi`` so that its helpers (``ephemeral``, ``polls``) can name them without
importing the API they serve."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skatbot.standin.rich import RichContent

__all__ = ["ApiCall", "ApiError", "BotMessage", "JSONDict", "bad_request"]

JSONDict = dict[str, Any]


class ApiError(Exception):
    """A Bot API error answer (``ok: false``); raise it from a method or hook."""

    def __init__(self, status: int, description: str, parameters: JSONDict | None = None):
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def bad_request(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


@dataclass
class ApiCall:
    """One call the Bot API received."""

    method: str
    """Bot API method name as spelled in the URL (e.g. ``sendMessage``)."""
    params: JSONDict
    """Parameters with JSON values decoded (``chat_id`` is an int, ``reply_markup`` a dict)."""
    files: dict[str, tuple[str, bytes]]
    """Uploaded files: part name -> (filename, content)."""
    time: float
    """``time.monotonic()`` when the request arrived."""
    status: int = 0
    """Status of the answer, as HTTP would carry it (200 on success); 0 while the call runs."""
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
    photo: tuple[str, bytes] | None = None
    """(filename, content) of a sent photo."""
    edits: int = 0
    pinned: bool = False
    deleted: bool = False
    obj: JSONDict = field(default_factory=dict)
    """The Message object as last returned by the API."""
    thread_id: int | None = None
    """Forum topic (``message_thread_id``) the message was sent to; ``None`` outside topics."""
    rich: RichContent | None = None
    """A rich message's content (``sendRichMessage``); ``text`` is then its plain form."""
    rich_html: str | None = None
    receiver: int | None = None
    """An ephemeral message's one reader (its ``receiver_user``); ``None``: the group's."""
    ephemeral_id: int | None = None
    """An ephemeral message's ``ephemeral_message_id`` (its ``message_id`` is 0)."""
    replaces: int | None = None
    """The message an ephemeral one is shown in place of for its reader
    (``replace_callback_query_message``)."""
    seq: int = 0
    """Order of sending among all the bot's messages, public and ephemeral."""
    poll_id: str | None = None
    """A poll's id (``BotApi.polls``); ``text`` is then its question."""

    @property
    def buttons(self) -> list[list[JSONDict]]:
        """Rows of inline keyboard buttons (empty if there is no inline keyboard)."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard")
        return list(rows) if isinstance(rows, list) else []

    @property
    def rich_buttons(self) -> list[list[JSONDict]]:
        """Rows of buttons inside a rich message (``<tg-button-row>``, Bot API 10.3), as
        ``RichMessageButton`` objects; empty for any other message."""
        if self.rich is None:
            return []
        blocks = self.rich.blocks_json()
        return [list(b["buttons"]) for b in blocks if b["type"] == "buttons"]

    @property
    def all_buttons(self) -> list[list[JSONDict]]:
        """Every row of buttons as a reader sees them: those inside the message, then the
        inline keyboard under it."""
        return [*self.rich_buttons, *self.buttons]
