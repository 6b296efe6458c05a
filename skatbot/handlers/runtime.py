"""Runs a use case for one update: one transaction, exactly-once effect, then the reply.

The effect of an update is committed together with its update id and its replies (the
durable outbox, ``handlers.durable``): a redelivered update books nothing and sends nothing
again, its replies are delivered (or pending in the outbox) already. A failed reply never
undoes a booking: sending happens after the commit.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from html import escape
from typing import TypeVar

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.error import TelegramError

from skatbot import faults
from skatbot.handlers import durable, fairness
from skatbot.handlers.bot_state import SkatContext
from skatbot.handlers.html_split import MAX_TEXT
from skatbot.handlers.miniapp import AppLinks
from skatbot.handlers.outbox import handoff
from skatbot.handlers.outbox.target import Target, target_of, topic_of
from skatbot.handlers.route import CallbackUseCase, UseCase
from skatbot.rules.errors import RuleError
from skatbot.storage import lists as lists_store
from skatbot.storage import message_links, topic_places
from skatbot.storage.database import Database, lock_chat
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import (
    PLACEHOLDER_IDS,
    Answer,
    Asker,
    Command,
    Edit,
    Reply,
    error_text,
)
from skatbot.usecases.common.rich import RichText
from skatbot.usecases.common.rights import PLACE_MANAGEMENT

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_ARGS = 400  # a /teilnehmer or /ergebnis message lists many names
ASKED_SHOWN = 120  # characters of an ephemeral command quoted above its public answer
PLACES_KEPT = 4096  # forum topics whose place id is remembered (LRU)


class TooLong(RuleError):
    pass


def sender_of(update: Update) -> tuple[int | None, str]:
    """Who sent a message, as Telegram has it: ``(id, name)``.

    A message on behalf of a chat is that chat (``sender_chat``: the group itself for an
    anonymous admin, or a channel), named by its title; otherwise the user in ``from``.
    A placeholder user without ``sender_chat`` is nobody (``None``): no rights from it.
    """
    msg = update.effective_message if update.callback_query is None else None
    sender_chat = msg.sender_chat if msg is not None else None
    if sender_chat is not None:
        name = sender_chat.title or sender_chat.effective_name or sender_chat.username or ""
        return sender_chat.id, name
    user = update.effective_user
    if user is None:
        return None, ""
    if user.id in PLACEHOLDER_IDS:
        return None, user.full_name
    return user.id, user.full_name


def _bot_username(update: Update) -> str:
    try:
        return update.get_bot().username or ""
    except RuntimeError:  # an update built without a bot (tests)
        return ""


def named_users(msg: Message | None) -> tuple[tuple[int, str], ...]:
    """Whom a message points at, (id, name): the author of the message it answers (not a
    topic's opening message, which every message of a topic "answers", nor a bot or a
    placeholder), then the users of its text mentions (a member picked without @username)."""
    if msg is None:
        return ()
    out: list[tuple[int, str]] = []
    replied = msg.reply_to_message
    if (
        replied is not None
        and replied.forum_topic_created is None
        and replied.sender_chat is None
        and replied.from_user is not None
        and not replied.from_user.is_bot
        and replied.from_user.id not in PLACEHOLDER_IDS
    ):
        out.append((replied.from_user.id, replied.from_user.full_name))
    for entity in msg.entities or ():
        user = entity.user
        mentioned = entity.type == "text_mention" and user is not None and not user.is_bot
        if mentioned and user is not None and all(uid != user.id for uid, _ in out):
            out.append((user.id, user.full_name))
    return tuple(out)


def words_of(text: str) -> tuple[str, ...]:
    """The words after the command word (with any @botname suffix); a message too long to
    read is refused."""
    if len(text) > MAX_TEXT:
        raise TooLong("Die Nachricht ist zu lang.", hint=f"Höchstens {MAX_TEXT} Zeichen.")
    words = text.split()[1:]
    if len(words) > MAX_ARGS:
        raise TooLong("Zu viele Wörter.", hint=f"Höchstens {MAX_ARGS}.")
    return tuple(words)


def command_of(update: Update) -> Command:
    msg = update.effective_message
    chat = update.effective_chat
    text = (msg.text or msg.caption or "") if msg else ""
    words = words_of(text)
    user_id, name = sender_of(update)
    return Command(
        place_id=chat.id if chat else 0,
        chat_title=(chat.title or chat.full_name or "") if chat else "",
        user_id=user_id,
        user_name=name,
        update_id=update.update_id,
        args=words,
        text=text,
        # an ephemeral command is no message of the chat (its id is 0): nothing to refer to
        source_message_id=msg.message_id if msg and not ephemeral_id_of(msg) else None,
        thread_id=topic_of(msg) or 0,
        telegram_chat_id=chat.id if chat else 0,
        is_forum=bool(getattr(chat, "is_forum", False)),
        bot_username=_bot_username(update),
        named_users=named_users(msg),
        ephemeral_message_id=ephemeral_id_of(msg),
    )


def database(context: SkatContext) -> Database:
    db = context.bot_data.database
    assert db is not None, "the application is built with its database (app.build_application)"
    return db


def effect(
    session: Session, use_case: UseCase, cmd: Command, *, link: bool = False
) -> tuple[Reply, durable.Link | None] | None:
    """What one command does, in the caller's write transaction: the chat locked, the use
    case run once per update id (``None``: a redelivered update, its replies are out or
    pending in the outbox already), and with ``link`` the user's message linked to what it
    booked (an edit of that message corrects the booking, see ``usecases.sheet.edits``)."""

    def run() -> tuple[Reply, durable.Link | None]:
        reply = use_case(session, cmd)
        if not link or cmd.source_message_id is None or reply.refusal:
            return reply, None
        message_links.remember(session, cmd.place_id, cmd.source_message_id, cmd.update_id)
        return reply, durable.Link(cmd.place_id, cmd.source_message_id, cmd.update_id)

    return once(session, cmd, run)


def once(
    session: Session,
    cmd: Command,
    run: Callable[[], T],
    record: Callable[[T], str] | None = None,
) -> T | None:
    """``run()`` unless ``cmd``'s update was processed already (``None``), its update id
    stored in the same transaction (with the text ``record`` gives for the result)."""
    # Lock the chat before the redelivery check: a second instance handling the same
    # update waits here and then finds it processed (PostgreSQL; no-op on SQLite).
    lock_chat(session, cmd.place_id)
    if lists_store.processed(session, cmd.update_id) is not None:
        return None
    result = run()
    text = record(result) if record is not None else ""
    lists_store.mark_processed(session, cmd.update_id, cmd.place_id, text)
    return result


async def execute(
    update: Update,
    context: SkatContext,
    use_case: UseCase,
    *,
    write: bool = True,
    is_admin: bool = False,
    offload: bool = False,
    link: bool = False,
    ask_admin: Callable[[], Awaitable[bool]] | None = None,
) -> None:
    """Parse, run ``use_case`` in one transaction, then send its reply.

    ``offload`` runs a long unit (a PDF, a tournament-sized computation) in a worker thread
    so that the event loop keeps serving other chats meanwhile. ``link``: the command books
    what an edit of its message may correct (``effect``). ``ask_admin`` asks Telegram whether
    the sender is a chat admin, for a document asked beyond a member's limit (``is_admin``
    unless the route asked already).
    """
    try:
        cmd = command_of(update)
        if is_admin:
            cmd = dataclasses.replace(cmd, is_admin=True)
    except RuleError as err:
        await send(update, context, refusal_of(update, err))
        return
    cmd = await in_place(context, cmd)
    if context.bot_data.public_url is not None:  # for the commands that hand out a web link
        cmd = dataclasses.replace(cmd, public_url=context.bot_data.public_url)
    if context.bot_data.local_app_url is not None:
        cmd = dataclasses.replace(cmd, local_app_url=context.bot_data.local_app_url)
    db = database(context)
    target = target_of(update)
    links = context.bot_data.outbox.buttons.app_link
    if target is not None and isinstance(links, AppLinks) and links.ready(target.chat_id):
        cmd = dataclasses.replace(cmd, app_ready=True)
    asker = asker_of(update)
    state = context.bot_data
    gate = state.fairness
    if (
        not write
        and offload
        and fairness.makes_document(cmd.text, state.routes)
        and target is not None
    ):
        try:
            pending = state.outbox.pending(target.chat_id, heavy=True)
            # Who runs the place is asked only of a member beyond the limit.
            limited = not (
                gate.over_limit(target.chat_id, cmd.user_id)
                and await _runs_place(context, cmd, ask_admin)
            )
            gate.admit(
                target.chat_id, cmd.place_id, cmd.user_id, cmd.text, pending, limited=limited
            )
        except fairness.Repeated as held:
            if not held.quiet:  # told once per window: no paced spam in front of others
                await send(update, context, Reply(fairness.repeated_note(cmd.text)))
            return
        except fairness.Throttled as held:
            if not held.quiet:
                await send(update, context, Reply(error_text(held), refusal=True))
            return
        async with gate.renders:  # one document rendered at a time, over all chats
            await _read_and_send(update, context, use_case, cmd, offload)
        return

    def unit(session: Session) -> Reply:
        return use_case(session, cmd)

    changed = False  # a list was changed (counted once committed)

    def write_unit(session: Session) -> list[durable.Stored]:
        nonlocal changed
        done = effect(session, use_case, cmd, link=link)
        if done is None:
            return []  # redelivered
        reply, linked = done
        rows = stage(session, target, cmd.update_id, answered(reply, asker), linked)
        changed = lists_store.changed_in(session)
        faults.at("before_commit", cmd.update_id)
        return rows

    try:
        if write:
            rows = await db.write(write_unit, offload=offload)
        else:
            reply = await db.read(unit, offload=offload)
    except RuleError as err:
        await send(update, context, refusal_of(update, err))
        return
    if write:
        faults.at("committed", cmd.update_id)
        if changed:
            state.metrics.booked()
        if target is not None:
            gate.changed(target.chat_id)
        handoff.enqueue_stored(context.bot, state, rows)
        return
    await send(update, context, answered(reply, asker))


async def _runs_place(
    context: SkatContext, cmd: Command, ask_admin: Callable[[], Awaitable[bool]] | None
) -> bool:
    """Whether the sender runs ``cmd``'s place (``rights.PLACE_MANAGEMENT``: a desk's
    management, the chat's admins), asked only of a member beyond the document limit."""
    is_admin = cmd.is_admin or (ask_admin is not None and await ask_admin())
    if is_admin:
        return True
    return await database(context).read(lambda s: PLACE_MANAGEMENT.held_by(s, cmd))


