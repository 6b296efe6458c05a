"""Old commit against the working tree, side by side, in one run.

    python bench/compare.py OLD_REV [--rounds 2] [--full]
    python bench/compare.py OLD_REV --startup [--rounds 7]

Checks OLD_REV out into a temporary worktree and runs each tree's own ``bench/run.py
--quick`` (``--full``: without ``--quick``) in turns, old then new, ``--rounds`` times, each
with its own code first on ``sys.path``; then prints every figure with the median per side.
Alternating the runs spreads the machine's changing load over both sides; the reference-loop
row shows how much that load moved.

``--startup`` measures only ``skatbot run`` of each tree, started ``--rounds`` times per side
(alternating) against the tests' Bot API stand-in: the wall time from launch to its first
getUpdates, and its peak RSS (VmHWM) one second later, when the web application (if the tree
serves one) is up as well.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def start_once(tree: Path) -> tuple[float, float, float]:
    """One start of ``skatbot run`` from ``tree``: (seconds to the first getUpdates, CPU
    seconds until then, peak RSS in MB one second after it)."""
    sys.path.insert(0, str(ROOT))
    from tests.standin.server import BotApiServer

    with tempfile.TemporaryDirectory() as tmp:
        async with BotApiServer() as api:
            env = dict(
                os.environ,
                PYTHONPATH=str(tree),
                TELEGRAM_BOT_TOKEN=api.token,
                TELEGRAM_API_BASE_URL=f"{api.url}/bot",
                # the older spelling: both trees run it (the newer one warns once)
                SKATBOT_DATABASE_URL=f"sqlite+aiosqlite:///{Path(tmp) / 's.db'}",
                # the new tree serves its web application (a port of its own here)
                SKATBOT_WEB_PORT=str(free_port()),
            )
            began = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "skatbot", "run"],
                cwd=tree,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                while not any(c.method == "getUpdates" for c in api.calls):
                    if time.perf_counter() - began > 60 or proc.poll() is not None:
                        raise RuntimeError(f"skatbot run of {tree} did not poll")
                    await asyncio.sleep(0.005)
                seconds = time.perf_counter() - began
                cpu = cpu_seconds(proc.pid)
                await asyncio.sleep(1)
                status = Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                hwm = next(line for line in status if line.startswith("VmHWM:"))
                return seconds, cpu, int(hwm.split()[1]) / 1024
            finally:
                proc.terminate()
                proc.wait(10)


def compare_startup(old: str, old_tree: Path, rounds: int) -> None:
    runs: dict[str, list[tuple[float, float, float]]] = {"old": [], "new": []}
    for i in range(rounds):
        for side, tree in (("old", old_tree), ("new", ROOT)):
            print(f"round {i + 1}: {side}", file=sys.stderr, flush=True)
            runs[side].append(asyncio.run(start_once(tree)))
    print(f"\n| `skatbot run` (median of {rounds}) | old ({old}) | new (working tree) |")
    print("|---|---|---|")
    for index, figure, unit in (
        (0, "start-up to first getUpdates", "s"),
        (1, "CPU time of that start-up", "s"),
        (2, "peak RSS (VmHWM) 1 s later", "MB"),
    ):
        old_value, new_value = (statistics.median(r[index] for r in runs[s]) for s in runs)
        digits = 2 if unit == "s" else 1
        print(f"| {figure} | {old_value:.{digits}f} {unit} | {new_value:.{digits}f} {unit} |")


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
    parser.add_argument("--startup", action="store_true", help="only `skatbot run` starting")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "old"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(old_tree), args.old],
            cwd=ROOT,
            check=True,
        )
        try:
            if args.startup:
                compare_startup(args.old, old_tree, args.rounds)
                return
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
