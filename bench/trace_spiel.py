"""Which files of the skatbot package one /spiel passes through, and how often it changes file.

Drives the real bot as the tests do (``tests.helpers.Bot``: the PTB Application with all
handlers, our polling loop and outbox, polling the strict Bot API stand-in on loopback; the
database of ``tests.helpers.fresh_database``: a SQLite file, or PostgreSQL when
``SKATBOT_TEST_DATABASE_URL`` is set). It opens a list (``/neu Anna Bernd Carla``) and books
one game untraced, so the measured ``/spiel Anna grand ohne 1 hand gewonnen`` is a plain booking
that imports nothing for the first time. Tracing is on from just before that update is
handed to the stand-in until ``Bot.say`` returns: the poller's ``getUpdates`` answered,
the booking committed, the update confirmed, the reply sent and its outbox row settled.

Counted are the frames the bot executes: those of the bot's tasks and of worker threads.
The stand-in (``skatbot/standin/``, ``tests/standin/``) and this driver share the process and
the event loop and run skatbot code too (the stand-in's server; ``Outbox.wait_idle``, which
``Bot.say`` waits in); their tasks are left out. A task belongs to the bot when its coroutine
is skatbot code outside ``skatbot/standin/``, to the harness when its coroutine is in
``skatbot/standin/``, ``tests/`` or ``bench/``; any other task (``asyncio.wait_for``'s inner
task, PTB's) belongs to the side of the task that created it (a task factory notes the
creator). Frames outside skatbot (PTB, httpx, SQLAlchemy, the standard library) are skipped.

A transition is a change of the executing skatbot frame's file, in calls and in returns
(a ``return`` hands execution to the caller's frame); the skipped frames in between do not
count, so skatbot A -> PTB -> skatbot A is none and A -> PTB -> B is one. A coroutine that
suspends returns through its chain of awaiting frames, and is called through it again when
it resumes: both count, as the interpreter reports them. There is one sequence for the whole
process (the event loop thread and any worker thread, in the order the events happen),
because the bot hands its work between tasks and threads and each hand-over is a change of
file.

Stability: on SQLite everything runs on the event loop thread, and the poller, the chat's
worker task and the outbox's sender take their turns at the same points in every run (the
stand-in answers on the same loop): twelve runs on the shared 2-core host, four of them with
two busy processes beside, gave the identical output, the full sequence included. So nothing
is sorted. On PostgreSQL a unit of work runs in a worker thread while the poller goes on in
the loop thread, and their frames interleave at GIL switches: the files are the same, the
sequence and the count of transitions vary by a few from run to run (273 and 276 in two runs).

Usage: PYTHONPATH=. python bench/trace_spiel.py [--full]
    --full  also prints every transition, in order
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
import threading
import weakref
from collections.abc import Coroutine, Generator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import skatbot
from tests.helpers import GROUP_WINDOW, PG_URL, Bot, Reply, fresh_database
from tests.standin.fake_telegram import FakeBotApi

# A grand needs its Spitzen ("grand hand gewonnen" is refused: "Bei Grand fehlen die
# Spitzen"), so the measured booking is the bot's own example.
MEASURED = "/spiel Anna grand ohne 1 hand gewonnen"
SETUP = ("/neu Anna Bernd Carla", MEASURED)  # the measured booking is the list's second game

PACKAGE = Path(skatbot.__file__).resolve().parent
ROOT = PACKAGE.parent  # paths are printed relative to it: skatbot/handlers/runtime.py
HARNESS_DIRS = (PACKAGE / "standin", ROOT / "tests", ROOT / "bench")

AnyTask = asyncio.Task[Any]


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _code_of(coro: object) -> CodeType | None:
    """The code of a task's coroutine (or generator-based coroutine), if it has one."""
    for name in ("cr_code", "gi_code"):
        code = getattr(coro, name, None)
        if isinstance(code, CodeType):
            return code
    return None


