"""The game builder for the person entering alone (ephemeral messages, Bot API 10.2/10.3)
through PTB and the strict stand-in: opened by a tap it is an ephemeral message that each tap
edits for its reader, and only the booking reaches the group; on a server before 10.3 it is
the public builder as before; its state, its message and the outbox's steps survive a
restart."""

from __future__ import annotations

import time

import pytest

from skatbot.handlers import durable
from skatbot.handlers.outbox import ephemeral
from skatbot.handlers.outbox.target import Target
from skatbot.handlers.runtime import once, replies_of, stage
from skatbot.standin.botapi import BotMessage
from skatbot.standin.versions import API_10_1, API_10_2
from skatbot.storage import outbox
from skatbot.storage.builders import GameBuilder
from skatbot.storage.database import Database
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Asker, Command, Edit, Reply
from skatbot.usecases.sheet.builder.flow import BOOKED, open_builder_tapped
from tests.handlers.test_builder import Phone, buttons, labels
from tests.harness import Harness
from tests.helpers import Bot, deliver_after_restart, running_bot
from tests.usecases.sheet.test_builder import games

CHAT = -1001
ANNA, BERND = 1, 2


class Private:
    """A player's thumb on an ephemeral message only they see."""

    def __init__(self, bot: Bot, ephemeral_id: int, *, user_id: int = ANNA) -> None:
        self.bot = bot
        self.ephemeral_id = ephemeral_id
        self.user_id = user_id

    @property
    def msg(self) -> BotMessage:
        found = self.bot.api.ephemeral.message(CHAT, self.user_id, self.ephemeral_id)
        assert found is not None, "the ephemeral message is gone"
        return found

    async def tap(self, label: str) -> None:
        data = buttons(self.msg)[label]
        update_id = self.bot.api.push_callback(
            data,
            message_id=0,
            chat_id=CHAT,
            user_id=self.user_id,
            ephemeral_message_id=self.ephemeral_id,
        )
        await self.bot.api.wait_confirmed(update_id, timeout=15)


def group(bot: Bot) -> list[tuple[int, str]]:
    """What the group sees: its bot messages (id, text) as they are now."""
    return [(m.message_id, m.text or "") for m in bot.api.messages(CHAT)]


def builder_rows(db: Database) -> list[GameBuilder]:
    def read(session: Session) -> list[GameBuilder]:
        rows = session.query(GameBuilder).order_by(GameBuilder.id).all()
        session.expunge_all()
        return rows

    return db.run_read(read)


async def a_booking(bot: Bot) -> Phone:
    """A list with one game; the booking's buttons (Neues Spiel, Korrigieren, …)."""
    await bot.say("/neu Anna Bernd Carla", user_id=ANNA)
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen", user_id=ANNA)
    booking = bot.api.messages(CHAT)[-1]
    assert "Neues Spiel" in labels(booking)
    return Phone(bot, booking.message_id, user_id=ANNA)


async def test_a_whole_game_built_for_the_one_entering_the_group_sees_the_booking(
    bot: Bot,
) -> None:
    booking = await a_booking(bot)
    seen = group(bot)
    await booking.tap("Neues Spiel")
    (opened,) = bot.api.ephemeral_messages(CHAT, ANNA)
    assert "Wer spielt?" in (opened.text or "")
    assert bot.api.ephemeral_messages(CHAT, BERND) == []
    (row,) = builder_rows(bot.db)
    assert row.ephemeral_id == opened.ephemeral_id and row.message_id is None
    phone = Private(bot, opened.ephemeral_id or 0)
    with pytest.raises(LookupError):  # only its reader sees it, so nobody else can tap it
        bot.api.push_callback(
            buttons(opened)["Bernd"],
            message_id=0,
            user_id=BERND,
            ephemeral_message_id=opened.ephemeral_id,
        )
    for label in ("Bernd", "♥ Herz", "mit 2", "Hand", "Reiz …", "anderer …"):
        await phone.tap(label)
    # nobody can reply to an ephemeral message: the rarer bids are buttons
    assert "Antworte" not in (phone.msg.text or "") and "99" in labels(phone.msg)
    for label in ("99", "verloren", "✅ Eintragen"):
        await phone.tap(label)
    assert games(bot.db) == ["Grand ohne 1 Hand gewonnen", "Herz mit 2 Hand Reiz 99 verloren"]
    # every step was an edit for Anna alone; the group got the booking and nothing else
    assert len(bot.api.sent("editEphemeralMessageText")) >= 9
    assert bot.api.sent("editMessageText") == []
    assert phone.msg.text == BOOKED and phone.msg.buttons == []
    *before, (_, booked) = group(bot)
    assert before == seen
    assert "Bernd: Herz mit 2 Hand – verloren (überreizt)" in booked, booked
    assert "Neues Spiel" in labels(bot.api.messages(CHAT)[-1])


