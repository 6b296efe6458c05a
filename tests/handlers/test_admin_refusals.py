"""The refusal of a typed command for the typist alone where the bot is an administrator
(Bot API 10.3: an administrator may send an ephemeral message to any member at any time,
with ``receiver_user_id`` alone), through PTB and the strict stand-in: the group sees
nothing new; not an administrator, an older server, or demoted unnoticed (the server
refuses): public, as before; a booking is always the group's."""

from __future__ import annotations

import pytest

from skatbot.handlers.outbox import ephemeral
from skatbot.standin.botapi import BOT_ID
from skatbot.standin.versions import API_10_1, API_10_2
from skatbot.storage.database import Database
from tests.helpers import Bot, ok, refused, running_bot

CHAT = -1001
ANNA, BERND = 1, 2
TYPO = "/spiel Bernhard grand ohne 1 hand gewonnen"  # no such player: nothing booked
UNKNOWN = "/spiell Anna grand ohne 1 hand gewonnen"  # a misspelt command


async def promoted(bot: Bot, chat_id: int = CHAT) -> None:
    """The bot is made an administrator of the chat (its ``my_chat_member`` update)."""
    update_id = bot.api.push_my_chat_member(chat_id, "administrator")
    await bot.api.wait_confirmed(update_id, timeout=15)


async def a_list(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla", user_id=ANNA)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", "Anna", user_id=ANNA)


def group_texts(bot: Bot) -> list[str]:
    return [m.text for m in bot.api.messages(CHAT)]


def ephemeral_calls(bot: Bot, since: int = 0) -> list[dict[str, object]]:
    return [c.params for c in bot.api.calls[since:] if ephemeral.PARAMETER in c.params]


async def test_an_admin_bot_tells_a_typo_to_the_typist_alone(bot: Bot) -> None:
    await a_list(bot)
    await promoted(bot)
    shown = group_texts(bot)
    before = len(bot.api.calls)
    assert await bot.say(TYPO, user_id=BERND) == []  # nothing for the group
    (only,) = bot.api.ephemeral_messages(CHAT, BERND)
    assert "Bernhard" in only.text and "👉" in only.text, only.text
    assert bot.api.ephemeral_messages(CHAT, ANNA) == []
    assert group_texts(bot) == shown
    # the 10.3 shape for an administrator: the receiver alone, no tap, replying to nothing
    (params,) = ephemeral_calls(bot, before)
    assert params[ephemeral.PARAMETER] == {"receiver_user_id": BERND}
    assert "reply_parameters" not in params
    # a misspelt command too; and sent as ephemeral, the group's pace is not touched
    assert await bot.say(UNKNOWN, user_id=ANNA) == []
    (other,) = bot.api.ephemeral_messages(CHAT, ANNA)
    assert "/spiel" in other.text, other.text
    assert not bot.app.bot_data.outbox.ephemeral.counts
    # the booking, fixed, is the group's
    await ok(bot, "/spiel Bernd grand ohne 1 hand gewonnen", "Bernd", user_id=BERND)
    assert len(bot.api.ephemeral_messages(CHAT)) == 2


async def test_an_admin_since_before_the_bot_ran_is_asked_once(bot: Bot) -> None:
    # made an administrator long ago: no my_chat_member update now, getChatMember tells
    bot.api.set_admins(CHAT, [BOT_ID])
    await a_list(bot)
    shown = group_texts(bot)
    assert await bot.say(TYPO, user_id=BERND) == []
    assert await bot.say(UNKNOWN, user_id=ANNA) == []
    assert len(bot.api.ephemeral_messages(CHAT)) == 2
    assert group_texts(bot) == shown
    asked = [c.params for c in bot.api.calls if c.method == "getChatMember"]
    assert asked == [{"chat_id": CHAT, "user_id": BOT_ID}]  # once for the chat


async def test_a_bot_that_is_no_admin_refuses_in_the_group(bot: Bot) -> None:
    await a_list(bot)
    before = len(bot.api.calls)
    await refused(bot, TYPO, "Bernhard", user_id=BERND)
    assert bot.api.ephemeral_messages(CHAT) == []
    assert ephemeral_calls(bot, before) == []  # not even tried
    # promoted and demoted again by updates: public again
    await promoted(bot)
    update_id = bot.api.push_my_chat_member(CHAT, "member")
    await bot.api.wait_confirmed(update_id, timeout=15)
    await refused(bot, TYPO, "Bernhard", user_id=BERND)
    assert bot.api.ephemeral_messages(CHAT) == []


