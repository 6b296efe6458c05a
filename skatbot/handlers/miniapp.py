"""Where the Mini App opens from: its button, resolved per chat when a reply is sent.

A use case puts ``keyboards.app_button`` under its reply; the outbox asks ``AppLinks`` what
the button does in the chat it goes to: in a group a ``t.me/<bot>/<app>?startapp=…`` link
(Telegram opens the app in the chat and signs initData with its ``start_param``); in a
private chat a ``web_app`` button to ``<public address>/app?start=…`` (Telegram allows
``web_app`` buttons there only). The start token is signed for that very chat, so a button
forwarded elsewhere still opens only its own chat's list, for that chat's members. Where the
Mini App is not set up the button is left out (``/app`` then says how to set it up).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from telegram import Bot

from skatbot.handlers import app_auth
from skatbot.handlers.bot_state import BotState
from skatbot.usecases.common.keyboards import APP_PREFIX


class AppLinks:
    """The Mini App's links of one bot, from its settings (read when a button is sent)."""

    def __init__(self, state: BotState, bot: Bot) -> None:
        self.state = state
        self.bot = bot
        self._key: bytes | None = None

    def _username(self) -> str:
        try:
            return self.bot.username or ""
        except RuntimeError:  # not initialised yet (no getMe)
            return ""

    def ready(self, chat_id: int) -> bool:
        """Whether the app can be opened from chat ``chat_id``."""
        if chat_id > 0:
            return bool(self.state.public_url)
        return bool(self.state.miniapp_name and self._username())

    def start(self, chat_id: int, topic_id: int, list_id: int) -> str:
        if self._key is None:
            self._key = app_auth.start_key(self.bot.token)
        return app_auth.sign_start(chat_id, topic_id, list_id, self._key)

    def link(self, chat_id: int, topic_id: int = 0, list_id: int = 0) -> dict[str, Any] | None:
        """The button action opening the app on that chat's list, ``None`` if not set up."""
        if not self.ready(chat_id):
            return None
        start = self.start(chat_id, topic_id, list_id)
        if chat_id > 0:
            base = (self.state.public_url or "").rstrip("/")
            return {"web_app": {"url": f"{base}/app?start={start}"}}
        name = quote(self.state.miniapp_name or "", safe="")
        return {"url": f"https://t.me/{self._username()}/{name}?startapp={start}"}

    def __call__(self, data: str, chat_id: int) -> dict[str, Any] | None:
        """The outbox's hook (``keyboard.AppLink``): marker ``app:TOPIC:LIST``."""
        try:
            topic, list_id = (int(x) for x in data.removeprefix(APP_PREFIX).split(":"))
        except ValueError:
            return None
        return self.link(chat_id, topic, list_id)


def links_of(state: BotState) -> AppLinks | None:
    found = state.outbox.buttons.app_link
    return found if isinstance(found, AppLinks) else None
