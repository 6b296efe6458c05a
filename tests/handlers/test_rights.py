"""Who may do what (the rights matrix of README.md, "Who may do what"): every cell through
the real bot on the strict stand-in. A refused command changes nothing in the database
(every table compared before and after); an allowed one does what it says.

The identities: a member (who created nothing), the person who created the list or the
tournament, a chat admin, an anonymous admin (posting as the group), a channel identity and
Telegram's placeholder users (1087968824, 136817688, 777000 without ``sender_chat``). A
channel and a placeholder run the setup themselves, so each cell also shows that creating
something never makes them its owner.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from skatbot.storage.schema import metadata
from skatbot.usecases.common.reply import TELEGRAM_SERVICE_ID
from tests.helpers import Bot, Reply, export_raw, replies
from tests.standin.fake_telegram import ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID

CHAT = -1001
TABLE = -1005  # where a tournament table plays
ADMIN, CREATOR, MEMBER, OTHER = 7, 1, 9, 5
AS_GROUP = {"id": CHAT, "type": "supergroup", "title": "Skatrunde"}
CHANNEL = {"id": -1002001, "type": "channel", "title": "Kanal X"}

# identity -> (who acts, who set the chat up)
Sender = dict[str, Any]
IDENTITIES: dict[str, tuple[Sender, Sender]] = {
    "member": ({"user_id": MEMBER}, {"user_id": CREATOR}),
    "creator": ({"user_id": CREATOR}, {"user_id": CREATOR}),
    "admin": ({"user_id": ADMIN}, {"user_id": CREATOR}),
    "anonymous admin": ({"sender_chat": AS_GROUP}, {"user_id": CREATOR}),
    "channel": ({"sender_chat": CHANNEL}, {"sender_chat": CHANNEL}),
    "placeholder 1087968824": ({"user_id": ANONYMOUS_ADMIN_ID}, {"user_id": ANONYMOUS_ADMIN_ID}),
    "placeholder 136817688": ({"user_id": CHANNEL_BOT_ID}, {"user_id": CHANNEL_BOT_ID}),
    "placeholder 777000": ({"user_id": TELEGRAM_SERVICE_ID}, {"user_id": TELEGRAM_SERVICE_ID}),
}

# command -> (setup kind, the message, identities allowed). The README's matrix says the same.
EVERYONE = set(IDENTITIES)
MANAGERS = {"creator", "admin", "anonymous admin"}
ADMINS = {"admin", "anonymous admin"}
MATRIX: dict[str, tuple[str, str, set[str]]] = {
    "/neu": ("closed", "/neu Ute Vera Wim", EVERYONE),
    "/korrigieren": ("lists", "/korrigieren 1 Zora null gewonnen", EVERYONE),
    "/eingepasst": ("lists", "/eingepasst", EVERYONE),
    "/umbenennen": ("lists", "/umbenennen Zora Zoe", EVERYONE),
    "/abschluss": ("lists", "/abschluss ja", EVERYONE),
    "/stand": ("lists", "/stand", EVERYONE),
    "/liste": ("lists", "/liste", EVERYONE),
    "/export": ("lists", "/export", EVERYONE),
    "/loeschen ja": ("lists", "/loeschen ja", ADMINS),
    "/loeschen liste ja": ("lists", "/loeschen liste ja", MANAGERS),
    "/oeffnen": ("closed", "/oeffnen", MANAGERS),
    "/spiel": ("lists", "/spiel Xaver grand ohne 1 hand gewonnen", EVERYONE),
    "/storno": ("lists", "/storno 1", EVERYONE),
    "/einsatz": ("lists", "/einsatz 2 ct", EVERYONE),
    "/loeschen turnier ja": ("tournament", "/loeschen turnier ja", MANAGERS),
    "/teilnehmer NAME": ("tournament", "/teilnehmer Zenzi", MANAGERS),
    "/auslosen": ("tournament", "/auslosen 4711", MANAGERS),
    "/serienlaenge": ("tournament", "/serienlaenge 24 32", MANAGERS),
    "/entfernen": ("tournament", "/entfernen Otto", MANAGERS),
    "/team": ("tournament", "/team Hilde Nord", MANAGERS),
    "/teamwertung": ("tournament", "/teamwertung beste 2", MANAGERS),
    "/preise": ("tournament", "/preise 30 € 20 €", MANAGERS),
    "/ergebnis": ("drawn", "/ergebnis Hilde 100 3 1", MANAGERS),
    "/tisch freigeben": ("linked", "/tisch freigeben 1", MANAGERS),
    "/gebuehren": ("tournament", "/gebuehren startgeld 10 €", MANAGERS),
    "/fehlend": ("drawn", "/fehlend", EVERYONE),
    "/mannschaft NAME": ("league", "/mannschaft West: Ulla, Veit, Wanda", MANAGERS),
    "/spieltag": ("league", "/spieltag 1", MANAGERS),
    "/aufstellung": ("league day", "/aufstellung Nord: Anna, Bernd, Dora", MANAGERS),
    "/setzen": ("league day", "/setzen", MANAGERS),
    "/tabelle": ("league day", "/tabelle", EVERYONE),
    "/liga serien": ("league", "/liga serien 4", MANAGERS),
    "/ergebnis (Liga)": ("league seated", "/ergebnis Anna 100 1 0", MANAGERS),
    "/wechsel": ("league seated", "/wechsel Nord Dora für Anna", MANAGERS),
    "/sitzplan": ("league seated", "/sitzplan", EVERYONE),
}
READ_ONLY = {"/stand", "/liste", "/export", "/fehlend", "/tabelle", "/sitzplan"}


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


async def setup(bot: Bot, kind: str, by: Sender) -> None:
    """An older list of someone else (closed), then the newest list by ``by``; or a
    tournament started by ``by`` (``drawn``: and its first series drawn)."""
    other = {"user_id": OTHER}
    if kind in ("lists", "closed"):
        await accepted(bot, "/neu Anna Bernd Carla", other)
        await accepted(bot, "/spiel Anna grand ohne 1 hand gewonnen", other)
        await accepted(bot, "/abschluss ja", other)
        await accepted(bot, "/neu Xaver Yvonne Zora", by)
        await accepted(bot, "/spiel Yvonne herz mit 2 gewonnen", other)
        if kind == "closed":
            await accepted(bot, "/abschluss ja", other)
        return
    if kind.startswith("league"):  # a league started by ``by``, its teams by an admin
        await accepted(bot, "/liga Testliga", by)
        await accepted(
            bot,
            "/mannschaft Nord: Anna, Bernd, Carla, Ersatz Dora\nSüd: Emil, Frida, Gert\n"
            "Ost: Hilde, Ines, Jost",
            {"user_id": ADMIN},
        )
        if kind in ("league day", "league seated"):
            await accepted(bot, "/spieltag 1", {"user_id": ADMIN})
        if kind == "league seated":
            await accepted(bot, "/setzen", {"user_id": ADMIN})
        return
    await accepted(bot, "/turnier Preisskat", by)
    names = "/teilnehmer Hilde, Kuno, Walli, Otto, Paula, Quirin"
    await accepted(bot, names, {"user_id": ADMIN})
    if kind in ("drawn", "linked"):
        await accepted(bot, "/auslosen 4711", {"user_id": ADMIN})
    if kind == "linked":  # table 1 plays elsewhere, linked with the draw's deep link
        draw = [m for m in bot.api.messages(CHAT) if m.buttons][-1]
        url = draw.buttons[0][0]["url"]
        payload = url.split("startgroup=", 1)[1]
        update_id = bot.api.push_message(f"/start {payload}", chat_id=TABLE, user_id=OTHER)
        await bot.api.wait_confirmed(update_id, timeout=15)
        assert "Serie 1 · Tisch 1" in (bot.api.messages(TABLE)[-1].text or "")


CELLS = [pytest.param(cmd, who, id=f"{cmd} · {who}") for cmd in MATRIX for who in IDENTITIES]


@pytest.mark.parametrize(("command", "identity"), CELLS)
async def test_rights_matrix(bot: Bot, command: str, identity: str) -> None:
    bot.api.set_admins(CHAT, [ADMIN])
    kind, message, allowed = MATRIX[command]
    actor, author = IDENTITIES[identity]
    await setup(bot, kind, author)
    before = dump(bot)
    out = await send(bot, message, actor)
    text = "\n".join(r.text for r in out)
    if identity in allowed:
        assert out and not any(r.refusal for r in out), (command, identity, text)
        if command not in READ_ONLY:
            assert dump(bot) != before, (command, identity, "nothing changed", text)
        else:
            assert dump(bot) == before
    else:
        assert any(r.refusal for r in out), (command, identity, text)
        assert "👉" in text, text  # every refusal names a way that works
        assert dump(bot) == before, (command, identity)


async def test_a_member_cannot_wipe_the_chat_by_starting_the_newest_list(bot: Bot) -> None:
    """The attack: close the running list (anyone may), start a new one (and so create the
    newest list), then delete - it must take only that new list, never the older ones."""
    bot.api.set_admins(CHAT, [ADMIN])
    players = {"user_id": OTHER}
    for first, second, third in (("Anna", "Bernd", "Carla"), ("Dora", "Emil", "Fritz")):
        await accepted(bot, f"/neu {first} {second} {third}", players)
        await accepted(bot, f"/spiel {first} grand ohne 1 hand gewonnen", players)
        await accepted(bot, f"/spiel {second} herz mit 2 verloren", players)
        if first == "Anna":
            await accepted(bot, "/abschluss ja", players)
    member = {"user_id": MEMBER}
    await accepted(bot, "/abschluss ja", member)
    await accepted(bot, "/neu X Y Z", member)
    export_before, before = await export_raw(bot), dump(bot)
    for message in ("/loeschen", "/loeschen ja"):
        out = await send(bot, message, member)
        text = "\n".join(r.text for r in out)
        assert any(r.refusal for r in out), text
        assert "Löschen dürfen nur die Admins" in text, text
        assert "👉 Deine Liste allein löschen: /loeschen liste" in text, text
    assert await export_raw(bot) == export_before
    assert dump(bot) == before
    # what the member may delete is the list they started, and the reply says exactly that
    warning = await accepted(bot, "/loeschen liste", member)
    assert "Liste Nr. 3 (X, Y, Z; laufend) mit 0 Spielen" in warning, warning
    assert "Die 2 anderen Listen und alles andere in diesem Chat bleiben." in warning, warning
    gone = await accepted(bot, "/loeschen liste ja", member)
    assert "Gelöscht: Liste Nr. 3 (X, Y, Z; laufend) mit 0 Spielen." in gone, gone
    assert "Es bleiben 2 Listen mit 4 Spielen" in gone, gone
    # the older lists are all still there; a second go reaches the other person's list: refused
    out = await send(bot, "/loeschen liste ja", member)
    assert any(r.refusal for r in out)
    assert "(hat die Liste angelegt)" in "\n".join(r.text for r in out)


async def test_changing_the_stake_of_a_running_list_is_announced(bot: Bot) -> None:
    await accepted(bot, "/einsatz 1 ct", {"user_id": OTHER})
    await accepted(bot, "/neu Anna Bernd Carla", {"user_id": OTHER})
    quiet = await accepted(bot, "/einsatz 1 ct", {"user_id": OTHER})
    assert "An alle am Tisch" not in quiet  # no game yet, nothing changes for anyone
    await accepted(bot, "/spiel Anna grand ohne 1 hand gewonnen", {"user_id": OTHER})
    text = await accepted(bot, "/einsatz 5 ct", {"user_id": MEMBER})
    assert "📣 An alle am Tisch:" in text, text
    assert "1 ct pro Punkt" in text and "5 ct pro Punkt" in text, text
    assert "gilt auch für das Spiel, das schon gespielt ist" in text, text
    assert "Zurück: /einsatz 1 ct paarweise" in text, text  # the line that undoes it
    await accepted(bot, "/spiel Bernd grand ohne 1 hand gewonnen", {"user_id": OTHER})
    text = await accepted(bot, "/einsatz aus", {"user_id": MEMBER})
    assert "gilt auch für die 2 Spiele, die schon gespielt sind" in text, text
    assert "Zurück: /einsatz 5 ct paarweise" in text, text
