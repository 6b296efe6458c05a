"""Shared bench helpers: a Bot API stand-in inside the process (no sockets)."""

from __future__ import annotations

import itertools
import json
import statistics
import time
from typing import Any

from telegram import Update
from telegram.request import BaseRequest, RequestData

BOT_USER = {"id": 4242, "is_bot": True, "first_name": "Skatbot", "username": "skatbot_test_bot"}


class InstantRequest(BaseRequest):
    """Answers every Bot API call at once, so a bench measures our own work only."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)
        self.calls = 0
        self.documents = 0

    @property
    def read_timeout(self) -> float | None:
        return None

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        self.calls += 1
        api = url.rsplit("/", 1)[-1]
        if api in ("sendDocument", "sendPhoto"):
            self.documents += 1
        params = request_data.parameters if request_data else {}
        result: Any = True
        if api == "getMe":
            result = BOT_USER
        elif api in ("sendMessage", "sendDocument", "sendPhoto", "editMessageText"):
            result = {
                "message_id": next(self.ids),
                "date": int(time.time()),
                "chat": {"id": params.get("chat_id", 0), "type": "group", "title": "Bench"},
                "from": BOT_USER,
                "text": params.get("text", ""),
            }
        return 200, json.dumps({"ok": True, "result": result}).encode()


def message_update(update_id: int, chat_id: int, text: str, bot: Any) -> Update:
    data = {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "group", "title": "Bench"},
            "from": {"id": 1, "is_bot": False, "first_name": "Spieler"},
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        },
    }
    return Update.de_json(data, bot)


def summary(samples_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(samples_ms)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered), p99
