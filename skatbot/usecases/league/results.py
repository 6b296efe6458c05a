"""Results of a match day: ``/ergebnis`` at a league desk or a host's chat (the one path of
every league result, also a table's list: ``store_results``), a captain's ``/bestaetigen``
and the management's ``/freigeben``, which locks the day. ``texts`` words them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.rules.scoring import minus_sign
from skatbot.storage import league as league_store
from skatbot.storage.database import lock_chat
from skatbot.storage.league_models import League, MatchDay
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.league import texts
from skatbot.usecases.league.common import (
    RESULT_EXAMPLE,
    DayState,
    current_day,
    day_label,
    desk_at,
    load_day,
    open_day,
)
from skatbot.usecases.tournament.result_entry import (
    RESULT_SERIES_LINE,
    parse_result_lines,
    result_lines,
)

# --- /ergebnis at a league desk or a host's chat -------------------------------------------------


@dataclass(frozen=True)
class EnterResults:
    lines: tuple[str, ...]  # "Anna 437 12 3", one a person
    series: int | None  # "serie N" before them (None: the latest seated)
    first_line: int  # the number of the first result line in the message


def parse_ergebnis(cmd: Command) -> EnterResults:
    lines = result_lines(cmd.rest)
    if not lines:
        raise RuleError(
            "Welches Ergebnis?", hint="Z. B. " + RESULT_EXAMPLE + " – eine Zeile pro Person."
        )
    chosen = RESULT_SERIES_LINE.match(lines[0])
    if not chosen:
        return EnterResults(tuple(lines), None, 1)
    if len(lines) == 1:
        raise RuleError("Nach „serie N“ fehlen die Ergebnisse.", hint=RESULT_EXAMPLE)
    return EnterResults(tuple(lines[1:]), int(chosen.group(1)), 2)


def ergebnis(session: Session, place: Place, request: EnterResults) -> Reply:
    """The league's results, by whoever runs the day (``DAY_RUNNER``)."""
    desk = desk_at(session, place)
    league = desk.league
    if place.id != league.chat_id:
        # a host's chat, the desk and the tables' lists write the same day: the desk's lock
        # orders them (the runtime locked only this place)
        lock_chat(session, league.chat_id)
    day = open_day(session, desk)
    if not day.seated:
        raise RuleError("Es ist noch keine Serie gesetzt.", hint="Erst /setzen.")
    series = day.seated if request.series is None else request.series
    if not 1 <= series <= day.seated:
        raise RuleError(
            f"Serie {series} gibt es nicht.", hint=f"Gesetzt: Serie 1 bis {day.seated}."
        )
    state = load_day(session, league, day)
    results, _line_of = parse_result_lines(
        list(request.lines), request.first_line, state.names(series)
    )
    entered = {r.name: r for r in results}
    asker = place.asker
    lines = store_results(session, state, series, entered, asker.user_id, asker.update_id)
    return Reply("\n".join(lines))


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
        league_store.add_result(
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
    out.append(texts.series_text(state, series))
    if not was_complete and series == day.seated:
        if series < league.series_per_day:
            out.append("👉 Nächste Serie: /setzen")
        else:
            out.append("")
            out.append(texts.day_table_text(state))
            out.append("👉 Freigabe durch die Ligaleitung: /freigeben")
    return out


# --- /bestaetigen, /freigeben -------------------------------------------------------------------


def confirmed_by(day: MatchDay) -> dict[int, str]:
    """Team id → the captain who confirmed the day's results."""
    try:
        data = json.loads(day.confirmed or "{}")
    except ValueError:
        return {}
    return {int(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


@dataclass(frozen=True)
class Confirm:
    pass


def parse_bestaetigen(cmd: Command) -> Confirm:
    return Confirm()


def bestaetigen(session: Session, place: Place, request: Confirm) -> texts.DayConfirmed:
    """A captain confirms the day's results for their team (the match report shows it). Who
    may is the asker's own data (the teams they captain): checked here, not by a route's
    right."""
    desk = desk_at(session, place)
    day = open_day(session, desk)
    teams = league_store.teams(session, desk.league)
    asker = place.asker
    mine = [
        t for t in teams if t.captain_user_id is not None and t.captain_user_id == asker.user_id
    ]
    if not mine:
        raise RuleError(
            "Bestätigen können die Kapitäne der Mannschaften.",
            hint="Kapitän wird man mit /kapitaen CODE – den Code schickt die Ligaleitung privat.",
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
        confirmed[team.id] = team.captain_name or asker.name
    day.confirmed = json.dumps({str(k): v for k, v in confirmed.items()}, ensure_ascii=False)
    open_teams = [t.name for t in teams if t.id not in confirmed and state.appeared.get(t.id)]
    return texts.DayConfirmed(tuple(t.name for t in mine), day, asker.name, tuple(open_teams))


@dataclass(frozen=True)
class Approve:
    day: str | None  # the word naming a day (None: the latest)


def parse_freigeben(cmd: Command) -> Approve:
    return Approve(cmd.args[0] if cmd.args else None)


def _day_named(session: Session, league: League, word: str | None) -> MatchDay:
    if word is None:
        return current_day(session, league)
    days = league_store.days(session, league)
    day = next((d for d in days if is_number(word) and d.number == int(word)), None)
    if day is None:
        raise RuleError(
            f"Spieltag „{escape(word[:8])}“ gibt es nicht.",
            hint="Spieltage: " + (", ".join(str(d.number) for d in days) or "noch keiner") + ".",
        )
    return day


def freigeben(session: Session, place: Place, request: Approve) -> texts.DayApproved:
    """The management approves a complete day: its results are fixed (``LEAGUE_MANAGER``)."""
    league = place.league
    assert league is not None  # the route serves league desks
    day = _day_named(session, league, request.day)
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
    league_store.approve(day, place.asker.user_id)
    confirmed = confirmed_by(day)
    who = tuple((t.name, confirmed[t.id]) for t in state.teams if t.id in confirmed)
    return texts.DayApproved(state, who)