class Tracer:
    """A profile function recording the file of the bot's executing skatbot frame."""

    def __init__(self, loop: asyncio.AbstractEventLoop, driver: AnyTask) -> None:
        self.loop = loop
        self.loop_thread = threading.get_ident()
        self.active = False
        self.files: dict[CodeType, str | None] = {}  # code -> path in the repo (None: not ours)
        self.bot_task: weakref.WeakKeyDictionary[AnyTask, bool] = weakref.WeakKeyDictionary()
        self.bot_task[driver] = False
        self.lock = threading.Lock()
        self.last: str | None = None
        # Every change of file, in order: (file now executing, in a worker thread).
        self.sequence: list[tuple[str, bool]] = []

    # -- which frames count -----------------------------------------------------------------

    def path_of(self, code: CodeType) -> str | None:
        """``code``'s file relative to the repo if it is part of the skatbot package."""
        try:
            return self.files[code]
        except KeyError:
            pass
        path: str | None = None
        filename = code.co_filename
        if filename.endswith(".py"):
            resolved = Path(filename).resolve()
            if _inside(resolved, PACKAGE):
                path = resolved.relative_to(ROOT).as_posix()
        self.files[code] = path
        return path

    def side_of_code(self, code: CodeType | None) -> bool | None:
        """True: the bot's coroutine; False: the harness's; None: neither (inherits)."""
        if code is None or not code.co_filename.endswith(".py"):
            return None
        path = Path(code.co_filename).resolve()
        if any(_inside(path, folder) for folder in HARNESS_DIRS):
            return False
        if _inside(path, PACKAGE):
            return True
        return None

    def is_bot_task(self, task: AnyTask) -> bool:
        known = self.bot_task.get(task)
        if known is None:  # created before the factory was installed: by its coroutine alone
            side = self.side_of_code(_code_of(task.get_coro()))
            known = self.bot_task[task] = side is not False
        return known

    def task_factory(
        self,
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, Any] | Generator[Any, None, Any],
        **kwargs: Any,
    ) -> AnyTask:
        task: AnyTask = asyncio.Task(coro, loop=loop, **kwargs)
        side = self.side_of_code(_code_of(coro))
        if side is None:
            creator = asyncio.current_task(loop)
            side = True if creator is None else self.is_bot_task(creator)
        self.bot_task[task] = side
        return task

    # -- the profile function ---------------------------------------------------------------

    def hook(self, frame: FrameType, event: str, arg: object) -> None:
        if not self.active:
            return
        if event == "call":
            now: FrameType | None = frame
        elif event == "return":
            now = frame.f_back  # the caller executes again
        else:
            return  # c_call / c_return / c_exception: the Python frame stays the same
        if now is None:
            return
        path = self.path_of(now.f_code)
        if path is None:
            return
        worker = threading.get_ident() != self.loop_thread
        if not worker:
            task = asyncio.current_task(self.loop)
            if task is not None and not self.is_bot_task(task):
                return
        with self.lock:
            if path != self.last:
                self.last = path
                self.sequence.append((path, worker))

    def start(self) -> None:
        self.active = True
        sys.setprofile(self.hook)

    def stop(self) -> None:
        sys.setprofile(None)
        self.active = False


async def booked(bot: Bot, text: str) -> list[Reply]:
    """Send ``text``; it must be answered and not refused (a plain booking, not an error)."""
    out = await bot.say(text)
    if not out or any(r.refusal for r in out):
        raise SystemExit(f"{text!r} was not answered as expected: {[r.text for r in out]}")
    return out


async def trace() -> list[tuple[str, bool]]:
    loop = asyncio.get_running_loop()
    driver = asyncio.current_task()
    assert driver is not None
    tracer = Tracer(loop, driver)
    # Installed before the bot starts, so that every task's side is known and every worker
    # thread gets the (dormant until start()) profile function: threading.setprofile only
    # reaches threads started after it (Python 3.11 cannot set it for running threads).
    loop.set_task_factory(tracer.task_factory)
    threading.setprofile(tracer.hook)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db = fresh_database(Path(tmp))
            try:
                api = FakeBotApi(group_window=GROUP_WINDOW)
                async with api:
                    bot = Bot(api, db)
                    await bot.start()
                    try:
                        for text in SETUP:
                            await booked(bot, text)
                        tracer.start()
                        try:
                            out = await bot.say(MEASURED)
                        finally:
                            tracer.stop()
                        if not out or any(r.refusal for r in out):
                            raise SystemExit(f"the measured {MEASURED!r} was refused: {out}")
                    finally:
                        await bot.shutdown()
            finally:
                db.dispose()
    finally:
        threading.setprofile(None)
        loop.set_task_factory(None)
    return tracer.sequence


def report(sequence: list[tuple[str, bool]], full: bool) -> None:
    files = list(dict.fromkeys(path for path, _ in sequence))
    backend = "PostgreSQL" if PG_URL else "SQLite"
    print(f"{MEASURED} (second game of a list of 3 players, {backend})")
    print("skatbot files entered, in order of first entry:")
    for n, path in enumerate(files, 1):
        print(f"  {n:3}  {path}")
    threads = sum(1 for _, worker in sequence if worker)
    print(f"distinct skatbot files: {len(files)}")
    print(f"file-to-file transitions: {max(0, len(sequence) - 1)}")
    if threads:
        print(f"  of them into a file in a worker thread: {threads}")
    if full:
        print("transitions:")
        for n, ((before, _), (after, worker)) in enumerate(itertools.pairwise(sequence), 1):
            mark = "  [worker thread]" if worker else ""
            print(f"  {n:4}  {before} -> {after}{mark}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--full", action="store_true", help="print every transition")
    args = parser.parse_args()
    report(asyncio.run(trace()), args.full)


if __name__ == "__main__":
    main()
