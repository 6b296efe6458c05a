"""Use cases without Telegram: the harness most behaviour tests run on (``chat`` fixture).

A message becomes the ``Command`` its route's use case gets (as ``runtime.command_of`` makes
it), the use case runs in a real database transaction exactly as the runtime runs it
(``runtime.effect``: the chat locked, the update id stored, a booking's message linked), and
its ``Reply`` goes out through the product's own outbox (``handlers.outbox``: the delivery's
captions, rich messages and their text form, ``on_sent``, edits and their coalescing, forum
topics, posts, a refused private chat's ``instead``), unpaced, to an in-memory chat
(``tests/harness_wire.py``). No PTB, no HTTP, no pacing: a command costs what its use case
and its delivery cost.

Every message gets an id (one counter per chat, shared with the users' messages), so a
conversation of many commands goes on as in a chat. What the outbox logs as an error and goes
on from fails the test here.

How a reply looks on the wire against Telegram's limits (HTML split at 4,096 characters,
captions, flood control, retries, a failed upload) is tested through PTB and the strict
stand-in (``tests/helpers.py:Bot``, the ``bot`` fixture), as is everything else about
Telegram: identities, edited messages, topics' thread ids, buttons' limits.

``say`` returns the same ``helpers.Reply`` list as ``Bot.say`` (text as a user reads it: the
text form, also of a table), so ``ok``/``refused``/``export_raw`` work on both; ``run``
returns the product's ``Reply`` objects themselves.
"""

from __future__ import annotations

import itertools
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from skatbot.handlers import durable
from skatbot.handlers.command_like import LOOKS_LIKE_COMMAND
from skatbot.handlers.outbox.delivery import Delivery
from skatbot.handlers.outbox.ephemeral import EphemeralRefusals
from skatbot.handlers.outbox.rich import RichRefusals
from skatbot.handlers.outbox.target import Target
from skatbot.handlers.routes import ROUTES, Kind, Route
from skatbot.handlers.runtime import STALE_BUTTON, effect, once, replies_of, words_of
from skatbot.handlers.typos import spelled_route, unknown_answer
from skatbot.rules.errors import RuleError
from skatbot.storage import topic_places
from skatbot.storage.database import Database
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import (
    PLACEHOLDER_IDS,
    Answer,
    Asker,
    Command,
    Reply,
    error_text,
)
from tests.harness_wire import Buttons, Wire, unpaced_outbox
from tests.helpers import Reply as Seen
from tests.standin.fake_telegram import BOT_USERNAME, html_to_text

# Telegram marks a command only for these characters (an entity of type bot_command).
COMMAND = re.compile(r"^/([A-Za-z0-9_]{1,32})(?:@(\w+))?$")
CHAT_TITLE = "Skatrunde"


class NotInHarness(Exception):
    """A message whose route is Telegram glue (a PTB callback): use the ``bot`` fixture."""


@dataclass
class Message:
    """A bot message as the chat shows it now."""

    chat_id: int
    thread_id: int
    message_id: int
    html: str
    buttons: tuple[tuple[tuple[str, str], ...], ...] = ()
    document: tuple[str, bytes] | None = None
    pinned: bool = False
    edits: int = 0
    reader: int = 0  # an ephemeral message (its id is the ephemeral_message_id): who sees it

    @property
    def text(self) -> str:
        return html_to_text(self.html)

    def data(self, label: str) -> str:
        """The callback data of the button labelled ``label`` (the first that contains it)."""
        for row in self.buttons:
            for text, data in row:
                if label in text:
                    return data
        raise LookupError(f"no button {label!r} on message {self.message_id}: {self.buttons}")


@dataclass
class Tapped:
    """What a tap answered: the notice (callback answer) and the messages it sent or edited."""

    notice: str
    alert: bool  # refused: a dialog, or where the chat takes them a notice and ``private``
    replies: list[Seen] = field(default_factory=list)
    private: list[Seen] = field(default_factory=list)  # what only the tapper sees

    @property
    def text(self) -> str:
        return "\n".join(r.text for r in self.replies)


