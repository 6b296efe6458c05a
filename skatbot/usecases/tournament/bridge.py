"""A desk's place as a ``Command``, for the parts that still take one (the confirmation
questions of ``common.confirm``, the tables' topics of ``tournament.tables``)."""

from __future__ import annotations

from skatbot.usecases.common import place_kinds
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command


def command_at(place: Place, text: str = "") -> Command:
    """The place and its asker as a ``Command``, for the parts that still take one (the
    confirmation questions, the tables' topics)."""
    return place_kinds.command_at(place, text)
