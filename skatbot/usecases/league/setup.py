"""Setting a league up: ``/liga`` (the league and its settings), ``/mannschaft`` (teams, their
players and substitutes), ``/kapitaen`` (a team's captain by a one-time code sent to the person
the management names, ``roles``) and ``/ausrichter`` (a decentral day's host, on that day only,
the same way).

The routes declare where each command works and who may (``common.rights``); this module
parses the words and decides, ``texts`` puts the results in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from skatbot.rules import league as lg
from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError
from skatbot.rules.money import parse_amount, whole_cents
from skatbot.rules.numbers import is_number
from skatbot.storage import league as league_store
from skatbot.storage import lists as lists_store
from skatbot.storage.database import ensure_chat
from skatbot.storage.league_models import League, LeaguePlayer, LeagueTeam, MatchDay, RoleCode
from skatbot.storage.unit import Session
from skatbot.usecases.common.names import clean_name
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.league import roles, texts
from skatbot.usecases.league.common import (
    MAX_LEAGUE_NAME,
    MAX_SERIES,
    MAX_TEAM_NAME,
    MAX_TEAM_PLAYERS,
    TEAM_EXAMPLE,
    date_text,
    day_label,
    find_team,
    open_day,
    team_prefix,
    visible_text,
)

# --- /liga ------------------------------------------------------------------------------------

_SETTINGS = ("serien", "mindestens", "verlustspiel", "reihenfolge", "wechsel", "matchpunkte")
_SUBSTITUTIONS = ("immer", "zwischen")


@dataclass(frozen=True)
class ShowLeague:
    pass


@dataclass(frozen=True)
class NameLeague:
    name: str


@dataclass(frozen=True)
class ChangeSetting:
    field: str  # the League column
    value: int | str


def parse_liga(cmd: Command) -> ShowLeague | ChangeSetting | NameLeague:
    """At a league desk: the overview, a setting (``/liga serien 4``), or a second name."""
    words = cmd.rest.split()
    if not words:
        return ShowLeague()
    if words[0].casefold() in _SETTINGS:
        return _SETTING_PARSERS[words[0].casefold()](" ".join(words[1:]))
    return NameLeague(" ".join(words))


def parse_new_league(cmd: Command) -> ShowLeague | NameLeague:
    """Where a league may start: its name (every word of it, ``serien`` too)."""
    rest = " ".join(cmd.rest.split())
    if not rest:
        return ShowLeague()
    return NameLeague(visible_text(rest, "Der Name der Liga", MAX_LEAGUE_NAME))


def _series(value: str) -> ChangeSetting:
    if not is_number(value) or not 1 <= int(value) <= MAX_SERIES:
        raise RuleError(
            "Wie viele Serien je Spieltag?",
            hint=f"Eine Zahl von 1 bis {MAX_SERIES}, z. B. /liga serien 3.",
        )
    return ChangeSetting("series_per_day", int(value))


def _min_share(value: str) -> ChangeSetting:
    digits = value.rstrip("%").strip()
    if not is_number(digits) or not 0 <= int(digits) <= 100:
        raise RuleError(
            "Welcher Mindestanteil an Spielen für die Einzelwertung?",
            hint="Prozent von 0 bis 100, z. B. /liga mindestens 50.",
        )
    return ChangeSetting("min_share", int(digits))


def _substitutions(value: str) -> ChangeSetting:
    policy = value.casefold()
    if policy not in _SUBSTITUTIONS:
        raise RuleError(
            "Wann darf gewechselt werden?",
            hint="/liga wechsel immer (auch während einer Serie, mit Spielnummer) oder "
            "/liga wechsel zwischen (nur zwischen den Serien).",
        )
    return ChangeSetting("substitutions", policy)


def _match_points(value: str) -> ChangeSetting:
    if not is_number(value) or not 1 <= int(value) <= 10:
        raise RuleError(
            "Wie viele Matchpunkte je geschlagener Mannschaft?",
            hint="Eine Zahl von 1 bis 10, z. B. /liga matchpunkte 1 (DSkV: 3:0, 2:1, 1:2, 0:3) "
            "oder /liga matchpunkte 2.",
        )
    return ChangeSetting("match_points_per_team", int(value))


def _order(value: str) -> ChangeSetting:
    order = value.casefold()
    if order not in lg.ORDERS:
        raise RuleError(
            "Wonach soll die Tabelle ordnen?",
            hint="/liga reihenfolge matchpunkte (dann Spielpunkte) oder "
            "/liga reihenfolge spielpunkte (dann Matchpunkte).",
        )
    return ChangeSetting("ranking_order", order)


def _lost_fee(value: str) -> ChangeSetting:
    amount = parse_amount(value, what="Verlustspielgeld", example="0,50 €")
    return ChangeSetting("lost_fee_cents", whole_cents(amount, what="Verlustspielgeld"))


_SETTING_PARSERS: dict[str, Callable[[str], ChangeSetting]] = {
    "serien": _series,
    "mindestens": _min_share,
    "wechsel": _substitutions,
    "matchpunkte": _match_points,
    "reihenfolge": _order,
    "verlustspiel": _lost_fee,
}


def liga(
    session: Session, place: Place, request: ShowLeague | ChangeSetting | NameLeague
) -> texts.LeagueShown | texts.SettingSaved:
    """/liga at its desk: the overview, a setting (the management), never a second league."""
    league = place.league
    assert league is not None  # the route serves league desks here
    if isinstance(request, ShowLeague):
        days = tuple(league_store.days(session, league))
        return texts.LeagueShown(league, _squads(session, league), days)
    if isinstance(request, ChangeSetting):
        setattr(league, request.field, request.value)
        return texts.SettingSaved(league)
    raise RuleError(
        f"In {place.here} gibt es schon die Liga „{escape(league.name)}“.",
        hint="Eine Liga je Chat – für eine zweite ein anderes Thema oder einen anderen Chat "
        "nehmen. Einstellungen: /liga serien 4 · /liga mindestens 50 · /liga verlustspiel "
        "0,50 € · /liga reihenfolge spielpunkte · /liga wechsel zwischen",
    )


def new_league(
    session: Session, place: Place, request: ShowLeague | NameLeague
) -> texts.LeagueStarted:
    """/liga NAME where lists are kept: this place becomes the league's desk."""
    if isinstance(request, ShowLeague):
        raise RuleError(
            f"In {place.here} gibt es keine Liga.", hint="Lege eine an: /liga Landesliga Nord"
        )
    hosted = place.facts.hosted_day
    if hosted is not None:  # a league here would hide the day its host runs
        raise RuleError(
            f"Hier wird {day_label(hosted)} einer anderen Liga ausgerichtet – hier entsteht "
            "keine eigene Liga.",
            hint="Für eine eigene Liga ein anderes Thema oder einen anderen Chat nehmen.",
        )
    ensure_chat(session, place.id)
    if lists_store.open_list(session, place.id) is not None:
        raise RuleError(
            f"In {place.here} läuft noch eine Liste.",
            hint="Schließ sie zuerst mit /abschluss ab, dann /liga NAME.",
        )
    league = league_store.add_league(
        session,
        chat_id=place.id,
        name=request.name,
        created_by=place.asker.user_id,
        created_by_name=place.asker.name,
        series_per_day=3,
        games_3=36,
        games_4=48,
        min_share=50,
        lost_fee_cents=0,
        ranking_order="matchpunkte",
        substitutions="immer",
    )
    return texts.LeagueStarted(league)


