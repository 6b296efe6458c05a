"""The live page for the hall: a tournament's ranking on a projector.

``GET /leinwand/<token>`` is the page (static HTML, JS and CSS from ``static/``, no CDN: a
hall's network may reach nothing else), ``GET /leinwand/<token>/stand`` what it shows, as
JSON (``usecases.tournament.live_page.board``). The page links its files relatively
(``../leinwand-dateien/``), so a proxy may serve the bot under a path of its own. The page asks for the JSON every few
seconds; the answer carries an ETag, so a poll that finds nothing new costs a 304 without a
body. An unknown, revoked or expired token is a 404 with a German page.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from skatbot.usecases.tournament import live_page
from skatbot.web.context import WebContext

STATIC = Path(__file__).with_name("static")
# What secrets.token_urlsafe makes (with room to spare): anything else is no token of ours
# and is answered without asking the database.
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
NOT_FOUND = """<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Leinwand</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="../leinwand-dateien/live.css"></head>
<body class="gone"><main><h1>Diese Leinwand gibt es nicht (mehr).</h1>
<p>Der Link ist falsch, gesperrt oder das Turnier ist vorbei.<br>
Einen neuen Link gibt die Turnierleitung mit /leinwand.</p></main></body></html>
"""
# The browser asks again each time (no-cache) and gets a 304 while nothing changed.
NO_STORE = {"Cache-Control": "no-cache", "X-Robots-Tag": "noindex"}


def routes(web: WebContext) -> list[BaseRoute]:
    page_html = (STATIC / "live.html").read_text(encoding="utf-8")
    poll_ms = max(100, round(web.live_poll_seconds * 1000))
    timed_html = page_html.replace("<body>", f'<body data-poll-ms="{poll_ms}">', 1)

    async def board(token: str) -> dict[str, object] | None:
        if not TOKEN.fullmatch(token):
            return None
        db = web.app.bot_data.database
        assert db is not None, "the bot is built with its database"
        return await db.read(lambda s: live_page.board(s, token))

    def gone() -> HTMLResponse:
        return HTMLResponse(NOT_FOUND, status_code=404, headers=NO_STORE)

    async def page(request: Request) -> Response:
        data = await board(request.path_params["token"])
        if data is None:
            return gone()
        return HTMLResponse(timed_html, headers=NO_STORE)

    async def stand(request: Request) -> Response:
        data = await board(request.path_params["token"])
        if data is None:
            return JSONResponse({"error": "unbekannt"}, status_code=404, headers=NO_STORE)
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = {**NO_STORE, "ETag": tag}
        asked = request.headers.get("if-none-match", "")
        if tag in [t.strip().removeprefix("W/") for t in asked.split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    return [
        Mount("/leinwand-dateien", StaticFiles(directory=STATIC), name="live-static"),
        Route("/leinwand/{token}", page, methods=["GET", "HEAD"]),
        Route("/leinwand/{token}/stand", stand, methods=["GET", "HEAD"]),
    ]
