"""What a handler answers: HTML text, optionally a document and buttons."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Document:
    filename: str
    data: bytes
    caption: str = ""


@dataclass(frozen=True)
class Reply:
    text: str  # Telegram HTML; every user-provided string in it is escaped
    documents: tuple[Document, ...] = ()
    buttons: tuple[tuple[tuple[str, str], ...], ...] = field(default=())  # rows of (label, data)


@dataclass(frozen=True)
class Command:
    """The parts of an update a use case needs (no Telegram types below the handlers)."""

    chat_id: int
    chat_title: str
    user_id: int | None
    user_name: str
    update_id: int
    args: tuple[str, ...]
    text: str = ""
