"""PTB's transport to a ``BotApi`` in the same process: the console's, instead of HTTP.

``InProcessRequest`` is a ``telegram.request.BaseRequest``: PTB hands it every Bot API call
(``do_request(url, method, request_data)``) and reads back (status, JSON body) as from
Telegram. The call reaches ``BotApi.answer`` with its parameters decoded as a server decodes
a client's form fields (``decode_param``: string parameters raw, everything else JSON), so a
bot talks to the in-process API exactly as to one behind HTTP, refusals included; no socket,
no server, no thread. The file downloads (``base_file_url``) are answered the same way.

As with a real connection, a call the client stops waiting for (its read timeout, PTB's
``TimedOut``) still runs to its end on the Bot API's side: a send that timed out may have
been delivered.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import TimedOut
from telegram.request import BaseRequest, RequestData

from skatbot.standin.botapi import BotApi, decode_param
from skatbot.standin.records import JSONDict

__all__ = ["InProcessRequest"]

DEFAULT_READ_TIMEOUT = 5.0
"""Seconds, as PTB's ``HTTPXRequest`` waits for an answer by default."""


class InProcessRequest(BaseRequest):
    """Calls ``api`` directly; ``read_timeout`` (seconds, None: no limit) as PTB's default
    read timeout of the request (a long poll adds its own ``timeout`` to it)."""

    def __init__(self, api: BotApi, *, read_timeout: float | None = DEFAULT_READ_TIMEOUT):
        self.api = api
        self._read_timeout = read_timeout
        self._running: set[asyncio.Task[tuple[int, bytes, str]]] = set()

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Calls still running when the client goes away (a long poll) are ended."""
        running, self._running = self._running, set()
        for task in running:
            task.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """(status, body) of ``api``'s answer to the call; ``TimedOut`` after the read timeout."""
        target = urlsplit(url)
        params: JSONDict = {k: decode_param(k, v) for k, v in parse_qsl(target.query)}
        files: dict[str, tuple[str, bytes]] = {}
        if request_data is not None:
            for key, value in request_data.json_parameters.items():
                params[key] = decode_param(key, value)
            for part, (filename, content, _mime) in request_data.multipart_data.items():
                files[part] = (filename, _bytes(content))
        task = asyncio.ensure_future(self.api.answer(target.path, params, files))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        timeout = self._read_timeout if isinstance(read_timeout, DefaultValue) else read_timeout
        try:
            status, body, _content_type = await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            raise TimedOut from None
        return status, body


def _bytes(content: Any) -> bytes:
    """An upload's content: bytes, or a file handle PTB passes as it is (PTB 21.5+)."""
    if isinstance(content, bytes):
        return content
    data = content.read()
    return data if isinstance(data, bytes) else bytes(data)
