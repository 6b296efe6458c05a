"""A reply's native poll (``Reply.poll``: sendPoll) and the closing of an earlier one
(``Reply.stop_poll``: stopPoll).

The poll goes out as a step of the reply's outbox row, and its ``on_sent`` (which stores the
poll's id: a ``poll_answer`` update names the poll only) runs in the write that records the
step, so a restart neither sends it twice nor forgets its id. ``allows_revoting`` is sent to
every server; one before Bot API 9.6 ignores it, and there a vote cannot be changed (only
taken back and given again in the app where it allows that: its own rule).
"""

from __future__ import annotations

import json
import logging
import warnings
from typing import TYPE_CHECKING, Any

from telegram.error import BadRequest
from telegram.warnings import PTBUserWarning

from skatbot.usecases.common.reply import Poll

if TYPE_CHECKING:
    from skatbot.handlers.outbox.sender import Sender
    from skatbot.handlers.outbox.target import Target
    from skatbot.storage.unit import Session

log = logging.getLogger(__name__)

REFUSED = (
    "⚠️ Die Umfrage darf ich hier nicht senden.\n"
    "👉 Erlaubt Umfragen in den Gruppenrechten, dann /spielabend schliessen und neu planen."
)
SEND = "sendPoll"
STOP = "stopPoll"
# As the outbox's messages: the JSON answer is all that is read (sender.SEND).
warnings.filterwarnings(
    "ignore", message=r"Please use 'Bot\.(sendPoll|stopPoll)'", category=PTBUserWarning
)


def params(poll: Poll) -> dict[str, Any]:
    """sendPoll's parameters besides the chat: a regular, public, single-answer poll whose
    vote may be changed."""
    return {
        "question": poll.question,
        "options": json.dumps([{"text": text} for text in poll.options], ensure_ascii=False),
        "is_anonymous": False,
        "allows_multiple_answers": False,
        "allows_revoting": True,
    }


async def send(sender: Sender, poll: Poll) -> int | None:
    """Post ``poll`` at the sender's target; its message id (None: not sent)."""
    found: list[str] = []

    async def request(target: Target) -> object:
        kwargs = {"chat_id": target.chat_id, **target.thread_kwargs(), **params(poll)}
        return await sender.bot.do_api_request(SEND, kwargs)

    async def one() -> int | None:
        result = await sender.request(request, counts=True)
        if not isinstance(result, dict):
            return None
        found.append(str((result.get("poll") or {}).get("id", "")))
        message_id = result.get("message_id")
        return int(message_id) if message_id is not None else None

    try:
        sent = await sender._step(one)
    except BadRequest as err:  # e.g. the group's permissions allow no polls
        log.info("sendPoll to chat %s refused: %s", sender.target.chat_id, err)
        await sender.send_text(REFUSED)
        return None
    on_sent = poll.on_sent
    if sent is None or on_sent is None or not found:
        return sent  # not sent, or sent and recorded before a restart (on_sent ran then)
    poll_id = found[0]

    def unit(session: Session) -> None:
        on_sent(session, sent, poll_id)

    if sender.steps is not None:
        await sender.steps.then(unit)
    elif sender.db is not None:
        await sender.db.write(unit)
    return sent


async def stop(sender: Sender, message_id: int) -> None:
    """Close the bot's poll ``message_id``; one closed already (or gone) is fine."""

    async def request(target: Target) -> object:
        return await sender.bot.do_api_request(
            STOP, {"chat_id": target.chat_id, "message_id": message_id}
        )

    try:
        await sender.request(request, counts=True)
    except BadRequest as err:  # closed by Telegram at its time, or deleted
        log.info("stopPoll %s in chat %s: %s", message_id, sender.target.chat_id, err)