async def _read_and_send(
    update: Update,
    context: SkatContext,
    use_case: UseCase,
    cmd: Command,
    offload: bool,
) -> None:
    try:
        reply = await database(context).read(
            lambda session: use_case(session, cmd), offload=offload
        )
    except RuleError as err:
        reply = refusal_of(update, err)
    await send(update, context, reply)


def stage(
    session: Session,
    target: Target | None,
    update_id: int,
    reply: Reply,
    link: durable.Link | None = None,
) -> list[durable.Stored]:
    """Store ``reply`` (to the update's chat and topic) in the outbox, in the caller's
    transaction: the rows to hand to ``handoff.enqueue_stored`` after the commit. A reply
    of a transaction that changed a list is the group's, even if it says ``for_asker``."""
    if target is None or not reply.goes_out:
        return []
    if reply.for_asker and lists_store.changed_in(session):
        log.warning("a reply for one reader changed a list: sent to the chat")
        reply = dataclasses.replace(reply, for_asker=False, asker=None)
    return durable.store(session, target.chat_id, target.thread_id, update_id, reply, link)


async def send(update: Update, context: SkatContext, reply: Reply) -> None:
    """Queue the reply for the update's chat (and topic): its text, documents, ``on_sent``
    and ``edits`` go out in order after everything queued before (``outbox.queues.Outbox``).

    Nothing here waits for Telegram; a Bot API failure is logged and never undoes what was
    committed.
    """
    target = target_of(update)
    if target is None or not reply.goes_out:
        return
    reply = to_typist(addressed(reply, asker_of(update)), update)
    state = context.bot_data
    state.outbox.edits.queued(target.chat_id, reply.edits)
    handoff.enqueue(
        context.bot, state, target, lambda d: d.reply(reply), heavy=bool(reply.documents)
    )


