"""bench/group_view.py on a short evening, so that the measurement cannot silently rot: its
counts (new messages and edits) add up to what the stand-in holds, and the evening is played
as a member would on each server: help and the calculator picked from the menu (an ephemeral
command on Bot API 10.3, an ordinary message on 10.1, where the menu's ``is_ephemeral`` is
dropped), the builder opened by tapping "Neues Spiel" under the last booking (for the one
entering alone on 10.3, public on 10.1), and a refused tap the group's on 10.1 and the
tapper's alone on 10.3."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import group_view
from skatbot.standin.versions import API_10_1, API_10_3
from skatbot.storage.database import Database
from tests.helpers import Bot, fresh_database, running_bot

REFUSED_UNDO = "zurücknehmen dürfen nur"  # Bernd taps Anna's "↩️ Rückgängig"
CHAT = group_view.CHAT


async def short_evening(bot: Bot) -> group_view.Tally:
    return await group_view.measure(bot, group_view.evening(6))


def stand_in_counts(bot: Bot) -> tuple[int, int, int]:
    """(public, ephemeral, refused) new messages as the stand-in holds them."""
    api = bot.api
    refused = sum(
        c.method in group_view.SENDS and not c.ok and c.params.get("chat_id") == CHAT
        for c in api.calls
    )
    return len(api.messages(CHAT)), len(api.ephemeral_messages(CHAT)), refused


def stand_in_edits(bot: Bot) -> tuple[int, int, int]:
    """(public, ephemeral, refused) edits as the stand-in's calls show them: an accepted
    ``editEphemeralMessage…`` changes a message its one reader sees."""
    calls = [
        c for c in bot.api.calls if c.method.startswith("edit") and c.params.get("chat_id") == CHAT
    ]
    ephemeral = sum(c.ok and "Ephemeral" in c.method for c in calls)
    refused = sum(not c.ok for c in calls)
    return len(calls) - ephemeral - refused, ephemeral, refused


# what each server shows the group: on 10.3 help, the calculator and the builder's steps are
# the asker's (the evening's typed typos are still refused in public: no tap, no menu)
PUBLIC = {
    API_10_1: set(group_view.KINDS) - {"other"},
    API_10_3: {"booking", "standings", "document", "refusal", "announcement"},
}
EPHEMERAL = {
    API_10_1: set[str](),
    API_10_3: {"builder step", "refusal", "help/calculator"},
}


@pytest.mark.parametrize("version", [API_10_1, API_10_3])
async def test_the_counts_add_up_to_the_stand_ins(db: Database, version: tuple[int, int]) -> None:
    async with running_bot(db, api_version=version, rich_messages=True, group_limit=None) as bot:
        tally = await short_evening(bot)
        assert tally.unplayed == []  # every scripted tap found its button
        counted = tuple(tally.total(v) for v in group_view.VISIBILITY)
        assert counted == stand_in_counts(bot)
        edited = tuple(tally.edited(v) for v in group_view.VISIBILITY)
        assert edited == stand_in_edits(bot)
        assert set(tally.sends) <= {(k, v) for k in group_view.KINDS for v in group_view.VISIBILITY}
        public = {k for k in group_view.KINDS if tally.public(k)}
        assert public == PUBLIC[version], tally.sends
        ephemeral = {k for k in group_view.KINDS if tally.sends[k, "ephemeral"]}
        assert ephemeral == EPHEMERAL[version], tally.sends
        assert tally.flood_refusals == 0


async def test_what_moves_from_the_group_to_one_reader(db: Database, tmp_path: Path) -> None:
    async with running_bot(db, api_version=API_10_1, rich_messages=True, group_limit=None) as bot:
        before = await short_evening(bot)
        # the builder's tap was the bot's first ephemeral try, which a 10.1 server posted to
        # the group: the bot tries no more, and the later refused undo is the tap's dialog
        assert not any(REFUSED_UNDO in (m.text or "") for m in bot.api.messages(CHAT))
        assert any(
            REFUSED_UNDO in str(c.params.get("text")) and c.params.get("show_alert")
            for c in bot.api.sent("answerCallbackQuery")
        )
        assert bot.api.ephemeral_messages(CHAT) == []
        # the menu's commands came as ordinary messages, the builder was tapped open publicly
        assert bot.api.sent("editEphemeralMessageText") == []
    assert before.unseen == []  # Anna sees Dieter's public builder and taps it (refused)
    (tmp_path / "after").mkdir()
    second = fresh_database(tmp_path / "after")  # the same evening from the start
    async with running_bot(
        second, api_version=API_10_3, rich_messages=True, group_limit=None
    ) as bot:
        after = await short_evening(bot)
        assert not any(REFUSED_UNDO in (m.text or "") for m in bot.api.messages(CHAT))
        assert not any("Wer spielt?" in (m.text or "") for m in bot.api.messages(CHAT))
        (only,) = bot.api.ephemeral_messages(CHAT, group_view.BERND)
        assert REFUSED_UNDO in (only.text or "")
        # Dieter's builder and Carla's help and calculator: theirs alone
        assert len(bot.api.ephemeral_messages(CHAT, group_view.DIETER)) == 1
        assert len(bot.api.ephemeral_messages(CHAT, group_view.CARLA)) == 2
    second.dispose()
    # Anna cannot see Dieter's builder, so her refused tap on it does not happen
    assert after.unseen == ["Anna on the builder: Dieter"]
    assert before.sends["refusal", "ephemeral"] == 0
    assert after.sends["refusal", "ephemeral"] == 1
    assert after.public("refusal") == before.public("refusal")  # the typed typo's
    for kind in ("builder step", "help/calculator"):
        assert before.public(kind) > 0 and after.public(kind) == 0, kind
        assert after.edits[kind, "public"] == 0, kind
    # the builder's steps are the same edits, for its reader instead of the group
    assert after.edits["builder step", "ephemeral"] == before.edits["builder step", "public"]
    # the goal check names what is still public after, honestly: the typed typos' refusals
    assert group_view.still_public(after) == ["refusal"]


async def test_with_the_bot_an_admin_only_the_table_s_messages_stay_public(
    tmp_path: Path,
) -> None:
    """The third run of the measurement: the group made the bot an administrator, so the
    refusals of typed lines go to their typist too, and the goal is met."""
    admin = await group_view.run(API_10_3, 6, tmp_path / "admin", admin=True)
    assert group_view.still_public(admin) == []
    assert admin.sends["refusal", "ephemeral"] >= 2  # the typed typos' and the refused tap's
