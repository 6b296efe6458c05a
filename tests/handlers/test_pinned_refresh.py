"""Every change of a list reaches the pinned standings (/anheften): one booking path.

The pinned message must always read like ``/stand`` (its header aside), whatever changed the
list: a game, a correction, a cancellation, a Ramsch, a rename, start points, the dealer, the
series length or the house state.
"""

from __future__ import annotations

from tests.helpers import Bot

CHAT = -1001


async def pin(bot: Bot) -> int:
    await bot.say("/anheften")
    pinned = bot.api.messages(CHAT)[-1]
    assert pinned.pinned and "Stand" in (pinned.text or "")
    return pinned.message_id


async def pinned_reads_like_stand(bot: Bot, message_id: int) -> str:
    """The pinned text, checked to show what /stand shows now."""
    text = bot.api.message(CHAT, message_id).text or ""
    stand = await bot.text("/stand")
    assert text.endswith(stand), (text, stand)
    return text


async def ok(bot: Bot, message: str) -> str:
    """The reply sent to ``message`` (edits of the pinned message left out); not a refusal."""
    sent = [r for r in await bot.say(message) if r.method == "sendMessage"]
    reply = "\n".join(r.text for r in sent)
    assert not any(r.refusal for r in sent), (message, reply)
    return reply


async def test_umbenennen_refreshes_the_pinned_standings(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    mid = await pin(bot)
    reply = await ok(bot, "/umbenennen Carla Carlotta")
    assert reply == "✏️ Carla heißt jetzt Carlotta. Die Zahlen bleiben, wie sie sind."
    assert "Carlotta" in await pinned_reads_like_stand(bot, mid)


async def test_startpunkte_refreshes_the_pinned_standings(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    mid = await pin(bot)
    await ok(bot, "/startpunkte Anna 100 Bernd -20")
    text = await pinned_reads_like_stand(bot, mid)
    assert "100" in text and "−20" in text


async def test_ramsch_refreshes_the_pinned_standings(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/bock")
    for _ in range(3):
        await ok(bot, "/eingepasst")
    mid = await pin(bot)
    before = bot.api.message(CHAT, mid).text or ""
    await ok(bot, "/ramsch Anna 70 geschoben 1")
    text = await pinned_reads_like_stand(bot, mid)
    assert text != before and "−140" in text


async def test_dealer_series_and_house_state_refresh_the_pinned_standings(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    mid = await pin(bot)
    await ok(bot, "/geber Carla")
    assert "Geber Carla" in await pinned_reads_like_stand(bot, mid)
    await ok(bot, "/serie 48")
    assert "Spiel 1/48" in await pinned_reads_like_stand(bot, mid)
    await ok(bot, "/bock")
    assert "Bock 1/3" in await pinned_reads_like_stand(bot, mid)
    for _ in range(3):
        await ok(bot, "/eingepasst")
    await ok(bot, "/krank Bernd")
    assert "krank" in await pinned_reads_like_stand(bot, mid)
    await ok(bot, "/gesund")
    assert "Alle gesund?" in await pinned_reads_like_stand(bot, mid)


async def test_bookings_corrections_and_cancellations_still_refresh(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    mid = await pin(bot)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    assert "Anna 122" in await pinned_reads_like_stand(bot, mid)
    await ok(bot, "/korrigieren 1 Anna grand ohne 1 hand verloren")
    await pinned_reads_like_stand(bot, mid)
    await ok(bot, "/eingepasst")
    await ok(bot, "/storno 2")
    await pinned_reads_like_stand(bot, mid)