def apply_edits(update: Update, context: SkatContext, edits: tuple[Edit, ...]) -> None:
    """Queue edits of other bot messages (after what is already queued for the chat)."""
    target = target_of(update)
    if target is None or not edits:
        return
    handoff.enqueue(context.bot, context.bot_data, target, lambda d: d.edits(edits))


# --- button taps ------------------------------------------------------------------------------


def callback_command_of(update: Update) -> Command:
    """A button tap as a Command: ``args == (data,)``, ``message_id`` = the tapped message."""
    query = update.callback_query
    assert query is not None
    msg = query.message
    chat = update.effective_chat
    # A tap always comes from the real user (callback queries have no sender_chat, also for
    # anonymous admins); a placeholder id would be nobody.
    user = query.from_user
    data = query.data or ""
    return Command(
        place_id=chat.id if chat else 0,
        chat_title=(chat.title or chat.full_name or "") if chat else "",
        user_id=user.id if user and user.id not in PLACEHOLDER_IDS else None,
        user_name=user.full_name if user else "",
        update_id=update.update_id,
        args=(data,),
        text=data,
        message_id=msg.message_id if msg else None,
        thread_id=topic_of(msg) or 0,
        telegram_chat_id=chat.id if chat else 0,
        is_forum=bool(getattr(chat, "is_forum", False)),
        bot_username=_bot_username(update),
        ephemeral_message_id=ephemeral_id_of(msg),
    )


