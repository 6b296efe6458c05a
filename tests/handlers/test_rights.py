"""Who may do what, as Telegram transmits who writes: the identities that exist only on the
wire, through the real bot on the strict stand-in. The whole rights matrix runs on the use
cases (tests/usecases/place/test_rights.py), where the harness sends these identities as
``runtime.sender_of`` and ``admin.is_chat_admin`` read them; here Telegram's own form is sent
and the same cells must come out the same.

The wire forms: an anonymous admin (``from`` is GroupAnonymousBot, ``sender_chat`` the group
itself), a channel (``from`` is Channel_Bot, ``sender_chat`` the channel) and Telegram's
placeholder users without ``sender_chat`` (1087968824, 136817688, 777000). One command of each
kind of right: everyone may book; the list's creator and the admins may delete the list (the
identity created it itself, so creating something never makes a channel or a placeholder its
owner); only the admins may delete everything. A placeholder is never asked about with
getChatMember (Telegram would answer "member" for it).
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from skatbot.storage.schema import metadata
from skatbot.usecases.common.reply import PLACEHOLDER_IDS, TELEGRAM_SERVICE_ID
from tests.helpers import Bot, Reply, replies
from tests.standin.fake_telegram import ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID

CHAT = -1001
ADMIN, CREATOR, OTHER = 7, 1, 5
AS_GROUP = {"id": CHAT, "type": "supergroup", "title": "Skatrunde"}
CHANNEL = {"id": -1002001, "type": "channel", "title": "Kanal X"}

# identity -> (who acts, who set the list up)
Sender = dict[str, Any]
IDENTITIES: dict[str, tuple[Sender, Sender]] = {
    "anonymous admin": ({"sender_chat": AS_GROUP}, {"user_id": CREATOR}),
    "channel": ({"sender_chat": CHANNEL}, {"sender_chat": CHANNEL}),
    "placeholder 1087968824": ({"user_id": ANONYMOUS_ADMIN_ID}, {"user_id": ANONYMOUS_ADMIN_ID}),
    "placeholder 136817688": ({"user_id": CHANNEL_BOT_ID}, {"user_id": CHANNEL_BOT_ID}),
    "placeholder 777000": ({"user_id": TELEGRAM_SERVICE_ID}, {"user_id": TELEGRAM_SERVICE_ID}),
}
# command -> (the message, identities allowed), as in the matrix of the use cases
EVERYONE = set(IDENTITIES)
COMMANDS: dict[str, tuple[str, set[str]]] = {
    "/spiel": ("/spiel Xaver grand ohne 1 hand gewonnen", EVERYONE),
    "/loeschen liste ja": ("/loeschen liste ja", {"anonymous admin"}),
    "/loeschen ja": ("/loeschen ja", {"anonymous admin"}),
}


async def send(bot: Bot, message: str, sender: Sender) -> list[Reply]:
    before = len(bot.api.calls)
    update_id = bot.api.push_message(
        message,
        chat_id=CHAT,
        chat_type="supergroup",
        user_id=sender.get("user_id", 1),
        first_name="Spieler",
        sender_chat=sender.get("sender_chat"),
    )
    await bot.api.wait_confirmed(update_id, timeout=15)
    return replies(bot.api.calls[before:], CHAT, bot.refusals)


async def accepted(bot: Bot, message: str, sender: Sender) -> str:
    out = await send(bot, message, sender)
    text = "\n".join(r.text for r in out)
    assert out and not any(r.refusal for r in out), (message, text)
    return text


def dump(bot: Bot) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: what a refusal must leave exactly as it was."""

    def read(session: Any) -> dict[str, list[tuple[Any, ...]]]:
        out = {}
        for table in metadata().sorted_tables:
            rows = session.execute(select(table)).all()
            out[table.name] = sorted((tuple(r) for r in rows), key=repr)
        return out

    return bot.db.run_read(read)  # type: ignore[no-any-return]


def member_questions(bot: Bot) -> set[int]:
    return {int(c.params["user_id"]) for c in bot.api.calls if c.method == "getChatMember"}


CELLS = [pytest.param(cmd, who, id=f"{cmd} · {who}") for cmd in COMMANDS for who in IDENTITIES]


@pytest.mark.parametrize(("command", "identity"), CELLS)
async def test_wire_identities(bot: Bot, command: str, identity: str) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    message, allowed = COMMANDS[command]
    actor, author = IDENTITIES[identity]
    # an older list of someone else (closed), then the newest list by ``author``
    other = {"user_id": OTHER}
    await accepted(bot, "/neu Anna Bernd Carla", other)
    await accepted(bot, "/spiel Anna grand ohne 1 hand gewonnen", other)
    await accepted(bot, "/abschluss ja", other)
    await accepted(bot, "/neu Xaver Yvonne Zora", author)
    await accepted(bot, "/spiel Yvonne herz mit 2 gewonnen", other)
    before = dump(bot)
    out = await send(bot, message, actor)
    text = "\n".join(r.text for r in out)
    if identity in allowed:
        assert out and not any(r.refusal for r in out), (command, identity, text)
        assert dump(bot) != before, (command, identity, "nothing changed", text)
    else:
        assert any(r.refusal for r in out), (command, identity, text)
        assert "👉" in text, text  # every refusal names a way that works
        assert dump(bot) == before, (command, identity)
    assert not PLACEHOLDER_IDS & member_questions(bot)