@pytest.mark.parametrize("version", [API_10_1, API_10_2])
async def test_an_older_server_gets_the_refusal_in_the_group(
    db: Database, version: tuple[int, int]
) -> None:
    async with running_bot(db, api_version=version) as bot:
        await a_list(bot)
        await promoted(bot)
        # the server ignores the parameter: the refusal is the group's, as before
        await refused(bot, TYPO, "Bernhard", user_id=BERND)
        assert bot.api.ephemeral_messages(CHAT) == []
        before = len(bot.api.calls)
        await refused(bot, TYPO, "Bernhard", user_id=BERND)
        assert ephemeral_calls(bot, before) == []  # remembered: no second try


async def test_demoted_unnoticed_the_refusal_goes_public_and_is_remembered(bot: Bot) -> None:
    await a_list(bot)
    await promoted(bot)
    bot.api.set_admins(CHAT, [])  # demoted; the update about it is not here (yet)
    before = len(bot.api.calls)
    await refused(bot, TYPO, "Bernhard", user_id=BERND)  # in the same step
    assert bot.api.ephemeral_messages(CHAT) == []
    assert len(ephemeral_calls(bot, before)) == 1  # tried once, refused: BOT_NOT_ADMIN
    before = len(bot.api.calls)
    await refused(bot, UNKNOWN, "/spiel", user_id=ANNA)
    assert ephemeral_calls(bot, before) == []  # no more an administrator there
    # made an administrator again: the typist alone again
    bot.api.set_admins(CHAT, [BOT_ID])
    await promoted(bot)
    assert await bot.say(TYPO, user_id=BERND) == []
    assert len(bot.api.ephemeral_messages(CHAT, BERND)) == 1


async def test_a_booking_is_never_for_one_reader(bot: Bot) -> None:
    await promoted(bot)
    await ok(bot, "/neu Anna Bernd Carla", "Anna", user_id=ANNA)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", "Anna", user_id=ANNA)
    await ok(bot, "/stand", "Anna", user_id=BERND)  # nor a read answer: only refusals
    # /spiel without a name: its refusal carries the builder's button: the group's
    await refused(bot, "/spiel grand gewonnen", user_id=ANNA)
    assert bot.api.ephemeral_messages(CHAT) == []
    assert ephemeral_calls(bot) == []


async def test_a_private_chat_is_answered_as_always(bot: Bot) -> None:
    await refused(bot, "/spiell", "/spiel", chat_id=ANNA, user_id=ANNA)
    assert ephemeral_calls(bot) == []


async def test_in_a_forum_topic_the_typist_reads_it_in_the_topic(bot: Bot) -> None:
    forum = -1009002
    bot.api.add_forum(forum, title="Skatclub")
    bot.api.set_admins(forum, [BOT_ID])
    topic = bot.api.create_topic(forum, "Tisch 1")
    uid = bot.api.push_message("/neu Anna Bernd Carla", chat_id=forum, thread_id=topic)
    await bot.api.wait_confirmed(uid, timeout=15)
    shown = [m.text for m in bot.api.messages(forum, thread_id=topic)]
    uid = bot.api.push_message(TYPO, chat_id=forum, thread_id=topic, user_id=BERND)
    await bot.api.wait_confirmed(uid, timeout=15)
    (only,) = bot.api.ephemeral_messages(forum, BERND)
    assert "Bernhard" in only.text, only.text
    assert only.thread_id == topic
    assert [m.text for m in bot.api.messages(forum, thread_id=topic)] == shown


async def test_a_failed_question_leaves_the_refusal_public_and_is_asked_again(
    bot: Bot,
) -> None:
    bot.api.set_admins(CHAT, [BOT_ID])
    await a_list(bot)
    bot.api.fail_next("getChatMember", status=400, description="Bad Request: chat not found")
    await refused(bot, TYPO, "Bernhard", user_id=BERND)  # not known: the group's
    assert bot.api.ephemeral_messages(CHAT) == []
    assert await bot.say(TYPO, user_id=BERND) == []  # asked again: an administrator
    assert len(bot.api.ephemeral_messages(CHAT, BERND)) == 1
