"""Identities as Telegram has them: addressed commands, messages on behalf of chats
(anonymous admins, channels), the bot's own membership - through the real bot on the stand-in."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import select
from telegram import Chat, Message, MessageEntity, Update
from telegram.ext import MessageHandler, filters

from skatbot.handlers import admin
from skatbot.storage.builders import GameBuilder
from skatbot.storage.lists_models import Row, SheetList
from skatbot.storage.tournament_models import Tournament
from tests.handlers.test_builder import Phone, buttons, games, last_answer
from tests.helpers import Bot, Reply, export_raw, game_rows, replies
from tests.standin.fake_telegram import ANONYMOUS_ADMIN_ID, BOT_ID, BOT_USERNAME, CHANNEL_BOT_ID

CHAT = -1001
ADMIN, MEMBER, OTHER_ADMIN = 7, 9, 8
PLACEHOLDERS = {ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID, 777000}
CHANNEL_X = {"id": -1002001, "type": "channel", "title": "Kanal X"}
CHANNEL_Y = {"id": -1002002, "type": "channel", "title": "Kanal Y"}
AS_GROUP = {"id": CHAT, "type": "supergroup", "title": "Skatrunde"}  # an anonymous admin


async def send(
    bot: Bot,
    text: str,
    *,
    user_id: int = 1,
    name: str = "Spieler",
    sender_chat: dict[str, Any] | None = None,
    reply_to: int | None = None,
) -> list[Reply]:
    """A message in the supergroup CHAT, from a user or on behalf of a chat; the replies."""
    before = len(bot.api.calls)
    update_id = bot.api.push_message(
        text,
        chat_id=CHAT,
        chat_type="supergroup",
        user_id=user_id,
        first_name=name,
        sender_chat=sender_chat,
        reply_to=reply_to,
    )
    await bot.api.wait_confirmed(update_id, timeout=15)
    return replies(bot.api.calls[before:], CHAT, bot.refusals)


async def text(bot: Bot, message: str, **kw: Any) -> str:
    return "\n".join(r.text for r in await send(bot, message, **kw))


async def accepted(bot: Bot, message: str, **kw: Any) -> str:
    """The replies' text; none of them may be a refusal."""
    out = await send(bot, message, **kw)
    assert not any(r.refusal for r in out), out
    return "\n".join(r.text for r in out)


def calls_since(bot: Bot, before: int) -> list[str]:
    """Bot API methods called since ``before`` (long polls left out)."""
    return [c.method for c in bot.api.calls[before:] if c.method != "getUpdates"]


def member_questions(bot: Bot) -> list[int]:
    """Whom the bot asked Telegram about (not itself: whether it administers the chat, asked
    before a refusal for the typist alone, docs/ephemeral.md)."""
    asked = (int(c.params["user_id"]) for c in bot.api.calls if c.method == "getChatMember")
    return [user_id for user_id in asked if user_id != BOT_ID]


# --- 4. addressed commands ----------------------------------------------------------------


async def test_commands_for_this_bot_work_case_insensitively(bot: Bot) -> None:
    reply = await text(bot, f"/neu@{BOT_USERNAME} Anna Bernd Carla")
    assert "Neue Liste" in reply, reply
    reply = await text(bot, "/spiel@SkatBot_Test_BOT Anna grand ohne 1 hand gewonnen")
    assert "+72" in reply, reply
    assert games(bot.db) == ["Grand ohne 1 Hand gewonnen"]
    assert "Anna" in await text(bot, f"/stand@{BOT_USERNAME.upper()}")


