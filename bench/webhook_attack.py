"""The slow-body attack on ``skatbot webhook`` (a real process on loopback), and the cost of
aiohttp's server for comparison.

``CONNS`` connections, none with the secret, each announce a 1 MiB body and send ``SENT`` KiB
of it in slices over ``SECONDS`` seconds, then stay idle for ``IDLE`` seconds. Meanwhile one
real update (with the secret) is posted. Printed: the bot's RSS before and at its peak, the
real update's answer and time, how many attack connections the server still holds after the
idle time, and what each got.

Usage: python bench/webhook_attack.py [--code DIR] [--conns 300] [--sent 960] [--seconds 8]
       [--idle 45]
``--code DIR`` runs the bot from another source tree (e.g. the commit before the hardening,
unpacked with ``git archive``) for the figure before.
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


async def main(args: argparse.Namespace) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeBotApi(group_limit=None) as api:
            api.add_chat(CHAT)
            env = dict(os.environ)
            env.update(
                TELEGRAM_BOT_TOKEN=api.token,
                TELEGRAM_API_BASE_URL=api.url,
                SKATBOT_DATABASE_URL=f"sqlite+aiosqlite:///{Path(tmp) / 'bot.db'}",
                SKATBOT_WEBHOOK_SECRET=SECRET,
                SKATBOT_RATE_LIMIT="0",
            )
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
                before = rss_mb(proc.pid)
                answers: list[str] = []
                peak = [before]

                async def sample() -> None:
                    while True:
                        peak[0] = max(peak[0], rss_mb(proc.pid))
                        await asyncio.sleep(0.2)

                sampler = asyncio.create_task(sample())
                attack = [
                    asyncio.create_task(attacker(port, args.sent, args.seconds, args.idle, answers))
                    for _ in range(args.conns)
                ]
                await asyncio.sleep(args.seconds / 2)
                began = time.monotonic()
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    body = update(1)
                    writer.write(
                        f"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n"
                        f"X-Telegram-Bot-Api-Secret-Token: {SECRET}\r\n\r\n".encode()
                        + body
                    )
                    real = (await asyncio.wait_for(reader.readline(), 60)).decode().strip()
                    writer.close()
                except (OSError, TimeoutError) as err:
                    real = f"failed: {err.__class__.__name__}"
                real_ms = (time.monotonic() - began) * 1000
                await asyncio.gather(*attack)
                sampler.cancel()
                after = rss_mb(proc.pid)
            finally:
                proc.terminate()
                await proc.wait()
    counts: dict[str, int] = {}
    for a in answers:
        counts[a] = counts.get(a, 0) + 1
    print(
        f"code: {args.code or 'this tree'}; {args.conns} connections, {args.sent} KiB of a "
        f"1 MiB body each over {args.seconds} s, then {args.idle} s idle"
    )
    print(f"bot RSS: {before:.0f} MB before, {peak[0]:.0f} MB peak, {after:.0f} MB after")
    print(f"real update during the attack: {real!r} after {real_ms:.0f} ms")
    print(f"attack connections: {counts}")


def aiohttp_cost() -> None:
    """Import time and RSS of aiohttp's server on top of what a start imports anyway."""
    import resource
    import subprocess

    code = (
        "import time, resource\n"
        "import skatbot.app, skatbot.runner, skatbot.handlers.registry\n"
        "r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; c = time.process_time()\n"
        "import {m}\n"
        "print(round((time.process_time() - c) * 1000), "
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - r)\n"
    )
    del resource
    for module in ("skatbot.webhook", "aiohttp.web"):
        runs = []
        for _ in range(3):
            done = subprocess.run(
                [sys.executable, "-c", code.format(m=module)], capture_output=True, text=True
            )
            if done.returncode:
                print(f"{module}: not importable here")
                break
            runs.append(tuple(int(x) for x in done.stdout.split()))
        if runs:
            cpu = sorted(r[0] for r in runs)[len(runs) // 2]
            kb = sorted(r[1] for r in runs)[len(runs) // 2]
            print(f"import {module}: {cpu} ms CPU, +{kb / 1024:.1f} MB peak RSS (median of 3)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--code")
    parser.add_argument("--conns", type=int, default=300)
    parser.add_argument("--sent", type=int, default=960)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--idle", type=float, default=45.0)
    parser.add_argument("--import-cost", action="store_true", help="only the aiohttp comparison")
    args = parser.parse_args()
    if args.import_cost:
        aiohttp_cost()
    else:
        asyncio.run(main(args))
