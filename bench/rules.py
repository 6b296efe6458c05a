"""Benchmark: parse + evaluate one announcement (goal: under 20 µs per announcement).

Plain script: ``python bench/rules.py [--runs N]``. Prints the median µs per announcement over
``N`` runs of a realistic mix of announcements as typed at the table.
"""

from __future__ import annotations

import argparse
import statistics
import time

from skatbot.rules import evaluate, parse_announcement

MIX = (
    "grand ohne 1 hand gewonnen",
    "kreuz mit 2 g",
    "pik ohne 3 +",
    "herz m1 r20 augen 75",
    "karo mit 1 reiz 30 gewonnen",
    "null verloren",
    "null ouvert hand +",
    "Grand mit 2 schneider gewonnen",
    "eichel o2 r36 augen 92",
    "rot mit 1 v",
    "grün ohne 1 hand r33 +",
    "schellen mit 3 augen 58",
    "grand mit 1 reiz 48 augen 61",
    "kreuz mit 1 hand sa augen 95",
    "pik ouvert mit 2 schwarz augen 120",
    "null hand r35 -",
    "herz ohne 4 gereizt 50 gewonnen",
    "grand o4 hand r144 augen 100",
    "karo mit 2 schneider verloren augen 25",
    "KREUZ MIT 1 GEWONNEN",
)


def run_once() -> float:
    """Seconds for one pass over the mix."""
    start = time.perf_counter()
    for text in MIX:
        evaluate(parse_announcement(text))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    for _ in range(50):  # warm up
        run_once()
    samples = [run_once() for _ in range(args.runs)]
    per_announcement_us = statistics.median(samples) / len(MIX) * 1e6
    best_us = min(samples) / len(MIX) * 1e6
    verdict = "ok" if per_announcement_us < 20 else "SLOW (goal < 20 µs)"
    print(
        f"parse + evaluate: {per_announcement_us:.1f} µs per announcement "
        f"(median of {args.runs} runs × {len(MIX)} announcements; best {best_us:.1f} µs) – "
        f"{verdict}"
    )


if __name__ == "__main__":
    main()
