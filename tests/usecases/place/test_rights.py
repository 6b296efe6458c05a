"""Who may do what (the rights matrix of README.md, "Who may do what"): every cell on the
use cases (the ``chat`` harness). A refused command changes nothing in the database (every
table compared before and after); an allowed one does what it says.

The identities: a member (who created nothing), the person who created the list or the
tournament, a chat admin, an anonymous admin (posting as the group), a channel identity and
Telegram's placeholder users (1087968824, 136817688, 777000 without ``sender_chat``). A
channel and a placeholder run the setup themselves, so each cell also shows that creating
something never makes them its owner.

The harness sends an anonymous admin and a channel as the chat they post for, and a
placeholder as nobody, as ``runtime.sender_of`` and ``admin.is_chat_admin`` read Telegram's
messages; that Telegram's wire form of these identities comes out so is tested through the
real bot in tests/handlers/test_rights.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from skatbot.storage.schema import metadata
from skatbot.usecases.common.reply import ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID, TELEGRAM_SERVICE_ID
from tests.harness import Harness
from tests.helpers import Reply, export_raw

CHAT = -1001
TABLE = -1005  # where a tournament table plays
ADMIN, CREATOR, MEMBER, OTHER = 7, 1, 9, 5
AS_GROUP = (CHAT, "Skatrunde")  # sender_chat: the group itself
CHANNEL = (-1002001, "Kanal X")

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


async def send(chat: Harness, message: str, sender: Sender) -> list[Reply]:
    return await chat.say(
        message,
        chat_id=CHAT,
        user_id=sender.get("user_id", 1),
        name="Spieler",
        sender_chat=sender.get("sender_chat"),
    )


async def accepted(chat: Harness, message: str, sender: Sender) -> str:
    out = await send(chat, message, sender)
    text = "\n".join(r.text for r in out)
    assert out and not any(r.refusal for r in out), (message, text)
    return text


def dump(chat: Harness) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: what a refusal must leave exactly as it was."""

    def read(session: Any) -> dict[str, list[tuple[Any, ...]]]:
        out = {}
        for table in metadata().sorted_tables:
            rows = session.execute(select(table)).all()
            out[table.name] = sorted((tuple(r) for r in rows), key=repr)
        return out

    return chat.db.run_read(read)  # type: ignore[no-any-return]


async def setup(chat: Harness, kind: str, by: Sender) -> None:
    """An older list of someone else (closed), then the newest list by ``by``; or a
    tournament started by ``by`` (``drawn``: and its first series drawn)."""
    other = {"user_id": OTHER}
    if kind in ("lists", "closed"):
        await accepted(chat, "/neu Anna Bernd Carla", other)
        await accepted(chat, "/spiel Anna grand ohne 1 hand gewonnen", other)
        await accepted(chat, "/abschluss ja", other)
        await accepted(chat, "/neu Xaver Yvonne Zora", by)
        await accepted(chat, "/spiel Yvonne herz mit 2 gewonnen", other)
        if kind == "closed":
            await accepted(chat, "/abschluss ja", other)
        return
    if kind.startswith("league"):  # a league started by ``by``, its teams by an admin
        await accepted(chat, "/liga Testliga", by)
        await accepted(
            chat,
            "/mannschaft Nord: Anna, Bernd, Carla, Ersatz Dora\nSüd: Emil, Frida, Gert\n"
            "Ost: Hilde, Ines, Jost",
            {"user_id": ADMIN},
        )
        if kind in ("league day", "league seated"):
            await accepted(chat, "/spieltag 1", {"user_id": ADMIN})
        if kind == "league seated":
            await accepted(chat, "/setzen", {"user_id": ADMIN})
        return
    await accepted(chat, "/turnier Preisskat", by)
    names = "/teilnehmer Hilde, Kuno, Walli, Otto, Paula, Quirin"
    await accepted(chat, names, {"user_id": ADMIN})
    if kind in ("drawn", "linked"):
        await accepted(chat, "/auslosen 4711", {"user_id": ADMIN})
    if kind == "linked":  # table 1 plays elsewhere, linked with the draw's deep link
        url = chat.last(CHAT, with_buttons=True).buttons[0][0][1]
        payload = url.split("startgroup=", 1)[1]
        await chat.say(f"/start {payload}", chat_id=TABLE, user_id=OTHER)
        assert "Serie 1 · Tisch 1" in chat.last(TABLE).text


CELLS = [pytest.param(cmd, who, id=f"{cmd} · {who}") for cmd in MATRIX for who in IDENTITIES]


