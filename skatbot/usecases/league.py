"""Use cases of league play (a league's match-day group run from the group leader's chat).

``/liga NAME`` makes the place the league's desk; ``/mannschaft`` enters the teams,
``/kapitaen CODE`` binds a team's captain, ``/spieltag N [Ort] [Datum]`` opens a match day
with every team's line-up, ``/aufstellung`` changes the line-up for series 1 (which fixes the
seating of the day), ``/setzen`` seats the next series, ``/wechsel`` substitutes between or
during a series, ``/ergebnis`` (at a league desk) takes the results, ``/sitzplan`` shows a
series, ``/bestaetigen`` is a captain's confirmation, ``/freigeben`` approves a day and locks
it. A decentral day's host links their own chat with ``/ausrichter CODE`` and runs the day
there on its date. Reading the tables and the PDFs: :mod:`skatbot.usecases.league_documents`;
tables reporting from their own lists: :mod:`skatbot.usecases.league_tables`. The seating,
scores, match points and tables are the pure functions of :mod:`skatbot.rules.league`.

Who may do what: the league's creator and the chat's admins manage everything; a team's
captain may change that team's line-up and substitute its players; a host (and the host
chat's admins) runs their day; reading is for everyone.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from skatbot.rules import league as lg
from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError, TournamentError
from skatbot.rules.money import format_money, parse_amount, whole_cents
from skatbot.rules.scoring import minus_sign
from skatbot.storage import league_repo as repo
from skatbot.storage.database import ensure_chat, lock_chat
from skatbot.storage.league_models import (
    DayResult,
    League,
    LeaguePlayer,
    LeagueTable,
    LeagueTeam,
    LineupEntry,
    MatchDay,
)
from skatbot.storage.unit import Session
from skatbot.usecases.evening import berlin_date
from skatbot.usecases.names import clean_name
from skatbot.usecases.reply import Call, Command, NewTopic, Reply

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


def _rest(cmd: Command) -> str:
    parts = cmd.text.split(None, 1)
    return parts[1] if len(parts) > 1 else ""


def _visible(text: str, what: str, limit: int) -> str:
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise RuleError(f"{what} fehlt.", hint="Z. B. /liga Landesliga Nord Gruppe 2")
    if len(name) > limit:
        raise RuleError(f"{what} ist zu lang.", hint=f"Höchstens {limit} Zeichen.")
    if any(unicodedata.category(c) in ("Cc", "Cf") and c != "\u200d" for c in name):
        raise RuleError(f"{what} enthält Steuerzeichen.", hint="Nur sichtbare Zeichen verwenden.")
    return name


def _require_league(session: Session, cmd: Command) -> League:
    """The league whose desk this place is (the group leader's chat)."""
    league = repo.league_of(session, cmd.chat_id)
    if league is None:
        hosted = repo.hosted_day(session, cmd.chat_id)
        if hosted is not None:
            raise RuleError(
                f"Hier wird nur {day_label(hosted)} ausgerichtet.",
                hint="Das macht die Ligaleitung in ihrem Chat.",
            )
        raise RuleError(
            f"In {cmd.here} gibt es keine Liga.", hint="Lege eine an: /liga Landesliga Nord"
        )
    return league


@dataclass(frozen=True)
class Desk:
    """Where a match-day command was sent: the league's desk, or a host's chat linked to one
    day with /ausrichter (``day`` set; valid on that day's date only)."""

    league: League
    day: MatchDay | None = None


def desk_of(session: Session, cmd: Command, *, reading: bool = False) -> Desk:
    league = repo.league_of(session, cmd.chat_id)
    if league is not None:
        return Desk(league)
    day = repo.hosted_day(session, cmd.chat_id)
    if day is None:
        raise RuleError(
            f"In {cmd.here} gibt es keine Liga.",
            hint="Lege eine an: /liga Landesliga Nord – oder richte einen Spieltag aus: "
            "/ausrichter CODE (den Code nennt /spieltag).",
        )
    league = repo.league_by_id(session, day.league_id)
    if not reading and day.play_date != berlin_date(None):
        raise RuleError(
            f"{cmd.here[0].upper() + cmd.here[1:]} richtet {day_label(day)} am "
            f"{date_text(day.play_date)} aus – nur an diesem Tag.",
            hint="Lesen geht jederzeit: /tabelle, /sitzplan. Sonst die Ligaleitung fragen.",
        )
    return Desk(league, day)


def _is_manager(league: League, cmd: Command) -> bool:
    from skatbot.usecases.admin import owns

    return cmd.is_admin or owns(cmd.user_id, league.created_by)


def _runs(desk: Desk, cmd: Command) -> bool:
    """The league's management at its desk; the host (or the chat's admins) at the host's."""
    if desk.day is None:
        return _is_manager(desk.league, cmd)
    host = desk.day.host_user_id
    return cmd.is_admin or (host is not None and cmd.user_id == host)


def _require_manager(league: League, cmd: Command) -> None:
    if _is_manager(league, cmd):
        return
    who = league.created_by_name or "die Person, die sie angelegt hat"
    raise RuleError(
        f"Die Liga „{escape(league.name)}“ verwalten {escape(who)} (hat /liga aufgerufen) "
        "und die Admins des Chats.",
        hint=f"Lesen geht für alle: {READABLE}.",
    )


def _require_runner(desk: Desk, cmd: Command) -> None:
    if desk.day is None:
        _require_manager(desk.league, cmd)
        return
    if not _runs(desk, cmd):
        raise RuleError(
            f"{day_label(desk.day)} richtet hier {escape(desk.day.host_name or 'der Ausrichter')} "
            "aus (mit /ausrichter); mit ihm die Admins dieses Chats.",
            hint=f"Lesen geht für alle: {READABLE}.",
        )


def _require_captain(desk: Desk, team: LeagueTeam, cmd: Command) -> None:
    """The management (or the host) or the team's captain."""
    if _runs(desk, cmd):
        return
    if team.captain_user_id is not None and cmd.user_id == team.captain_user_id:
        return
    raise RuleError(
        f"Die Aufstellung von „{escape(team.name)}“ ändern der Kapitän der Mannschaft und die "
        "Ligaleitung.",
        hint="Kapitän wird man mit /kapitaen CODE (den Code nennt /mannschaft).",
    )


def date_text(day: dt.date | None) -> str:
    return day.strftime("%d.%m.%Y") if day else "?"


def _find_team(teams: Sequence[LeagueTeam], word: str) -> LeagueTeam | None:
    key = word.casefold()
    exact = [t for t in teams if t.name.casefold() == key]
    return exact[0] if exact else None


def _team_prefix(teams: Sequence[LeagueTeam], text: str) -> tuple[LeagueTeam, str]:
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
            p
            for table in self.tables(series)
            for p in lg.table_scores(self.played(series, table))
        ]

    def match_points(self, series: int) -> list[lg.TeamSeries]:
        sums: dict[str, int | None] = {
            t.name: (0 if self.appeared.get(t.id, False) else None) for t in self.teams
        }
        for p in self.person_scores(series):
            current = sums[p.team]
            sums[p.team] = (current or 0) + p.score
        return lg.match_points(sums)

    def day_table(self) -> list[lg.DayLine]:
        return lg.day_table(
            [self.match_points(s) for s in self.complete_series()], self.league.ranking_order
        )

    def lost_games(self) -> int:
        return sum(
            r.lost for s in self.complete_series() for r in self.results.get(s, {}).values()
        )


