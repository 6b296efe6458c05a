"""A match day: ``/spieltag`` opens it with every team's line-up, ``/aufstellung`` changes the
line-up for series 1 (which fixes the day's seating), ``/setzen`` seats the next series,
``/sitzplan`` shows one, ``/wechsel`` substitutes between or during a series.

The routes declare where each command works and who may (``common.rights``); this module
parses the words and decides, ``texts`` puts the results in words.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from skatbot.rules import league as lg
from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError, TournamentError
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.storage import league as league_store
from skatbot.storage.league_models import League, LeaguePlayer, LeagueTable, LeagueTeam, MatchDay
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Call, Command, NewTopic
from skatbot.usecases.league import texts
from skatbot.usecases.league.access import named_team
from skatbot.usecases.league.common import (
    DATE_FORM,
    RESULT_EXAMPLE,
    SEED_DIGITS,
    TEAM_EXAMPLE,
    DayState,
    current_day,
    day_label,
    desk_at,
    load_day,
    open_day,
    parse_date,
    reading_desk,
    refuse_other_team,
    refuse_twice_in_squads,
    running_desk,
    visible_text,
)

# --- /spieltag, /aufstellung ------------------------------------------------------------------


@dataclass(frozen=True)
class OpenDay:
    number: int
    venue: str | None
    play_date: dt.date | None  # None: today


def parse_spieltag(cmd: Command) -> OpenDay:
    words = cmd.rest.split()
    if not words or not is_number(words[0]) or not 1 <= int(words[0]) <= 99:
        raise RuleError("Welcher Spieltag?", hint="Z. B. /spieltag 1 Vereinsheim Reken")
    play_date = None
    if len(words) > 1:  # a date written with other digits is refused, not taken for the place
        refuse_foreign_digits(words[-1], "das Datum", "/spieltag 2 Reken 14.03.2027")
    if len(words) > 1 and DATE_FORM.match(words[-1]):
        play_date = parse_date(words[-1])
        words = words[:-1]
    venue = visible_text(" ".join(words[1:]), "Der Ort", 64) if words[1:] else None
    return OpenDay(int(words[0]), venue, play_date)


def spieltag(session: Session, place: Place, request: OpenDay) -> texts.DayOpened:
    league = place.league
    assert league is not None  # the route serves league desks
    number = request.number
    if any(d.number == number for d in league_store.days(session, league)):
        raise RuleError(
            f"Spieltag {number} gibt es schon.",
            hint=f"Den nächsten anlegen: /spieltag {number + 1}. Lesen: /tabelle {number}.",
        )
    teams = league_store.teams(session, league)
    if len(teams) < 3:
        raise RuleError(
            f"Die Liga hat {len(teams)} Mannschaft(en) – ein Spieltag braucht mindestens 3.",
            hint=f"Mannschaften eintragen: {TEAM_EXAMPLE}",
        )
    squads = league_store.players(session, league)
    refuse_twice_in_squads({t: [p.name for p in ps] for t, ps in squads.items()}, teams)
    play_date = request.play_date or berlin_date(None)
    low = 10 ** (SEED_DIGITS - 1)
    seed = str(low + secrets.randbelow(9 * low))
    day = league_store.add_day(
        session,
        league,
        number=number,
        venue=request.venue,
        seed=seed,
        seated=0,
        created_by=place.asker.user_id,
        play_date=play_date,
        confirmed="{}",
    )
    for team in teams:
        league_store.add_day_team(session, day, team)
        regular = [p.name for p in squads.get(team.id, []) if not p.substitute][:4]
        league_store.replace_lineup(session, day, team, regular, place.asker.user_id)
    return texts.DayOpened(load_day(session, league, day))


@dataclass(frozen=True)
class ShowLineups:
    pass


@dataclass(frozen=True)
class ChangeLineup:
    text: str  # "Nord: Anna, Bernd, Carla" or "Nord fehlt"


def parse_aufstellung(cmd: Command) -> ShowLineups | ChangeLineup:
    text = " ".join(cmd.rest.split())
    return ChangeLineup(text) if text else ShowLineups()


_ABSENT = ("fehlt", "nicht angetreten", "-")


def aufstellung(
    session: Session, place: Place, request: ShowLineups | ChangeLineup
) -> texts.LineupsShown | texts.TeamAbsent | texts.LineupChanged:
    """The line-ups for series 1 (read anywhere the league is); a change by the team's
    captain or whoever runs the day (``TEAM_CAPTAIN``), before series 1 is seated."""
    if isinstance(request, ShowLineups):
        desk = reading_desk(session, place)
        day = current_day(session, desk)
        return texts.LineupsShown(load_day(session, desk.league, day))
    desk = running_desk(session, place)
    league = desk.league
    day = open_day(session, desk)
    team, rest = named_team(session, desk, request.text)
    if day.seated:
        raise RuleError(
            "Die Aufstellung zur 1. Serie legt den Sitzplan des Tages fest – Serie 1 ist "
            "schon gesetzt.",
            hint=f"Spieler tauschen: /wechsel {escape(team.name)} NEU für ALT "
            "(mit „spiel N“ während einer Serie).",
        )
    rows = [r for r in league_store.day_teams(session, day) if r.team_id == team.id]
    # a team entered after the day was opened is not on it yet (it counts as absent)
    on_day = rows[0] if rows else league_store.add_day_team(session, day, team, appeared=False)
    if rest.casefold() in _ABSENT:
        on_day.appeared = False
        league_store.replace_lineup(session, day, team, [], place.asker.user_id)
        return texts.TeamAbsent(team.name, day)
    squad = league_store.players(session, league).get(team.id, [])
    names = _lineup_names(team, squad, rest)
    refuse_other_team(load_day(session, league, day), team, names)
    on_day.appeared = True
    league_store.replace_lineup(session, day, team, names, place.asker.user_id)
    return texts.LineupChanged(load_day(session, league, day))


def _lineup_names(team: LeagueTeam, squad: Sequence[LeaguePlayer], rest: str) -> list[str]:
    """The names of ``rest`` (comma-separated), each one of the team's squad, once."""
    names = []
    known = {p.name.casefold(): p.name for p in squad}
    for item in rest.split(","):
        word = " ".join(item.split())
        if not word:
            continue
        name = known.get(word.casefold())
        if name is None:
            raise RuleError(
                f"„{escape(word[:32])}“ spielt nicht für „{escape(team.name)}“.",
                hint="Spieler: " + ", ".join(escape(p.name) for p in squad) + ". Neue Spieler "
                "trägt die Ligaleitung mit /mannschaft ein. Nichts wurde geändert.",
            )
        if name in names:
            raise RuleError(
                f"„{escape(name)}“ steht doppelt in der Aufstellung.",
                hint="Jeden Namen einmal. Nichts wurde geändert.",
            )
        names.append(name)
    if not 3 <= len(names) <= 4:
        raise RuleError(
            f"{len(names)} Spieler aufgestellt – eine Mannschaft spielt mit 4 (oder 3).",
            hint=f"Z. B. /aufstellung {escape(team.name)}: Anna, Bernd, Carla, Dora. "
            "Nichts wurde geändert.",
        )
    return names


