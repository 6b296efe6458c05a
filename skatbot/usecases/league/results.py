"""Results of a match day: ``/ergebnis`` at a league desk, the texts of a series and of the
day's table, a captain's ``/bestaetigen`` and the management's ``/freigeben``, which locks the
day.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from html import escape

from skatbot.rules import league as lg
from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.money import format_money
from skatbot.rules.numbers import is_number
from skatbot.rules.scoring import minus_sign
from skatbot.storage import league as league_store
from skatbot.storage.database import lock_chat
from skatbot.storage.league_models import (
    MatchDay,
)
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.league.common import (
    BINDING_DAYS,
    RESULT_EXAMPLE,
    DayState,
    Desk,
    current_day,
    date_text,
    day_label,
    desk_of,
    load_day,
    open_day,
    require_league,
    require_manager,
    require_runner,
)
from skatbot.usecases.tournament.result_entry import (
    RESULT_SERIES_LINE,
    parse_result_lines,
    result_lines,
)

# --- /ergebnis at a league desk ---------------------------------------------------------------


def ergebnis(session: Session, place: Place, cmd: Command) -> Reply:
    """/ergebnis at a league desk or a host's chat (the route gives a Preisskat desk's to
    ``tournament.result_entry``)."""
    return _league_results(session, cmd, desk_of(session, cmd))


def _league_results(session: Session, cmd: Command, desk: Desk) -> Reply:
    lines = result_lines(cmd.rest)
    if not lines:
        raise RuleError(
            "Welches Ergebnis?", hint="Z. B. " + RESULT_EXAMPLE + " – eine Zeile pro Person."
        )
    lock_chat(session, cmd.place_id)
    league = desk.league
    lock_chat(session, league.chat_id)  # a host's chat and the tables write the same day
    require_runner(desk, cmd)
    day = open_day(session, desk)
    if not day.seated:
        raise RuleError("Es ist noch keine Serie gesetzt.", hint="Erst /setzen.")
    series = day.seated
    offset = 0
    chosen = RESULT_SERIES_LINE.match(lines[0])
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
    results, _line_of = parse_result_lines(lines, 1 + offset, names)
    entered = {r.name: r for r in results}
    return Reply(
        "\n".join(store_results(session, state, series, entered, cmd.user_id, cmd.update_id))
    )


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
    lock_chat(session, cmd.place_id)
    desk = desk_of(session, cmd)
    day = open_day(session, desk)
    teams = league_store.teams(session, desk.league)
    mine = [t for t in teams if t.captain_user_id is not None and t.captain_user_id == cmd.user_id]
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
        confirmed[team.id] = team.captain_name or cmd.user_name
    day.confirmed = json.dumps({str(k): v for k, v in confirmed.items()}, ensure_ascii=False)
    open_teams = [t.name for t in teams if t.id not in confirmed and state.appeared.get(t.id)]
    rest = (
        ("Noch offen: " + ", ".join(escape(n) for n in open_teams))
        if open_teams
        else ("Alle Kapitäne haben bestätigt.")
    )
    names = ", ".join(escape(t.name) for t in mine)
    return Reply(
        f"✅ {names} bestätigt die Ergebnisse von {day_label(day)} ({escape(cmd.user_name)}).\n"
        f"{rest}\n👉 Freigabe: die Ligaleitung mit /freigeben"
    )


def freigeben(session: Session, cmd: Command) -> Reply:
    lock_chat(session, cmd.place_id)
    league = require_league(session, cmd)
    require_manager(league, cmd)
    days = league_store.days(session, league)
    if cmd.args:
        word = cmd.args[0]
        day = next((d for d in days if is_number(word) and d.number == int(word)), None)
        if day is None:
            raise RuleError(
                f"Spieltag „{escape(word[:8])}“ gibt es nicht.",
                hint="Spieltage: "
                + (", ".join(str(d.number) for d in days) or "noch keiner")
                + ".",
            )
    else:
        day = current_day(session, league)
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
    league_store.approve(day, cmd.user_id)
    confirmed = confirmed_by(day)
    who = [
        f"{escape(t.name)} ({escape(confirmed[t.id])})" for t in state.teams if t.id in confirmed
    ]
    line = ("Bestätigt von: " + ", ".join(who)) if who else "Kein Kapitän hat bestätigt."
    return Reply(
        f"🔒 {day_label(day)} freigegeben – die Ergebnisse sind jetzt fest.\n{line}\n"
        + day_table_text(state).replace("vorläufig", "freigegeben")
    )
