"""``/rangliste`` (over all series, of one series, as PDF), ``/urkunden`` and
``/turnierregeln`` (how the ranking counts: the sum, or the average from a minimum of
series). The rankings are :mod:`skatbot.rules.ranking`'s; reading is open to everyone, a
tournament number (``turnier N``) shows an earlier one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from skatbot.rules import teams as tm
from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.rules.ranking import Ranked, lot_note
from skatbot.rules.scoring import minus_sign
from skatbot.storage import tournament as trepo
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import rich, texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Document, Reply
from skatbot.usecases.tournament import cash, tournament_season
from skatbot.usecases.tournament import teams as teams_uc
from skatbot.usecases.tournament import texts as tournament_texts
from skatbot.usecases.tournament.desk import latest
from skatbot.usecases.tournament.results import (
    counting_of,
    full_ranking,
    names_line,
    ranking_of,
    series_ranking,
    series_span,
)
from skatbot.usecases.tournament.series_length import MAX_SERIES_GAMES

PDF_SUMMARY_PLACES = 3  # places named in the chat when the ranking comes as PDF


def _require_ranking(
    t: Tournament, done: Sequence[trepo.LoadedSeries]
) -> tuple[list[Ranked], list[int], list[int]]:
    ranked, complete, incomplete = ranking_of(t, done)
    if not complete:
        if not done:
            raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
        raise RuleError(
            "Noch keine Serie ist vollständig eingetragen.",
            hint="Was fehlt, zeigt /fehlend.",
        )
    return ranked, complete, incomplete


@dataclass(frozen=True)
class ShowRanking:
    tournament: int | None  # "turnier N"; None: the latest
    pdf: bool = False


@dataclass(frozen=True)
class ShowSeriesRanking:
    tournament: int | None
    series: int


def parse_rangliste(cmd: Command) -> ShowRanking | ShowSeriesRanking:
    number, rest = tournament_season.split_number(cmd.args)
    words = [w.lower() for w in rest]
    if words[:1] == ["serie"]:
        series = words[1:]
        if len(series) != 1 or not is_number(series[0]) or len(series[0]) > 4:
            raise RuleError("Welche Serie?", hint="Z. B. /rangliste serie 2")
        return ShowSeriesRanking(number, int(series[0]))
    if words not in ([], ["pdf"]):
        raise RuleError(
            "Das kenne ich bei /rangliste nicht.",
            hint="/rangliste, /rangliste pdf, /rangliste serie 2 oder /rangliste turnier 1",
        )
    return ShowRanking(number, pdf=words == ["pdf"])


def rangliste(session: Session, place: Place, request: ShowRanking | ShowSeriesRanking) -> Reply:
    t = tournament_season.chosen_at(session, place, request.tournament)
    if isinstance(request, ShowSeriesRanking):
        return _series_rangliste(session, t, request.series)
    done = trepo.load_series(session, t)
    _require_ranking(t, done)
    full = full_ranking(t, done)
    counting = counting_of(t)
    lines = [f"🏆 <b>Rangliste – {escape(t.name)}</b> ({series_span(full.complete)})"]
    shown = tournament_season.shown_line(session, t)
    if shown:
        lines.append(shown)
    first = len(lines)
    ranking_lines, columns = _ranking_lines(full, counting)
    lines.extend(ranking_lines)
    lines.extend(_notes(full, counting, bool(columns)))
    note = lot_note(full.ranked, t.seed, _average_tie(full) if counting.average else None)
    if note:
        lines.append(f"🎲 {escape(note)}")
    lines.append(TIE_LINE)
    team_ranking = teams_uc.ranking(session, t, full.ranked)
    lines.extend(teams_uc.ranking_lines(t, team_ranking))
    if request.pdf:
        return _ranking_pdf(
            t, full, counting, note, team_ranking, lines[: first + PDF_SUMMARY_PLACES]
        )
    which = f" turnier {t.number}" if shown else ""
    lines.append(f"Als PDF: /rangliste{which} pdf")
    table = rich.ranking_doc(
        lines[0], full.ranked, lines[first + len(full.ranked) :], notes=lines[1:first],
        columns=columns,
    )  # fmt: skip
    settings = rich.settings_of(session, place.id, None)
    return Reply(rich.maybe("\n".join(lines), table, settings))


def _notes(full: tr.SeriesRanking, counting: tr.Counting, columns: bool) -> list[str]:
    """Who is not ranked, how the ranking counts (only where absences matter) and which
    series are not counted yet."""
    lines = []
    if full.unranked:
        lines.append(
            f"Nicht gewertet (weniger als {texts.series_count(counting.minimum)}): "
            + names_line(full.unranked)
        )
    if columns:
        lines.append(tournament_texts.counting_line(counting))
    if full.incomplete:
        verb = "ist" if len(full.incomplete) == 1 else "sind"
        lines.append(
            f"ℹ️ {series_span(full.incomplete)} {verb} noch unvollständig und nicht gewertet "
            "(/fehlend)."
        )
    return lines


def _ranking_pdf(
    t: Tournament,
    full: tr.SeriesRanking,
    counting: tr.Counting,
    note: str,
    team_ranking: Sequence[tm.TeamRanked],
    head: list[str],
) -> Reply:
    """The ranking as PDF. The PDF is what was asked for: the chat gets a short summary as
    its caption (the whole ranking of a large field would be a dozen messages), the PDF has
    every place and note. ``head``: the title (and which tournament), then the first places."""
    from skatbot.pdf.ranking import RankingRow, render_ranking

    ranked = full.ranked
    rows = [
        RankingRow(
            r.place, r.standing.name, r.standing.score, r.standing.won, r.standing.lost, r.by_lot
        )
        for r in ranked
    ]
    pdf, lost = render_ranking(
        t.name,
        dt.date.today(),
        rows,
        note,
        full.complete,
        full.incomplete,
        *teams_uc.pdf_rows(t, team_ranking),
        held=tournament_season.day_of(t),
        scoring=_pdf_scoring(counting),
    )
    summary = list(head)
    if len(ranked) > PDF_SUMMARY_PLACES:
        summary.append(f"… alle {len(ranked)} Plätze stehen im PDF.")
    if full.incomplete:
        summary.append(f"ℹ️ {series_span(full.incomplete)} noch unvollständig (/fehlend).")
    summary.extend(teams_uc.pdf_summary(team_ranking))
    if lost:
        summary.append(texts.lossy_names_note(lost))
    doc = Document(tournament_season.file_name("rangliste", t), pdf, f"Rangliste {t.name}"[:200])
    return Reply("\n".join(summary), documents=(doc,))


@dataclass(frozen=True)
class Certificates:
    tournament: int | None
    places: int = 3  # for places 1 to ``places``


def parse_urkunden(cmd: Command) -> Certificates:
    number, words = tournament_season.split_number(cmd.args)
    if not words:
        return Certificates(number)
    if len(words) != 1 or not is_number(words[0]) or len(words[0]) > 4 or int(words[0]) < 1:
        raise RuleError("Für wie viele Plätze?", hint="Z. B. /urkunden 3")
    return Certificates(number, int(words[0]))


def urkunden(session: Session, place: Place, request: Certificates) -> Reply:
    from skatbot.pdf.certificates import render_certificates

    t = tournament_season.chosen_at(session, place, request.tournament)
    ranked, complete, incomplete = _require_ranking(t, trepo.load_series(session, t))
    n = request.places
    if n > len(ranked):
        raise RuleError(
            f"Die Rangliste hat nur {len(ranked)} Plätze.", hint=f"Z. B. /urkunden {len(ranked)}"
        )
    places = [(r.place, r.standing.name, r.standing.score) for r in ranked[:n]]
    prizes = cash.certificate_prizes(session, t)  # the prize on each certificate
    pdf, lost = render_certificates(t.name, tournament_season.day_of(t), places, prizes)  # its day
    span = "Platz 1" if n == 1 else f"Platz 1–{n}"
    lines = [f"📜 Urkunden für {span} – {escape(t.name)} ({series_span(complete)})."]
    shown = tournament_season.shown_line(session, t)
    if shown:
        lines.append(shown)
    if incomplete:
        lines.append(f"ℹ️ {series_span(incomplete)} noch unvollständig, nicht gewertet.")
    if lost:
        lines.append(texts.lossy_names_note(lost))
    doc = Document(tournament_season.file_name("urkunden", t), pdf, f"Urkunden {t.name}"[:200])
    return Reply("\n".join(lines), documents=(doc,))


TIE_LINE = "Gleichstand: mehr gewonnene Spiele, dann weniger verlorene, dann das Los."


def _average_tie(full: tr.SeriesRanking) -> Callable[[Ranked], object]:
    """What makes two entries of the average ranking equal (for the lot's note)."""

    def tie(r: Ranked) -> object:
        n = full.played.get(r.standing.name, 1)
        s = r.standing
        return (Fraction(s.score, n), Fraction(s.won, n), Fraction(s.lost, n))

    return tie


def _ranking_lines(
    full: tr.SeriesRanking, counting: tr.Counting
) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """A line per ranked player, and what the lines add to score and games as the table's
    columns: the average and the series played under "Schnitt", the series played where
    someone missed one (none: everyone played every series, counted as a sum)."""
    complete = len(full.complete)
    lines, averages, series = [], [], []
    for r in full.ranked:
        s = r.standing
        line = (
            f"{r.place}. {escape(s.name)} – {minus_sign(s.score)} Punkte · {s.won} gewonnen, "
            f"{s.lost} verloren"
        )
        played = full.played.get(s.name, 0)
        if counting.average:
            line += f" · Schnitt {_average(s.score, played)} aus {texts.series_count(played)}"
        elif played < complete:
            line += f" · {played} von {complete} Serien"
        lines.append(line)
        averages.append(_average(s.score, played))
        series.append(str(played) if played == complete else f"{played} von {complete}")
    columns = [("Schnitt", averages)] if counting.average else []
    if counting.average or any(full.played.get(r.standing.name, 0) < complete for r in full.ranked):
        columns.append(("Serien", series))
    return lines, columns


def _average(score: int, played: int) -> str:
    value = round(score / played, 1) if played else 0.0
    return minus_sign(int(value)) if value == int(value) else f"{value:.1f}".replace(".", ",")


def _pdf_scoring(counting: tr.Counting) -> str:
    if counting.average:
        return (
            "Wertung: Schnitt der Seeger-Fabian-Wertungen je gespielter Serie, gewertet ab "
            f"{texts.series_count(counting.minimum)}."
        )
    return ""  # the PDF's default: the sum


def _series_rangliste(session: Session, t: Tournament, number: int) -> Reply:
    done = trepo.load_series(session, t)
    if not done:
        raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
    if not 1 <= number <= len(done):
        raise RuleError(
            f"Serie {number} gibt es nicht.", hint=f"Ausgelost: Serie 1 bis {len(done)}."
        )
    target = done[number - 1]
    if tr.missing_results(target.tables, target.results):
        raise RuleError(
            f"Serie {number} ist noch unvollständig.", hint="Was fehlt, zeigt /fehlend."
        )
    ranked = series_ranking(t, target)
    lines = [f"🏅 <b>Serie {number} – {escape(t.name)}</b>"]
    shown = tournament_season.shown_line(session, t)
    if shown:
        lines.append(shown)
    for r in ranked:
        x = r.standing
        lines.append(
            f"{r.place}. {escape(x.name)} – {minus_sign(x.score)} Punkte · {x.won} gewonnen, "
            f"{x.lost} verloren"
        )
    note = lot_note(ranked, t.seed)
    if note:
        lines.append(f"🎲 {escape(note)}")
    lines.append(TIE_LINE)
    lines.append("Serienpreise (/preise serie …) gehen nach dieser Rangliste.")
    return Reply("\n".join(lines))


# --- /turnierregeln ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ShowCounting:
    pass


@dataclass(frozen=True)
class SetCounting:
    counting: tr.Counting


AVERAGE_WORDS = ("mindestens", "min", "ab")


def parse_turnierregeln(cmd: Command) -> ShowCounting | SetCounting:
    """``/turnierregeln``: show; ``summe``; ``schnitt [mindestens N]``."""
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ShowCounting()
    if words == ["summe"]:
        return SetCounting(tr.Counting())
    if words == ["schnitt"]:
        return SetCounting(tr.Counting(True, 1))
    if (
        len(words) == 3
        and words[0] == "schnitt"
        and words[1] in AVERAGE_WORDS
        and is_number(words[2])
    ):
        minimum = int(words[2]) if len(words[2]) <= 4 else 1
        if not 1 <= minimum <= MAX_SERIES_GAMES:
            raise RuleError(
                f"Mindestens {words[2][:6]} Serien gehen nicht.",
                hint="Z. B. /turnierregeln schnitt mindestens 2",
            )
        return SetCounting(tr.Counting(True, minimum))
    raise RuleError(
        "Das kenne ich bei /turnierregeln nicht.",
        hint="/turnierregeln summe oder /turnierregeln schnitt mindestens 2",
    )


def turnierregeln(
    session: Session, place: Place, request: ShowCounting | SetCounting
) -> tournament_texts.Counting:
    if isinstance(request, ShowCounting):
        t = latest(place)
        return tournament_texts.Counting(t.name, counting_of(t), changed=False)
    t = tournament_season.running_at(place)
    t.counting = request.counting.code
    return tournament_texts.Counting(t.name, request.counting, changed=True)
