"""Answers only the asker sees: ephemeral messages (Bot API 10.2/10.3), and what the server
refused of them so far.

A reply ``for_asker`` (``usecases.common.reply.Reply``) goes as an ephemeral message to its
``asker`` where Telegram allows it: in a group, within 15 seconds of the asker's tap (with
the tap's ``callback_query_id``) or of the asker's ephemeral command (as a reply to it,
``reply_parameters.ephemeral_message_id``): for a bot that is no administrator that action is
what makes it allowed. Where the bot is an administrator (``EphemeralRefusals.admins``, known
from its ``my_chat_member`` updates, else asked once) it may send one to any member at any
time: the refusal of a typed command goes to its typist so, with ``receiver_user_id``
alone. It is sent in the 10.3 shape (``ephemeral_message_parameters``); a server that
predates 10.3 ignores the parameter and posts the message publicly (an answer to
an ephemeral command it refuses as not ephemeral), which is the fallback anyway. Everywhere
else the text goes to the chat as any reply, so nothing is lost:

* a private chat, a reply without a tap (where the bot is no administrator), or a tap older
  than the window (e.g. a reply that waited out a restart): public, nothing remembered;
* the server posted it publicly (message id not 0: it ignores the parameter): remembered for
  the bot, no ephemeral sends from now on;
* the server refused it (``BOT_NOT_ADMIN``, ``USER_NOT_PARTICIPANT``, …): sent again publicly
  in the same step, and remembered for that chat; a stale tap ("query is too old") only for
  that reply; a send to a typist refused as ``BOT_NOT_ADMIN`` (the bot was demoted and the
  update about it is not here yet): the bot no longer counts as the chat's administrator.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from telegram.constants import ParseMode
from telegram.error import BadRequest, EndPointNotFound, TelegramError

from skatbot.usecases.common.reply import Asker, Edit
from skatbot.usecases.common.rich import RichText

log = logging.getLogger(__name__)

PARAMETER = "ephemeral_message_parameters"
WINDOW = 15.0  # seconds after a tap in which Telegram takes an ephemeral answer to it
MARGIN = 2.0  # our clock and Telegram's differ, and the request takes its time

# What Telegram answers when it will not deliver an ephemeral message here (the docs name no
# error texts; these are the server's texts for what is missing, see docs/ephemeral.md).
_CHAT_REFUSALS = (
    "bot_not_admin",
    "user_not_participant",
    "user_is_bot",
    "user_id_invalid",
    "receiver_user_id",
    "ephemeral",
)
_TOO_LATE = ("query is too old", "query id is invalid", "message to be replied not found")
# An answer to an ephemeral command (``reply_parameters.ephemeral_message_id``) whose
# ``ephemeral_message_parameters`` the server did not read (before 10.3).
_IGNORED = ("reply to an ephemeral message must be ephemeral",)


def headed(html: str, asker: Asker) -> str:
    """``html`` as the chat sees it when an answer for ``asker`` goes there after all: below
    who asked what, if the group never saw the question (an ephemeral command). A table
    (``RichText``) keeps its rich form and goes without."""
    if not asker.heading or not html or isinstance(html, RichText):
        return html
    return f"{asker.heading}\n{html}"


EDIT_TEXT = "editEphemeralMessageText"
EDIT_MARKUP = "editEphemeralMessageReplyMarkup"


def sent_id(result: object) -> int | None:
    """The id an ephemeral send is remembered by (``Reply.on_sent``, the outbox row's
    steps): minus its ``ephemeral_message_id`` - a chat's message ids are positive - or
    the message id the server gave (a server that posted it publicly: its real id)."""
    if not isinstance(result, dict):
        return None
    message_id = result.get("message_id")
    ephemeral_id = result.get("ephemeral_message_id")
    if not message_id and isinstance(ephemeral_id, int) and ephemeral_id > 0:
        return -ephemeral_id
    return message_id if isinstance(message_id, int) else None


def edit_key(edit: Edit) -> int:
    """The key of an edit's message among the chat's (``coalesce``): an ephemeral message's
    id is negated, its numbering is not the chat's."""
    return -edit.message_id if edit.receiver else edit.message_id


def edit_request(
    chat_id: int, edit: Edit, text: str | None, keyboard: object
) -> tuple[str, dict[str, Any]]:
    """The request that edits ephemeral message ``edit.message_id`` of ``edit.receiver``:
    editEphemeralMessageText, or with ``text`` None its keyboard alone. It takes no
    callback query: the Bot API sets no window for it (skatbot edits one in answer to a tap
    on it anyway)."""
    kwargs: dict[str, Any] = {
        "chat_id": chat_id,
        "receiver_user_id": edit.receiver,
        "ephemeral_message_id": edit.message_id,
    }
    if keyboard is not None:
        kwargs["reply_markup"] = keyboard
    if text is None:
        return EDIT_MARKUP, kwargs
    return EDIT_TEXT, {**kwargs, "text": text, "parse_mode": ParseMode.HTML}


