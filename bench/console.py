"""The console's own cost: ``run_console`` from start to end with no input (start-up and
shut-down of the Bot API, PTB and the polling loop), a 3-line session (/neu, /spiel, /stand)
and a 32-line one (30 games), each on a fresh migrated SQLite file (migration not timed).

Usage: python bench/console.py [N]   (N runs each, default 7; medians and minima)

It also runs on a tree from before the console's Bot API was in process (the console then
served it over loopback HTTP: ``build_app(token, base_url)``), with PYTHONPATH set to that
tree (``git archive``); bench/README.md has both.
"""

from __future__ import annotations

import asyncio
import importlib.util
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from skatbot.app import build_application
from skatbot.standin.console import run_console
from skatbot.storage.database import Database

IN_PROCESS = importlib.util.find_spec("skatbot.standin.request") is not None
NAMES = ["Anna", "Bernd", "Carla"]
GAMES = [
    "grand ohne 1 hand gewonnen",
    "kreuz mit 2 gewonnen",
    "null verloren",
    "herz ohne 1 verloren",
]
SESSIONS = {
    "no input": "",
    "3 lines": "/neu Anna Bernd Carla\n/spiel Anna grand ohne 1 hand gewonnen\n/stand\n",
    "32 lines": "/neu Anna Bernd Carla\n"
    + "".join(f"/spiel {NAMES[i % 3]} {GAMES[i % 4]}\n" for i in range(30))
    + "/stand\n",
}


def once(text: str) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, lines printed) of one console session."""
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{folder}/skatbot.db")
        db.migrate()

        def build(*args: Any) -> Any:
            if IN_PROCESS:  # build_app(api)
                return build_application(args[0].token, db, bot_api=args[0], rate_limit=False)
            return build_application(args[0], db, base_url=args[1], rate_limit=False)

        out = io.StringIO()
        wall, cpu = time.perf_counter(), time.process_time()
        session = run_console(build, stdin=io.StringIO(text), stdout=out, out_dir=Path(folder))
        code = asyncio.run(session)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        db.dispose()
        assert code == 0, out.getvalue()
        return wall, cpu, len(out.getvalue().splitlines())


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    once("")  # imports and first-use caches out of the figures
    transport = "in process" if IN_PROCESS else "loopback HTTP"
    for name, text in SESSIONS.items():
        runs = [once(text) for _ in range(n)]
        walls = [r[0] * 1000 for r in runs]
        cpus = [r[1] * 1000 for r in runs]
        print(
            f"{transport}, {name}: wall median {statistics.median(walls):.0f} ms "
            f"(min {min(walls):.0f}), CPU median {statistics.median(cpus):.0f} ms "
            f"(min {min(cpus):.0f}), {runs[0][2]} lines printed"
        )


if __name__ == "__main__":
    main()
