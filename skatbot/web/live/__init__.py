"""The live page for the hall: a tournament's ranking on a projector."""

from __future__ import annotations

from starlette.routing import BaseRoute

from skatbot.web.context import WebContext


def routes(web: WebContext) -> list[BaseRoute]:
    return []
