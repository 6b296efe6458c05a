"""The game builder through Telegram: forged and over-long callback data, a bid typed as a
reply to the builder, /anheften, the command menu. The button flow itself runs on the use
cases: tests/usecases/sheet/test_builder.py (its ``games`` is re-exported here)."""

from __future__ import annotations

import re
from pathlib import Path

from skatbot.handlers import registry
from skatbot.handlers.routes import ROUTES, Kind
from skatbot.standin.botapi import BotMessage
from skatbot.usecases.common.reply import Command
from skatbot.usecases.sheet.builder import flow as builder
from tests.helpers import Bot
from tests.usecases.sheet.test_builder import games

CHAT = -1001


def buttons(msg: BotMessage) -> dict[str, str]:
    """label -> callback data of the message's current keyboard (a disabled button has none)."""
    return {
        b["text"]: b["callback_data"] for row in msg.buttons for b in row if "callback_data" in b
    }


def labels(msg: BotMessage) -> list[str]:
    return [b["text"] for row in msg.buttons for b in row]


class Phone:
    """A player's thumb: taps buttons by label on one bot message."""

    def __init__(self, bot: Bot, message_id: int, *, user_id: int = 1, chat_id: int = CHAT):
        self.bot = bot
        self.message_id = message_id
        self.user_id = user_id
        self.chat_id = chat_id
        self.taps = 0

    @property
    def msg(self) -> BotMessage:
        return self.bot.api.message(self.chat_id, self.message_id)

    async def tap(self, label: str, *, user_id: int | None = None) -> None:
        data = buttons(self.msg)[label]
        await self.data(data, user_id=user_id)
        self.taps += 1

    async def data(self, data: str, *, user_id: int | None = None) -> None:
        uid = self.user_id if user_id is None else user_id
        update_id = self.bot.api.push_callback(
            data, message_id=self.message_id, chat_id=self.chat_id, user_id=uid
        )
        await self.bot.api.wait_confirmed(update_id, timeout=15)


def last_answer(bot: Bot) -> str:
    calls = bot.api.sent("answerCallbackQuery")
    return str(calls[-1].params.get("text", "")) if calls else ""


async def open_builder(bot: Bot, *, user_id: int = 1, chat_id: int = CHAT) -> Phone:
    await bot.say("/spiel", user_id=user_id, chat_id=chat_id)
    msg = bot.api.messages(chat_id)[-1]
    assert "Wer spielt?" in (msg.text or "")
    return Phone(bot, msg.message_id, user_id=user_id, chat_id=chat_id)


async def test_forged_data_is_refused_and_changes_nothing(bot: Bot, tmp_path: Path) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/neu Xaver Yvonne Zora", chat_id=-2002)
    other = await open_builder(bot, chat_id=-2002)
    other_id = buttons(other.msg)["Xaver"].split(":")[2]
    phone = await open_builder(bot)
    bid = buttons(phone.msg)["Anna"].split(":")[2]
    text, edits = phone.msg.text, phone.msg.edits
    forged = [
        "hallo",
        "v2:b:1:p:0",
        f"v1:b:{bid}:p:7",
        f"v1:b:{bid}:p:99999999999",
        f"v1:b:{bid}:m:+12",
        f"v1:b:{bid}:ok",
        f"v1:b:{other_id}:p:0",
        "v1:sj:1",
        "v1:k:999",
        "x" * 64,
    ]
    for data in forged:
        await phone.data(data)
        assert last_answer(bot), data
    assert phone.msg.text == text and phone.msg.edits == edits
    assert games(bot.db) == []
    assert len(bot.api.sent("editMessageText")) == 0

    # behind the first check (data on the message): the use case refuses on its own too
    def forge(data: str, message_id: int | None) -> str:
        cmd = Command(CHAT, "", 1, "Spieler", 10_000 + len(data), (data,), data, message_id)
        # the use case of the route the data takes (the builder's: behind its admin check)
        route = next(
            r for r in ROUTES if r.kind is Kind.CALLBACK and re.match(r.pattern or "", data)
        )
        run = builder.builder_tap if route.name == "builder" else route.use_case
        return bot.db.run_write(lambda s: run(s, cmd)).notice  # type: ignore[operator, arg-type, union-attr]

    assert forge(f"v1:b:{other_id}:p:0", phone.message_id) == builder.NOT_HERE
    assert forge(f"v1:b:{bid}:p:7", phone.message_id) == builder.STALE
    assert forge(f"v1:b:{bid}:m:+3", phone.message_id) == builder.STALE  # not offered yet
    assert forge(f"v1:b:{bid}:ok", phone.message_id) == builder.STALE
    assert forge(f"v1:b:{bid}:p:0", phone.message_id + 1) == builder.NOT_HERE
    assert forge("v9:zz", phone.message_id) == builder.UNKNOWN
    assert games(bot.db) == []


async def test_typed_bid(bot: Bot) -> None:
    """A bid typed as a reply to the builder (the bid buttons: the use-case tests)."""
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    for label in ("Bernd", "♦ Karo", "mit 1", "Reiz …", "30", "gewonnen", "Reiz 30", "anderer …"):
        await phone.tap(label)
    assert "Antworte auf diese Nachricht" in (phone.msg.text or "")
    update_id = bot.api.push_message("19", chat_id=CHAT, user_id=1, reply_to=phone.message_id)
    await bot.api.wait_confirmed(update_id)
    assert "19 ist kein Reizwert" in bot.api.messages(CHAT)[-1].text  # type: ignore[operator]
    update_id = bot.api.push_message("18", chat_id=CHAT, user_id=1, reply_to=phone.message_id)
    await bot.api.wait_confirmed(update_id)
    assert "Karo mit 1 Reiz 18 gewonnen → +18" in (phone.msg.text or "")
    await phone.tap("✅ Eintragen")
    assert games(bot.db) == ["Karo mit 1 Reiz 18 gewonnen"]


async def test_anheften_keeps_the_standings_up_to_date(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/anheften")
    pinned = bot.api.messages(CHAT)[-1]
    assert pinned.pinned and "Stand" in (pinned.text or "")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    assert "Anna 122" in (bot.api.message(CHAT, pinned.message_id).text or "")
    await bot.say("/storno 1")
    assert "Anna 122" not in (bot.api.message(CHAT, pinned.message_id).text or "")
    # the pinned message is deleted: bookings go on, and it is not edited again
    bot.api.message(CHAT, pinned.message_id).deleted = True
    reply = await bot.text("/spiel Bernd karo mit 1 gewonnen")
    assert "Bernd +18" in reply

    def edit_calls() -> int:  # failed ones included
        return sum(c.method == "editMessageText" for c in bot.api.calls)

    edits = edit_calls()
    assert "Carla" in await bot.text("/spiel Carla karo mit 1 gewonnen")
    assert edit_calls() == edits


async def test_command_menu_is_registered(bot: Bot) -> None:
    """The menu Telegram shows (the help texts and forgiving input: the use-case tests)."""
    # runner.run_polling does not call post_init (reported); call it as Application.run_* would
    await registry.post_init(bot.app)
    assert len(bot.api.commands) == 2  # group and private scopes
    commands = {c["command"] for cmds in bot.api.commands.values() for c in cmds}
    assert {"spiel", "anheften", "hilfe"} <= commands