def unasked(asker: Asker) -> bool:
    """Whether an answer to ``asker`` answers nothing Telegram knows of (no tap, no ephemeral
    command): the typist of an ordinary message, whom only an administrator may answer so."""
    return not asker.callback_query_id and not asker.ephemeral_message_id


@dataclass
class EphemeralRefusals:
    """What the server refused of ephemeral messages so far (one per outbox): at all (the
    bot's server predates them), or in some chats. Not tried again there."""

    unsupported: bool = False
    chats: set[int] = field(default_factory=set)
    admins: dict[int, bool] = field(default_factory=dict)
    """Whether the bot administers a group, as its latest ``my_chat_member`` update said or,
    before one came, getChatMember (asked once per group while the bot runs, at its first
    refusal for a typist): where it does it may send an ephemeral message unasked
    (``unasked``)."""
    known: bool = False
    """The server answered an ephemeral send as one (message id 0). Until then a try counts
    toward the group's pace: a server that predates the parameter posts it to the group."""

    @property
    def counts(self) -> bool:
        """Whether the next ephemeral try counts toward the group's pace."""
        return not self.known

    def parameters(self, chat_id: int, asker: Asker | None) -> dict[str, Any] | None:
        """The parameters that make a reply to ``asker`` in ``chat_id`` now ephemeral
        (``ephemeral_message_parameters``, and for an ephemeral command the
        ``reply_parameters`` naming it), or ``None``: send it publicly."""
        if asker is None or chat_id >= 0:
            return None  # a private chat: Telegram has no ephemeral there
        if self.unsupported or chat_id in self.chats:
            return None
        if unasked(asker):
            # nothing of the asker's to answer: only an administrator may send one, at any
            # time (no window)
            if not self.admins.get(chat_id):
                return None
            return {PARAMETER: {"receiver_user_id": asker.user_id}}
        if time.time() - asker.since > WINDOW - MARGIN:
            return None  # Telegram would refuse it as too late: public straight away
        if asker.ephemeral_message_id:  # an ephemeral command: the answer replies to it
            return {
                PARAMETER: {"receiver_user_id": asker.user_id},
                "reply_parameters": {"ephemeral_message_id": asker.ephemeral_message_id},
            }
        return {
            PARAMETER: {
                "receiver_user_id": asker.user_id,
                "callback_query_id": asker.callback_query_id,
            }
        }

    def administers(self, chat_id: int, admin: bool) -> None:
        """The bot's membership in ``chat_id`` changed (``my_chat_member``): an
        administrator there now, or not."""
        self.admins[chat_id] = admin

    def unknown(self, chat_id: int) -> bool:
        """Whether to ask Telegram if the bot administers ``chat_id`` before a send to a
        typist there: a group where ephemeral messages may be tried, never asked yet."""
        return self.allowed(chat_id) and chat_id not in self.admins

    def allowed(self, chat_id: int) -> bool:
        """Whether a reply for one reader in ``chat_id`` may be tried ephemerally."""
        return chat_id < 0 and not self.unsupported and chat_id not in self.chats

    def sent(self, chat_id: int, result: object) -> None:
        """An ephemeral send came back; a message with a real id means the server posted it
        publicly (it predates the parameter): remembered for the bot."""
        if isinstance(result, dict) and result.get("message_id", 0) == 0:
            self.known = True
        if isinstance(result, dict) and result.get("message_id", 0) != 0:
            if not self.unsupported:
                log.info("the Bot API server ignores ephemeral messages: public from now on")
            self.unsupported = True

    def note(self, chat_id: int, err: TelegramError, *, admin_only: bool = False) -> bool:
        """True if ``err`` refuses the ephemeral message (then send it publicly); remembered
        for the chat, or for the bot if the server does not know the method. ``admin_only``:
        a send only an administrator may make (``unasked``); refused as ``BOT_NOT_ADMIN``,
        the bot is no administrator there any more (its taps' answers are not affected)."""
        if isinstance(err, EndPointNotFound) or "method not found" in err.message.lower():
            self.unsupported = True
            log.info("the Bot API server has no ephemeral messages (%s): public from now on", err)
            return True
        if not isinstance(err, BadRequest):
            return False
        lowered = err.message.lower()
        if any(text in lowered for text in _IGNORED):
            # the server read the reply to an ephemeral command but not the parameter that
            # makes the answer ephemeral: it predates 10.3 (docs/ephemeral.md)
            self.unsupported = True
            log.info("the Bot API server ignores ephemeral_message_parameters (%s)", err)
            return True
        if any(text in lowered for text in _TOO_LATE):
            log.info("chat %s: ephemeral answer too late (%s): sent publicly", chat_id, err)
            return True
        if admin_only and "bot_not_admin" in lowered:
            log.info("chat %s: the bot is no administrator any more: refusals public", chat_id)
            self.admins[chat_id] = False
            return True
        if any(text in lowered for text in _CHAT_REFUSALS):
            log.info("chat %s refused an ephemeral message (%s): public there now", chat_id, err)
            self.chats.add(chat_id)
            return True
        return False