async def test_cancel_replace_and_correct_stay_with_the_one_entering(bot: Bot) -> None:
    booking = await a_booking(bot)
    seen = group(bot)
    await booking.tap("Neues Spiel")
    first = Private(bot, bot.api.ephemeral_messages(CHAT, ANNA)[-1].ephemeral_id or 0)
    await first.tap("Abbrechen")
    assert "abgebrochen" in (first.msg.text or "")
    await first.tap("Neues Spiel")  # under the cancelled one: a new one, for Anna alone
    second = Private(bot, bot.api.ephemeral_messages(CHAT, ANNA)[-1].ephemeral_id or 0)
    await second.tap("Carla")
    await booking.tap("Korrigieren")  # a third: the open second is replaced, for Anna alone
    assert "Abgelöst" in (second.msg.text or "")
    fix = Private(bot, bot.api.ephemeral_messages(CHAT, ANNA)[-1].ephemeral_id or 0)
    assert "Spiel 1 korrigieren" in (fix.msg.text or "")
    assert group(bot) == seen  # nothing of it in the group
    await fix.tap("verloren")
    await fix.tap("✅ Eintragen")
    assert games(bot.db)[-1] == "Grand ohne 1 Hand verloren"
    assert "Spiel 1 korrigiert" in group(bot)[-1][1]
    assert labels(bot.api.message(CHAT, booking.message_id)) == []  # the old booking's buttons
    # Bernd's tap on the group's booking opens his own, which Anna never sees
    await Phone(bot, bot.api.messages(CHAT)[-1].message_id, user_id=BERND).tap("Neues Spiel")
    assert len(bot.api.ephemeral_messages(CHAT, BERND)) == 1
    assert len(bot.api.ephemeral_messages(CHAT, ANNA)) == 3


@pytest.mark.parametrize("version", [API_10_1, API_10_2])
async def test_before_10_3_the_builder_is_public_as_before(
    db: Database, version: tuple[int, int]
) -> None:
    async with running_bot(db, api_version=version) as bot:
        booking = await a_booking(bot)
        await booking.tap("Neues Spiel")
        assert bot.api.ephemeral_messages(CHAT) == []
        opened = bot.api.messages(CHAT)[-1]
        assert "Wer spielt?" in (opened.text or "")
        (row,) = builder_rows(bot.db)
        assert row.message_id == opened.message_id and row.ephemeral_id is None
        phone = Phone(bot, opened.message_id, user_id=ANNA)
        for label in ("Bernd", "♥ Herz", "mit 2", "Hand", "Reiz …", "anderer …"):
            await phone.tap(label)
        # the public builder takes a typed bid, as always
        assert "Antworte auf diese Nachricht" in (phone.msg.text or "")
        update_id = bot.api.push_message(
            "99", chat_id=CHAT, user_id=ANNA, reply_to=opened.message_id
        )
        await bot.api.wait_confirmed(update_id)
        for label in ("verloren", "✅ Eintragen"):
            await phone.tap(label)
        assert games(bot.db)[-1] == "Herz mit 2 Hand Reiz 99 verloren"
        assert "Bernd: Herz mit 2 Hand – verloren" in (phone.msg.text or "")  # edited in place
        assert bot.api.sent("editEphemeralMessageText") == []


async def test_where_the_server_refuses_it_the_builder_is_public(bot: Bot) -> None:
    booking = await a_booking(bot)
    bot.api.fail_next("sendMessage", status=400, description="Bad Request: USER_NOT_PARTICIPANT")
    await booking.tap("Neues Spiel")
    assert bot.api.ephemeral_messages(CHAT) == []
    opened = bot.api.messages(CHAT)[-1]
    (row,) = builder_rows(bot.db)
    assert row.message_id == opened.message_id and row.ephemeral_id is None
    phone = Phone(bot, opened.message_id, user_id=ANNA)
    for label in ("Bernd", "Null", "gewonnen", "✅ Eintragen"):
        await phone.tap(label)
    assert "Bernd: Null – gewonnen" in (phone.msg.text or "")  # booked in place, as before


