"""The running list of a place, or a refusal that says why there is none (an ended tournament
closed its table's, the last one is closed, there never was one).

What kind of place it is was decided before (the route serves the places that keep lists):
nothing here asks. A use case of the new shape passes its ``Place``; the commands of other
features that still get the ``Command`` pass that (``At``).
"""

from __future__ import annotations

from typing import NoReturn

from skatbot.rules.errors import RuleError
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command
from skatbot.usecases.common.table_guards import guard_ended, refuse_closed_table

At = Place | Command


def place_id(at: At) -> int:
    return at.id if isinstance(at, Place) else at.place_id


def require_list(session: Session, at: At) -> lists_store.LoadedList:
    loaded = lists_store.open_list_loaded(session, place_id(at))
    if loaded is None:
        refuse_without_list(session, at)
    return loaded


def refuse_without_list(session: Session, at: At) -> NoReturn:
    """Why the place has no running list: its last one is closed (by an ended tournament:
    say so; a table's: what the table does now), or it never had one."""
    latest = lists_store.latest_list(session, place_id(at))
    if latest is not None:
        guard_ended(session, latest.id)  # an ended tournament closed its table: say so
        refuse_closed_table(session, place_id(at))  # a table goes on with the next draw
        raise RuleError(
            "Die Liste ist abgeschlossen.",
            hint="Neue Serie mit denselben Spielern: /weiter · ganz neu: /neu Anna Bernd Carla",
        )
    raise RuleError(
        f"In {at.here} läuft keine Liste.", hint="Starte eine mit /neu Anna Bernd Carla."
    )


def asker(at: At) -> tuple[int | None, str]:
    """Who asks: their user id (None: nobody) and name."""
    if isinstance(at, Place):
        return at.asker.user_id, at.asker.name
    return at.user_id, at.user_name
