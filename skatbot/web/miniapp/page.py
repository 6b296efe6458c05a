"""The Mini App's page: ``/app`` and its static files (plain HTML, CSS and JavaScript).

Telegram opens ``/app`` with the login and theme in the URL fragment, which never reaches
the server: the page reads it and sends the login with each API call (``Authorization: tma
…``). So the page itself holds no data and is the same for everybody.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from skatbot.web.context import WebContext

STATIC = Path(__file__).with_name("static")

# Only our own files; Telegram's web client shows the app in a frame, so it may frame it.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # A new version of the page is fetched at once; the files are small.
    "Cache-Control": "no-cache",
}


class _StaticFiles(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(SECURITY_HEADERS)
        return response


def routes(web: WebContext) -> list[BaseRoute]:
    async def index(request: Request) -> Response:
        return FileResponse(
            STATIC / "index.html", media_type="text/html; charset=utf-8", headers=SECURITY_HEADERS
        )

    return [
        Route("/app", index, methods=["GET", "HEAD"]),
        Mount("/app/static", app=_StaticFiles(directory=STATIC), name="miniapp-static"),
    ]
