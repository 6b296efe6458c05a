"""Buttons that show their state and compact standings (Bot API 9.4 and 10.3), through the
real bot and the strict stand-in, and what an older server gets instead: confirm and danger
buttons carry their ``style`` (left out by a server before 9.4, which ignores the field); the
builder's Eintragen is ``disabled`` until the outcome is chosen (a server before 10.3 refuses
a button with nothing else to do: the bot learns it once and sends an ordinary button, whose
tap says why and books nothing); the standings are a compact table from 10.3 (a normal one
before)."""

from __future__ import annotations

from typing import Any

from skatbot.handlers import durable
from skatbot.standin.botapi import BotMessage
from skatbot.standin.versions import API_10_2, API_10_3
from skatbot.storage.database import Database
from skatbot.usecases.common.reply import Button, Reply, confirm_button, danger_button
from skatbot.usecases.sheet.builder.state import NO_OUTCOME, SAVE, SAVE_LATER
from tests.handlers.test_builder import Phone, last_answer, open_builder
from tests.helpers import Bot, bot_at, game_rows

CHAT = -1001
BEFORE_STYLE = (9, 3)


def button(msg: BotMessage, label: str) -> dict[str, Any]:
    [found] = [b for row in msg.buttons for b in row if b["text"] == label]
    return found


def sent_buttons(bot: Bot) -> list[dict[str, Any]]:
    """Every button the bot sent or edited in, as it sent it."""
    out = []
    for call in bot.api.calls:
        markup = call.params.get("reply_markup")
        if isinstance(markup, dict):
            out.extend(b for row in markup.get("inline_keyboard", []) for b in row)
    return out


def callback_data_fits(bot: Bot) -> None:
    data = [str(b["callback_data"]) for b in sent_buttons(bot) if "callback_data" in b]
    assert data and all(1 <= len(d.encode()) <= 64 for d in data)


async def overview(bot: Bot) -> Phone:
    """A builder at its overview: Anna, Kreuz mit 1, no outcome yet."""
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    for label in ("Anna", "♣ Kreuz", "mit 1"):
        await phone.tap(label)
    assert "Gewonnen oder verloren?" in (phone.msg.text or "")
    return phone


def refused_disabled(bot: Bot) -> list[str]:
    return [
        str(c.error)
        for c in bot.api.calls
        if not c.ok and "Text buttons are unallowed" in str(c.error)
    ]


# --- style --------------------------------------------------------------------------------------


