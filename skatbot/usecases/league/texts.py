"""The league's words: each result of its use cases as the chat reads it, and the texts of
settings, squads, line-ups, seatings, series and tables that several of them show."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from skatbot.rules import league as lg
from skatbot.rules.money import format_money
from skatbot.rules.scoring import minus_sign
from skatbot.storage.league_models import League, LeaguePlayer, LeagueTeam, MatchDay
from skatbot.usecases.common import wording
from skatbot.usecases.common.reply import NewTopic, Reply
from skatbot.usecases.league.common import (
    BINDING_DAYS,
    RESULT_EXAMPLE,
    TEAM_EXAMPLE,
    DayState,
    date_text,
    day_label,
)

Squad = tuple[LeagueTeam, tuple[LeaguePlayer, ...]]

# --- what several answers show --------------------------------------------------------------------


def settings_line(league: League) -> str:
    fee = (
        f", Verlustspielgeld {format_money(league.lost_fee_cents)} an den Ausrichter"
        if league.lost_fee_cents
        else ""
    )
    return (
        f"Einstellungen: {league.series_per_day} Serien je Spieltag, "
        f"{league.games_3}/{league.games_4} Spiele am Dreier-/Vierertisch, "
        f"{_match_points_text(league)}, "
        f"{order_text(league)}, Wechsel {_SUBSTITUTION_TEXT[league.substitutions]}, "
        f"Einzelwertung ab {league.min_share} % der Spiele{fee}."
    )


def _match_points_text(league: League) -> str:
    per = league.match_points_per_team
    return f"{per} Matchpunkt{'' if per == 1 else 'e'} je geschlagener Mannschaft"


_SUBSTITUTION_TEXT = {
    "immer": "zwischen und während der Serien",
    "zwischen": "nur zwischen den Serien",
}


def order_text(league: League) -> str:
    """How the league's tables rank, in words."""
    if league.ranking_order == "spielpunkte":
        return "Tabelle nach Spielpunkten, dann Matchpunkten"
    return "Tabelle nach Matchpunkten, dann Spielpunkten"


def team_line(team: LeagueTeam, squad: Sequence[LeaguePlayer]) -> str:
    regular = [p.name for p in squad if not p.substitute]
    subs = [p.name for p in squad if p.substitute]
    text = f"<b>{escape(team.name)}</b>: " + ", ".join(escape(n) for n in regular)
    if subs:
        text += ", Ersatz " + ", ".join(escape(n) for n in subs)
    if team.captain_user_id is not None:
        text += f" · Kapitän: {escape(team.captain_name or 'gesetzt')}"
    return text


def lineups_text(state: DayState) -> str:
    lines = ["Aufstellung zur 1. Serie:"]
    for team in state.teams:
        if not state.appeared.get(team.id, False):
            lines.append(f"{escape(team.name)}: nicht angetreten")
        else:
            lines.append(
                f"{escape(team.name)}: " + ", ".join(escape(n) for n in state.first_lineup(team))
            )
    return "\n".join(lines)


def _seat_text(state: DayState, series: int, seat: lg.Seat) -> str:
    people = state.occupants(series, seat)
    names = " → ".join(
        escape(name) + (f" ab Spiel {first}" if first > 1 else "") for name, first in people
    )
    return f"{names} ({escape(seat.team)})"


def seating_text(state: DayState, series: int, codes: Mapping[int, str] | None = None) -> str:
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
        lines.append(
            f"Verbindlich ab {date_text(binding)} ({BINDING_DAYS} Tage nach dem Spieltag)."
        )
    if state.league.lost_fee_cents:
        lost = state.lost_games()
        fee = lost * state.league.lost_fee_cents
        host = f" ({escape(state.day.venue)})" if state.day.venue else ""
        lines.append(
            f"Verlustspielgeld an den Ausrichter{host}: {lost} verlorene Spiele × "
            f"{format_money(state.league.lost_fee_cents)} = {format_money(fee)}"
        )
    return "\n".join(lines)


# --- /liga, /mannschaft, /ausrichter, /kapitaen ---------------------------------------------------


@dataclass(frozen=True)
class LeagueShown:
    league: League
    squads: tuple[Squad, ...]
    days: tuple[MatchDay, ...]


