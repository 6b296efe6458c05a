"""Documents by place and by role: the repeat note counts a document as the same only in the
same place (a forum topic) and for the same list, and a place's management (a Preisskat's
desk, the chat's admins) is not held to a member's document limit; a plain member still is."""

from __future__ import annotations

import pytest

from skatbot.handlers.fairness import Fairness
from tests.handlers.test_topics import FORUM, ok, say
from tests.helpers import Bot, refused

CHAT = -1001
CREATOR, ADMIN, MEMBER = 1, 7, 9
NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav", "Hanna"]


@pytest.fixture(autouse=True)
def real_limits(bot: Bot) -> None:
    bot.app.bot_data.fairness = Fairness()  # the product's limits (helpers lift them)


def documents(bot: Bot, chat_id: int = CHAT) -> list[str]:
    return [name for name, _ in bot.api.documents(chat_id)]


async def test_the_same_export_in_two_topics_is_sent_to_both(bot: Bot) -> None:
    first = bot.api.create_topic(FORUM, "Tisch 1")
    second = bot.api.create_topic(FORUM, "Tisch 2")
    await ok(bot, "/neu Anna Bernd Carla", first)
    await ok(bot, "/neu Dora Emil Frieda", second)
    for command in ("/export", "/pdf"):  # the players of each table ask for their list
        out_first = await say(bot, command, first, user_id=CREATOR)
        out_second = await say(bot, command, second, user_id=MEMBER)
        assert [o.document is not None for o in out_first] == [True], out_first
        assert [o.document is not None for o in out_second] == [True], out_second
    # the same document again in a row in the same topic is still sent once
    assert any("kommt schon" in o.text for o in await say(bot, "/pdf", first))


async def _evening_at_the_desk(bot: Bot) -> None:
    await bot.say("/turnier Preisskat", user_id=CREATOR)
    await bot.say("/teilnehmer " + ", ".join(NAMES), user_id=CREATOR)
    await bot.say("/auslosen 1", user_id=CREATOR)
    results = "\n".join(f"{n} {100 + 10 * i} 2 1" for i, n in enumerate(NAMES))
    await bot.say("/ergebnis " + results, user_id=CREATOR)


END_OF_EVENING = ("/rangliste pdf", "/urkunden 3", "/kasse", "/export")


async def test_the_desk_gets_every_document_of_the_evenings_end(bot: Bot) -> None:
    await _evening_at_the_desk(bot)
    before = len(documents(bot))
    for command in END_OF_EVENING:
        out = await bot.say(command, user_id=CREATOR)
        assert not any(r.refusal for r in out), (command, out)
    assert len(documents(bot)) == before + len(END_OF_EVENING), documents(bot)


async def test_a_chat_admin_is_not_held_to_the_member_limit(bot: Bot) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    await bot.say("/neu Anna Bernd Carla", user_id=MEMBER)
    asks = ("/vordruck 3", "/vordruck 4", "/pdf", "/export", "/stand bild")
    for command in asks:
        out = await bot.say(command, user_id=ADMIN)
        assert not any(r.refusal for r in out), (command, out)
    assert len(documents(bot)) + len(bot.api.photos(CHAT)) == len(asks)


async def test_a_plain_member_at_the_desk_is_still_limited(bot: Bot) -> None:
    await _evening_at_the_desk(bot)
    for command in END_OF_EVENING[:3]:
        await bot.say(command, user_id=MEMBER)
    await refused(bot, "/export", "3 Dokumente angefordert", user_id=MEMBER)
