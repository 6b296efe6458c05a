"""Liveness: ``/healthz`` answers as long as the process serves requests."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Route

from skatbot.web.context import WebContext


def routes(web: WebContext) -> list[BaseRoute]:
    async def healthz(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok\n")

    return [Route("/healthz", healthz, methods=["GET", "HEAD"])]
