"""Health and metrics: ``/healthz`` (liveness), ``/readyz`` (readiness), ``/metrics``.

Liveness answers as long as the process serves requests: a supervisor restarts the bot when
it does not. Readiness says whether the bot can do its work now, three questions:

- the database answers (``Database.ping``, on a connection of its own);
- the outbox drains: its oldest reply is younger than ``SKATBOT_READY_OUTBOX_AGE`` seconds
  (default 300; a reply waits longer only when Telegram or the network is away, or the bot
  is stuck);
- Telegram answered the last Bot API call (a refusal about one chat counts as an answer; a
  timeout, a 5xx, a refused token or a second poller do not).

``/readyz`` answers 200 ``ready`` or 503 with one line per failed question, as plain text, or
as JSON when asked for (``Accept: application/json``). ``/metrics`` is the application's
Prometheus registry (``handlers.metrics``), its outbox gauges read from the database when
scraped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from skatbot.handlers.bot_state import BotState
from skatbot.storage import outbox
from skatbot.web.context import WebContext

DEFAULT_OUTBOX_AGE = 300.0


def outbox_age_from_env() -> float:
    """``SKATBOT_READY_OUTBOX_AGE``: seconds the oldest outbox reply may wait (default 300)."""
    raw = os.environ.get("SKATBOT_READY_OUTBOX_AGE", "").strip()
    try:
        value = float(raw) if raw else DEFAULT_OUTBOX_AGE
    except ValueError:
        return DEFAULT_OUTBOX_AGE
    return value if value > 0 else DEFAULT_OUTBOX_AGE


@dataclass(frozen=True)
class Readiness:
    problems: tuple[str, ...]
    outbox_depth: int | None = None
    outbox_oldest_age: float | None = None

    @property
    def ready(self) -> bool:
        return not self.problems


async def readiness(state: BotState, max_outbox_age: float) -> Readiness:
    """Ask the three questions (and update the metrics' gauges with the answers)."""
    metrics = state.metrics
    problems: list[str] = []
    depth: int | None = None
    age: float | None = None
    db = state.database
    down = "no database" if db is None else await db.ping()
    metrics.database_up.set(0 if down else 1)
    if down:
        problems.append(f"database: {down}")
    elif db is not None:
        try:
            backlog = await db.read(outbox.backlog)
        except Exception as err:  # gone between the two questions
            problems.append(f"database: {type(err).__name__}")
        else:
            depth, age = backlog.depth, backlog.oldest_age()
            metrics.observe_outbox(depth, age)
            if age is not None and age > max_outbox_age:
                problems.append(
                    f"outbox: the oldest of {depth} replies waits {age:.0f} s "
                    f"(more than {max_outbox_age:g} s)"
                )
    last = metrics.last_telegram
    if last is not None and not last.answered:
        problems.append(f"telegram: the last Bot API call failed ({last.code})")
    return Readiness(tuple(problems), depth, age)


def routes(web: WebContext) -> list[BaseRoute]:
    state = web.app.bot_data
    max_age = outbox_age_from_env()

    async def healthz(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok\n")

    async def readyz(request: Request) -> Response:
        found = await readiness(state, max_age)
        status = 200 if found.ready else 503
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(
                {
                    "ready": found.ready,
                    "problems": list(found.problems),
                    "outbox_depth": found.outbox_depth,
                    "outbox_oldest_age_seconds": found.outbox_oldest_age,
                },
                status_code=status,
            )
        text = "ready\n" if found.ready else "".join(f"{p}\n" for p in found.problems)
        return PlainTextResponse(text, status_code=status)

    async def metrics(request: Request) -> Response:
        await readiness(state, max_age)  # the database and outbox gauges, read now
        return Response(generate_latest(state.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return [
        Route("/healthz", healthz, methods=["GET", "HEAD"]),
        Route("/readyz", readyz, methods=["GET", "HEAD"]),
        Route("/metrics", metrics, methods=["GET"]),
    ]
