"""bench/group_view.py on a short evening, so that the measurement cannot silently rot: its
counts add up to what the stand-in holds, and a refused tap is the group's on a Bot API 10.1
server and the tapper's alone on 10.3."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import group_view
from skatbot.standin.versions import API_10_1, API_10_3
from skatbot.storage.database import Database
from tests.helpers import Bot, fresh_database, running_bot

REFUSED_UNDO = "zurücknehmen dürfen nur"  # Bernd taps Anna's "↩️ Rückgängig"


async def short_evening(bot: Bot) -> group_view.Tally:
    return await group_view.measure(bot, group_view.evening(6))


def stand_in_counts(bot: Bot) -> tuple[int, int, int]:
    """(public, ephemeral, refused) new messages as the stand-in holds them."""
    api = bot.api
    refused = sum(
        c.method in group_view.SENDS and not c.ok and c.params.get("chat_id") == group_view.CHAT
        for c in api.calls
    )
    return len(api.messages(group_view.CHAT)), len(api.ephemeral_messages(group_view.CHAT)), refused


@pytest.mark.parametrize("version", [API_10_1, API_10_3])
async def test_the_counts_add_up_to_the_stand_ins(db: Database, version: tuple[int, int]) -> None:
    async with running_bot(db, api_version=version, rich_messages=True, group_limit=None) as bot:
        tally = await short_evening(bot)
        assert tally.unplayed == []  # every scripted tap found its button
        counted = tuple(tally.total(v) for v in group_view.VISIBILITY)
        assert counted == stand_in_counts(bot)
        assert set(tally.sends) <= {(k, v) for k in group_view.KINDS for v in group_view.VISIBILITY}
        # the evening has every kind but "other" (its typos are refusals)
        public = {k for k in group_view.KINDS if tally.public(k)}
        assert public == set(group_view.KINDS) - {"other"}, tally.sends
        assert tally.flood_refusals == 0


async def test_a_refused_tap_is_public_before_and_ephemeral_after(
    db: Database, tmp_path: Path
) -> None:
    async with running_bot(db, api_version=API_10_1, rich_messages=True, group_limit=None) as bot:
        before = await short_evening(bot)
        assert any(REFUSED_UNDO in (m.text or "") for m in bot.api.messages(group_view.CHAT))
        assert bot.api.ephemeral_messages(group_view.CHAT) == []
    (tmp_path / "after").mkdir()
    second = fresh_database(tmp_path / "after")  # the same evening from the start
    async with running_bot(
        second, api_version=API_10_3, rich_messages=True, group_limit=None
    ) as bot:
        after = await short_evening(bot)
        assert not any(REFUSED_UNDO in (m.text or "") for m in bot.api.messages(group_view.CHAT))
        (only,) = bot.api.ephemeral_messages(group_view.CHAT, group_view.BERND)
        assert REFUSED_UNDO in (only.text or "")
    second.dispose()
    assert before.sends["refusal", "ephemeral"] == 0
    assert after.sends["refusal", "ephemeral"] == 1
    assert after.public("refusal") == before.public("refusal") - 1
    # the goal check names what is still public after, honestly
    assert "builder step" in group_view.still_public(after)
    assert "booking" not in group_view.still_public(after)