def load_day(session: Session, league: League, day: MatchDay) -> DayState:
    return DayState(
        league=league,
        day=day,
        teams=repo.teams(session, league),
        appeared={dt.team_id: dt.appeared for dt in repo.day_teams(session, day)},
        log=repo.lineup(session, day),
        results=repo.results(session, day),
    )


def _current_day(session: Session, league: League | Desk) -> MatchDay:
    if isinstance(league, Desk):
        if league.day is not None:
            return league.day
        league = league.league
    days = repo.days(session, league)
    if not days:
        raise RuleError(
            "Es gibt noch keinen Spieltag.", hint="Lege einen an: /spieltag 1 Vereinsheim"
        )
    return max(days, key=lambda d: d.id)


def _open_day(session: Session, league: League | Desk) -> MatchDay:
    day = _current_day(session, league)
    if day.approved_at is not None:
        raise RuleError(
            f"{day_label(day)} ist freigegeben und damit abgeschlossen.",
            hint="Nichts wurde geändert. Den nächsten Spieltag legt /spieltag N an.",
        )
    return day


# --- /liga ------------------------------------------------------------------------------------

_SETTINGS = ("serien", "mindestens", "verlustspiel", "reihenfolge", "wechsel")
_SUBSTITUTIONS = ("immer", "zwischen")


def liga(session: Session, cmd: Command) -> Reply:
    rest = " ".join(_rest(cmd).split())
    league = repo.league_of(session, cmd.chat_id)
    if not rest:
        if league is None:
            raise RuleError(
                f"In {cmd.here} gibt es keine Liga.", hint="Lege eine an: /liga Landesliga Nord"
            )
        return Reply(_overview(session, league))
    if league is not None and rest.split()[0].casefold() in _SETTINGS:
        lock_chat(session, cmd.chat_id)
        _require_manager(league, cmd)
        return Reply(_setting(league, rest.split()))
    if league is not None:
        raise RuleError(
            f"In {cmd.here} gibt es schon die Liga „{escape(league.name)}“.",
            hint="Eine Liga je Chat – für eine zweite ein anderes Thema oder einen anderen Chat "
            "nehmen. Einstellungen: /liga serien 4 · /liga mindestens 50 · /liga verlustspiel "
            "0,50 € · /liga reihenfolge spielpunkte · /liga wechsel zwischen",
        )
    name = _visible(rest, "Der Name der Liga", MAX_LEAGUE_NAME)
    ensure_chat(session, cmd.chat_id, lock=True)
    league = repo.add_league(
        session,
        chat_id=cmd.chat_id,
        name=name,
        created_by=cmd.user_id,
        created_by_name=cmd.user_name,
        series_per_day=3,
        games_3=36,
        games_4=48,
        min_share=50,
        lost_fee_cents=0,
        ranking_order="matchpunkte",
        substitutions="immer",
    )
    return Reply(
        f"🏆 Liga „{escape(name)}“ angelegt.\n{settings_line(league)}\n"
        f"👉 Mannschaften eintragen: {TEAM_EXAMPLE} (eine Zeile je Mannschaft)."
    )


def settings_line(league: League) -> str:
    fee = (
        f", Verlustspielgeld {format_money(league.lost_fee_cents)} an den Ausrichter"
        if league.lost_fee_cents
        else ""
    )
    return (
        f"Einstellungen: {league.series_per_day} Serien je Spieltag, "
        f"{league.games_3}/{league.games_4} Spiele am Dreier-/Vierertisch, "
        f"{order_text(league)}, Wechsel {_SUBSTITUTION_TEXT[league.substitutions]}, "
        f"Einzelwertung ab {league.min_share} % der Spiele{fee}."
    )


_SUBSTITUTION_TEXT = {
    "immer": "zwischen und während der Serien",
    "zwischen": "nur zwischen den Serien",
}


def order_text(league: League) -> str:
    """How the league's tables rank, in words."""
    if league.ranking_order == "spielpunkte":
        return "Tabelle nach Spielpunkten, dann Matchpunkten"
    return "Tabelle nach Matchpunkten, dann Spielpunkten"


