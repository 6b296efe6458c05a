"""A long /liste in pages, through the real bot and the strict stand-in: "◀ zurück" and
"weiter ▶" edit the same message (never a new one). From Bot API 10.3 they are a button row
inside the rich message, the one that cannot act greyed out; a server before 10.3 refuses
the row (learnt once: the rows go as the keyboard from then on) and greyed-out buttons (an
ordinary button whose tap answers why and leaves the message alone); a chat that wants text
gets the keyboard. A tap that would show the page already shown edits nothing, so Telegram
never has to refuse an edit as "message is not modified"."""

from __future__ import annotations

from typing import Any

from skatbot.standin.botapi import BotMessage
from skatbot.standin.versions import API_10_2, API_10_3
from skatbot.storage.database import Database
from skatbot.usecases.sheet.views import FIRST_PAGE, LAST_PAGE, LIST_TAIL
from tests.handlers.test_builder import last_answer
from tests.helpers import Bot, bot_at

CHAT = -1001
ROWS = LIST_TAIL + 6  # one game and 25 passed deals: two pages


async def long_list(bot: Bot) -> BotMessage:
    """/liste of a list with ``ROWS`` rows: the message with its latest page."""
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    for _ in range(ROWS - 1):
        await bot.say("/eingepasst")
    await bot.say("/liste")
    return bot.api.messages(CHAT)[-1]


def page_buttons(msg: BotMessage) -> list[dict[str, Any]]:
    [row] = [r for r in msg.all_buttons if any("◀" in b["text"] for b in r)]
    return row


def button(msg: BotMessage, which: str) -> dict[str, Any]:
    """The page button ``"back"`` (left) or ``"ahead"`` (right)."""
    return page_buttons(msg)[0 if which == "back" else 1]


async def tap(bot: Bot, msg: BotMessage, which: str) -> None:
    """Tap ``which`` on ``msg`` as the chat shows it now (inside the message or under it)."""
    data = button(bot.api.message(CHAT, msg.message_id), which)["callback_data"]
    update_id = bot.api.push_callback(data, message_id=msg.message_id, chat_id=CHAT)
    await bot.api.wait_confirmed(update_id, timeout=15)


def first_nr(msg: BotMessage) -> str:
    """The Nr of the first row the page's table shows."""
    assert msg.rich is not None
    [table] = msg.rich.tables()
    return table[1][0].text


def not_modified(bot: Bot) -> list[str]:
    return [str(c.error) for c in bot.api.calls if "not modified" in str(c.error)]


async def test_on_10_3_the_pages_are_a_button_row_inside_the_rich_message(db: Database) -> None:
    async with bot_at(db, API_10_3, rich_messages=True) as bot:
        listed = await long_list(bot)
        count = len(bot.api.messages(CHAT))
        assert listed.buttons == []  # no keyboard under it: the row is inside
        assert [b["text"] for b in page_buttons(listed)] == ["◀ zurück", "Ende ▶"]
        assert button(listed, "ahead")["disabled"] == {}  # the latest rows: nothing after
        assert "callback_data" not in button(listed, "ahead")
        assert first_nr(listed) == "7"  # rows 7-26
        assert listed.rich is not None and listed.rich.plain().endswith("[◀ zurück] [Ende ▶ ⊘]")

        await tap(bot, listed, "back")
        page = bot.api.message(CHAT, listed.message_id)
        assert len(bot.api.messages(CHAT)) == count  # the same message, edited
        assert page.edits == 1 and first_nr(page) == "1"
        assert f"Zeilen 1–{LIST_TAIL} von {ROWS}" in (page.text or "")
        assert button(page, "back")["disabled"] == {}  # the first rows: nothing before
        assert [b["text"] for b in page_buttons(page)] == ["◀ Anfang", "weiter ▶"]
        assert "callback_data" in button(page, "ahead")
        assert last_answer(bot) == f"Zeilen 1–{LIST_TAIL}"

        await tap(bot, page, "ahead")
        back = bot.api.message(CHAT, listed.message_id)
        assert back.edits == 2 and first_nr(back) == "7"
        assert len(bot.api.messages(CHAT)) == count
        edits = [c for c in bot.api.calls if c.method == "editMessageText"]
        assert edits and all(c.ok and "reply_markup" not in c.params for c in edits)
        assert not not_modified(bot)


async def test_a_tap_on_the_page_shown_edits_nothing(db: Database) -> None:
    """Two quick taps on "◀ zurück" (the second from the message as it was): the second asks
    for the page the message shows by then; the bot sends no identical edit."""
    async with bot_at(db, API_10_3, rich_messages=True) as bot:
        listed = await long_list(bot)
        data = button(listed, "back")["callback_data"]
        for _ in range(2):
            update_id = bot.api.push_callback(data, message_id=listed.message_id, chat_id=CHAT)
            await bot.api.wait_confirmed(update_id, timeout=15)
        edits = [c for c in bot.api.calls if c.method == "editMessageText"]
        assert len(edits) == 1 and edits[0].ok
        assert bot.api.message(CHAT, listed.message_id).edits == 1
        assert not not_modified(bot)


