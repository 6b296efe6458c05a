"""What every league command shares: the desk (the league and where it is run), the rights
checks, the state of a match day replayed from its rows, and the texts of dates and days.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from skatbot.rules import league as lg
from skatbot.rules.errors import RuleError
from skatbot.storage import league as league_store
from skatbot.storage.league_models import (
    DayResult,
    League,
    LeagueTeam,
    LineupEntry,
    MatchDay,
)
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place, PlaceKind

MAX_LEAGUE_NAME = 64
MAX_TEAM_NAME = 48
MAX_TEAM_PLAYERS = 12
MAX_SERIES = 6
SEED_DIGITS = 6
BINDING_DAYS = 14  # DSkV: a published table is binding 14 days after the match day
READABLE = "/tabelle, /einzelwertung, /sitzplan, /aufstellung"
TEAM_EXAMPLE = "/mannschaft Nord: Anna, Bernd, Carla, Dora, Ersatz Erik"
RESULT_EXAMPLE = "/ergebnis Anna 345 12 3 (Name, Spielpunkte, gewonnen, verloren)"


# --- helpers ----------------------------------------------------------------------------------


def visible_text(text: str, what: str, limit: int) -> str:
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise RuleError(f"{what} fehlt.", hint="Z. B. /liga Landesliga Nord Gruppe 2")
    if len(name) > limit:
        raise RuleError(f"{what} ist zu lang.", hint=f"Höchstens {limit} Zeichen.")
    if any(unicodedata.category(c) in ("Cc", "Cf") and c != "\u200d" for c in name):
        raise RuleError(f"{what} enthält Steuerzeichen.", hint="Nur sichtbare Zeichen verwenden.")
    return name


@dataclass(frozen=True)
class Desk:
    """Where a match-day command was sent: the league's desk, or a host's chat linked to one
    day with /ausrichter (``day`` set)."""

    league: League
    day: MatchDay | None = None


def desk_at(session: Session, place: Place) -> Desk:
    """The league a command serves at ``place``: the desk's own; at a host's chat (or a
    former one, for reading) the league of the day it hosts."""
    if place.league is not None:
        return Desk(place.league)
    day = place.facts.hosted_day
    assert day is not None  # the routes serve a desk or a host's chat here
    return Desk(league_store.league_by_id(session, day.league_id), day)


def reading_desk(session: Session, place: Place) -> Desk:
    """Reading also works where a day was hosted on another date (a place with lists
    now): its league; elsewhere there is none."""
    if place.league is None and place.facts.hosted_day is None:
        raise RuleError(
            f"In {place.here} gibt es keine Liga.",
            hint="Lege eine an: /liga Landesliga Nord – oder richte einen Spieltag aus: "
            "/ausrichter CODE (den Code schickt die Ligaleitung privat).",
        )
    return desk_at(session, place)


def running_desk(session: Session, place: Place) -> Desk:
    """For a change at a place that serves reading too: a desk, or a host's chat on its
    day; a former host's chat is refused with its date."""
    desk = reading_desk(session, place)
    if place.kind in (PlaceKind.LEAGUE_DESK, PlaceKind.HOST) or desk.day is None:
        return desk
    here = place.here[0].upper() + place.here[1:]
    raise RuleError(
        f"{here} richtet {day_label(desk.day)} am {date_text(desk.day.play_date)} aus – nur "
        "an diesem Tag.",
        hint="Lesen geht jederzeit: /tabelle, /sitzplan. Sonst die Ligaleitung fragen.",
    )


def date_text(day: dt.date | None) -> str:
    return day.strftime("%d.%m.%Y") if day else "?"


def find_team(teams: Sequence[LeagueTeam], word: str) -> LeagueTeam | None:
    key = word.casefold()
    exact = [t for t in teams if t.name.casefold() == key]
    return exact[0] if exact else None


def team_prefix(teams: Sequence[LeagueTeam], text: str) -> tuple[LeagueTeam, str]:
    """The team named at the start of ``text`` (optionally followed by ``:``) and the rest."""
    folded = text.casefold()
    for team in sorted(teams, key=lambda t: -len(t.name)):
        name = team.name.casefold()
        if folded.startswith(name):
            rest = text[len(name) :]
            if not rest or rest[0] in ": \t\n":
                return team, rest.lstrip(": \t\n")
    first = text.split(":")[0].split()[0] if text.split() else text
    names = ", ".join(escape(t.name) for t in teams) or "noch keine"
    raise RuleError(
        f"„{escape(first[:32])}“ ist keine Mannschaft dieser Liga.",
        hint=f"Mannschaften: {names}.",
    )


