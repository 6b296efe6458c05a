"""Benchmark of the PDF documents (plain script, no pytest).

    python bench/pdf.py

Times a 48-game list of a 4-table (median of 20 renders) and the blank 4-table form, and
prints the time in ms and the size in kB. Budget: list < 150 ms and < 60 kB.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from skatbot.pdf.forms import render_blank_form
from skatbot.pdf.sample import sample_document
from skatbot.pdf.series import render_series

RUNS = 20


def measure(render: Callable[[], bytes]) -> tuple[float, float, int]:
    render()  # warm-up: imports, font cmap cache
    times: list[float] = []
    size = 0
    for _ in range(RUNS):
        start = time.perf_counter()
        size = len(render())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times), size


def main() -> None:
    doc = sample_document(48)
    rows = len(doc.rows)
    for label, render in (
        (f"Skatliste 4er-Tisch, 48 Spiele ({rows} Zeilen)", lambda: render_series(doc)[0]),
        ("Vordruck 4er-Tisch", lambda: render_blank_form(4)),
        ("Vordruck 3er-Tisch", lambda: render_blank_form(3)),
    ):
        median, worst, size = measure(render)
        print(f"{label:45s} median {median:6.1f} ms  max {worst:6.1f} ms  {size / 1024:5.1f} kB")


if __name__ == "__main__":
    main()
