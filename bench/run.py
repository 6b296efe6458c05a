"""All benchmarks side by side, one table with every figure and its goal.

    python bench/run.py [--quick] [--pg URL]

1. /spiel round trip through the real PTB stack and the loopback Bot API stand-in, against an
   echo handler on the same stack (the framework floor): median, p99, ratio.
2. Throughput: 500 chats × 36 games fed concurrently (each chat in order), SQLite on disk;
   the same on PostgreSQL when a URL is given (or SKATBOT_BENCH_PG_URL is set).
3. PDF: a 48-game list and a 4-table form: time and size.
4. Tournament: 1,000 participants × 6 series: draws, results, ranking.
5. Memory: peak RSS after 10,000 stored lists and 1,000 active chats; start-up of
   `skatbot run` to its first getUpdates.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # tests/: the Bot API server

from common import InstantRequest, message_update, summary  # noqa: E402
from telegram import Update  # noqa: E402
from telegram.ext import Application  # noqa: E402

from skatbot.handlers.bot_state import CONTEXT_TYPES  # noqa: E402
from skatbot.handlers.outbox.pacer import Pacer  # noqa: E402
from skatbot.handlers.outbox.queues import Outbox  # noqa: E402
from skatbot.handlers.registry import register  # noqa: E402
from skatbot.storage.database import Database  # noqa: E402
from tests.standin.server import BotApiServer  # noqa: E402

ROWS: list[tuple[str, str, str, str]] = []  # (part, figure, value, goal)
GAMES = [
    "/spiel Anna grand ohne 1 hand gewonnen",
    "/spiel Bernd kreuz mit 2 reiz 36 augen 75",
    "/spiel Carla null ouvert verloren",
    "/spiel Anna herz ohne 3 schneider gewonnen",
]


def report(part: str, figure: str, value: str, goal: str) -> None:
    ROWS.append((part, figure, value, goal))
    print(f"  {figure}: {value}  (goal {goal})", flush=True)


# 1 -------------------------------------------------------------------------------------------


class _TimedBot:
    """A bot as its own process against its own stand-in (like Telegram: another machine's
    work is not on our GIL); times each message until its reply reaches the server."""

    def __init__(self, api: BotApiServer, command: list[str], env: dict[str, str]) -> None:
        self.api = api
        self.command = command
        self.env = env
        self.samples: list[float] = []

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        while not any(c.method == "getUpdates" for c in self.api.calls):
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.command} ended before polling")
            await asyncio.sleep(0.01)

    async def send(self, text: str, *, sample: bool) -> None:
        await asyncio.sleep(0.005)  # both bots idle again (the other one finished its reply)
        first_call = len(self.api.calls)
        t0 = time.monotonic()  # the stand-in stamps each request with time.monotonic()
        uid = self.api.push_message(text, chat_id=-6)
        await self.api.wait_confirmed(uid, timeout=60)  # the next update starts from idle
        # the reply leaves the outbox once the update is committed (and confirmed); the
        # stand-in's time stamp of the request is what is measured, not this wait
        while True:
            sent = [
                c
                for c in self.api.calls[first_call:]
                if c.ok and c.method in ("sendMessage", "sendDocument")
            ]
            if sent:
                break
            await asyncio.sleep(0.001)
        reply = sent[0]
        if sample:
            self.samples.append((reply.time - t0) * 1000)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


async def bench_round_trip(n: int) -> None:
    print(
        "1. /spiel round trip vs. echo floor (bot as its own process, loopback Bot API)", flush=True
    )
    texts = []
    for i in range(n):
        if i % 36 == 0:
            texts.append("/neu Anna Bernd Carla" if i == 0 else "/abschluss ja")
            if i:
                texts.append("/weiter")
        texts.append(GAMES[i % len(GAMES)])
    with tempfile.TemporaryDirectory() as tmp:
        async with BotApiServer() as echo_api, BotApiServer() as our_api:

            def env(api: BotApiServer) -> dict[str, str]:
                return dict(
                    os.environ,
                    SKATBOT_RATE_LIMIT="0",
                    TELEGRAM_BOT_TOKEN=api.token,
                    TELEGRAM_API_BASE_URL=f"{api.url}/bot",
                    SKATBOT_DATABASE_URL=f"sqlite:///{Path(tmp) / 'rt.db'}",
                )

            echo_cmd = [sys.executable, str(HERE / "echo_bot.py"), echo_api.url, echo_api.token]
            floor = _TimedBot(echo_api, echo_cmd, env(echo_api))
            ours = _TimedBot(our_api, [sys.executable, "-m", "skatbot", "run"], env(our_api))
            await floor.start()
            await ours.start()
            try:
                # Alternating, one message at a time: both bots see the same machine load.
                for i, text in enumerate(texts):
                    sample = i >= 10 and text.startswith("/spiel")  # no warm-up, /neu, ...
                    await floor.send(text, sample=sample)
                    await ours.send(text, sample=sample)
            finally:
                floor.stop()
                ours.stop()
    f_med, f_p99 = summary(floor.samples)
    o_med, o_p99 = summary(ours.samples)
    report("1", "echo floor median / p99", f"{f_med:.2f} / {f_p99:.2f} ms", "—")
    report("1", "/spiel median / p99", f"{o_med:.2f} / {o_p99:.2f} ms", "—")
    report("1", "ratio of medians", f"{o_med / f_med:.2f}", "≤ 1.3")


# 2 -------------------------------------------------------------------------------------------


async def _throughput(
    db: Database,
    chats: int,
    games: int,
    *,
    first_chat: int = 0,
    first_update: int = 1,
    ready: Callable[[], Awaitable[None]] | None = None,
) -> float:
    """Games per second for ``chats`` chats × ``games`` games, fed concurrently."""
    app = (
        Application.builder()
        .token("1:BENCH")
        .context_types(CONTEXT_TYPES)
        .request(InstantRequest())
        .updater(None)
        .build()
    )
    app.bot_data.database = db
    app.bot_data.outbox = Outbox(Pacer(group_limit=None, per_second=None))
    register(app)
    async with app:
        uid = iter(range(first_update, first_update + 10**8))
        chat_ids = [-1000 - first_chat - c for c in range(chats)]
        for chat in chat_ids:
            await app.process_update(
                message_update(next(uid), chat, "/neu Anna Bernd Carla", app.bot)
            )
        per_chat = [
            [message_update(next(uid), chat, GAMES[g % len(GAMES)], app.bot) for g in range(games)]
            for chat in chat_ids
        ]

        async def one_chat(updates: list[Update]) -> None:
            for u in updates:  # each chat strictly in order, chats concurrently
                await app.process_update(u)

        if ready is not None:
            await ready()  # several processes start together
        t0 = time.perf_counter()
        await asyncio.gather(*(one_chat(u) for u in per_chat))
        await app.bot_data.outbox.wait_idle(None, 600)  # every reply sent
        elapsed = time.perf_counter() - t0
    return chats * games / elapsed


def _worker(url: str, chats: int, games: int, index: int) -> None:
    """One of several bot processes on one PostgreSQL (``--worker``): set up its own chats,
    say "ready", wait for "go" on stdin, feed its games, say "done"."""

    async def ready() -> None:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)

    db = Database(url)
    asyncio.run(
        _throughput(
            db, chats, games, first_chat=index * chats, first_update=1 + index * 10**8, ready=ready
        )
    )
    db.dispose()
    print("done", flush=True)


def _throughput_processes(url: str, chats: int, games: int, processes: int) -> float:
    """Total games per second of ``processes`` bot processes sharing the chats (split by chat,
    as webhook instances behind a chat-sticky proxy would; each chat stays in order)."""
    share = chats // processes
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", url, str(share), str(games), str(i)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(processes)
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    t0 = time.perf_counter()
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "done"
    elapsed = time.perf_counter() - t0
    for proc in procs:
        proc.wait(30)
    return share * processes * games / elapsed


async def bench_throughput(chats: int, games: int, pg_url: str | None) -> None:
    print(f"2. throughput: {chats} chats × {games} games, concurrently", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'tp.db'}")
        db.migrate()
        rate = await _throughput(db, chats, games)
        db.dispose()
    report("2", "SQLite (WAL, file)", f"{rate:,.0f} games/s", "≥ 1,000/s")
    if pg_url:
        db = _fresh_pg(pg_url)
        bot0, server0 = _cpu_seconds()
        rate = await _throughput(db, chats, games)
        bot1, server1 = _cpu_seconds()
        db.dispose()
        report("2", "PostgreSQL, one bot process", f"{rate:,.0f} games/s", "≥ 1,000/s")
        updates = chats * (games + 1)
        report(
            "2",
            "CPU per update: bot process / PostgreSQL server (local)",
            f"{(bot1 - bot0) / updates * 1e6:,.0f} / {(server1 - server0) / updates * 1e6:,.0f} µs",
            "—",
        )
        _fresh_pg(pg_url).dispose()
        rate = await asyncio.to_thread(_throughput_processes, pg_url, chats, games, 2)
        report("2", "PostgreSQL, two bot processes", f"{rate:,.0f} games/s", "≥ 1,000/s")


def _process_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process ``pid`` (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime, ticks


def _cpu_seconds() -> tuple[float, float]:
    """CPU time used so far by this process and by all local ``postgres`` processes (Linux)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    server = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "postgres":
                    continue
            server += _process_cpu_seconds(int(pid))
        except OSError:  # the process ended meanwhile
            continue
    return usage.ru_utime + usage.ru_stime, server


