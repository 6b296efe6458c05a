"""The one Starlette application and how it is served (uvicorn, in the bot's event loop)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator, Iterable, Iterator

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp

from skatbot.web import health, live, miniapp
from skatbot.web.context import WebContext

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


class _Server(uvicorn.Server):
    """uvicorn's server without its signal handlers: the bot decides when to stop."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


@contextlib.asynccontextmanager
async def serving(asgi: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[str]:
    """Serve ``asgi`` with uvicorn in the running event loop; yields the base URL
    (``http://host:port``, the real port when ``port`` is 0). Raises ``OSError`` when the
    address cannot be bound. Signals stay with the caller."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
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
    config = uvicorn.Config(
        asgi,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=10,
    )
    server = _Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise OSError("the web server stopped while starting")
            await asyncio.sleep(0.01)
        bound = sock.getsockname()
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        yield f"http://{shown}:{bound[1]}"
    finally:
        server.should_exit = True
        with contextlib.suppress(Exception):
            await task
        sock.close()
