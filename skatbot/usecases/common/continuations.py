"""Continuations: the functions a reply names to run after it is sent (``reply.Call``), under
stable keys.

The durable outbox stores a pending reply with what runs after it (``on_sent``, an edit's
``on_gone``/``render``, a topic's ``on_created``/``on_refused``), so it stores a *key*, never
a module path: a function may move or be renamed and the rows already stored still run.

A key is declared once in ``DECLARED`` (key -> the module that defines it) and its function
carries ``@continuation(key)``. Resolving a key imports that module if nothing has yet (a
reply resumed at start may name a feature no update has touched), so the registry is
complete whenever it is asked. ``tests/usecases/common/test_continuations.py`` checks both
directions: every declared key is registered by its module, every Call in the code names a
declared key.

Rows written before keys existed named ``"module:function"``; migration 0016 rewrote them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

# Every continuation: its key and the module whose import registers it. Moving a function
# changes its line here; the keys stored in the outbox stay.
DECLARED: dict[str, str] = {
    "standings.store": "skatbot.usecases.sheet.standings",
    "standings.forget": "skatbot.usecases.sheet.standings",
    "builder.bind_message": "skatbot.usecases.sheet.builder.flow",
    "tournament.topic_created": "skatbot.usecases.tournament.tables",
    "tournament.topic_refused": "skatbot.usecases.tournament.tables",
    "tournament.render_standings": "skatbot.usecases.tournament.tables",
    "league.topic_created": "skatbot.usecases.league.tables",
    "league.topic_refused": "skatbot.usecases.league.tables",
    "gamenight.poll_sent": "skatbot.usecases.gamenight.nights",
    "gamenight.topic_created": "skatbot.usecases.gamenight.nights",
    "gamenight.topic_refused": "skatbot.usecases.gamenight.nights",
}

_registered: dict[str, Callable[..., Any]] = {}


class UnknownContinuation(LookupError):
    """A key nobody declared, or a declared key its module does not register."""


def check(key: str) -> None:
    """Refuse a key that is not declared (a ``Call`` checks its key when it is made)."""
    if key not in DECLARED:
        raise UnknownContinuation(
            f"unknown continuation {key!r}: declare it in "
            f"skatbot.usecases.common.continuations.DECLARED and decorate its function "
            f"with @continuation({key!r})"
        )


def known(key: str) -> bool:
    return key in DECLARED


def continuation(key: str) -> Callable[[F], F]:
    """Register a module-level function under ``key``, which ``DECLARED`` must give to the
    function's own module."""
    check(key)

    def register(fn: F) -> F:
        home = DECLARED[key]
        if fn.__module__ != home:
            raise UnknownContinuation(
                f"continuation {key!r} is declared in {home}, not in {fn.__module__}: "
                f"correct its line in DECLARED"
            )
        earlier = _registered.get(key)
        if earlier is not None and earlier.__qualname__ != fn.__qualname__:
            raise UnknownContinuation(
                f"continuation {key!r} registered twice: "
                f"{earlier.__qualname__} and {fn.__qualname__}"
            )
        _registered[key] = fn
        return fn

    return register


def resolve(key: str) -> Callable[..., Any]:
    """The function registered under ``key``, its module imported if need be."""
    fn = _registered.get(key)
    if fn is not None:
        return fn
    check(key)
    importlib.import_module(DECLARED[key])
    fn = _registered.get(key)
    if fn is None:
        raise UnknownContinuation(
            f"continuation {key!r}: {DECLARED[key]} has no function decorated "
            f"with @continuation({key!r})"
        )
    return fn
