"""What the application keeps while it runs: PTB's ``bot_data``, typed (``BotState``).

PTB makes ``bot_data`` itself, without arguments, from the class given to
``ContextTypes(bot_data=...)`` (``CONTEXT_TYPES``); ``app.build_application`` sets the
database and the paced outbox right after building, ``registry.register`` the routes. Every
handler's ``context`` is a ``SkatContext``, so ``context.bot_data`` (the same object as
``context.application.bot_data``) is a ``BotState``.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from skatbot.handlers.fairness import Fairness
from skatbot.handlers.metrics import Metrics
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.route import Route
from skatbot.storage.database import Database


@dataclass(eq=False)
class BotState:
    """Everything the handlers share, one per application (its fields are set once at start,
    the caches and gates change as updates come)."""

    database: Database | None = None
    """Where the use cases read and write (``None`` only in an application built without
    one; ``runtime.database`` insists on it)."""
    outbox: Outbox = field(default_factory=Outbox)
    """Every reply goes out through it, paced per chat (``handlers.outbox``)."""
    routes: Sequence[Route] = ()
    """The route table the handlers were registered from (``routes.ROUTES`` or a test's)."""
    allowed_updates: Sequence[str] = ()
    """The update types those routes need (empty: ask Telegram for all)."""
    fairness: Fairness = field(default_factory=Fairness)
    """Shares the heavy document reads fairly within a chat (``handlers.fairness``)."""
    places: OrderedDict[tuple[int, int], int] = field(default_factory=OrderedDict)
    """The place ids of forum topics, by (Telegram chat id, thread id), least recently used
    first (``runtime.place_of``)."""
    pruner: asyncio.Task[None] | None = None
    """The task that forgets old update ids now and then (``registry.prune_forever``)."""
    public_url: str | None = None
    """The address the web application is reached at from outside (``SKATBOT_PUBLIC_URL``,
    no trailing slash), for links to the Mini App and the live pages; ``None``: not
    reachable from outside."""
    miniapp_name: str | None = None
    """The Mini App's short name at @BotFather (``SKATBOT_MINIAPP``), for
    ``t.me/<bot>/<name>?startapp=…`` links; ``None``: none registered."""
    metrics: Metrics = field(default_factory=Metrics)
    """Its counters for Prometheus, in a registry of its own (``handlers.metrics``)."""
    local_app_url: str | None = None
    """The Mini App's address on this computer while the console serves it beside itself
    (``web.offline``): ``/app`` names it, without a login."""
    redelivered_on_failure: bool = False
    """Telegram delivers an update again when handling it failed (behind the webhook): a
    transient error then tells the chat nothing (``registry.on_error``)."""


# The chat and user data stay PTB's plain dicts: the bot keeps nothing per chat or user there.
SkatContext: TypeAlias = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotState]
"""The ``context`` of every handler of the application."""

# The job queue is unused (PTB types it ``Any`` in ``CallbackContext.application`` too).
SkatApplication: TypeAlias = Application[
    ExtBot[None], SkatContext, dict[Any, Any], dict[Any, Any], BotState, Any
]
"""The application ``app.build_application`` builds."""

CONTEXT_TYPES = ContextTypes(bot_data=BotState)
"""For ``ApplicationBuilder.context_types``: ``bot_data`` is a ``BotState``."""
