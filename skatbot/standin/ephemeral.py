"""Ephemeral messages as the Bot API has them since 10.2: a group message that only one member
(its *receiver*) and the bot see.

The stand-ins' ``BotApi`` keeps them here, apart from the chat's messages (what the group
sees), and reads the parameters of a send in the shape of the server version it plays:

* **before 10.2** the parameters are unknown, and a Bot API server ignores what it does not
  know: ``sendMessage(receiver_user_id=…)`` is an ordinary *public* message. The ignored
  names are listed (``BotApi.ignored_params``) so that a test can see it happen;
* **10.2** takes ``receiver_user_id`` and ``callback_query_id`` beside the other parameters
  of sendMessage, sendDocument, sendPhoto (not sendRichMessage);
* **10.3** takes ``ephemeral_message_parameters`` (``EphemeralMessageParameters``:
  ``receiver_user_id``, ``callback_query_id``, ``replace_callback_query_message``), also on
  sendRichMessage; the 10.2 names still work, as a server keeps reading a "replaced"
  parameter (``reply_to_message_id`` after 7.0).

What a send may do (the Bot API's "Ephemeral Messages and Commands"): any bot may answer a
user "within 15 seconds of the incoming eligible action" - a callback query
(``callback_query_id``) or an incoming ephemeral message (``reply_parameters.
ephemeral_message_id``) of that user; a bot that is an administrator may send one "to any
non-bot member of the chat at any time". The checks and their texts are in ``BotApi``
(``_ephemeral_receiver``); the docs give no error texts, the ones chosen (in the server's
style) are listed in ``docs/testing.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from skatbot.standin.records import bad_request
from skatbot.standin.versions import API_10_2, API_10_3

if TYPE_CHECKING:
    from skatbot.standin.records import BotMessage

__all__ = [
    "EPHEMERAL_EDIT_METHODS",
    "EPHEMERAL_WINDOW",
    "EphemeralRequest",
    "EphemeralStore",
    "Trigger",
    "read_request",
]

EPHEMERAL_WINDOW = 15.0
"""Seconds after a tap or an ephemeral command in which any bot may answer it ephemerally."""

EPHEMERAL_EDIT_METHODS = frozenset(
    {
        "editephemeralmessagetext",
        "editephemeralmessagecaption",
        "editephemeralmessagemedia",
        "editephemeralmessagereplymarkup",
        "deleteephemeralmessage",
    }
)
"""Methods a server before 10.2 does not know (404)."""

_SENDS_10_2 = frozenset({"sendmessage", "senddocument", "sendphoto"})
"""The stand-ins' send methods that take ephemeral parameters in 10.2 (the Bot API lists 13,
the stand-ins implement these); 10.3 adds sendRichMessage."""
_FLAT = ("receiver_user_id", "callback_query_id")
_OBJECT = "ephemeral_message_parameters"


@dataclass(frozen=True)
class EphemeralRequest:
    """The ephemeral parameters of one send, as the server version reads them."""

    receiver_user_id: int | None
    callback_query_id: str | None = None
    replace_callback_query_message: bool = False
    reply_ephemeral_id: int | None = None
    """``reply_parameters.ephemeral_message_id``: the incoming ephemeral message answered."""


@dataclass(frozen=True)
class Trigger:
    """An action a bot may answer ephemerally within ``EPHEMERAL_WINDOW``: a tap or an
    incoming ephemeral message (an ephemeral command)."""

    chat_id: int
    user_id: int
    time: float
    """The stand-in's clock when the update was made."""
    from_ephemeral: bool = False
    """A tap on a button of an ephemeral message (it is edited, never replaced)."""


@dataclass
class EphemeralStore:
    """The ephemeral messages of every chat (the bot's and the incoming ones), and the taps
    and ephemeral commands they may answer."""

    sent: dict[int, dict[int, BotMessage]] = field(default_factory=dict)
    """The bot's ephemeral messages per chat, by ``ephemeral_message_id``."""
    incoming: dict[int, dict[int, Trigger]] = field(default_factory=dict)
    """Users' ephemeral messages (commands) per chat, by ``ephemeral_message_id``."""
    taps: dict[str, Trigger] = field(default_factory=dict)
    """Callback queries by id."""
    _next_id: dict[int, int] = field(default_factory=dict)

    def new_id(self, chat_id: int) -> int:
        """A chat's next ``ephemeral_message_id`` (one numbering for both directions)."""
        self._next_id[chat_id] = self._next_id.get(chat_id, 0) + 1
        return self._next_id[chat_id]

    def message(self, chat_id: int, receiver: int, ephemeral_id: int) -> BotMessage | None:
        """The bot's ephemeral message to ``receiver`` (``None``: unknown, another user's,
        or deleted)."""
        msg = self.sent.get(chat_id, {}).get(ephemeral_id)
        if msg is None or msg.deleted or msg.receiver != receiver:
            return None
        return msg


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _bad(description: str) -> Exception:
    return bad_request(description)


def _reply_ephemeral_id(params: dict[str, Any], version: tuple[int, int]) -> int | None:
    reply = params.get("reply_parameters")
    if not isinstance(reply, dict) or not reply:
        return None
    if version < API_10_2:
        if "message_id" not in reply:  # the server requires it before 10.2
            raise _bad('can\'t find field "message_id"')
        return None
    return _int(reply.get("ephemeral_message_id"))


def _object(raw: Any) -> dict[str, Any]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise _bad("can't parse ephemeral message parameters JSON object") from None
    if not isinstance(raw, dict):
        raise _bad("object expected as ephemeral message parameters")
    return raw


def read_request(
    method: str,
    params: dict[str, Any],
    version: tuple[int, int],
    ignored: list[tuple[str, str]] | None = None,
) -> EphemeralRequest | None:
    """The ephemeral parameters of a send as a server of ``version`` reads them; ``None``
    for a public send. Parameters the version does not know are ignored, as the server does,
    and listed in ``ignored`` as (method, name). Raises ``ApiError`` for parameters the
    version knows but cannot read."""
    name = method.lower()
    takes_flat = version >= API_10_2 and name in _SENDS_10_2
    takes_object = version >= API_10_3 and name in (*_SENDS_10_2, "sendrichmessage")
    for key in (*_FLAT, _OBJECT):
        known = takes_object if key == _OBJECT else takes_flat
        if key in params and not known and ignored is not None:
            ignored.append((method, key))
    reply_id = _reply_ephemeral_id(params, version)
    if takes_object and params.get(_OBJECT) is not None:
        given = _object(params[_OBJECT])
        if "receiver_user_id" not in given:
            raise _bad('can\'t find field "receiver_user_id"')
        receiver = _int(given["receiver_user_id"])
        if receiver is None:
            raise _bad('field "receiver_user_id" must be of type Number')
        query = given.get("callback_query_id")
        return EphemeralRequest(
            receiver,
            str(query) if query else None,
            given.get("replace_callback_query_message") is True,
            reply_id,
        )
    if takes_flat:
        receiver_raw, query = params.get("receiver_user_id"), params.get("callback_query_id")
        if receiver_raw is not None or query:
            return EphemeralRequest(
                _int(receiver_raw), str(query) if query else None, False, reply_id
            )
    if reply_id is not None:
        return EphemeralRequest(None, None, False, reply_id)
    return None
