"""A ``Call`` stored in the durable outbox by the version before the feature packages names
its module by the old flat path; after an upgrade it must still run."""

from __future__ import annotations

from typing import Any

import pytest

from skatbot.usecases.common.reply import MOVED_MODULES, Call

ran: list[Any] = []


def record(_session: object, value: int) -> int:
    ran.append(value)
    return value


def test_an_old_module_path_still_runs() -> None:
    ran.clear()
    old = Call(
        "skatbot.usecases.reply:run_both",  # as the earlier version wrote it
        ([f"{__name__}:record", [1]], [f"{__name__}:record", [2]]),
    )
    assert old(None) == 2
    assert ran == [1, 2]


@pytest.mark.parametrize(
    "fn",
    [  # every Call an earlier version stored
        "skatbot.usecases.reply:run_both",
        "skatbot.usecases.standings:forget",
        "skatbot.usecases.standings:store",
        "skatbot.usecases.table_lists:topic_created",
        "skatbot.usecases.table_lists:topic_refused",
        "skatbot.usecases.table_lists:render_standings",
    ],
)
def test_old_call_targets_resolve(fn: str) -> None:
    import importlib

    module, name = fn.split(":")
    assert callable(getattr(importlib.import_module(MOVED_MODULES[module]), name))


def test_every_moved_module_exists() -> None:
    import importlib

    for new in MOVED_MODULES.values():
        importlib.import_module(new)
