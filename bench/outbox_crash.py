"""kill -9 at each phase, many times: the durable outbox under crashes.

For every scenario of tests/robustness/outbox_crash.py (/abschluss, /auslosen in a forum,
the last signature of a table, /spieler zusammen, /einsatz) and every phase (before the
commit, committed, the first send recorded, the update confirmed to Telegram) the real bot
is killed by its fault point and started again, ``RUNS`` times; each run is compared with a
run without the kill. Prints one line per scenario and phase: runs, runs with everything
delivered exactly once and the same state, seconds per run.

Usage: python bench/outbox_crash.py [RUNS] [SCENARIO ...]   (default 10, all scenarios)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.robustness.outbox_crash import PHASES, SCENARIOS, compare, play


async def main(runs: int, names: list[str]) -> int:
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        print(f"{'scenario':16} {'phase':14} runs  ok  s/run")
        for name in names:
            want = await play(SCENARIOS[name], None, root / name / "reference")
            for phase in PHASES:
                ok = 0
                began = time.monotonic()
                for i in range(runs):
                    got = await play(
                        SCENARIOS[name], phase, root / name / f"{phase}-{i}", want.target
                    )
                    problems = compare(want, got)
                    if problems or got.exit_code is None:
                        print(f"  {name} {phase} run {i}: {problems}", file=sys.stderr)
                    else:
                        ok += 1
                per_run = (time.monotonic() - began) / runs
                failed += runs - ok
                print(f"{name:16} {phase:14} {runs:4} {ok:3} {per_run:6.1f}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    names = sys.argv[2:] or list(SCENARIOS)
    sys.exit(asyncio.run(main(runs, names)))
