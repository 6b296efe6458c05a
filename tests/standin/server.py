"""The tests' Bot API over real HTTP: ``BotApiServer`` serves a ``BotApi`` on loopback.

The console talks to its ``skatbot.standin.botapi.BotApi`` in process
(``skatbot.standin.request.InProcessRequest``); tests that need real HTTP - the bot's own
``HTTPXRequest`` clients, webhooks, a request on the wire - put the same Bot API behind this
server: ``async with BotApiServer() as api:``, then ``build_application(api.token, db,
base_url=f"{api.url}/bot")`` (files: ``f"{api.url}/file/bot"``). The strict stand-in
(``tests/standin/fake_telegram.py``) is one; it answers the same in process.

The server is the product's own stack (Starlette on uvicorn, ``skatbot.web.server.serving``:
h11 parses HTTP/1.1, keep-alive, Content-Length or chunked bodies) and accepts the three body
encodings a Bot API client may use:

* ``application/x-www-form-urlencoded`` - what PTB's ``HTTPXRequest`` sends for every call
  without a file upload. String parameters arrive raw, everything else JSON-encoded.
* ``multipart/form-data`` - what PTB sends as soon as a file is uploaded (``sendDocument``);
  the file is a part with a ``filename``, all other parameters are plain form fields.
* ``application/json`` - accepted for completeness (curl, other clients).

A body it cannot read is a 400 before the Bot API sees the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable
from types import TracebackType
from urllib.parse import parse_qsl, unquote, urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from skatbot.standin.botapi import (
    BOT_USERNAME,
    BotApi,
    JSONDict,
    bad_request,
    decode_param,
)
from skatbot.standin.versions import CURRENT_API
from skatbot.web.guard import ConnectionGuard
from skatbot.web.server import serving

__all__ = ["STATUS_PHRASES", "BotApiServer"]

_LOGGER = logging.getLogger(__name__)

STATUS_PHRASES = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    413: "Request Entity Too Large",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def _unescape_multipart_param(value: str) -> str:
    # httpx escapes '"' as %22, control characters as %XX and '\' as '\\'.
    value = re.sub(
        r"%(0[0-9A-Fa-f]|1[0-9A-Fa-f]|22|7[Ff])", lambda m: chr(int(m.group(1), 16)), value
    )
    return value.replace("\\\\", "\\")


def _parse_header_params(value: str) -> tuple[str, dict[str, str]]:
    """Split ``form-data; name="x"; filename="y"`` into ('form-data', {...})."""
    main, _, rest = value.partition(";")
    params: dict[str, str] = {}
    for m in re.finditer(r';?\s*([A-Za-z0-9_*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)', ";" + rest):
        key = m.group(1).lower()
        val = m.group(2).strip()
        if val.startswith('"') and val.endswith('"') and len(val) >= 2:
            val = _unescape_multipart_param(val[1:-1])
        if key.endswith("*"):
            # RFC 5987: utf-8''percent-encoded
            charset, _, encoded = val.partition("''")
            val = unquote(encoded, encoding=charset or "utf-8")
            key = key[:-1]
        params[key] = val
    return main.strip().lower(), params


def _parse_multipart(body: bytes, boundary: str) -> tuple[JSONDict, dict[str, tuple[str, bytes]]]:
    params: JSONDict = {}
    files: dict[str, tuple[str, bytes]] = {}
    delimiter = b"--" + boundary.encode("latin-1")
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        chunk = chunk.removeprefix(b"\r\n")
        head, sep, content = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        content = content.removesuffix(b"\r\n")
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        _, disposition = _parse_header_params(headers.get("content-disposition", ""))
        part_name = disposition.get("name")
        if part_name is None:
            continue
        if "filename" in disposition:
            files[part_name] = (disposition["filename"], content)
        else:
            params[part_name] = decode_param(part_name, content.decode("utf-8", "replace"))
    return params, files


# ---------------------------------------------------------------------------------------------


def parse_body(
    query: str, headers: dict[str, str], body: bytes
) -> tuple[JSONDict, dict[str, tuple[str, bytes]]]:
    """The parameters and uploaded files of a request (its query string and body)."""
    params: JSONDict = {k: decode_param(k, v) for k, v in parse_qsl(query)}
    files: dict[str, tuple[str, bytes]] = {}
    ctype, cparams = _parse_header_params(headers.get("content-type", ""))
    if not body:
        return params, files
    if ctype == "application/json":
        data = json.loads(body)
        if not isinstance(data, dict):
            raise ValueError("request body must be a JSON object")
        params.update(data)
    elif ctype == "multipart/form-data":
        boundary = cparams.get("boundary")
        if not boundary:
            raise ValueError("multipart body without boundary")
        form, files = _parse_multipart(body, boundary)
        params.update(form)
    else:
        for k, v in parse_qsl(body.decode("utf-8"), keep_blank_values=True):
            params[k] = decode_param(k, v)
    return params, files


class BotApiServer(BotApi):
    """A ``BotApi`` on ``127.0.0.1`` (random port) over HTTP."""

    def __init__(
        self,
        token: str = "4242:TEST",
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        first_update_id: int = 1,
        username: str = BOT_USERNAME,
        rich_messages: bool = True,
        api_version: tuple[int, int] = CURRENT_API,
        clock: Callable[[], float] = time.monotonic,
    ):
        super().__init__(
            token,
            first_update_id=first_update_id,
            username=username,
            rich_messages=rich_messages,
            api_version=api_version,
            clock=clock,
        )
        self.url = ""
        self._host = host
        self._port = port
        self._serving: contextlib.AsyncExitStack | None = None

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        self._changed = asyncio.Condition()
        self._serving = contextlib.AsyncExitStack()
        every = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        asgi = Starlette(routes=[Route("/{path:path}", self._endpoint, methods=every)])
        # The bot's clients keep their connections as long as they like (as Telegram lets
        # them); a long poll (getUpdates) waits in the application, and stopping cancels it.
        hour = 3600.0
        guard = ConnectionGuard(
            max_connections=1000, head_timeout=hour, keepalive_timeout=hour, body_timeout=hour
        )
        self.url = await self._serving.enter_async_context(
            serving(asgi, self._host, self._port, guard=guard, grace=0)
        )

    async def stop(self) -> None:
        serving_, self._serving = self._serving, None
        if serving_ is not None:
            await serving_.aclose()

    async def __aenter__(self) -> BotApiServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- HTTP -----------------------------------------------------------------------------

    async def _endpoint(self, request: Request) -> Response:
        # The raw path: PTB quotes the token in file URLs, and ``answer`` unquotes it.
        target = request.scope["raw_path"].decode("latin-1")
        query = request.scope["query_string"].decode("latin-1")
        headers = {name.lower(): value for name, value in request.headers.items()}
        body = await request.body()
        status, payload, content_type = await self._dispatch(
            f"{target}?{query}" if query else target, headers, body
        )
        return Response(payload, status_code=status, headers={"Content-Type": content_type})

    async def _dispatch(
        self, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, bytes, str]:
        path = urlsplit(target)
        try:
            params, files = parse_body(path.query, headers, body)
        except ValueError as exc:
            return self._error(bad_request(str(exc)))
        return await self.answer(path.path, params, files)