async def test_in_a_private_chat_the_builder_is_the_chats(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla", chat_id=ANNA, user_id=ANNA)
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen", chat_id=ANNA, user_id=ANNA)
    booking = Phone(bot, bot.api.messages(ANNA)[-1].message_id, user_id=ANNA, chat_id=ANNA)
    await booking.tap("Neues Spiel")
    assert bot.api.ephemeral_messages(ANNA) == []
    assert "Wer spielt?" in (bot.api.messages(ANNA)[-1].text or "")


async def test_a_restart_mid_builder_keeps_the_ephemeral_builder(bot: Bot) -> None:
    booking = await a_booking(bot)
    await booking.tap("Neues Spiel")
    phone = Private(bot, bot.api.ephemeral_messages(CHAT, ANNA)[-1].ephemeral_id or 0)
    for label in ("Bernd", "Grand"):
        await phone.tap(label)
    await bot.shutdown()
    restarted = Bot(bot.api, bot.db)
    await restarted.start()
    try:
        phone.bot = restarted
        for label in ("ohne 2", "gewonnen", "✅ Eintragen"):
            await phone.tap(label)
        await restarted.delivered(CHAT)
    finally:
        await restarted.shutdown()
    assert games(bot.db)[-1] == "Grand ohne 2 gewonnen"
    assert phone.msg.text == BOOKED
    assert "Bernd: Grand ohne 2 – gewonnen" in group(bot)[-1][1]


async def test_a_stored_ephemeral_builder_goes_out_once_and_remembers_its_message(
    bot: Bot,
) -> None:
    """The tap that opened it was committed, its reply still in the outbox when the bot
    stopped: after a restart (twice) the builder is out once, as an ephemeral message, and
    its ephemeral id is recorded with the send."""
    booking = await a_booking(bot)
    await bot.shutdown()
    uid = bot.api.push_callback("v1:n", message_id=booking.message_id, chat_id=CHAT, user_id=ANNA)
    update = next(u for u in bot.api.pending_updates if u["update_id"] == uid)
    asker = Asker(ANNA, str(update["callback_query"]["id"]), time.time())
    cmd = Command(CHAT, "Skatrunde", ANNA, "Anna", uid, ("v1:n",), "v1:n", booking.message_id)

    def unit(session: Session) -> list[durable.Stored]:
        # as the runtime commits a tap: its effect and its update id in one transaction
        answer = once(session, cmd, lambda: open_builder_tapped(session, cmd))
        assert answer is not None
        replies = replies_of(cmd, answer, asker)
        return [row for reply in replies for row in stage(session, Target(CHAT), uid, reply)]

    bot.db.run_write(unit)
    seen = group(bot)
    for _ in range(2):
        await deliver_after_restart(bot, CHAT)
        (opened,) = bot.api.ephemeral_messages(CHAT, ANNA)
        assert bot.db.run_read(outbox.pending) == []
    assert group(bot) == seen
    (row,) = builder_rows(bot.db)
    assert row.ephemeral_id == opened.ephemeral_id


async def test_a_chat_owned_builder_opened_by_a_tap_would_stay_public(chat: Harness) -> None:
    """Only a real user taps (a callback has no sender chat), but were the group itself the
    opener, all its admins must see its builder: never for one reader."""
    await chat.say("/neu Anna Bernd Carla")

    def opened(session: Session, user_id: int) -> bool:
        cmd = Command(CHAT, "Skatrunde", user_id, "Anna", 0, ("v1:n",), "v1:n", 5)
        answer = open_builder_tapped(session, cmd)
        assert answer.send is not None
        return answer.send.for_asker

    assert chat.db.run_write(lambda s: opened(s, ANNA))
    assert not chat.db.run_write(lambda s: opened(s, CHAT))


def test_an_ephemeral_edit_is_stored_with_its_reader() -> None:
    reply = Reply("", edits=(Edit(3, "Schritt", ((("x", "v1:b:1:x"),),), receiver=ANNA),))
    payload, _ = durable.encode(reply)
    assert durable.decode(payload, None)[0] == reply
    assert ephemeral.sent_id({"message_id": 0, "ephemeral_message_id": 7}) == -7
    assert ephemeral.sent_id({"message_id": 42}) == 42
