"""A tournament table always reaches its signatures, through the real bot on the strict
stand-in: when the sign message is gone, ``/unterschreiben`` (or ``/abschluss`` at the
closed list) posts it again with who has signed and who is missing, its buttons complete
the table as the first message's would, and those keep working too. Nothing the bot says at
a table of a Preisskat or a league names ``/weiter`` or ``/neu``, which start no table's
next list; both are refused there with what to do instead."""

from __future__ import annotations

import re

from skatbot.standin.botapi import BotMessage
from tests.handlers.test_table_lists import (
    SIGN_LABEL,
    claim,
    data_of,
    ok,
    refused,
    send,
    sign_message,
    tap,
)
from tests.helpers import Bot
from tests.usecases.tournament.test_table_lists import MANAGER, USER, WON

DESK, TABLE = -1009301, -1009302
PLAYERS = ["Anna", "Bernd", "Carla"]
NAMES_THEM = re.compile(r"/weiter\b|/neu\b")


def table_code(draw: str) -> str:
    return re.findall(r"→ /tisch (\w+)", draw)[0]


async def closed_table(bot: Bot) -> None:
    """A Preisskat of three, its one table played in its own group and closed: the sign
    message is posted, nobody has signed."""
    await ok(bot, "/turnier Preisskat", DESK)
    await ok(bot, "/teilnehmer " + ", ".join(PLAYERS), DESK)
    await ok(bot, "/serienlaenge 3 4", DESK)
    draw = await ok(bot, "/auslosen 5", DESK)
    await ok(bot, f"/tisch {table_code(draw)}", TABLE)
    for name in PLAYERS:
        await ok(bot, f"/spiel {name} {WON}", TABLE, user_id=USER[name])
    await ok(bot, "/abschluss", TABLE)
    for seat, name in enumerate(PLAYERS):  # each is linked at the table, a neighbour confirms
        await claim(bot, name, TABLE, None, USER[PLAYERS[seat - 1]] if seat else MANAGER)


async def sign(bot: Bot, msg: BotMessage, name: str) -> str:
    notice = await tap(bot, msg, f"{data_of(msg, SIGN_LABEL)}:{PLAYERS.index(name)}", USER[name])
    assert "unterschrieben" in notice or "gemeldet" in notice, notice
    return notice


def lose(bot: Bot, msg: BotMessage) -> None:
    """The message is gone from the chat (deleted, as a member or an admin may)."""
    bot.api._m_deleteMessage({"chat_id": msg.chat_id, "message_id": msg.message_id}, None)


def desk_reports(bot: Bot) -> list[str]:
    return [m.text or "" for m in bot.api.messages(DESK) if (m.text or "").startswith("📥")]


async def test_a_lost_sign_message_is_posted_again_and_its_buttons_complete_the_table(
    bot: Bot,
) -> None:
    await closed_table(bot)
    first = sign_message(bot, TABLE, None)
    await sign(bot, first, "Anna")
    lose(bot, first)
    assert not [m for m in bot.api.messages(TABLE) if (m.text or "").startswith("✍️")]

    again = await ok(bot, "/unterschreiben", TABLE, user_id=USER["Bernd"])
    assert "Unterschrieben: Anna · es fehlen: Bernd, Carla." in again, again
    assert "✅ Anna" in again and "⬜ Bernd" in again and "⬜ Carla" in again, again
    posted = sign_message(bot, TABLE, None)
    assert posted.message_id != first.message_id
    await sign(bot, posted, "Bernd")
    assert not desk_reports(bot)
    await sign(bot, posted, "Carla")  # the last signature: the table reports itself
    assert len(desk_reports(bot)) == 1, desk_reports(bot)
    reported = await ok(bot, "/unterschreiben", TABLE)
    assert "alle haben unterschrieben" in reported, reported


async def test_the_first_messages_buttons_keep_working_beside_the_posted_one(bot: Bot) -> None:
    await closed_table(bot)
    first = sign_message(bot, TABLE, None)
    await ok(bot, "/unterschreiben", TABLE)
    assert sign_message(bot, TABLE, None).message_id != first.message_id
    for name in PLAYERS:
        await sign(bot, first, name)
    assert len(desk_reports(bot)) == 1, desk_reports(bot)


async def test_abschluss_at_the_closed_table_list_posts_the_sign_message_again(
    bot: Bot,
) -> None:
    await closed_table(bot)
    first = sign_message(bot, TABLE, None)
    lose(bot, first)
    again = await ok(bot, "/abschluss", TABLE, user_id=USER["Carla"])
    assert "Noch hat niemand unterschrieben · es fehlen: Anna, Bernd, Carla." in again, again
    posted = sign_message(bot, TABLE, None)
    for name in PLAYERS:
        await sign(bot, posted, name)
    assert len(desk_reports(bot)) == 1, desk_reports(bot)