# --- /setzen, /sitzplan -----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatNext:
    pass


def parse_setzen(cmd: Command) -> SeatNext:
    return SeatNext()


def setzen(session: Session, place: Place, request: SeatNext) -> texts.Seated:
    desk = desk_at(session, place)
    league = desk.league
    day = open_day(session, desk)
    state = load_day(session, league, day)
    _refuse_seating(state)
    day.seated += 1
    league_store.add_tables(
        session, day, day.seated, _table_codes(session, len(state.tables(day.seated)))
    )
    codes = table_codes_of(session, day, day.seated)
    topics: tuple[NewTopic, ...] = ()
    if place.is_forum and place.telegram_chat_id:  # a topic per table, its list opened there
        links = league_store.tables(session, day, day.seated)
        topics = tuple(_topic(place, league, day, link) for link in links)
    return texts.Seated(state, codes, topics)


def _refuse_seating(state: DayState) -> None:
    """The next series is seated when the one before is complete, up to the day's last; the
    first one when Anlage 10 can seat the line-ups."""
    league, day = state.league, state.day
    if day.seated >= league.series_per_day:
        raise RuleError(
            f"Alle {league.series_per_day} Serien von {day_label(day)} sind gesetzt.",
            hint="Fehlende Ergebnisse: /ergebnis NAME SPIELPUNKTE GEWONNEN VERLOREN; "
            "dann /freigeben.",
        )
    if day.seated and state.missing(day.seated):
        raise RuleError(
            f"In Serie {day.seated} fehlen noch Ergebnisse: "
            + ", ".join(escape(n) for n in state.missing(day.seated))
            + ".",
            hint="Erst alle eintragen: " + RESULT_EXAMPLE,
        )
    if not day.seated:
        lineups = {t.id: state.first_lineup(t) for t in state.teams if state.appeared.get(t.id)}
        refuse_twice_in_squads(lineups, state.teams, "/aufstellung")
        try:
            lg.plan_tables(state.sizes)  # refuses a layout Anlage 10 cannot seat
        except TournamentError as err:
            raise RuleError(err.problem + ".", hint=err.fix[:1].upper() + err.fix[1:]) from None


