"""Crash runs of the real bot (``python -m skatbot run`` on the strict stand-in): one command,
the process ended abruptly at a named phase (``skatbot.faults``), then started again.

A scenario is a setup (commands answered by a first, cleanly stopped bot) and one target
update. ``crash_run`` plays it with the kill at ``phase``; ``reference_run`` without any
kill. ``compare`` says what differs: the sends after the setup (texts, documents, pictures,
topics, pins: each exactly once, in the same order per chat), the final text of every bot
message (edits included), the rows of every table, and an empty outbox.

Used by tests/robustness/test_outbox_crash.py (each phase once) and bench/outbox_crash.py
(many runs).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from skatbot.faults import EXIT_CODE
from skatbot.standin.botapi import BOT_ID
from skatbot.standin.rich import parse_rich
from skatbot.storage.database import Database
from skatbot.storage.schema import metadata
from tests.standin.fake_telegram import FakeBotApi, html_to_text

PHASES = ("before_commit", "committed", "recorded", "confirmed")
SENDS = (
    "sendMessage",
    "sendRichMessage",
    "sendDocument",
    "sendPhoto",
    "createForumTopic",
    "pinChatMessage",
)
GROUP = -1001
FORUM = -1009101
DESK = -1009102
TABLE = -1009103
MANAGER = 7


class Driver:
    """Talks to the running bot through the stand-in."""

    def __init__(self, api: FakeBotApi, db_url: str) -> None:
        self.api = api
        self.db_url = db_url

    async def say(
        self, text: str, chat_id: int = GROUP, user_id: int = 1, thread_id: int | None = None
    ) -> int:
        kind = "supergroup" if chat_id in (FORUM, DESK, TABLE) else "group"
        if thread_id is None:
            uid = self.api.push_message(
                text, chat_id=chat_id, user_id=user_id, first_name=f"U{user_id}", chat_type=kind
            )
        else:
            uid = self.api.push_message(text, chat_id=chat_id, user_id=user_id, thread_id=thread_id)
        await self.api.wait_confirmed(uid, timeout=60)
        await settle(self.api, self.db_url, quiet=SETUP_QUIET)
        return uid

    async def tap(self, chat_id: int, message_id: int, data: str, user_id: int) -> int:
        uid = self.api.push_callback(data, message_id=message_id, chat_id=chat_id, user_id=user_id)
        await self.api.wait_confirmed(uid, timeout=60)
        await settle(self.api, self.db_url, quiet=SETUP_QUIET)
        return uid


# A setup step is done once the outbox is empty and the bot is quiet this long (the steps only
# build the state; the measured command waits the longer default).
SETUP_QUIET = 0.15


def outbox_rows(db_url: str) -> int:
    db = Database(db_url)
    try:
        table = metadata().tables["outbox"]
        return int(
            db.run_read(lambda s: s.execute(select(func.count()).select_from(table)).scalar())
        )
    finally:
        db.dispose()


async def settle(api: FakeBotApi, db_url: str, quiet: float = 0.4, timeout: float = 60) -> None:
    """Wait until the outbox is empty and the bot made no call for ``quiet`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        calls = len(api.calls)
        await asyncio.sleep(quiet)
        if len(api.calls) == calls and outbox_rows(db_url) == 0:
            return
    raise TimeoutError("the bot did not settle")


@dataclass
class Scenario:
    name: str
    setup: Callable[[Driver], Awaitable[dict[str, Any]]]
    target: Callable[[Driver, dict[str, Any]], int]  # pushes the update, returns its id
    chats: tuple[int, ...]
    forum: bool = False


# --- the scenarios -----------------------------------------------------------------------------


async def _list(d: Driver) -> dict[str, Any]:
    await d.say("/neu Anna Bernd Carla")
    await d.say("/spiel Anna grand ohne 1 hand gewonnen", user_id=1)
    await d.say("/spiel Bernd herz mit 1 verloren", user_id=1)
    return {}


async def _forum_desk(d: Driver) -> dict[str, Any]:
    d.api.add_forum(FORUM, title="Preisskat")
    d.api.set_admins(FORUM, [BOT_ID, MANAGER])
    await d.say("/turnier Preisskat Vereinsheim", FORUM, MANAGER)
    await d.say("/teilnehmer Anna, Bernd, Carla, Dora, Emil, Frieda", FORUM, MANAGER)
    await d.say("/serienlaenge 3 4", FORUM, MANAGER)
    return {}


PLAYERS = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda"]
USER = {name: 100 + i for i, name in enumerate(PLAYERS)}


async def _signed_but_one(d: Driver) -> dict[str, Any]:
    """A tournament in a group without topics, table 1 playing elsewhere, its list closed
    and signed by all but the last player: the target is the last signature."""
    await d.say("/turnier Preisskat Vereinsheim", DESK, MANAGER)
    await d.say("/teilnehmer " + ", ".join(PLAYERS), DESK, MANAGER)
    await d.say("/serienlaenge 3 4", DESK, MANAGER)
    await d.say("/auslosen 99", DESK, MANAGER)
    draw = "\n".join(
        html_to_text(str(c.params.get("text", ""))) for c in d.api.sent("sendMessage", DESK)
    )
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", draw))
    await d.say(f"/tisch {codes['1']}", TABLE, MANAGER)
    opening = next(m.text or "" for m in d.api.messages(TABLE) if "Neue Liste" in (m.text or ""))
    found = re.search(r"Neue Liste: (.+?) – ", opening)
    assert found, opening
    players = found.group(1).split(", ")
    games = ["grand ohne 1 hand gewonnen", "kreuz mit 1 gewonnen", "herz mit 1 verloren"]
    for i in range(len(players)):  # no two players with the same score: no tie to break
        declarer = players[(i + 1) % len(players)]
        await d.say(f"/spiel {declarer} {games[i % 3]}", TABLE, USER[declarer])
    for name in players:  # a signature counts from the account linked (at the desk)
        await d.say(f"/ich {name}", DESK, USER[name])
    await d.say("/abschluss", TABLE, USER[players[0]])
    for seat, name in enumerate(players[:-1]):
        msg = _sign_message(d)
        await d.tap(TABLE, msg.message_id, f"{_sign_data(msg)}:{seat}", USER[name])
    return {"last": (len(players) - 1, USER[players[-1]])}


def _sign_message(d: Driver) -> Any:
    msgs = [m for m in d.api.messages(TABLE) if (m.text or "").startswith("✍️ Unterschreiben")]
    assert msgs, "no sign message"
    return msgs[-1]


def _sign_data(msg: Any) -> str:
    from skatbot.usecases.tournament.tables import SIGN_LABEL

    for row in msg.buttons:
        for b in row:
            if b["text"] == SIGN_LABEL:
                return str(b["callback_data"])
    raise AssertionError(msg.buttons)


def _last_signature(d: Driver, ctx: dict[str, Any]) -> int:
    seat, user = ctx["last"]
    msg = _sign_message(d)
    return d.api.push_callback(
        f"{_sign_data(msg)}:{seat}", message_id=msg.message_id, chat_id=TABLE, user_id=user
    )


async def _two_spellings(d: Driver) -> dict[str, Any]:
    for names in ("Fritz Bernd Carla", "Fritzi Bernd Carla"):
        await d.say(f"/neu {names}")
        await d.say("/spiel Bernd grand ohne 1 hand gewonnen")
        await d.say("/abschluss ja")
    return {}


async def _one_list(d: Driver) -> dict[str, Any]:
    await d.say("/neu Anna Bernd Carla")
    return {}


async def _list_with_a_game_by_another(d: Driver) -> dict[str, Any]:
    await d.say("/neu Anna Bernd Carla")  # user 1 creates the list
    await d.say("/spiel Bernd grand ohne 1 hand gewonnen", user_id=2)  # another books a game
    return {}


def _message(
    text: str, chat_id: int = GROUP, user_id: int = 1
) -> Callable[[Driver, dict[str, Any]], int]:
    def push(d: Driver, ctx: dict[str, Any]) -> int:
        kind = "supergroup" if chat_id in (FORUM, DESK, TABLE) else "group"
        return d.api.push_message(
            text, chat_id=chat_id, user_id=user_id, first_name=f"U{user_id}", chat_type=kind
        )

    return push


SCENARIOS = {
    s.name: s
    for s in (
        Scenario("abschluss", _list, _message("/abschluss ja"), (GROUP,)),
        Scenario(
            "auslosen_forum",
            _forum_desk,
            _message("/auslosen 4711", FORUM, MANAGER),
            (FORUM,),
            forum=True,
        ),
        Scenario("signature", _signed_but_one, _last_signature, (DESK, TABLE)),
        Scenario("zusammen", _two_spellings, _message("/spieler zusammen Fritzi Fritz"), (GROUP,)),
        Scenario("einsatz", _one_list, _message("/einsatz 1 ct"), (GROUP,)),
        # the list's creator deletes it, with the game another member played on it
        Scenario(
            "loeschen", _list_with_a_game_by_another, _message("/loeschen liste ja"), (GROUP,)
        ),
    )
}


# --- running the bot -----------------------------------------------------------------------------


async def start_bot(
    api: FakeBotApi, db_url: str, log: Path, fault: str | None = None
) -> asyncio.subprocess.Process:
    env = dict(os.environ)
    env.pop("SKATBOT_FAULT", None)
    env.update(
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_API_BASE_URL=api.url,
        SKATBOT_DATABASE_URL=db_url,
        SKATBOT_RATE_LIMIT="0",
        # The "confirmed" fault point fires when a long poll that carried the offset
        # returns: with Telegram's 30 s that is half a minute of nothing per case.
        SKATBOT_POLL_TIMEOUT="1",
    )
    if fault:
        env["SKATBOT_FAULT"] = fault
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "skatbot",
        "run",
        env=env,
        stdout=log.open("ab"),
        stderr=asyncio.subprocess.STDOUT,
    )


async def stop_bot(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
    await asyncio.wait_for(proc.wait(), 30)


@dataclass
class Outcome:
    sends: dict[int, list[tuple[str, ...]]]  # per chat, in order
    texts: dict[int, list[str]]  # per chat: the messages sent or edited after the setup
    rows: dict[str, int]  # rows per table
    outbox: int
    exit_code: int | None  # of the killed process (None: no kill)
    target: int  # the target's update id


def _mask(text: str) -> str:
    return re.sub(r"/tisch \w+", "/tisch CODE", text)


def _send_key(call: Any) -> tuple[str, ...]:
    p = call.params
    thread = str(p.get("message_thread_id") or "")
    if call.method == "sendMessage":
        return (call.method, thread, _mask(html_to_text(str(p.get("text", "")))))
    if call.method == "sendRichMessage":
        return (call.method, thread, _mask(parse_rich(p["rich_message"]).plain()))
    if call.method in ("sendDocument", "sendPhoto"):
        name = next(iter(call.files.values()))[0] if call.files else ""
        return (call.method, thread, name, _mask(html_to_text(str(p.get("caption") or ""))))
    if call.method == "createForumTopic":
        return (call.method, str(p.get("name", "")))
    return (call.method,)


def _shown(api: FakeBotApi, chats: tuple[int, ...]) -> dict[tuple[int, int], str]:
    """The text (or caption) of every bot message in ``chats`` as Telegram shows it now."""
    return {
        (chat, m.message_id): _mask(m.text or m.caption or "") + (" [pinned]" if m.pinned else "")
        for chat in chats
        for m in api.messages(chat, thread_id=None)
    }


def _rows(db_url: str) -> dict[str, int]:
    db = Database(db_url)
    try:

        def count(session: Any) -> dict[str, int]:
            return {
                name: int(session.execute(select(func.count()).select_from(t)).scalar())
                for name, t in sorted(metadata().tables.items())
            }

        return db.run_read(count)
    finally:
        db.dispose()


async def play(
    scenario: Scenario, phase: str | None, workdir: Path, target: int | None = None
) -> Outcome:
    """The scenario with a kill at ``phase`` (None: without), then a clean restart.

    With a kill, ``target`` is the update id the target will get (``Outcome.target`` of the
    run without): one bot process does the setup and meets the fault point at the target.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    db_url = f"sqlite:///{workdir / 'bot.db'}"
    log = workdir / "bot.log"
    async with FakeBotApi(group_limit=None) as api:
        d = Driver(api, db_url)
        fault = None if phase is None else f"{phase}@{target}"
        proc = await start_bot(api, db_url, log, fault)
        try:
            ctx = await scenario.setup(d)
            before = len(api.calls)
            shown = _shown(api, scenario.chats)
            if phase == "confirmed":
                # The first send of the reply meets flood control: the update is confirmed
                # (the long poll of SKATBOT_POLL_TIMEOUT=1 s returns) while its reply still
                # waits in the outbox (3 s).
                for method in ("sendMessage", "sendRichMessage", "sendDocument", "sendPhoto"):
                    api.fail_next(method, status=429, retry_after=3)
            uid = scenario.target(d, ctx)
            assert phase is None or uid == target, (uid, target)
            exit_code = None
            if phase is None:
                await api.wait_confirmed(uid, timeout=60)
                await settle(api, db_url)
            else:
                exit_code = await asyncio.wait_for(proc.wait(), 60)
                api._faults.clear()
        finally:
            await stop_bot(proc)
        if phase is not None:
            proc = await start_bot(api, db_url, log)
            try:
                await api.wait_confirmed(uid, timeout=60)
                await settle(api, db_url)
            finally:
                await stop_bot(proc)
        sends: dict[int, list[tuple[str, ...]]] = {}
        for call in api.calls[before:]:
            if call.method in SENDS and call.ok:
                sends.setdefault(int(call.params.get("chat_id", 0)), []).append(_send_key(call))
        texts: dict[int, list[str]] = {}
        for (chat, mid), text in _shown(api, scenario.chats).items():
            if shown.get((chat, mid)) != text:
                texts.setdefault(chat, []).append(
                    ("edited: " if (chat, mid) in shown else "") + text
                )
    return Outcome(sends, texts, _rows(db_url), outbox_rows(db_url), exit_code, uid)


def compare(reference: Outcome, crashed: Outcome) -> list[str]:
    """What the crashed run got wrong (empty: nothing)."""
    problems = []
    if crashed.exit_code not in (None, EXIT_CODE):
        problems.append(f"the fault point was not reached (exit code {crashed.exit_code})")
    if crashed.sends != reference.sends:
        problems.append(f"sends differ:\n  want {reference.sends}\n  got  {crashed.sends}")
    if crashed.texts != reference.texts:
        problems.append(f"messages differ:\n  want {reference.texts}\n  got  {crashed.texts}")
    if crashed.rows != reference.rows:
        diff = {
            k: (reference.rows.get(k), crashed.rows.get(k))
            for k in set(reference.rows) | set(crashed.rows)
            if reference.rows.get(k) != crashed.rows.get(k)
        }
        problems.append(f"rows differ (want, got): {diff}")
    if crashed.outbox:
        problems.append(f"{crashed.outbox} outbox rows left")
    return problems
