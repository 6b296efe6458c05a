"""A place is one thing: a Preisskat desk (``/turnier``), a league desk (``/liga``), a host's
chat on its match day (``/ausrichter``) or a place that keeps lists (``/neu``, ``/weiter``,
``/tisch``). A command that would make a place into a second kind is refused with what the
place is and where the command works instead.

Why it matters: the commands those kinds share choose by the place (``/ergebnis`` goes to a
running tournament before a league), so a second kind would take over the first one's
commands - and whoever may create the newest thing would gain a say over the older one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from html import escape
from typing import Final

from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError
from skatbot.storage import league as league_store
from skatbot.storage import place_facts
from skatbot.storage import tournament as trepo
from skatbot.storage.league_models import League, MatchDay
from skatbot.storage.place_facts import PlaceFacts
from skatbot.storage.tournament_models import Tournament
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
        league = league_store.league_of(session, cmd.place_id)
        if league is not None:
            what = "keine Liste" if becoming is Becoming.LISTS else "kein Turnier"
            raise RuleError(
                f"{_this(cmd)} ist die Ligaleitung der Liga „{escape(league.name)}“ – "
                f"hier läuft {what}.",
                hint=fix,
            )
    if becoming in (Becoming.LEAGUE_DESK, Becoming.HOST):
        t = trepo.tournament_of(session, cmd.place_id)
        if t is not None:
            what = "keine Liga" if becoming is Becoming.LEAGUE_DESK else "kein Spieltag der Liga"
            raise RuleError(
                f"{_this(cmd)} ist die Turnierleitung des Turniers „{escape(t.name)}“ – "
                f"hier läuft {what}.",
                hint=fix,
            )
    if becoming in (Becoming.TOURNAMENT_DESK, Becoming.LEAGUE_DESK):
        day = hosting_today(session, cmd.place_id)
        if day is not None:
            raise RuleError(
                f"{_this(cmd)} richtet heute Spieltag {day.number} einer Liga aus.",
                hint="Ab morgen geht das hier. " + fix,
            )


# --- the kind of a place, decided once per update ----------------------------------------------


class PlaceKind(Enum):
    """What a place is to a command. A route serves some kinds, one use case per kind."""

    LISTS = "lists"  # keeps lists (or nothing yet): a table at home, a club evening
    TOURNAMENT_DESK = "tournament desk"  # /turnier: a Preisskat's management
    TOURNAMENT_TABLE = "tournament table"  # its latest list is a tournament table's (/tisch)
    LEAGUE_DESK = "league desk"  # /liga: a league's management
    LEAGUE_TABLE = "league table"  # its latest list is a league table's (/tisch)
    HOST = "host"  # runs a league's match day today (/ausrichter)


# Every place where lists are played: a command of the sheet serves these. A host's chat
# keeps lists too (the club's own table plays there while it runs the day).
PLAYING: Final = frozenset(
    {PlaceKind.LISTS, PlaceKind.TOURNAMENT_TABLE, PlaceKind.LEAGUE_TABLE, PlaceKind.HOST}
)
EVERYWHERE: Final = frozenset(PlaceKind)

# What a place of a kind is ("Dieser Chat ist …"), and how a place becomes one (the fix of a
# command that does not serve the asker's place).
_IS: Final = {
    PlaceKind.LISTS: "ein Chat mit Listen",
    PlaceKind.TOURNAMENT_DESK: "die Turnierleitung",
    PlaceKind.TOURNAMENT_TABLE: "ein Turniertisch",
    PlaceKind.LEAGUE_DESK: "die Ligaleitung",
    PlaceKind.LEAGUE_TABLE: "ein Tisch der Liga",
    PlaceKind.HOST: "der Chat des Ausrichters",
}
_WHERE: Final = {
    PlaceKind.LISTS: "in einem Chat mit Liste (/neu Anna Bernd Carla)",
    PlaceKind.TOURNAMENT_DESK: "an der Turnierleitung (/turnier NAME macht einen Chat dazu)",
    PlaceKind.TOURNAMENT_TABLE: "am Tisch eines Turniers (/tisch CODE aus der Auslosung)",
    PlaceKind.LEAGUE_DESK: "an der Ligaleitung (/liga NAME macht einen Chat dazu)",
    PlaceKind.LEAGUE_TABLE: "am Tisch eines Spieltags (/tisch CODE aus dem Sitzplan)",
    PlaceKind.HOST: "im Chat des Ausrichters (/ausrichter CODE)",
}


@dataclass(frozen=True)
class Asker:
    """Who sent the update, as the use case needs it."""

    user_id: int | None  # None: nobody (a placeholder without sender chat)
    name: str
    is_admin: bool  # asked from Telegram for routes whose right may need it
    named_users: tuple[tuple[int, str], ...] = ()  # Command.named_users
    update_id: int = 0
    message_id: int | None = None  # the tapped message (buttons) or the replied-to one
    source_message_id: int | None = None  # the asker's own message (commands)


@dataclass(frozen=True)
class Place:
    """The place an update belongs to, its kind decided once, with what makes it that kind
    (the desk's tournament or league, the hosted day, the table), and the asker there."""

    id: int
    kind: PlaceKind
    facts: PlaceFacts
    asker: Asker
    title: str = ""
    thread_id: int = 0  # the forum topic (0: none)
    telegram_chat_id: int = 0
    is_forum: bool = False
    bot_username: str = ""
    app_ready: bool = False  # Command.app_ready: the Mini App's button can be offered here

    @property
    def here(self) -> str:
        """ "diesem Thema" in a forum topic (a place of its own), else "diesem Chat"."""
        return "diesem Thema" if self.thread_id else "diesem Chat"

    @property
    def tournament(self) -> Tournament | None:
        return self.facts.tournament

    @property
    def league(self) -> League | None:
        return self.facts.league


def kind_of(facts: PlaceFacts) -> PlaceKind:
    """A desk first (its commands must never go to a list), then a host's day today, then
    the table whose list the place keeps. A place holding a tournament and a league from
    before they excluded each other is what it was first (a later tournament blocks no
    league; an ended one neither)."""
    t, league = facts.tournament, facts.league
    if t is not None and not (
        league is not None and (t.closed_at is not None or league.created_at <= t.created_at)
    ):
        return PlaceKind.TOURNAMENT_DESK
    if league is not None:
        return PlaceKind.LEAGUE_DESK
    day = facts.hosted_day
    if day is not None and day.approved_at is None and day.play_date == berlin_date(None):
        return PlaceKind.HOST
    if facts.table_link is not None:
        return PlaceKind.TOURNAMENT_TABLE
    if facts.league_table is not None:
        return PlaceKind.LEAGUE_TABLE
    return PlaceKind.LISTS


def place_of(session: Session, cmd: Command) -> Place:
    facts = place_facts.facts_of(session, cmd.place_id)
    asker = Asker(
        cmd.user_id,
        cmd.user_name,
        cmd.is_admin,
        cmd.named_users,
        cmd.update_id,
        cmd.message_id,
        cmd.source_message_id,
    )
    return Place(
        cmd.place_id,
        kind_of(facts),
        facts,
        asker,
        cmd.chat_title,
        cmd.thread_id,
        cmd.telegram_chat_id,
        cmd.is_forum,
        cmd.bot_username,
        cmd.app_ready,
    )


def command_at(place: Place, text: str) -> Command:
    """``text`` as the place's asker sent it, for the code that still reads a ``Command``
    (the sheet's list picking, the confirmation questions, a table's topics): the one way
    back from a place to a Command."""
    asker = place.asker
    return Command(
        place_id=place.id,
        chat_title=place.title,
        user_id=asker.user_id,
        user_name=asker.name,
        update_id=asker.update_id,
        args=tuple(text.split()[1:]),
        text=text,
        message_id=asker.message_id,
        is_admin=asker.is_admin,
        source_message_id=asker.source_message_id,
        thread_id=place.thread_id,
        telegram_chat_id=place.telegram_chat_id,
        is_forum=place.is_forum,
        bot_username=place.bot_username,
        named_users=asker.named_users,
    )


def not_served(command: str, place: Place, kinds: Iterable[PlaceKind]) -> RuleError:
    """The refusal of ``/command`` at a place of a kind it does not serve: what the place is,
    and where the command works (short: a chat with lists covers a host's chat, both tables
    are one phrase)."""
    served = set(kinds)
    if PlaceKind.LISTS in served:
        served.discard(PlaceKind.HOST)
    where = [_WHERE[k] for k in PlaceKind if k in served and k not in _TABLES]
    tables = served & _TABLES
    if tables == _TABLES:
        where.append("am Tisch eines Turniers oder Spieltags (/tisch CODE)")
    elif tables:
        where.append(_WHERE[tables.pop()])
    this = "dieses Thema" if place.thread_id else "dieser Chat"
    return RuleError(
        f"/{command} gilt hier nicht – {this} ist {_IS[place.kind]}.",
        hint=f"/{command} geht " + " oder ".join(where) + ". Nichts wurde geändert.",
    )


_TABLES: Final = frozenset({PlaceKind.TOURNAMENT_TABLE, PlaceKind.LEAGUE_TABLE})
