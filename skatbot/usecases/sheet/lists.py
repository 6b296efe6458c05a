"""The running list of a place, or a refusal that says why there is none (a tournament desk
keeps none, an ended tournament closed its table's, the last one is closed)."""

from __future__ import annotations

from skatbot.rules.errors import RuleError
from skatbot.storage import lists as lists_store
from skatbot.storage.tournament import tournament_of
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Becoming, refuse_other_kind
from skatbot.usecases.common.places import guard_ended
from skatbot.usecases.common.reply import Command

DESK_HINT = (
    "Gespielt wird an den Tischen (jeder in seinem Thema oder mit /tisch CODE); "
    "hier: /rangliste, /fehlend, /turniere."
)


def refuse_at_desk(session: Session, cmd: Command) -> None:
    """A tournament desk and a league desk keep no list: /spiel, /stand and the like point
    to what works."""
    if tournament_of(session, cmd.place_id) is not None:
        raise RuleError(
            ("Dieses Thema" if cmd.thread_id else "Dieser Chat")
            + " ist die Turnierleitung – hier läuft keine Liste.",
            hint=DESK_HINT,
        )
    refuse_other_kind(session, cmd, Becoming.LISTS)


def require_list(session: Session, cmd: Command) -> lists_store.LoadedList:
    loaded = lists_store.open_list_loaded(session, cmd.place_id)
    if loaded is None:
        refuse_at_desk(session, cmd)
        latest = lists_store.latest_list(session, cmd.place_id)
        if latest is not None:
            guard_ended(session, latest.id)  # an ended tournament closed its table: say so
            raise RuleError(
                "Die Liste ist abgeschlossen.",
                hint="Neue Serie mit denselben Spielern: /weiter · ganz neu: /neu Anna Bernd Carla",
            )
        raise RuleError(
            f"In {cmd.here} läuft keine Liste.", hint="Starte eine mit /neu Anna Bernd Carla."
        )
    return loaded
