"""The /loeschen question's button through the real bot (the admin check asks Telegram, so the
button is PTB glue) on the strict stand-in: it deletes exactly what its question named, or
nothing and says what changed. The stand-in refuses callback data over 64 bytes, so every
question here also shows its button fits. The other confirmations (typed "ja", /abschluss,
/turnier ende, /auslosen zurück, Stornieren): tests/usecases/place/test_confirmations.py."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from skatbot.storage.lists_models import SheetList
from skatbot.storage.tournament_models import Tournament
from tests.helpers import Bot, export_raw, ok

CHAT = -1001
ADMIN, OTHER_ADMIN, CREATOR, MEMBER = 7, 8, 1, 9


def lists(bot: Bot) -> list[str]:
    def read(s: Any) -> list[str]:
        return [lst.status.value for lst in s.scalars(select(SheetList).order_by(SheetList.id))]

    return bot.db.run_read(read)  # type: ignore[no-any-return]


def tournaments(bot: Bot) -> list[str]:
    def read(s: Any) -> list[str]:
        return [t.name for t in s.scalars(select(Tournament).order_by(Tournament.id))]

    return bot.db.run_read(read)  # type: ignore[no-any-return]


async def question(bot: Bot, message: str, user_id: int, *expected: str) -> tuple[int, str]:
    """Ask; the question's message id and its button's data."""
    await ok(bot, message, *expected, user_id=user_id)
    msg = bot.api.messages(CHAT)[-1]
    data = msg.buttons[0][0]["callback_data"]
    assert data.startswith("v1:del:") and len(data.encode()) <= 64, data
    return msg.message_id, data


async def press(bot: Bot, message_id: int, data: str, user_id: int) -> str:
    """Tap the button; what the bot said after it."""
    n = len(bot.api.calls)
    uid = bot.api.push_callback(data, message_id=message_id, chat_id=CHAT, user_id=user_id)
    await bot.api.wait_confirmed(uid, timeout=15)
    await bot.delivered(CHAT)
    return "\n".join(
        str(c.params.get("text", "")) for c in bot.api.calls[n:] if c.method == "sendMessage"
    )


async def a_list(bot: Bot, names: str = "Anna Bernd Carla") -> None:
    await ok(bot, f"/neu {names}", user_id=CREATOR)
    await ok(bot, f"/spiel {names.split()[0]} grand ohne 1 hand gewonnen", user_id=CREATOR)


async def test_the_list_button_after_another_list_was_started(bot: Bot) -> None:
    """The reproduced attack on the button: the question names list 1; it is closed and a
    new list started; the button must not delete the new one."""
    bot.api.set_admins(CHAT, [ADMIN])
    await a_list(bot)
    message_id, data = await question(bot, "/loeschen liste", ADMIN, "Liste Nr. 1 (Anna")
    await ok(bot, "/abschluss ja", user_id=MEMBER)
    await ok(bot, "/neu Xaver Yvonne Zora", user_id=MEMBER)
    before = await export_raw(bot)
    said = await press(bot, message_id, data, ADMIN)
    assert "nichts gelöscht" in said and "Jetzt wäre es: Liste Nr. 2 (Xaver" in said, said
    assert "Neu fragen: /loeschen liste" in said, said
    assert await export_raw(bot) == before
    assert lists(bot) == ["closed", "open"]
    # asked again, the new question's button deletes list 2 and only that
    message_id, data = await question(bot, "/loeschen liste", ADMIN, "Liste Nr. 2 (Xaver")
    assert "Gelöscht: Liste Nr. 2" in await press(bot, message_id, data, ADMIN)
    assert lists(bot) == ["closed"]


async def test_two_admins_two_buttons_at_a_desk(bot: Bot) -> None:
    """Admin A's question names tournament 1, admin B's everything: each button does what
    its own question named - A's deletes tournament 1 alone, B's then finds the desk
    changed and deletes nothing."""
    bot.api.set_admins(CHAT, [ADMIN, OTHER_ADMIN])
    for name in ("Herbstskat", "Winterskat"):
        await ok(bot, f"/turnier {name}", user_id=CREATOR)
        if name == "Herbstskat":
            await ok(bot, "/turnier ende", user_id=CREATOR)
            await ok(bot, "/turnier ende ja", user_id=CREATOR)
    first = await question(bot, "/loeschen turnier 1", ADMIN, "Turnier 1 „Herbstskat“ löschen?")
    everything = await question(bot, "/loeschen alles", OTHER_ADMIN, "Alle Daten")
    said = await press(bot, *first, ADMIN)
    assert "Gelöscht: Turnier 1 „Herbstskat“" in said and "Es bleiben: Turnier 2" in said, said
    assert tournaments(bot) == ["Winterskat"]
    said = await press(bot, *everything, OTHER_ADMIN)
    assert "nichts gelöscht" in said and "Herbstskat, Winterskat" in said, said
    assert "Neu fragen: /loeschen alles" in said, said
    assert tournaments(bot) == ["Winterskat"]


async def test_the_whole_chat_button_after_a_game_was_booked(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await a_list(bot)
    message_id, data = await question(bot, "/loeschen", ADMIN, "1 Liste mit 1 Spiel")
    await ok(bot, "/spiel Bernd herz mit 2 gewonnen", user_id=MEMBER)
    said = await press(bot, message_id, data, ADMIN)
    assert "Jetzt: alle Daten dieses Chats (1 Liste mit 2 Spielen)" in said, said
    assert lists(bot) == ["open"]
    # a member's tap on a valid question: refused by right, nothing deleted
    message_id, data = await question(bot, "/loeschen", ADMIN, "1 Liste mit 2 Spielen")
    assert "Löschen dürfen nur" in await press(bot, message_id, data, MEMBER)
    assert lists(bot) == ["open"]
    assert "Gelöscht: 1 Liste mit 2 Spielen" in await press(bot, message_id, data, ADMIN)
    assert lists(bot) == []


# --- the buttons of /abschluss and Stornieren (runtime.execute_callback) ------------------------


async def tap(bot: Bot, message_id: int, data: str, user_id: int) -> str:
    """Tap a button; the callback's answer (the notice or alert)."""
    n = len(bot.api.calls)
    uid = bot.api.push_callback(data, message_id=message_id, chat_id=CHAT, user_id=user_id)
    await bot.api.wait_confirmed(uid, timeout=15)
    await bot.delivered(CHAT)
    return " ".join(
        str(c.params.get("text", ""))
        for c in bot.api.calls[n:]
        if c.method == "answerCallbackQuery"
    )