def ephemeral_id_of(msg: object) -> int:
    """The ``ephemeral_message_id`` of an ephemeral message (its ``message_id`` is 0), else
    0. PTB 22 knows no ephemeral messages: the field is among the message's api_kwargs."""
    if not isinstance(msg, Message) or msg.message_id:
        return 0
    raw = msg.api_kwargs.get("ephemeral_message_id")
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0 else 0


async def in_place(context: SkatContext, cmd: Command) -> Command:
    """``cmd`` with ``chat_id`` set to its place: the chat itself, or its forum topic's place
    (looked up once per topic and remembered; ordinary chats cost nothing)."""
    if not cmd.thread_id:
        return cmd
    place = await place_of(context, cmd.telegram_chat_id, cmd.thread_id)
    return dataclasses.replace(cmd, place_id=place)


async def place_of(context: SkatContext, chat_id: int, thread_id: int) -> int:
    """The place of forum topic ``thread_id`` of Telegram chat ``chat_id`` (0: the chat).

    Remembered per process: a topic's place id never changes (a supergroup move gives the
    topic a new key, which is looked up afresh, and finds the same place)."""
    if not thread_id:
        return chat_id
    known = context.bot_data.places
    key = (chat_id, thread_id)
    place = known.get(key)
    if place is None:
        place = await database(context).write(
            lambda session: topic_places.place_id(session, chat_id, thread_id)
        )
        known[key] = place
        while len(known) > PLACES_KEPT:  # least recently used first: looked up again if needed
            known.popitem(last=False)
    else:
        known.move_to_end(key)
    return place


def offered_data(update: Update) -> set[str]:
    """The callback data of the buttons the tapped message carries now (as Telegram says)."""
    query = update.callback_query
    msg = query.message if query else None
    if not isinstance(msg, Message):
        return set()
    offered = _rich_row_data(msg.api_kwargs.get("rich_message"))
    if msg.reply_markup is not None:
        offered |= {
            str(b.callback_data)
            for row in msg.reply_markup.inline_keyboard
            for b in row
            if b.callback_data is not None
        }
    return offered


def _rich_row_data(rich_message: object) -> set[str]:
    """The callback data of the buttons inside a rich message (Bot API 10.3:
    ``RichMessage.blocks``, a ``RichBlockButtons`` per row); PTB does not know the field
    yet and keeps it in ``api_kwargs`` as received."""
    blocks = rich_message.get("blocks") if isinstance(rich_message, dict) else None
    if not isinstance(blocks, list):
        return set()
    return {
        str(button["callback_data"])
        for block in blocks
        if isinstance(block, dict) and block.get("type") == "buttons"
        for button in block.get("buttons") or ()
        if isinstance(button, dict) and button.get("callback_data") is not None
    }


STALE_BUTTON = "Dieser Knopf gilt nicht mehr."


