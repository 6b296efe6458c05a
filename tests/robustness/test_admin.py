"""/loeschen (permissions, confirmation, forged buttons), group → supergroup, chat isolation."""

from __future__ import annotations

import time

from sqlalchemy import func, select

from skatbot.storage.database import ensure_chat
from skatbot.storage.lists_models import Chat, ProcessedUpdate, SheetList
from skatbot.storage.tournament import create_tournament
from skatbot.storage.tournament_models import Tournament
from tests.helpers import Bot, export_raw, game_rows, ok

CHAT = -1001
ADMIN, CREATOR, MEMBER = 7, 1, 9


async def _table(bot: Bot, chat_id: int = CHAT) -> None:
    await ok(bot, "/neu Anna Bernd Carla", chat_id=chat_id, user_id=CREATOR)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", chat_id=chat_id)
    await ok(bot, "/spiel Bernd herz mit 2 verloren", chat_id=chat_id)


def _lists(bot: Bot, chat_id: int) -> int:
    return bot.db.run_read(
        lambda s: s.scalar(select(func.count()).where(SheetList.chat_id == chat_id))
    )


async def test_loeschen_refused_for_plain_members(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await _table(bot)
    before = await export_raw(bot)
    for text in ("/loeschen", "/loeschen ja"):
        reply = await bot.text(text, user_id=MEMBER)
        assert reply.startswith("⚠️ Löschen dürfen nur die Admins"), reply
    assert await export_raw(bot) == before
    # the admin check asked the Bot API
    assert bot.api.sent("getChatMember")


async def test_loeschen_asks_first_then_deletes_for_an_admin(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await _table(bot)
    before = await export_raw(bot)
    warning = await bot.say("/loeschen", user_id=ADMIN)
    assert "Alle Daten dieses Chats löschen?" in warning[0].text
    assert "1 Liste mit 2 Spielen" in warning[0].text
    assert "/loeschen ja" in warning[0].text
    assert await export_raw(bot) == before  # asking deletes nothing
    gone = await bot.text("/loeschen ja", user_id=ADMIN)
    assert gone.startswith("🗑 Gelöscht"), gone
    assert _lists(bot, CHAT) == 0
    assert "keine Liste" in (await bot.text("/stand"))
    assert "nichts gespeichert" in (await bot.text("/loeschen", user_id=ADMIN))
    # processed update ids stay (exactly-once), their stored replies are blanked
    replies = bot.db.run_read(
        lambda s: list(
            s.scalars(select(ProcessedUpdate.reply).where(ProcessedUpdate.chat_id == CHAT))
        )
    )
    assert len(replies) == 6  # /neu, 2 games, /loeschen, /loeschen ja, /loeschen
    assert replies[:4] == [None] * 4
    await ok(bot, "/neu Dora Emil Fritz", chat_id=CHAT)  # a fresh start works


async def test_the_list_creator_may_delete_that_list_alone(bot: Bot) -> None:
    await _table(bot)
    before = await export_raw(bot)
    refusal = await bot.text("/loeschen ja", user_id=CREATOR)
    assert "Löschen dürfen nur die Admins" in refusal and "/loeschen liste" in refusal
    assert await export_raw(bot) == before
    warning = await bot.text("/loeschen liste", user_id=CREATOR)
    assert "Liste Nr. 1 (Anna, Bernd, Carla; laufend) mit 2 Spielen" in warning, warning
    gone = await bot.text("/loeschen liste ja", user_id=CREATOR)
    assert gone.startswith("🗑 Gelöscht: Liste Nr. 1 (Anna, Bernd, Carla; laufend)"), gone
    assert "keine Liste mehr" in gone
    assert _lists(bot, CHAT) == 0


async def test_delete_button_and_forged_nonces(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await _table(bot)
    await bot.say("/loeschen", user_id=ADMIN)
    warning = bot.api.messages(CHAT)[-1]
    data = warning.buttons[0][0]["callback_data"]
    assert data.startswith("v1:del:")
    before = await export_raw(bot)

    async def press(payload: str, user_id: int) -> str:
        n = len(bot.api.calls)
        uid = bot.api.push_callback(
            payload, message_id=warning.message_id, chat_id=CHAT, user_id=user_id
        )
        await bot.api.wait_confirmed(uid, timeout=15)
        return "\n".join(
            str(c.params.get("text", "")) for c in bot.api.calls[n:] if c.method == "sendMessage"
        )

    forged = "v1:del:" + ("0" * 16 if data[-16:] != "0" * 16 else "1" * 16)
    assert "gilt nicht mehr" in await press(forged, ADMIN)
    assert "Löschen dürfen nur" in await press(data, MEMBER)
    assert await press("v1:del:../../etc", ADMIN) == ""  # garbage: answered, ignored
    assert await export_raw(bot) == before
    assert "Gelöscht" in await press(data, ADMIN)
    assert _lists(bot, CHAT) == 0
    # every press was answered (no spinning button)
    assert len(bot.api.sent("answerCallbackQuery")) == 4


async def test_other_chats_survive_a_delete(bot: Bot) -> None:
    await _table(bot, CHAT)
    await _table(bot, -2002)
    other = await export_raw(bot, -2002)
    bot.api.set_admins(CHAT, [ADMIN])
    assert (await bot.text("/loeschen ja", user_id=ADMIN)).startswith("🗑")
    assert await export_raw(bot, -2002) == other


def _migration(bot: Bot, *, in_old: bool, old: int, new: int) -> int:
    if in_old:
        chat = {"id": old, "type": "group", "title": "Skatrunde"}
        message = {
            "message_id": 900,
            "chat": chat,
            "date": int(time.time()),
            "migrate_to_chat_id": new,
        }
    else:
        chat = {"id": new, "type": "supergroup", "title": "Skatrunde"}
        message = {
            "message_id": 1,
            "chat": chat,
            "date": int(time.time()),
            "migrate_from_chat_id": old,
        }
    message["from"] = {"id": 1, "is_bot": False, "first_name": "Spieler"}
    return bot.api.push_update({"message": message})


async def test_group_becomes_supergroup_both_messages_any_order(bot: Bot) -> None:
    old, new = -4711, -1004711
    await _table(bot, old)
    # a tournament desk in the same chat (stored directly: the tournament commands are not
    # under test here)
    bot.db.run_write(
        lambda s: (
            ensure_chat(s, old),
            create_tournament(s, old, "Vereinsmeisterschaft", seed="x", user_id=1, user_name="A"),
        )
    )
    before = await export_raw(bot, old)
    rows_before = game_rows(bot.db, old)
    # the message in the new chat first, then the one in the old chat, then a redelivery
    for in_old in (False, True, False):
        uid = _migration(bot, in_old=in_old, old=old, new=new)
        await bot.api.wait_confirmed(uid, timeout=15)
    bot.api.add_chat(new, chat_type="supergroup")
    assert await export_raw(bot, new) == before
    assert game_rows(bot.db, new) == rows_before
    assert game_rows(bot.db, old) == []
    # the place is the tournament's desk at its new id (a desk comes first: the list stored
    # beside it above is readable, no longer played)
    await ok(bot, "/turniere", "Vereinsmeisterschaft", chat_id=new)
    assert len(game_rows(bot.db, new)) == 2

    def state(s):  # type: ignore[no-untyped-def]
        return (
            s.get(Chat, old),
            s.scalar(select(Tournament.chat_id)),
            s.scalar(select(func.count()).where(ProcessedUpdate.chat_id == old)),
        )

    old_chat, tournament_chat, old_processed = bot.db.run_read(state)
    assert old_chat is None
    assert tournament_chat == new
    assert old_processed == 0


async def test_chats_are_isolated(bot: Bot) -> None:
    a, b = -1001, -2002
    await ok(bot, "/neu Ottilie Kunigunde Hildegard", chat_id=a)
    await ok(bot, "/spiel Ottilie grand ohne 1 hand gewonnen", chat_id=a)
    snapshot = await export_raw(bot, a)
    secret = ("Ottilie", "Kunigunde", "Hildegard")
    # chat B has no list: nothing of A shows up, nothing of A can be changed from B
    for text in (
        "/stand",
        "/liste alle",
        "/export",
        "/pdf",
        "/spiel Ottilie grand gewonnen",
        "/storno 1",
        "/korrigieren 1 Ottilie null verloren",
        "/umbenennen Ottilie Zora",
        "/geber Kunigunde",
        "/abschluss",
        "/weiter",
    ):
        reply = await bot.text(text, chat_id=b)
        assert not any(name in reply for name in secret), (text, reply)
    await ok(bot, "/neu Xaver Yvonne Zeno", chat_id=b)
    await ok(bot, "/spiel Xaver grand mit 1 gewonnen", chat_id=b)
    assert "Ottilie" not in await bot.text("/liste alle", chat_id=b)
    assert "Xaver" not in await bot.text("/liste alle", chat_id=a)
    assert await export_raw(bot, a) == snapshot
