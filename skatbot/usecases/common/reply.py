"""What a handler answers: HTML text, optionally documents (or photos) and buttons."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from skatbot.rules.errors import RuleError
from skatbot.usecases.common import continuations

if TYPE_CHECKING:
    from skatbot.storage.unit import Session

# rows of (label, callback data); data starting with "https://" is a link button instead.
# A pair may be a ``Button``, which also says what it does and whether it can act now.
Buttons = tuple[tuple[tuple[str, str], ...], ...]

CONFIRM = "confirm"  # the button does what a question asked (books, signs): shown green
DANGER = "danger"  # the button strikes or deletes: shown red
ROLES = (CONFIRM, DANGER)


class Button(tuple[str, str]):
    """A (label, data) pair of ``Buttons`` that also declares what it does and whether it can
    act now, for Telegram to show (handlers.outbox.keyboard): ``role`` (``CONFIRM``,
    ``DANGER`` or "") is its colour; ``disabled`` (when not "") says why it cannot act yet -
    the button is shown greyed out, and where the server cannot grey it out it stays an
    ordinary button whose tap the use case must answer with that reason (a button is never
    trusted: the tap checks the state again anyway). Still a pair, so everything that reads
    (label, data) reads it unchanged."""

    role: str
    disabled: str

    def __new__(cls, label: str, data: str, *, role: str = "", disabled: str = "") -> Button:
        if role and role not in ROLES:
            raise ValueError(f"unknown button role {role!r}")
        made = super().__new__(cls, (label, data))
        made.role = role
        made.disabled = disabled
        return made

    def __getnewargs_ex__(self) -> tuple[tuple[str, str], dict[str, str]]:  # copy, pickle
        return (self[0], self[1]), {"role": self.role, "disabled": self.disabled}

    def __repr__(self) -> str:
        return f"Button({self[0]!r}, {self[1]!r}, role={self.role!r}, disabled={self.disabled!r})"


def confirm_button(label: str, data: str) -> Button:
    """A button that does what a question asked (books, signs)."""
    return Button(label, data, role=CONFIRM)


def danger_button(label: str, data: str) -> Button:
    """A button that strikes or deletes."""
    return Button(label, data, role=DANGER)


def with_data(button: tuple[str, str], data: str) -> tuple[str, str]:
    """``button`` with other callback data, keeping its role and state."""
    if isinstance(button, Button):
        return Button(button[0], data, role=button.role, disabled=button.disabled)
    return (button[0], data)


@dataclass(frozen=True)
class Call:
    """What to run after sending (``on_sent``, ``on_gone``, ``render``, a topic's
    ``on_created``) in a form that survives a restart: ``key`` names a function registered
    with ``@continuation(key)`` (``continuations``), called as ``fn(session, *args, *more)``;
    ``args`` are JSON values. The durable outbox stores it with the reply; a plain closure
    works too but is lost if the bot stops before the reply is out. An undeclared key is
    refused when the Call is made."""

    key: str
    args: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        continuations.check(self.key)

    def __call__(self, session: Session, *more: Any) -> Any:
        return continuations.resolve(self.key)(session, *self.args, *more)


@dataclass(frozen=True)
class Document:
    filename: str
    data: bytes
    caption: str = ""


@dataclass(frozen=True)
class Photo(Document):
    """A picture (PNG) shown in the chat (sendPhoto), not offered as a file; in a reply's
    ``documents`` like any document (the same caption rules)."""


@dataclass(frozen=True)
class Edit:
    """Another message of the bot to change after the commit (e.g. the pinned standings).

    ``text=None`` keeps the text and only replaces the buttons. A failed edit (message deleted)
    is logged and never undoes anything; if Telegram says the message is gone, ``on_gone``
    runs in a write unit (e.g. to stop editing it after every booking).
    """

    message_id: int
    text: str | None
    buttons: Buttons = ()
    on_gone: Callable[[Session], None] | None = field(default=None, compare=False)
    # The text computed when the edit is sent (a read unit), from what is committed then;
    # ``None`` from it skips the edit.
    render: Callable[[Session], str | None] | None = field(default=None, compare=False)
    # At most one edit of this message per ``every`` seconds: edits within that time are
    # coalesced into one, sent when the time is up (with ``render``: the latest state).
    every: float = 0.0
    # An ephemeral message of the bot's (Bot API 10.2): the user who sees it; ``message_id``
    # is then its ``ephemeral_message_id`` (editEphemeralMessageText). 0: a chat's message.
    receiver: int = 0


@dataclass(frozen=True)
class Post:
    """A message to another place than the update's (a tournament table's list tells the
    desk): ``chat_id`` is the Telegram chat, ``thread_id`` its forum topic (0:
    none). Queued after the update's own reply. ``reply.on_sent`` works as for a reply;
    ``pin`` pins the sent message (a failed pin is only logged)."""

    chat_id: int
    thread_id: int
    reply: Reply
    pin: bool = False


@dataclass(frozen=True)
class NewTopic:
    """A forum topic the bot creates in Telegram chat ``chat_id`` after the commit
    (createForumTopic). ``on_created(session, thread_id)`` runs in a write unit and its reply
    goes into the new topic; if Telegram refuses (no forum, no right to manage topics),
    ``on_refused(session)`` runs instead and its reply goes where the update came from."""

    chat_id: int
    name: str
    on_created: Callable[[Session, int], Reply] = field(compare=False)
    on_refused: Callable[[Session], Reply] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class CloseTopic:
    """A forum topic of the bot's to remove after the commit: deleteForumTopic, or where the
    bot may not, closeForumTopic (nothing more can be posted there)."""

    chat_id: int
    thread_id: int


@dataclass(frozen=True)
class Poll:
    """A native poll the bot posts after the reply's text (sendPoll): ``question`` and
    ``options`` plain text. Never anonymous (the bot is told each vote: ``poll_answer``), one
    option per vote, a vote may be changed (``allows_revoting``; a server before Bot API 9.6
    ignores it). ``on_sent(session, message_id, poll_id)`` runs in a write unit once it is
    out: a vote names the poll by its id only."""

    question: str
    options: tuple[str, ...]
    on_sent: Call | None = None


@dataclass(frozen=True)
class Asker:
    """The one reader of a reply ``for_asker``, filled in by the handlers (use cases only say
    ``for_asker``): the user, and what makes an ephemeral answer possible: their tap
    (``callback_query_id``) or their ephemeral command (``ephemeral_message_id``, Bot API
    10.2: a command only the bot received); ``since`` is its Unix time (Telegram takes the
    answer within 15 s)."""

    user_id: int
    callback_query_id: str = ""
    since: float = 0.0
    ephemeral_message_id: int = 0
    # HTML put above the text where it goes to the chat after all: who asked what (the group
    # never saw an ephemeral command)
    heading: str = ""


@dataclass(frozen=True)
class Reply:
    text: str  # Telegram HTML; every user-provided string in it is escaped
    documents: tuple[Document, ...] = ()
    buttons: Buttons = field(default=())  # rows of (label, data)
    edits: tuple[Edit, ...] = ()  # applied after the commit, after sending ``text``
    # Run in a second short transaction with the id of the sent message (e.g. a game builder
    # remembers its message); skipped if sending failed. For a reply ``for_asker`` that went
    # out as an ephemeral message the id is minus its ``ephemeral_message_id``.
    on_sent: Callable[[Session, int], None] | None = None
    # A refusal (bad input, nothing changed). Users see only the text; the outbox records
    # the sent message as one (``Outbox.refusals``) - a mark that does not rely on the "⚠️".
    refusal: bool = False
    posts: tuple[Post, ...] = ()  # messages to other places, after this reply
    topics: tuple[NewTopic, ...] = ()  # forum topics to create, after this reply
    gone_topics: tuple[CloseTopic, ...] = ()  # forum topics to delete (or close), after it
    # Sent instead where Telegram refuses this reply's message: a private chat whose user
    # never wrote to the bot ("bot can't initiate conversation with a user") - a role's code
    # sent privately falls back to a deep link in the group that only that user can redeem.
    instead: Post | None = None
    # Only the asker needs this text (a refused tap, a builder step): where Telegram can,
    # an ephemeral message in the group that only ``asker`` sees; where it cannot, the text
    # goes to the chat as any reply (``handlers.outbox.ephemeral``). Such a reply is only
    # text and buttons: whatever changes a list or what a table sees (documents, edits,
    # posts, topics) is never ephemeral, checked here. Its ``on_sent`` may remember the
    # message (a game builder opened by a tap); it runs however the text went out.
    for_asker: bool = False
    asker: Asker | None = None  # whom ``for_asker`` means; set by the handlers
    poll: Poll | None = None  # a poll posted after the text
    stop_poll: int = 0  # the message id of a poll of the bot's to close (stopPoll) first

    def __post_init__(self) -> None:
        if self.for_asker and (
            self.documents
            or self.edits
            or self.posts
            or self.topics
            or self.gone_topics
            or self.instead is not None
            or self.poll is not None
            or self.stop_poll
        ):
            raise ValueError("a reply for the asker alone carries only text and buttons")

    @property
    def goes_out(self) -> bool:
        """Whether delivering this reply sends, edits, creates or removes anything."""
        parts = (self.text, self.documents, self.edits, self.posts, self.topics, self.gone_topics)
        return any(parts) or self.poll is not None or bool(self.stop_poll)


@dataclass(frozen=True)
class Answer:
    """What a button tap answers (runtime.execute_callback).

    ``notice`` is the short text of answerCallbackQuery (``alert`` shows it as a dialog);
    ``text``/``buttons`` replace the tapped message's text/keyboard (None keeps it, ``()``
    removes the keyboard); ``send`` posts a new message.
    """

    notice: str = ""
    alert: bool = False
    text: str | None = None
    buttons: Buttons | None = None
    send: Reply | None = None
    edits: tuple[Edit, ...] = ()
    posts: tuple[Post, ...] = ()  # messages to other places (``Reply.posts``)


# Placeholder users Telegram puts into ``from`` when a message is sent on behalf of a chat
# (``sender_chat``): GroupAnonymousBot (anonymous group admins), Channel_Bot (posts as a
# channel), Telegram (777000, automatic forwards from a linked channel). They stand for many
# people and never own anything.
ANONYMOUS_ADMIN_ID = 1087968824
CHANNEL_BOT_ID = 136817688
TELEGRAM_SERVICE_ID = 777000
PLACEHOLDER_IDS = frozenset({ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID, TELEGRAM_SERVICE_ID})


def error_text(err: RuleError) -> str:
    """A refusal as the chat sees it: the problem, and the fix on its own line."""
    text = f"⚠️ {escape(err.message)}"
    if err.hint:
        text += f"\n👉 {escape(err.hint)}"
    return text


@dataclass(frozen=True)
class Command:
    """The parts of an update a use case needs (no Telegram types below the handlers).

    ``place_id`` is the *place* the command belongs to: the Telegram chat, or for a message in
    a forum topic that topic's place id (``storage.topic_places``); ``thread_id`` is the topic,
    ``telegram_chat_id`` the Telegram chat.
    """

    place_id: int
    chat_title: str
    user_id: int | None
    user_name: str
    update_id: int
    args: tuple[str, ...]
    text: str = ""
    message_id: int | None = None  # the tapped message (callbacks) or the replied-to message
    is_admin: bool = False  # asked from Telegram before the transaction, for commands that need it
    source_message_id: int | None = None  # the user's own message (commands; sheet/edits.py)
    thread_id: int = 0  # the forum topic of the message (0: none, or "General")
    telegram_chat_id: int = 0  # the Telegram chat, whatever the place
    is_forum: bool = False  # the Telegram chat has topics (Telegram says so in every message)
    bot_username: str = ""  # the bot's own @username (deep links), "" where unknown
    # The people the message points at by Telegram's means, (user id, name): the author of
    # the message it answers, then users picked by name without @username (text mentions).
    named_users: tuple[tuple[int, str], ...] = ()
    # An ephemeral message (message_id 0): a tap on one of the bot's, or a command sent as
    # one (Bot API 10.2, ``is_ephemeral``): its ephemeral_message_id; 0 for a chat's message.
    ephemeral_message_id: int = 0
    # Where the world reaches the bot's web server (``SKATBOT_PUBLIC_URL``, no trailing
    # slash), for the commands that hand out a web link; None: no public address.
    public_url: str | None = None
    # Whether the Mini App can be opened from this chat (a public address for a private
    # chat's web_app button, a registered Mini App name for a group's t.me link): filled
    # by the handlers from the bot's settings.
    app_ready: bool = False
    # The Mini App's address on this computer when the console serves it (no Telegram to
    # open it): /app names it; the login stays where the console printed it.
    local_app_url: str | None = None

    @property
    def rest(self) -> str:
        """The message text after the command word, as typed (it may span several lines)."""
        parts = self.text.split(None, 1)
        return parts[1] if len(parts) > 1 else ""

    @property
    def here(self) -> str:
        """Where the command was asked, for the German texts: "diesem Thema" in a forum topic
        (a place of its own), else "diesem Chat"."""
        return "diesem Thema" if self.thread_id else "diesem Chat"
