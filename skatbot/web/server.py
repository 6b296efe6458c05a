"""The one Starlette application and how it is served (uvicorn, in the bot's event loop)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator, Iterable

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from skatbot.web import health, live, miniapp
from skatbot.web.context import WebContext
from skatbot.web.guard import HEAD_LIMIT, ConnectionGuard, HeadGuard

log = logging.getLogger(__name__)


def build_web_app(web: WebContext, extra: Iterable[BaseRoute] = ()) -> Starlette:
    """The application: health, Mini App, live pages, plus ``extra`` routes (the webhook)."""

    async def favicon(request: Request) -> Response:
        # Browsers ask for it on their own; a 404 would show as an error in their console.
        return Response(status_code=204)

    all_routes: list[BaseRoute] = [
        *extra,
        *health.routes(web),
        *miniapp.routes(web),
        *live.routes(web),
        Route("/favicon.ico", favicon),
    ]
    app = Starlette(routes=all_routes)
    app.state.web = web
    return app


@contextlib.asynccontextmanager
async def serving(
    asgi: ASGIApp,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    guard: ConnectionGuard | None = None,
    grace: float = 10.0,
) -> AsyncIterator[str]:
    """Serve ``asgi`` with uvicorn (h11) in the running event loop; yields the base URL
    (``http://host:port``, the real port when ``port`` is 0). Raises ``OSError`` when the
    address cannot be bound. Signals stay with the caller.

    ``guard`` holds the connection limits (default: ``ConnectionGuard()``'s); ``HeadGuard``
    refuses ambiguous framing and oversized heads on every server. On leaving,
    idle connections close at once and running requests get ``grace`` seconds to finish
    (a webhook's update is being committed); then they are cancelled."""
    guard = guard if guard is not None else ConnectionGuard()
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and
    # without it every answer (head and body written apart) waits for a delayed ACK (40 ms).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: uvicorn writes a response's head and body separately,
    # and with Nagle's algorithm the body waited for the client's delayed ACK (~40 ms).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    served = _Cancellable(HeadGuard(asgi))
    config = uvicorn.Config(
        served,
        http=guard.protocol(),
        ws="none",  # no WebSocket routes: the live pages poll (ETag, 304)
        h11_max_incomplete_event_size=HEAD_LIMIT,
        log_config=None,  # the bot's logging stays as it is (and no dictConfig per server)
        log_level="warning",
        access_log=False,
        lifespan="off",
    )
    config.load()
    # Started and stopped here, not by ``Server.serve``: that would take the process's
    # signals (the bot decides when to stop) and pause for fixed tenths of a second.
    server = uvicorn.Server(config)
    server.lifespan = config.lifespan_class(config)
    try:
        await server.startup(sockets=[sock])
    except BaseException:
        sock.close()
        raise
    # uvicorn's own loop: it refreshes the Date header every second until should_exit.
    ticking = asyncio.create_task(server.main_loop())
    try:
        bound = sock.getsockname()
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        yield f"http://{shown}:{bound[1]}"
    finally:
        server.should_exit = True
        served.stopping = True
        ticking.cancel()
        await _stop(server, grace)
        with contextlib.suppress(BaseException):
            await ticking
        sock.close()


class _Cancellable:
    """A request cancelled by ``_stop`` (its client is gone) ends quietly, not as uvicorn's
    "Exception in ASGI application"."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except asyncio.CancelledError:
            if not self.stopping:
                raise

    stopping = False


async def _stop(server: uvicorn.Server, grace: float) -> None:
    """uvicorn's shutdown without its fixed pauses (the tests' stand-in stops after every
    test): stop listening, close idle connections, let running requests finish."""
    for listener in server.servers:
        listener.close()
    for connection in list(server.server_state.connections):
        connection.shutdown()
    tasks = set(server.server_state.tasks)
    if tasks:
        _, pending = await asyncio.wait(tasks, timeout=grace)
        for connection in list(server.server_state.connections):
            connection.transport.close()
        await asyncio.sleep(0)  # their requests see the disconnect
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    for listener in server.servers:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(listener.wait_closed(), 1)
