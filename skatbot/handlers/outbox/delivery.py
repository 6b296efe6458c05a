"""A reply's whole delivery: its messages, then ``on_sent``, its edits, forum topics and
posts to other places; and the delivery of a stored reply (an outbox row).

A ``Delivery`` runs inside its chat's outbox worker (``queues.Outbox``); what goes on the wire
is its base's (``sender.Sender``). A document carries the reply text as its caption when it
fits, which saves a message against the group limit. For a stored reply each send is a
numbered step (``steps.Steps``), made once over restarts; what runs after a send
(``on_sent``, a topic's ``on_created``) is written together with the record of the send.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

from skatbot.handlers import durable
from skatbot.handlers.html_split import MAX_CAPTION, fits
from skatbot.handlers.outbox import polls
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.outbox.sender import Sender
from skatbot.handlers.outbox.steps import Steps
from skatbot.handlers.outbox.target import Target
from skatbot.handlers.outbox.topics import file_failed_text
from skatbot.storage import message_links
from skatbot.usecases.common.reply import Buttons, CloseTopic, Document, NewTopic, Post, Reply

if TYPE_CHECKING:
    from skatbot.handlers.outbox.transport import Transport
    from skatbot.storage.database import Database
    from skatbot.storage.unit import Session

log = logging.getLogger(__name__)


class Delivery(Sender):
    """Sends one reply (or edits) for one update; runs inside the chat's outbox worker."""

    async def reply(self, reply: Reply, *, finish: bool = False) -> int | None:
        """The reply's text, documents, ``on_sent`` and edits, in this order; then its
        forum topics (``Reply.topics``) and its posts to other places (queued there).
        Returns the id of the (last) message sent, if any. ``finish``: the outbox row is
        done once this reply is (deleted with the last write, see ``Steps.then``)."""
        sent: int | None = None
        try:
            if reply.stop_poll:
                await polls.stop(self, reply.stop_poll)
            sent = await self._reply_messages(reply)
            if reply.poll is not None:
                await polls.send(self, reply.poll)
            if reply.refusal and sent and sent > 0:  # not an ephemeral message: not the chat's
                self.outbox.refusals.append((self.target.chat_id, sent))
        except Forbidden as err:  # the bot was removed from the chat or blocked
            log.info("reply to chat %s not allowed: %s", self.target.chat_id, err)
            await self._instead(reply)
            self._queue_posts(reply.posts)
            return None
        except BadRequest as err:
            if reply.instead is not None and "chat not found" in err.message.lower():
                # a user the bot never met at all: as refused as one who never wrote to it
                log.info("reply to chat %s not possible: %s", self.target.chat_id, err)
                await self._instead(reply)
                self._queue_posts(reply.posts)
                return None
            log.warning("reply to chat %s failed: %s", self.target.chat_id, err)
        except TelegramError as err:
            log.warning("reply to chat %s failed: %s", self.target.chat_id, err)
        except Exception:  # not Telegram's answer (e.g. a garbled one): settled, logged once
            log.exception("reply to chat %s failed", self.target.chat_id)
        for gone in reply.gone_topics:  # before the row can finish; deleting twice is harmless
            await self.remove_topic(gone)
        await self._after_sent(reply, sent, finish=finish and not (reply.edits or reply.topics))
        await self.edits(reply.edits)
        for topic in reply.topics:
            await self.new_topic(topic)
        self._queue_posts(reply.posts)
        return sent

    async def _after_sent(self, reply: Reply, sent: int | None, *, finish: bool) -> None:
        """``on_sent`` with the sent message's id, and the row's ``link`` recorded; for a
        stored row in the write that records the sends (once over restarts)."""
        on_sent = reply.on_sent if sent is not None else None
        link, self.link = self.link, None  # the row's first reply only (not its posts)
        message_id = sent or 0

        def unit(session: Session) -> None:
            if on_sent is not None:
                on_sent(session, message_id)
            if link is not None and sent is not None and sent > 0:
                record_link(session, link, sent)

        if self.steps is not None:
            try:
                await self.steps.then(unit, finish=finish)
            except Exception:  # the reply is out; remembering its id is a convenience
                log.exception("on_sent for chat %s failed", self.target.chat_id)
                await self.steps.flush()
            return
        if (on_sent is not None or link is not None) and self.db is not None:
            try:
                await self.db.write(unit)
            except Exception:  # the reply is out; remembering its id is a convenience
                log.exception("on_sent for chat %s failed", self.target.chat_id)

    async def _instead(self, reply: Reply) -> None:
        """Telegram refused ``reply`` (e.g. a private chat the user never started): its
        ``instead`` goes out (stored like a topic's ``on_refused``: once over restarts)."""
        post = reply.instead
        if post is None or self.db is None:
            return
        fallback = post.reply
        try:
            await self._continue(
                lambda _session: fallback, Target(post.chat_id, post.thread_id or None)
            )
        except Exception:
            log.exception("the fallback for chat %s failed", self.target.chat_id)

    def _queue_posts(self, posts: tuple[Post, ...]) -> None:
        """Queue each post behind everything else for its chat."""
        for post in posts:
            other = Delivery(
                self.bot, self.outbox, self.db, Target(post.chat_id, post.thread_id or None)
            )

            async def job(other: Delivery = other, post: Post = post) -> None:
                await other.post(post)

            self.outbox.submit(post.chat_id, job)

    async def post(self, post: Post) -> None:
        """A message to another place (``Reply.posts``), pinned if asked."""
        sent = await self.reply(post.reply)
        if post.pin and sent is not None:
            await self.pin(sent)

    async def remove_topic(self, topic: CloseTopic) -> None:
        """Delete a forum topic of the bot's; where Telegram refuses, close it."""
        for name, call in (
            ("deleteForumTopic", self.bot.delete_forum_topic),
            ("closeForumTopic", self.bot.close_forum_topic),
        ):
            try:
                await self.outbox.call(
                    topic.chat_id,
                    lambda call=call: call(topic.chat_id, topic.thread_id),  # type: ignore[misc]
                    counts=False,
                )
                return
            except TelegramError as err:
                log.info("%s %s in chat %s refused: %s", name, topic.thread_id, topic.chat_id, err)

    async def new_topic(self, topic: NewTopic) -> None:
        """Create a forum topic and post ``on_created``'s reply there; if Telegram refuses,
        post ``on_refused``'s reply here instead."""
        if self.db is None:
            return

        async def create() -> int | None:
            created = await self.outbox.call(
                topic.chat_id,
                lambda: self.bot.create_forum_topic(topic.chat_id, topic.name),
                counts=False,
            )
            thread: int | None = created.message_thread_id  # a telegram.ForumTopic
            return thread

        try:
            thread = await self._step(create)
        except TelegramError as err:
            log.info("createForumTopic in chat %s refused: %s", topic.chat_id, err)
            if topic.on_refused is not None:
                on_refused = topic.on_refused
                try:
                    await self._continue(lambda session: on_refused(session), self.target)
                except Exception:
                    log.exception("on_refused for chat %s failed", topic.chat_id)
            return
        if thread is None:
            return
        try:
            await self._continue(
                lambda session: topic.on_created(session, thread), Target(topic.chat_id, thread)
            )
        except Exception:  # e.g. the table was linked elsewhere meanwhile
            log.exception("on_created for topic %s of chat %s failed", thread, topic.chat_id)

    async def _continue(self, make: Callable[[Session], Reply], target: Target) -> None:
        """Run ``make`` in a write unit and deliver its reply at ``target``. For a stored row
        its reply is stored too, in that unit, as a row of its own (``make`` runs once over
        restarts; a replay finds that row pending and delivers it)."""
        assert self.db is not None
        if self.steps is None:
            reply = await self.db.write(make)
            await Delivery(self.bot, self.outbox, self.db, target).reply(reply)
            return
        update_id = self.steps.update_id

        def unit(session: Session) -> list[durable.Stored]:
            return durable.store(
                session, target.chat_id, target.thread_id, update_id, make(session)
            )

        ran, rows = await self.steps.then(unit)
        if not ran or not rows:
            return
        first, *posts = rows
        await deliver_stored(self.bot, self.outbox, self.db, first)
        for row in posts:
            submit_stored(self.bot, self.outbox, self.db, row)

    async def _reply_messages(self, reply: Reply) -> int | None:
        docs = list(reply.documents)
        text = reply.text
        caption = _caption(text, docs[0].caption) if docs and reply.on_sent is None else None
        if caption is not None:
            # The short summary rides on the first document (one message less in the group).
            first = docs.pop(0)
            sent = await self._file_or_text(first, caption, html=True, buttons=reply.buttons)
        else:
            asker = reply.asker if reply.for_asker else None
            sent = await self.send_text(text, reply.buttons, asker=asker) if text else None
        for doc in docs:
            own = doc.caption if fits(escape(doc.caption), MAX_CAPTION) else ""
            await self._file_or_text(doc, own, html=False)
            if doc.caption and not own:
                await self.send_text(escape(doc.caption))
        return sent

    async def _file_or_text(
        self, doc: Document, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        """A document or photo; if it cannot be sent after the last try, its caption goes
        out as a message with a note that the file is missing (the text is never lost)."""
        try:
            return await self.send_file(doc, caption, html=html, buttons=buttons)
        except (Forbidden, RetryAfter):
            raise  # not allowed here at all, or flooded for too long: a message fails too
        except TelegramError as err:
            log.warning("file %s to chat %s failed: %s", doc.filename, self.target.chat_id, err)
        return await self.send_text(file_failed_text(caption, doc.filename, html=html), buttons)


def record_link(session: Session, link: durable.Link, sent: int) -> None:
    """The reply to a booking message went out as message ``sent`` (edits of the booking
    message edit it then)."""
    message_links.set_reply(session, link.place, link.message_id, link.update_id, sent)


def _caption(text: str, own: str) -> str | None:
    """The reply text (and the document's own plain caption, if both fit and the text does
    not say it already) as one HTML caption, or ``None`` if the text is too long for a
    caption."""
    if not text or not fits(text, MAX_CAPTION):
        return None
    both = f"{text}\n{escape(own)}" if own and escape(own) not in text else text
    return both if fits(both, MAX_CAPTION) else text


async def deliver_stored(
    bot: Transport,
    outbox: Outbox,
    db: Database,
    row: durable.Stored,
    *,
    done: dict[int, int | None] | None = None,
) -> None:
    """Deliver one outbox row (pinned after sending if it is such a post), then delete it.
    Cancelled (shutdown), the row stays for the next start."""
    steps = Steps(db, row.row_id, done, row.update_id)
    heavy = bool(row.reply.documents)
    target = Target(row.chat_id, row.thread_id)
    d = Delivery(bot, outbox, db, target, steps, heavy=heavy, link=row.link)
    try:
        sent = await d.reply(row.reply, finish=not row.pin)
        if row.pin and sent is not None:
            await d.pin(sent)
    except asyncio.CancelledError:
        raise
    except Exception:
        await steps.finish()  # a row that fails like this would fail again after a restart
        raise
    await steps.finish()


def submit_stored(
    bot: Transport,
    outbox: Outbox,
    db: Database,
    row: durable.Stored,
    *,
    done: dict[int, int | None] | None = None,
) -> None:
    """Queue one outbox row behind everything else for its chat."""

    async def job() -> None:
        await deliver_stored(bot, outbox, db, row, done=done)

    outbox.edits.queued(row.chat_id, row.reply.edits)  # a newer edit supersedes this one
    outbox.submit(row.chat_id, job, heavy=bool(row.reply.documents))
