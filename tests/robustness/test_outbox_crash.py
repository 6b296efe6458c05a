"""kill -9 at every phase of five commands whose replies matter (the durable outbox): the bot
is a real ``python -m skatbot run`` subprocess on the strict stand-in, ended by a fault point
(``SKATBOT_FAULT``, ``os._exit``: no cleanup) before the commit, after the commit, after the
first send Telegram accepted, and after Telegram was told the update is done; then started
again. Every reply, document, picture, topic and pin arrives exactly once, in order, the
messages read as without the kill, every table holds the same rows, and the outbox is empty.

Each case runs once here; ``python bench/outbox_crash.py`` runs them many times.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.robustness.outbox_crash import PHASES, SCENARIOS, Outcome, compare, play

_references: dict[str, Outcome] = {}


async def reference(name: str, tmp_path: Path) -> Outcome:
    if name not in _references:
        _references[name] = await play(SCENARIOS[name], None, tmp_path / "reference")
    return _references[name]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", list(SCENARIOS))
async def test_a_kill_at_each_phase_delivers_everything_once(
    name: str, phase: str, tmp_path: Path
) -> None:
    want = await reference(name, tmp_path)
    assert want.sends, "the command sent nothing"
    got = await play(SCENARIOS[name], phase, tmp_path / phase, want.target)
    assert got.exit_code is not None, "no kill"
    assert compare(want, got) == []
