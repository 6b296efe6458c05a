"""Rendering libraries for the chat's pictures: import time, memory, render time.

    python bench/charts.py [--mpl-python PATH] [--runs 5]

Each candidate runs in fresh processes (median of ``--runs``): the import time of what a
picture needs, the resident memory after the import (VmRSS, minus the bare interpreter's),
the first and the median of ten further renders of the same chart (4 players × 48 games,
markers, legend, 1200 × 1000 PNG), and the peak resident memory (VmHWM). Candidates:

* ``python`` - the bare interpreter (the memory baseline);
* ``pillow`` - ``from PIL import Image, ImageDraw, ImageFont`` only;
* ``skatbot.charts`` - what the bot loads for a picture: Pillow, the font check (fontTools)
  and our drawing code, rendering the real chart;
* ``matplotlib (Agg)`` - ``matplotlib.figure.Figure`` on the Agg canvas, no pyplot;
* ``matplotlib.pyplot`` - the usual way, ``import matplotlib.pyplot as plt``.

matplotlib is not a dependency of skatbot: point ``--mpl-python`` at an interpreter that has
it (e.g. a throw-away venv: ``python -m venv /tmp/mpl && /tmp/mpl/bin/pip install matplotlib``);
without one its rows say "not installed".
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the child: measures, prints one JSON line.
PROBE = r"""
import json, random, sys, time
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
random.seed(3)
SERIES = []
for name in ("Anna", "Bernd", "Carla", "Dora"):
    v = [0]
    for _ in range(48):
        v.append(v[-1] + random.choice([0, 0, 0, 72, -96, 48, -48, 30]))
    SERIES.append((name, v))
kind = sys.argv[1]
t0 = time.perf_counter()
render = None
if kind == "pillow":
    from PIL import Image, ImageDraw, ImageFont
elif kind == "skatbot":
    from skatbot.charts import Chart, Line, render_png
    chart = Chart("Verlauf der Serie", "48/48 Spiele", "Spiele",
                  tuple(Line(n, tuple(v)) for n, v in SERIES), x_step=4)
    render = lambda: render_png(chart)
elif kind in ("mpl", "pyplot"):
    import io
    if kind == "pyplot":
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        def render():
            fig, ax = plt.subplots(figsize=(12, 10), dpi=100)
            draw(ax)
            out = io.BytesIO()
            fig.savefig(out, format="png")
            plt.close(fig)
            return out.getvalue()
    else:
        from matplotlib.figure import Figure
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        def render():
            fig = Figure(figsize=(12, 10), dpi=100)
            FigureCanvasAgg(fig)
            draw(fig.add_subplot())
            out = io.BytesIO()
            fig.savefig(out, format="png")
            return out.getvalue()
    def draw(ax):
        for (name, v), marker in zip(SERIES, "os^D"):
            ax.plot(range(len(v)), v, linewidth=4.5, marker=marker, markevery=4,
                    markersize=14, label=f"{name} {v[-1]}")
        ax.set_title("Verlauf der Serie", fontsize=27, loc="left", fontweight="bold")
        ax.set_xlabel("Spiele", fontsize=18)
        ax.tick_params(labelsize=18)
        ax.grid(True)
        ax.legend(fontsize=21, ncols=2, loc="upper left")
imported = time.perf_counter() - t0
rss_import = status("VmRSS:")
first = median = None
size = 0
if render is not None:
    t1 = time.perf_counter()
    size = len(render())
    first = time.perf_counter() - t1
    times = []
    for _ in range(10):
        t2 = time.perf_counter()
        render()
        times.append(time.perf_counter() - t2)
    times.sort()
    median = times[5]
print(json.dumps({"import": imported, "rss_import": rss_import, "first": first,
                  "median": median, "peak": status("VmHWM:"), "size": size}))
"""


def probe(python: str, kind: str, runs: int) -> dict[str, float] | None:
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [python, "-c", PROBE, kind], capture_output=True, text=True, cwd=ROOT, check=False
        )
        if out.returncode != 0:
            if "ModuleNotFoundError" in out.stderr:
                return None
            raise RuntimeError(out.stderr)
        samples.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {
        key: statistics.median(s[key] for s in samples) if samples[0][key] is not None else -1
        for key in samples[0]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mpl-python", default=sys.executable)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = [
        ("python (baseline)", sys.executable, "none"),
        ("pillow (import only)", sys.executable, "pillow"),
        ("skatbot.charts (Pillow)", sys.executable, "skatbot"),
        ("matplotlib (Agg, Figure)", args.mpl_python, "mpl"),
        ("matplotlib.pyplot", args.mpl_python, "pyplot"),
    ]
    base = probe(sys.executable, "none", args.runs)
    assert base is not None
    print(f"median of {args.runs} fresh processes each; RSS in MB, times in ms")
    print(
        f"{'candidate':28} {'import':>8} {'+RSS':>7} {'1st render':>11} {'render':>8}"
        f" {'peak RSS':>9} {'PNG kB':>7}"
    )
    for label, python, kind in rows:
        r = probe(python, kind, args.runs)
        if r is None:
            print(f"{label:28} not installed for {python}")
            continue
        extra = r["rss_import"] - base["rss_import"]
        first = f"{r['first'] * 1000:.0f}" if r["first"] >= 0 else "–"
        median = f"{r['median'] * 1000:.0f}" if r["median"] >= 0 else "–"
        size = f"{r['size'] / 1024:.0f}" if r["size"] else "–"
        print(
            f"{label:28} {r['import'] * 1000:8.0f} {extra:7.1f} {first:>11} {median:>8}"
            f" {r['peak']:9.1f} {size:>7}"
        )


if __name__ == "__main__":
    main()