def _setting(league: League, words: list[str]) -> str:
    key = words[0].casefold()
    value = " ".join(words[1:])
    if key == "serien":
        if not value.isdigit() or not 1 <= int(value) <= MAX_SERIES:
            raise RuleError(
                "Wie viele Serien je Spieltag?",
                hint=f"Eine Zahl von 1 bis {MAX_SERIES}, z. B. /liga serien 3.",
            )
        league.series_per_day = int(value)
    elif key == "mindestens":
        digits = value.rstrip("%").strip()
        if not digits.isdigit() or not 0 <= int(digits) <= 100:
            raise RuleError(
                "Welcher Mindestanteil an Spielen für die Einzelwertung?",
                hint="Prozent von 0 bis 100, z. B. /liga mindestens 50.",
            )
        league.min_share = int(digits)
    elif key == "wechsel":
        policy = value.casefold()
        if policy not in _SUBSTITUTIONS:
            raise RuleError(
                "Wann darf gewechselt werden?",
                hint="/liga wechsel immer (auch während einer Serie, mit Spielnummer) oder "
                "/liga wechsel zwischen (nur zwischen den Serien).",
            )
        league.substitutions = policy
    elif key == "reihenfolge":
        order = value.casefold()
        if order not in lg.ORDERS:
            raise RuleError(
                "Wonach soll die Tabelle ordnen?",
                hint="/liga reihenfolge matchpunkte (dann Spielpunkte) oder "
                "/liga reihenfolge spielpunkte (dann Matchpunkte).",
            )
        league.ranking_order = order
    else:
        league.lost_fee_cents = whole_cents(
            parse_amount(value, what="Verlustspielgeld", example="0,50 €"), what="Verlustspielgeld"
        )
    return "Gespeichert. " + settings_line(league)


def _overview(session: Session, league: League) -> str:
    lines = [f"🏆 <b>{escape(league.name)}</b>", settings_line(league)]
    squads = repo.players(session, league)
    teams = repo.teams(session, league)
    if not teams:
        lines.append(f"👉 Noch keine Mannschaften: {TEAM_EXAMPLE}")
    for t in teams:
        lines.append(_team_line(t, squads.get(t.id, [])))
    days = repo.days(session, league)
    for d in days:
        state = "freigegeben" if d.approved_at else "vorläufig"
        lines.append(f"{day_label(d)}: {d.seated} Serie(n) gesetzt, {state}")
    return "\n".join(lines)


def _team_line(team: LeagueTeam, squad: Sequence[LeaguePlayer]) -> str:
    regular = [p.name for p in squad if not p.substitute]
    subs = [p.name for p in squad if p.substitute]
    text = f"<b>{escape(team.name)}</b>: " + ", ".join(escape(n) for n in regular)
    if subs:
        text += ", Ersatz " + ", ".join(escape(n) for n in subs)
    if team.captain_user_id is not None:
        text += f" · Kapitän: {escape(team.captain_name or 'gesetzt')}"
    elif team.captain_code:
        text += f" · Kapitän mit /kapitaen {team.captain_code}"
    return text


# --- /mannschaft ------------------------------------------------------------------------------


def _parse_team_line(line: str) -> tuple[str, list[str], list[str]]:
    if ":" not in line:
        raise RuleError(
            f"„{escape(line[:40])}“: Name und Spieler trennt ein Doppelpunkt.",
            hint=f"Z. B. {TEAM_EXAMPLE}",
        )
    head, _, body = line.partition(":")
    team = _visible(head, "Der Name der Mannschaft", MAX_TEAM_NAME)
    if any(c in team for c in "#,[]"):
        raise RuleError(
            f"Der Mannschaftsname „{escape(team)}“ enthält #, Komma oder Klammern.",
            hint="Bitte ohne diese Zeichen.",
        )
    regular: list[str] = []
    subs: list[str] = []
    in_subs = False
    for item in body.split(","):
        words = item.split()
        if words and words[0].casefold() in ("ersatz", "ersatz:"):
            in_subs = True
            words = words[1:]
        if not words:
            continue
        name = clean_name(" ".join(words))
        (subs if in_subs else regular).append(name)
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
    return team, regular, subs


def mannschaft(session: Session, cmd: Command) -> Reply:
    lines = [" ".join(line.split()) for line in _rest(cmd).splitlines()]
    lines = [line for line in lines if line]
    lock_chat(session, cmd.chat_id)
    league = _require_league(session, cmd)
    if not lines:
        squads = repo.players(session, league)
        teams = repo.teams(session, league)
        if not teams:
            raise RuleError("Noch keine Mannschaften.", hint=f"Z. B. {TEAM_EXAMPLE}")
        return Reply("\n".join(_team_line(t, squads.get(t.id, [])) for t in teams))
    _require_manager(league, cmd)
    parsed = [_parse_team_line(line) for line in lines]
    teams = repo.teams(session, league)
    known = {t.name.casefold() for t in teams}
    new_teams = {name.casefold() for name, _, _ in parsed} - known
    if len(known) + len(new_teams) > lg.MAX_TEAMS:
        raise RuleError(
            f"Eine Liga hier ist eine Spieltagsgruppe: höchstens {lg.MAX_TEAMS} Mannschaften, "
            "die sich an jedem Spieltag treffen.",
            hint="Für mehr Mannschaften je Gruppe eine eigene Liga (ein eigenes Thema oder "
            "einen eigenen Chat). Nichts wurde gespeichert.",
        )
    squads = repo.players(session, league)
    changing = {name.casefold() for name, _, _ in parsed}
    owner: dict[str, str] = {
        p.name.casefold(): t.name
        for t in teams
        if t.name.casefold() not in changing
        for p in squads.get(t.id, [])
    }
    for name, regular, subs in parsed:
        for person in regular + subs:
            other = owner.get(person.casefold())
            if other is not None and other != name:
                raise RuleError(
                    f"„{escape(person)}“ steht schon bei „{escape(other)}“.",
                    hint="Jeder Name nur einmal in der Liga – bei Namensgleichheit einen "
                    "Buchstaben anhängen (Anna B.). Nichts wurde gespeichert.",
                )
            owner[person.casefold()] = name
    out = []
    for name, regular, subs in parsed:
        team = _find_team(teams, name)
        if team is None:
            team = repo.add_team(session, league, name, _code())
            teams.append(team)
            verb = "eingetragen"
        else:
            verb = "geändert"
        repo.set_players(session, team, regular, subs)
        out.append(f"{_team_line(team, repo.players(session, league).get(team.id, []))} – {verb}")
    out.append(
        "👉 Kapitän wird, wer in diesem Chat /kapitaen CODE schickt (einmal gültig). "
        "Dann: /spieltag 1 Ort"
    )
    return Reply("\n".join(out))