def _fresh_pg(url: str) -> Database:
    from sqlalchemy import text

    from skatbot.storage.schema import metadata

    db = Database(url)
    with db.write_engine.begin() as conn:
        metadata().drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    db.migrate()
    return db


# 3 -------------------------------------------------------------------------------------------


def bench_pdf(runs: int) -> None:
    from skatbot.pdf.forms import render_blank_form
    from skatbot.pdf.sample import sample_document
    from skatbot.pdf.series import render_series

    print("3. PDF", flush=True)
    doc = sample_document(48)
    for label, render in (
        ("48-game list", lambda: render_series(doc)[0]),
        ("4-table form", lambda: render_blank_form(4)),
    ):
        render()
        times = []
        size = 0
        for _ in range(runs):
            t0 = time.perf_counter()
            size = len(render())
            times.append((time.perf_counter() - t0) * 1000)
        report("3", f"{label} time", f"{statistics.median(times):.0f} ms", "< 150 ms")
        report("3", f"{label} size", f"{size / 1000:.1f} kB", "< 60 kB")


# 4 -------------------------------------------------------------------------------------------


def bench_tournament(n: int, series_count: int) -> None:
    from tournament import invent_results

    from skatbot.rules.ranking import Standing
    from skatbot.rules.tournament import draw, partner_repeats, series_scores, tournament_standings

    print(f"4. tournament: {n} participants × {series_count} series", flush=True)
    names = [f"Teilnehmer {i:04d}" for i in range(n)]
    rnd = random.Random("4711")
    t0 = time.perf_counter()
    tables_so_far: list[list[list[str]]] = []
    per_series: list[dict[str, Standing]] = []
    for series in range(1, series_count + 1):
        tables = draw(names, "4711", series, tables_so_far)
        per_series.append(series_scores(tables, invent_results(tables, rnd)))
        tables_so_far.append(tables)
    tournament_standings(per_series, "4711")
    elapsed = time.perf_counter() - t0
    report("4", "draws + results + ranking", f"{elapsed * 1000:.0f} ms", "< 1 s")
    report("4", "repeated partner pairs", str(partner_repeats(tables_so_far)), "minimal")