async def test_before_10_3_the_pages_are_the_keyboard_and_say_why(db: Database) -> None:
    async with bot_at(db, API_10_2, rich_messages=True) as bot:
        listed = await long_list(bot)
        count = len(bot.api.messages(CHAT))
        refused = [c for c in bot.api.calls if not c.ok and "tg-button-row" in str(c.error)]
        assert len(refused) == 1  # the row once; then the keyboard
        assert listed.rich is not None and listed.rich.button_rows() == []
        assert first_nr(listed) == "7"  # still a table
        ahead = button(listed, "ahead")
        assert "disabled" not in ahead  # a server before 10.3 cannot grey it out
        assert listed.all_buttons == listed.buttons

        await tap(bot, listed, "ahead")  # nothing after: it says why, the message stays
        assert last_answer(bot) == LAST_PAGE
        assert bot.api.message(CHAT, listed.message_id).edits == 0

        await tap(bot, listed, "back")
        page = bot.api.message(CHAT, listed.message_id)
        assert page.edits == 1 and first_nr(page) == "1"
        assert len(bot.api.messages(CHAT)) == count
        await tap(bot, page, "back")
        assert last_answer(bot) == FIRST_PAGE
        assert bot.api.message(CHAT, listed.message_id).edits == 1
        # learnt for the bot: the next page goes out as a keyboard at once
        await tap(bot, page, "ahead")
        assert len([c for c in bot.api.calls if "tg-button-row" in str(c.error)]) == 1
        assert first_nr(bot.api.message(CHAT, listed.message_id)) == "7"
        assert not not_modified(bot)


async def test_a_chat_that_wants_text_gets_the_pages_as_its_keyboard(db: Database) -> None:
    async with bot_at(db, API_10_3, rich_messages=True) as bot:
        await bot.say("/darstellung text")
        listed = await long_list(bot)
        assert listed.rich is None
        assert f"… {ROWS - LIST_TAIL} frühere Zeilen: /liste alle" in (listed.text or "")
        assert button(listed, "ahead")["disabled"] == {}
        await tap(bot, listed, "back")
        page = bot.api.message(CHAT, listed.message_id)
        assert page.edits == 1 and page.rich is None
        assert f"Zeilen 1–{LIST_TAIL} von {ROWS} · alle: /liste alle" in (page.text or "")
        assert button(page, "back")["disabled"] == {}
        assert not not_modified(bot)


async def test_a_short_list_has_no_pages(db: Database) -> None:
    async with bot_at(db, API_10_3, rich_messages=True) as bot:
        await bot.say("/neu Anna Bernd Carla")
        await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
        await bot.say("/liste")
        assert bot.api.messages(CHAT)[-1].all_buttons == []


async def test_before_10_3_the_end_shows_the_games_added_since(db: Database) -> None:
    """ "Ende ▶" of an older /liste, tapped after more games (where it is an ordinary
    button): the newest rows, in the same message."""
    async with bot_at(db, API_10_2, rich_messages=True) as bot:
        listed = await long_list(bot)
        await bot.say("/eingepasst")
        await tap(bot, listed, "ahead")
        page = bot.api.message(CHAT, listed.message_id)
        assert page.edits == 1 and first_nr(page) == "8"  # rows 8-27


def test_a_stored_page_keeps_its_buttons() -> None:
    """A reply resumed from the outbox after a restart goes as its text form: the page
    buttons are its keyboard."""
    from skatbot.handlers import durable
    from skatbot.usecases.common.reply import Button, Reply
    from skatbot.usecases.common.rich import RichDoc, RichText

    rows = (
        (
            Button("◀ zurück", "v1:ls:1:20:26"),
            Button("Ende ▶", "v1:ls:1:26:26", disabled=LAST_PAGE),
        ),
    )
    reply, _, _ = durable.decode(
        *durable.encode(Reply(RichText("Liste", RichDoc(pager=rows)), buttons=rows))
    )
    assert reply.buttons == rows
    assert [getattr(b, "disabled", "") for b in reply.buttons[0]] == ["", LAST_PAGE]


async def test_a_server_without_rich_messages_gets_the_text_and_its_keyboard(
    db: Database,
) -> None:
    """Bot API 10.2 with the rich messages switched off (as before 10.1): the text form, the
    page buttons as its keyboard, ordinary buttons where one cannot act."""
    async with bot_at(db, API_10_2) as bot:
        listed = await long_list(bot)
        assert listed.rich is None and "disabled" not in button(listed, "ahead")
        await tap(bot, listed, "ahead")
        assert last_answer(bot) == LAST_PAGE
        await tap(bot, listed, "back")
        page = bot.api.message(CHAT, listed.message_id)
        assert page.edits == 1 and page.rich is None
        assert f"Zeilen 1–{LIST_TAIL} von {ROWS}" in (page.text or "")
        assert not not_modified(bot)
