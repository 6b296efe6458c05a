"""A draw taken back in a forum, as far as Telegram is concerned: the bot deletes the topics
it made for the tables, and where it may not delete them it closes them. The rest of the
season (/auslosen zurück and everything around it) is tested on the use cases:
tests/usecases/tournament/test_tournament_season.py."""

from __future__ import annotations

from skatbot.standin.botapi import BOT_ID
from tests.handlers import test_table_lists as tl
from tests.helpers import Bot


async def test_a_draw_taken_back_deletes_the_bots_topics_or_closes_them(bot: Bot) -> None:
    forum = tl.FORUM
    bot.api.add_forum(forum, title="Preisskat")
    bot.api.set_admins(forum, [BOT_ID, tl.MANAGER])
    await tl.setup_desk(bot, forum)
    await tl.ok(bot, "/auslosen 4711", forum)
    await bot.delivered()
    threads = {thread for thread, _ in tl.table_topics(bot, 1).values()}
    assert len(threads) == 4

    await tl.ok(bot, "/auslosen zurück", forum)
    await tl.ok(bot, "/auslosen zurück ja", forum)
    await bot.delivered()
    assert not threads & set(bot.api.topics.get(forum, {}))  # the bot's topics are deleted

    # redrawn in new topics; where the bot may not delete a topic, it closes it
    await tl.ok(bot, "/auslosen 4711", forum)
    await bot.delivered()
    topics = tl.table_topics(bot, 1)
    assert len(topics) == 4 and not threads & {t for t, _ in topics.values()}
    bot.api.deny_delete_rights(forum)
    await tl.ok(bot, "/auslosen zurück", forum)
    await tl.ok(bot, "/auslosen zurück ja", forum)
    await bot.delivered()
    assert {(forum, t) for t, _ in topics.values()} <= bot.api.closed_topics