class _Failures(logging.Handler):
    """The outbox's errors (a failed ``on_sent``, a refused request) while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Harness:
    """The route table's use cases on a real database, driven like a chat (see the module)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # The bot's public web address (``BotState.public_url``); None: none is set.
        self.public_url: str | None = None
        self.admins: dict[int, set[int]] = {}  # Telegram chat -> its admins' user ids
        self.forums: set[int] = set()  # chats with topics where the bot may open topics
        self.messages: dict[tuple[int, int], Message] = {}  # the bot's messages, now
        self.closed_topics: set[tuple[int, int]] = set()
        self._ids: dict[int, itertools.count[int]] = {}
        self._updates = itertools.count(1)
        self._topics = itertools.count(2)  # General is thread 1
        self._places: dict[tuple[int, int], int] = {}
        # (chat, message id, what it showed) in the order it happened
        self._seen: list[tuple[int, int, Seen]] = []
        # Whether the server takes rich messages: yes by default, as Telegram does since Bot
        # API 10.1 (a table reads as the rich stand-in shows it). Without (a server before
        # 10.1, like the ``bot`` fixture's stand-in by default), a table goes out in its text
        # form, as the delivery sends it when the server refuses sendRichMessage.
        self._rich_messages = True
        # Whether the server takes ephemeral messages (Bot API 10.3): yes by default, as the
        # ``bot`` fixture's stand-in; without, the parameter is ignored (a public message).
        self._ephemeral_messages = True
        self.for_reader: list[tuple[int, int, Seen]] = []  # (chat, reader, message) ephemeral
        # the bot's ephemeral messages as their readers see them now, by (chat, ephemeral id)
        self.ephemeral: dict[tuple[int, int], Message] = {}
        self.topic_names: dict[tuple[int, int], str] = {}  # (chat, thread): the bot's topics
        # Users who wrote to the bot privately: as in Telegram, the bot may not write first
        # to anyone else (a reply's ``instead`` goes out then).
        self.started: set[int] = set()
        self.polls: dict[str, tuple[int, int]] = {}  # poll id -> (chat, message id)
        self.stopped_polls: set[tuple[int, int]] = set()
        self.no_polls: set[int] = set()  # chats whose permissions allow no polls
        self.outbox = unpaced_outbox()
        self.wire = Wire(self)
        # What the outbox logs and goes on from (as in production) fails the test here.
        self.failures = _Failures()
        logging.getLogger("skatbot.handlers.outbox").addHandler(self.failures)

    @property
    def rich_messages(self) -> bool:
        return self._rich_messages

    @rich_messages.setter
    def rich_messages(self, taken: bool) -> None:
        self._rich_messages = taken
        self.outbox.rich_refused = RichRefusals()  # a server switched: nothing learnt yet

    @property
    def ephemeral_messages(self) -> bool:
        return self._ephemeral_messages

    @ephemeral_messages.setter
    def ephemeral_messages(self, taken: bool) -> None:
        self._ephemeral_messages = taken
        self.outbox.ephemeral = EphemeralRefusals()  # a server switched: nothing learnt yet

    def close(self) -> None:
        logging.getLogger("skatbot.handlers.outbox").removeHandler(self.failures)

    # --- the chat's side -------------------------------------------------------------------

    def set_admins(self, chat_id: int, *user_ids: int) -> None:
        self.admins[chat_id] = set(user_ids)

    def add_forum(self, chat_id: int) -> None:
        self.forums.add(chat_id)

    def _next_id(self, chat_id: int) -> int:
        return next(self._ids.setdefault(chat_id, itertools.count(1)))

    def is_admin(self, chat_id: int, user_id: int | None) -> bool:
        if chat_id > 0:  # a private chat: its user
            return user_id == chat_id
        return user_id is not None and user_id in self.admins.get(chat_id, set())

    async def _place(self, chat_id: int, thread_id: int) -> int:
        if not thread_id:
            return chat_id
        key = (chat_id, thread_id)
        if key not in self._places:
            self._places[key] = await self.db.write(
                lambda s: topic_places.place_id(s, chat_id, thread_id)
            )
        return self._places[key]

    # --- messages ---------------------------------------------------------------------------

    async def run(
        self,
        text: str,
        *,
        chat_id: int = -1001,
        user_id: int = 1,
        name: str = "Spieler",
        thread_id: int = 0,
        sender_chat: tuple[int, str] | None = None,
        reply_to: tuple[int, str] | None = None,
    ) -> list[Reply]:
        """Send ``text`` and return the use case's reply (and the replies that follow from
        it: a new topic's first message, posts): the product's ``Reply`` objects.
        ``sender_chat`` (id, title) sends on behalf of a chat: the group itself (an
        anonymous admin) or a channel; ``reply_to`` (user id, name) answers a message of
        that user (``Command.named_users``)."""
        replies, _ = await self._message(
            text, chat_id, user_id, name, thread_id, sender_chat, reply_to
        )
        return replies

    async def say(
        self,
        text: str,
        *,
        chat_id: int = -1001,
        user_id: int = 1,
        name: str = "Spieler",
        thread_id: int = 0,
        sender_chat: tuple[int, str] | None = None,
        reply_to: tuple[int, str] | None = None,
    ) -> list[Seen]:
        """Send ``text``; what the chat ``chat_id`` got, as ``Bot.say`` returns it."""
        _, seen = await self._message(
            text, chat_id, user_id, name, thread_id, sender_chat, reply_to
        )
        return [r for chat, r in seen if chat == chat_id]

    async def text(self, message: str, **kw: Any) -> str:
        return "\n".join(r.text for r in await self.say(message, **kw))

    async def _message(
        self,
        text: str,
        chat_id: int,
        user_id: int,
        name: str,
        thread_id: int,
        sender_chat: tuple[int, str] | None = None,
        reply_to: tuple[int, str] | None = None,
    ) -> tuple[list[Reply], list[tuple[int, Seen]]]:
        start = len(self._seen)
        if chat_id > 0:  # the user wrote to the bot privately: it may write to them now
            self.started.add(chat_id)
        source = self._next_id(chat_id)
        update_id = next(self._updates)
        user: int | None = None if user_id in PLACEHOLDER_IDS else user_id
        admin = self.is_admin(chat_id, user)
        if sender_chat is not None:  # as runtime.sender_of and admin.is_chat_admin see it
            user, name = sender_chat
            admin = user == chat_id
        words = text.split()
        head = COMMAND.match(words[0]) if words else None
        route = _command_route(head[1].casefold()) if head is not None else None
        spelled = spelled_route(text, ROUTES, BOT_USERNAME) if words else None
        if spelled is not None:  # /rückgängig: run as the route it spells (handlers/typos.py)
            route = spelled
        elif (
            head is None
            or route is None
            or (head[2] and head[2].casefold() != BOT_USERNAME.casefold())
        ):
            # no route of ours takes it: the answer of handlers/typos.py, if any
            answer = None
            if LOOKS_LIKE_COMMAND.match(text):
                answer = unknown_answer(text, ROUTES, BOT_USERNAME, private=chat_id > 0)
            out = [] if answer is None else [Reply(answer, refusal=True)]
            return await self._finish(out, chat_id, thread_id, start)
        if not route.is_use_case:
            raise NotInHarness(f"/{route.name} is Telegram glue: test it with the bot fixture")
        try:
            args = words_of(text)
        except RuleError as err:
            return await self._finish(
                [Reply(error_text(err), refusal=True)], chat_id, thread_id, start
            )
        cmd = Command(
            place_id=await self._place(chat_id, thread_id),
            chat_title=CHAT_TITLE if chat_id < 0 else name,
            user_id=user,
            user_name=name,
            update_id=update_id,
            args=args,
            text=text,
            is_admin=route.asks_admin and admin,
            source_message_id=source,
            thread_id=thread_id,
            telegram_chat_id=chat_id,
            is_forum=chat_id in self.forums,
            bot_username=BOT_USERNAME,
            named_users=(reply_to,) if reply_to is not None else (),
            public_url=self.public_url,
        )
        use_case = route.use_case
        link: durable.Link | None = None
        try:
            if route.write:
                done = await self.db.write(
                    lambda s: effect(s, use_case, cmd, link=route.editable),
                    offload=route.heavy,
                )
                assert done is not None  # every update id is new here
                reply, link = done
            else:
                reply = await self.db.read(lambda s: use_case(s, cmd), offload=route.heavy)
        except RuleError as err:
            reply = Reply(error_text(err), refusal=True)
        replies = [reply]
        await self._deliver(reply, chat_id, thread_id, link=link)
        return replies, self._seen_since(start)

    async def _finish(
        self, replies: list[Reply], chat_id: int, thread_id: int, start: int
    ) -> tuple[list[Reply], list[tuple[int, Seen]]]:
        for reply in list(replies):
            await self._deliver(reply, chat_id, thread_id)
        return replies, self._seen_since(start)

    # --- buttons ----------------------------------------------------------------------------

    async def tap(
        self,
        message: Message | int,
        label_or_data: str,
        *,
        chat_id: int | None = None,
        user_id: int = 1,
        name: str = "Spieler",
    ) -> Tapped:
        """Tap a button of a bot message: by its callback data, or by (part of) its label."""
        msg = message if isinstance(message, Message) else None
        if msg is None:
            assert chat_id is not None, "a message id needs its chat_id"
            msg = self.messages[(chat_id, int(message))]
        if msg.reader and msg.reader != user_id:
            raise AssertionError("only its reader sees (and can tap) an ephemeral message")
        offered = {d: t for row in msg.buttons for t, d in row}
        data = label_or_data if label_or_data in offered else ""
        if not data:
            data = next((d for d, t in offered.items() if label_or_data in t), "")
        if not data or len(data.encode()) > 64:
            return Tapped(STALE_BUTTON, False)
        route = next(
            r for r in ROUTES if r.kind is Kind.CALLBACK and re.match(r.pattern or "", data)
        )
        use_case: Callable[[Session, Command], Answer]
        admin = self.is_admin(msg.chat_id, user_id)
        if route.name == "builder":  # its glue only asks whether the tapper is an admin
            from skatbot.usecases.sheet.builder.flow import builder_tap

            use_case = builder_tap
        elif route.is_use_case:
            use_case = route.use_case
        else:
            raise NotInHarness(f"the button {route.name} is Telegram glue: use the bot fixture")
        cmd = Command(
            place_id=await self._place(msg.chat_id, msg.thread_id),
            chat_title=CHAT_TITLE,
            user_id=None if user_id in PLACEHOLDER_IDS else user_id,
            user_name=name,
            update_id=next(self._updates),
            args=(data,),
            text=data,
            message_id=0 if msg.reader else msg.message_id,
            ephemeral_message_id=msg.message_id if msg.reader else 0,
            is_admin=admin and (route.name == "builder" or route.asks_admin),
            thread_id=msg.thread_id,
            telegram_chat_id=msg.chat_id,
            is_forum=msg.chat_id in self.forums,
            bot_username=BOT_USERNAME,
        )
        start = len(self._seen)
        try:
            answer = await self.db.write(
                lambda s: once(s, cmd, lambda: use_case(s, cmd)), offload=route.heavy
            )
        except RuleError as err:
            # as runtime.refuse_tap: the refusal for the tapper alone where the chat takes it
            notice = err.message + (f" {err.hint}" if err.hint else "")
            if user_id in PLACEHOLDER_IDS or not self.outbox.ephemeral.allowed(msg.chat_id):
                return Tapped(notice, True)
            start, private = len(self._seen), len(self.for_reader)
            asker = Asker(user_id, f"tap-{cmd.update_id}", time.time())
            refusal = Reply(error_text(err), refusal=True, for_asker=True, asker=asker)
            await self._deliver(refusal, msg.chat_id, msg.thread_id)
            seen = [r for chat, r in self._seen_since(start) if chat == msg.chat_id]
            mine = [r for _, reader, r in self.for_reader[private:] if reader == user_id]
            return Tapped(notice, True, seen, mine)
        assert answer is not None
        private = len(self.for_reader)
        tapper = (
            None if cmd.user_id is None else Asker(user_id, f"tap-{cmd.update_id}", time.time())
        )
        for reply in replies_of(cmd, answer, tapper):
            await self._deliver(reply, msg.chat_id, msg.thread_id)
        seen = [r for chat, r in self._seen_since(start) if chat == msg.chat_id]
        mine = [r for _, reader, r in self.for_reader[private:] if reader == user_id]
        return Tapped(answer.notice, answer.alert, seen, mine)

    # --- what a reply asks for after sending ------------------------------------------------

    def last(self, chat_id: int = -1001, *, with_buttons: bool = False) -> Message:
        """The chat's latest bot message (with buttons, if asked)."""
        found = [
            m
            for (chat, _), m in self.messages.items()
            if chat == chat_id and (m.buttons or not with_buttons)
        ]
        if not found:
            raise LookupError(f"no bot message in chat {chat_id}")
        return max(found, key=lambda m: m.message_id)

    # --- the wire's side (``harness_wire.Wire``, called by the outbox) --------------------

    def show(self, chat_id: int, message_id: int, seen: Seen) -> None:
        self._seen.append((chat_id, message_id, seen))

    def send(
        self,
        chat_id: int,
        thread_id: int,
        html: str,
        buttons: Buttons = (),
        *,
        document: tuple[str, bytes] | None = None,
        method: str = "sendMessage",
        seen: Seen | None = None,
    ) -> int:
        """A new bot message in the chat; its id."""
        message_id = self._next_id(chat_id)
        self.messages[(chat_id, message_id)] = Message(
            chat_id, thread_id, message_id, html, buttons, document
        )
        self.show(chat_id, message_id, seen or Seen(method, html_to_text(html), html, document))
        return message_id

    def send_ephemeral(
        self, chat_id: int, thread_id: int, reader: int, html: str, buttons: Buttons = ()
    ) -> int:
        """A new ephemeral message to ``reader``; its ephemeral id (one numbering a chat)."""
        ephemeral_id = 1 + sum(1 for chat, _ in self.ephemeral if chat == chat_id)
        self.ephemeral[(chat_id, ephemeral_id)] = Message(
            chat_id, thread_id, ephemeral_id, html, buttons, reader=reader
        )
        return ephemeral_id

    def last_for(self, reader: int, chat_id: int = -1001) -> Message:
        """The latest ephemeral message ``reader`` got in the chat."""
        found = [m for (chat, _), m in self.ephemeral.items() if chat == chat_id]
        mine = [m for m in found if m.reader == reader]
        if not mine:
            raise LookupError(f"no ephemeral message to {reader} in chat {chat_id}")
        return max(mine, key=lambda m: m.message_id)

    def new_topic(self, chat_id: int, name: str) -> int:
        thread = next(self._topics)
        self.topic_names[(chat_id, thread)] = name
        return thread

    def _seen_since(self, start: int) -> list[tuple[int, Seen]]:
        """What the chats got since ``start``; a message the outbox sent as a refusal
        (``Outbox.refusals``) marked as one, as ``helpers.replies`` marks it."""
        refusals = set(self.outbox.refusals)
        return [
            (chat, replace(seen, refusal=True) if (chat, mid) in refusals else seen)
            for chat, mid, seen in self._seen[start:]
        ]

    # --- delivery: the product's outbox ---------------------------------------------------

    async def _deliver(
        self,
        reply: Reply,
        chat_id: int,
        thread_id: int,
        *,
        link: durable.Link | None = None,
    ) -> None:
        """Hand ``reply`` to the outbox as the runtime does and wait until it is out (with
        its edits, topics and posts)."""
        heavy = bool(reply.documents)
        target = Target(chat_id, thread_id or None)
        delivery = Delivery(self.wire, self.outbox, self.db, target, heavy=heavy, link=link)

        async def job() -> None:
            await delivery.reply(reply)

        self.outbox.edits.queued(chat_id, reply.edits)
        self.outbox.submit(chat_id, job, heavy=heavy)
        await self.outbox.wait_idle()
        if self.failures.records:
            failed, self.failures.records = self.failures.records, []
            raise AssertionError(f"the delivery failed: {failed[0].getMessage()}")


def _command_route(name: str) -> Route | None:
    return next((r for r in ROUTES if r.kind is Kind.COMMAND and r.name == name), None)