# 5 -------------------------------------------------------------------------------------------

SEED_SCRIPT = r"""
from sqlalchemy import insert
from skatbot.storage.database import Database
from skatbot.storage.lists_models import Chat, Player, Row, SheetList

db = Database({url!r}); db.migrate()
with db.write_engine.begin() as c:
    for start in range(0, 10_000, 1_000):
        ids = range(start, start + 1_000)
        c.execute(insert(Chat), [dict(id=-5_000_000 - i, rules="isko", settings="{{}}") for i in ids])
        c.execute(insert(SheetList), [dict(id=i + 1, chat_id=-5_000_000 - i, status="closed",
            rules="isko", first_dealer=0, series_length=36, seed="x") for i in ids])
        c.execute(insert(Player), [dict(list_id=i + 1, seat=s, name=n, start_points=0)
            for i in ids for s, n in enumerate(("Anna", "Bernd", "Carla"))])
        c.execute(insert(Row), [dict(list_id=i + 1, kind="game", dealer=g % 3, declarer=g % 3,
            announcement="Grand ohne 1 Hand gewonnen") for i in ids for g in range(36)])
"""

# A fresh process on the seeded database: the bot's own footprint, not the seeding's.
MEMORY_SCRIPT = r"""
import asyncio, sys
sys.path.insert(0, {here!r})
from common import InstantRequest, message_update
from telegram.ext import Application
from skatbot.handlers.bot_state import CONTEXT_TYPES
from skatbot.handlers.outbox.pacer import Pacer
from skatbot.handlers.outbox.queues import Outbox
from skatbot.handlers.registry import register
from skatbot.storage.database import Database

db = Database({url!r}); db.migrate()

async def main():
    app = Application.builder().token("1:BENCH").context_types(CONTEXT_TYPES).request(InstantRequest()).updater(None).build()
    app.bot_data.database = db
    app.bot_data.outbox = Outbox(Pacer(group_limit=None, per_second=None))
    register(app)
    async with app:
        uid = 1
        for c in range(1000):
            for text in ("/neu Anna Bernd Carla", "/spiel Anna grand ohne 1 hand gewonnen",
                         "/spiel Bernd kreuz mit 2 verloren", "/stand"):
                await app.process_update(message_update(uid, -1 - c, text, app.bot)); uid += 1
        # every stored list is reachable: read back a sample of the 10,000 closed ones
        await app.process_update(message_update(uid, -5_000_000, "/export", app.bot))
        await app.bot_data.outbox.wait_idle(None, 600)
asyncio.run(main())
# VmHWM (peak resident set) of this process image; ru_maxrss would also count the parent's
# memory at fork time, before exec.
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")][0].split()[1]
print(hwm)
"""


