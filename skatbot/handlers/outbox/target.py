"""Where a reply goes: a chat, and in a forum its topic."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Update


@dataclass(frozen=True)
class Target:
    """Where a reply goes: a chat, and in a forum the topic (``None``: no topic/General)."""

    chat_id: int
    thread_id: int | None = None

    def thread_kwargs(self) -> dict[str, int]:
        return {"message_thread_id": self.thread_id} if self.thread_id else {}


def topic_of(message: object) -> int | None:
    """The forum topic of a message. A reply in an ordinary supergroup carries a
    ``message_thread_id`` too (its reply thread); only ``is_topic_message`` means a topic."""
    if getattr(message, "is_topic_message", False):
        thread = getattr(message, "message_thread_id", None)
        return thread if isinstance(thread, int) else None
    return None


def target_of(update: Update) -> Target | None:
    chat = update.effective_chat
    if chat is None:
        return None
    return Target(chat.id, topic_of(update.effective_message))
