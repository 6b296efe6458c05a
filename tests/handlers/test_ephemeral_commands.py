"""Ephemeral commands (Bot API 10.2/10.3) through PTB and the strict stand-in: /hilfe, /wert,
/ich and /statistik are declared ``is_ephemeral`` in the menu; a member who sends one so is
answered alone (a reply to the command, within Telegram's 15 seconds). A server before 10.2
ignores the declaration (the commands come as ordinary messages, answered in the group as
always); one before 10.3 gets the answer in the group. What changes who is who (/ich NAME,
/ich nicht) is the group's even if it was asked for oneself; an answer after the 15 seconds
goes to the group; a stored answer resumed after a restart arrives once."""

from __future__ import annotations

import time

import pytest

from skatbot.handlers import durable
from skatbot.handlers.outbox import ephemeral, handoff
from skatbot.handlers.routes import ephemeral_commands
from skatbot.standin.versions import API_10_1, API_10_2
from skatbot.storage import outbox
from skatbot.storage.database import Database
from skatbot.usecases.common.reply import Asker, Reply
from tests.helpers import Bot, deliver_after_restart, export_raw, ok, running_bot

CHAT = -1001
ANNA, BERND = 1, 2
EPHEMERAL = {"hilfe", "wert", "ich", "statistik"}