def _code(prefix: str = "K") -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return prefix + "".join(secrets.choice(alphabet) for _ in range(7))


_DATE = re.compile(r"^\d{1,2}\.\d{1,2}\.\d{4}$")


def _parse_date(word: str) -> dt.date:
    d, m, y = (int(x) for x in word.split("."))
    try:
        return dt.date(y, m, d)
    except ValueError:
        raise RuleError(
            f"„{escape(word)}“ ist kein Datum.", hint="Z. B. /spieltag 2 Reken 14.03.2027"
        ) from None


def ausrichter(session: Session, cmd: Command) -> Reply:
    """A host links their chat to one match day with the day's code (valid on its date)."""
    code = cmd.args[0].upper() if cmd.args else ""
    if not code:
        raise RuleError(
            "Welcher Ausrichter-Code?", hint="Z. B. /ausrichter A7F3Q2X9 – den Code nennt /spieltag."
        )
    lock_chat(session, cmd.chat_id)
    day = repo.day_by_code(session, code)
    if day is None:
        raise RuleError(
            f"Den Ausrichter-Code „{escape(code[:16])}“ kenne ich nicht.",
            hint="Jeder Code gilt einmal; die Ligaleitung sieht ihn in der Antwort auf /spieltag.",
        )
    if day.play_date != berlin_date(None):
        raise RuleError(
            f"Der Code gilt nur am {date_text(day.play_date)} ({day_label(day)}).",
            hint="Bitte an diesem Tag senden. Nichts wurde geändert.",
        )
    if repo.league_of(session, cmd.chat_id) is not None:
        raise RuleError(
            "Hier ist die Ligaleitung selbst – hier braucht es keinen Ausrichter.",
            hint="Den Code im Chat des Ausrichters senden.",
        )
    if cmd.user_id is None or cmd.user_id <= 0:
        raise RuleError(
            "Ausrichter kann nur eine Person sein, nicht ein Chat.",
            hint="Bitte mit dem eigenen Konto senden.",
        )
    ensure_chat(session, cmd.chat_id)
    day.host_chat_id = cmd.chat_id
    day.host_user_id = cmd.user_id
    day.host_name = cmd.user_name
    day.host_code = None
    return Reply(
        f"🏠 {escape(cmd.user_name)} richtet hier {day_label(day)} aus – heute, "
        f"{date_text(day.play_date)}. Die Ergebnisse bleiben vorläufig, bis die Ligaleitung "
        "freigibt.\n👉 /aufstellung · /setzen · /ergebnis Anna 437 12 3 · /wechsel"
    )


def kapitaen(session: Session, cmd: Command) -> Reply:
    code = cmd.args[0].upper() if cmd.args else ""
    if not code:
        raise RuleError(
            "Welcher Kapitäns-Code?", hint="Z. B. /kapitaen K7F3Q2X9 – den Code nennt /mannschaft."
        )
    league = _require_league(session, cmd)
    named = _find_team(repo.teams(session, league), " ".join(cmd.args))
    if named is not None:  # the management renews a team's code (a lost or misused one)
        _require_manager(league, cmd)
        named.captain_code = _code()
        return Reply(
            f"Neuer Kapitäns-Code für „{escape(named.name)}“: /kapitaen {named.captain_code} "
            "(einmal gültig; der alte gilt nicht mehr)."
        )
    team = repo.team_by_code(session, code)
    if team is None or team.league_id != league.id:
        raise RuleError(
            f"Den Kapitäns-Code „{escape(code[:16])}“ kenne ich nicht.",
            hint="Jeder Code gilt einmal; die Ligaleitung sieht die Codes mit /mannschaft.",
        )
    if cmd.user_id is None or cmd.user_id <= 0:
        raise RuleError(
            "Kapitän kann nur eine Person sein, nicht ein Chat.",
            hint="Bitte mit dem eigenen Konto senden.",
        )
    team.captain_user_id = cmd.user_id
    team.captain_name = cmd.user_name
    team.captain_code = None
    return Reply(
        f"✅ {escape(cmd.user_name)} ist Kapitän von „{escape(team.name)}“.\n"
        "👉 Aufstellung ändern: /aufstellung "
        f"{escape(team.name)}: A, B, C, D · Wechsel: /wechsel {escape(team.name)} NEU für ALT"
    )


# --- /spieltag, /aufstellung ------------------------------------------------------------------


