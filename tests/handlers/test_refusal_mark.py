"""The refusal mark through the real bot: the outbox records which sent messages were
refusals (``Outbox.refusals``), and ``ok``/``refused`` read it for the bot's tests. What the
use cases mark: tests/usecases/common/test_refusal_mark.py."""

from __future__ import annotations

import pytest

from tests.helpers import Bot, ok, refused


async def test_ok_and_refused_check_the_mark(bot: Bot) -> None:
    with pytest.raises(AssertionError):
        await ok(bot, "/stand")  # no list yet: refused
    with pytest.raises(AssertionError):
        await refused(bot, "/neu Anna Bernd Carla")
