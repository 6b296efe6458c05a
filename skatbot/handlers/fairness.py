"""Heavy commands (a PDF, a picture, a big computation) shared fairly within a chat.

A heavy command that only reads is cheap to ask for and dear to answer: rendering costs CPU
that every other chat waits for, and its document takes send slots of the group's ~20 a
minute. So, per chat:

* the same command asked again in a row (the same text) in the same place (a forum topic is
  a place of its own, with its own list) within ``REPEAT_SECONDS`` is answered once: the
  second ask gets a short note, no second document. The same words in another topic name
  another list, so both are sent;
* a member may ask for ``PER_MEMBER`` of them per ``WINDOW`` seconds; more are refused with
  the wait. Those who run the place (a desk's management, the chat's admins: ``limited``
  False) are not counted: the evening's end asks them for a ranking, certificates, a cash
  report and an export at once. The chat's pending documents and the group's pace still
  hold for them;
* at most ``PENDING`` documents wait in the chat's outbox; a further ask is refused until
  they are out (the documents' lane of the outbox, ``outbox.queues.Outbox``, keeps them from
  holding up any other reply);
* each of those notes and refusals is sent to a member once per ``WINDOW``: further asks
  held back for the same reason within it get no answer (``quiet``). Notes are paced like
  every reply, so one member asking forty times would otherwise put forty notes in front of
  everyone else's answers. (The Bot API has no message only one member of a group sees.)

and over all chats one heavy read renders at a time (``renders``), so bookings elsewhere keep
the event loop. Per-chat state is kept for the ``CHATS_KEPT`` chats used last (LRU): a chat
forgotten only loses its repeat note and rate window.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from skatbot.rules.errors import RuleError


class Route(Protocol):
    """What fairness reads of a route of the route table (``routes.Route``; not imported:
    the route table imports the runtime, which imports this module)."""

    @property
    def name(self) -> str: ...

    @property
    def document(self) -> bool: ...


# Heavy reads that answer with a document or picture: always (their route says
# ``document=True``), or when asked with one of these words.
DOCUMENT_WORDS = frozenset({"pdf", "bild"})
REPEAT_SECONDS = 30.0
PER_MEMBER = 3
WINDOW = 60.0
PENDING = 3
CHATS_KEPT = 4096


@dataclass
class _Chat:
    last: dict[int, tuple[str, float]] = field(default_factory=dict)  # place -> (text, when)
    asked: dict[int | None, deque[float]] = field(default_factory=dict)  # member -> times
    told: dict[tuple[int | None, str], float] = field(default_factory=dict)  # (member, why)


class Repeated(Exception):
    """The same heavy command again in a row: answered with a note instead (``quiet``:
    with nothing, the member had the note within the window)."""

    def __init__(self, quiet: bool = False) -> None:
        super().__init__()
        self.quiet = quiet


class Throttled(RuleError):
    """A heavy read refused for now (the member's rate, the chat's pending documents);
    ``quiet``: the member was told so within the window, answer nothing."""

    def __init__(self, message: str, *, hint: str, quiet: bool) -> None:
        super().__init__(message, hint=hint)
        self.quiet = quiet


class Fairness:
    def __init__(
        self,
        *,
        repeat_seconds: float = REPEAT_SECONDS,
        per_member: int = PER_MEMBER,
        window: float = WINDOW,
        pending: int = PENDING,
        clock: Any = time.monotonic,
    ) -> None:
        self.repeat_seconds = repeat_seconds
        self.per_member = per_member
        self.window = window
        self.pending = pending
        self._chats: OrderedDict[int, _Chat] = OrderedDict()
        self._clock = clock
        self._renders: asyncio.Semaphore | None = None

    @property
    def renders(self) -> asyncio.Semaphore:
        if self._renders is None:
            self._renders = asyncio.Semaphore(1)
        return self._renders

    def _chat(self, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = _Chat()
        self._chats.move_to_end(chat_id)
        while len(self._chats) > CHATS_KEPT:
            self._chats.popitem(last=False)
        return chat

    def changed(self, chat_id: int) -> None:
        """Something was written in the chat: the next document may differ, not a repeat."""
        # Any place of the chat: a table's signature in its topic changes the desk's ranking.
        chat = self._chats.get(chat_id)
        if chat is not None:
            chat.last.clear()

    def over_limit(self, chat_id: int, user_id: int | None) -> bool:
        """Whether the member has had their ``per_member`` documents within the window (so
        the caller asks whether they run the place before ``admit``)."""
        chat = self._chats.get(chat_id)
        if chat is None:
            return False
        old = self._clock() - self.window
        return sum(1 for t in chat.asked.get(user_id, ()) if t > old) >= self.per_member

    def admit(
        self,
        chat_id: int,
        place_id: int,
        user_id: int | None,
        text: str,
        pending: int,
        *,
        limited: bool = True,
    ) -> None:
        """Let a heavy read through, or raise ``Repeated`` / ``Throttled`` saying why not.
        ``place_id``: where it was asked (the chat, or its forum topic's place);
        ``pending``: the documents waiting in the chat's outbox now; ``limited`` False: the
        asker runs the place and has no member's limit."""
        now = self._clock()
        chat = self._chat(chat_id)
        self._forget_old(chat, now)
        asked = " ".join(text.split()).lower()
        last = chat.last.get(place_id)
        if last is not None and last[0] == asked and now - last[1] < self.repeat_seconds:
            raise Repeated(quiet=self._told(chat, user_id, "repeat", now))
        if pending >= self.pending:
            raise Throttled(
                f"Für diesen Chat sind noch {pending} Dokumente unterwegs.",
                hint="Sobald sie da sind, noch einmal fragen.",
                quiet=self._told(chat, user_id, "pending", now),
            )
        times = chat.asked.setdefault(user_id, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if limited and len(times) >= self.per_member:
            wait = max(1, int(times[0] + self.window - now + 0.999))
            raise Throttled(
                f"Du hast gerade {self.per_member} Dokumente angefordert – das nächste in {wait} s.",
                hint="So kommen auch die Einträge der anderen sofort an.",
                quiet=self._told(chat, user_id, "rate", now),
            )
        if limited:
            times.append(now)
        chat.last[place_id] = (asked, now)

    def _told(self, chat: _Chat, user_id: int | None, why: str, now: float) -> bool:
        """Whether the member heard ``why`` within the window already; if not, they hear it
        now (counted from now)."""
        if (user_id, why) in chat.told:
            return True
        chat.told[(user_id, why)] = now
        return False

    def _forget_old(self, chat: _Chat, now: float) -> None:
        for place in [p for p, (_, when) in chat.last.items() if now - when >= self.repeat_seconds]:
            del chat.last[place]
        old = now - self.window
        for member in [m for m, t in chat.asked.items() if not t or t[-1] <= old]:
            del chat.asked[member]
        for key in [k for k, when in chat.told.items() if when <= old]:
            del chat.told[key]


def makes_document(text: str, routes: Iterable[Route]) -> bool:
    """Whether a heavy read's text asks for a document or picture (``routes``: the route
    table, whose ``document`` flag names the commands that always answer with one)."""
    words = text.lower().split()
    if not words:
        return False
    name = words[0].lstrip("/").split("@")[0]
    if any(w in DOCUMENT_WORDS for w in words[1:]):
        return True
    return any(r.document and r.name == name for r in routes)


def repeated_note(text: str) -> str:
    from html import escape

    command = escape(" ".join(text.split()))
    return f"⏳ {command} kommt schon – eben angefordert, ich schicke es nur einmal."
