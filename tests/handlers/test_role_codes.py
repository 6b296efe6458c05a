"""A role's code through Telegram: the leader answers the person's message at the desk, the
code goes to that person's private chat; where the bot may not write first (the stand-in
refuses as Telegram: "bot can't initiate conversation with a user"), the desk gets a link
button instead, and only the person named gets the code from it. The desk never shows a code.
The rest (single use, expiry, every refusal) runs on the use cases:
tests/usecases/league/test_roles.py."""

from __future__ import annotations

import re
import time

from skatbot.handlers import durable
from skatbot.usecases.common.reply import Post, Reply
from tests.helpers import Bot, ok, refused
from tests.standin.fake_telegram import BOT_USERNAME

DESK = -1001
TEAMS = (
    "/mannschaft Nord: Anna, Bernd, Carla, Dora\n"
    "Süd: Fritz, Gabi, Hans, Inge\n"
    "Ost: Karl, Lena, Max, Nina"
)
CODE = re.compile(r"\b[KA][A-Z0-9]{7}\b")


async def answer(bot: Bot, text: str, to_user: int, *, user_id: int = 1) -> None:
    """``text`` by ``user_id`` at the desk, answering the latest message of ``to_user``."""
    hello = bot.api.push_message("Hallo", chat_id=DESK, user_id=to_user, first_name=f"U{to_user}")
    await bot.api.wait_confirmed(hello)
    replied = bot.api.user_messages[hello]["message_id"]
    update_id = bot.api.push_message(
        text, chat_id=DESK, user_id=user_id, first_name="Gerd", reply_to=replied
    )
    await bot.api.wait_confirmed(update_id)
    await bot.delivered()


async def private(bot: Bot, text: str, user_id: int) -> str:
    """``text`` in ``user_id``'s private chat with the bot; the bot's answer there."""
    before = len(bot.api.messages(user_id))
    update_id = bot.api.push_message(
        text, chat_id=user_id, user_id=user_id, first_name=f"U{user_id}", chat_type="private"
    )
    await bot.api.wait_confirmed(update_id)
    return "\n".join(m.text or "" for m in bot.api.messages(user_id)[before:])


def desk_text(bot: Bot) -> str:
    return "\n".join(m.text or "" for m in bot.api.messages(DESK))


async def test_the_code_goes_privately_or_through_a_link_only_its_person_can_use(
    bot: Bot,
) -> None:
    await ok(bot, "/liga Bezirksliga", user_id=1, name="Gerd")
    await ok(bot, TEAMS, user_id=1, name="Gerd")
    await ok(bot, "/spieltag 1 Reken", user_id=1, name="Gerd")
    # Fritz wrote to the bot before: his code arrives in his private chat
    await private(bot, "/start", 31)
    await answer(bot, "/kapitaen Süd", 31)
    sent = bot.api.messages(31)[-1].text or ""
    code = re.search(r"/kapitaen (K\w{7})", sent)
    assert code is not None, sent
    assert "geht privat an U31" in desk_text(bot)
    assert "ist Kapitän von „Süd“" in await private(bot, f"/kapitaen {code[1]}", 31)

    # Hugo never wrote to the bot: Telegram refuses the private message, the desk gets a link
    await answer(bot, "/ausrichter", 20)
    refusals = [
        c
        for c in bot.api.calls
        if c.method == "sendMessage" and c.params.get("chat_id") == 20 and not c.ok
    ]
    assert refusals and "can't initiate conversation" in (refusals[0].error or "")
    fallback = bot.api.messages(DESK)[-1]
    assert "U20 hat mir noch nie privat geschrieben" in (fallback.text or "")
    url = fallback.buttons[0][0]["url"]
    token = re.fullmatch(rf"https://t\.me/{BOT_USERNAME}\?start=(code_[\w-]+)", url)
    assert token is not None, url
    # the group never saw a code
    assert not CODE.findall(desk_text(bot)), desk_text(bot)
    # a stranger who taps the button gets nothing; Hugo gets his code
    other = await private(bot, f"/start {token[1]}", 99)
    assert "für U20 bestimmt" in other and not CODE.findall(other), other
    got = await private(bot, f"/start {token[1]}", 20)
    assert "Ausrichter von Spieltag 1" in got, got
    host = re.search(r"/ausrichter (A\w{7})", got)
    assert host is not None, got
    await refused(bot, f"/ausrichter {host[1]}", "für U20 bestimmt", chat_id=-3003, user_id=99)


def test_a_fallback_survives_the_outbox() -> None:
    """A private message waiting in the outbox over a restart keeps its fallback."""
    fallback = Reply("📭 Code abholen", buttons=((("🔑 Code abholen", "https://t.me/x"),),))
    reply = Reply("🔑 geheim", instead=Post(-1001, 7, fallback))
    payload, blob = durable.encode(reply)
    back, _, _ = durable.decode(payload, blob)
    assert back == reply


async def test_a_text_mention_names_the_person(bot: Bot) -> None:
    """A member picked by name without @username (a text mention) is named by their id."""
    await ok(bot, "/liga Bezirksliga", user_id=1, name="Gerd")
    await ok(bot, TEAMS, user_id=1, name="Gerd")
    await private(bot, "/start", 41)
    text = "/kapitaen Ost Karl"
    update_id = bot.api.push_update(
        {
            "message": {
                "message_id": 9001,
                "from": {"id": 1, "is_bot": False, "first_name": "Gerd"},
                "chat": {"id": DESK, "type": "group", "title": "Skatrunde"},
                "date": int(time.time()),
                "text": text,
                "entities": [
                    {"type": "bot_command", "offset": 0, "length": 9},
                    {
                        "type": "text_mention",
                        "offset": text.index("Karl"),
                        "length": 4,
                        "user": {"id": 41, "is_bot": False, "first_name": "Karl"},
                    },
                ],
            }
        }
    )
    await bot.api.wait_confirmed(update_id)
    assert "geht privat an Karl" in desk_text(bot)
    assert re.search(r"/kapitaen K\w{7}", bot.api.messages(41)[-1].text or "")
    assert not CODE.findall(desk_text(bot))