@pytest.mark.parametrize(("command", "identity"), CELLS)
async def test_rights_matrix(chat: Harness, command: str, identity: str) -> None:
    chat.set_admins(CHAT, ADMIN)
    kind, message, allowed = MATRIX[command]
    actor, author = IDENTITIES[identity]
    await setup(chat, kind, author)
    before = dump(chat)
    out = await send(chat, message, actor)
    text = "\n".join(r.text for r in out)
    if identity in allowed:
        assert out and not any(r.refusal for r in out), (command, identity, text)
        if command not in READ_ONLY:
            assert dump(chat) != before, (command, identity, "nothing changed", text)
        else:
            assert dump(chat) == before
    else:
        assert any(r.refusal for r in out), (command, identity, text)
        assert "👉" in text, text  # every refusal names a way that works
        assert dump(chat) == before, (command, identity)


async def test_a_member_cannot_wipe_the_chat_by_starting_the_newest_list(chat: Harness) -> None:
    """The attack: close the running list (anyone may), start a new one (and so create the
    newest list), then delete - it must take only that new list, never the older ones."""
    chat.set_admins(CHAT, ADMIN)
    players = {"user_id": OTHER}
    for first, second, third in (("Anna", "Bernd", "Carla"), ("Dora", "Emil", "Fritz")):
        await accepted(chat, f"/neu {first} {second} {third}", players)
        await accepted(chat, f"/spiel {first} grand ohne 1 hand gewonnen", players)
        await accepted(chat, f"/spiel {second} herz mit 2 verloren", players)
        if first == "Anna":
            await accepted(chat, "/abschluss ja", players)
    member = {"user_id": MEMBER}
    await accepted(chat, "/abschluss ja", member)
    await accepted(chat, "/neu X Y Z", member)
    export_before, before = await export_raw(chat), dump(chat)
    for message in ("/loeschen", "/loeschen ja"):
        out = await send(chat, message, member)
        text = "\n".join(r.text for r in out)
        assert any(r.refusal for r in out), text
        assert "Löschen dürfen nur die Admins" in text, text
        assert "👉 Deine Liste allein löschen: /loeschen liste" in text, text
    assert await export_raw(chat) == export_before
    assert dump(chat) == before
    # what the member may delete is the list they started, and the reply says exactly that
    warning = await accepted(chat, "/loeschen liste", member)
    assert "Liste Nr. 3 (X, Y, Z; laufend) mit 0 Spielen" in warning, warning
    assert "Die 2 anderen Listen und alles andere in diesem Chat bleiben." in warning, warning
    gone = await accepted(chat, "/loeschen liste ja", member)
    assert "Gelöscht: Liste Nr. 3 (X, Y, Z; laufend) mit 0 Spielen." in gone, gone
    assert "Es bleiben 2 Listen mit 4 Spielen" in gone, gone
    # the older lists are all still there; a second go reaches the other person's list: refused
    out = await send(chat, "/loeschen liste ja", member)
    assert any(r.refusal for r in out)
    assert "(hat die Liste angelegt)" in "\n".join(r.text for r in out)


async def test_changing_the_stake_of_a_running_list_is_announced(chat: Harness) -> None:
    await accepted(chat, "/einsatz 1 ct", {"user_id": OTHER})
    await accepted(chat, "/neu Anna Bernd Carla", {"user_id": OTHER})
    quiet = await accepted(chat, "/einsatz 1 ct", {"user_id": OTHER})
    assert "An alle am Tisch" not in quiet  # no game yet, nothing changes for anyone
    await accepted(chat, "/spiel Anna grand ohne 1 hand gewonnen", {"user_id": OTHER})
    text = await accepted(chat, "/einsatz 5 ct", {"user_id": MEMBER})
    assert "📣 An alle am Tisch:" in text, text
    assert "1 ct pro Punkt" in text and "5 ct pro Punkt" in text, text
    assert "gilt auch für das Spiel, das schon gespielt ist" in text, text
    assert "Zurück: /einsatz 1 ct paarweise" in text, text  # the line that undoes it
    await accepted(chat, "/spiel Bernd grand ohne 1 hand gewonnen", {"user_id": OTHER})
    text = await accepted(chat, "/einsatz aus", {"user_id": MEMBER})
    assert "gilt auch für die 2 Spiele, die schon gespielt sind" in text, text
    assert "Zurück: /einsatz 5 ct paarweise" in text, text
