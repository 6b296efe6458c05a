"""The lifecycle of a table's list, shared by a Preisskat's drawn tables and a league's seated
ones: ``/tisch CODE`` in the table's own chat finds the table by its code (of either kind),
refuses what its kind refuses (a table no longer played, a table that has its list), lets
only whom its kind trusts link it (the right ``TABLE_LINKER``, which reads the code), and
opens the table's list there (the one ``start_list`` path). Closing the list reports it the
way its kind reports (the tournament's signatures, the league's provisional results).

What differs is a kind's ``Side`` (``tournament.tables:SIDE``, ``league.tables:SIDE``),
named here as strings and imported at the first use: the kinds sit above this module."""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from html import escape
from typing import Protocol

from skatbot.rules.errors import RuleError
from skatbot.storage import table_lists
from skatbot.storage.table_lists import Table, TableKind
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.sheet.list_changes import opening_reply, start_list

MAX_CODE = 16  # longer words are no code of either kind


@dataclass(frozen=True)
class Seating:
    """How a table's list opens: its players in seat order, its series length, the head line
    above the list and the line under it (what happens at the end)."""

    names: list[str]
    series_length: int
    head: str
    tail: str


class Side(Protocol):
    """What a kind of table supplies to the lifecycle."""

    def check_free(self, session: Session, place: Place, table: Table) -> None:
        """Refuse linking ``table`` at ``place``: no longer played, or linked already."""

    def check_linker(self, session: Session, place: Place, table: Table) -> None:
        """Refuse whoever may not link ``table`` with its code."""

    def seating(self, session: Session, table: Table) -> Seating: ...

    def linked(self, session: Session, place: Place, table: Table, reply: Reply) -> Reply:
        """The reply to a table linked here, with what the desk is told."""


_SIDES = {TableKind.TOURNAMENT: "tournament.tables:SIDE", TableKind.LEAGUE: "league.tables:SIDE"}


def side_of(table: Table) -> Side:
    module, _, name = _SIDES[table.kind].partition(":")
    side: Side = getattr(importlib.import_module(f"skatbot.usecases.{module}"), name)
    return side


# --- /tisch CODE in the table's chat ------------------------------------------------------------


@dataclass(frozen=True)
class LinkTable:
    code: str  # upper case, at most MAX_CODE characters


def parse(cmd: Command) -> LinkTable:
    """``/tisch CODE`` where lists are played; ``/tisch freigeben N`` belongs to the desk."""
    if cmd.args and cmd.args[0].casefold() == "freigeben":
        raise RuleError(
            "Freigeben geht nur bei der Turnierleitung.",
            hint="Dort /tisch freigeben N schicken (N: die Tischnummer der Auslosung).",
        )
    if len(cmd.args) != 1:
        raise RuleError(
            "Welcher Tisch?",
            hint="/tisch CODE – den Code nennt die Auslosung bei der Turnierleitung.",
        )
    if len(cmd.args[0]) > MAX_CODE:
        raise _unknown(cmd.args[0])
    return LinkTable(cmd.args[0].upper())


def _unknown(word: str) -> RuleError:
    return RuleError(
        f"Den Tischcode „{word[:MAX_CODE]}“ kenne ich nicht.",
        hint="Den Code bitte aus der Auslosung bei der Turnierleitung abschreiben, "
        "z. B. /tisch K7F2QX.",
    )


def may_link(session: Session, place: Place, request: object) -> None:
    """The right ``TABLE_LINKER``: whom the code's table trusts (an unknown code is the use
    case's refusal)."""
    if not isinstance(request, LinkTable):
        return
    table = table_lists.by_code(session, request.code)
    if table is None:
        return  # the use case says it does not know the code
    side = side_of(table)
    side.check_free(session, place, table)
    side.check_linker(session, place, table)


def link(session: Session, place: Place, request: LinkTable) -> Reply:
    """``/tisch CODE``: the code's table plays here from now on, on its own list."""
    table = table_lists.by_code(session, request.code, lock=True)
    if table is None:
        raise _unknown(request.code)
    side = side_of(table)
    side.check_free(session, place, table)
    return link_here(session, place, table, side)


def link_here(session: Session, place: Place, table: Table, side: Side) -> Reply:
    """Open ``table``'s list at ``place`` (checked free and the linker trusted)."""
    reply = open_list(session, command_at(place), table, side.seating(session, table))
    return side.linked(session, place, table, reply)


def open_list(session: Session, cmd: Command, table: Table, seating: Seating) -> Reply:
    """The table's list at ``cmd.place_id``: its players in seat order, its series length;
    the table's row names the list from now on."""
    lst, sheet = start_list(
        session, cmd, seating.names, first_dealer=0, series_length=seating.series_length
    )
    table.row.list_id = lst.id
    reply = opening_reply(lst, sheet, seating.names, seating.head)
    return dataclasses.replace(reply, text=reply.text + seating.tail)


def command_at(place: Place) -> Command:
    """The asker's update at ``place`` as the list's start takes it."""
    asker = place.asker
    return Command(
        place_id=place.id,
        chat_title=place.title,
        user_id=asker.user_id,
        user_name=asker.name,
        update_id=asker.update_id,
        args=(),
        thread_id=place.thread_id,
        telegram_chat_id=place.telegram_chat_id,
        is_forum=place.is_forum,
        bot_username=place.bot_username,
    )


def linked_where(place: Place) -> str:
    """Where a table now plays, as the desk reads it."""
    return f"„{escape(place.title)}“" if place.title else "einem eigenen Chat"
