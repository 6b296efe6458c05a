"""Thousands of groups on one bot at Telegram's cap: who waits how long, and is it fair?

At internet scale the bottleneck is not the CPU but Telegram's ~30 messages a second per bot
(and ~20 a minute per group). This runs the real bot (all handlers, SQLite, the outbox and
its pacer, the polling loop) against a loopback Bot API stand-in that enforces both limits
with 429 answers, first with demand below the cap, then above it:

* every group has a list; some have pinned standings (/anheften), edited after each booking;
* bookings (/spiel) arrive at random over ``--seconds`` at ``--below`` and ``--above``
  messages a second, spread over all groups; above the cap some pinned groups book in bursts;
* a booking's wait is from its update arriving to its reply reaching the stand-in.

Reported per scenario: bookings and replies (none may be dropped), the per-group longest wait
(median, p90, p99, max over the groups), Jain's fairness index of those longest waits (1 =
every group waited alike; with a backlog served in arrival order the late-comers wait longer,
so it is below 1 without anyone being treated unfairly), how many bookings were overtaken by
more than 5 s by a later booking of another group (0 = served in arrival order, no group
starves), the sends per second the stand-in accepted, 429 answers, and the pinned-standings
edits sent against the bookings that asked for one (coalesced when behind).

    python bench/scale.py [--groups 2000] [--below 20] [--above 60] [--seconds 20] [--quick]

Run time is bounded: arrivals last ``--seconds``; the drain is cut off at ``--drain`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the Bot API server

from skatbot.app import build_application
from skatbot.runner import run_polling
from skatbot.standin.botapi import ApiError, JSONDict
from skatbot.storage.database import Database
from tests.standin.server import BotApiServer

SENDS = frozenset({"sendmessage", "senddocument", "sendphoto", "sendrichmessage"})
GAMES = (
    "grand ohne 1 hand gewonnen",
    "kreuz mit 2 verloren",
    "herz ohne 1 gewonnen",
    "null gewonnen",
)
PLAYERS = ("Anna", "Bernd", "Carla")
OVERTAKE = 5.0  # seconds


class CappedApi(BotApiServer):
    """The console's stand-in plus Telegram's two send limits (429 with ``retry_after``)."""

    def __init__(self, per_bot: int = 30, per_group: int = 20) -> None:
        super().__init__(first_update_id=1)
        self.capped = False
        self.per_bot, self.per_group = per_bot, per_group
        self._bot_sends: deque[float] = deque()
        self._group_sends: dict[int, deque[float]] = defaultdict(deque)
        self.refused = 0
        self.accepted: list[tuple[float, int, str]] = []  # time, chat, method

    async def _before_call(self, method: str, params: JSONDict) -> Any:
        if not self.capped or method.lower() not in SENDS:
            return None
        now = time.monotonic()
        chat = int(params.get("chat_id") or 0)
        bot = self._bot_sends
        while bot and bot[0] <= now - 1.0:
            bot.popleft()
        group = self._group_sends[chat]
        while group and group[0] <= now - 60.0:
            group.popleft()
        if len(bot) >= self.per_bot:
            self.refused += 1
            raise ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
        if chat < 0 and len(group) >= self.per_group:
            retry = max(1, math.ceil(group[0] + 60.0 - now))
            self.refused += 1
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})
        return (chat, method)

    def _after_call(self, token: Any) -> None:
        if token is None:
            return
        chat, method = token
        now = time.monotonic()
        self._bot_sends.append(now)
        self._group_sends[chat].append(now)
        self.accepted.append((now, chat, method))


@dataclass
class Scenario:
    name: str
    rate: float
    bookings: dict[int, tuple[int, float]] = field(default_factory=dict)  # uid -> chat, pushed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(7)
    db = Database(f"sqlite:///{tempfile.mkdtemp()}/scale.db")
    db.migrate()
    groups = [-(10_000 + i) for i in range(args.groups)]
    pinned = set(groups[: args.pinned])
    async with CappedApi() as api:
        app = build_application(api.token, db, base_url=f"{api.url}/bot")
        outbox = app.bot_data.outbox
        stop = asyncio.Event()
        poller = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
        # -- set-up, limits off: a list in every group, pinned standings in some ---------------
        pacer = outbox.pacer
        limits = (pacer.group_limit, pacer.per_second)
        pacer.group_limit, pacer.per_second = None, None
        began = time.monotonic()
        for batch in range(0, len(groups), 100):  # in batches, as chats would come
            last = 0
            for chat in groups[batch : batch + 100]:
                last = api.push_message("/neu " + " ".join(PLAYERS), chat_id=chat)
                if chat in pinned:
                    last = api.push_message("/anheften", chat_id=chat)
            await api.wait_confirmed(last, 600)
        await outbox.wait_idle(None, 600)
        print(
            f"set-up: {len(groups)} groups with a list, {len(pinned)} with pinned standings "
            f"in {time.monotonic() - began:.1f} s"
        )
        pacer.group_limit, pacer.per_second = limits
        api.capped = True
        print(
            f"{'scenario':<14}{'demand/s':>9}{'bookings':>9}{'replies':>8}{'dropped':>8}"
            f"{'groups':>7}{'wait p50':>9}{'p90':>7}{'p99':>7}{'max':>7}{'fair':>6}"
            f"{'sent/s':>7}{'429':>5}{'pin edits/asked':>16}"
        )
        for scenario in (Scenario("below cap", args.below), Scenario("above cap", args.above)):
            await play(api, app, scenario, groups, pinned, rng, args)
        stop.set()
        await poller
    db.dispose()


async def play(
    api: CappedApi,
    app: Any,
    scenario: Scenario,
    groups: list[int],
    pinned: set[int],
    rng: random.Random,
    args: argparse.Namespace,
) -> None:
    outbox = app.bot_data.outbox
    calls_before = len(api.calls)
    accepted_before = len(api.accepted)
    refused_before = api.refused
    skipped_before = outbox.edits.skipped
    total = int(scenario.rate * args.seconds)
    start = time.monotonic()
    bursts = scenario.rate > 30
    for i in range(total):
        due = start + i / scenario.rate
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        chat = rng.choice(groups)
        repeat = 3 if bursts and chat in pinned else 1  # a pinned group books in a burst
        for _ in range(repeat):
            text = f"/spiel {rng.choice(PLAYERS)} {rng.choice(GAMES)}"
            uid = api.push_message(text, chat_id=chat)
            scenario.bookings[uid] = (chat, time.monotonic())
    arrivals = time.monotonic() - start
    deadline = time.monotonic() + args.drain
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        if api.confirmed_offset > max(scenario.bookings) and not outbox.busy():
            break
    # match replies to bookings: per chat, the k-th booking reply answers the k-th booking
    pushed: dict[int, list[float]] = defaultdict(list)
    for chat, at in sorted(scenario.bookings.values(), key=lambda v: v[1]):
        pushed[chat].append(at)
    answered: dict[int, list[float]] = defaultdict(list)
    edits_sent = 0
    for call in api.calls[calls_before:]:
        if not call.ok:
            continue
        chat = int(call.params.get("chat_id") or 0)
        if call.method == "sendMessage" and str(call.params.get("text", "")).startswith(
            "✅ <b>Spiel"
        ):
            answered[chat].append(call.time)
        elif call.method == "editMessageText" and chat in pinned:
            edits_sent += 1
    longest: list[float] = []
    replies = 0
    pairs: list[tuple[float, float]] = []  # (arrived, answered) of every answered booking
    for chat, times in pushed.items():
        got = answered.get(chat, [])
        replies += min(len(got), len(times))
        pairs.extend(zip(times, got, strict=False))
        waits = [max(0.0, b - a) for a, b in zip(times, got, strict=False)]
        if len(got) < len(times):
            waits.append(time.monotonic() - times[len(got)])  # still waiting at the cut-off
        longest.append(max(waits))
    # Overtaken: a booking answered more than OVERTAKE seconds after one (of another group)
    # that arrived later. Few means the groups are served in arrival order: nobody starves.
    pairs.sort()
    overtaken, earliest_later = 0, math.inf
    for _arrived, got_at in reversed(pairs):
        if got_at > earliest_later + OVERTAKE:
            overtaken += 1
        earliest_later = min(earliest_later, got_at)
    fair = sum(longest) ** 2 / (len(longest) * sum(x * x for x in longest)) if longest else 1.0
    accepted = api.accepted[accepted_before:]
    span = (accepted[-1][0] - accepted[0][0]) if len(accepted) > 1 else 1.0
    asked = sum(1 for chat, _ in scenario.bookings.values() if chat in pinned)
    booked = len(scenario.bookings)
    print(
        f"{scenario.name:<14}{scenario.rate:>9.0f}{booked:>9}{replies:>8}{booked - replies:>8}"
        f"{len(pushed):>7}{statistics.median(longest):>8.1f}s{percentile(longest, 0.9):>6.1f}s"
        f"{percentile(longest, 0.99):>6.1f}s{max(longest):>6.1f}s{fair:>6.2f}"
        f"{len(accepted) / span:>7.1f}{api.refused - refused_before:>5}"
        f"{edits_sent:>9}/{asked:<6}"
    )
    print(
        f"  arrivals {arrivals:.1f} s; pinned edits skipped as superseded: "
        f"{outbox.edits.skipped - skipped_before}; bookings overtaken by more than "
        f"{OVERTAKE:.0f} s by a later one: {overtaken} of {len(pairs)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=2000)
    parser.add_argument("--pinned", type=int, default=200)
    parser.add_argument("--below", type=float, default=20.0, help="bookings/s below the cap")
    parser.add_argument("--above", type=float, default=60.0, help="bookings/s above the cap")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--drain", type=float, default=150.0)
    parser.add_argument("--quick", action="store_true", help="500 groups, 10 s")
    args = parser.parse_args()
    if args.quick:
        args.groups, args.pinned, args.seconds = 500, 50, 10.0
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
