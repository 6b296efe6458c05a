"""Who opens the Mini App and which list it shows: pure checks, no I/O.

``check_init_data`` validates ``Telegram.WebApp.initData`` exactly as Telegram documents it
(core.telegram.org/bots/webapps, "Validating data received via the Mini App"):
``secret_key = HMAC_SHA256(key="WebAppData", msg=<bot token>)``, and the ``hash`` field is
the hex ``HMAC_SHA256(key=secret_key, msg=data_check_string)``, the data-check-string being
every other field as ``key=value``, sorted by key, joined by ``\\n``.

The start token (``sign_start`` / ``read_start``) names a chat, its forum topic and a list,
tagged with an HMAC under a key derived from the token apart from initData's, so that a
member of one chat cannot point the app at another chat's list. It is the ``startapp``
parameter of a ``t.me/<bot>/<app>`` link (Telegram allows up to 512 characters of
``A-Za-z0-9_-``) or the ``?start=`` of the app's URL.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import json
import struct
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

MAX_AGE = dt.timedelta(hours=24)
# a phone's clock a little ahead of the server's is no forgery
FUTURE_SKEW = dt.timedelta(minutes=5)
MAX_INIT_DATA = 8192  # Telegram's initData is a few hundred bytes

_START_VERSION = 1
_START_BODY = struct.Struct(">BqII")  # version, chat id, topic id, list id (0: current)
_TAG_BYTES = 16  # 128 bits
START_LENGTH = len(base64.urlsafe_b64encode(b"\0" * (_START_BODY.size + _TAG_BYTES)).rstrip(b"="))


class LoginError(ValueError):
    """initData that is forged, expired or malformed; the text is German, for the page."""


class StartError(ValueError):
    """A start token that is malformed or not the bot's own."""


@dataclass(frozen=True)
class WebAppLogin:
    """A checked login: who opened the app, from where, when."""

    user_id: int
    first_name: str
    last_name: str
    username: str
    start_param: str | None
    auth_date: dt.datetime

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p) or self.username


@dataclass(frozen=True)
class Start:
    """What a start token binds: a chat, its forum topic (0: none) and a list (0: current)."""

    chat_id: int
    topic_id: int = 0
    list_id: int = 0


def _secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def _hash(fields: dict[str, str], token: str) -> str:
    return hmac.new(
        _secret_key(token), data_check_string(fields).encode(), hashlib.sha256
    ).hexdigest()


def check_init_data(
    init_data: str, token: str, now: dt.datetime, max_age: dt.timedelta = MAX_AGE
) -> WebAppLogin:
    """The login ``init_data`` carries, or ``LoginError``: bad hash, too old (``max_age``)
    or from the future beyond ``FUTURE_SKEW``, a key twice, no user."""
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise LoginError("Keine gültige Anmeldung.")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise LoginError("Keine gültige Anmeldung.") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise LoginError("Keine gültige Anmeldung.")  # a key twice: which one was signed?
    got = fields.get("hash", "")
    if not hmac.compare_digest(got.encode(), _hash(fields, token).encode()):
        raise LoginError("Die Anmeldung ist nicht von Telegram.")
    try:
        auth = dt.datetime.fromtimestamp(int(fields["auth_date"]), dt.UTC)
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError, OverflowError, OSError):
        raise LoginError("Keine gültige Anmeldung.") from None
    if auth < now - max_age or auth > now + FUTURE_SKEW:
        raise LoginError("Die Anmeldung ist abgelaufen. Bitte die Mini App neu öffnen.")
    return WebAppLogin(
        user_id=user_id,
        first_name=str(user.get("first_name") or ""),
        last_name=str(user.get("last_name") or ""),
        username=str(user.get("username") or ""),
        start_param=fields.get("start_param") or None,
        auth_date=auth,
    )


def sign_init_data(
    token: str,
    user_id: int,
    first_name: str,
    now: dt.datetime,
    *,
    start_param: str | None = None,
    last_name: str = "",
    username: str = "",
) -> str:
    """An initData as Telegram would make it (tests, and the offline login for one person)."""
    user: dict[str, object] = {"id": user_id, "first_name": first_name}
    if last_name:
        user["last_name"] = last_name
    if username:
        user["username"] = username
    fields = {
        "auth_date": str(int(now.timestamp())),
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    if start_param:
        fields["start_param"] = start_param
    fields["hash"] = _hash(fields, token)
    return urlencode(fields)


def start_key(token: str) -> bytes:
    """The key of start tokens: from the bot token, apart from initData's ``secret_key``."""
    return hmac.new(b"skatbot-startapp-v1", token.encode(), hashlib.sha256).digest()


def sign_start(chat_id: int, topic_id: int, list_id: int, key: bytes) -> str:
    """A start token (``START_LENGTH`` characters of ``A-Za-z0-9_-``)."""
    body = _START_BODY.pack(_START_VERSION, chat_id, topic_id, list_id)
    tag = hmac.new(key, body, hashlib.sha256).digest()[:_TAG_BYTES]
    return base64.urlsafe_b64encode(body + tag).rstrip(b"=").decode()


def read_start(text: str, key: bytes) -> Start:
    """What a start token binds, or ``StartError`` (malformed, or not signed with ``key``)."""
    if len(text) != START_LENGTH:
        raise StartError("Der Link zur Liste ist ungültig.")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise StartError("Der Link zur Liste ist ungültig.") from None
    body, tag = raw[: _START_BODY.size], raw[_START_BODY.size :]
    want = hmac.new(key, body, hashlib.sha256).digest()[:_TAG_BYTES]
    if not hmac.compare_digest(tag, want):
        raise StartError("Der Link zur Liste ist ungültig.")
    version, chat_id, topic_id, list_id = _START_BODY.unpack(body)
    if version != _START_VERSION:
        raise StartError("Der Link zur Liste ist veraltet. Bitte /app neu senden.")
    return Start(chat_id, topic_id, list_id)
