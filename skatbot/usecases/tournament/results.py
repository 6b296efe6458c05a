"""The results of a tournament's series and the rankings made of them: the one path of every
result (typed at the desk or reported by a table's list) and the rankings that /rangliste, the
cash report and the end of a tournament show."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.ranking import Ranked
from skatbot.rules.scoring import minus_sign
from skatbot.storage import tournament as trepo
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session


def games_of(t: Tournament) -> dict[int, int]:
    """The games of a series by table size."""
    return {3: t.games_3, 4: t.games_4}


def names_line(names: Sequence[str]) -> str:
    return ", ".join(escape(n) for n in names)


def record_results(
    session: Session,
    t: Tournament,
    target: trepo.LoadedSeries,
    entered: Sequence[tr.SeriesResult],
    *,
    user_id: int | None,
    update_id: int | None,
    line_of: Mapping[str, int] | None = None,
) -> list[str]:
    """Check ``entered`` against the series' tables (with what is entered already) and store
    it: the one path of every result, typed with /ergebnis (``line_of``: the message line of
    each name, for the refusal) or reported by a table's list (tables.py). Returns the
    lines of the German answer; a RuleError changes nothing."""
    merged = dict(target.results)
    merged.update((r.name, r) for r in entered)
    games = games_of(t)
    names = {r.name for r in entered}
    for number, table in enumerate(target.tables, 1):
        if not names.intersection(table):
            continue
        try:
            tr.validate_table_results(
                table, [merged[n] for n in table if n in merged], games[len(table)]
            )
        except tr.TournamentError as err:  # not a conversion: names where it came from
            if line_of is not None:
                mine = [line_of[n] for n in table if n in line_of]
                which = "Zeile" if len(mine) == 1 else "Zeilen"
                where = f"{which} {', '.join(map(str, mine))}"
            else:
                where = f"Tisch {number}"
            raise RuleError(f"{where}: {err.message}", hint="Nichts wurde gespeichert.") from None
    trepo.add_results(session, target.row, list(entered), user_id=user_id, update_id=update_id)
    count = "1 Ergebnis" if len(entered) == 1 else f"{len(entered)} Ergebnisse"
    out = [f"✅ <b>Serie {target.number}</b>: {count} eingetragen."]
    for r in entered:
        line = (
            f"{escape(r.name)}: {minus_sign(r.game_points)} Spielpunkte, {r.won} gewonnen, "
            f"{r.lost} verloren"
        )
        old = target.results.get(r.name)
        if old == r:
            line += " (unverändert)"
        elif old is not None:
            line += f" (korrigiert, vorher {minus_sign(old.game_points)}/{old.won}/{old.lost})"
        out.append(line)
    target.results.update(merged)
    out.append(missing_text(target.number, target.tables, merged))
    return out


def missing_text(
    number: int, tables: Sequence[Sequence[str]], results: Mapping[str, object]
) -> str:
    missing = tr.missing_results(tables, results)
    if not missing:
        return f"Serie {number} ist komplett. → /rangliste · nächste Serie: /auslosen"
    per_table = []
    for i, table in enumerate(tables, 1):
        absent = [n for n in table if n not in results]
        if absent:
            per_table.append(f"Tisch {i}: {names_line(absent)}")
    count = (
        "fehlt noch 1 Ergebnis" if len(missing) == 1 else f"fehlen noch {len(missing)} Ergebnisse"
    )
    return f"Es {count} in Serie {number} – " + "; ".join(per_table)


def counting_of(t: Tournament) -> tr.Counting:
    return tr.Counting.parse(t.counting)


def full_ranking(t: Tournament, done: Sequence[trepo.LoadedSeries]) -> tr.SeriesRanking:
    """The ranking over the complete series under the tournament's counting rule."""
    return tr.rank_series(done, games_of(t), t.seed, counting_of(t))


def ranking_of(
    t: Tournament, done: Sequence[trepo.LoadedSeries]
) -> tuple[list[Ranked], list[int], list[int]]:
    """(ranking over the complete series, their numbers, numbers of incomplete series)."""
    r = full_ranking(t, done)
    return r.ranked, r.complete, r.incomplete


def series_ranking(t: Tournament, s: trepo.LoadedSeries) -> list[Ranked]:
    """One complete series ranked on its own (series prizes): score, won, lost, the lot."""
    scores = tr.series_scores(s.tables, s.results, games_of(t), series=s.number)
    return tr.tournament_standings([scores], t.seed)


def series_span(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"Serie {numbers[0]}"
    return "Serien " + ", ".join(map(str, numbers))
