"""Whether a list is a tournament table's, whose lists follow the tournament, not the chat:
its label, and the guards that keep such a list from being replaced or played on after
the tournament ended."""

from __future__ import annotations

from skatbot.rules.errors import RuleError
from skatbot.storage import tournament as trepo
from skatbot.storage.lists import ListInfo
from skatbot.storage.tournament_models import Series, TableLink, Tournament
from skatbot.storage.unit import Session

# --- who owns what ----------------------------------------------------------------------------


# --- a tournament table's list -----------------------------------------------------------------


def table_label(series: Series, link: TableLink) -> str:
    return f"Serie {series.number} · Tisch {link.table_no}"


def table_context(session: Session, link: TableLink) -> tuple[Tournament, Series]:
    t = trepo.tournament_by_id(session, link.tournament_id)
    s = trepo.series_by_id(session, link.series_id)
    assert t is not None and s is not None
    return t, s


def guard_replace(session: Session, running: ListInfo) -> None:
    """``start_list`` would replace an empty list: never a tournament table's."""
    link = trepo.table_by_list(session, running.id)
    if link is not None:
        _, series = table_context(session, link)
        raise RuleError(
            f"Hier läuft die Liste von {table_label(series, link)} (noch ohne Spiele).",
            hint="Erst dort spielen und mit /abschluss abschließen – oder ein anderes Thema "
            "oder einen anderen Chat nehmen.",
        )


def guard_ended(session: Session, list_id: int) -> None:
    """A table list of an ended tournament takes no more games (nor anything else that
    changes it): ending closed it (:func:`close_tables`), and what finds it closed asks here
    to say why - so the bookings of every other list pay nothing for it."""
    link = trepo.table_by_list(session, list_id)
    if link is None:
        return
    t, series = table_context(session, link)
    if t.closed_at is not None:
        raise RuleError(
            f"Das Turnier „{t.name}“ ist beendet – {table_label(series, link)} nimmt keine Spiele "
            "mehr an.",
            hint="Die Liste bleibt lesbar (/liste, /pdf); für eine neue Runde: /tisch CODE des "
            "nächsten Turniers oder /neu.",
        )
