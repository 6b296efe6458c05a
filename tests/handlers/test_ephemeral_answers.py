"""Answers only the asker sees (ephemeral messages, Bot API 10.2/10.3) through PTB and the
strict stand-in: a refused tap is told to the tapper alone on a 10.3 server; on an older one
(the parameter ignored) it is public as before and the bot stops trying; a server's refusal
sends it publicly and is remembered for that chat; whatever changes a list is public; an
ephemeral reply in the durable outbox goes out once after a restart."""

from __future__ import annotations

import time

import pytest

from skatbot.handlers import durable
from skatbot.handlers.outbox import ephemeral
from skatbot.handlers.outbox.target import Target
from skatbot.handlers.runtime import stage
from skatbot.rules.sheet import RowKind
from skatbot.standin.botapi import BotMessage
from skatbot.standin.versions import API_10_1, API_10_2
from skatbot.storage import lists as lists_store
from skatbot.storage import outbox
from skatbot.storage.database import Database
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Asker, Edit, Post, Reply
from tests.harness import Harness
from tests.helpers import Bot, deliver_after_restart, export_raw, ok, running_bot
from tests.usecases.tournament.test_table_rights import (
    SIGN_LABEL,
    TABLE_CHAT,
    USER,
    claim,
    closed_table,
    data_of,
    sign_message,
)

CHAT, OTHER_CHAT = -1001, -1002
ANNA, BERND, ADMIN = 1, 2, 7


async def a_list(bot: Bot, chat_id: int = CHAT) -> None:
    await ok(bot, "/neu Anna Bernd Carla", user_id=ANNA, chat_id=chat_id)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", user_id=ANNA, chat_id=chat_id)


def button(msg: BotMessage, label: str) -> str:
    return next(str(b["callback_data"]) for row in msg.buttons for b in row if label in b["text"])


async def press(bot: Bot, msg: BotMessage, data: str, user_id: int, chat_id: int = CHAT) -> str:
    """Tap; the callback's notice (the replies are out when this returns)."""
    before = len(bot.api.calls)
    uid = bot.api.push_callback(data, message_id=msg.message_id, chat_id=chat_id, user_id=user_id)
    await bot.api.wait_confirmed(uid, timeout=15)
    return " ".join(
        str(c.params.get("text", ""))
        for c in bot.api.calls[before:]
        if c.method == "answerCallbackQuery"
    )


def group_texts(bot: Bot, chat_id: int = CHAT) -> list[str]:
    return [m.text for m in bot.api.messages(chat_id)]


def tried_ephemeral(bot: Bot, since: int) -> int:
    return sum(ephemeral.PARAMETER in c.params for c in bot.api.calls[since:])


async def someone_elses_change(bot: Bot, chat_id: int = CHAT) -> BotMessage:
    """Anna strikes a game: the strike with its "↩️ Rückgängig", which Bernd may not tap."""
    await a_list(bot, chat_id)
    await ok(bot, "/storno 1", "storniert", user_id=ANNA, chat_id=chat_id)
    return bot.api.messages(chat_id)[-1]


async def test_a_refused_tap_is_told_to_the_tapper_alone(bot: Bot) -> None:
    struck = await someone_elses_change(bot)
    before = await export_raw(bot)
    shown = group_texts(bot)
    notice = await press(bot, struck, button(struck, "Rückgängig"), BERND)
    assert "zurücknehmen dürfen nur" in notice, notice  # the tap's passing notice
    (only,) = bot.api.ephemeral_messages(CHAT, BERND)
    assert "zurücknehmen dürfen nur" in only.text and "👉" in only.text, only.text
    assert bot.api.ephemeral_messages(CHAT, ANNA) == []
    assert group_texts(bot) == shown  # the group sees nothing new
    assert await export_raw(bot) == before


async def test_a_members_tap_on_an_admins_question_is_told_to_the_member_alone(
    bot: Bot,
) -> None:
    # the delete question's button is glue (it asks Telegram who is admin): its refusal
    # used to be a message to the whole group
    bot.api.set_admins(CHAT, [ADMIN])
    await a_list(bot)
    await ok(bot, "/loeschen", "1 Liste mit 1 Spiel", user_id=ADMIN)
    question = bot.api.messages(CHAT)[-1]
    data = question.buttons[0][0]["callback_data"]
    shown = group_texts(bot)
    await press(bot, question, data, BERND)
    (only,) = bot.api.ephemeral_messages(CHAT, BERND)
    assert "Löschen dürfen nur die Admins" in only.text, only.text
    assert group_texts(bot) == shown
    # the admin's tap changes everything: that is the group's, never ephemeral
    await press(bot, question, data, ADMIN)
    assert any("Gelöscht: 1 Liste mit 1 Spiel" in t for t in group_texts(bot))
    assert bot.api.ephemeral_messages(CHAT, ADMIN) == []