async def execute_callback(
    update: Update,
    context: SkatContext,
    use_case: CallbackUseCase,
    *,
    offload: bool = False,
    is_admin: bool = False,
) -> None:
    """A button tap, like ``execute``: one transaction, update id stored, a RuleError rolls
    back (and is shown as an alert). The answer edits the tapped message instead of sending a
    new one, and the callback query is always answered.

    Data that is not on a button of the tapped message (forged, or from an older keyboard) is
    refused before anything is read or written. ``offload`` as for ``execute`` (a tap that
    renders a PDF); ``is_admin``: Telegram said the tapper is a chat admin.
    """
    query = update.callback_query
    chat = update.effective_chat
    if query is None:
        return
    cmd = callback_command_of(update)
    if is_admin:
        cmd = dataclasses.replace(cmd, is_admin=True)
    if (
        chat is None
        or not cmd.text
        or len(cmd.text.encode()) > 64
        or cmd.text not in offered_data(update)
    ):
        # complete as a notice, which only the tapper sees: no message for it
        await _answer(update, Answer(notice=STALE_BUTTON))
        return
    cmd = await in_place(context, cmd)
    db = database(context)
    target = target_of(update)
    links = context.bot_data.outbox.buttons.app_link
    if target is not None and isinstance(links, AppLinks) and links.ready(target.chat_id):
        cmd = dataclasses.replace(cmd, app_ready=True)
    asker = tapper_of(update)

    changed = False  # a list was changed (counted once committed)

    def unit(session: Session) -> tuple[Answer, list[durable.Stored]]:
        nonlocal changed
        answer = once(session, cmd, lambda: use_case(session, cmd))
        if answer is None:
            return Answer(), []  # redelivered: the effect is committed already
        rows = [
            row
            for reply in replies_of(cmd, answer, asker)
            for row in stage(session, target, cmd.update_id, reply)
        ]
        changed = lists_store.changed_in(session)
        faults.at("before_commit", cmd.update_id)
        return answer, rows

    try:
        answer, rows = await db.write(unit, offload=offload)
    except RuleError as err:
        await refuse_tap(update, context, err)
        return
    faults.at("committed", cmd.update_id)
    if changed:
        context.bot_data.metrics.booked()
    await _answer(update, answer)
    handoff.enqueue_stored(context.bot, context.bot_data, rows)


def replies_of(cmd: Command, answer: Answer, asker: Asker | None = None) -> list[Reply]:
    """What a tap's answer sends, in order: the edit of the tapped message, the new
    message, the other edits, the posts to other places. A new message for the asker alone
    goes to ``asker`` (the tapper). A tapped ephemeral message is edited as one: only its
    reader, the tapper, sees the edit."""
    out: list[Reply] = []
    if cmd.message_id is not None and (answer.text is not None or answer.buttons is not None):
        tapped = Edit(cmd.message_id, answer.text, answer.buttons or ())
        if cmd.ephemeral_message_id and cmd.user_id is not None:
            tapped = dataclasses.replace(
                tapped, message_id=cmd.ephemeral_message_id, receiver=cmd.user_id
            )
        out.append(Reply("", edits=(tapped,)))
    if answer.send is not None:
        send = answer.send
        if send.for_asker and send.asker is None and asker is not None:
            send = dataclasses.replace(send, asker=asker)
        out.append(send)
    if answer.edits or answer.posts:
        out.append(Reply("", edits=answer.edits, posts=answer.posts))
    return out


def refusal_of(update: Update, err: RuleError) -> Reply:
    """A refusal as a reply: to a tap (a glue route's button, e.g. a member's tap on an
    admin's question) or to an ephemeral command for the asker alone, where the chat takes
    that (``Reply.for_asker``): nothing changed, and the group never saw what was asked."""
    asker = asker_of(update)
    return Reply(error_text(err), refusal=True, for_asker=asker is not None, asker=asker)


def addressed(reply: Reply, asker: Asker | None) -> Reply:
    """``reply`` with its reader filled in, if it is for the asker alone and has none yet
    (a use case only says ``for_asker``). Without one it goes to the chat."""
    if reply.for_asker and reply.asker is None and asker is not None:
        return dataclasses.replace(reply, asker=asker)
    return reply


def answered(reply: Reply, asker: Asker | None) -> Reply:
    """A command's reply with its reader filled in (``addressed``). If the command was an
    ephemeral one (the group never saw it) and the reply is the group's all the same (a
    change of who is who, a picture), it is headed by who asked what (``Asker.heading``;
    a reply for the asker that goes to the chat after all gets it in the outbox)."""
    reply = addressed(reply, asker)
    if (
        asker is None
        or not asker.heading
        or reply.for_asker
        or not reply.text
        or isinstance(reply.text, RichText)  # a table keeps its rich form
    ):
        return reply
    return dataclasses.replace(reply, text=f"{asker.heading}\n{reply.text}")


