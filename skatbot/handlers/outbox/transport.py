"""The part of the Bot API the outbox uses: the transport it talks to.

PTB's ``Bot`` is one (and so the console's and the tests' bots); the outbox needs no more of
it than these calls, each answered with Telegram's result or a ``TelegramError``.
"""

from __future__ import annotations

from typing import Any, Protocol


class Transport(Protocol):
    async def do_api_request(self, endpoint: str, api_kwargs: dict[str, Any]) -> Any: ...

    async def send_document(
        self,
        chat_id: int,
        document: bytes,
        *,
        caption: str | None,
        parse_mode: str | None,
        reply_markup: Any,
        message_thread_id: int | None,
        filename: str | None,
    ) -> Any: ...

    async def send_photo(
        self,
        chat_id: int,
        photo: bytes,
        *,
        caption: str | None,
        parse_mode: str | None,
        reply_markup: Any,
        message_thread_id: int | None,
        filename: str | None,
    ) -> Any: ...

    async def edit_message_text(
        self,
        text: str,
        chat_id: int,
        message_id: int,
        *,
        parse_mode: str | None,
        reply_markup: Any,
    ) -> Any: ...

    async def edit_message_reply_markup(
        self, chat_id: int, message_id: int, *, reply_markup: Any
    ) -> Any: ...

    async def pin_chat_message(
        self, chat_id: int, message_id: int, *, disable_notification: bool
    ) -> Any: ...

    async def create_forum_topic(self, chat_id: int, name: str) -> Any: ...

    async def delete_forum_topic(self, chat_id: int, message_thread_id: int) -> Any: ...

    async def close_forum_topic(self, chat_id: int, message_thread_id: int) -> Any: ...
