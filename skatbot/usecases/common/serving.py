"""How a route's declaration becomes the use case the runtime runs.

A route says which place kinds it serves, with one target each: the parser that turns the
words into a typed request, the use case ``fn(session, place, request)`` and the right it
needs. ``serve`` composes them into ``fn(session, command) -> Reply | Answer``: the place's
kind decided once (a place it does not serve is refused with where the command works), the
request parsed (a refusal carries the fix), the right checked, the use case run, and a result
that is no Reply put in words by its feature's ``texts`` (``wording.reply_of``). The runtime
has locked the place and opened the transaction before.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from skatbot.rules.errors import RuleError
from skatbot.storage.unit import Session
from skatbot.usecases.common import wording
from skatbot.usecases.common.place_kinds import Place, PlaceKind, not_served, place_of
from skatbot.usecases.common.reply import Answer, Command, Reply
from skatbot.usecases.common.rights import ANYONE, Right

Parse = Callable[[Command], Any]
Run = Callable[[Session, Place, Any], Any]


@dataclass(frozen=True)
class Target:
    """What serves one or more place kinds: ``run`` and ``parse`` as ``"module:function"`` of
    ``skatbot.usecases`` (imported at the first use; a bot start imports no use case).
    ``parse=None`` hands the use case the Command itself. ``right``: one right, or a right per
    request type, by its class name (a word that makes a read into a change: ``/turnier`` vs
    ``/turnier ende``); a type not named needs none."""

    kinds: frozenset[PlaceKind]
    run: str
    parse: str | None = None
    right: Right | Mapping[str, Right] = ANYONE

    def right_for(self, request: object) -> Right:
        if isinstance(self.right, Right):
            return self.right
        return self.right.get(type(request).__name__, ANYONE)

    @property
    def rights(self) -> tuple[Right, ...]:
        return (self.right,) if isinstance(self.right, Right) else tuple(self.right.values())


def at(
    kinds: PlaceKind | frozenset[PlaceKind],
    run: str,
    *,
    parse: str | None = None,
    right: Right | Mapping[str, Right] = ANYONE,
) -> Target:
    """One target of a route (see ``Target``)."""
    if isinstance(kinds, PlaceKind):
        kinds = frozenset({kinds})
    return Target(kinds, run, parse, right)


_RESOLVED: dict[str, Callable[..., Any]] = {}


def resolve(target: str) -> Callable[..., Any]:
    found = _RESOLVED.get(target)
    if found is None:
        module, _, name = target.partition(":")
        found = getattr(importlib.import_module(f"skatbot.usecases.{module}"), name)
        _RESOLVED[target] = found
    return found


def target_for(
    name: str, targets: tuple[Target, ...], place: Place, *, button: bool = False
) -> Target:
    for target in targets:
        if place.kind in target.kinds:
            return target
    if button:  # a button of another place (a forwarded message): no command to explain
        raise RuleError("Dieser Knopf gilt hier nicht.", hint="Nichts wurde geändert.")
    raise not_served(name, place, {k for t in targets for k in t.kinds})


def serve(
    name: str, targets: tuple[Target, ...], *, button: bool = False
) -> Callable[[Session, Command], Any]:
    """The use case of route ``name``: ``fn(session, command) -> Reply`` (a button's
    ``Answer``), as the runtime and the test harness call it."""
    kinds = [k for t in targets for k in t.kinds]
    if len(kinds) != len(set(kinds)):
        raise ValueError(f"{name}: a place kind with two targets")

    def run(session: Session, cmd: Command) -> Reply | Answer:
        place = place_of(session, cmd)
        target = target_for(name, targets, place, button=button)
        if isinstance(target.right, Right):  # before the words: no syntax lesson to the unentitled
            target.right.check(session, place, None)
        request = cmd if target.parse is None else resolve(target.parse)(cmd)
        if not isinstance(target.right, Right):
            target.right_for(request).check(session, place, request)
        result = resolve(target.run)(session, place, request)
        if isinstance(result, (Reply, Answer)):
            return result
        return wording.reply_of(result)

    run.__name__ = run.__qualname__ = f"serve_{name}"
    return run