@wording.reply_of.register
def _(result: LeagueShown) -> Reply:
    league = result.league
    lines = [f"🏆 <b>{escape(league.name)}</b>", settings_line(league)]
    if not result.squads:
        lines.append(f"👉 Noch keine Mannschaften: {TEAM_EXAMPLE}")
    lines.extend(team_line(team, squad) for team, squad in result.squads)
    for d in result.days:
        state = "freigegeben" if d.approved_at else "vorläufig"
        lines.append(f"{day_label(d)}: {d.seated} Serie(n) gesetzt, {state}")
    return Reply("\n".join(lines))


@dataclass(frozen=True)
class SettingSaved:
    league: League


@wording.reply_of.register
def _(result: SettingSaved) -> Reply:
    return Reply("Gespeichert. " + settings_line(result.league))


@dataclass(frozen=True)
class LeagueStarted:
    league: League


@wording.reply_of.register
def _(result: LeagueStarted) -> Reply:
    league = result.league
    return Reply(
        f"🏆 Liga „{escape(league.name)}“ angelegt.\n{settings_line(league)}\n"
        f"👉 Mannschaften eintragen: {TEAM_EXAMPLE} (eine Zeile je Mannschaft)."
    )


@dataclass(frozen=True)
class TeamsShown:
    squads: tuple[Squad, ...]


@wording.reply_of.register
def _(result: TeamsShown) -> Reply:
    return Reply("\n".join(team_line(team, squad) for team, squad in result.squads))


@dataclass(frozen=True)
class TeamsEntered:
    squads: tuple[Squad, ...]
    new: frozenset[int]  # the ids of the teams entered for the first time


@wording.reply_of.register
def _(result: TeamsEntered) -> Reply:
    lines = [
        f"{team_line(team, squad)} – {'eingetragen' if team.id in result.new else 'geändert'}"
        for team, squad in result.squads
    ]
    lines.append(
        "👉 Kapitäne: auf eine Nachricht der Person antworten mit /kapitaen TEAM – ich schicke "
        "ihr den Code privat. Dann: /spieltag 1 Ort"
    )
    return Reply("\n".join(lines))


@dataclass(frozen=True)
class HostLinked:
    host: str
    day: MatchDay


@wording.reply_of.register
def _(result: HostLinked) -> Reply:
    return Reply(
        f"🏠 {escape(result.host)} richtet hier {day_label(result.day)} aus – heute, "
        f"{date_text(result.day.play_date)}. Die Ergebnisse bleiben vorläufig, bis die "
        "Ligaleitung freigibt.\n👉 /aufstellung · /setzen · /ergebnis Anna 437 12 3 · /wechsel"
    )


@dataclass(frozen=True)
class CaptainBound:
    captain: str
    team: str


@wording.reply_of.register
def _(result: CaptainBound) -> Reply:
    team = escape(result.team)
    return Reply(
        f"✅ {escape(result.captain)} ist Kapitän von „{team}“.\n"
        f"👉 Aufstellung ändern: /aufstellung {team}: A, B, C, D · Wechsel: /wechsel {team} "
        "NEU für ALT"
    )


# --- /spieltag, /aufstellung, /setzen, /sitzplan, /wechsel ----------------------------------------


@dataclass(frozen=True)
class DayOpened:
    state: DayState


@wording.reply_of.register
def _(result: DayOpened) -> Reply:
    day = result.state.day
    when = date_text(day.play_date)
    return Reply(
        f"📅 {day_label(day)} am {when} angelegt (Startwert {day.seed}).\n"
        + lineups_text(result.state)
        + "\nAusrichter (dezentral): auf eine Nachricht der Person antworten mit /ausrichter – "
        f"ich schicke ihr den Code privat (gilt nur am {when}, einmal)."
        + "\n👉 Ändern: /aufstellung Nord: Anna, Bernd, Carla, Erik (Kapitän oder Leitung), "
        "nicht angetreten: /aufstellung Nord fehlt · dann /setzen"
    )


@dataclass(frozen=True)
class LineupsShown:
    state: DayState


