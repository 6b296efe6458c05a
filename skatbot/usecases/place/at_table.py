"""A place where a table of a Preisskat or a league plays, beyond its games.

``/unterschreiben``, and ``/abschluss`` at the table's closed list, show the signing message
again with who has signed and who is missing: the first one may be lost, scrolled far away
or on another phone, and without it a table could only reopen its list and sign again. A
league table signs nothing (closing reports its results); it is told so.

``/weiter`` and ``/neu`` start no list at a table while its tournament or match day runs: the
table's next list comes from the next draw or seating (``/tisch CODE``), and a list of the
place's own would take the table's place. Once the tournament ended or the day was approved
the place is a chat with lists again, and both work as anywhere.
"""

from __future__ import annotations

from skatbot.rules.errors import RuleError
from skatbot.storage import lists as lists_store
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.tournament_models import TableLink
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.common.table_guards import TableHere, table_here
from skatbot.usecases.evening import evenings
from skatbot.usecases.sheet import new_list
from skatbot.usecases.tournament import tables as tournament_tables


def unterschreiben(session: Session, place: Place, cmd: Command) -> Reply:
    """``/unterschreiben`` where a table plays."""
    here = table_here(session, place.id)
    if here is None:  # the route serves table places only; their latest list is a table's
        raise RuleError(
            "Hier spielt kein Tisch eines Turniers.",
            hint="Unterschrieben wird am Tisch eines Preisskats, nach /abschluss.",
        )
    return _signing(session, here)


def closed_list(session: Session, place: Place) -> Reply | None:
    """``/abschluss`` when no list runs: at a table whose tournament or day still runs, the
    signing message again (None: anywhere else, the usual answer)."""
    here = table_here(session, place.id)
    if here is None or here.over:
        return None
    return _signing(session, here)


def _signing(session: Session, here: TableHere) -> Reply:
    row = here.table.row
    if isinstance(row, TableLink):
        return tournament_tables.signing_again(session, row)
    if here.table.list_id is not None and not _closed(session, here):
        raise RuleError(
            "An den Tischen der Liga wird nicht unterschrieben.",
            hint="Zu Ende spielen, dann /abschluss – das Ergebnis geht von selbst an die "
            "Ligaleitung, die Kapitäne bestätigen es dort.",
        )
    return Reply(
        f"✅ {here.label}: abgeschlossen – an den Tischen der Liga wird nicht unterschrieben, "
        f"die Kapitäne bestätigen den Spieltag bei der Ligaleitung.\n{here.after_close()}"
    )


def _closed(session: Session, here: TableHere) -> bool:
    lst = lists_store.get_list(session, here.table.list_id or 0)
    return lst is not None and lst.status is ListStatus.CLOSED


def weiter(session: Session, place: Place, cmd: Command) -> Reply:
    """``/weiter`` where a table played: refused while its tournament or day runs."""
    here = table_here(session, place.id)
    if here is None or here.over:
        return evenings.weiter(session, place, cmd)
    raise _no_list_of_its_own(session, here)


def neu(session: Session, place: Place, cmd: Command) -> Reply:
    """``/neu`` where a table played: refused while its tournament or day runs (its words
    are read only where a list may start, so no refusal of them names ``/neu`` here)."""
    here = table_here(session, place.id)
    if here is None or here.over:
        return new_list.neu(session, place, new_list.parse(cmd))
    raise _no_list_of_its_own(session, here)


def _no_list_of_its_own(session: Session, here: TableHere) -> RuleError:
    what = "des Turniers" if here.tournament else "des Spieltags"
    if _closed(session, here):
        then = here.after_close()
    elif here.tournament:
        then = f"Zu Ende spielen, dann /abschluss und unterschreiben · danach {here.next_series}."
    else:
        then = (
            "Zu Ende spielen, dann /abschluss – das Ergebnis geht an die Ligaleitung · danach "
            f"{here.next_series}."
        )
    return RuleError(
        f"Hier spielt {here.label} {what} – eine neue Liste beginnt hier mit der nächsten Serie.",
        hint=f"{then} Eine Liste für sich: in einem anderen Chat oder Thema.",
    )