async def test_the_close_button_after_a_game_was_booked(bot: Bot) -> None:
    await a_list(bot)
    await ok(bot, "/abschluss", "Gespielt: 1 von 36", user_id=CREATOR)
    msg = bot.api.messages(CHAT)[-1]
    yes = msg.buttons[0][0]["callback_data"]
    await ok(bot, "/spiel Bernd herz mit 2 gewonnen", user_id=MEMBER)
    notice = await tap(bot, msg.message_id, yes, MEMBER)
    assert "nichts abgeschlossen" in notice and "2 von 36" in notice, notice
    assert lists(bot) == ["open"]
    assert bot.api.message(CHAT, msg.message_id).buttons == []


async def test_the_storno_button_never_cancels_a_game_of_a_later_list(bot: Bot) -> None:
    await a_list(bot)
    booking = bot.api.messages(CHAT)[-1]
    ask = next(
        b["callback_data"] for row in booking.buttons for b in row if b["text"] == "Stornieren"
    )
    await tap(bot, booking.message_id, ask, MEMBER)
    asked = bot.api.message(CHAT, booking.message_id)
    yes = asked.buttons[0][0]["callback_data"]
    assert yes.startswith("v1:sj:") and len(yes.encode()) <= 64, yes
    await ok(bot, "/loeschen liste ja", "Gelöscht", user_id=CREATOR)
    await ok(bot, "/neu Dora Emil Fritz", user_id=CREATOR)
    for _ in range(4):  # enough games for a reused row id (SQLite without AUTOINCREMENT)
        await ok(bot, "/spiel Dora grand ohne 1 hand gewonnen", user_id=CREATOR)
    before = await export_raw(bot)
    notice = await tap(bot, booking.message_id, yes, MEMBER)
    assert "Storniert" not in notice, notice
    assert await export_raw(bot) == before
