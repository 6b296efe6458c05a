"""Old commit against the working tree, side by side, in one run.

    python bench/compare.py OLD_REV [--rounds 2] [--full]

Checks OLD_REV out into a temporary worktree and runs each tree's own ``bench/run.py
--quick`` (``--full``: without ``--quick``) in turns, old then new, ``--rounds`` times, each
with its own code first on ``sys.path``; then prints every figure with the median per side.
Alternating the runs spreads the machine's changing load over both sides; the reference-loop
row shows how much that load moved.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURE = re.compile(r"^  (?P<figure>.+): (?P<value>.+?)  \(goal .*\)$")
NUMBER = re.compile(r"-?[\d.,]+")


def run_tree(tree: Path, quick: bool) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(tree / "bench" / "run.py")] + (["--quick"] if quick else [])
    out = subprocess.run(
        command, cwd=tree, env=env, capture_output=True, text=True, check=True
    ).stdout
    figures: dict[str, str] = {}
    for line in out.splitlines():
        m = FIGURE.match(line)
        if m:
            figures[m["figure"]] = m["value"]
    return figures


def median(values: list[str]) -> str:
    """The median of values like ``0.64 s`` or ``0.45 / 0.61 ms``, number by number, in
    the first value's wording."""
    columns = [[float(n.replace(",", "")) for n in NUMBER.findall(v)] for v in values]
    if any(len(c) != len(columns[0]) for c in columns) or not columns[0]:
        return values[0]
    medians = iter(statistics.median(c[i] for c in columns) for i in range(len(columns[0])))

    def put(m: re.Match[str]) -> str:
        decimals = len(m[0].split(".")[1]) if "." in m[0] else 0
        thousands = "," if "," in m[0] else ""
        return f"{next(medians):{thousands}.{decimals}f}"

    return NUMBER.sub(put, values[0])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old", help="the commit to compare against (e.g. a hash or main~5)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="run.py without --quick")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "old"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(old_tree), args.old],
            cwd=ROOT,
            check=True,
        )
        try:
            runs: dict[str, list[dict[str, str]]] = {"old": [], "new": []}
            for i in range(args.rounds):
                for side, tree in (("old", old_tree), ("new", ROOT)):
                    print(f"round {i + 1}: {side}", file=sys.stderr, flush=True)
                    runs[side].append(run_tree(tree, quick=not args.full))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT)
    print(f"\n| figure | old ({args.old}) | new (working tree) |\n|---|---|---|")
    for figure in runs["new"][0]:
        old = [r[figure] for r in runs["old"] if figure in r]
        new = [r[figure] for r in runs["new"] if figure in r]
        print(f"| {figure} | {median(old) if old else '—'} | {median(new)} |")


if __name__ == "__main__":
    main()
