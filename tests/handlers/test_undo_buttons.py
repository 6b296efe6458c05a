"""The way back through PTB and the strict stand-in: "↩️ Rückgängig" under a strike and a
correction (its data names the change's log row, ≤ 64 bytes), a stale one, someone else's
change (refused for a member, allowed for an admin: the tap asks Telegram), and a strike of
an earlier game that asks first ("Nein" changes nothing)."""

from __future__ import annotations

from skatbot.standin.botapi import BotMessage
from tests.helpers import Bot, export_raw, ok, replies

CHAT = -1001
ANNA, BERND, ADMIN = 1, 2, 7


async def a_list(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla", user_id=ANNA)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", user_id=ANNA)
    await ok(bot, "/spiel Bernd kreuz mit 2 gewonnen", user_id=ANNA)
    await ok(bot, "/spiel Carla null verloren", user_id=ANNA)


def latest(bot: Bot) -> BotMessage:
    return bot.api.messages(CHAT)[-1]


def data_of(msg: BotMessage, label: str) -> str:
    for row in msg.buttons:
        for button in row:
            if label in str(button["text"]):
                data = str(button["callback_data"])
                assert len(data.encode()) <= 64, data
                return data
    raise LookupError(f"no button {label!r}: {msg.buttons}")


async def tap(bot: Bot, msg: BotMessage, label: str, user_id: int) -> tuple[str, str]:
    """Press the button labelled ``label``: (the callback's notice, the new messages' text)."""
    before = len(bot.api.calls)
    uid = bot.api.push_callback(
        data_of(msg, label), message_id=msg.message_id, chat_id=CHAT, user_id=user_id
    )
    await bot.api.wait_confirmed(uid, timeout=15)
    calls = bot.api.calls[before:]
    notice = " ".join(
        str(c.params.get("text", "")) for c in calls if c.method == "answerCallbackQuery"
    )
    sent = "\n".join(r.text for r in replies(calls, CHAT) if r.method == "sendMessage")
    return notice, sent


async def test_the_button_under_a_strike_brings_the_game_back(bot: Bot) -> None:
    await a_list(bot)
    before = await export_raw(bot)
    await ok(bot, "/storno 3", "Spiel 3 storniert", "Zurücknehmen: /rueckgaengig", user_id=ANNA)
    struck = latest(bot)
    assert data_of(struck, "Rückgängig").startswith("v1:u:")
    notice, sent = await tap(bot, struck, "↩️ Rückgängig", ANNA)
    assert notice == "Zurückgenommen.", notice
    assert "Zurückgenommen: das Streichen" in sent and "Spiel 3 zählt wieder" in sent, sent
    assert await export_raw(bot) == before  # the list as before the strike


async def test_the_button_under_a_correction(bot: Bot) -> None:
    await a_list(bot)
    await ok(bot, "/korrigieren 1 Anna grand ohne 2 hand gewonnen", "korrigiert", user_id=ANNA)
    notice, sent = await tap(bot, latest(bot), "↩️ Rückgängig", ANNA)
    assert "Zurückgenommen: die Korrektur von Spiel 1" in sent, (notice, sent)


async def test_a_stale_button_takes_back_nothing(bot: Bot) -> None:
    await a_list(bot)
    await ok(bot, "/storno 3", user_id=ANNA)
    struck = latest(bot)
    await ok(bot, "/spiel Anna pik mit 1 gewonnen", user_id=ANNA)
    before = await export_raw(bot)
    notice, sent = await tap(bot, struck, "↩️ Rückgängig", ANNA)
    assert "Dieser Knopf gilt nicht mehr" in notice and "Nichts zurückgenommen" in notice, notice
    assert "Spiel 3 (Anna: Pik" in notice and "/rueckgaengig" in notice, notice
    assert sent == ""
    assert await export_raw(bot) == before


async def test_a_button_of_a_change_taken_back_already(bot: Bot) -> None:
    await a_list(bot)
    await ok(bot, "/storno 3", user_id=ANNA)
    struck = latest(bot)
    await ok(bot, "/rueckgaengig", "Zurückgenommen: das Streichen", user_id=ANNA)
    before = await export_raw(bot)
    notice, sent = await tap(bot, struck, "↩️ Rückgängig", ANNA)
    assert "schon zurückgenommen" in notice, notice
    assert sent == ""
    assert await export_raw(bot) == before


async def test_someone_elses_change_is_for_its_maker_and_the_admins(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await a_list(bot)
    await ok(bot, "/storno 3", user_id=ANNA, name="Anna")
    struck = latest(bot)
    before = await export_raw(bot)
    notice, sent = await tap(bot, struck, "↩️ Rückgängig", BERND)
    assert "ist von Anna" in notice and "Admins" in notice, notice
    assert sent == ""
    assert await export_raw(bot) == before
    text = "\n".join(r.text for r in await bot.say("/rueckgaengig", user_id=BERND))
    assert "ist von Anna" in text, text
    assert await export_raw(bot) == before
    notice, sent = await tap(bot, struck, "↩️ Rückgängig", ADMIN)
    assert notice == "Zurückgenommen.", notice
    assert "Spiel 3 zählt wieder" in sent, sent


async def test_a_strike_of_an_earlier_game_asks_and_nein_changes_nothing(bot: Bot) -> None:
    await a_list(bot)
    before = await export_raw(bot)
    await ok(bot, "/storno 1", "Spiel 1 streichen?", "Spiel 1 · Anna: Grand ohne 1", user_id=ANNA)
    question = latest(bot)
    assert await export_raw(bot) == before
    notice, sent = await tap(bot, question, "Nein", BERND)
    assert notice == "Nichts gestrichen.", notice
    assert sent == ""
    assert await export_raw(bot) == before
    assert latest(bot).buttons == []  # the question's buttons are gone
    await ok(bot, "/storno 1", "Spiel 1 streichen?", user_id=ANNA)
    notice, sent = await tap(bot, latest(bot), "Ja, Spiel 1 streichen", BERND)
    assert "Spiel 1 storniert" in sent and "Anna: Grand ohne 1" in sent, sent
