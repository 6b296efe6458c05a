"""Two attacks on ``skatbot webhook`` (a real process on loopback), and what its server costs
to import (uvicorn and Starlette) against aiohttp's.

Slow bodies (``--attack slow-body``, the default): ``CONNS`` connections, none with the secret, each announce a 1 MiB body and send ``SENT`` KiB
of it in slices over ``SECONDS`` seconds, then stay idle for ``IDLE`` seconds. Meanwhile one
real update (with the secret) is posted. Printed: the bot's RSS before and at its peak, the
real update's answer and time, how many attack connections the server still holds after the
idle time, and what each got.

Idle connections (``--attack idle``): ``CONNS`` connections from ``--attacker`` (another
loopback address, 127.0.0.2) say nothing and connect again whenever the server drops them;
after ``--warmup`` seconds one real update is posted from 127.0.0.1, again and again (a new
connection each try, ``--pause`` apart) until it is answered 200. Printed: the tries and
seconds it took, how many connections the attacker held then, how often it was dropped, and
the bot's RSS.

Usage: python bench/webhook_attack.py [--code DIR] [--conns 300] [--sent 960] [--seconds 8]
       [--idle 45]
       python bench/webhook_attack.py --attack idle [--code DIR] [--conns 110] [--warmup 3]
       [--env NAME=VALUE ...]
       python bench/webhook_attack.py --import-cost [--code DIR]
``--code DIR`` runs the bot from another source tree (e.g. ``main``, unpacked with
``git archive main | tar -x -C DIR``) for the figure before; ``--env`` sets the bot's
environment (e.g. ``SKATBOT_WEBHOOK_SOURCES=telegram``). ``--import-cost`` imports each
tree's webhook module and ``aiohttp.web`` (when importable, e.g. with aiohttp installed in a
directory on ``PYTHONPATH``) on top of what a start imports anyway.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
import tempfile
import time
from asyncio.subprocess import Process
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.standin.fake_telegram import FakeBotApi

SECRET = "bench-Secret_1"
CHAT = -1001


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def update(uid: int) -> bytes:
    text = "/neu Anna Bernd Carla"
    return json.dumps(
        {
            "update_id": uid,
            "message": {
                "message_id": uid,
                "from": {"id": 1, "is_bot": False, "first_name": "A"},
                "chat": {"id": CHAT, "type": "group", "title": "Skatrunde"},
                "date": int(time.time()),
                "text": text,
                "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
            },
        }
    ).encode()


async def attacker(port: int, sent_kib: int, seconds: float, idle: float, out: list[str]) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError as err:
        out.append(f"connect failed: {err.__class__.__name__}")
        return
    head = f"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: {1 << 20}\r\n\r\n".encode()
    answer = "held"
    try:
        writer.write(head)
        slices = 16
        piece = b"x" * (sent_kib * 1024 // slices)
        for _ in range(slices):
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(seconds / slices)
        try:
            line = await asyncio.wait_for(reader.readline(), idle)
            answer = line.decode().strip() or "closed"
        except TimeoutError:
            answer = "held"
    except (ConnectionError, OSError):
        answer = "closed"
    out.append(answer)
    writer.close()


@asynccontextmanager
async def bot_process(args: argparse.Namespace, port: int) -> AsyncIterator[Process]:
    """``skatbot webhook`` on ``port`` (on the stand-in), started and answering."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeBotApi(group_limit=None) as api:
            api.add_chat(CHAT)
            env = dict(os.environ)
            env.update(
                TELEGRAM_BOT_TOKEN=api.token,
                TELEGRAM_API_BASE_URL=api.url,
                SKATBOT_DATABASE_URL=f"sqlite:///{Path(tmp) / 'bot.db'}",
                SKATBOT_WEBHOOK_SECRET=SECRET,
                SKATBOT_RATE_LIMIT="0",
            )
            env.update(item.split("=", 1) for item in args.env)
            if args.code:
                env["PYTHONPATH"] = args.code
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "skatbot",
                "webhook",
                "--listen",
                "127.0.0.1",
                "--port",
                str(port),
                "--url",
                "https://bot.example.org/hook",
                env=env,
                cwd=args.code or None,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )
            try:
                for _ in range(300):
                    try:
                        _, w = await asyncio.open_connection("127.0.0.1", port)
                        w.close()
                        break
                    except OSError:
                        await asyncio.sleep(0.1)
                await asyncio.sleep(0.5)
                yield proc
            finally:
                proc.terminate()
                await proc.wait()


