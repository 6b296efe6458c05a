"""The words of a place command, for the code it hands on that still reads a ``Command``
(the sheet's list picking, a desk's export, the confirmations): rebuilt from the place and
the request, so that the use case itself reads only its place and its request."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from skatbot.usecases.common import place_kinds
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command


@dataclass(frozen=True)
class Words:
    """A request that is the command's words as typed (what they mean is decided further on,
    by the code they are handed to)."""

    words: tuple[str, ...]


def words(cmd: Command) -> Words:
    return Words(cmd.args)


def command_at(
    place: Place, name: str, words: tuple[str, ...] = (), *, text: str | None = None
) -> Command:
    """``/name words`` as sent by the place's asker (``text``: as typed, without a bot's
    @name, since the code it is handed to names ``/name`` in its hints; a button's data)."""
    cmd = place_kinds.command_at(place, " ".join((f"/{name}", *words)) if text is None else text)
    return dataclasses.replace(cmd, args=words)