async def _startup_time(echo: bool = False) -> tuple[float, float]:
    """Wall time from launching ``skatbot run`` (or, with ``echo``, the echo bot: the
    framework's own start-up) to its first getUpdates, and the CPU time it took."""
    with tempfile.TemporaryDirectory() as tmp:
        async with BotApiServer() as api:
            env = dict(
                os.environ,
                TELEGRAM_BOT_TOKEN=api.token,
                TELEGRAM_API_BASE_URL=f"{api.url}/bot",
                SKATBOT_DATABASE_URL=f"sqlite:///{Path(tmp) / 's.db'}",
            )
            command = [sys.executable, "-m", "skatbot", "run"]
            if echo:
                command = [sys.executable, str(HERE / "echo_bot.py"), api.url, api.token]
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            try:
                # The long poll itself only answers later: the request arriving is the mark.
                while not any(c.method == "getUpdates" for c in api.calls):
                    if time.perf_counter() - t0 > 30 or proc.poll() is not None:
                        raise RuntimeError(f"{command} did not poll")
                    await asyncio.sleep(0.005)
                return time.perf_counter() - t0, _process_cpu_seconds(proc.pid)
            finally:
                proc.terminate()
                proc.wait(10)


def bench_memory() -> None:
    print("5. memory and start-up", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'mem.db'}"
        subprocess.run([sys.executable, "-c", SEED_SCRIPT.format(url=url)], check=True)
        script = MEMORY_SCRIPT.format(here=str(HERE), url=url)
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        )
    rss_mb = int(out.stdout.strip().splitlines()[-1]) / 1024
    report("5", "peak RSS (10,000 lists, 1,000 chats)", f"{rss_mb:.0f} MB", "< 150 MB")
    # Alternating, as in part 1: the echo bot's start-up is the floor (Python, PTB, httpx).
    floor, ours = [], []
    for _ in range(5):
        floor.append(asyncio.run(_startup_time(echo=True)))
        ours.append(asyncio.run(_startup_time()))
    for label, starts, goal in (("echo bot (floor)", floor, "—"), ("skatbot", ours, "< 1.5 s")):
        wall = statistics.median(w for w, _ in starts)
        cpu = statistics.median(c for _, c in starts)
        report("5", f"start-up to first getUpdates, {label}", f"{wall:.2f} s", goal)
        report("5", f"CPU time of that start-up, {label}", f"{cpu:.2f} s", "—")


def _reference_loop() -> float:
    """Seconds for a fixed pure-Python loop, best of 3: how fast this machine is right now.
    Figures of runs on different machines (or one shared machine under other load) compare
    only through it (the same code: bench/rules.py 9 µs on one host, 24 µs on another)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        total = 0
        for i in range(10**7):
            total += i
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        url, chats, games, index = sys.argv[2:6]
        _worker(url, int(chats), int(games), int(index))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--pg", default=os.environ.get("SKATBOT_BENCH_PG_URL"))
    args = parser.parse_args()
    quick = args.quick
    report(
        "—",
        "machine: pure-Python reference loop (10⁷ additions)",
        f"{_reference_loop():.2f} s",
        "—",
    )
    asyncio.run(bench_round_trip(60 if quick else 300))
    asyncio.run(bench_throughput(50 if quick else 500, 36, args.pg))
    bench_pdf(5 if quick else 20)
    bench_tournament(1000, 6)
    bench_memory()
    print("\n| part | figure | measured | goal |\n|---|---|---|---|")
    for row in ROWS:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
