"""What the bot counts while it runs, for Prometheus (``/metrics`` of ``skatbot.web``).

One ``Metrics`` per application (``BotState.metrics``), each with its own
``CollectorRegistry``: two applications in one process (tests, benches) never share a count.
Every label is bounded: update kinds (Telegram's list), command names (the route table),
error codes, document types. No chat or user id, no text of a message, ever.

Where they are counted: updates and their handling time around ``Application.process_update``
(``MeasuredApplication``, polling and webhook alike); commands at each command route's
handler (``registry``); bookings where the runtime commits a change to a list; every Bot API
call's outcome, its errors and flood waits in the Bot API client (``ObservedRequest``), so
``getUpdates`` and ``setWebhook`` count as much as a reply; documents when the outbox has
delivered them. The outbox's depth and age are read from the database when scraped
(``observe_outbox``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from telegram import Update
from telegram.error import TimedOut
from telegram.ext import Application
from telegram.request import BaseRequest

# Seconds from receiving an update to its effect committed and its replies queued: a booking
# takes milliseconds, a tournament's PDF up to seconds.
HANDLING_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
DOCUMENT_TYPES = frozenset({"pdf", "png", "json", "csv", "txt"})

# Answers about one request (its chat, its content, flood control): Telegram is up. Not so
# 401 (the token), 404 (the API's address), 409 (another poller or a webhook), 5xx.
_ANSWERED = frozenset({200, 400, 403, 429})


def _code(status: int) -> str:
    return "" if status == 200 else status_label(status)


def _retry_after(payload: bytes) -> float:
    """``parameters.retry_after`` of a 429 answer (0 when it cannot be read)."""
    try:
        value = json.loads(payload)["parameters"]["retry_after"]
    except (ValueError, KeyError, TypeError):
        return 0.0
    return float(value) if isinstance(value, int | float) else 0.0


def update_kind(update: object) -> str:
    """The kind of an update as Telegram names its field (``message``, ``callback_query``…);
    bounded by Telegram's list."""
    if isinstance(update, Update):
        for kind in Update.ALL_TYPES:
            if getattr(update, kind, None) is not None:
                return str(kind)
    return "other"


def status_label(status: int) -> str:
    """A bounded label for an HTTP status from the Bot API."""
    return str(status) if 100 <= status <= 599 else "other"


def document_type(filename: str) -> str:
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return suffix if suffix in DOCUMENT_TYPES else "other"


@dataclass(frozen=True)
class TelegramOutcome:
    """The last Bot API call: whether Telegram answered it, when, and the error's label."""

    answered: bool
    at: float  # time.time()
    code: str = ""  # error_code of a failed call ("" when it succeeded)


class Metrics:
    """The counters of one application, in its own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.updates = Counter(
            "skatbot_updates",
            "Updates handled, by kind (Telegram's field name)",
            ["kind"],
            registry=r,
        )
        self.handling = Histogram(
            "skatbot_update_handling_seconds",
            "Time from receiving an update to its effect committed and replies queued",
            buckets=HANDLING_BUCKETS,
            registry=r,
        )
        self.commands = Counter(
            "skatbot_commands",
            "Commands received, by command (the route table)",
            ["command"],
            registry=r,
        )
        self.bookings = Counter(
            "skatbot_bookings",
            "Updates whose committed transaction changed a list (a game booked, corrected, cancelled)",
            registry=r,
        )
        self.telegram_calls = Counter("skatbot_telegram_calls", "Bot API calls made", registry=r)
        self.telegram_errors = Counter(
            "skatbot_telegram_errors",
            "Bot API calls that failed, by Telegram's code (timeout, network: no answer)",
            ["code"],
            registry=r,
        )
        self.flood_waits = Counter(
            "skatbot_flood_waits", "429 answers (flood control) from Telegram", registry=r
        )
        self.flood_wait_seconds = Counter(
            "skatbot_flood_wait_seconds", "Seconds Telegram asked to wait (retry_after)", registry=r
        )
        self.documents = Counter(
            "skatbot_documents",
            "Documents and pictures delivered, by file type",
            ["type"],
            registry=r,
        )
        self.outbox_depth = Gauge(
            "skatbot_outbox_depth", "Replies stored in the outbox, not yet delivered", registry=r
        )
        self.outbox_oldest = Gauge(
            "skatbot_outbox_oldest_age_seconds",
            "Age of the oldest reply in the outbox (0 when empty)",
            registry=r,
        )
        self.database_up = Gauge(
            "skatbot_database_up", "1 if the database answered the last check", registry=r
        )
        self.telegram_up = Gauge(
            "skatbot_telegram_up", "1 if Telegram answered the last Bot API call", registry=r
        )
        self.telegram_up.set(1)
        self.last_telegram: TelegramOutcome | None = None

    # -- the touch points ---------------------------------------------------------------------

    def handled(self, update: object, seconds: float) -> None:
        self.updates.labels(update_kind(update)).inc()
        self.handling.observe(seconds)

    def command(self, name: str) -> None:
        self.commands.labels(name).inc()

    def booked(self) -> None:
        self.bookings.inc()

    def delivered_document(self, filename: str) -> None:
        self.documents.labels(document_type(filename)).inc()

    def telegram_answered(self, status: int, payload: bytes) -> None:
        """Telegram answered a call with ``status`` (its JSON body ``payload``)."""
        self.telegram_calls.inc()
        if status != 200:
            self.telegram_errors.labels(status_label(status)).inc()
        if status == 429:
            self.flood_waits.inc()
            self.flood_wait_seconds.inc(_retry_after(payload))
        self._telegram(TelegramOutcome(status in _ANSWERED, time.time(), _code(status)))

    def telegram_unreachable(self, err: Exception) -> None:
        """A call got no answer: timed out, or the connection failed."""
        self.telegram_calls.inc()
        code = "timeout" if isinstance(err, TimedOut) else "network"
        self.telegram_errors.labels(code).inc()
        self._telegram(TelegramOutcome(False, time.time(), code))

    def _telegram(self, outcome: TelegramOutcome) -> None:
        self.last_telegram = outcome
        self.telegram_up.set(1 if outcome.answered else 0)

    def observe_outbox(self, depth: int, oldest_age: float | None) -> None:
        self.outbox_depth.set(depth)
        self.outbox_oldest.set(oldest_age or 0.0)


class MeasuredApplication(Application):  # type: ignore[type-arg]
    """PTB's application, each update counted by kind and timed (``BotState.metrics``)."""

    async def process_update(self, update: object) -> None:
        start = time.perf_counter()
        try:
            await super().process_update(update)
        finally:
            metrics = getattr(self.bot_data, "metrics", None)
            if metrics is not None:
                metrics.handled(update, time.perf_counter() - start)


class ObservedRequest(BaseRequest):
    """A Bot API client that tells ``metrics`` each call's outcome; the calls themselves are
    made by the client it wraps (PTB's ``HTTPXRequest`` or the console's in-process one)."""

    def __init__(self, inner: BaseRequest, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            status, payload = await self.inner.do_request(*args, **kwargs)
        except Exception as err:  # TimedOut, NetworkError: no answer
            self.metrics.telegram_unreachable(err)
            raise
        self.metrics.telegram_answered(status, payload)
        return status, payload