@wording.reply_of.register
def _(result: LineupsShown) -> Reply:
    return Reply(f"{day_label(result.state.day)}\n" + lineups_text(result.state))


@dataclass(frozen=True)
class LineupChanged:
    state: DayState


@wording.reply_of.register
def _(result: LineupChanged) -> Reply:
    return Reply(f"✅ Aufstellung geändert.\n{lineups_text(result.state)}")


@dataclass(frozen=True)
class TeamAbsent:
    team: str
    day: MatchDay


@wording.reply_of.register
def _(result: TeamAbsent) -> Reply:
    team = escape(result.team)
    return Reply(
        f"„{team}“ tritt an {day_label(result.day)} nicht an: keine Matchpunkte, "
        f"keine Spielpunkte.\n👉 Doch da: /aufstellung {team}: A, B, C, D"
    )


@dataclass(frozen=True)
class Seated:
    state: DayState
    codes: Mapping[int, str]  # table number → its /tisch code
    topics: tuple[NewTopic, ...]  # in a forum: a topic per table


@wording.reply_of.register
def _(result: Seated) -> Reply:
    text = seating_text(result.state, result.state.day.seated, result.codes)
    if result.topics:
        how = (
            "\n📋 Jeder Tisch bekommt hier ein eigenes Thema mit seiner Liste – dort eintragen, "
            "am Ende /abschluss; das Ergebnis kommt von selbst hierher."
        )
        return Reply(text + how, topics=result.topics)
    return Reply(
        text + "\n👉 Jeder Tisch in seinem Chat: /tisch CODE – die Liste meldet nach /abschluss "
        f"selbst. Oder die Leitung: {RESULT_EXAMPLE}"
    )


@dataclass(frozen=True)
class SeatingShown:
    state: DayState
    series: int
    codes: Mapping[int, str]


@wording.reply_of.register
def _(result: SeatingShown) -> Reply:
    return Reply(seating_text(result.state, result.series, result.codes))


@dataclass(frozen=True)
class Substituted:
    team: str
    new: str
    old: str
    series: int
    game: int | None  # during the series: from this game


@wording.reply_of.register
def _(result: Substituted) -> Reply:
    team, new, old = escape(result.team), escape(result.new), escape(result.old)
    if result.game is None:
        return Reply(
            f"🔁 {team}: {new} spielt ab Serie {result.series} für {old} "
            "(auf demselben Platz des Sitzplans)."
        )
    return Reply(
        f"🔁 {team}: {new} spielt in Serie {result.series} ab Spiel {result.game} für {old} – "
        "vermerkt. Beide tragen ihre Ergebnisse ein; die Spielpunkte der Mannschaft zählen "
        "zusammen."
    )


# --- /bestaetigen, /freigeben -------------------------------------------------------------------


@dataclass(frozen=True)
class DayConfirmed:
    teams: tuple[str, ...]  # the teams the asker confirmed for
    day: MatchDay
    by: str
    open_teams: tuple[str, ...]  # the teams that appeared and have not confirmed yet


@wording.reply_of.register
def _(result: DayConfirmed) -> Reply:
    rest = (
        ("Noch offen: " + ", ".join(escape(n) for n in result.open_teams))
        if result.open_teams
        else "Alle Kapitäne haben bestätigt."
    )
    names = ", ".join(escape(t) for t in result.teams)
    return Reply(
        f"✅ {names} bestätigt die Ergebnisse von {day_label(result.day)} "
        f"({escape(result.by)}).\n{rest}\n👉 Freigabe: die Ligaleitung mit /freigeben"
    )


@dataclass(frozen=True)
class DayApproved:
    state: DayState
    confirmed: tuple[tuple[str, str], ...]  # (team, captain) who confirmed


@wording.reply_of.register
def _(result: DayApproved) -> Reply:
    who = [f"{escape(team)} ({escape(captain)})" for team, captain in result.confirmed]
    line = ("Bestätigt von: " + ", ".join(who)) if who else "Kein Kapitän hat bestätigt."
    return Reply(
        f"🔒 {day_label(result.state.day)} freigegeben – die Ergebnisse sind jetzt fest.\n"
        f"{line}\n" + day_table_text(result.state).replace("vorläufig", "freigegeben")
    )
