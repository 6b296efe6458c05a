"""Whether a list is a tournament table's, whose lists follow the tournament, not the chat:
its label, and the guards that keep such a list from being replaced or played on after
the tournament ended; what a place where a table (of a tournament or a league) played says
comes after its closed list."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.rules.errors import RuleError
from skatbot.storage import league as league_store
from skatbot.storage import lists as lists_store
from skatbot.storage import table_lists
from skatbot.storage import tournament as trepo
from skatbot.storage.lists import ListInfo
from skatbot.storage.table_lists import Table, TableKind
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


# --- a place where a table plays: what comes after its list --------------------------------------

NEXT_DRAW = "die nächste Serie: /tisch CODE aus der nächsten Auslosung (oder ihr Knopf)"
NEXT_SEATING = "die nächste Serie: /tisch CODE aus dem Sitzplan"


@dataclass(frozen=True)
class TableHere:
    """The table whose list a place played last: its label, and whether its tournament or
    match day is over (then the place may start lists of its own again)."""

    table: Table
    label: str
    over: bool

    @property
    def tournament(self) -> bool:
        return self.table.kind is TableKind.TOURNAMENT

    @property
    def reported(self) -> bool:
        """The tournament table signed and reported (a league table reports on closing)."""
        row = self.table.row
        return isinstance(row, TableLink) and row.reported

    @property
    def next_series(self) -> str:
        return NEXT_DRAW if self.tournament else NEXT_SEATING

    def after_close(self) -> str:
        """What a table does once its list is closed, a sentence (never /weiter or /neu: a
        table's next list comes from the next draw or seating)."""
        if not self.tournament:
            return f"Das Ergebnis ging an die Ligaleitung (vorläufig) · {self.next_series}."
        if self.reported:
            return f"Alle haben unterschrieben, das Ergebnis ist gemeldet · {self.next_series}."
        return (
            "Jetzt unterschreibt jede Person am Tisch – die Nachricht dazu zeigt "
            f"/unterschreiben · danach {self.next_series}."
        )


def table_here(session: Session, place: int) -> TableHere | None:
    """The table of ``place``'s latest table list, if that is the place's latest list (None:
    the place plays lists of its own)."""
    table = table_lists.of_place(session, place)
    latest = lists_store.latest_list(session, place)
    if table is None or latest is None or table.list_id != latest.id:
        return None
    label = f"Serie {table.series} · Tisch {table.table_no}"
    if table.kind is TableKind.TOURNAMENT:
        t = trepo.tournament_by_id(session, table.owner)
        over = t is None or t.closed_at is not None
    else:
        over = league_store.day_by_id(session, table.owner).approved_at is not None
    return TableHere(table, label, over)


def refuse_closed_table(session: Session, place: int) -> None:
    """The refusal of a change to a table's closed list: what the table does now."""
    here = table_here(session, place)
    if here is not None and not here.over:
        raise RuleError(f"Die Liste von {here.label} ist abgeschlossen.", hint=here.after_close())
