"""When a chat's outbox is behind, queued edits of the pinned standings are coalesced: only the
newest goes out (each carries the whole standings), the booking replies all do."""

from __future__ import annotations

from tests.helpers import Bot

CHAT = -1001


async def test_a_backlog_coalesces_the_pinned_standings_edits(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/anheften")
    [pinned] = [m for m in bot.api.messages(CHAT) if m.pinned]
    bot.api.hold_sends(0.6)  # every reply takes a while: the queue backs up
    ids = [
        bot.api.push_message(f"/spiel {name} grand ohne 1 hand gewonnen", chat_id=CHAT)
        for name in ("Anna", "Bernd", "Carla", "Anna", "Bernd")
    ]
    await bot.api.wait_confirmed(ids[-1], timeout=30)
    bot.api.hold_sends(None)
    replies = [m for m in bot.api.messages(CHAT) if "Grand ohne 1 Hand" in (m.text or "")]
    assert len(replies) == 5  # no booking reply dropped
    now = bot.api.message(CHAT, pinned.message_id)
    assert 1 <= now.edits < 5  # coalesced
    stand = await bot.text("/stand")
    assert (now.text or "").endswith(stand), (now.text, stand)  # the newest state is shown
