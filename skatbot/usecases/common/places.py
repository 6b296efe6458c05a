"""The checks of a place that every feature asks: who owns what, and whether a list is a
tournament table's (whose lists follow the tournament, not the chat). Confirmations:
``confirm.py``."""

from __future__ import annotations

from skatbot.rules.errors import RuleError
from skatbot.storage import tournament as trepo
from skatbot.storage.lists import ListInfo
from skatbot.storage.tournament_models import Series, TableLink, Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import PLACEHOLDER_IDS

# --- who owns what ----------------------------------------------------------------------------


def owns(user_id: int | None, owner: int | None) -> bool:
    """Whether ``user_id`` owns what ``owner`` created. Only a person owns anything: a chat
    identity (an anonymous admin posting as the group, a channel: negative ids) and
    Telegram's placeholder users stand for many people and own nothing."""
    return (
        user_id is not None
        and owner is not None
        and user_id == owner
        and owner > 0
        and owner not in PLACEHOLDER_IDS
    )


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