def _topic(place: Place, league: League, day: MatchDay, link: LeagueTable) -> NewTopic:
    name = f"{league.name[:80]} · Tag {day.number} S{link.series} Tisch {link.table_no}"
    asker = place.asker
    created = Call(
        "league.topic_created",
        (link.id, asker.user_id, asker.name, place.telegram_chat_id, name),
    )
    refused = Call("league.topic_refused", (link.id,))
    return NewTopic(place.telegram_chat_id, name, created, refused)


def _table_codes(session: Session, count: int) -> list[str]:
    """Codes for ``/tisch``: 7 characters from "L", never one of a Preisskat's (6)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    while True:
        codes = ["L" + "".join(secrets.choice(alphabet) for _ in range(6)) for _ in range(count)]
        if len(set(codes)) == count and not league_store.codes_taken(session, codes):
            return codes


def table_codes_of(session: Session, day: MatchDay, series: int) -> dict[int, str]:
    return {t.table_no: t.code for t in league_store.tables(session, day, series)}


@dataclass(frozen=True)
class ShowSeating:
    series: str | None  # the word naming a series (None: the latest)


def parse_sitzplan(cmd: Command) -> ShowSeating:
    return ShowSeating(cmd.args[0] if cmd.args else None)


def sitzplan(session: Session, place: Place, request: ShowSeating) -> texts.SeatingShown:
    desk = reading_desk(session, place)
    day = current_day(session, desk)
    if not day.seated:
        raise RuleError(
            f"{day_label(day)}: noch keine Serie gesetzt.",
            hint="Die Ligaleitung setzt mit /setzen.",
        )
    series = day.seated
    word = request.series
    if word is not None:
        if not is_number(word) or not 1 <= int(word) <= day.seated:
            raise RuleError(
                f"Serie „{escape(word[:8])}“ gibt es nicht.",
                hint=f"Gesetzt: Serie 1 bis {day.seated}, z. B. /sitzplan 1.",
            )
        series = int(word)
    state = load_day(session, desk.league, day)
    return texts.SeatingShown(state, series, table_codes_of(session, day, series))


# --- /wechsel ---------------------------------------------------------------------------------

_SUBSTITUTION = re.compile(
    r"^(?P<new>.+?)\s+f(?:ü|ue)r\s+(?P<old>.+?)(?:\s+(?:ab\s+)?spiel\s+(?P<game>\S+))?$",
    re.IGNORECASE,
)
WECHSEL_EXAMPLE = (
    "/wechsel Nord Erik für Anna – während einer Serie: /wechsel Nord Erik für Anna spiel 17"
)


@dataclass(frozen=True)
class Substitute:
    text: str  # "Nord Erik für Anna [spiel 17]"


def parse_wechsel(cmd: Command) -> Substitute:
    text = " ".join(cmd.rest.split())
    if not text:
        raise RuleError("Wer wechselt für wen?", hint=WECHSEL_EXAMPLE)
    return Substitute(text)


@dataclass(frozen=True)
class _Change:
    """A substitution understood: who comes for whom, from which series (and game)."""

    team: LeagueTeam
    new: str
    old: str
    series: int
    game_word: str | None  # "spiel N": during the series
    game: int | None = None

    @property
    def during(self) -> bool:
        return self.game_word is not None

    @property
    def retry(self) -> str:
        return f"/wechsel {escape(self.team.name)} {escape(self.new)} für {escape(self.old)}"


def wechsel(session: Session, place: Place, request: Substitute) -> texts.Substituted:
    """A substitution between series (from the next one) or during one (from a game on);
    by the team's captain or whoever runs the day (``TEAM_CAPTAIN``)."""
    desk = desk_at(session, place)
    day = open_day(session, desk)
    team, rest = named_team(session, desk, request.text)
    found = _SUBSTITUTION.match(rest)
    if not found:
        raise RuleError("Das verstehe ich nicht als Wechsel.", hint=WECHSEL_EXAMPLE)
    if not day.seated:
        raise RuleError(
            "Vor der 1. Serie ist das kein Wechsel, sondern die Aufstellung.",
            hint=f"/aufstellung {escape(team.name)}: A, B, C, D",
        )
    state = load_day(session, desk.league, day)
    new, old = _squad_names(session, state, team, found)
    refuse_other_team(state, team, [new])
    change = _when(state, team, new, old, found.group("game"))
    seat = _seat_of(state, change)
    league_store.add_substitution(
        session, day, team, seat.slot, new, change.series, change.game, place.asker.user_id
    )
    return texts.Substituted(team.name, new, old, change.series, change.game)