@pytest.mark.parametrize("version", [API_10_1, API_10_2])
async def test_an_older_server_gets_the_refusal_in_the_group_and_no_second_try(
    db: Database, version: tuple[int, int]
) -> None:
    async with running_bot(db, api_version=version) as bot:
        struck = await someone_elses_change(bot)
        before = len(bot.api.calls)
        notice = await press(bot, struck, button(struck, "Rückgängig"), BERND)
        assert "zurücknehmen dürfen nur" in notice, notice
        # the server ignored the parameter: the text is the group's, as before 10.2
        assert ("sendMessage", "ephemeral_message_parameters") in bot.api.ignored_params
        assert any("zurücknehmen dürfen nur" in t for t in group_texts(bot))
        assert bot.api.ephemeral_messages(CHAT) == []
        # remembered for the bot: the next refusal is the tap's dialog, as it always was
        before = len(bot.api.calls)
        shown = group_texts(bot)
        notice = await press(bot, struck, button(struck, "Rückgängig"), BERND)
        assert "zurücknehmen dürfen nur" in notice and "👉" not in notice, notice
        assert tried_ephemeral(bot, before) == 0
        assert group_texts(bot) == shown
        alerts = [c for c in bot.api.calls[before:] if c.method == "answerCallbackQuery"]
        assert [c.params.get("show_alert") for c in alerts] == [True]


async def test_a_refusing_server_gets_it_in_the_group_and_that_chat_is_remembered(
    bot: Bot,
) -> None:
    struck = await someone_elses_change(bot)
    bot.api.fail_next("sendMessage", status=400, description="Bad Request: BOT_NOT_ADMIN")
    await press(bot, struck, button(struck, "Rückgängig"), BERND)
    # refused: the same text went to the group instead, so nothing is lost
    assert any("zurücknehmen dürfen nur" in t for t in group_texts(bot))
    assert bot.api.ephemeral_messages(CHAT) == []
    # this chat is not tried again (the glue route's refusal goes public straight away) ...
    bot.api.set_admins(CHAT, [ADMIN])
    await ok(bot, "/loeschen", user_id=ADMIN)
    question = bot.api.messages(CHAT)[-1]
    before = len(bot.api.calls)
    await press(bot, question, question.buttons[0][0]["callback_data"], BERND)
    assert tried_ephemeral(bot, before) == 0
    assert "Löschen dürfen nur die Admins" in group_texts(bot)[-1]
    # ... another chat still is
    other = await someone_elses_change(bot, OTHER_CHAT)
    await press(bot, other, button(other, "Rückgängig"), BERND, OTHER_CHAT)
    (only,) = bot.api.ephemeral_messages(OTHER_CHAT, BERND)
    assert "zurücknehmen dürfen nur" in only.text


def test_whatever_changes_a_list_or_a_table_is_never_for_one_reader() -> None:
    for carrying in (
        {"edits": (Edit(5, "Stand"),)},
        {"posts": (Post(-1002, 0, Reply("Tisch 1 gemeldet")),)},
    ):
        with pytest.raises(ValueError, match="only text and buttons"):
            Reply("✅ Spiel 1", for_asker=True, **carrying)  # type: ignore[arg-type]
    assert Reply("⚠️ Nein.", for_asker=True).for_asker
    # remembering the message sent (a builder opened by a tap) changes no list
    assert Reply("🃏 Wer spielt?", for_asker=True, on_sent=lambda s, m: None).for_asker


async def test_a_reply_of_a_transaction_that_changed_a_list_is_the_groups(
    chat: Harness,
) -> None:
    await chat.say("/neu Anna Bernd Carla")
    asker = Asker(BERND, "77", time.time())
    target = Target(CHAT)

    def unit(session: Session, book: bool) -> list[durable.Stored]:
        if book:
            loaded = lists_store.open_list_loaded(session, CHAT)
            assert loaded is not None
            lists_store.append_row(session, loaded.lst, kind=RowKind.PASS)
        return stage(session, target, 1, Reply("Für Bernd?", for_asker=True, asker=asker))

    (kept,) = await chat.db.write(lambda s: unit(s, book=False))
    (booked,) = await chat.db.write(lambda s: unit(s, book=True))
    assert kept.reply.for_asker and kept.reply.asker == asker
    assert not booked.reply.for_asker and booked.reply.asker is None
    stored = [durable.decode(r.payload, r.blob)[0] for r in chat.db.run_read(outbox.pending)]
    assert [r.for_asker for r in stored] == [True, False]