def asker_of(update: Update) -> Asker | None:
    """Who may be answered alone (``Reply.for_asker``): the tapper, or the member who sent
    an ephemeral command (answered as a reply to it, within Telegram's 15 seconds)."""
    tapper = tapper_of(update)
    if tapper is not None:
        return tapper
    msg = update.message
    command = ephemeral_id_of(msg)
    user_id, name = sender_of(update)
    if msg is None or not command or user_id is None or user_id <= 0:
        return None
    asked = " ".join((msg.text or "").split())[:ASKED_SHOWN]
    heading = f"💬 {escape(name or 'Jemand')}: {escape(asked)}"
    return Asker(user_id, "", time.time(), command, heading)


def to_typist(reply: Reply, update: Update) -> Reply:
    """A refusal of a typed message in a group, for its typist alone where the bot is an
    administrator (the outbox knows: ``ephemeral.EphemeralRefusals.admins``; elsewhere it
    goes to the chat as before). Nothing changed, and the typist is the one to fix it. Text
    only: a refusal with buttons (``/spiel`` without a name and its builder's button) stays
    the group's."""
    if not reply.refusal or reply.for_asker or reply.buttons or reply.on_sent is not None:
        return reply
    if reply.documents or reply.edits or reply.posts or reply.topics or reply.gone_topics:
        return reply
    if reply.instead is not None or reply.poll is not None or reply.stop_poll:
        return reply
    typist = typist_of(update)
    if typist is None:
        return reply
    return dataclasses.replace(reply, for_asker=True, asker=typist)


def typist_of(update: Update) -> Asker | None:
    """Who typed an ordinary message in a group (no tap, no ephemeral command): a real user,
    whom only an administrator bot may answer alone (``Reply.for_asker``)."""
    msg = update.message
    chat = update.effective_chat
    user = update.effective_user
    if msg is None or chat is None or user is None or ephemeral_id_of(msg):
        return None
    if chat.type not in (ChatType.GROUP, ChatType.SUPERGROUP) or msg.sender_chat is not None:
        return None  # a private chat is the typist's own; a chat's message is many people's
    if user.is_bot or user.id in PLACEHOLDER_IDS:
        return None
    return Asker(user.id, "", time.time())


def tapper_of(update: Update) -> Asker | None:
    """Who tapped, with the tap that lets the bot answer them alone (``Reply.for_asker``)."""
    query = update.callback_query
    user_id, _ = sender_of(update)
    if query is None or user_id is None:
        return None
    return Asker(user_id, query.id, time.time())


async def refuse_tap(update: Update, context: SkatContext, err: RuleError) -> None:
    """A refused tap: only the tapper needs to read why. Where the chat may take an answer
    for one reader (``outbox.ephemeral``), the refusal with its fix goes as an ephemeral
    message to the tapper, and the tap's answer is a passing notice; if Telegram refuses that
    message after all, it goes to the chat (nothing is lost). Elsewhere (a private chat, a
    server without ephemeral messages) the tap's answer shows it as a dialog, as always."""
    notice = err.message + (f" {err.hint}" if err.hint else "")
    target = target_of(update)
    asker = tapper_of(update)
    state = context.bot_data
    if target is None or asker is None or not state.outbox.ephemeral.allowed(target.chat_id):
        await _answer(update, Answer(notice=notice, alert=True))
        return
    await _answer(update, Answer(notice=notice))  # a passing notice, no dialog to close
    reply = Reply(error_text(err), refusal=True, for_asker=True, asker=asker)
    handoff.enqueue(context.bot, state, target, lambda d: d.reply(reply))


async def _answer(update: Update, answer: Answer) -> None:
    query = update.callback_query
    if query is None:
        return
    text = answer.notice if len(answer.notice) <= 200 else answer.notice[:199] + "…"
    try:
        await query.answer(text or None, show_alert=answer.alert and bool(text))
    except TelegramError as err:
        log.info("answerCallbackQuery failed: %s", err)