class Peak:
    """The highest RSS of a process, sampled every 0.2 s while running."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.before = self.peak = rss_mb(pid)
        self._task: asyncio.Task[None] | None = None

    async def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, rss_mb(self.pid))
            await asyncio.sleep(0.2)

    def __enter__(self) -> Peak:
        self._task = asyncio.get_running_loop().create_task(self._sample())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
        self.after = rss_mb(self.pid)

    def line(self) -> str:
        return f"bot RSS: {self.before:.0f} MB before, {self.peak:.0f} MB peak, {self.after:.0f} MB after"


def request(body: bytes) -> bytes:
    return (
        f"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n"
        f"X-Telegram-Bot-Api-Secret-Token: {SECRET}\r\n\r\n".encode()
        + body
    )


async def slow_body(args: argparse.Namespace) -> None:
    port = free_port()
    async with bot_process(args, port) as proc:
        answers: list[str] = []
        with Peak(proc.pid) as rss:
            attack = [
                asyncio.create_task(attacker(port, args.sent, args.seconds, args.idle, answers))
                for _ in range(args.conns)
            ]
            await asyncio.sleep(args.seconds / 2)
            began = time.monotonic()
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(request(update(1)))
                real = (await asyncio.wait_for(reader.readline(), 60)).decode().strip()
                writer.close()
            except (OSError, TimeoutError) as err:
                real = f"failed: {err.__class__.__name__}"
            real_ms = (time.monotonic() - began) * 1000
            await asyncio.gather(*attack)
    counts: dict[str, int] = {}
    for a in answers:
        counts[a] = counts.get(a, 0) + 1
    print(
        f"code: {args.code or 'this tree'}; {args.conns} connections, {args.sent} KiB of a "
        f"1 MiB body each over {args.seconds} s, then {args.idle} s idle"
    )
    print(rss.line())
    print(f"real update during the attack: {real!r} after {real_ms:.0f} ms")
    print(f"attack connections: {counts}")


class IdleAttacker:
    """``conns`` connections from ``address`` that say nothing and come back when dropped."""

    def __init__(self, port: int, address: str, conns: int) -> None:
        self.port = port
        self.address = address
        self.conns = conns
        self.held = 0
        self.connects = 0
        self.drops = 0
        self.stop = asyncio.Event()

    async def _one(self) -> None:
        while not self.stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(self.address, 0)
                )
            except OSError:
                await asyncio.sleep(0.05)
                continue
            self.connects += 1
            self.held += 1
            try:
                stopped = asyncio.ensure_future(self.stop.wait())
                closed = asyncio.ensure_future(reader.read())  # EOF (or an answer): dropped
                await asyncio.wait({stopped, closed}, return_when=asyncio.FIRST_COMPLETED)
                stopped.cancel()
                closed.cancel()
            except (ConnectionError, OSError):
                pass
            finally:
                self.held -= 1
                writer.close()
            if not self.stop.is_set():
                self.drops += 1

    async def run(self) -> None:
        await asyncio.gather(*(self._one() for _ in range(self.conns)))


async def legitimate(port: int, pause: float, give_up: float) -> tuple[str, int, float]:
    """Post one update until it is answered 200: (last answer, tries, seconds)."""
    began = time.monotonic()
    tries = 0
    answer = "none"
    while time.monotonic() - began < give_up:
        tries += 1
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=("127.0.0.1", 0)
            )
            try:
                writer.write(request(update(1)))
                await writer.drain()
                line = await asyncio.wait_for(reader.readline(), 15)
                answer = line.decode().strip() or "closed unanswered"
            finally:
                writer.close()
        except (OSError, TimeoutError) as err:
            answer = err.__class__.__name__
        if answer.startswith("HTTP/1.1 200"):
            break
        await asyncio.sleep(pause)
    return answer, tries, time.monotonic() - began


async def idle_attack(args: argparse.Namespace) -> None:
    port = free_port()
    async with bot_process(args, port) as proc:
        with Peak(proc.pid) as rss:
            attack = IdleAttacker(port, args.attacker, args.conns)
            running = asyncio.create_task(attack.run())
            await asyncio.sleep(args.warmup)
            held_before = attack.held
            answer, tries, seconds = await legitimate(port, args.pause, 60)
            held_after = attack.held
            attack.stop.set()
            await running
    print(
        f"code: {args.code or 'this tree'}; {args.conns} idle connections from "
        f"{args.attacker}, reconnecting when dropped; env {args.env or '-'}"
    )
    print(rss.line())
    print(
        f"real update from 127.0.0.1: {answer!r} after {tries} tries, {seconds:.2f} s "
        f"(pause {args.pause} s between tries)"
    )
    print(
        f"attacker: {held_before} connections held when the update was first posted, "
        f"{held_after} when it was answered; {attack.connects} connects, {attack.drops} drops "
        f"in {args.warmup + seconds:.0f} s"
    )


def aiohttp_cost(code_dir: str | None) -> None:
    """Import time and RSS of the webhook's server, and of aiohttp's, on top of what a start
    imports anyway."""
    import subprocess

    # VmRSS, not the peak: the imports before leave a peak that a small import stays under.
    code = (
        "import time\n"
        "def rss():\n"
        "    return int(next(l for l in open('/proc/self/status') if l.startswith('VmRSS:'))"
        ".split()[1])\n"
        "import skatbot.app, skatbot.runner, skatbot.handlers.registry\n"
        "r = rss(); c = time.process_time()\n"
        "import {m}\n"
        "print(round((time.process_time() - c) * 1000), rss() - r)\n"
    )
    env = dict(os.environ)
    if code_dir:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [code_dir, env.get("PYTHONPATH")]))
    for module in ("skatbot.web.webhook", "skatbot.webhook", "aiohttp.web"):
        runs = []
        for _ in range(5):
            done = subprocess.run(
                [sys.executable, "-c", code.format(m=module)],
                capture_output=True,
                text=True,
                env=env,
                cwd=code_dir or None,
            )
            if done.returncode:
                print(f"{module}: not importable here")
                break
            runs.append(tuple(int(x) for x in done.stdout.split()))
        if runs:
            cpu = sorted(r[0] for r in runs)[len(runs) // 2]
            kb = sorted(r[1] for r in runs)[len(runs) // 2]
            print(f"import {module}: {cpu} ms CPU, +{kb / 1024:.1f} MB RSS (median of 5)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--code")
    parser.add_argument("--conns", type=int, help="300 slow bodies, 110 idle connections")
    parser.add_argument("--sent", type=int, default=960)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--idle", type=float, default=45.0)
    parser.add_argument("--import-cost", action="store_true", help="only the aiohttp comparison")
    parser.add_argument("--attack", choices=("slow-body", "idle"), default="slow-body")
    parser.add_argument("--attacker", default="127.0.0.2", help="source address (idle)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before the update")
    parser.add_argument("--pause", type=float, default=0.1, help="seconds between its tries")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    if args.import_cost:
        aiohttp_cost(args.code)
    elif args.attack == "idle":
        args.conns = args.conns or 110  # a few more than the server's cap of 100
        asyncio.run(idle_attack(args))
    else:
        args.conns = args.conns or 300
        asyncio.run(slow_body(args))
