"""/saison, /saisonregeln and /export saison: the season table of a place (chat or topic).

What counts: the place's closed ISkO lists (their Seeger-Fabian totals) and the complete
series of a tournament played at the place (each table of a series is one series for the
season). Lists under house rules have no Seeger-Fabian score: they are left out and the
reply says how many. A list's day is the day it was started (Europe/Berlin), as for /abend.
Names become people with ``people.resolve_people``.

The counting rules live in the place's settings (``ChatSettings.season``); the table is
``rules.season.season_table``, the Skatzahl ``rules.rating.replay`` over every series up to
the end of the period (so a past season shows the Skatzahl as it was then).
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from skatbot.rules import rating as rt
from skatbot.rules.calendar import berlin_date, berlin_today
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.rules.scoring import minus_sign
from skatbot.rules.season import Counting, Line, Result, SeasonRules, Series, Table, season_table
from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.season import closed_lists
from skatbot.storage.unit import Session
from skatbot.usecases.common import rich, texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Document, Reply
from skatbot.usecases.people.persons import resolve_people
from skatbot.usecases.season import texts as season_texts
from skatbot.usecases.season.texts import RULES_HINT, rules_text

if TYPE_CHECKING:
    from skatbot.pdf.season import SeasonDocument

FORMAT = "skatbot-saison/1"
MAX_BEST = 1000

MONTHS = {
    1: ("januar", "jan", "jänner"),
    2: ("februar", "feb"),
    3: ("märz", "maerz", "marz", "mär", "mrz"),
    4: ("april", "apr"),
    5: ("mai",),
    6: ("juni", "jun"),
    7: ("juli", "jul"),
    8: ("august", "aug"),
    9: ("september", "sep", "sept"),
    10: ("oktober", "okt"),
    11: ("november", "nov"),
    12: ("dezember", "dez"),
}
MONTH_NAMES = {n: words[0].capitalize() for n, words in MONTHS.items()}
_MONTH_WORDS = {w: n for n, words in MONTHS.items() for w in words}


# --- the period ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date  # inclusive
    label: str  # "2026", "März 2026", "01.03.2026 – 31.05.2026"

    @property
    def slug(self) -> str:
        if (
            self.start.month == 1
            and self.start.day == 1
            and self.end == dt.date(self.start.year, 12, 31)
        ):
            return str(self.start.year)
        return f"{self.start.isoformat()}-bis-{self.end.isoformat()}"


def _date_text(day: dt.date) -> str:
    return f"{day.day:02d}.{day.month:02d}.{day.year}"


def _year(word: str) -> int:
    if not re.fullmatch(r"[0-9]{4}", word) or not 2000 <= int(word) <= 2100:
        raise RuleError(f"„{word[:12]}“ ist kein Jahr.", hint="Z. B. /saison 2026")
    return int(word)


def _month_end(year: int, month: int) -> dt.date:
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def _month(year: int, month: int) -> Period:
    return Period(dt.date(year, month, 1), _month_end(year, month), f"{MONTH_NAMES[month]} {year}")


def _parse_date(word: str) -> dt.date:
    m = re.fullmatch(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})", word) or None
    try:
        if m:
            return dt.date(int(m[3]), int(m[2]), int(m[1]))
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", word):
            return dt.date.fromisoformat(word)
    except ValueError:
        pass
    raise RuleError(f"„{word[:12]}“ ist kein Datum.", hint="Datum als TT.MM.JJJJ, z. B. 01.03.2026")


HINT = "/saison · /saison 2026 · /saison märz 2026 · /saison von 01.03.2026 bis 31.05.2026"


def parse_period(words: list[str], today: dt.date) -> Period:
    """``[]`` (this year), ``JAHR``, ``MONAT JAHR`` (name or number, also 03/2026, 2026-03),
    ``von DATUM bis DATUM``."""
    w = [x.casefold().rstrip(",") for x in words]
    if not w:
        return Period(dt.date(today.year, 1, 1), dt.date(today.year, 12, 31), str(today.year))
    if w[0] == "von" and not (len(w) == 4 and w[2] == "bis"):
        raise RuleError("Von wann bis wann?", hint="Z. B. /saison von 01.03.2026 bis 31.05.2026")
    if len(w) == 1:
        return _one_word(w[0])
    if len(w) == 2:
        return _named_month(w, words)
    if len(w) == 4 and w[0] == "von" and w[2] == "bis":
        start, end = _parse_date(w[1]), _parse_date(w[3])
        if end < start:
            raise RuleError("Das Ende liegt vor dem Anfang.", hint=HINT)
        return Period(start, end, f"{_date_text(start)} – {_date_text(end)}")
    raise RuleError("Welcher Zeitraum?", hint=HINT)


def _one_word(word: str) -> Period:
    """A year (``2026``) or a month as numbers (``03/2026``, ``3.2026``, ``2026-03``)."""
    m = re.fullmatch(r"([0-9]{1,2})[/.]([0-9]{4})|([0-9]{4})-([0-9]{1,2})", word)
    if m:
        month = int(m[1] or m[4])
        year = _year(m[2] or m[3])
        if not 1 <= month <= 12:
            raise RuleError(f"Einen Monat {month} gibt es nicht.", hint=HINT)
        return _month(year, month)
    year = _year(word)
    return Period(dt.date(year, 1, 1), dt.date(year, 12, 31), str(year))


def _named_month(w: list[str], words: list[str]) -> Period:
    """``märz 2026`` or ``3 2026`` (``w``: the words casefolded)."""
    named = _MONTH_WORDS.get(w[0].rstrip("."))
    if named is None and is_number(w[0]) and 1 <= int(w[0]) <= 12:
        named = int(w[0])
    if named is None:
        raise RuleError(f"„{words[0][:12]}“ ist kein Monat.", hint=HINT)
    return _month(_year(w[1]), named)


# --- the rules (/saisonregeln) ------------------------------------------------------------------


def season_rules(session: Session, place: int) -> SeasonRules:
    return chats.settings_of(session, place).season or SeasonRules()


@dataclass(frozen=True)
class ShowSeasonRules:
    pass


# One word of /saisonregeln as a change of the rules: the field and its new value
# (``standard``: every field back to its default). Applied in the order written.
Step = tuple[str, Any]


@dataclass(frozen=True)
class SetSeasonRules:
    steps: tuple[Step, ...]


_COUNTING_WORDS = {
    **dict.fromkeys(("summe", "sum"), Counting.SUM),
    **dict.fromkeys(("schnitt", "durchschnitt", "mittel"), Counting.AVERAGE),
}
_NUMBER_WORDS = {
    **dict.fromkeys(("mindestens", "min", "mind", "mind."), "minimum"),
    **dict.fromkeys(("beste", "besten"), "best"),
}
_LANTERN_VALUES = ("an", "aus", "ja", "nein", "laterne")


def _count_after(words: list[str], i: int) -> int:
    """The number after the word at ``i`` (``mindestens 3``)."""
    after = words[i]
    if i + 1 < len(words):
        refuse_foreign_digits(words[i + 1], "eine Anzahl", f"/saisonregeln {after} 3")
    if i + 1 >= len(words) or not is_number(words[i + 1]):
        raise RuleError(f"Nach „{after}“ fehlt die Zahl.", hint=f"Z. B. /saisonregeln {after} 3")
    n = int(words[i + 1])
    if not 1 <= n <= MAX_BEST:
        raise RuleError(f"{n} geht bei „{after}“ nicht.", hint=f"Eine Zahl von 1 bis {MAX_BEST}.")
    return n


def _step(words: list[str], i: int, raw: tuple[str, ...]) -> tuple[Step, int]:
    """The change the word at ``i`` asks for, and how many words it took."""
    word = words[i]
    if word in _COUNTING_WORDS:
        return ("counting", _COUNTING_WORDS[word]), 1
    if word in _NUMBER_WORDS:
        return (_NUMBER_WORDS[word], _count_after(words, i)), 2
    if word == "alle":
        return ("best", None), 1
    if word in ("laterne", "rote"):
        if i + 1 < len(words) and words[i + 1] in _LANTERN_VALUES:
            return ("lantern", words[i + 1] in ("an", "ja", "laterne")), 2
        return ("lantern", True), 1
    if word in ("standard", "zurück", "zurueck"):
        return ("standard", None), 1
    raise RuleError(f"„{raw[i][:20]}“ kenne ich bei /saisonregeln nicht.", hint=RULES_HINT)


def parse_rules(cmd: Command) -> ShowSeasonRules | SetSeasonRules:
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ShowSeasonRules()
    steps: list[Step] = []
    i = 0
    while i < len(words):
        step, used = _step(words, i, cmd.args)
        steps.append(step)
        i += used
    return SetSeasonRules(tuple(steps))


def changed_rules(rules: SeasonRules, steps: tuple[Step, ...]) -> SeasonRules:
    for field_name, value in steps:
        if field_name == "standard":
            rules = SeasonRules()
        else:
            rules = dataclasses.replace(rules, **{field_name: value})
    return rules


def saisonregeln(
    session: Session, place: Place, request: ShowSeasonRules | SetSeasonRules
) -> season_texts.SeasonRulesShown:
    """Show or change the counting rules of the season table."""
    rules = season_rules(session, place.id)
    if isinstance(request, ShowSeasonRules):
        return season_texts.SeasonRulesShown(rules, changed=False)
    new = changed_rules(rules, request.steps)
    chats.update_settings(session, place.id, lambda c: dataclasses.replace(c, season=new))
    return season_texts.SeasonRulesShown(new, changed=True)


# --- the series of a place ---------------------------------------------------------------------


def _aware(moment: dt.datetime | None) -> dt.datetime:
    if moment is None:
        return dt.datetime.now(dt.UTC)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def _distinct(results: list[Result]) -> tuple[Result, ...]:
    """Two names of one series that are one person (bad data, /spieler zusammen refuses it)
    stay apart: the second gets its own key."""
    seen: set[str] = set()
    out = []
    for r in results:
        if r.key in seen:
            r = Result(f"{r.key}#{r.spelling}", r.spelling or r.name, r.score, r.won, r.lost)
        seen.add(r.key)
        out.append(r)
    return tuple(out)


@dataclass(frozen=True)
class History:
    series: list[Series]  # every series of the place, oldest first
    house_lists: list[dt.date]  # days of closed lists under house rules (not counted)


def history(session: Session, place: int) -> History:
    person = resolve_people(session, place)
    out: list[Series] = []
    house: list[dt.date] = []
    for lst in closed_lists(session, place):
        loaded = lists_store.load(session, lst)
        sheet = loaded.sheet
        day = berlin_date(lst.created_at)
        if sheet.games_played == 0:
            continue  # a list without a game is no series, not even a house-rules one
        if sheet.house is not None:
            house.append(day)
            continue
        results = []
        for t in sheet.totals():
            p = person(t.name)
            results.append(Result(p.key, p.name, t.score, t.won, t.lost, spelling=t.name))
        out.append(
            Series(
                f"liste:{lst.id}",
                day,
                sheet.games_played,
                _distinct(results),
                _aware(lst.created_at),
                length=lst.series_length,
            )
        )
    out.extend(_tournament_series(session, place, person))
    out.sort(key=lambda s: (s.day, s.at.timestamp() if s.at else 0.0, s.id))
    return History(out, house)


def _tournament_series(session: Session, place: int, person: Any) -> list[Series]:
    from skatbot.storage import tournament as trepo

    out = []
    for t in trepo.tournaments_of(session, place):  # every tournament of the desk
        out.extend(_series_of(t, trepo.load_series(session, t), person))
    return out


def _series_of(t: Any, done: Any, person: Any) -> list[Series]:
    from skatbot.rules.errors import RuleError as Refusal
    from skatbot.rules.tournament import missing_results, series_scores

    lengths = {3: t.games_3, 4: t.games_4}
    out = []
    for s in done:
        if missing_results(s.tables, s.results):
            continue
        try:
            scores = series_scores(s.tables, s.results, lengths, series=s.number)
        except (Refusal, ValueError):
            continue
        for i, table in enumerate(s.tables, 1):
            results = []
            for name in table:
                p, sc = person(name), scores[name]
                results.append(Result(p.key, p.name, sc.score, sc.won, sc.lost, spelling=name))
            out.append(
                Series(
                    f"turnier:{t.id}:{s.number}:{i}",
                    berlin_date(s.row.created_at),
                    lengths.get(len(table), 48),
                    _distinct(results),
                    _aware(s.row.created_at),
                )
            )
    return out


# --- the season --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Season:
    period: Period
    rules: SeasonRules
    table: Table
    series: list[Series]  # in the period
    ratings: dict[str, rt.Rating]  # as of the period's end (or today, if earlier)
    house_lists: int  # closed lists under house rules in the period (not counted)


def season_of(session: Session, place: int, period: Period, today: dt.date) -> Season:
    h = history(session, place)
    rules = season_rules(session, place)
    inside = [s for s in h.series if period.start <= s.day <= period.end]
    until = min(period.end, max(today, period.start))
    return Season(
        period=period,
        rules=rules,
        table=season_table(inside, rules),
        series=inside,
        ratings=rt.replay(h.series, until=until),
        house_lists=sum(1 for d in h.house_lists if period.start <= d <= period.end),
    )


def value_text(total: Fraction, counting: Counting, *, grouped: bool = True) -> str:
    """SUM: the integer ("1.305"); AVERAGE: one decimal with a comma ("512,3", "1.234,5"),
    rounded half up. ``grouped=False``: no thousands dots (the CSV, read by spreadsheets)."""
    if counting is Counting.SUM and total.denominator == 1:
        return minus_sign(int(total)) if grouped else str(int(total)).replace("-", "−")
    tenths = math.floor(total * 10 + Fraction(1, 2))
    whole = minus_sign(abs(tenths) // 10) if grouped else str(abs(tenths) // 10)
    return f"{'−' if tenths < 0 else ''}{whole},{abs(tenths) % 10}"


def _skatzahl(season: Season, key: str) -> str:
    r = season.ratings.get(key)
    return "–" if r is None else str(rt.skatzahl(r))


def _season_notes(season: Season) -> list[str]:
    """What the ranked lines leave out: the lantern, the players not yet ranked, the series
    not scaled up and the lists under house rules."""
    table, notes = season.table, []
    if table.lantern:
        names = ", ".join(escape(x.name) for x in table.ranked if x.key in table.lantern)
        notes.append(f"🏮 Rote Laterne: {names}")
    if table.unranked:
        rest = ", ".join(f"{escape(x.name)} ({x.played})" for x in table.unranked)
        notes.append(f"Noch nicht gewertet (unter {season.rules.minimum} Serien): {rest}")
    if table.unscaled:
        broken = ", ".join(
            f"{texts.day(x.day)} ({x.games} von {x.length} Spielen)"
            for x in season.series
            if x.id in table.unscaled
        )
        notes.append(f"Nicht hochgerechnet (abgebrochen, zählen wie gespielt): {broken}")
    if season.house_lists:
        n = season.house_lists
        lists = "1 Liste mit Hausregeln zählt" if n == 1 else f"{n} Listen mit Hausregeln zählen"
        notes.append(f"{lists} nicht (keine Seeger-Fabian-Wertung).")
    return notes


def season_text(season: Season, *, pdf_hint: bool = True) -> str:
    table, rules = season.table, season.rules
    lines = [f"🏆 <b>Saison {escape(season.period.label)}</b> – {texts.series_count(table.series)}"]
    lines.append(f"Wertung: {escape(rules_text(rules))}")
    if not table.series:
        lines.append("Keine abgeschlossene Serie in diesem Zeitraum.")
    for line in table.ranked:
        count = texts.series_count(line.played)
        if rules.best is not None and line.played > len(line.counted):
            count += f", beste {len(line.counted)}"
        mark = " 🏮" if line.key in table.lantern else ""
        lines.append(
            f"{line.place}. <b>{escape(line.name)} {value_text(line.total, rules.counting)}</b>{mark}"
            f" · {count} · {line.won} gew., {line.lost} verl. · Skatzahl {_skatzahl(season, line.key)}"
        )
    lines += _season_notes(season)
    if table.ranked:
        lines.append(
            "Gleichstand: mehr gewonnene, dann weniger verlorene Spiele. Skatzahl: /hilfe rating"
        )
    if pdf_hint:
        lines.append("Als PDF: /saison pdf · Daten: /export saison · Regeln: /saisonregeln")
    return "\n".join(lines)


def season_doc(season: Season) -> rich.RichDoc:
    """``season_text`` with the ranked players as a table."""
    text_lines = season_text(season).split("\n")
    table, rules = season.table, season.rules
    rows = []
    for line in table.ranked:
        count = str(line.played)
        if rules.best is not None and line.played > len(line.counted):
            count += f" (beste {len(line.counted)})"
        mark = " 🏮" if line.key in table.lantern else ""
        rows.append(
            (
                rich.Cell(f"{line.place}.", right=True),
                rich.Cell(f"<b>{escape(line.name)}</b>{mark}"),
                rich.Cell(f"<b>{escape(value_text(line.total, rules.counting))}</b>", right=True),
                rich.Cell(count, right=True),
                rich.Cell(str(line.won), right=True),
                rich.Cell(str(line.lost), right=True),
                rich.Cell(escape(str(_skatzahl(season, line.key))), right=True),
            )
        )
    head = ("Platz", "Spieler", "Wertung", "Serien", "gew.", "verl.", "Skatzahl")
    rest = text_lines[2 + len(table.ranked) :]  # what follows the ranked lines
    blocks: list[rich.Block] = [rich.Heading(text_lines[0]), rich.Paragraph(text_lines[1])]
    if rows:
        blocks.append(rich.glance_table(head, tuple(rows)))  # seven columns: compact
    if rest:
        blocks.append(rich.Paragraph("\n".join(rest)))
    return rich.RichDoc(tuple(blocks))


@dataclass(frozen=True)
class SeasonRequest:
    period: Period
    today: dt.date
    pdf: bool


def parse(cmd: Command) -> SeasonRequest:
    words = list(cmd.args)
    pdf = any(w.casefold() == "pdf" for w in words)
    words = [w for w in words if w.casefold() != "pdf"]
    today = berlin_today()
    return SeasonRequest(parse_period(words, today), today, pdf)


def saison(session: Session, place: Place, request: SeasonRequest) -> Reply:
    period = request.period
    season = season_of(session, place.id, period, request.today)
    if not request.pdf or not season.table.series:
        settings = rich.settings_of(session, place.id, None)
        return Reply(rich.maybe(season_text(season), season_doc(season), settings))
    from skatbot.pdf.season import render_season

    data, lossy = render_season(season_document(season, place.title))
    text = season_text(season, pdf_hint=False)
    if lossy:
        text += "\n" + texts.lossy_names_note(lossy)
    caption = f"Saison {season.period.label} als PDF"
    return Reply(text, documents=(Document(f"saison-{period.slug}.pdf", data, caption),))


def season_document(season: Season, chat_title: str) -> SeasonDocument:
    from skatbot.pdf.season import SeasonDocument, SeasonRow

    rules = season.rules

    def row(line: Line) -> SeasonRow:
        return SeasonRow(
            place=line.place,
            name=line.name,
            played=line.played,
            counted=len(line.counted),
            value=value_text(line.total, rules.counting),
            won=line.won,
            lost=line.lost,
            skatzahl=_skatzahl(season, line.key),
            lantern=line.key in season.table.lantern,
        )

    title = f"Saison {season.period.label}"
    return SeasonDocument(
        title=f"{title} – {chat_title}" if chat_title else title,
        period=f"{_date_text(season.period.start)} – {_date_text(season.period.end)}",
        series=season.table.series,
        rules=rules_text(rules),
        value_label="Summe" if rules.counting is Counting.SUM else "Schnitt/48",
        minimum=rules.minimum,
        ranked=[row(x) for x in season.table.ranked],
        unranked=[row(x) for x in season.table.unranked],
        house_lists=season.house_lists,
    )


# --- /export saison ---------------------------------------------------------------------------


def _line_json(season: Season, line: Line) -> dict[str, object]:
    exact = line.total
    r = season.ratings.get(line.key)
    return {
        "place": line.place,
        "person": line.key,
        "name": line.name,
        "series": line.played,
        "counted": len(line.counted),
        "value": int(exact) if exact.denominator == 1 else round(float(exact), 2),
        "value_exact": str(exact),
        "won": line.won,
        "lost": line.lost,
        "lantern": line.key in season.table.lantern,
        "skatzahl": None if r is None else rt.skatzahl(r),
        "mu": None if r is None else round(r.mu, 6),
        "sigma": None if r is None else round(r.sigma, 6),
    }


def export_document(season: Season) -> dict[str, object]:
    rules = season.rules
    return {
        "format": FORMAT,
        "period": {
            "from": season.period.start.isoformat(),
            "to": season.period.end.isoformat(),
            "label": season.period.label,
        },
        "rules": {
            "counting": rules.counting.value,
            "normal_games": 48,
            "minimum": rules.minimum,
            "best": rules.best,
            "lantern": rules.lantern,
            "ties": "won desc, lost asc, then shared place",
        },
        "rating": {
            "model": "openskill PlackettLuce (mu 25, sigma 25/3, tau 25/300)",
            "skatzahl": "1000 + 40 * (mu - 3 * sigma)",
            "absence": f"sigma^2 += sigma0^2/365 per day beyond {rt.GRACE_DAYS} days away",
        },
        "ranking": [_line_json(season, x) for x in season.table.ranked],
        "unranked": [_line_json(season, x) for x in season.table.unranked],
        "series": [
            {
                "id": s.id,
                "date": s.day.isoformat(),
                "at": s.at.isoformat() if s.at else None,  # orders the series of one day
                "games": s.games,
                "results": [
                    {
                        "person": r.key,
                        "name": r.name,
                        "spelling": r.spelling or r.name,
                        "score": r.score,
                        "won": r.won,
                        "lost": r.lost,
                    }
                    for r in s.results
                ],
            }
            for s in season.series
        ],
        "house_lists_left_out": season.house_lists,
    }


def export_csv(season: Season) -> bytes:
    """For spreadsheets (German locale): semicolons, decimal comma, UTF-8 with BOM."""
    out = io.StringIO()
    w = csv.writer(out, delimiter=";", lineterminator="\r\n")
    w.writerow(["Platz", "Name", "Serien", "gezählt", "Wertung", "gewonnen", "verloren",
                "Skatzahl", "Rote Laterne"])  # fmt: skip
    for line in [*season.table.ranked, *season.table.unranked]:
        w.writerow(
            [
                line.place if line.place is not None else "",
                line.name,
                line.played,
                len(line.counted),
                value_text(line.total, season.rules.counting, grouped=False).replace("−", "-"),
                line.won,
                line.lost,
                _skatzahl(season, line.key).replace("–", ""),
                "ja" if line.key in season.table.lantern else "",
            ]
        )
    return ("\ufeff" + out.getvalue()).encode()


def export_saison(session: Session, cmd: Command) -> Reply:
    """``/export saison [ZEITRAUM]``: the season as JSON (skatbot-saison/1) and CSV."""
    today = berlin_today()
    period = parse_period(list(cmd.args[1:]), today)
    season = season_of(session, cmd.place_id, period, today)
    raw = json.dumps(export_document(season), ensure_ascii=False, indent=2).encode()
    slug = period.slug
    return Reply(
        f"📎 Saison {escape(period.label)}: {texts.series_count(season.table.series)}, "
        f"{len(season.table.ranked)} gewertet.",
        documents=(
            Document(f"skatbot-saison-{slug}.json", raw, f"Saison als JSON ({FORMAT})"),
            Document(f"skatbot-saison-{slug}.csv", export_csv(season), "Saison als CSV"),
        ),
    )
