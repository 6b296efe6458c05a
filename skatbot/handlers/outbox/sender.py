"""What goes on the wire: messages, documents, pictures, rich messages, edits and pins.

A ``Sender`` makes the requests for one target, inside its chat's outbox worker: each paced
and retried by the outbox (``queues.Outbox.call``), following a group that became a
supergroup and a forum topic that was deleted or closed. A text longer than Telegram's 4,096
characters is cut into several messages at line ends (``html_split``); a table goes as a rich
message where the server and the chat take it (``rich``). For a stored reply (an outbox row)
each send is a numbered step (``steps.Steps``), made once over restarts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import re
import warnings
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, TelegramError
from telegram.warnings import PTBUserWarning

from skatbot.handlers import durable
from skatbot.handlers.html_split import fits, split_html
from skatbot.handlers.outbox import ephemeral, rich
from skatbot.handlers.outbox.keyboard import markup
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.outbox.steps import Steps
from skatbot.handlers.outbox.target import Target
from skatbot.handlers.outbox.topics import is_topic_closed
from skatbot.usecases.common.reply import (
    Asker,
    Buttons,
    Document,
    Edit,
    Photo,
)
from skatbot.usecases.common.rich import RichDoc, RichText

if TYPE_CHECKING:
    from skatbot.handlers.outbox.transport import Transport
    from skatbot.storage.database import Database

log = logging.getLogger(__name__)

T = TypeVar("T")

# The reply goes out through Bot.do_api_request, which hands back Telegram's JSON instead of a
# telegram.Message: building that Message (~90 attributes) cost ~140 µs per reply here, more
# than a tenth of a booking, and all we read of it is the message id.
SEND = "sendMessage"
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.sendMessage'", category=PTBUserWarning)
MEMBER = "getChatMember"
warnings.filterwarnings(
    "ignore", message=r"Please use 'Bot\.getChatMember'", category=PTBUserWarning
)


TG_TIME = re.compile(r"</?tg-time[^>]*>")


def without_tg_time(html: str) -> str:
    """``html`` without its ``<tg-time …>`` tags, their text kept."""
    return TG_TIME.sub("", html)


# --- what a reply becomes on the wire ---------------------------------------------------------


class Sender:
    """Messages, documents, edits and pins to one target, each request paced and retried
    by the outbox, each send a step of the outbox row if there is one. The base of a
    reply's ``Delivery``."""

    def __init__(
        self,
        bot: Transport,
        outbox: Outbox,
        db: Database | None,
        target: Target,
        steps: Steps | None = None,
        *,
        heavy: bool = False,
        link: durable.Link | None = None,
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.db = db
        self.target = target
        self.steps = steps  # the outbox row being delivered (None: a reply not stored)
        self.heavy = heavy  # in the documents' lane: paced to leave slots to the rest
        self.link = link  # the booking message the row's reply answers (recorded once sent)

    async def _step(self, send: Callable[[], Awaitable[int | None]]) -> int | None:
        """One send of the row (made once over restarts, see ``Steps``)."""
        if self.steps is None:
            return await send()
        return await self.steps.send(send)

    async def request(self, request: Callable[[Target], Awaitable[T]], *, counts: bool) -> T:
        """One request to the target, paced and retried (see ``_request``)."""
        return await self._request(request, counts=counts)

    async def rich_step(
        self,
        request: Callable[[Target], Awaitable[object]],
        buttons: Buttons = (),
        *,
        rows: bool = False,
    ) -> int | None:
        """One rich message of a reply, a step of its outbox row like a text part (made once
        over restarts); returns its message id. ``rows``: the request may carry button rows
        inside the message (see ``_request``)."""

        async def one() -> int | None:
            result = await self._request(request, counts=True, buttons=buttons, rows=rows)
            return result.get("message_id") if isinstance(result, dict) else None

        return await self._step(one)

    async def _request(
        self,
        request: Callable[[Target], Awaitable[T]],
        *,
        counts: bool,
        buttons: Buttons = (),
        rows: bool = False,
    ) -> T:
        """One request to the target; follows a group that became a supergroup, and falls
        back to the chat without topic when the topic was deleted. A request with
        ``buttons`` builds its keyboard when made (``keyboard``): a server that refuses
        disabled buttons gets the request again with ordinary ones; one with button ``rows``
        inside a rich message, refused for them, again with the rows as its keyboard."""
        for _ in range(3):
            target = self.target
            try:
                return await self.outbox.call(
                    target.chat_id,
                    functools.partial(request, target),
                    counts=counts,
                    heavy=self.heavy,
                )
            except ChatMigrated as err:
                log.info("chat %s migrated to %s", target.chat_id, err.new_chat_id)
                self.target = Target(err.new_chat_id, target.thread_id)
            except BadRequest as err:
                if rows and self.outbox.rich_refused.note_rows(err):
                    continue
                if self.outbox.buttons.note(err, buttons):
                    continue
                if target.thread_id and "thread not found" in err.message.lower():
                    log.info("topic %s of chat %s is gone", target.thread_id, target.chat_id)
                    self.target = Target(target.chat_id)
                    continue
                if target.thread_id and is_topic_closed(err):
                    # Into the General topic, headed by the closed topic's name; the next
                    # reply tries the topic again (it may be reopened by then).
                    log.info("topic %s of chat %s is closed", target.thread_id, target.chat_id)
                    self.target = Target(target.chat_id)
                    note = self.outbox.topic_names.closed_note(target.chat_id, target.thread_id)
                    await self.send_text(note)
                    continue
                raise
        target = self.target
        return await self.outbox.call(
            target.chat_id, functools.partial(request, target), counts=counts, heavy=self.heavy
        )

    async def send_text(
        self, html: str, buttons: Buttons = (), *, asker: Asker | None = None
    ) -> int | None:
        """Send ``html`` (cut into several messages if needed; the buttons go under the last
        one). Returns the id of the last message. A reply that can be a table (``RichText``)
        goes as a rich message where the server and the chat take it (``rich``). With an
        ``asker``, it goes as an ephemeral message only the asker sees where Telegram takes
        it (``ephemeral``; its text form), else publicly (headed by who asked what, if the
        group never saw the question: ``Asker.heading``)."""
        if asker is not None and self.outbox.ephemeral.allowed(self.target.chat_id):
            return await self._send_ephemeral(html, buttons, asker)
        if asker is not None:
            html = ephemeral.headed(html, asker)
        if isinstance(html, RichText):
            rich_sent = await self._send_rich(html, buttons)
            if rich_sent is not None:
                return rich_sent
        parts = split_html(html)
        sent: int | None = None
        for i, part in enumerate(parts):
            kwargs: dict[str, Any] = {"text": part, "parse_mode": ParseMode.HTML}
            keys = buttons if i == len(parts) - 1 else ()

            async def request(
                target: Target, kwargs: dict[str, Any] = kwargs, keys: Buttons = keys
            ) -> object:
                api_kwargs = {"chat_id": target.chat_id, **target.thread_kwargs(), **kwargs}
                if keys:
                    api_kwargs["reply_markup"] = self.keyboard(keys)
                return await self.bot.do_api_request(SEND, api_kwargs)

            async def one(
                request: Callable[[Target], Awaitable[object]] = request,
                keys: Buttons = keys,
                kwargs: dict[str, Any] = kwargs,
            ) -> int | None:
                try:
                    result = await self._request(request, counts=True, buttons=keys)
                except BadRequest as err:
                    if '"tg-time"' not in err.message:
                        raise
                    # A server before Bot API 9.5 knows no date_time entity: the tag goes,
                    # the text written inside it stays ("Di 8.12. 19:00").
                    kwargs["text"] = without_tg_time(kwargs["text"])
                    result = await self._request(request, counts=True, buttons=keys)
                return result.get("message_id") if isinstance(result, dict) else None

            sent = await self._step(one)
        return sent

    def keyboard(self, buttons: Buttons | None) -> Any:
        """``buttons`` as the reply markup this server takes (``keyboard``)."""
        return self.outbox.buttons.markup(buttons, self.target.chat_id)

    async def _send_ephemeral(self, html: str, buttons: Buttons, asker: Asker) -> int | None:
        """``html`` as ephemeral messages to ``asker``; each part that Telegram refuses to
        send so goes publicly in the same step (made once over restarts), and the refusal is
        remembered (``ephemeral.EphemeralRefusals``). Returns the last part's id: a public
        message's, or minus an ephemeral message's ``ephemeral_message_id``."""
        refusals = self.outbox.ephemeral
        chat_id = self.target.chat_id
        if ephemeral.unasked(asker) and refusals.unknown(chat_id):
            admin = await self._administers(chat_id)
            if admin is not None:
                refusals.administers(chat_id, admin)
        parts = split_html(html)
        sent: int | None = None
        for i, part in enumerate(parts):
            kwargs: dict[str, Any] = {"text": part, "parse_mode": ParseMode.HTML}
            if buttons and i == len(parts) - 1:
                kwargs["reply_markup"] = self.keyboard(buttons)

            async def one(kwargs: dict[str, Any] = kwargs, first: bool = i == 0) -> int | None:
                chat_id = self.target.chat_id
                only = refusals.parameters(chat_id, asker)
                if only is not None:

                    async def private(target: Target) -> object:
                        api_kwargs = {
                            "chat_id": target.chat_id,
                            **target.thread_kwargs(),
                            **kwargs,
                            **only,
                        }
                        return await self.bot.do_api_request(SEND, api_kwargs)

                    try:
                        result = await self._request(private, counts=refusals.counts)
                    except TelegramError as err:
                        if not refusals.note(chat_id, err, admin_only=ephemeral.unasked(asker)):
                            raise
                    else:
                        refusals.sent(chat_id, result)
                        return ephemeral.sent_id(result)

                shown = dict(kwargs)  # in the chat after all: below who asked what, if it fits
                if first and fits(ephemeral.headed(kwargs["text"], asker)):
                    shown["text"] = ephemeral.headed(kwargs["text"], asker)

                async def public(target: Target) -> object:
                    api_kwargs = {"chat_id": target.chat_id, **target.thread_kwargs(), **shown}
                    return await self.bot.do_api_request(SEND, api_kwargs)

                result = await self._request(public, counts=True)
                return result.get("message_id") if isinstance(result, dict) else None

            sent = await self._step(one)
        return sent

    async def _administers(self, chat_id: int) -> bool | None:
        """Whether the bot administers ``chat_id``, asked of Telegram (getChatMember of
        itself: a bot that was made an administrator before it ran, whose ``my_chat_member``
        update is long gone); ``None`` if that cannot be told now (asked again next time)."""
        try:
            bot_id = getattr(self.bot, "id", None)
        except RuntimeError:  # a bot not initialized (no getMe yet)
            bot_id = None
        if not isinstance(bot_id, int):
            return None
        try:
            member = await self.bot.do_api_request(MEMBER, {"chat_id": chat_id, "user_id": bot_id})
        except TelegramError as err:
            log.info("chat %s: whether the bot is an administrator is unknown: %s", chat_id, err)
            return None
        return isinstance(member, dict) and member.get("status") == "administrator"

    async def _send_rich(self, text: RichText, buttons: Buttons) -> int | None:
        """Send ``text`` as rich messages (the keyboard under the last). ``None``: nothing was
        sent, send the text form instead (refused, or the document cannot be a rich message)."""
        chat_id = self.target.chat_id
        if not self.outbox.rich_refused.allowed(chat_id):
            return None
        parts = rich.parts_of(text)
        if parts is None:
            return None
        sent: int | None = None
        for i, part in enumerate(parts):
            keys = buttons if i == len(parts) - 1 else ()

            async def request(target: Target, part: RichDoc = part, keys: Buttons = keys) -> object:
                api_kwargs = {
                    "chat_id": target.chat_id,
                    **target.thread_kwargs(),
                    **self._rich_content(text.doc, part, keys),
                }
                return await self.bot.do_api_request(rich.SEND, api_kwargs)

            try:
                sent = await self.rich_step(
                    request, keys, rows=bool(rich.rows_inside(text.doc, keys))
                )
            except TelegramError as err:
                if i == 0 and self.outbox.rich_refused.note(chat_id, err):
                    return None
                if isinstance(err, BadRequest):
                    # Telegram would not take this one (the documentation names no error
                    # texts): the text form goes out instead, so nothing is lost. After a
                    # first part that went out, the text repeats it rather than leave the
                    # rest unsaid.
                    log.warning(
                        "chat %s refused rich part %s (%s): text form sent", chat_id, i, err
                    )
                    return None
                raise
        return sent

    def _rich_content(self, doc: RichDoc, part: RichDoc, buttons: Buttons) -> dict[str, Any]:
        """``rich_message`` and ``reply_markup`` of one rich message: the content's rows of
        ``buttons`` inside it where the server takes button rows (10.3), the rest (or all
        of them) as the keyboard under it."""
        inside = rich.rows_inside(doc, buttons) if self.outbox.rich_refused.rows_known else ()
        message = rich.input_rich_message(
            part, inside, disabled_known=self.outbox.buttons.disabled_known
        )
        out: dict[str, Any] = {"rich_message": message}
        under = tuple(row for row in buttons if row not in inside)
        if under:
            out["reply_markup"] = self.keyboard(under)
        return out

    async def _edit_rich(
        self, target: Target, message_id: int, text: RichText, buttons: Buttons
    ) -> object | None:
        """Edit ``message_id`` to ``text`` as a rich message (the first part, if it would need
        several). ``None``: refused, edit the text form instead."""
        if not self.outbox.rich_refused.allowed(target.chat_id):
            return None
        parts = rich.parts_of(text)
        if not parts:
            return None
        rows = self.outbox.rich_refused.rows_known and bool(rich.rows_inside(text.doc, buttons))
        kwargs: dict[str, Any] = {
            "chat_id": target.chat_id,
            "message_id": message_id,
            **self._rich_content(text.doc, parts[0], buttons),
        }
        try:
            result: object = await self.bot.do_api_request(rich.EDIT, kwargs)
        except TelegramError as err:
            if rows and self.outbox.rich_refused.note_rows(err):
                return await self._edit_rich(target, message_id, text, buttons)
            if self.outbox.rich_refused.note(target.chat_id, err):
                return None
            raise
        return result

    async def send_document(
        self, filename: str, data: bytes, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        return await self._send_media(
            self.bot.send_document, filename, data, caption, html, buttons
        )

    async def send_photo(
        self, filename: str, data: bytes, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        """A picture shown in the chat (sendPhoto), like ``send_document``."""
        return await self._send_media(self.bot.send_photo, filename, data, caption, html, buttons)

    async def _send_media(
        self,
        send: Callable[..., Awaitable[object]],
        filename: str,
        data: bytes,
        caption: str,
        html: bool,
        buttons: Buttons,
    ) -> int | None:
        async def request(target: Target) -> object:
            return await send(
                target.chat_id,
                data,
                filename=filename,
                caption=caption or None,
                parse_mode=ParseMode.HTML if html and caption else None,
                reply_markup=self.keyboard(buttons),
                message_thread_id=target.thread_id,
            )

        async def one() -> int | None:
            message = await self._request(request, counts=True, buttons=buttons)
            return getattr(message, "message_id", None)

        return await self._step(one)

    async def send_file(
        self, doc: Document, caption: str, *, html: bool, buttons: Buttons = ()
    ) -> int | None:
        """A document, or a picture if ``doc`` is a ``Photo``."""
        send = self.send_photo if isinstance(doc, Photo) else self.send_document
        sent = await send(doc.filename, doc.data, caption, html=html, buttons=buttons)
        if self.outbox.metrics is not None:
            self.outbox.metrics.delivered_document(doc.filename)
        return sent

    async def pin(self, message_id: int) -> bool:
        """Pin ``message_id`` quietly; False (logged) if Telegram refuses, e.g. without the
        right to pin."""
        try:
            await self.outbox.call(
                self.target.chat_id,
                lambda: self.bot.pin_chat_message(
                    self.target.chat_id, message_id, disable_notification=True
                ),
                counts=False,
            )
        except TelegramError as err:
            log.info("pin in chat %s failed: %s", self.target.chat_id, err)
            return False
        return True

    async def edits(self, edits: tuple[Edit, ...]) -> None:
        """Edit other bot messages; failures (message deleted) are only logged."""
        for edit in edits:
            await self.edit(edit)

    async def edit(self, edit: Edit) -> None:
        if self.outbox.edits.superseded(self.target.chat_id, edit):
            return  # a newer edit of the same message is queued: it carries the latest state
        if edit.every > 0:
            later = Sender(self.bot, self.outbox, self.db, self.target)
            plain = dataclasses.replace(edit, every=0.0)
            if not self.outbox.edits.due(
                self.target.chat_id, edit.message_id, edit.every, lambda: later.edit(plain)
            ):
                return
            edit = plain
        if edit.render is not None:
            if self.db is None:
                return
            render = edit.render
            try:
                text = await self.db.read(lambda session: render(session))
            except Exception:
                log.exception("rendering an edit for chat %s failed", self.target.chat_id)
                return
            if text is None:
                return
            edit = dataclasses.replace(edit, text=text, render=None)
        chat_id = self.target.chat_id
        # what the edit shows, as Telegram compares it ("not modified")
        content = (edit.text, markup(edit.buttons))
        shown = ephemeral.edit_key(edit)
        if self.outbox.edits.unchanged(chat_id, shown, content):
            return  # Telegram would answer "message is not modified"
        text = edit.text
        if text is not None and not fits(text):
            text = split_html(text)[0]  # an edit cannot become two messages

        async def request(target: Target) -> object:
            keyboard = self.keyboard(edit.buttons)
            if edit.receiver:  # an ephemeral message: only its reader sees the edit
                return await self.bot.do_api_request(
                    *ephemeral.edit_request(target.chat_id, edit, text, keyboard)
                )
            if text is None:
                return await self.bot.edit_message_reply_markup(
                    target.chat_id, edit.message_id, reply_markup=keyboard
                )
            if isinstance(edit.text, RichText):
                done = await self._edit_rich(target, edit.message_id, edit.text, edit.buttons)
                if done is not None:
                    return done
            return await self.bot.edit_message_text(
                text,
                target.chat_id,
                edit.message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=keyboard,
            )

        try:
            await self._request(request, counts=False, buttons=edit.buttons)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            if not isinstance(err, TelegramError):  # e.g. ``result: null``: settled, logged once
                log.error("edit of message %s in chat %s failed: %r", edit.message_id, chat_id, err)
                return
            message = err.message.lower() if isinstance(err, BadRequest) else ""
            if "not modified" in message:
                self.outbox.edits.remember(chat_id, shown, content)
                return
            log.info("edit of message %s in chat %s failed: %s", edit.message_id, chat_id, err)
            gone = "message to edit not found" in message
            if gone and edit.on_gone is not None and self.db is not None:
                try:
                    await self.db.write(edit.on_gone)
                except Exception:  # forgetting the message is a convenience
                    log.exception("on_gone for message %s failed", edit.message_id)
            return
        self.outbox.edits.remember(chat_id, shown, content)