def day_label(day: MatchDay) -> str:
    where = f" in {escape(day.venue)}" if day.venue else ""
    return f"Spieltag {day.number}{where}"


# --- the state of a match day -----------------------------------------------------------------


@dataclass
class DayState:
    """A match day with everything its texts and tables need, read once."""

    league: League
    day: MatchDay
    teams: list[LeagueTeam]
    appeared: dict[int, bool]
    log: list[LineupEntry]
    results: dict[int, dict[str, DayResult]]
    _seating: list[list[list[lg.Seat]]] | None = field(default=None, repr=False)

    @property
    def by_name(self) -> dict[str, LeagueTeam]:
        return {t.name: t for t in self.teams}

    def first_lineup(self, team: LeagueTeam) -> list[str]:
        """The names of the team's line-up for series 1, by slot."""
        rows = [r for r in self.log if r.team_id == team.id and r.from_series == 1]
        rows = [r for r in rows if r.from_game is None]
        by_slot: dict[int, str] = {}
        for r in rows:
            by_slot.setdefault(r.slot, r.name)
        return [by_slot[s] for s in sorted(by_slot)]

    @property
    def sizes(self) -> dict[str, int]:
        return {
            t.name: len(self.first_lineup(t)) if self.appeared.get(t.id, False) else 0
            for t in self.teams
        }

    def tables(self, series: int) -> list[list[lg.Seat]]:
        """The seating of ``series``; the series before it are computed once (each depends on
        the ones before)."""
        if self._seating is None:
            self._seating = []
        sizes = self.sizes
        while len(self._seating) < series:
            s = len(self._seating) + 1
            self._seating.append(lg.series_seating(sizes, self.day.seed, s, self._seating))
        return self._seating[series - 1]

    def games(self, size: int) -> int:
        return self.league.games_4 if size == 4 else self.league.games_3

    def occupants(self, series: int, seat: lg.Seat) -> list[tuple[str, int]]:
        """Who plays ``seat`` in ``series``: (name, first game), in order."""
        team = self.by_name[seat.team]
        rows = [r for r in self.log if r.team_id == team.id and r.slot == seat.slot]
        start = None
        for r in rows:
            if r.from_series < series or (r.from_series == series and r.from_game is None):
                start = r.name
        out = [(start, 1)] if start is not None else []
        during = [r for r in rows if r.from_series == series and r.from_game is not None]
        for r in sorted(during, key=lambda r: (r.from_game or 0, r.id)):
            out.append((r.name, r.from_game or 1))
        return out

    def names(self, series: int) -> list[str]:
        return [
            name
            for table in self.tables(series)
            for seat in table
            for name, _ in self.occupants(series, seat)
        ]

    def table_of(self, series: int, name: str) -> list[lg.Seat]:
        for table in self.tables(series):
            for seat in table:
                if any(n == name for n, _ in self.occupants(series, seat)):
                    return table
        raise KeyError(name)

    def played(self, series: int, table: Sequence[lg.Seat]) -> list[list[lg.Played]]:
        """The table's seats as :class:`~skatbot.rules.league.Played` (all results in)."""
        games = self.games(len(table))
        entered = self.results.get(series, {})
        seats: list[list[lg.Played]] = []
        for seat in table:
            people = self.occupants(series, seat)
            parts = []
            for i, (name, first) in enumerate(people):
                last = people[i + 1][1] - 1 if i + 1 < len(people) else games
                r = entered[name]
                parts.append(
                    lg.Played(name, seat.team, r.game_points, r.won, r.lost, last - first + 1)
                )
            seats.append(parts)
        return seats

    def missing(self, series: int) -> list[str]:
        entered = self.results.get(series, {})
        return [n for n in self.names(series) if n not in entered]

    def complete(self, series: int) -> bool:
        return 1 <= series <= self.day.seated and not self.missing(series)

    def complete_series(self) -> list[int]:
        return [s for s in range(1, self.day.seated + 1) if self.complete(s)]

    def person_scores(self, series: int) -> list[lg.PersonScore]:
        return [
            p for table in self.tables(series) for p in lg.table_scores(self.played(series, table))
        ]

    def match_points(self, series: int) -> list[lg.TeamSeries]:
        sums: dict[str, int | None] = {
            t.name: (0 if self.appeared.get(t.id, False) else None) for t in self.teams
        }
        for p in self.person_scores(series):
            current = sums[p.team]
            sums[p.team] = (current or 0) + p.score
        return lg.match_points(sums, self.league.match_points_per_team)

    def day_table(self) -> list[lg.DayLine]:
        return lg.day_table(
            [self.match_points(s) for s in self.complete_series()], self.league.ranking_order
        )

    def lost_games(self) -> int:
        return sum(r.lost for s in self.complete_series() for r in self.results.get(s, {}).values())