async def test_commands_for_another_bot_are_ignored_by_every_handler(bot: Bot) -> None:
    await send(bot, "/neu Anna Bernd Carla")
    await send(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    before_rows = game_rows(bot.db)
    before = len(bot.api.calls)
    for message in (
        "/spiel@otherbot Bernd herz mit 2 gewonnen",
        "/neu@otherbot Dora Emil Fritz",
        "/hilfe@otherbot",
        "/stand@otherbot",
        "/loeschen@otherbot ja",
        "/spiel@otherbot",
        "/storno@skatbot_test_bot_2 1",  # a longer name is another bot, too
    ):
        assert await send(bot, message, user_id=ADMIN) == [], message
    # no reply, no question to Telegram (not even getChatMember), nothing booked
    assert calls_since(bot, before) == []
    assert game_rows(bot.db) == before_rows
    assert "Anna" in await text(bot, "/stand")  # the old list is still the open one


async def test_edited_command_for_another_bot_is_ignored(bot: Bot) -> None:
    await send(bot, "/neu Anna Bernd Carla")
    await send(bot, "/spiel@otherbot Anna grand ohne 1 hand gewonnen")
    message_id = max(bot.api._messages[CHAT])
    before = len(bot.api.calls)
    update_id = bot.api.push_edit(
        "/spiel@otherbot Anna grand ohne 2 hand gewonnen", chat_id=CHAT, message_id=message_id
    )
    await bot.api.wait_confirmed(update_id, timeout=15)
    assert calls_since(bot, before) == []
    assert games(bot.db) == []


async def test_no_catch_all_handler_sees_a_command_for_another_bot(bot: Bot) -> None:
    """Group -1 stops the update: a handler that takes every message (as a reply handler or
    an edited-message handler does) is never reached by ``/x@otherbot``."""
    seen: list[str] = []

    async def catch_all(update: Update, context: Any) -> None:
        msg = update.effective_message
        seen.append(msg.text or "" if msg else "")

    bot.app.add_handler(MessageHandler(filters.ALL, catch_all), group=5)
    await send(bot, "/spiel@otherbot Anna grand ohne 1 hand gewonnen")
    await send(bot, "/hilfe@OtherBot")
    await send(bot, f"/hilfe@{BOT_USERNAME}")
    await send(bot, "27")
    assert seen == [f"/hilfe@{BOT_USERNAME}", "27"]


async def test_a_bid_typed_as_reply_to_the_builder_for_another_bot_changes_nothing(
    bot: Bot,
) -> None:
    await send(bot, "/neu Anna Bernd Carla")
    await send(bot, "/spiel")
    phone = Phone(bot, bot.api.messages(CHAT)[-1].message_id, chat_id=CHAT)
    for label in ("Anna", "Grand", "ohne 1", "Reiz …", "anderer …"):
        await phone.tap(label)
    prompt = phone.msg.text
    assert "Antworte auf diese Nachricht" in (prompt or "")
    before = len(bot.api.calls)
    await send(bot, "/wert@otherbot 27", reply_to=phone.message_id)
    assert calls_since(bot, before) == []
    assert phone.msg.text == prompt
    await send(bot, "27", reply_to=phone.message_id)  # the real answer still works
    assert "Reiz 27" in (phone.msg.text or "")


def _message(text: str, *, caption: bool = False) -> Message:
    length = len(text.split()[0])
    entity = MessageEntity(MessageEntity.BOT_COMMAND, 0, length)
    msg = Message(
        1,
        None,  # type: ignore[arg-type]
        Chat(CHAT, "supergroup"),
        text=None if caption else text,
        caption=text if caption else None,
        entities=None if caption else [entity],
        caption_entities=[entity] if caption else None,
    )
    bot = type("B", (), {"username": BOT_USERNAME})()
    msg.set_bot(bot)  # type: ignore[arg-type]
    return msg


@pytest.mark.parametrize(
    ("message", "other"),
    [
        ("/spiel@otherbot Anna grand", True),
        ("/spiel@OTHERBOT", True),
        (f"/spiel@{BOT_USERNAME} Anna", False),
        ("/spiel@Skatbot_Test_Bot", False),
        ("/spiel Anna grand", False),
        ("/spiel@", True),  # an empty name is not ours either
    ],
)
def test_the_addressed_filter(message: str, other: bool) -> None:
    assert admin.FOR_ANOTHER_BOT.check_update(Update(1, message=_message(message))) is other
    caption = _message(message, caption=True)
    assert admin.FOR_ANOTHER_BOT.check_update(Update(1, message=caption)) is other


# --- 6. identities: channels, anonymous admins --------------------------------------------


async def test_a_channels_list_is_not_deleted_by_another_channel(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await send(bot, "/neu Anna Bernd Carla", sender_chat=CHANNEL_X)
    await send(bot, "/spiel Anna grand ohne 1 hand gewonnen", sender_chat=CHANNEL_X)
    before = await export_raw(bot)
    for message in ("/loeschen", "/loeschen ja"):
        refusal = await text(bot, message, sender_chat=CHANNEL_Y)
        assert refusal.startswith("⚠️ Löschen dürfen nur die Admins dieses Chats"), refusal
        assert "Bitte einen Admin" in refusal
        # a plain member neither, nor channel X itself: a channel identity owns nothing
        assert "Löschen dürfen nur" in await text(bot, message, user_id=MEMBER)
        assert "Löschen dürfen nur" in await text(bot, message, sender_chat=CHANNEL_X)
    assert "dürfen nur die Admins" in await text(bot, "/loeschen liste ja", sender_chat=CHANNEL_X)
    assert await export_raw(bot) == before
    # the placeholder user is never asked about (it would answer "member")
    assert not PLACEHOLDERS & set(member_questions(bot))
    # the admins may
    assert (await text(bot, "/loeschen ja", user_id=ADMIN)).startswith("🗑 Gelöscht")


async def test_the_list_and_its_rows_record_the_chat_not_the_placeholder(bot: Bot) -> None:
    await send(bot, "/neu Anna Bernd Carla", sender_chat=CHANNEL_X)
    await send(bot, "/spiel Anna grand ohne 1 hand gewonnen", sender_chat=CHANNEL_X)
    await send(bot, "/spiel Bernd herz mit 2 gewonnen", sender_chat=AS_GROUP)
    await send(bot, "/spiel Carla null gewonnen", user_id=5, name="Dora")

    def read(session):  # type: ignore[no-untyped-def]
        creator = session.scalar(select(SheetList.created_by))
        rows = session.execute(
            select(Row.user_id, Row.user_name).where(Row.kind == "game").order_by(Row.id)
        ).all()
        return creator, [tuple(r) for r in rows]

    creator, rows = bot.db.run_read(read)
    assert creator == CHANNEL_X["id"]
    assert rows == [(CHANNEL_X["id"], "Kanal X"), (CHAT, "Skatrunde"), (5, "Dora")]


async def test_a_channels_tournament_is_not_managed_by_another_channel(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await accepted(bot, "/turnier Preisskat", sender_chat=CHANNEL_X)
    names = "/teilnehmer Hildegard, Kunibert, Waltraud"
    # a channel identity owns nothing: not even the tournament it started
    for sender in ({"sender_chat": CHANNEL_Y}, {"user_id": MEMBER}, {"sender_chat": CHANNEL_X}):
        refusal = await text(bot, names, **sender)
        assert "verwalten die Admins des Chats" in refusal, refusal
    assert "Kunibert" not in await text(bot, "/teilnehmer")
    await accepted(bot, names, user_id=ADMIN)
    assert "Kunibert" in await text(bot, "/teilnehmer")
    created_by = bot.db.run_read(lambda s: s.scalar(select(Tournament.created_by)))
    assert created_by == CHANNEL_X["id"]
    assert not PLACEHOLDERS & set(member_questions(bot))


async def test_an_anonymous_admin_may_delete_and_manage(bot: Bot) -> None:
    await send(bot, "/turnier Preisskat", user_id=1)
    await accepted(bot, "/teilnehmer Hildegard, Kunibert, Waltraud", sender_chat=AS_GROUP)
    assert "Kunibert" in await text(bot, "/teilnehmer", sender_chat=AS_GROUP)
    await send(bot, "/neu Anna Bernd Carla", user_id=1)
    await send(bot, "/spiel Anna grand ohne 1 hand gewonnen", user_id=1)
    warning = await text(bot, "/loeschen", sender_chat=AS_GROUP)
    assert "Turnier 1 „Preisskat“ löschen?" in warning, warning  # a desk: the tournament
    gone = await text(bot, "/loeschen ja", sender_chat=AS_GROUP)
    assert gone.startswith("🗑 Gelöscht"), gone
    assert game_rows(bot.db, CHAT) == []
    # no getChatMember needed for the group itself (user 1 was asked for /turnier, which
    # also ends a tournament: the management's command)
    assert member_questions(bot) == [1]


async def test_a_list_of_an_anonymous_admin_names_the_admins(bot: Bot) -> None:
    await send(bot, "/neu Anna Bernd Carla", sender_chat=AS_GROUP)
    await send(bot, "/spiel Anna grand ohne 1 hand gewonnen", sender_chat=AS_GROUP)
    refusal = await text(bot, "/loeschen", sender_chat=CHANNEL_Y)
    assert refusal.startswith("⚠️ Löschen dürfen nur die Admins dieses Chats"), refusal
    assert "Löschen dürfen nur die Admins dieses Chats" in await text(
        bot, "/loeschen", user_id=MEMBER
    )
    refusal = await text(bot, "/loeschen liste", user_id=MEMBER)
    assert refusal.startswith("⚠️ Diese Liste löschen dürfen nur die Admins dieses Chats."), refusal


async def test_a_placeholder_without_sender_chat_owns_nothing(bot: Bot) -> None:
    for placeholder in (ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID):
        chat_id = CHAT - placeholder % 1000
        await bot.say("/neu Anna Bernd Carla", chat_id=chat_id, user_id=placeholder)
        await bot.say("/spiel Anna grand ohne 1 hand gewonnen", chat_id=chat_id, user_id=4)
        refusal = await bot.text("/loeschen ja", chat_id=chat_id, user_id=placeholder)
        assert refusal.startswith("⚠️ Löschen dürfen nur"), refusal
        owners = bot.db.run_read(
            lambda s, c=chat_id: s.scalars(
                select(SheetList.created_by).where(SheetList.chat_id == c)
            ).all()
        )
        assert owners == [None]
    assert not PLACEHOLDERS & set(member_questions(bot))


async def _builder_of(bot: Bot, **kw: Any) -> Phone:
    await send(bot, "/spiel", **kw)
    msg = bot.api.messages(CHAT)[-1]
    assert "Wer spielt?" in (msg.text or "")
    return Phone(bot, msg.message_id, chat_id=CHAT)


async def test_an_anonymous_admins_builder_is_worked_by_the_chats_admins(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN, OTHER_ADMIN])
    await send(bot, "/neu Anna Bernd Carla", user_id=1)
    phone = await _builder_of(bot, sender_chat=AS_GROUP)
    assert "Eingabe von Skatrunde" in (phone.msg.text or "")
    owner = bot.db.run_read(lambda s: s.scalar(select(GameBuilder.owner_id)))
    assert owner == CHAT
    # a plain member is refused, as with anyone else's builder
    await phone.tap("Anna", user_id=MEMBER)
    assert "gehört Skatrunde" in last_answer(bot)
    assert "Wer spielt?" in (phone.msg.text or "")
    # the admin who opened it taps as themselves (callback queries name the real user)
    await phone.tap("Anna", user_id=ADMIN)
    await phone.tap("Grand", user_id=ADMIN)
    await phone.tap("ohne 1", user_id=OTHER_ADMIN)  # any admin of the chat may
    await phone.tap("Hand", user_id=ADMIN)
    await phone.tap("gewonnen", user_id=MEMBER)
    assert "gehört Skatrunde" in last_answer(bot)
    await phone.tap("gewonnen", user_id=ADMIN)
    await phone.tap("✅ Eintragen", user_id=ADMIN)
    assert games(bot.db) == ["Grand ohne 1 Hand gewonnen"]
    assert set(member_questions(bot)) == {ADMIN, OTHER_ADMIN, MEMBER}


async def test_a_users_builder_still_refuses_everyone_else_even_admins(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await send(bot, "/neu Anna Bernd Carla")
    phone = await _builder_of(bot, user_id=1, name="Bernd")
    for uid in (ADMIN, MEMBER):
        await phone.tap("Anna", user_id=uid)
        assert "gehört Bernd" in last_answer(bot)
    assert "Wer spielt?" in (phone.msg.text or "")
    assert member_questions(bot) == []  # ordinary taps ask Telegram nothing
    await phone.tap("Anna", user_id=1)
    assert "Welches Spiel?" in (phone.msg.text or "")


async def test_a_channels_builder_is_worked_by_admins_only(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await send(bot, "/neu Anna Bernd Carla")
    phone = await _builder_of(bot, sender_chat=CHANNEL_X)
    await phone.tap("Anna", user_id=MEMBER)
    assert "gehört Kanal X" in last_answer(bot)
    await phone.tap("Anna", user_id=ADMIN)
    assert "Welches Spiel?" in (phone.msg.text or "")


async def test_the_anonymous_admins_bid_reply_reaches_their_builder(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await send(bot, "/neu Anna Bernd Carla")
    phone = await _builder_of(bot, sender_chat=AS_GROUP)
    for label in ("Anna", "Grand", "ohne 1", "Reiz …", "anderer …"):
        await phone.tap(label, user_id=ADMIN)
    await send(bot, "27", user_id=MEMBER, reply_to=phone.message_id)
    assert "Reiz 27" not in (phone.msg.text or "")
    await send(bot, "27", sender_chat=AS_GROUP, reply_to=phone.message_id)
    assert "Reiz 27" in (phone.msg.text or "")
    assert "✅ Eintragen" not in buttons(phone.msg)


async def test_removed_and_added_again_the_bot_finds_its_list(
    bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="skatbot.handlers.admin")
    await send(bot, "/neu Anna Bernd Carla")
    await send(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    before = await export_raw(bot)
    kicked = bot.api.push_my_chat_member(CHAT, "kicked", user_id=ADMIN)
    await bot.api.wait_confirmed(kicked, timeout=15)
    assert any("member -> kicked" in r.getMessage() for r in caplog.records)
    # an update that was on its way while the bot lost its place: answered into the void
    update_id = bot.api.push_message("/stand", chat_id=CHAT, chat_type="supergroup")
    bot.api.left_chats.add(CHAT)  # push_message let the user write; the bot still may not
    await bot.api.wait_confirmed(update_id, timeout=15)
    refused = [c for c in bot.api.calls if c.method == "sendMessage" and c.status == 403]
    assert refused, "the reply was tried and refused"
    back = bot.api.push_my_chat_member(CHAT, "member", user_id=ADMIN)
    await bot.api.wait_confirmed(back, timeout=15)
    assert any("-> member" in r.getMessage() for r in caplog.records)
    stand = await text(bot, "/stand")
    assert "Anna" in stand and "72" in stand, stand
    assert await export_raw(bot) == before
    assert games(bot.db) == ["Grand ohne 1 Hand gewonnen"]


def test_placeholder_ids_match_the_standin() -> None:
    from skatbot.usecases.common import reply

    assert reply.ANONYMOUS_ADMIN_ID == ANONYMOUS_ADMIN_ID
    assert reply.CHANNEL_BOT_ID == CHANNEL_BOT_ID
    assert PLACEHOLDERS == reply.PLACEHOLDER_IDS
