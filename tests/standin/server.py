"""The tests' Bot API over real HTTP: ``BotApiServer`` serves a ``BotApi`` on loopback.

The console talks to its ``skatbot.standin.botapi.BotApi`` in process
(``skatbot.standin.request.InProcessRequest``); tests that need real HTTP - the bot's own
``HTTPXRequest`` clients, webhooks, a request on the wire - put the same Bot API behind this
server: ``async with BotApiServer() as api:``, then ``build_application(api.token, db,
base_url=f"{api.url}/bot")`` (files: ``f"{api.url}/file/bot"``). The strict stand-in
(``tests/standin/fake_telegram.py``) is one; it answers the same in process.

The server speaks HTTP/1.1 (keep-alive, Content-Length or chunked bodies) and accepts the
three body encodings a Bot API client may use:

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

from skatbot.httpio import BadRequest, read_body, read_head
from skatbot.standin.botapi import (
    BOT_USERNAME,
    BotApi,
    JSONDict,
    bad_request,
    decode_param,
)
from skatbot.standin.versions import CURRENT_API

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


async def read_request(
    reader: asyncio.StreamReader, *, max_body: int | None = None
) -> tuple[str, str, dict[str, str], bytes] | None:
    """(method, target, lower-cased headers, body), or None when the peer closed the stream.

    Content-Length and chunked bodies are supported; ``max_body`` bounds the body size.
    """
    head = await read_head(reader)
    if head is None:
        return None
    verb, target, headers = head
    return verb, target, headers, await read_body(reader, headers, max_body=max_body)


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
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        self._changed = asyncio.Condition()
        self._server = await asyncio.start_server(self._serve, self._host, self._port)
        sock = self._server.sockets[0]
        host, port = sock.getsockname()[:2]
        self.url = f"http://{host}:{port}"

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for task in list(self._connections):
            task.cancel()
        if self._connections:
            await asyncio.gather(*self._connections, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 1)

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

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while True:
                try:
                    request = await read_request(reader)
                except BadRequest:
                    break  # a malformed request ends the connection
                if request is None:
                    break
                _verb, target, headers, body = request
                status, payload, content_type = await self._dispatch(target, headers, body)
                keep_alive = headers.get("connection", "").lower() != "close"
                phrase = STATUS_PHRASES.get(status, "Error")
                head = (
                    f"HTTP/1.1 {status} {phrase}\r\n"
                    f"Content-Type: {content_type}\r\n"
                    f"Content-Length: {len(payload)}\r\n"
                    f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n"
                    "Server: skatbot-standin\r\n\r\n"
                )
                writer.write(head.encode("latin-1") + payload)
                await writer.drain()
                if not keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        except Exception:
            _LOGGER.exception("fake Bot API: connection handler failed")
        finally:
            self._connections.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _dispatch(
        self, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, bytes, str]:
        path = urlsplit(target)
        try:
            params, files = parse_body(path.query, headers, body)
        except ValueError as exc:
            return self._error(bad_request(str(exc)))
        return await self.answer(path.path, params, files)
