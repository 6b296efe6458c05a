"""kill -9 at every phase of five commands whose replies matter (the durable outbox): the bot
is a real ``python -m skatbot run`` subprocess on the strict stand-in, ended by a fault point
(``SKATBOT_FAULT``, ``os._exit``: no cleanup) before the commit, after the commit, after the
first send Telegram accepted, and after Telegram was told the update is done; then started
again. Every reply, document, picture, topic and pin arrives exactly once, in order, the
messages read as without the kill, every table holds the same rows, and the outbox is empty.

Each case runs once here; ``python bench/outbox_crash.py`` runs them many times. The cases
are independent (each its own stand-in, database and bot process) and mostly wait for the
bot, so they are played a few at a time, once per module (``outcomes``); each case is still
its own test with its own comparison.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.robustness.outbox_crash import PHASES, SCENARIOS, Outcome, compare, play

AT_ONCE = 4  # cases played at the same time (each one bot process)

Result = tuple[Outcome, Outcome] | BaseException  # (without the kill, with it), or the failure


async def _play_all(root: Path) -> dict[tuple[str, str], Result]:
    gate = asyncio.Semaphore(AT_ONCE)
    results: dict[tuple[str, str], Result] = {}

    async def scenario(name: str) -> None:
        try:
            async with gate:
                want = await play(SCENARIOS[name], None, root / name / "reference")
        except Exception as err:  # every case of the scenario fails with it
            for phase in PHASES:
                results[(name, phase)] = err
            return

        async def case(phase: str) -> None:
            try:
                async with gate:
                    got = await play(SCENARIOS[name], phase, root / name / phase, want.target)
                results[(name, phase)] = (want, got)
            except Exception as err:
                results[(name, phase)] = err

        await asyncio.gather(*(case(phase) for phase in PHASES))

    await asyncio.gather(*(scenario(name) for name in SCENARIOS))
    return results


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Result]:
    return asyncio.run(_play_all(tmp_path_factory.mktemp("outbox_crash")))


@pytest.mark.timeout(900)
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_kill_at_each_phase_delivers_everything_once(
    name: str, phase: str, outcomes: dict[tuple[str, str], Result]
) -> None:
    result = outcomes[(name, phase)]
    if isinstance(result, BaseException):
        raise result
    want, got = result
    assert want.sends, "the command sent nothing"
    assert got.exit_code is not None, "no kill"
    assert compare(want, got) == []