async def test_confirm_and_danger_buttons_carry_their_style(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    booking = bot.api.messages(CHAT)[-1]
    assert button(booking, "Stornieren")["style"] == "danger"
    assert "style" not in button(booking, "Korrigieren")
    assert "style" not in button(booking, "Neues Spiel")
    phone = Phone(bot, booking.message_id)
    await phone.tap("Stornieren")
    question = bot.api.messages(CHAT)[-1]
    assert button(question, "Ja, Spiel 1 stornieren")["style"] == "danger"
    assert "style" not in button(question, "Nein")
    await bot.say("/loeschen liste")
    deleting = bot.api.messages(CHAT)[-1]
    assert button(deleting, "🗑 Ja, diese Liste löschen")["style"] == "danger"
    callback_data_fits(bot)


async def test_before_9_4_the_style_is_left_out_and_the_buttons_work(db: Database) -> None:
    async with bot_at(db, BEFORE_STYLE) as bot:
        await bot.say("/neu Anna Bernd Carla")
        await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
        booking = bot.api.messages(CHAT)[-1]
        # the bot sends the style; the server does not know the field and drops it
        assert any(b.get("style") == "danger" for b in sent_buttons(bot))
        assert all("style" not in b for row in booking.buttons for b in row)
        await Phone(bot, booking.message_id).tap("Stornieren")
        question = bot.api.messages(CHAT)[-1]
        await Phone(bot, question.message_id).tap("Ja, Spiel 1 stornieren")
        assert "storniert" in (bot.api.messages(CHAT)[-1].text or "")
        callback_data_fits(bot)


# --- disabled -----------------------------------------------------------------------------------


async def test_eintragen_is_greyed_out_until_the_outcome_is_chosen(bot: Bot) -> None:
    phone = await overview(bot)
    later = button(phone.msg, SAVE_LATER[0])
    assert later["disabled"] == {} and "callback_data" not in later
    assert SAVE[0] not in [b["text"] for row in phone.msg.buttons for b in row]
    await phone.tap("gewonnen")
    save = button(phone.msg, SAVE[0])
    assert save["style"] == "success" and "disabled" not in save
    await phone.tap(SAVE[0])
    assert len(game_rows(bot.db)) == 1
    assert not refused_disabled(bot)
    callback_data_fits(bot)


async def test_before_10_3_eintragen_says_why_and_books_nothing(db: Database) -> None:
    async with bot_at(db, API_10_2) as bot:
        phone = await overview(bot)
        # refused once as a button without an action; sent again as an ordinary button
        assert len(refused_disabled(bot)) == 1
        later = button(phone.msg, SAVE_LATER[0])
        assert "disabled" not in later and later["callback_data"].endswith(":ok")
        await phone.tap(SAVE_LATER[0])
        assert last_answer(bot) == NO_OUTCOME
        assert game_rows(db) == []
        assert "Gewonnen oder verloren?" in (phone.msg.text or "")
        # learnt for the bot: the next greyed-out button goes out plain at once
        await phone.tap("Hand")
        assert button(phone.msg, SAVE_LATER[0])["callback_data"].endswith(":ok")
        assert len(refused_disabled(bot)) == 1
        await phone.tap("gewonnen")
        await phone.tap(SAVE[0])
        assert len(game_rows(db)) == 1
        callback_data_fits(bot)


def test_a_stored_reply_keeps_its_buttons_role_and_state() -> None:
    """The durable outbox carries a button's role and state over a restart."""
    later = Button("Eintragen: erst Ergebnis", "v1:b:7:ok", disabled=NO_OUTCOME)
    rows = ((danger_button("Stornieren", "v1:s:3"), ("Stand", "v1:st")), (later,))
    rows += ((confirm_button("✅ Eintragen", "v1:b:7:ok"),),)
    reply, _, _ = durable.decode(*durable.encode(Reply("x", buttons=rows)))
    assert reply.buttons == rows
    stored = [b for row in reply.buttons for b in row]
    assert [getattr(b, "role", None) for b in stored] == ["danger", None, "", "confirm"]
    assert [getattr(b, "disabled", None) for b in stored] == ["", None, NO_OUTCOME, ""]


# --- compact tables -----------------------------------------------------------------------------


async def standings_tables(bot: Bot) -> tuple[bool, bool]:
    """(the /stand table, the pinned standings' table) compact as the server reads them."""
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/anheften")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")  # the pinned one gets a table
    await bot.say("/stand")
    stand = bot.api.messages(CHAT)[-1]
    [pinned] = [m for m in bot.api.messages(CHAT) if m.pinned]
    compact = []
    for msg in (stand, pinned):
        assert msg.rich is not None
        [table] = [b for b in msg.rich.blocks if b.kind == "table"]
        compact.append(table.compact)
    return compact[0], compact[1]


async def test_the_standings_are_compact_from_10_3(db: Database) -> None:
    async with bot_at(db, API_10_3, rich_messages=True) as bot:
        assert await standings_tables(bot) == (True, True)
        await bot.say("/liste")
        listed = bot.api.messages(CHAT)[-1]
        assert listed.rich is not None
        assert not [b for b in listed.rich.blocks if b.kind == "table" and b.compact]


async def test_before_10_3_the_standings_are_a_normal_table(db: Database) -> None:
    async with bot_at(db, API_10_2, rich_messages=True) as bot:
        assert await standings_tables(bot) == (False, False)
        rich_sends = [c for c in bot.api.calls if c.method == "sendRichMessage"]
        assert rich_sends and all(c.ok for c in rich_sends)