def _squad_names(
    session: Session, state: DayState, team: LeagueTeam, found: re.Match[str]
) -> tuple[str, str]:
    """The new and the old player as the squad spells them."""
    squad = league_store.players(session, state.league).get(team.id, [])
    known = {p.name.casefold(): p.name for p in squad}
    names = []
    for word in (found.group("new"), found.group("old")):
        name = known.get(word.casefold())
        if name is None:
            raise RuleError(
                f"„{escape(word[:32])}“ spielt nicht für „{escape(team.name)}“.",
                hint="Spieler: "
                + ", ".join(escape(p.name) for p in squad)
                + ". Nichts wurde geändert.",
            )
        names.append(name)
    return names[0], names[1]


def _when(state: DayState, team: LeagueTeam, new: str, old: str, game_word: str | None) -> _Change:
    """Between series: from the next one (if any is left); during one: the running series,
    if the league allows it and the series is not complete yet."""
    league, day = state.league, state.day
    if game_word is None:
        change = _Change(team, new, old, day.seated + 1, None)
        if change.series > league.series_per_day:
            raise RuleError(
                "Nach der letzten Serie gibt es keinen Wechsel zwischen den Serien mehr.",
                hint=f"Während der Serie {day.seated}: {change.retry} spiel N",
            )
        return change
    game = int(game_word) if is_number(game_word) else None
    change = _Change(team, new, old, day.seated, game_word, game)
    if league.substitutions == "zwischen":
        raise RuleError(
            "In dieser Liga wird nur zwischen den Serien gewechselt.",
            hint=f"Ab der nächsten Serie: {change.retry} (ohne „spiel N“).",
        )
    if state.complete(change.series):
        raise RuleError(
            f"Serie {change.series} ist schon fertig eingetragen.",
            hint=f"Wechsel zur nächsten Serie: {change.retry}",
        )
    return change


def _seat_of(state: DayState, change: _Change) -> lg.Seat:
    """The old player's seat (who sits there now: during a series its last player, between
    series the first of the next); during a series the game checked against it."""
    team, series = change.team, change.series
    seats = [lg.Seat(team.name, slot) for slot in range(1, state.sizes.get(team.name, 0) + 1)]
    current = {seat: state.occupants(series, seat)[-1 if change.during else 0][0] for seat in seats}
    seat = next((s for s, name in current.items() if name == change.old), None)
    if seat is None:
        raise RuleError(
            f"„{escape(change.old)}“ spielt gerade nicht für „{escape(team.name)}“.",
            hint="Es spielen: " + ", ".join(escape(n) for n in current.values()) + ".",
        )
    if change.new in current.values():
        raise RuleError(
            f"„{escape(change.new)}“ spielt schon.",
            hint="Für wen kommt die Person? " + WECHSEL_EXAMPLE,
        )
    if change.during:
        _check_game(state, change, seat)
    return seat


def _check_game(state: DayState, change: _Change, seat: lg.Seat) -> None:
    table = next(t for t in state.tables(change.series) if seat in t)
    games = state.games(len(table))
    game = change.game
    if game is None or not 2 <= game <= games:
        raise RuleError(
            f"Spiel „{escape((change.game_word or '')[:8])}“ gibt es in dieser Serie nicht.",
            hint=f"Die Nummer des ersten Spiels der neuen Person: 2 bis {games}.",
        )
    earlier = state.occupants(change.series, seat)[-1][1]
    if game <= earlier:
        raise RuleError(
            f"„{escape(change.old)}“ spielt erst ab Spiel {earlier}.",
            hint=f"Ein späteres Spiel als {earlier} angeben.",
        )
