"""Benchmark: a Preisskat with 1,000 participants and 6 series.

Draws every series, invents seeded results, validates and scores them, ranks the field.
Run: python bench/tournament.py [PARTICIPANTS] [SERIES] [SEED]
"""

from __future__ import annotations

import random
import sys
import time

from skatbot.rules.ranking import Standing, lot_note
from skatbot.rules.tournament import (
    SeriesResult,
    draw,
    partner_repeats,
    repeat_meetings,
    series_scores,
    tournament_standings,
    validate_table_results,
)


def invent_results(tables: list[list[str]], rnd: random.Random) -> dict[str, SeriesResult]:
    results: dict[str, SeriesResult] = {}
    for table in tables:
        games = 48 if len(table) == 4 else 36
        played = rnd.randint(games - 6, games)  # a few passed games
        share = [rnd.random() + 0.2 for _ in table]
        left = played
        for i, name in enumerate(table):
            n = left if i == len(table) - 1 else min(left, round(played * share[i] / sum(share)))
            left -= n
            lost = sum(1 for _ in range(n) if rnd.random() < 0.25)
            won = n - lost
            points = sum(rnd.choice((18, 20, 23, 24, 30, 36, 48, 72)) for _ in range(won)) - sum(
                2 * rnd.choice((18, 20, 23, 24, 36, 48)) for _ in range(lost)
            )
            results[name] = SeriesResult(name, points, won, lost)
        validate_table_results(table, [results[n] for n in table])
    return results


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    series_count = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    seed = sys.argv[3] if len(sys.argv) > 3 else "4711"
    names = [f"Teilnehmer {i:04d}" for i in range(n)]
    rnd = random.Random(seed)

    t_draw = t_results = t_scores = 0.0
    all_tables: list[list[list[str]]] = []
    per_series: list[dict[str, Standing]] = []
    t_total = time.perf_counter()
    for series in range(1, series_count + 1):
        t0 = time.perf_counter()
        tables = draw(names, seed, series, all_tables)
        t1 = time.perf_counter()
        results = invent_results(tables, rnd)
        t2 = time.perf_counter()
        per_series.append(series_scores(tables, results))
        t3 = time.perf_counter()
        all_tables.append(tables)
        t_draw += t1 - t0
        t_results += t2 - t1
        t_scores += t3 - t2
    t0 = time.perf_counter()
    ranked = tournament_standings(per_series, seed)
    t_rank = time.perf_counter() - t0
    total = time.perf_counter() - t_total

    print(f"{n} participants, {series_count} series, seed {seed!r}")
    print(f"draw (all series)            {t_draw * 1000:8.1f} ms")
    print(f"results (invent + validate)  {t_results * 1000:8.1f} ms")
    print(f"series scores                {t_scores * 1000:8.1f} ms")
    print(f"ranking                      {t_rank * 1000:8.1f} ms")
    print(f"total                        {total * 1000:8.1f} ms")
    print(f"repeated partner pairs       {partner_repeats(all_tables):8d}")
    print(f"repeat meetings              {repeat_meetings(all_tables):8d}")
    top = ranked[0].standing
    print(f"winner: {top.name} {top.score} ({top.won} won, {top.lost} lost)")
    note = lot_note(ranked, seed)
    if note:
        print(note[:200])


if __name__ == "__main__":
    main()
