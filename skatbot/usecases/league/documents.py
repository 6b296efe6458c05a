"""Reading a league: ``/tabelle`` (the season table, or one day with its series), the match
report and season table as PDFs (``/tabelle 1 pdf``, ``/tabelle pdf``) and ``/einzelwertung``
(average per game played, from the minimum share of games). Everyone may read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from skatbot.pdf import league as pdf_league
from skatbot.rules import league as lg
from skatbot.rules.errors import RuleError
from skatbot.rules.money import format_money
from skatbot.rules.numbers import is_number
from skatbot.rules.scoring import minus_sign
from skatbot.storage import league as league_store
from skatbot.storage.league_models import League
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Document, Reply
from skatbot.usecases.league.common import DayState, date_text, day_label, load_day, reading_desk
from skatbot.usecases.league.results import confirmed_by
from skatbot.usecases.league.texts import (
    day_table_text,
    order_text,
    series_text,
    settings_line,
    table_lines,
)


@dataclass(frozen=True)
class ShowTable:
    day: str | None  # the word naming a day (None: the season)
    as_pdf: bool


def parse_tabelle(cmd: Command) -> ShowTable:
    words = [w for w in cmd.args if w.casefold() != "pdf"]
    return ShowTable(words[0] if words else None, len(words) < len(cmd.args))


def tabelle(session: Session, place: Place, request: ShowTable) -> Reply:
    league = reading_desk(session, place).league
    if request.day is not None:
        return _day_table(session, league, request.day, request.as_pdf)
    return _season_table(session, league, request.as_pdf)


def _day_table(session: Session, league: League, word: str, as_pdf: bool) -> Reply:
    days = league_store.days(session, league)
    day = next((d for d in days if is_number(word) and d.number == int(word)), None)
    if day is None:
        have = ", ".join(str(d.number) for d in days) or "noch keiner"
        raise RuleError(
            f"Spieltag „{escape(word[:8])}“ gibt es nicht.",
            hint=f"Spieltage: {have}. Als PDF: /tabelle 1 pdf.",
        )
    state = load_day(session, league, day)
    parts = [series_text(state, s) for s in state.complete_series()]
    text = "\n\n".join([*parts, day_table_text(state)])
    if as_pdf:
        return _match_report(state, text)
    return Reply(text)


def _season_table(session: Session, league: League, as_pdf: bool) -> Reply:
    states = [load_day(session, league, d) for d in league_store.days(session, league)]
    table = lg.season_table(
        [s.day_table() for s in states if s.complete_series()],
        [t.name for t in league_store.teams(session, league)],
        league.ranking_order,
    )
    provisional = [str(s.day.number) for s in states if s.day.approved_at is None]
    note = f" – vorläufig: Spieltag {', '.join(provisional)}" if provisional else ""
    lines = [f"🏆 <b>{escape(league.name)} – Tabelle</b>{note}", *table_lines(table, True)]
    lines.append(order_text(league) + ".")
    text = "\n".join(lines)
    if as_pdf:
        return _season_pdf(league, table, provisional, text)
    return Reply(text + "\n👉 Als PDF: /tabelle pdf · ein Spieltag: /tabelle 1 pdf")


def _per_team_text(per_team: int) -> str:
    return "ein Punkt" if per_team == 1 else f"{per_team} Punkte"


def _slug(text: str) -> str:
    cleaned = "".join(c if c.isalnum() else "-" for c in text.casefold())
    return "-".join(part for part in cleaned.split("-") if part)[:40] or "liga"


def _table_rows(lines: Sequence[lg.DayLine], season: bool) -> list[pdf_league.TableRow]:
    return [
        pdf_league.TableRow(
            f"{line.place}.",
            line.team,
            lg.format_points(line.plus, line.minus),
            minus_sign(line.points),
            str(line.days) if season else "",
        )
        for line in lines
    ]


def _series_block(state: DayState, s: int) -> pdf_league.SeriesBlock:
    """Series ``s`` of the match report: every player by table, then the teams."""
    rows: list[pdf_league.PlayerRow] = []
    for number, table in enumerate(state.tables(s), 1):
        first = True
        scores = {p.name: p for p in lg.table_scores(state.played(s, table))}
        for seat in table:
            for name, start in state.occupants(s, seat):
                r = state.results[s][name]
                shown = name if start == 1 else f"{name} ab Spiel {start}"
                rows.append(
                    pdf_league.PlayerRow(
                        str(number) if first else "",
                        shown,
                        seat.team,
                        minus_sign(r.game_points),
                        str(r.won),
                        str(r.lost),
                        minus_sign(scores[name].score),
                    )
                )
                first = False
    teams = [
        pdf_league.TeamRow(
            line.team, minus_sign(line.points) if line.appeared else "–", line.reason
        )
        for line in state.match_points(s)
    ]
    return pdf_league.SeriesBlock(f"Serie {s} · {len(state.tables(s))} Tische", rows, teams)


def _match_report(state: DayState, caption_text: str) -> Reply:
    blocks = [_series_block(state, s) for s in state.complete_series()]
    day = state.day
    status = "freigegeben" if day.approved_at else "vorläufig"
    subtitle = " · ".join(
        part for part in (f"Spieltag {day.number}", day.venue or "", status) if part
    )
    host = (
        f"Ausrichter: {day.host_name} (dezentral, am {date_text(day.play_date)}). "
        if day.host_name
        else ""
    )
    footnotes = [
        f"{host}Startwert {day.seed}; der Sitzplan ist damit nachrechenbar (/hilfe liga).",
        f"Matchpunkte je Serie: {_per_team_text(state.league.match_points_per_team)} für jede "
        "Mannschaft mit kleinerer Summe, die Hälfte bei gleicher; nicht angetreten: keine "
        "Matchpunkte, keine Spielpunkte.",
    ]
    if state.league.lost_fee_cents:
        lost = state.lost_games()
        footnotes.append(
            f"Verlustspielgeld an den Ausrichter: {lost} × "
            f"{format_money(state.league.lost_fee_cents)} = "
            f"{format_money(lost * state.league.lost_fee_cents)}"
        )
    doc = pdf_league.MatchReport(
        title=state.league.name,
        subtitle=subtitle,
        notes=[settings_line(state.league)],
        series=blocks,
        table=_table_rows(state.day_table(), season=False),
        captains=[
            (
                t.name,
                (t.captain_name or "")
                + (" – bestätigt" if t.id in confirmed_by(state.day) else ""),
            )
            for t in state.teams
        ],
        footnotes=footnotes,
    )
    data, _ = pdf_league.render_match_report(doc)
    name = f"spielbericht-{_slug(state.league.name)}-{day.number}.pdf"
    caption = f"Spielbericht {day_label(day)} ({status})"
    return Reply(caption_text, documents=(Document(name, data, caption),))


def _season_pdf(
    league: League, table: Sequence[lg.DayLine], provisional: Sequence[str], text: str
) -> Reply:
    note = f"vorläufig: Spieltag {', '.join(provisional)}" if provisional else "alle freigegeben"
    doc = pdf_league.SeasonTable(
        title=league.name,
        subtitle=f"Tabelle · {note}",
        rows=_table_rows(table, season=True),
        notes=[order_text(league) + ".", "Nicht angetreten: keine Matchpunkte, keine Spielpunkte."],
    )
    data = pdf_league.render_season_table(doc)
    return Reply(
        text,
        documents=(Document(f"tabelle-{_slug(league.name)}.pdf", data, "Tabelle als PDF"),),
    )


def _average(x: Fraction) -> str:
    hundredths = round(x * 100)
    sign = "−" if hundredths < 0 else ""
    whole, rest = divmod(abs(hundredths), 100)
    return f"{sign}{whole},{rest:02d}"


@dataclass(frozen=True)
class ShowIndividual:
    pass


def parse_einzelwertung(cmd: Command) -> ShowIndividual:
    return ShowIndividual()


def einzelwertung(session: Session, place: Place, request: ShowIndividual) -> Reply:
    league = reading_desk(session, place).league
    scores: list[lg.PersonScore] = []
    for day in league_store.days(session, league):
        state = load_day(session, league, day)
        for s in state.complete_series():
            scores.extend(state.person_scores(s))
    if not scores:
        raise RuleError(
            "Noch keine fertige Serie.",
            hint="Die Einzelwertung beginnt mit der ersten vollständig eingetragenen Serie.",
        )
    lines, minimum = lg.individual_ranking(scores, league.min_share)
    out = [
        f"🎯 <b>{escape(league.name)} – Einzelwertung</b> (Schnitt je gespieltem Spiel, "
        f"gewertet ab {minimum} Spielen = {league.min_share} % der meisten)"
    ]
    below = False
    for line in lines:
        text = (
            f"{escape(line.name)} ({escape(line.team)}) – {_average(line.average)} je Spiel "
            f"({minus_sign(line.score)} Punkte in {line.games} Spielen)"
        )
        if line.place is None:
            if not below:
                out.append(f"Unter {minimum} Spielen (nicht gewertet):")
                below = True
            out.append(text)
        else:
            out.append(f"{line.place}. {text}")
    return Reply("\n".join(out))
