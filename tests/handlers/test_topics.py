"""Forum topics: every topic keeps its own list, and everything is answered in its topic."""

from __future__ import annotations

import json

from tests.conftest import Bot

FORUM = -1009


async def say(bot: Bot, message: str, thread: int | None) -> list[tuple[int | None, str]]:
    """Post into a topic (``None``: General); (thread of each reply, its text)."""
    before = len(bot.api.calls)
    uid = bot.api.push_message(message, chat_id=FORUM, thread_id=thread)
    await bot.api.wait_confirmed(uid, timeout=15)
    out = []
    for call in bot.api.calls[before:]:
        if call.ok and call.method in ("sendMessage", "sendDocument", "editMessageText"):
            if call.method != "editMessageText":
                assert call.params.get("chat_id") == FORUM
            out.append(
                (call.params.get("message_thread_id"), str(call.params.get("text") or call.params.get("caption") or ""))
            )
    return out


def in_topic(replies: list[tuple[int | None, str]], thread: int | None) -> str:
    assert replies, "no reply"
    sent = [t for t, _ in replies]
    assert all(t == thread for t in sent), (thread, sent)
    return "\n".join(body for _, body in replies)


async def export(bot: Bot, thread: int | None) -> dict:  # type: ignore[type-arg]
    before = len(bot.api.calls)
    await say(bot, "/export", thread)
    docs = [c for c in bot.api.calls[before:] if c.ok and c.method == "sendDocument"]
    assert len(docs) == 1 and docs[0].params.get("message_thread_id") == thread
    return json.loads(next(iter(docs[0].files.values()))[1])  # type: ignore[no-any-return]


async def test_two_tables_in_two_topics_of_one_group(bot: Bot) -> None:
    bot.api.add_forum(FORUM, title="Skatclub")
    # the chat's list from before topics stays where it was (General)
    general = await say(bot, "/neu Olga Paul Quirin", None)
    assert "Neue Liste" in in_topic(general, None)
    t1 = bot.api.create_topic(FORUM, "Tisch 1")
    t2 = bot.api.create_topic(FORUM, "Tisch 2")
    assert "Neue Liste" in in_topic(await say(bot, "/neu Anna Bernd Carla", t1), t1)
    assert "Neue Liste" in in_topic(await say(bot, "/neu Dora Emil Frieda Gustav", t2), t2)
    # interleaved entries: each lands in its own topic's list
    one = in_topic(await say(bot, "/spiel Anna grand ohne 1 hand gewonnen", t1), t1)
    assert "Spiel 1/36" in one
    two = in_topic(await say(bot, "/spiel Emil herz mit 2 verloren", t2), t2)
    assert "Spiel 1/48" in two
    assert "spielt in dieser Liste nicht mit" in in_topic(await say(bot, "/spiel Anna karo mit 1 g", t2), t2)
    assert "Spiel 2/36" in in_topic(await say(bot, "/spiel Bernd pik ohne 1 gewonnen", t1), t1)
    stand1 = in_topic(await say(bot, "/stand", t1), t1)
    assert "Anna" in stand1 and "Emil" not in stand1
    stand2 = in_topic(await say(bot, "/liste", t2), t2)
    assert "Emil" in stand2 and "Anna" not in stand2
    assert "Olga" in in_topic(await say(bot, "/stand", None), None)
    # the button builder opens in the topic and books there
    builder = in_topic(await say(bot, "/spiel", t1), t1)
    assert builder
    # exports per topic
    e1, e2, e0 = await export(bot, t1), await export(bot, t2), await export(bot, None)
    assert e1["players"] == ["Anna", "Bernd", "Carla"] and len(e1["games"]) == 2
    assert e2["players"] == ["Dora", "Emil", "Frieda", "Gustav"] and len(e2["games"]) == 1
    assert e0["players"] == ["Olga", "Paul", "Quirin"] and e0["games"] == []
    # the PDF of a topic goes to the topic
    pdf = await say(bot, "/pdf", t2)
    assert pdf and all(t == t2 for t, _ in pdf)


async def test_rules_and_deletion_are_per_topic(bot: Bot) -> None:
    bot.api.add_forum(FORUM, title="Skatclub")
    t1 = bot.api.create_topic(FORUM, "Tisch 1")
    t2 = bot.api.create_topic(FORUM, "Tisch 2")
    bot.api.set_admins(FORUM, [1])
    await say(bot, "/regeln haus", t1)
    await say(bot, "/neu Anna Bernd Carla", t1)
    await say(bot, "/neu Dora Emil Frieda", t2)
    assert (await export(bot, t1))["rules"] == "haus"
    assert (await export(bot, t2))["rules"] == "isko"
    in_topic(await say(bot, "/loeschen", t1), t1)
    confirm = [m for m in bot.api.messages(FORUM, thread_id=t1) if m.buttons]
    data = confirm[-1].buttons[0][0]["callback_data"]
    uid = bot.api.push_callback(data, message_id=confirm[-1].message_id, chat_id=FORUM)
    await bot.api.wait_confirmed(uid, timeout=15)
    assert "läuft keine Liste" in in_topic(await say(bot, "/stand", t1), t1)
    assert "Dora" in in_topic(await say(bot, "/stand", t2), t2)


async def test_a_reply_thread_in_an_ordinary_supergroup_is_no_topic(bot: Bot) -> None:
    chat = -1007
    await bot.say("/neu Anna Bernd Carla", chat_id=chat)
    # a reply in a supergroup without topics carries message_thread_id, but no is_topic_message
    uid = bot.api.push_update(
        {
            "message": {
                "message_id": 9001,
                "message_thread_id": 1,
                "from": {"id": 1, "is_bot": False, "first_name": "Spieler"},
                "chat": {"id": chat, "type": "supergroup", "title": "Skatrunde"},
                "date": 0,
                "text": "/spiel Anna grand ohne 1 hand gewonnen",
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
            }
        }
    )
    await bot.api.wait_confirmed(uid, timeout=15)
    stand = await bot.text("/stand", chat_id=chat)
    assert "Anna 122" in stand  # booked into the chat's own list
