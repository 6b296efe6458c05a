"""A reply into a closed forum topic is refused by Telegram (TOPIC_CLOSED): it goes to the
chat's General topic, headed by the topic's name; the booking stands; once the topic is
reopened its list answers there again. Real bot, strict stand-in."""

from __future__ import annotations

from tests.helpers import Bot
from tests.standin.fake_telegram import GENERAL_TOPIC, html_to_text

FORUM = -1009101


async def say(bot: Bot, text: str, thread: int) -> None:
    uid = bot.api.push_message(text, chat_id=FORUM, thread_id=thread)
    await bot.api.wait_confirmed(uid, timeout=15)


def texts(bot: Bot, thread: int) -> list[str]:
    return [m.text or html_to_text(m.caption or "") for m in bot.api.messages(FORUM, thread)]


async def test_a_reply_into_a_closed_topic_goes_to_general_and_the_list_lives_on(
    bot: Bot,
) -> None:
    bot.api.add_forum(FORUM, title="Skatclub")
    table = bot.api.create_topic(FORUM, "Tisch Herz Dame")
    assert table >= 2  # the General topic is thread 1
    await say(bot, "/neu Anna Bernd Carla", table)
    assert any("Neue Liste" in t for t in texts(bot, table))
    bot.api.close_topic(FORUM, table)
    before = len(texts(bot, table))
    await say(bot, "/spiel Anna grand ohne 1 hand gewonnen", table)
    assert len(texts(bot, table)) == before  # nothing got into the closed topic
    general = texts(bot, GENERAL_TOPIC)
    assert any("Das Thema „Tisch Herz Dame“ ist geschlossen" in t for t in general), general
    assert any("Anna +72" in t for t in general), general  # the booking's reply, not lost
    refused = [c for c in bot.api.calls if c.error and "TOPIC_CLOSED" in c.error]
    assert refused
    bot.api.reopen_topic(FORUM, table)
    in_general = len(general)
    await say(bot, "/stand", table)
    assert "Anna 122" in texts(bot, table)[-1]  # the topic's own list, with the game
    assert len(texts(bot, GENERAL_TOPIC)) == in_general  # and answered in the topic again


async def test_the_chat_of_a_closed_topic_keeps_its_own_list(bot: Bot) -> None:
    """General's list is the chat's own; a closed topic's fallback reply does not mix them."""
    bot.api.add_forum(FORUM, title="Skatclub")
    table = bot.api.create_topic(FORUM, "Tisch 1")
    uid = bot.api.push_message("/neu Dora Emil Frieda", chat_id=FORUM, chat_type="supergroup")
    await bot.api.wait_confirmed(uid, timeout=15)
    await say(bot, "/neu Anna Bernd Carla", table)
    bot.api.close_topic(FORUM, table)
    await say(bot, "/stand", table)
    general = texts(bot, GENERAL_TOPIC)
    assert "Anna" in general[-1] and "Dora" not in general[-1]
