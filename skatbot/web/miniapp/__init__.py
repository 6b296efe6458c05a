"""The Mini App (Telegram Web App): its page and its JSON API."""

from __future__ import annotations

from starlette.routing import BaseRoute

from skatbot.web.context import WebContext
from skatbot.web.miniapp import page


def routes(web: WebContext) -> list[BaseRoute]:
    from skatbot.web.miniapp import api

    return [*page.routes(web), *api.routes(web)]
