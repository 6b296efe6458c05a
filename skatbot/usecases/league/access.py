"""Who may change a league (``common.rights``: ``LEAGUE_MANAGER``, ``DAY_RUNNER``,
``TEAM_CAPTAIN``): the league's creator and the chat's admins manage it at its desk; a host
and the host chat's admins run their day there; a team's captain changes that team's line-up.
Reading is for everyone."""

from __future__ import annotations

from html import escape
from typing import Protocol

from skatbot.rules.errors import RuleError
from skatbot.storage import league as league_store
from skatbot.storage.league_models import League, LeagueTeam
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.rights import owns
from skatbot.usecases.league.common import READABLE, Desk, day_label, desk_at, team_prefix


class NamesATeam(Protocol):
    """A request whose text starts with a team's name (``/aufstellung Nord: …``)."""

    @property
    def text(self) -> str: ...


def is_manager(league: League, place: Place) -> bool:
    asker = place.asker
    return asker.is_admin or owns(asker.user_id, league.created_by)


def runs(desk: Desk, place: Place) -> bool:
    """The league's management at its desk; the host (or the chat's admins) at the host's."""
    if desk.day is None:
        return is_manager(desk.league, place)
    host = desk.day.host_user_id
    return place.asker.is_admin or (host is not None and place.asker.user_id == host)


def manager(session: Session, place: Place, request: object) -> None:
    """``LEAGUE_MANAGER`` at a league desk: the league's creator and the chat's admins."""
    league = place.league
    assert league is not None  # a league desk has one
    if is_manager(league, place):
        return
    who = league.created_by_name or "die Person, die sie angelegt hat"
    raise RuleError(
        f"Die Liga „{escape(league.name)}“ verwalten {escape(who)} (hat /liga aufgerufen) "
        "und die Admins des Chats.",
        hint=f"Lesen geht für alle: {READABLE}.",
    )


def host(session: Session, place: Place, request: object) -> None:
    """``DAY_RUNNER`` at a host's chat: the host named with /ausrichter and the chat's admins."""
    desk = desk_at(session, place)
    if runs(desk, place):
        return
    assert desk.day is not None  # a host's chat runs its day
    raise RuleError(
        f"{day_label(desk.day)} richtet hier {escape(desk.day.host_name or 'der Ausrichter')} "
        "aus (mit /ausrichter); mit ihm die Admins dieses Chats.",
        hint=f"Lesen geht für alle: {READABLE}.",
    )


def named_team(session: Session, desk: Desk, text: str) -> tuple[LeagueTeam, str]:
    """The team named at the start of ``text`` and the rest of it."""
    return team_prefix(league_store.teams(session, desk.league), text)


def captain(session: Session, place: Place, request: NamesATeam) -> None:
    """``TEAM_CAPTAIN``: whoever runs the day, or the captain of the team the request names."""
    desk = desk_at(session, place)
    if runs(desk, place):
        return
    team, _ = named_team(session, desk, request.text)
    if team.captain_user_id is not None and place.asker.user_id == team.captain_user_id:
        return
    raise RuleError(
        f"Die Aufstellung von „{escape(team.name)}“ ändern der Kapitän der Mannschaft und die "
        "Ligaleitung.",
        hint="Kapitän wird man mit /kapitaen CODE – den Code schickt die Ligaleitung privat.",
    )
