"""The sheet's commands at a desk (a Preisskat's or a league's management): refused, with
what works there instead. The route sends the desk kinds here, so that a player who typed
``/spiel`` at the desk learns where the tables play and what the desk offers - not the
generic "start a list with /neu", which the desk refuses too."""

from __future__ import annotations

from html import escape
from typing import NoReturn

from skatbot.rules.errors import RuleError
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place, PlaceKind

DESK_HINT = (
    "Gespielt wird an den Tischen (jeder in seinem Thema oder mit /tisch CODE); "
    "hier: /rangliste, /fehlend, /turniere."
)
LEAGUE_HINT = (
    "Gespielt wird an den Tischen, jeder in seinem eigenen Chat oder Thema (/tisch CODE aus "
    "dem Sitzplan); eine Liste für sich: /neu Anna Bernd Carla in einem anderen Chat oder "
    "Thema. Nichts wurde geändert."
)


def _this(place: Place) -> str:
    return "Dieses Thema" if place.thread_id else "Dieser Chat"


def _at_league_desk(place: Place) -> NoReturn:
    league = place.league
    assert league is not None  # a league desk has its league
    raise RuleError(
        f"{_this(place)} ist die Ligaleitung der Liga „{escape(league.name)}“ – hier läuft "
        "keine Liste.",
        hint=LEAGUE_HINT,
    )


def no_list(session: Session, place: Place, request: object) -> NoReturn:
    """A command that needs a list (/spiel, /stand, …): a desk keeps none."""
    if place.kind is PlaceKind.LEAGUE_DESK:
        _at_league_desk(place)
    raise RuleError(
        f"{_this(place)} ist die Turnierleitung – hier läuft keine Liste.", hint=DESK_HINT
    )


def no_new_list(session: Session, place: Place, request: object) -> NoReturn:
    """/neu (and what starts a list like it): a desk keeps no lists of its own."""
    if place.kind is PlaceKind.LEAGUE_DESK:
        _at_league_desk(place)
    raise no_list_at_tournament_desk(_this(place))


def no_list_at_tournament_desk(this: str) -> RuleError:
    """The refusal of a new list at a Preisskat desk (``this``: "Dieser Chat" or "Dieses
    Thema")."""
    return RuleError(
        f"{this} ist die Turnierleitung eines Turniers.",
        hint="Listen bitte in einem eigenen Chat oder Thema führen (je Tisch eins). " + DESK_HINT,
    )