async def test_unterschreiben_while_the_table_plays_says_to_finish_first(bot: Bot) -> None:
    await ok(bot, "/turnier Preisskat", DESK)
    await ok(bot, "/teilnehmer " + ", ".join(PLAYERS), DESK)
    draw = await ok(bot, "/auslosen 5", DESK)
    await ok(bot, f"/tisch {table_code(draw)}", TABLE)
    text = await refused(bot, "/unterschreiben", TABLE, None, "läuft noch", "/abschluss")
    assert not NAMES_THEM.search(text), text
    # where no table plays, the command says where it works
    await refused(bot, "/unterschreiben", -1009309, None, "Tisch")


# --- nothing at a table names /weiter or /neu ---------------------------------------------------

# What a table sends and is sent, running and closed: games, reads, mistakes, help.
AT_A_TABLE = (
    "/hilfe",
    "/start",
    "/stand",
    "/liste",
    "/spiel Zora grand mit 1 gewonnen",
    "/weiter",
    "/neu Anna Bernd Carla",
    "/neu",
    "/unterschreiben",
    "/regeln",
)
AFTER_CLOSING = (*AT_A_TABLE, "/abschluss", "/spiel Anna grand mit 1 gewonnen", "/regeln haus")


async def say_all(bot: Bot, chat: int, messages: tuple[str, ...]) -> list[tuple[str, str]]:
    """(message, text) of everything the bot sent in answer to each message."""
    out = []
    for message in messages:
        out += [(message, text) for text, _ in await send(bot, message, chat)]
    return out


def naming_them(seen: list[tuple[str, str]]) -> list[str]:
    return [f"{message} → {text}" for message, text in seen if NAMES_THEM.search(text)]


async def test_no_text_at_a_tournament_table_names_weiter_or_neu(bot: Bot) -> None:
    await ok(bot, "/turnier Preisskat", DESK)
    await ok(bot, "/teilnehmer " + ", ".join(PLAYERS), DESK)
    await ok(bot, "/serienlaenge 3 4", DESK)
    draw = await ok(bot, "/auslosen 5", DESK)
    seen = await say_all(bot, TABLE, (f"/tisch {table_code(draw)}",))
    seen += await say_all(bot, TABLE, AT_A_TABLE)
    seen += await say_all(bot, TABLE, ("/abschluss", "/abschluss ja"))  # empty: refused
    for name in PLAYERS:
        seen += await say_all(bot, TABLE, (f"/spiel {name} {WON}",))
    seen += await say_all(bot, TABLE, ("/abschluss",))
    seen += await say_all(bot, TABLE, AFTER_CLOSING)
    assert len(seen) > len(AT_A_TABLE) + len(AFTER_CLOSING), seen
    named = naming_them(seen)
    assert not named, "\n\n".join(named)
    weiter = [t for m, t in seen if m == "/weiter"]
    assert weiter and all("nächste Serie: /tisch CODE" in t for t in weiter), weiter


async def test_no_text_at_a_league_table_names_weiter_or_neu(bot: Bot) -> None:
    league, table = -1009311, -1009312
    await ok(bot, "/liga Kreisliga", league)
    await ok(
        bot,
        "/mannschaft Nord: Anna, Bernd, Carla, Dora\nSüd: Fritz, Gabi, Hans, Inge\n"
        "Ost: Karl, Lena, Max, Nina",
        league,
    )
    await ok(bot, "/spieltag 1 Reken", league)
    seating = await ok(bot, "/setzen", league)
    found = re.search(r"Tisch 1 \(.*?/tisch (L\w{6})\)", seating)
    assert found is not None, seating
    seen = await say_all(bot, table, (f"/tisch {found.group(1)}",))
    players = re.search(r"Neue Liste: (.+?) – ", "\n".join(t for _, t in seen))
    assert players is not None, seen
    seen += await say_all(bot, table, AT_A_TABLE)
    for name in players.group(1).split(", "):
        seen += await say_all(bot, table, (f"/spiel {name} {WON}",))
    seen += await say_all(bot, table, ("/abschluss ja",))
    seen += await say_all(bot, table, AFTER_CLOSING)
    named = naming_them(seen)
    assert not named, "\n\n".join(named)
    signs = [t for m, t in seen if m == "/unterschreiben"]
    assert any("nicht unterschrieben" in t for t in signs), signs
