"""Reading one HTTP/1.1 request from an asyncio stream: the webhook server's (a small stdlib
server: it needs no web framework); the tests' Bot API server reads with it too.

``read_head`` and ``read_body`` are the two halves, so that a server can look at the headers
(a secret, the declared length) before it reads a byte of the body."""

from __future__ import annotations

import asyncio


class BadRequest(Exception):
    """The request cannot be read (malformed head, bad length, body too large)."""


class TooLarge(BadRequest):
    """The body is larger than allowed (answered 413)."""


async def read_head(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str]] | None:
    """(method, target, lower-cased headers), or None when the peer closed the stream."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    except asyncio.LimitOverrunError:
        raise BadRequest from None  # a head longer than the stream's limit
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) < 3:
        raise BadRequest
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return parts[0].upper(), parts[1], headers


def declared_length(headers: dict[str, str]) -> int | None:
    """The Content-Length (None: chunked, or none given)."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return None
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        raise BadRequest from None
    if length < 0:
        raise BadRequest
    return length


async def read_body(
    reader: asyncio.StreamReader, headers: dict[str, str], *, max_body: int | None = None
) -> bytes:
    """The body announced by ``headers`` (Content-Length or chunked), at most ``max_body``
    bytes (``TooLarge`` before reading a declared length over it)."""

    def check(size: int) -> None:
        if max_body is not None and size > max_body:
            raise TooLarge

    length = declared_length(headers)
    if length is not None:
        check(length)
        return await reader.readexactly(length)
    chunks: list[bytes] = []
    size_total = 0
    while True:
        size_line = await reader.readuntil(b"\r\n")
        try:
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
        except ValueError:
            raise BadRequest from None
        if size < 0:
            raise BadRequest
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                pass  # trailers until the empty line
            break
        size_total += size
        check(size_total)
        chunks.append(await reader.readexactly(size))
        await reader.readexactly(2)
    return b"".join(chunks)