async def test_an_ephemeral_reply_in_the_outbox_goes_out_once_after_a_restart(
    bot: Bot,
) -> None:
    struck = await someone_elses_change(bot)
    await bot.shutdown()
    # Bernd's tap (on nothing the bot answers), answered by a reply stored before the bot
    # stopped: the restarted bot finds it in the outbox
    uid = bot.api.push_callback("-", message_id=struck.message_id, chat_id=CHAT, user_id=BERND)
    update = next(u for u in bot.api.pending_updates if u["update_id"] == uid)
    asker = Asker(BERND, str(update["callback_query"]["id"]), time.time())
    reply = Reply("Nur für Bernd.", refusal=True, for_asker=True, asker=asker)
    bot.db.run_write(lambda s: durable.store(s, CHAT, None, uid, reply))
    shown = group_texts(bot)
    for _ in range(2):  # started twice: the second start finds nothing left to send
        await deliver_after_restart(bot, CHAT)
        assert [m.text for m in bot.api.ephemeral_messages(CHAT, BERND)] == ["Nur für Bernd."]
        assert bot.db.run_read(outbox.pending) == []
    assert group_texts(bot) == shown


async def test_after_its_window_a_stored_reply_for_one_reader_goes_to_the_group(
    bot: Bot,
) -> None:
    # a restart can take longer than the 15 s Telegram gives: then the group gets it
    await a_list(bot)
    shown = group_texts(bot)
    await bot.shutdown()
    stale = Asker(BERND, "4242", time.time() - ephemeral.WINDOW)
    reply = Reply("Nur für Bernd.", refusal=True, for_asker=True, asker=stale)
    bot.db.run_write(lambda s: durable.store(s, CHAT, None, 1, reply))
    await deliver_after_restart(bot, CHAT)
    assert group_texts(bot) == [*shown, "Nur für Bernd."]
    assert bot.api.ephemeral_messages(CHAT) == []


def test_the_stored_reply_keeps_its_reader(db: Database) -> None:
    asker = Asker(BERND, "77", 1234.5)
    reply = Reply("Nur für Bernd.", buttons=((("OK", "v1:x"),),), for_asker=True, asker=asker)
    db.run_write(lambda s: durable.store(s, CHAT, None, 1, reply))
    (row,) = db.run_read(outbox.pending)
    resumed, _, _ = durable.decode(row.payload, row.blob)
    assert resumed == reply


# -- the use cases' side: the harness records what only the tapper sees -------------------------


async def test_a_strangers_signature_tap_is_told_to_the_stranger_alone(chat: Harness) -> None:
    players = await closed_table(chat)
    await claim(chat, players[0], TABLE_CHAT, user_id=USER[players[0]])
    msg = sign_message(chat, TABLE_CHAT, None)
    tapped = await chat.tap(msg, f"{data_of(msg, SIGN_LABEL)}:1", user_id=USER[players[0]])
    said = f"Du bist {players[0]} – für {players[1]} unterschreibt {players[1]} selbst"
    assert [said in r.text for r in tapped.private] == [True], tapped.private
    assert tapped.replies == []  # the table's chat sees nothing of it
    # a server without ephemeral messages: the tap's dialog, as before
    chat.ephemeral_messages = False
    chat.outbox.ephemeral.unsupported = True
    tapped = await chat.tap(msg, f"{data_of(msg, SIGN_LABEL)}:1", user_id=USER[players[0]])
    assert tapped.alert and said in tapped.notice and tapped.private == []


def test_an_ephemeral_try_counts_toward_the_groups_pace_until_the_server_shows_it_knows_them() -> (
    None
):
    """A server before 10.2 ignores the parameter and posts the message to the whole group:
    until a send came back as ephemeral (message id 0), a try is paced like a public send."""
    refusals = ephemeral.EphemeralRefusals()
    assert refusals.counts
    refusals.sent(-100, {"message_id": 0, "ephemeral_message_id": 1})
    assert not refusals.counts
    older = ephemeral.EphemeralRefusals()
    older.sent(-100, {"message_id": 42})
    assert older.counts and older.unsupported