def spieltag(session: Session, cmd: Command) -> Reply:
    words = _rest(cmd).split()
    if not words or not words[0].isdigit() or not 1 <= int(words[0]) <= 99:
        raise RuleError("Welcher Spieltag?", hint="Z. B. /spieltag 1 Vereinsheim Reken")
    number = int(words[0])
    play_date = berlin_date(None)
    if len(words) > 1 and _DATE.match(words[-1]):
        play_date = _parse_date(words[-1])
        words = words[:-1]
    venue = _visible(" ".join(words[1:]), "Der Ort", 64) if words[1:] else None
    lock_chat(session, cmd.chat_id)
    league = _require_league(session, cmd)
    _require_manager(league, cmd)
    if any(d.number == number for d in repo.days(session, league)):
        raise RuleError(
            f"Spieltag {number} gibt es schon.",
            hint=f"Den nächsten anlegen: /spieltag {number + 1}. Lesen: /tabelle {number}.",
        )
    teams = repo.teams(session, league)
    if len(teams) < 3:
        raise RuleError(
            f"Die Liga hat {len(teams)} Mannschaft(en) – ein Spieltag braucht mindestens 3.",
            hint=f"Mannschaften eintragen: {TEAM_EXAMPLE}",
        )
    low = 10 ** (SEED_DIGITS - 1)
    seed = str(low + secrets.randbelow(9 * low))
    day = repo.add_day(
        session,
        league,
        number=number,
        venue=venue,
        seed=seed,
        seated=0,
        created_by=cmd.user_id,
        play_date=play_date,
        host_code=_code("A"),
        confirmed="{}",
    )
    squads = repo.players(session, league)
    for team in teams:
        repo.add_day_team(session, day, team)
        regular = [p.name for p in squads.get(team.id, []) if not p.substitute][:4]
        repo.replace_lineup(session, day, team, regular, cmd.user_id)
    state = load_day(session, league, day)
    return Reply(
        f"📅 {day_label(day)} am {date_text(play_date)} angelegt (Startwert {seed}).\n"
        + _lineups_text(state)
        + f"\nAusrichter (dezentral): im eigenen Chat /ausrichter {day.host_code} – gilt nur "
        f"am {date_text(play_date)}, einmal."
        + "\n👉 Ändern: /aufstellung Nord: Anna, Bernd, Carla, Erik (Kapitän oder Leitung), "
        "nicht angetreten: /aufstellung Nord fehlt · dann /setzen"
    )


def _lineups_text(state: DayState) -> str:
    lines = ["Aufstellung zur 1. Serie:"]
    for team in state.teams:
        if not state.appeared.get(team.id, False):
            lines.append(f"{escape(team.name)}: nicht angetreten")
        else:
            lines.append(
                f"{escape(team.name)}: " + ", ".join(escape(n) for n in state.first_lineup(team))
            )
    return "\n".join(lines)


def aufstellung(session: Session, cmd: Command) -> Reply:
    text = " ".join(_rest(cmd).split())
    lock_chat(session, cmd.chat_id)
    desk = desk_of(session, cmd, reading=not text)
    league = desk.league
    if not text:
        day = _current_day(session, desk)
        state = load_day(session, league, day)
        return Reply(f"{day_label(day)}\n" + _lineups_text(state))
    day = _open_day(session, desk)
    teams = repo.teams(session, league)
    team, rest = _team_prefix(teams, text)
    _require_captain(desk, team, cmd)
    if day.seated:
        raise RuleError(
            "Die Aufstellung zur 1. Serie legt den Sitzplan des Tages fest – Serie 1 ist "
            "schon gesetzt.",
            hint=f"Spieler tauschen: /wechsel {escape(team.name)} NEU für ALT "
            "(mit „spiel N“ während einer Serie).",
        )
    squad = repo.players(session, league).get(team.id, [])
    rows = [r for r in repo.day_teams(session, day) if r.team_id == team.id]
    # a team entered after the day was opened is not on it yet (it counts as absent)
    on_day = rows[0] if rows else repo.add_day_team(session, day, team, appeared=False)
    if rest.casefold() in ("fehlt", "nicht angetreten", "-"):
        on_day.appeared = False
        repo.replace_lineup(session, day, team, [], cmd.user_id)
        return Reply(
            f"„{escape(team.name)}“ tritt an {day_label(day)} nicht an: keine Matchpunkte, "
            "keine Spielpunkte.\n👉 Doch da: /aufstellung "
            f"{escape(team.name)}: A, B, C, D"
        )
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
    on_day.appeared = True
    repo.replace_lineup(session, day, team, names, cmd.user_id)
    state = load_day(session, league, day)
    return Reply(f"✅ Aufstellung geändert.\n{_lineups_text(state)}")


# --- /setzen, /sitzplan -----------------------------------------------------------------------


def setzen(session: Session, cmd: Command) -> Reply:
    lock_chat(session, cmd.chat_id)
    desk = desk_of(session, cmd)
    league = desk.league
    _require_runner(desk, cmd)
    day = _open_day(session, desk)
    state = load_day(session, league, day)
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
        try:
            lg.plan_tables(state.sizes)  # refuses a layout Anlage 10 cannot seat
        except TournamentError as err:
            raise RuleError(err.problem + ".", hint=err.fix[:1].upper() + err.fix[1:]) from None
    day.seated += 1
    repo.add_tables(session, day, day.seated, _table_codes(session, len(state.tables(day.seated))))
    text = _seating_text(state, day.seated, table_codes_of(session, day, day.seated))
    if cmd.is_forum and cmd.telegram_chat_id:  # a topic per table, its list opened there
        topics = tuple(
            _topic(cmd, league, day, link) for link in repo.tables(session, day, day.seated)
        )
        how = (
            "\n📋 Jeder Tisch bekommt hier ein eigenes Thema mit seiner Liste – dort eintragen, "
            "am Ende /abschluss; das Ergebnis kommt von selbst hierher."
        )
        return Reply(text + how, topics=topics)
    return Reply(
        text
        + f"\n👉 Jeder Tisch in seinem Chat: /tisch CODE – die Liste meldet nach /abschluss "
        f"selbst. Oder die Leitung: {RESULT_EXAMPLE}"
    )


def _topic(cmd: Command, league: League, day: MatchDay, link: LeagueTable) -> NewTopic:
    name = f"{league.name[:80]} · Tag {day.number} S{link.series} Tisch {link.table_no}"
    created = Call(
        "skatbot.usecases.league_tables:topic_created",
        (link.id, cmd.user_id, cmd.user_name, cmd.telegram_chat_id, name),
    )
    refused = Call("skatbot.usecases.league_tables:topic_refused", (link.id,))
    return NewTopic(cmd.telegram_chat_id, name, created, refused)


