"""What every part of the web application needs to know about the bot it belongs to."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.handlers.bot_state import SkatApplication


@dataclass(frozen=True, eq=False)
class WebContext:
    """The running bot and how it is reached from outside."""

    app: SkatApplication
    """The PTB application: its database, outbox, bot and route table."""
    public_url: str | None = None
    """The address the world reaches this server at (``SKATBOT_PUBLIC_URL``, e.g.
    ``https://skat.example.org``), without a trailing slash; ``None`` when it is not
    reachable from outside (offline, or polling without a proxy)."""
    miniapp_name: str | None = None
    """The Mini App's short name registered with @BotFather (``SKATBOT_MINIAPP``), for
    ``t.me/<bot>/<name>?startapp=…`` links; ``None`` when none is registered."""

    live_poll_seconds: float = 3.0
    """How often an open live page asks for the standings (a 304 while nothing changed):
    often enough for a hall, cheap for the bot; the browser tests ask more often."""

    @classmethod
    def of(cls, app: SkatApplication) -> WebContext:
        """The context of ``app`` as its ``BotState`` describes it."""
        state = app.bot_data
        return cls(app, public_url=state.public_url, miniapp_name=state.miniapp_name)

    def url(self, path: str) -> str | None:
        """``path`` (starting with ``/``) under the public address, if there is one."""
        if self.public_url is None:
            return None
        return self.public_url.rstrip("/") + path
