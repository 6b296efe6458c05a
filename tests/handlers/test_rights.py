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
owner); only the admins may delete everything; a name is linked to a person only. A
placeholder is never asked about with getChatMember (Telegram would answer "member" for it).

The routes that are Telegram glue run only here: ``/anheften`` (it sends and pins before it
writes) and the delete confirmation's button (it asks getChatMember for the tapper).
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class Wire:
    """A command sent after the setup (an older list of someone else, closed, then the
    newest list by the identity's author); the identities ``allowed`` succeed."""

    message: str
    allowed: frozenset[str]
    asks: str = ""  # sent first by the same identity: the question a confirmation answers

    @property
    def route(self) -> str:
        return self.message.split()[0].removeprefix("/")

    @property
    def identities(self) -> tuple[str, ...]:
        return tuple(IDENTITIES)


EVERYONE = frozenset(IDENTITIES)
ANONYMOUS_ADMIN = frozenset({"anonymous admin"})
# as in the matrix of the use cases; /anheften is Telegram glue and runs only here
COMMANDS: dict[str, Wire] = {
    "/spiel": Wire("/spiel Xaver grand ohne 1 hand gewonnen", EVERYONE),
    "/loeschen liste": Wire("/loeschen liste ja", ANONYMOUS_ADMIN, asks="/loeschen liste"),
    "/loeschen": Wire("/loeschen ja", ANONYMOUS_ADMIN, asks="/loeschen"),
    "/anheften": Wire("/anheften", EVERYONE),
    # a name is linked to a person: never to the group or a channel (all who post so)
    "/ich NAME": Wire("/ich Xaver", frozenset()),
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
    wire = COMMANDS[command]
    message, allowed = wire.message, wire.allowed
    actor, author = IDENTITIES[identity]
    # an older list of someone else (closed), then the newest list by ``author``
    other = {"user_id": OTHER}
    await accepted(bot, "/neu Anna Bernd Carla", other)
    await accepted(bot, "/spiel Anna grand ohne 1 hand gewonnen", other)
    await accepted(bot, "/abschluss ja", other)
    await accepted(bot, "/neu Xaver Yvonne Zora", author)
    await accepted(bot, "/spiel Yvonne herz mit 2 gewonnen", other)
    if wire.asks:  # the question the confirmation answers, asked by the same identity
        await send(bot, wire.asks, actor)
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


# The delete confirmation's button (Telegram glue: it asks getChatMember for the tapper). A
# button is tapped by a person's own account; the question is asked by the tapper where they
# may ask it, else by someone who may (the member tapping an admin's question: the attack).
TAPPERS = {"member": 9, "creator": CREATOR, "admin": ADMIN}
DELETE: dict[str, tuple[str, str, frozenset[str]]] = {
    # what goes -> (the question, its button, who may tap it)
    "everything": ("/loeschen", "Ja, alles löschen", frozenset({"admin"})),
    "the list": ("/loeschen liste", "Ja, diese Liste löschen", frozenset({"creator", "admin"})),
}
# the routes this file's cells run (the matrix of the use cases counts them as covered)
COVERED = {wire.route for wire in COMMANDS.values()} | {"delete"}
TAPS = [pytest.param(what, who, id=f"{what} · {who}") for what in DELETE for who in TAPPERS]


@pytest.mark.parametrize(("what", "tapper"), TAPS)
async def test_the_delete_confirmation(bot: Bot, what: str, tapper: str) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    question, label, allowed = DELETE[what]
    other = {"user_id": OTHER}
    await accepted(bot, "/neu Anna Bernd Carla", other)
    await accepted(bot, "/spiel Anna grand ohne 1 hand gewonnen", other)
    await accepted(bot, "/abschluss ja", other)
    await accepted(bot, "/neu Xaver Yvonne Zora", {"user_id": CREATOR})
    await accepted(bot, "/spiel Yvonne herz mit 2 gewonnen", other)
    asker = tapper if tapper in allowed else min(allowed)
    await accepted(bot, question, {"user_id": TAPPERS[asker]})
    ask = bot.api.messages(CHAT)[-1]
    markup = ask.reply_markup or {}
    data = next(
        b["callback_data"]
        for row in markup.get("inline_keyboard", [])
        for b in row
        if label in b["text"]
    )
    before, calls = dump(bot), len(bot.api.calls)
    uid = bot.api.push_callback(
        data, message_id=ask.message_id, chat_id=CHAT, user_id=TAPPERS[tapper]
    )
    await bot.api.wait_confirmed(uid, timeout=15)
    out = replies(bot.api.calls[calls:], CHAT, bot.refusals)
    text = "\n".join(r.text for r in out)
    if tapper in allowed:
        assert out and not any(r.refusal for r in out), (what, tapper, text)
        assert "Gelöscht" in text and dump(bot) != before, (what, tapper, text)
    else:
        # the refusal is the tapper's alone (docs/ephemeral.md): nothing in the group
        assert out == [], (what, tapper, text)
        (only,) = bot.api.ephemeral_messages(CHAT, TAPPERS[tapper])
        assert only.text.startswith("⚠️") and "👉" in only.text, only.text
        assert dump(bot) == before, (what, tapper)
