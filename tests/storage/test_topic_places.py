"""The forum topics a later console session makes known again: those with a list."""

from __future__ import annotations

from skatbot.storage import topic_places
from skatbot.storage.database import Database
from tests.helpers import Bot

VEREIN = -1009201


async def test_topics_with_lists_are_those_that_have_a_list(bot: Bot, db: Database) -> None:
    bot.api.add_forum(VEREIN, title="Verein")
    with_list = bot.api.create_topic(VEREIN, "A")
    without = bot.api.create_topic(VEREIN, "B")
    for text, thread in (("/neu Anna Bernd Carla", with_list), ("/einsatz 1 ct", without)):
        update = bot.api.push_message(
            text, chat_id=VEREIN, thread_id=thread, chat_type="supergroup"
        )
        await bot.api.wait_confirmed(update, timeout=15)
    await bot.delivered()
    # both topics are places of their own (a setting is kept for B), only A has a list
    assert len(db.run_write(lambda s: topic_places.chat_topic_places(s, VEREIN))) == 2
    assert db.run_write(topic_places.topics_with_lists) == [(VEREIN, with_list)]