def refuse_other_team(state: DayState, team: LeagueTeam, names: Sequence[str]) -> None:
    """A name plays for one team on a match day: refused when one of ``names`` is on the
    day's line-up (or substitutions) of another team."""
    others = {r.name.casefold(): r.team_id for r in state.log if r.team_id != team.id}
    teams = {t.id: t for t in state.teams}
    for name in names:
        other = others.get(name.casefold())
        if other is not None:
            raise RuleError(
                f"„{escape(name)}“ spielt an {day_label(state.day)} schon für "
                f"„{escape(teams[other].name)}“.",
                hint="Jeder Name spielt an einem Spieltag für eine Mannschaft. Einen anderen "
                f"Spieler von „{escape(team.name)}“ nehmen; Namensgleiche mit einem Buchstaben "
                "unterscheiden (/mannschaft … Anna B.). Nichts wurde geändert.",
            )


def refuse_twice_in_squads(
    squads: dict[int, list[str]], teams: Sequence[LeagueTeam], command: str = "/mannschaft"
) -> None:
    """Squads (or line-ups) an earlier version stored with a name twice are not seated: the
    name and the team to correct with ``command``."""
    owner: dict[str, LeagueTeam] = {}
    for team in teams:
        for name in squads.get(team.id, []):
            first = owner.setdefault(name.casefold(), team)
            if first is not team or name.casefold() in _twice(squads.get(team.id, [])):
                where = (
                    f"zweimal bei „{escape(team.name)}“"
                    if first is team
                    else f"bei „{escape(first.name)}“ und „{escape(team.name)}“"
                )
                raise RuleError(
                    f"„{escape(name)}“ steht {where}.",
                    hint=f"Bitte korrigieren: {command} {escape(team.name)}: … (jeden Namen "
                    "einmal), dann noch einmal. Nichts wurde geändert.",
                )


def _twice(names: Sequence[str]) -> set[str]:
    folded = [n.casefold() for n in names]
    return {n for n in folded if folded.count(n) > 1}


def load_day(session: Session, league: League, day: MatchDay) -> DayState:
    return DayState(
        league=league,
        day=day,
        teams=league_store.teams(session, league),
        appeared={dt.team_id: dt.appeared for dt in league_store.day_teams(session, day)},
        log=league_store.lineup(session, day),
        results=league_store.results(session, day),
    )


def current_day(session: Session, league: League | Desk) -> MatchDay:
    if isinstance(league, Desk):
        if league.day is not None:
            return league.day
        league = league.league
    days = league_store.days(session, league)
    if not days:
        raise RuleError(
            "Es gibt noch keinen Spieltag.", hint="Lege einen an: /spieltag 1 Vereinsheim"
        )
    return max(days, key=lambda d: d.id)


def open_day(session: Session, league: League | Desk) -> MatchDay:
    day = current_day(session, league)
    if day.approved_at is not None:
        raise RuleError(
            f"{day_label(day)} ist freigegeben und damit abgeschlossen.",
            hint="Nichts wurde geändert. Den nächsten Spieltag legt /spieltag N an.",
        )
    return day


def new_code(prefix: str = "K") -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return prefix + "".join(secrets.choice(alphabet) for _ in range(7))


DATE_FORM = re.compile(r"^\d{1,2}\.\d{1,2}\.\d{4}$", re.ASCII)  # 0-9 only


def parse_date(word: str) -> dt.date:
    d, m, y = (int(x) for x in word.split("."))
    try:
        return dt.date(y, m, d)
    except ValueError:
        raise RuleError(
            f"„{escape(word)}“ ist kein Datum.", hint="Z. B. /spieltag 2 Reken 14.03.2027"
        ) from None
