"""Reading one HTTP/1.1 request from an asyncio stream: shared by the webhook server and the
Bot API stand-in (both are small stdlib servers; neither needs a web framework)."""

from __future__ import annotations

import asyncio


class BadRequest(Exception):
    """The request cannot be read (malformed head, bad length, body too large)."""


async def read_request(
    reader: asyncio.StreamReader, *, max_body: int | None = None
) -> tuple[str, str, dict[str, str], bytes] | None:
    """(method, target, lower-cased headers, body), or None when the peer closed the stream.

    Content-Length and chunked bodies are supported; ``max_body`` bounds the body size.
    """
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) < 3:
        raise BadRequest
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()

    def check(size: int) -> None:
        if size < 0 or (max_body is not None and size > max_body):
            raise BadRequest

    if "chunked" in headers.get("transfer-encoding", "").lower():
        chunks: list[bytes] = []
        size_total = 0
        while True:
            size_line = await reader.readuntil(b"\r\n")
            try:
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
            except ValueError:
                raise BadRequest from None
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass  # trailers until the empty line
                break
            size_total += size
            check(size_total)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(chunks)
    else:
        try:
            length = int(headers.get("content-length", "0"))
        except ValueError:
            raise BadRequest from None
        check(length)
        body = await reader.readexactly(length)
    return parts[0].upper(), parts[1], headers, body
