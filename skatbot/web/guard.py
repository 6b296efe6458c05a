"""What uvicorn and h11 leave to us: connection-level limits against slow or hostile clients,
and a refusal of ambiguous message framing.

h11 parses HTTP/1.1 (and refuses malformed heads, conflicting ``Content-Length`` headers and a
head that stays incomplete over ``HEAD_LIMIT`` bytes with 400); uvicorn runs the ASGI application. Neither limits
how long a client may take for its request head or body, how many connections one address
may hold, or from where connections are served. ``ConnectionGuard`` adds that to uvicorn's
h11 protocol, for every route of the web application:

* a new connection's request head must be complete within ``head_timeout`` seconds, a
  kept-alive connection's next head within ``keepalive_timeout``, and a body within
  ``body_timeout`` of its head (dropped otherwise, counted in ``dropped``);
* an answer given before the request's body was read (a refusal from the headers) closes
  the connection: the rest of the body is never read;
* at most ``max_connections`` are open. When all are taken, a connection from another
  address takes the place of the longest-waiting idle one (no request under way) of the
  address that holds the most, if that address holds more than its ``fair_share``;
  otherwise it is answered 503 and closed. So one address cannot keep everybody else out,
  while a load balancer that alone connects may still use every connection;
* optionally only ``sources`` are served; other connections are closed unanswered.

``HeadGuard`` answers 400 to a request with both ``Content-Length`` and
``Transfer-Encoding`` (h11 would take the chunked framing; a proxy in front might take the
other - the ambiguity request smuggling lives on), and 431 to a head over ``HEAD_LIMIT``
bytes (h11 counts only what it buffers while a head is incomplete: a larger head that
arrives in one read passes it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from ipaddress import IPv4Network, IPv6Network, ip_address
from typing import Any

import h11
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

Network = IPv4Network | IPv6Network

MAX_CONNECTIONS = 100  # Telegram's setWebhook max_connections is 1-100 (40 by default)
# Telegram sends a request as soon as it has connected, and its next one on a kept-alive
# connection whenever an update is due: a connection silent longer is not worth its slot.
HEAD_TIMEOUT = 3.0  # seconds from connecting to a request's complete head
KEEPALIVE_TIMEOUT = 5.0  # seconds a kept-alive connection may wait for its next request
BODY_TIMEOUT = 10.0  # seconds from a request's head to the end of its body
HEAD_LIMIT = 16 << 10  # bytes of a request's head (h11 answers 400 above)

_UNAVAILABLE = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 19\r\nconnection: close\r\n\r\nService Unavailable"
)


def fair_share(max_connections: int) -> int:
    """The connections one address may keep when others need them."""
    return max(4, max_connections // 8)


class ConnectionGuard:
    """The limits of one server's connections, and what they have refused so far."""

    def __init__(
        self,
        *,
        max_connections: int = MAX_CONNECTIONS,
        head_timeout: float = HEAD_TIMEOUT,
        keepalive_timeout: float = KEEPALIVE_TIMEOUT,
        body_timeout: float = BODY_TIMEOUT,
        sources: Iterable[Network] = (),
    ) -> None:
        self.max_connections = max_connections
        self.head_timeout = head_timeout
        self.keepalive_timeout = keepalive_timeout
        self.body_timeout = body_timeout
        self.sources = tuple(sources)
        self.dropped = 0
        """Connections closed for being too slow or over the cap."""
        self.evicted = 0
        """Idle connections closed to make room for another address."""
        self.refused = 0
        """Connections from addresses outside ``sources``, closed unanswered."""
        self.open: set[GuardedH11Protocol] = set()

    def protocol(self) -> type[GuardedH11Protocol]:
        """uvicorn's ``http`` protocol class for a server under this guard."""
        return type("Guarded", (GuardedH11Protocol,), {"guard": self})

    def served(self, address: str) -> bool:
        """Whether ``address`` is one of ``sources`` (always, without ``sources``)."""
        if not self.sources:
            return True
        try:
            ip = ip_address(address)
        except ValueError:
            return False
        if ip.version == 6 and ip.ipv4_mapped is not None:  # a dual-stack socket's IPv4 peer
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.sources)

    def make_room(self, address: str) -> bool:
        """All connections are taken: close the longest-idle connection of the address that
        holds the most, if that is another address holding more than its fair share."""
        held: dict[str, int] = {}
        for connection in self.open:
            held[connection.address] = held.get(connection.address, 0) + 1
        idle = [
            (held[c.address], -c.idle_since, c)
            for c in self.open
            if c.idle_since is not None and c.address != address
        ]
        if not idle:
            return False
        count, _, victim = max(idle, key=lambda item: item[:2])
        if count <= fair_share(self.max_connections):
            return False
        self.open.discard(victim)
        victim.transport.close()
        self.evicted += 1
        return True


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines, the cap and the source filter of its
    ``guard`` (a subclass per server: ``ConnectionGuard.protocol``)."""

    guard: ConnectionGuard
    address = ""
    idle_since: float | None = None
    """Waiting for a request's head since (None: a request is under way)."""
    _phase = ""
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        guard = self.guard
        self.address = str(self.client[0]) if self.client else ""
        if not guard.served(self.address):
            guard.refused += 1
            transport.close()
            return
        if len(guard.open) >= guard.max_connections and not guard.make_room(self.address):
            guard.dropped += 1
            transport.write(_UNAVAILABLE)
            transport.close()
            return
        guard.open.add(self)
        self._enter("head", guard.head_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.open.discard(self)
        self._cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            # Answered before the body was read (refused from the headers): the rest of
            # the body is not worth reading, and the connection cannot carry another request.
            self.transport.close()
        super().on_response_complete()
        # The guard's deadline for the next head replaces uvicorn's keep-alive timer: it
        # also runs out while the head trickles in, and it counts the drop.
        self._unset_keepalive_if_required()
        self._watch()

    # -- deadlines --------------------------------------------------------------------------

    def _watch(self) -> None:
        """Arm the deadline of what the connection waits for now (h11's state of the client)."""
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            self._enter("head", self.guard.keepalive_timeout)
        elif state is h11.SEND_BODY:
            self._enter("body", self.guard.body_timeout)
        else:
            self._enter("busy", None)  # the request is read: the application has it

    def _enter(self, phase: str, timeout: float | None) -> None:
        if phase == self._phase:
            return  # a deadline runs from the phase's start, not from the last bytes
        self._phase = phase
        self.idle_since = time.monotonic() if phase == "head" else None
        self._cancel()
        if timeout is not None:
            self._deadline = self.loop.call_later(timeout, self._too_slow)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.guard.dropped += 1
            self.transport.close()


class HeadGuard:
    """ASGI middleware: 400 for a request with both ``Content-Length`` and
    ``Transfer-Encoding``, 431 for a head over ``HEAD_LIMIT`` bytes, before the application
    sees it (and the connection closes: its body is never read)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = scope["headers"]
            names = {name for name, _ in headers}
            size = len(scope["raw_path"]) + len(scope["query_string"])
            size += sum(len(name) + len(value) + 4 for name, value in headers)
            if b"content-length" in names and b"transfer-encoding" in names:
                await _refuse(send, 400, b"Bad Request")
                return
            if size > HEAD_LIMIT:
                await _refuse(send, 431, b"Request Header Fields Too Large")
                return
        await self.app(scope, receive, send)


async def _refuse(send: Send, status: int, text: bytes) -> None:
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(text)).encode()),
        (b"connection", b"close"),
    ]
    start: dict[str, Any] = {"type": "http.response.start", "status": status, "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": text})
