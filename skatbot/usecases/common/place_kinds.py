"""A place is one thing: a Preisskat desk (``/turnier``), a league desk (``/liga``), a host's
chat on its match day (``/ausrichter``) or a place that keeps lists (``/neu``, ``/weiter``,
``/tisch``). A command that would make a place into a second kind is refused with what the
place is and where the command works instead.

Why it matters: the commands those kinds share choose by the place (``/ergebnis`` goes to a
running tournament before a league), so a second kind would take over the first one's
commands - and whoever may create the newest thing would gain a say over the older one.
"""

from __future__ import annotations

from enum import Enum
from html import escape

from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError
from skatbot.storage import league as league_store
from skatbot.storage import tournament as trepo
from skatbot.storage.league_models import MatchDay
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Command


class Becoming(Enum):
    """What a setup command makes of its place."""

    TOURNAMENT_DESK = "turnier"
    LEAGUE_DESK = "liga"
    HOST = "ausrichter"
    LISTS = "liste"


_ELSEWHERE = {
    Becoming.TOURNAMENT_DESK: "Ein Turnier braucht seine eigene Turnierleitung: /turnier NAME "
    "in einem anderen Chat oder Thema.",
    Becoming.LEAGUE_DESK: "Eine Liga braucht ihre eigene Ligaleitung: /liga NAME in einem "
    "anderen Chat oder Thema.",
    Becoming.HOST: "Den Spieltag in einem anderen Chat oder Thema ausrichten: dort "
    "/ausrichter CODE.",
    Becoming.LISTS: "Gespielt wird an den Tischen, jeder in seinem eigenen Chat oder Thema "
    "(/tisch CODE aus dem Sitzplan); eine Liste für sich: /neu Anna Bernd Carla in einem "
    "anderen Chat oder Thema.",
}


def _this(cmd: Command) -> str:
    return "Dieses Thema" if cmd.thread_id else "Dieser Chat"


def hosting_today(session: Session, place: int) -> MatchDay | None:
    """The match day this place runs today as its host's chat (None: none)."""
    day = league_store.hosted_day(session, place)
    if day is None or day.approved_at is not None or day.play_date != berlin_date(None):
        return None
    return day


def refuse_other_kind(session: Session, cmd: Command, becoming: Becoming) -> None:
    """Refuse making ``cmd``'s place into ``becoming`` when it is another kind of place
    already. A Preisskat desk's own refusal of lists stays with the sheet (its texts point
    to the desk's commands); a league desk's refusal of a host is ``/ausrichter``'s."""
    fix = _ELSEWHERE[becoming] + " Nichts wurde geändert."
    if becoming in (Becoming.TOURNAMENT_DESK, Becoming.LISTS):
        league = league_store.league_of(session, cmd.chat_id)
        if league is not None:
            what = "keine Liste" if becoming is Becoming.LISTS else "kein Turnier"
            raise RuleError(
                f"{_this(cmd)} ist die Ligaleitung der Liga „{escape(league.name)}“ – "
                f"hier läuft {what}.",
                hint=fix,
            )
    if becoming in (Becoming.LEAGUE_DESK, Becoming.HOST):
        t = trepo.tournament_of(session, cmd.chat_id)
        if t is not None:
            what = "keine Liga" if becoming is Becoming.LEAGUE_DESK else "kein Spieltag der Liga"
            raise RuleError(
                f"{_this(cmd)} ist die Turnierleitung des Turniers „{escape(t.name)}“ – "
                f"hier läuft {what}.",
                hint=fix,
            )
    if becoming in (Becoming.TOURNAMENT_DESK, Becoming.LEAGUE_DESK):
        day = hosting_today(session, cmd.chat_id)
        if day is not None:
            raise RuleError(
                f"{_this(cmd)} richtet heute Spieltag {day.number} einer Liga aus.",
                hint="Ab morgen geht das hier. " + fix,
            )