def _squads(session: Session, league: League) -> tuple[texts.Squad, ...]:
    """Every team of the league with its players."""
    players = league_store.players(session, league)
    return tuple((t, tuple(players.get(t.id, []))) for t in league_store.teams(session, league))


# --- /mannschaft ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShowTeams:
    pass


@dataclass(frozen=True)
class TeamLine:
    name: str
    regular: tuple[str, ...]
    subs: tuple[str, ...]

    @property
    def players(self) -> tuple[str, ...]:
        return self.regular + self.subs


@dataclass(frozen=True)
class EnterTeams:
    lines: tuple[TeamLine, ...]


def parse_mannschaft(cmd: Command) -> ShowTeams | EnterTeams:
    lines = [" ".join(line.split()) for line in cmd.rest.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return ShowTeams()
    return EnterTeams(tuple(_parse_team_line(line) for line in lines))


def _team_name(head: str) -> str:
    team = visible_text(head, "Der Name der Mannschaft", MAX_TEAM_NAME)
    if any(c in team for c in "#,[]"):
        raise RuleError(
            f"Der Mannschaftsname „{escape(team)}“ enthält #, Komma oder Klammern.",
            hint="Bitte ohne diese Zeichen.",
        )
    return team


def _players(body: str) -> tuple[list[str], list[str]]:
    """The regular players and, after the word ``Ersatz``, the substitutes."""
    regular: list[str] = []
    subs: list[str] = []
    in_subs = False
    for item in body.split(","):
        words = item.split()
        if words and words[0].casefold() in ("ersatz", "ersatz:"):
            in_subs = True
            words = words[1:]
        if words:
            (subs if in_subs else regular).append(clean_name(" ".join(words)))
    return regular, subs


def _parse_team_line(line: str) -> TeamLine:
    if ":" not in line:
        raise RuleError(
            f"„{escape(line[:40])}“: Name und Spieler trennt ein Doppelpunkt.",
            hint=f"Z. B. {TEAM_EXAMPLE}",
        )
    head, _, body = line.partition(":")
    team = _team_name(head)
    regular, subs = _players(body)
    seen: set[str] = set()
    for person in regular + subs:
        if person.casefold() in seen:
            raise RuleError(
                f"„{escape(person)}“ steht zweimal bei „{escape(team)}“.",
                hint="Jeden Namen nur einmal – bei Namensgleichheit einen Buchstaben anhängen "
                f"(Anna B.). Z. B. {TEAM_EXAMPLE}. Nichts wurde gespeichert.",
            )
        seen.add(person.casefold())
    if len(regular) < 3:
        raise RuleError(
            f"„{escape(team)}“ hat {len(regular)} Stammspieler – eine Mannschaft braucht "
            "mindestens 3.",
            hint=f"Z. B. {TEAM_EXAMPLE}",
        )
    if len(regular) + len(subs) > MAX_TEAM_PLAYERS:
        raise RuleError(
            f"„{escape(team)}“ hat mehr als {MAX_TEAM_PLAYERS} Spieler.",
            hint="Bitte die Liste kürzen.",
        )
    return TeamLine(team, tuple(regular), tuple(subs))


def mannschaft(
    session: Session, place: Place, request: ShowTeams | EnterTeams
) -> texts.TeamsShown | texts.TeamsEntered:
    league = place.league
    assert league is not None  # the route serves league desks
    teams = league_store.teams(session, league)
    if isinstance(request, ShowTeams):
        if not teams:
            raise RuleError("Noch keine Mannschaften.", hint=f"Z. B. {TEAM_EXAMPLE}")
        return texts.TeamsShown(_squads(session, league))
    _refuse_too_many_teams(teams, request.lines)
    _refuse_names_of_other_teams(league_store.players(session, league), teams, request.lines)
    stored = [_store_team(session, league, teams, line) for line in request.lines]
    players = league_store.players(session, league)
    return texts.TeamsEntered(
        tuple((team, tuple(players.get(team.id, []))) for team, _ in stored),
        frozenset(team.id for team, new in stored if new),
    )


def _refuse_too_many_teams(teams: Sequence[LeagueTeam], lines: Sequence[TeamLine]) -> None:
    known = {t.name.casefold() for t in teams}
    new_teams = {line.name.casefold() for line in lines} - known
    if len(known) + len(new_teams) > lg.MAX_TEAMS:
        raise RuleError(
            f"Eine Liga hier ist eine Spieltagsgruppe: höchstens {lg.MAX_TEAMS} Mannschaften, "
            "die sich an jedem Spieltag treffen.",
            hint="Für mehr Mannschaften je Gruppe eine eigene Liga (ein eigenes Thema oder "
            "einen eigenen Chat). Nichts wurde gespeichert.",
        )


def _refuse_names_of_other_teams(
    squads: dict[int, list[LeaguePlayer]], teams: Sequence[LeagueTeam], lines: Sequence[TeamLine]
) -> None:
    """A name plays for one team of the league (the teams entered now replace their squads)."""
    changing = {line.name.casefold() for line in lines}
    owner: dict[str, str] = {
        p.name.casefold(): t.name
        for t in teams
        if t.name.casefold() not in changing
        for p in squads.get(t.id, [])
    }
    for line in lines:
        for person in line.players:
            other = owner.get(person.casefold())
            if other is not None and other != line.name:
                raise RuleError(
                    f"„{escape(person)}“ steht schon bei „{escape(other)}“.",
                    hint="Jeder Name nur einmal in der Liga – bei Namensgleichheit einen "
                    "Buchstaben anhängen (Anna B.). Nichts wurde gespeichert.",
                )
            owner[person.casefold()] = line.name


def _store_team(
    session: Session, league: League, teams: list[LeagueTeam], line: TeamLine
) -> tuple[LeagueTeam, bool]:
    """The team of ``line`` with its players, and whether it is new."""
    team = find_team(teams, line.name)
    new = team is None
    if team is None:
        team = league_store.add_team(session, league, line.name)
        teams.append(team)
    league_store.set_players(session, team, list(line.regular), list(line.subs))
    return team, new


# --- /ausrichter, /kapitaen: a role by a code sent to one person ---------------------------------


@dataclass(frozen=True)
class RedeemCode:
    code: str


@dataclass(frozen=True)
class NameHost:
    words: str  # the person, if not named by an answered message or a mention


@dataclass(frozen=True)
class NameCaptain:
    words: str  # the team, then the person if not named otherwise


def _single_word(cmd: Command) -> str:
    return cmd.args[0].upper() if len(cmd.args) == 1 else ""


def parse_ausrichter(cmd: Command) -> RedeemCode | NameHost:
    """At the league's desk: the management names the host; a code is a host's own."""
    typed = _single_word(cmd)
    if roles.HOST_CODE.fullmatch(typed):
        return RedeemCode(typed)
    return NameHost(" ".join(cmd.args))


def parse_host_code(cmd: Command) -> RedeemCode:
    typed = _single_word(cmd)
    if not typed:
        raise RuleError(
            "Welcher Ausrichter-Code?",
            hint="Z. B. /ausrichter A7F3Q2X9 – den Code schickt dir die Ligaleitung privat.",
        )
    return RedeemCode(typed)


def ausrichter(
    session: Session, place: Place, request: RedeemCode | NameHost
) -> Reply | texts.HostLinked:
    """At the league's desk the management names a decentral day's host (the code goes to
    that person alone); in the host's chat the host links it to the day with the code
    (valid on the day's date)."""
    if isinstance(request, NameHost):
        league = place.league
        assert league is not None  # only the desk's parser names a host
        day = open_day(session, league)
        return roles.hand_out_host(session, place, league, day, request.words)
    code = roles.redeem(session, place, request.code, roles.HOST)
    assert code.day_id is not None  # a host's code names its day (deleted with it)
    day = league_store.day_by_id(session, code.day_id)
    if day.play_date != berlin_date(None):
        raise RuleError(
            f"Der Code gilt nur am {date_text(day.play_date)} ({day_label(day)}).",
            hint="Bitte an diesem Tag senden. Nichts wurde geändert.",
        )
    if place.league is not None:
        raise RuleError(
            "Hier ist die Ligaleitung selbst – hier braucht es keinen Ausrichter.",
            hint="Den Code im Chat des Ausrichters senden.",
        )
    if (place.telegram_chat_id or place.id) > 0:
        raise RuleError(
            "Den Spieltag führt ihr in einer Gruppe, nicht im privaten Chat mit mir.",
            hint=f"Den Code in der Gruppe für den Spieltag senden: /ausrichter {code.code}",
        )
    return _link_host(session, place, code, day)


def _link_host(session: Session, place: Place, code: RoleCode, day: MatchDay) -> texts.HostLinked:
    asker = place.asker
    assert asker.user_id is not None  # roles.redeem refuses anonymous senders
    ensure_chat(session, place.id)
    roles.use(code)
    day.host_chat_id = place.id
    day.host_user_id = asker.user_id
    day.host_name = asker.name
    return texts.HostLinked(asker.name, day)


def _captain_words(cmd: Command) -> str:
    if not cmd.args:
        raise RuleError(
            "Welcher Kapitäns-Code?",
            hint="Z. B. /kapitaen K7F3Q2X9 – den Code schickt dir die Ligaleitung privat.",
        )
    return _single_word(cmd)


def parse_kapitaen(cmd: Command) -> RedeemCode | NameCaptain:
    """At the league's desk: the management names a team's captain; a code is a captain's."""
    typed = _captain_words(cmd)
    if roles.CAPTAIN_CODE.fullmatch(typed):
        return RedeemCode(typed)
    return NameCaptain(" ".join(cmd.args))


def parse_captain_code(cmd: Command) -> RedeemCode:
    """Anywhere else: the words are a code (a wrong one is refused as unknown)."""
    typed = _captain_words(cmd)
    return RedeemCode(typed or " ".join(cmd.args))


def kapitaen(
    session: Session, place: Place, request: RedeemCode | NameCaptain
) -> Reply | texts.CaptainBound:
    """``/kapitaen TEAM`` at the league's desk (the management, naming the person: the code
    goes to them alone); ``/kapitaen CODE`` anywhere, by that person: they are the captain."""
    if isinstance(request, NameCaptain):
        league = place.league
        assert league is not None  # only the desk's parser names a captain
        team, rest = team_prefix(league_store.teams(session, league), request.words)
        return roles.hand_out_captain(session, place, league, team, rest)
    code = roles.redeem(session, place, request.code, roles.CAPTAIN)
    captained = league_store.team_by_id(session, code.team_id) if code.team_id is not None else None
    assert captained is not None  # a captain's code names its team (deleted with it)
    asker = place.asker
    assert asker.user_id is not None  # roles.redeem refuses anonymous senders
    roles.use(code)
    captained.captain_user_id = asker.user_id
    captained.captain_name = asker.name
    return texts.CaptainBound(asker.name, captained.name)