def _table_codes(session: Session, count: int) -> list[str]:
    """Codes for ``/tisch``: 7 characters from "L", never one of a Preisskat's (6)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    while True:
        codes = ["L" + "".join(secrets.choice(alphabet) for _ in range(6)) for _ in range(count)]
        if len(set(codes)) == count and not repo.codes_taken(session, codes):
            return codes


def table_codes_of(session: Session, day: MatchDay, series: int) -> dict[int, str]:
    return {t.table_no: t.code for t in repo.tables(session, day, series)}


def _seat_text(state: DayState, series: int, seat: lg.Seat) -> str:
    people = state.occupants(series, seat)
    names = " → ".join(
        escape(name) + (f" ab Spiel {first}" if first > 1 else "") for name, first in people
    )
    return f"{names} ({escape(seat.team)})"


def _seating_text(state: DayState, series: int, codes: dict[int, str] | None = None) -> str:
    sizes = ", ".join(f"{escape(t)} {n}" for t, n in state.sizes.items())
    lines = [f"🪑 <b>{day_label(state.day)} · Serie {series}</b>"]
    for i, table in enumerate(state.tables(series), 1):
        code = f", /tisch {codes[i]}" if codes and i in codes else ""
        lines.append(
            f"Tisch {i} ({len(table)}er, {state.games(len(table))} Spiele{code}): "
            + ", ".join(_seat_text(state, series, seat) for seat in table)
        )
    lines.append(f"Nachrechenbar: Startwert {state.day.seed}, Aufstellung Serie 1: {sizes}.")
    return "\n".join(lines)


def sitzplan(session: Session, cmd: Command) -> Reply:
    desk = desk_of(session, cmd, reading=True)
    league = desk.league
    day = _current_day(session, desk)
    if not day.seated:
        raise RuleError(
            f"{day_label(day)}: noch keine Serie gesetzt.", hint="Die Ligaleitung setzt mit /setzen."
        )
    series = day.seated
    if cmd.args:
        if not cmd.args[0].isdigit() or not 1 <= int(cmd.args[0]) <= day.seated:
            raise RuleError(
                f"Serie „{escape(cmd.args[0][:8])}“ gibt es nicht.",
                hint=f"Gesetzt: Serie 1 bis {day.seated}, z. B. /sitzplan 1.",
            )
        series = int(cmd.args[0])
    return Reply(_seating_text(load_day(session, league, day), series, table_codes_of(session, day, series)))


# --- /wechsel ---------------------------------------------------------------------------------

_SUBSTITUTION = re.compile(
    r"^(?P<new>.+?)\s+f(?:ü|ue)r\s+(?P<old>.+?)(?:\s+(?:ab\s+)?spiel\s+(?P<game>\S+))?$",
    re.IGNORECASE,
)
WECHSEL_EXAMPLE = "/wechsel Nord Erik für Anna – während einer Serie: /wechsel Nord Erik für Anna spiel 17"


def wechsel(session: Session, cmd: Command) -> Reply:
    text = " ".join(_rest(cmd).split())
    lock_chat(session, cmd.chat_id)
    desk = desk_of(session, cmd)
    league = desk.league
    if not text:
        raise RuleError("Wer wechselt für wen?", hint=WECHSEL_EXAMPLE)
    day = _open_day(session, desk)
    teams = repo.teams(session, league)
    team, rest = _team_prefix(teams, text)
    _require_captain(desk, team, cmd)
    found = _SUBSTITUTION.match(rest)
    if not found:
        raise RuleError("Das verstehe ich nicht als Wechsel.", hint=WECHSEL_EXAMPLE)
    if not day.seated:
        raise RuleError(
            "Vor der 1. Serie ist das kein Wechsel, sondern die Aufstellung.",
            hint=f"/aufstellung {escape(team.name)}: A, B, C, D",
        )
    state = load_day(session, league, day)
    squad = repo.players(session, league).get(team.id, [])
    known = {p.name.casefold(): p.name for p in squad}
    new = known.get(found.group("new").casefold())
    old = known.get(found.group("old").casefold())
    for word, name in ((found.group("new"), new), (found.group("old"), old)):
        if name is None:
            raise RuleError(
                f"„{escape(word[:32])}“ spielt nicht für „{escape(team.name)}“.",
                hint="Spieler: " + ", ".join(escape(p.name) for p in squad) + ". Nichts wurde geändert.",
            )
    assert new is not None and old is not None
    game_word = found.group("game")
    during = game_word is not None
    game: int | None = None
    if not during:
        series = day.seated + 1
        if series > league.series_per_day:
            raise RuleError(
                "Nach der letzten Serie gibt es keinen Wechsel zwischen den Serien mehr.",
                hint=f"Während der Serie {day.seated}: /wechsel {escape(team.name)} {escape(new)} "
                f"für {escape(old)} spiel N",
            )
    else:
        if league.substitutions == "zwischen":
            raise RuleError(
                "In dieser Liga wird nur zwischen den Serien gewechselt.",
                hint=f"Ab der nächsten Serie: /wechsel {escape(team.name)} {escape(new)} "
                f"für {escape(old)} (ohne „spiel N“).",
            )
        series = day.seated
        if state.complete(series):
            raise RuleError(
                f"Serie {series} ist schon fertig eingetragen.",
                hint=f"Wechsel zur nächsten Serie: /wechsel {escape(team.name)} {escape(new)} "
                f"für {escape(old)}",
            )
        game = int(game_word) if game_word and game_word.isdigit() else None
    seats = [
        lg.Seat(team.name, slot) for slot in range(1, state.sizes.get(team.name, 0) + 1)
    ]
    # who sits there now: during a series its last player, between series the first of the next
    current = {
        seat: state.occupants(series, seat)[-1 if during else 0][0] for seat in seats
    }
    seat = next((s for s, name in current.items() if name == old), None)
    if seat is None:
        raise RuleError(
            f"„{escape(old)}“ spielt gerade nicht für „{escape(team.name)}“.",
            hint="Es spielen: " + ", ".join(escape(n) for n in current.values()) + ".",
        )
    if new in current.values():
        raise RuleError(
            f"„{escape(new)}“ spielt schon.", hint="Für wen kommt die Person? " + WECHSEL_EXAMPLE
        )
    if during:
        table = next(t for t in state.tables(series) if seat in t)
        games = state.games(len(table))
        if game is None or not 2 <= game <= games:
            raise RuleError(
                f"Spiel „{escape((game_word or '')[:8])}“ gibt es in dieser Serie nicht.",
                hint=f"Die Nummer des ersten Spiels der neuen Person: 2 bis {games}.",
            )
        earlier = state.occupants(series, seat)[-1][1]
        if game <= earlier:
            raise RuleError(
                f"„{escape(old)}“ spielt erst ab Spiel {earlier}.",
                hint=f"Ein späteres Spiel als {earlier} angeben.",
            )
    repo.add_substitution(session, day, team, seat.slot, new, series, game, cmd.user_id)
    if game is None:
        return Reply(
            f"🔁 {escape(team.name)}: {escape(new)} spielt ab Serie {series} für {escape(old)} "
            "(auf demselben Platz des Sitzplans)."
        )
    return Reply(
        f"🔁 {escape(team.name)}: {escape(new)} spielt in Serie {series} ab Spiel {game} für "
        f"{escape(old)} – vermerkt. Beide tragen ihre Ergebnisse ein; die Spielpunkte der "
        "Mannschaft zählen zusammen."
    )


# --- /ergebnis at a league desk ---------------------------------------------------------------


def ergebnis(session: Session, cmd: Command) -> Reply:
    """/ergebnis: at a league desk the league's, else the Preisskat desk's."""
    from skatbot.storage import tournament_repo as trepo
    from skatbot.usecases import tournament

    league = repo.league_of(session, cmd.chat_id)
    hosted = repo.hosted_day(session, cmd.chat_id)
    running = trepo.tournament_of(session, cmd.chat_id)
    if (league is None and hosted is None) or (running is not None and running.closed_at is None):
        return tournament.ergebnis(session, cmd)
    return _league_results(session, cmd, desk_of(session, cmd))


def _league_results(session: Session, cmd: Command, desk: Desk) -> Reply:
    from skatbot.usecases.tournament import _COMMAND_WORD, _SERIES_LINE, _parse_result_line

    lines = [" ".join(line.split()) for line in _rest(cmd).splitlines()]
    lines = [
        " ".join(line.split()[1:]) if line and _COMMAND_WORD.match(line.split()[0]) else line
        for line in lines
    ]
    lines = [line for line in lines if line]
    if not lines:
        raise RuleError("Welches Ergebnis?", hint="Z. B. " + RESULT_EXAMPLE + " – eine Zeile pro Person.")
    lock_chat(session, cmd.chat_id)
    league = desk.league
    lock_chat(session, league.chat_id)  # a host's chat and the tables write the same day
    _require_runner(desk, cmd)
    day = _open_day(session, desk)
    if not day.seated:
        raise RuleError("Es ist noch keine Serie gesetzt.", hint="Erst /setzen.")
    series = day.seated
    offset = 0
    chosen = _SERIES_LINE.match(lines[0])
    if chosen:
        series = int(chosen.group(1))
        if not 1 <= series <= day.seated:
            raise RuleError(
                f"Serie {series} gibt es nicht.", hint=f"Gesetzt: Serie 1 bis {day.seated}."
            )
        lines, offset = lines[1:], 1
        if not lines:
            raise RuleError("Nach „serie N“ fehlen die Ergebnisse.", hint=RESULT_EXAMPLE)
    state = load_day(session, league, day)
    names = state.names(series)
    entered: dict[str, tr.SeriesResult] = {}
    for i, line in enumerate(lines, 1 + offset):
        r = _parse_result_line(i, line, names)
        if r.name in entered:
            raise RuleError(
                f"Zeile {i}: {escape(r.name)} steht in dieser Nachricht schon.",
                hint="Pro Person nur eine Zeile. Nichts wurde gespeichert.",
            )
        entered[r.name] = r
    return Reply("\n".join(store_results(session, state, series, entered, cmd.user_id, cmd.update_id)))


def store_results(
    session: Session,
    state: DayState,
    series: int,
    entered: dict[str, tr.SeriesResult],
    user_id: int | None,
    update_id: int | None,
) -> list[str]:
    """Check ``entered`` against the series' tables and store it: the one path of every
    league result, typed with /ergebnis or reported by a table's list. Returns the lines of
    the German answer; a RuleError changes nothing."""
    league, day = state.league, state.day
    before = state.results.get(series, {})
    for table in state.tables(series):
        at = {n for seat in table for n, _ in state.occupants(series, seat)}
        if not at.intersection(entered):
            continue
        total = 0
        for name in at:
            r2 = entered.get(name)
            old = before.get(name)
            if r2 is not None:
                total += r2.won + r2.lost
            elif old is not None:
                total += old.won + old.lost
        games = state.games(len(table))
        if total > games:
            raise RuleError(
                f"Am Tisch {', '.join(escape(n) for n in sorted(at))} stehen {total} Spiele "
                f"(gewonnen + verloren), die Serie hat aber nur {games}.",
                hint="Bitte die Zahlen prüfen. Nichts wurde gespeichert.",
            )
    was_complete = state.complete(series)
    out = [f"Serie {series}:"]
    for r in entered.values():
        verb = "korrigiert" if r.name in before else "eingetragen"
        repo.add_result(
            session,
            day,
            series=series,
            name=r.name,
            game_points=r.game_points,
            won=r.won,
            lost=r.lost,
            user_id=user_id,
            update_id=update_id,
        )
        out.append(
            f"{escape(r.name)}: {minus_sign(r.game_points)} Spielpunkte, {r.won} gewonnen, "
            f"{r.lost} verloren – {verb}"
        )
    state = load_day(session, league, day)
    missing = state.missing(series)
    if missing:
        out.append(f"Es fehlen noch {len(missing)}: " + ", ".join(escape(n) for n in missing))
        return out
    out.append("")
    out.append(series_text(state, series))
    if not was_complete and series == day.seated:
        if series < league.series_per_day:
            out.append("👉 Nächste Serie: /setzen")
        else:
            out.append("")
            out.append(day_table_text(state))
            out.append("👉 Freigabe durch die Ligaleitung: /freigeben")
    return out


def series_text(state: DayState, series: int) -> str:
    lines = [f"<b>Serie {series} – Mannschaften</b>"]
    for line in state.match_points(series):
        if line.appeared:
            lines.append(f"{escape(line.team)}: {minus_sign(line.points)} – {line.reason}")
        else:
            lines.append(f"{escape(line.team)}: {line.reason}")
    return "\n".join(lines)


def table_lines(lines: Sequence[lg.DayLine], season: bool = False) -> list[str]:
    out = []
    for line in lines:
        days = f" ({line.days} Spieltag{'e' if line.days != 1 else ''})" if season else ""
        out.append(
            f"{line.place}. {escape(line.team)} – {lg.format_points(line.plus, line.minus)} "
            f"Matchpunkte · {minus_sign(line.points)} Spielpunkte{days}"
        )
    return out


def day_table_text(state: DayState) -> str:
    done = state.complete_series()
    status = "freigegeben" if state.day.approved_at else "vorläufig"
    head = (
        f"<b>{day_label(state.day)} – Tabelle</b> ({len(done)} von "
        f"{state.league.series_per_day} Serien, {status})"
    )
    lines = [head, *table_lines(state.day_table())]
    if state.day.approved_at is not None and state.day.play_date is not None:
        binding = state.day.play_date + dt.timedelta(days=BINDING_DAYS)
        lines.append(f"Verbindlich ab {date_text(binding)} ({BINDING_DAYS} Tage nach dem Spieltag).")
    if state.league.lost_fee_cents:
        lost = state.lost_games()
        fee = lost * state.league.lost_fee_cents
        host = f" ({escape(state.day.venue)})" if state.day.venue else ""
        lines.append(
            f"Verlustspielgeld an den Ausrichter{host}: {lost} verlorene Spiele × "
            f"{format_money(state.league.lost_fee_cents)} = {format_money(fee)}"
        )
    return "\n".join(lines)


# --- /bestaetigen, /freigeben -------------------------------------------------------------------


def confirmed_by(day: MatchDay) -> dict[int, str]:
    """Team id → the captain who confirmed the day's results."""
    try:
        data = json.loads(day.confirmed or "{}")
    except ValueError:
        return {}
    return {int(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def bestaetigen(session: Session, cmd: Command) -> Reply:
    """A captain confirms the day's results for their team (the match report shows it)."""
    lock_chat(session, cmd.chat_id)
    desk = desk_of(session, cmd)
    day = _open_day(session, desk)
    teams = repo.teams(session, desk.league)
    mine = [t for t in teams if t.captain_user_id is not None and t.captain_user_id == cmd.user_id]
    if not mine:
        raise RuleError(
            "Bestätigen können die Kapitäne der Mannschaften.",
            hint="Kapitän wird man mit /kapitaen CODE (den Code nennt /mannschaft).",
        )
    state = load_day(session, desk.league, day)
    done = len(state.complete_series())
    if done < desk.league.series_per_day:
        raise RuleError(
            f"{day_label(day)} ist noch nicht fertig ({done} von "
            f"{desk.league.series_per_day} Serien).",
            hint="Bestätigen geht, wenn alle Serien eingetragen sind.",
        )
    confirmed = confirmed_by(day)
    for team in mine:
        confirmed[team.id] = team.captain_name or cmd.user_name
    day.confirmed = json.dumps({str(k): v for k, v in confirmed.items()}, ensure_ascii=False)
    open_teams = [t.name for t in teams if t.id not in confirmed and state.appeared.get(t.id)]
    rest = ("Noch offen: " + ", ".join(escape(n) for n in open_teams)) if open_teams else (
        "Alle Kapitäne haben bestätigt."
    )
    names = ", ".join(escape(t.name) for t in mine)
    return Reply(
        f"✅ {names} bestätigt die Ergebnisse von {day_label(day)} ({escape(cmd.user_name)}).\n"
        f"{rest}\n👉 Freigabe: die Ligaleitung mit /freigeben"
    )


def freigeben(session: Session, cmd: Command) -> Reply:
    lock_chat(session, cmd.chat_id)
    league = _require_league(session, cmd)
    _require_manager(league, cmd)
    days = repo.days(session, league)
    if cmd.args:
        word = cmd.args[0]
        day = next((d for d in days if word.isdigit() and d.number == int(word)), None)
        if day is None:
            raise RuleError(
                f"Spieltag „{escape(word[:8])}“ gibt es nicht.",
                hint="Spieltage: " + (", ".join(str(d.number) for d in days) or "noch keiner") + ".",
            )
    else:
        day = _current_day(session, league)
    if day.approved_at is not None:
        raise RuleError(
            f"{day_label(day)} ist schon freigegeben.", hint="Die Tabelle zeigt /tabelle."
        )
    state = load_day(session, league, day)
    if len(state.complete_series()) < league.series_per_day:
        missing = state.missing(day.seated) if day.seated else []
        detail = (": es fehlen " + ", ".join(escape(n) for n in missing)) if missing else ""
        raise RuleError(
            f"{day_label(day)} ist noch nicht fertig ({len(state.complete_series())} von "
            f"{league.series_per_day} Serien){detail}.",
            hint="Erst alle Serien setzen (/setzen) und eintragen (/ergebnis).",
        )
    repo.approve(day, cmd.user_id)
    confirmed = confirmed_by(day)
    who = [f"{escape(t.name)} ({escape(confirmed[t.id])})" for t in state.teams if t.id in confirmed]
    line = ("Bestätigt von: " + ", ".join(who)) if who else "Kein Kapitän hat bestätigt."
    return Reply(
        f"🔒 {day_label(day)} freigegeben – die Ergebnisse sind jetzt fest.\n{line}\n"
        + day_table_text(state).replace("vorläufig", "freigegeben")
    )
