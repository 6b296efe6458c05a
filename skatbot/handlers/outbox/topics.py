"""What the outbox says when a file or a forum topic fails it, and the topic names it needs.

* A document or photo that cannot be sent after the last try does not take its caption
  with it: the text goes out as a message with a note that the file is missing.
* A reply refused because its forum topic is closed goes to the chat's General topic,
  headed by the topic's name (remembered from the topic messages the bot has seen, see
  ``handlers.resilience.remember_topic_name``).
"""

from __future__ import annotations

from collections import OrderedDict
from html import escape

FILE_FAILED_NOTE = "📎 Die Datei {name} konnte nicht gesendet werden; hier der Text dazu."
TOPIC_CLOSED_NOTE = "🔒 Das Thema {name} ist geschlossen – die Antwort steht hier."
TOPIC_NAMES_KEPT = 4096


def file_failed_text(caption: str, filename: str, *, html: bool) -> str:
    """The HTML of the message that replaces a document or photo that could not be sent."""
    note = FILE_FAILED_NOTE.format(name=f"„{escape(filename)}“")
    body = caption if html else escape(caption)
    return f"{note}\n{body}" if body else note


def is_topic_closed(err: Exception) -> bool:
    return "topic_closed" in str(getattr(err, "message", err)).lower()


class TopicNames:
    """The names of the forum topics the bot has seen, per (chat, topic); the ones seen last
    (``TOPIC_NAMES_KEPT``)."""

    def __init__(self) -> None:
        self._names: OrderedDict[tuple[int, int], str] = OrderedDict()

    def remember(self, chat_id: int, thread_id: int, name: str) -> None:
        key = (chat_id, thread_id)
        self._names[key] = name
        self._names.move_to_end(key)
        while len(self._names) > TOPIC_NAMES_KEPT:
            self._names.popitem(last=False)

    def label(self, chat_id: int, thread_id: int) -> str:
        """The topic's name in quotes (HTML-escaped), or its number if no name was seen."""
        name = self._names.get((chat_id, thread_id))
        return f"„{escape(name)}“" if name else f"Nr. {thread_id}"

    def closed_note(self, chat_id: int, thread_id: int) -> str:
        return TOPIC_CLOSED_NOTE.format(name=self.label(chat_id, thread_id))