class Clock:
    """The stand-in's clock, moved by hand (the 15 seconds of an ephemeral answer)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def group_texts(bot: Bot, chat_id: int = CHAT) -> list[str]:
    return [m.text or "" for m in bot.api.messages(chat_id)]


def alone(bot: Bot, user_id: int = BERND, chat_id: int = CHAT) -> list[str]:
    return [m.text or "" for m in bot.api.ephemeral_messages(chat_id, user_id)]


def caption_or_text(bot: Bot) -> list[str]:
    return [m.caption or m.text or "" for m in bot.api.messages(CHAT)]


def tried_ephemeral(bot: Bot, since: int) -> int:
    return sum(ephemeral.PARAMETER in c.params for c in bot.api.calls[since:])


async def ask_alone(bot: Bot, text: str, user_id: int = BERND, name: str = "Bernd") -> None:
    """``text`` as an ephemeral command of ``user_id`` (only the bot receives it); returns
    when it is answered."""
    uid = bot.api.push_ephemeral_command(text, chat_id=CHAT, user_id=user_id, first_name=name)
    await bot.api.wait_confirmed(uid, timeout=15)


async def closed_series(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla", user_id=ANNA)
    await ok(bot, "/spiel Bernd grand mit 1 gewonnen", user_id=ANNA)
    await ok(bot, "/abschluss ja", user_id=ANNA)


def test_the_menus_ephemeral_commands_are_the_ones_that_only_show_something() -> None:
    assert ephemeral_commands() == EPHEMERAL


async def test_the_menu_declares_them_ephemeral(bot: Bot) -> None:
    await ok(bot, "/hilfe")  # the menu is sent at start
    for call in bot.api.sent("setMyCommands"):
        declared = {c["command"] for c in call.params["commands"] if c.get("is_ephemeral")}
        assert declared == EPHEMERAL


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ("/hilfe", "/spiel"),
        ("/hilfe spiel", "/spiel"),
        ("/wert grand mit 1", "Grand mit 1"),
        ("/ich", "Du bist noch mit keinem Namen verknüpft"),
        ("/statistik", "Statistik"),
    ],
)
async def test_an_ephemeral_command_is_answered_to_the_asker_alone(
    bot: Bot, asked: str, expected: str
) -> None:
    await closed_series(bot)
    before = await export_raw(bot)
    shown = group_texts(bot)
    await ask_alone(bot, asked)
    (answer,) = alone(bot)
    assert expected in answer, answer
    assert alone(bot, ANNA) == []
    assert group_texts(bot) == shown  # the group sees nothing of it
    assert await export_raw(bot) == before
    # it is a reply to Bernd's command: Telegram shows it under what he asked
    (sent,) = [c for c in bot.api.calls if c.params.get(ephemeral.PARAMETER)]
    assert sent.params["reply_parameters"]["ephemeral_message_id"] > 0
    assert sent.params[ephemeral.PARAMETER] == {"receiver_user_id": BERND}


async def test_a_players_statistics_are_the_askers_with_the_picture_offered(bot: Bot) -> None:
    # a picture cannot be ephemeral: asked alone, the text is Bernd's with the picture offered
    await closed_series(bot)
    shown = group_texts(bot)
    before = len(bot.api.calls)
    await ask_alone(bot, "/statistik Bernd")
    (answer,) = alone(bot)
    assert "Bernd" in answer and "/statistik Bernd bild" in answer, answer
    assert group_texts(bot) == shown
    assert not any(c.method == "sendPhoto" for c in bot.api.calls[before:])


async def test_the_season_picture_asked_for_is_the_groups(bot: Bot) -> None:
    # the offer followed: the picture goes to the group (headed by who asked where the
    # caption leaves room)
    await closed_series(bot)
    before = len(bot.api.calls)
    await ask_alone(bot, "/statistik Bernd bild")
    assert alone(bot) == []
    sent = [c.method for c in bot.api.calls[before:] if c.params.get("chat_id") == CHAT]
    assert "sendPhoto" in sent, sent
    assert tried_ephemeral(bot, before) == 0
    # typed in the group, the picture comes as before, with or without the word
    for typed in ("/statistik Bernd", "/statistik Bernd bild"):
        before = len(bot.api.calls)
        await ok(bot, typed, "Bernd", user_id=BERND)
        assert any(c.method == "sendPhoto" for c in bot.api.calls[before:]), typed


async def test_the_same_command_in_the_group_is_answered_in_the_group(bot: Bot) -> None:
    await ok(bot, "/wert grand mit 1", "Grand mit 1", user_id=BERND)
    assert alone(bot) == []


async def test_a_refused_ephemeral_command_is_told_to_the_asker_alone(bot: Bot) -> None:
    shown = group_texts(bot)
    await ask_alone(bot, "/wert")
    (answer,) = alone(bot)
    assert "Welches Spiel?" in answer and "👉" in answer, answer
    assert group_texts(bot) == shown


async def test_linking_a_name_is_the_groups_even_if_asked_alone(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla", user_id=ANNA)
    await ask_alone(bot, "/ich Bernd")
    assert alone(bot) == []
    # the group never saw the command: its answer says who asked what
    linked = group_texts(bot)[-1]
    assert linked.startswith("💬 Bernd: /ich Bernd\n🙋") and "Bernd" in linked[20:], linked
    # who he is now: for him alone
    await ask_alone(bot, "/ich")
    (answer,) = alone(bot)
    assert "Du bist Bernd" in answer, answer
    # and undoing the link is the group's again
    shown = len(group_texts(bot))
    await ask_alone(bot, "/ich nicht")
    assert group_texts(bot)[-1].startswith("💬 Bernd: /ich nicht\nVerknüpfung mit Bernd gelöst")
    assert len(group_texts(bot)) == shown + 1
    assert len(alone(bot)) == 1


async def test_a_server_before_10_2_gets_ordinary_commands_answered_in_the_group(
    db: Database,
) -> None:
    async with running_bot(db, api_version=API_10_1) as bot:
        await ok(bot, "/hilfe")
        assert ("setMyCommands", "BotCommand.is_ephemeral") in bot.api.ignored_params
        # the app sends no ephemeral command where the bot declared none
        with pytest.raises(RuntimeError):
            bot.api.push_ephemeral_command("/wert grand mit 1", chat_id=CHAT, user_id=BERND)
        before = len(bot.api.calls)
        await ok(bot, "/wert grand mit 1", "Grand mit 1", user_id=BERND)
        assert tried_ephemeral(bot, before) == 0
        assert alone(bot) == []
        assert group_texts(bot)[-1].startswith("🧮 Grand mit 1")  # the group saw the question


async def test_a_server_before_10_3_gets_the_answer_in_the_group_and_no_second_try(
    db: Database,
) -> None:
    async with running_bot(db, api_version=API_10_2) as bot:
        await ok(bot, "/hilfe")
        shown = len(group_texts(bot))
        await ask_alone(bot, "/wert grand mit 1")
        # the server read the reply to the command but not the 10.3 parameter: refused,
        # and the same text went to the group (nothing is lost)
        assert ("sendMessage", ephemeral.PARAMETER) in bot.api.ignored_params
        # headed by who asked what: the group never saw the command
        assert group_texts(bot)[-1].startswith("💬 Bernd: /wert grand mit 1\n🧮 Grand mit 1")
        assert len(group_texts(bot)) == shown + 1
        assert alone(bot) == []
        before = len(bot.api.calls)
        await ask_alone(bot, "/hilfe spiel")
        assert tried_ephemeral(bot, before) == 0  # remembered for the bot
        assert group_texts(bot)[-1].startswith("💬 Bernd: /hilfe spiel\n")


async def test_an_answer_after_the_15_seconds_goes_to_the_group(db: Database) -> None:
    clock = Clock()
    async with running_bot(db, clock=clock) as bot:
        await ok(bot, "/hilfe")
        shown = len(group_texts(bot))
        # the bot was slow: Telegram's window is over when the answer comes
        uid = bot.api.push_ephemeral_command(
            "/wert grand mit 1", chat_id=CHAT, user_id=BERND, first_name="Bernd"
        )
        clock.now += ephemeral.WINDOW + 1
        await bot.api.wait_confirmed(uid, timeout=15)
        assert alone(bot) == []
        assert group_texts(bot)[-1].startswith("💬 Bernd: /wert grand mit 1\n🧮 Grand mit 1")
        assert len(group_texts(bot)) == shown + 1
        # a timing matter of that answer only: the next one is for Bernd alone again
        await ask_alone(bot, "/wert grand mit 2")
        assert ["Grand mit 2" in t for t in alone(bot)] == [True]


async def test_a_stored_answer_resumed_after_a_restart_arrives_once(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ok(bot, "/neu Anna Bernd Carla", user_id=ANNA)
    await ok(bot, "/ich Bernd", user_id=BERND)
    shown = group_texts(bot)
    # the bot stops right after /ich's answer is committed (nothing handed to the outbox)
    monkeypatch.setattr(handoff, "enqueue_stored", lambda *args: None)
    await ask_alone(bot, "/ich")
    await bot.shutdown()
    monkeypatch.undo()
    (row,) = bot.db.run_read(outbox.pending)
    stored, _, _ = durable.decode(row.payload, row.blob)
    assert stored.asker is not None and stored.asker.ephemeral_message_id > 0
    for _ in range(2):  # started twice: the second start finds nothing left to send
        await deliver_after_restart(bot, CHAT)
        assert ["Du bist Bernd" in t for t in alone(bot)] == [True], alone(bot)
        assert bot.db.run_read(outbox.pending) == []
    assert group_texts(bot) == shown


def test_the_stored_answer_keeps_the_command_it_answers(db: Database) -> None:
    asker = Asker(BERND, "", 1234.5, 7, "💬 Bernd: /ich")
    reply = Reply("🙋 Du bist Bernd.", for_asker=True, asker=asker)
    db.run_write(lambda s: durable.store(s, CHAT, None, 1, reply))
    (row,) = db.run_read(outbox.pending)
    resumed, _, _ = durable.decode(row.payload, row.blob)
    assert resumed == reply


async def test_after_its_window_a_stored_answer_goes_to_the_group(bot: Bot) -> None:
    await ok(bot, "/hilfe")
    shown = group_texts(bot)
    await bot.shutdown()
    stale = Asker(BERND, "", time.time() - ephemeral.WINDOW, 3, "💬 Bernd: /ich")
    reply = Reply("🙋 Du bist Bernd.", for_asker=True, asker=stale)
    bot.db.run_write(lambda s: durable.store(s, CHAT, None, 1, reply))
    await deliver_after_restart(bot, CHAT)
    assert group_texts(bot) == [*shown, "💬 Bernd: /ich\n🙋 Du bist Bernd."]
    assert alone(bot) == []
