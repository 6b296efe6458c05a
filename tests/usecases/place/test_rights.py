"""Who may do what (the rights matrix of docs/rights.md, "Who may do what"): every cell on the
use cases (the ``chat`` harness). A refused command changes nothing in the database (every
table compared before and after) and its answer names a way that works (👉); an allowed one
does what it says (a write changes the database, a read changes nothing).

The identities: a member (who created nothing), the person who created the list, the
tournament or the league, a chat admin, an anonymous admin (posting as the group), a channel
identity and Telegram's placeholder users (1087968824, 136817688, 777000 without
``sender_chat``). A channel and a placeholder run the setup themselves, so each cell also
shows that creating something never makes them its owner. Some rows add the people a role
was given to: the team's captain (``/kapitaen CODE``), a decentral day's host
(``/ausrichter CODE``) and a player of a Preisskat table (linked at the desk with ``/ich``).

A command sent in another chat than the desk (a table's or a host's chat) is sent there by
every identity: "admin" and "anonymous admin" are then that chat's admins, who are nobody at
the desk.

A button is tapped by a person's own account (Telegram names the tapping user, never the
group or a channel): its rows have the member, the creator, an admin and the role.

The harness sends an anonymous admin and a channel as the chat they post for, and a
placeholder as nobody, as ``runtime.sender_of`` and ``admin.is_chat_admin`` read Telegram's
messages; that Telegram's wire form of these identities comes out so, and the routes that are
Telegram glue (``/anheften``, the delete confirmation), are tested through the real bot in
tests/handlers/test_rights.py. Both tables together cover every route of the route table
(``test_every_route_has_a_row``), and the rights page's tables say the same as they do
(``test_the_rights_page_says_what_the_matrix_tests``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from skatbot.handlers.routes import ROUTES, Kind
from skatbot.storage.schema import metadata
from skatbot.usecases.common.reply import ANONYMOUS_ADMIN_ID, CHANNEL_BOT_ID, TELEGRAM_SERVICE_ID
from skatbot.usecases.sheet.views import LIST_TAIL
from tests.harness import Harness, Message
from tests.helpers import Reply, export_raw

CHAT = -1001  # the list's chat; the desk of a tournament or a league
FAR = -1005  # another chat: where a table plays, or a decentral day's host
LEADER = 6  # an admin of the desk who sets things up (teams, participants, draws)
ADMIN = 7  # an admin of the chat the cell is sent in
CREATOR, MEMBER, OTHER = 1, 9, 5
CAPTAIN, HOST, PLAYER, NAMED = 11, 20, 12, 14
MALLORY = 66  # claims a name at a table that is not his
CHANNEL = (-1002001, "Kanal X")

# identity -> (who acts, who set the thing up); an anonymous admin posts as the chat the
# cell is sent in (``sender_chat`` None here)
Sender = dict[str, Any]
IDENTITIES: dict[str, tuple[Sender, Sender]] = {
    "member": ({"user_id": MEMBER}, {"user_id": CREATOR}),
    "creator": ({"user_id": CREATOR}, {"user_id": CREATOR}),
    "admin": ({"user_id": ADMIN}, {"user_id": CREATOR}),
    "anonymous admin": ({"sender_chat": None}, {"user_id": CREATOR}),
    "channel": ({"sender_chat": CHANNEL}, {"sender_chat": CHANNEL}),
    "placeholder 1087968824": ({"user_id": ANONYMOUS_ADMIN_ID}, {"user_id": ANONYMOUS_ADMIN_ID}),
    "placeholder 136817688": ({"user_id": CHANNEL_BOT_ID}, {"user_id": CHANNEL_BOT_ID}),
    "placeholder 777000": ({"user_id": TELEGRAM_SERVICE_ID}, {"user_id": TELEGRAM_SERVICE_ID}),
}
# the people a role was given to in the setup (the thing itself set up by the creator)
ROLES: dict[str, tuple[Sender, Sender]] = {
    "captain": ({"user_id": CAPTAIN, "name": "Anna"}, {"user_id": CREATOR}),
    "host": ({"user_id": HOST, "name": "Hugo"}, {"user_id": CREATOR}),
    "table player": ({"user_id": PLAYER, "name": "Paul"}, {"user_id": CREATOR}),
    # the person the management named for Süd's captaincy: the code went to them alone
    "named": ({"user_id": NAMED, "name": "Emil"}, {"user_id": CREATOR}),
}
TAPPERS = ("member", "creator", "admin")  # who can tap a button at all

EVERYONE = frozenset(IDENTITIES)
MANAGERS = frozenset({"creator", "admin", "anonymous admin"})
ADMINS = frozenset({"admin", "anonymous admin"})
PEOPLE = frozenset({"member", "creator", "admin"})  # a person's own account
NOBODY: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Row:
    """One right: ``message`` sent (or, with ``tap``, the button labelled ``message`` of the
    latest bot message with buttons tapped) after the setup ``setup``, in the chat ``where``;
    the identities ``allowed`` succeed, every other of the row's identities is refused.
    ``{name}`` in the message is filled from what the setup returned (codes, names)."""

    setup: str
    message: str
    allowed: frozenset[str]
    reads: bool = False  # allowed, it changes nothing
    where: int = CHAT
    tap: str | None = None  # the button route tapped
    roles: tuple[str, ...] = ()  # role identities tested besides the row's standard ones
    asks: str = ""  # sent first by the same identity: the question a confirmation answers
    readme: str = ""  # the command as the rights page's table names it (default: the row's key)
    says: str = ""  # allowed, the answer says this (what it did)

    @property
    def route(self) -> str:
        return self.tap or self.message.split()[0].removeprefix("/")

    @property
    def table(self) -> str:
        """The rights page's table that states it."""
        if self.tap:
            return "Buttons"
        if self.setup in ("host code", "hosted"):
            return "Ausrichter"
        if self.setup.startswith("league") or self.message.startswith("/liga"):
            return "Liga"
        if self.setup in TOURNAMENT_SETUPS or self.message.startswith("/turnier"):
            return "Preisskat"
        return "Lists"

    @property
    def identities(self) -> tuple[str, ...]:
        standard = TAPPERS if self.tap else tuple(IDENTITIES)
        return standard + self.roles


TOURNAMENT_SETUPS = (
    "tournament",
    "live page",
    "second tournament",
    "drawn",
    "linked",
    "reported",
    "next draw",
    "signing",
    "claimed",
)


def read(setup: str, message: str, **kw: Any) -> Row:
    return Row(setup, message, EVERYONE, reads=True, **kw)


def tap(setup: str, route: str, label: str, allowed: frozenset[str], **kw: Any) -> Row:
    return Row(setup, label, allowed, tap=route, **kw)


MATRIX: dict[str, Row] = {
    # --- a list: its games are everyone's at the table ------------------------------------
    "/neu": Row("closed", "/neu Ute Vera Wim", EVERYONE),
    "/weiter": Row("closed", "/weiter", EVERYONE),
    "/spiel": Row("lists", "/spiel Xaver grand ohne 1 hand gewonnen", EVERYONE),
    "/eingepasst": Row("lists", "/eingepasst", EVERYONE),
    "/korrigieren": Row("lists", "/korrigieren 1 Zora null gewonnen", EVERYONE),
    "/storno": Row("lists", "/storno 1", EVERYONE),
    "/umbenennen": Row("lists", "/umbenennen Zora Zoe", EVERYONE),
    "/geber": Row("lists", "/geber Zora", EVERYONE),
    "/serie": Row("lists", "/serie 36", EVERYONE),
    "/abschluss": Row("lists", "/abschluss ja", EVERYONE),
    "/einsatz": Row("lists", "/einsatz 2 ct", EVERYONE),
    # the money of an older closed list of someone else: as /oeffnen (its creator, admins)
    "/einsatz BETRAG liste N": Row("lists", "/einsatz 5 ct liste 1", ADMINS, says="Liste 1: 5 ct"),
    "/darstellung": Row("lists", "/darstellung text", EVERYONE),
    "/regeln": Row("lists", "/regeln haus", EVERYONE),
    "/ramsch": Row("ramsch", "/ramsch Anna 55", EVERYONE),
    "/bock": Row("house", "/bock", EVERYONE),
    "/krank": Row("ramsch", "/krank Anna", EVERYONE),
    "/gesund": Row("sick", "/gesund", EVERYONE),
    "/startpunkte": Row("house rules", "/startpunkte Anna 10 Bernd 5 Carla 0", EVERYONE),
    "/ich NAME": Row("lists", "/ich Xaver", PEOPLE),
    "/spieler zusammen": Row("lists", "/spieler zusammen Anna Xaver", EVERYONE),
    "/saisonregeln": Row("lists", "/saisonregeln schnitt", EVERYONE),
    # taking a change back: whoever made it (here the "creator") and the admins
    "/spielabend TAG ZEIT": Row("nothing", "/spielabend morgen 19:00", EVERYONE),
    # closing before its time ends everyone's vote: who planned it and the admins
    "/spielabend schliessen": Row(
        "game night", "/spielabend schliessen", MANAGERS, says="Umfrage geschlossen"
    ),
    "/rueckgaengig": Row("own change", "/rueckgaengig", MANAGERS, says="Zurückgenommen"),
    # someone else's change: creating the list grants nothing over it
    "/rueckgaengig OTHER": Row("lists", "/rueckgaengig", ADMINS, says="Zurückgenommen"),
    "/oeffnen": Row("closed", "/oeffnen", MANAGERS, says="Liste wieder geöffnet"),
    "/loeschen liste": Row(
        "lists", "/loeschen liste ja", MANAGERS, asks="/loeschen liste", says="Gelöscht: Liste"
    ),
    "/loeschen": Row("lists", "/loeschen ja", ADMINS, asks="/loeschen", says="Gelöscht"),
    # reading
    "/stand": read("lists", "/stand"),
    "/liste": read("lists", "/liste"),
    "/listen": read("lists", "/listen"),
    "/export": read("lists", "/export"),
    "/pdf": read("lists", "/pdf"),
    "/app": read("lists", "/app"),
    "/wert": read("lists", "/wert grand ohne 1 hand gewonnen"),
    "/abend": read("closed", "/abend"),
    "/statistik": read("closed", "/statistik"),
    "/abrechnung": read("stake", "/abrechnung"),
    "/saison": read("closed", "/saison"),
    "/vordruck": read("lists", "/vordruck 3"),
    "/spieler": read("lists", "/spieler"),
    "/ich": read("lists", "/ich"),
    "/hilfe": read("lists", "/hilfe"),
    "/help": read("lists", "/help"),
    "/start": read("lists", "/start"),
    # --- a Preisskat: its management, and its tables ---------------------------------------
    "/turnier NAME": Row("nothing", "/turnier Preisskat", EVERYONE),
    "/turnier ende": Row("tournament", "/turnier ende ja", MANAGERS, asks="/turnier ende"),
    "/teilnehmer NAME": Row("tournament", "/teilnehmer Zenzi", MANAGERS),
    "/entfernen": Row("tournament", "/entfernen Otto", MANAGERS),
    "/team NAME TEAM": Row("tournament", "/team Hilde Nord", MANAGERS),
    "/teamwertung": Row("tournament", "/teamwertung beste 2", MANAGERS),
    "/serienlaenge": Row("tournament", "/serienlaenge 24 32", MANAGERS),
    "/turnierregeln": Row("tournament", "/turnierregeln schnitt", MANAGERS),
    "/auslosen": Row("tournament", "/auslosen 4711", MANAGERS),
    "/auslosen zurück": Row("drawn", "/auslosen zurück ja", MANAGERS, asks="/auslosen zurück"),
    "/ergebnis": Row("drawn", "/ergebnis Hilde 100 2 1", MANAGERS),
    "/gebuehren": Row("tournament", "/gebuehren startgeld 10 €", MANAGERS),
    "/preise": Row("tournament", "/preise 30 € 20 €", MANAGERS),
    "/tisch freigeben": Row("linked", "/tisch freigeben 1", MANAGERS),
    # the hall's read-only link: made and revoked by the management
    "/leinwand": Row("tournament", "/leinwand", MANAGERS, says="/leinwand/"),
    "/leinwand aus": Row("live page", "/leinwand aus", MANAGERS, says="gesperrt"),
    "/loeschen turnier": Row(
        "tournament", "/loeschen turnier ja", MANAGERS, asks="/loeschen turnier"
    ),
    # an older tournament of someone else: starting the newest one grants nothing over it
    "/loeschen turnier N": Row(
        "second tournament", "/loeschen turnier 1 ja", ADMINS, asks="/loeschen turnier 1"
    ),
    "/tisch CODE": Row(
        "drawn",
        "/tisch {table}",
        frozenset({"creator", "table player"}),
        where=FAR,
        roles=("table player",),
        says="Serie 1 · Tisch 1",
    ),
    "/teilnehmer": read("tournament", "/teilnehmer"),
    "/fehlend": read("drawn", "/fehlend"),
    "/turniere": read("tournament", "/turniere"),
    "/rangliste": read("reported", "/rangliste"),
    "/urkunden": read("reported", "/urkunden"),
    "/kasse": read("reported", "/kasse"),
    # at a table: the signing message again (who signed, who is missing); it signs nothing
    "/unterschreiben": read("signing", "/unterschreiben", where=FAR, says="es fehlen"),
    # --- a league: its management, the captains, a decentral day's host --------------------
    "/liga NAME": Row("nothing", "/liga Testliga", EVERYONE),
    "/liga …": Row("league", "/liga serien 4", MANAGERS),
    "/mannschaft NAME: …": Row("league", "/mannschaft West: Ulla, Veit, Wanda", MANAGERS),
    # the person is named by a name linked at the desk (the setup: Emil, /ich Emil)
    "/kapitaen TEAM": Row(
        "league", "/kapitaen Süd Emil", MANAGERS, roles=("captain",), says="geht privat an"
    ),
    # the code leaked: only the person it was sent to becomes captain with it
    "/kapitaen CODE": Row(
        "league",
        "/kapitaen {code}",
        frozenset({"named"}),
        roles=("named",),
        says="ist Kapitän von „Süd“",
    ),
    "/spieltag": Row("league", "/spieltag 1", MANAGERS, roles=("captain",)),
    "/aufstellung TEAM: …": Row(
        "league day",
        "/aufstellung Nord: Anna, Bernd, Dora",
        MANAGERS | {"captain"},
        roles=("captain",),
    ),
    "/setzen": Row("league day", "/setzen", MANAGERS, roles=("captain",)),
    "/ergebnis (Liga)": Row(
        "league seated",
        "/ergebnis Anna 100 1 0",
        MANAGERS,
        roles=("captain",),
        readme="/ergebnis",
    ),
    # the captain of Nord changes no other team
    "/aufstellung OTHER: …": Row(
        "league day", "/aufstellung Süd: Emil, Frida, Gert", MANAGERS, roles=("captain",)
    ),
    "/wechsel": Row(
        "league seated",
        "/wechsel Nord Dora für Anna",
        MANAGERS | {"captain"},
        roles=("captain",),
    ),
    "/bestaetigen": Row(
        "league played",
        "/bestaetigen",
        frozenset({"captain"}),
        roles=("captain",),
        says="Nord bestätigt die Ergebnisse",
    ),
    "/freigeben": Row(
        "league played", "/freigeben", MANAGERS, roles=("captain",), says="freigegeben"
    ),
    "/tisch CODE (Liga)": Row(
        "league seated",
        "/tisch {table}",
        frozenset({"creator", "captain"}),
        where=FAR,
        roles=("captain",),
        readme="/tisch CODE",
        says="Serie 1 · Tisch 1",
    ),
    "/ausrichter CODE": Row(
        "host code",
        "/ausrichter {code}",
        frozenset({"host"}),
        where=FAR,
        roles=("host",),
        says="richtet hier Spieltag 1",
    ),
    "/setzen (Ausrichter)": Row(
        "hosted",
        "/setzen",
        frozenset({"host", "admin", "anonymous admin"}),
        where=FAR,
        roles=("host",),
        readme="/setzen",
        says="Serie 1",
    ),
    # a host's chat runs one day of another league: it becomes no league desk of its own
    "/liga NAME (Ausrichter)": Row(
        "hosted", "/liga Störung", NOBODY, where=FAR, roles=("host",), readme="/liga NAME"
    ),
    "/turnier NAME (Liga)": Row("league", "/turnier Störung", NOBODY, readme="/turnier NAME"),
    "/mannschaft": read("league", "/mannschaft"),
    "/aufstellung": read("league day", "/aufstellung"),
    "/sitzplan": read("league seated", "/sitzplan"),
    "/tabelle": read("league day", "/tabelle"),
    "/einzelwertung": read("league played", "/einzelwertung"),
    # --- buttons ----------------------------------------------------------------------------
    "Ja, abschließen": tap("asked", "close", "Ja, abschließen", PEOPLE),
    "Das bin ich": tap("lists", "me", "Das bin ich", PEOPLE, reads=True),
    "NAMES": tap("doubtful", "reading", "Anna", PEOPLE),
    "Korrigieren": tap("lists", "korrigieren", "Korrigieren", PEOPLE),
    "Stornieren": tap("lists", "storno", "Stornieren", PEOPLE, reads=True),
    "Ja, stornieren": tap("storno asked", "storno ja", "stornieren", PEOPLE),
    "Nein (stornieren)": tap(
        "storno asked", "storno nein", "Nein", PEOPLE, reads=True, readme="Nein"
    ),
    # under a strike of the tapper ("creator"): they and the admins (the tap asks Telegram)
    "↩️ Rückgängig": tap("struck", "undo", "Rückgängig", frozenset({"creator", "admin"})),
    "Neues Spiel": tap("lists", "new game", "Neues Spiel", PEOPLE),
    "Stand": tap("lists", "stand", "Stand", PEOPLE, reads=True),
    "◀ zurück / weiter ▶": tap(
        "long list", "liste page", "zurück", PEOPLE, reads=True, says="Zeilen 1–20"
    ),
    "Alle gesund": tap("ramsch", "gesund", "Alle gesund", PEOPLE),
    "NAME krank": tap("ramsch", "krank", "Anna krank", PEOPLE),
    "the game builder": tap("builder", "builder", "Yvonne", frozenset({"creator"})),
    "Nächste Serie auslosen": tap(
        "next draw", "next draw", "Nächste Serie auslosen", frozenset({"creator"})
    ),
    # a player signs for themself; the management for a player present without a phone
    "Unterschreiben": tap(
        "signing",
        "sign",
        "Unterschreiben",
        frozenset({"table player"}),
        where=FAR,
        roles=("table player",),
    ),
    # a name claimed at a table: confirmed by a linked player of it or the management
    "Ja, stimmt": tap(
        "claimed",
        "claim",
        "Ja, stimmt",
        frozenset({"creator", "table player"}),
        where=FAR,
        roles=("table player",),
        says="Mallory",
    ),
    "✍️ NAME": tap(
        "signing",
        "sign",
        "✍️ {absent}",
        frozenset({"creator"}),
        where=FAR,
        roles=("table player",),
    ),
}


# --- the setups ------------------------------------------------------------------------------


async def send(chat: Harness, message: str, sender: Sender, where: int = CHAT) -> list[Reply]:
    on_behalf = sender.get("sender_chat", False)
    if on_behalf is None:  # an anonymous admin: the chat it is sent in
        on_behalf = (where, "Skatrunde")
    return await chat.say(
        message,
        chat_id=where,
        user_id=sender.get("user_id", 1),
        name=sender.get("name", "Spieler"),
        sender_chat=on_behalf or None,
    )


async def accepted(chat: Harness, message: str, sender: Sender, where: int = CHAT) -> str:
    out = await send(chat, message, sender, where)
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


LEAD = {"user_id": LEADER, "name": "Gerd"}
BY_OTHER = {"user_id": OTHER}


async def nothing(chat: Harness, by: Sender) -> dict[str, str]:
    return {}


async def lists(chat: Harness, by: Sender, kind: str = "lists") -> dict[str, str]:
    """An older list of someone else (closed), then the newest list by ``by`` with a game of
    someone else (``closed``: closed; ``stake``: with a stake; ``asked``: /abschluss asked;
    ``storno asked``: its booking's Stornieren tapped; ``builder``: without a game, the game
    builder of ``by`` open; ``doubtful``: a /neu of ``by`` asking which table it means;
    ``own change``: a second game, booked by ``by``; ``struck``: the game struck by ``by``;
    ``long list``: more rows than /liste shows at once, /liste asked by someone else)."""
    await accepted(chat, "/neu Anna Bernd Carla", BY_OTHER)
    await accepted(chat, "/spiel Anna grand ohne 1 hand gewonnen", BY_OTHER)
    await accepted(chat, "/abschluss ja", BY_OTHER)
    if kind == "doubtful":  # Tom&Jerry: one name or two? /neu asks with a button per table
        await send(chat, "/neu Anna Tom&Jerry Bernd", by)
        return {}
    await accepted(chat, "/neu Xaver Yvonne Zora", by)
    if kind == "builder":  # the builder of ``by``
        await accepted(chat, "/spiel", by)
        return {}
    await accepted(chat, "/spiel Yvonne herz mit 2 gewonnen", BY_OTHER)
    if kind == "closed":
        await accepted(chat, "/abschluss ja", BY_OTHER)
    if kind == "stake":
        await accepted(chat, "/einsatz 1 ct", BY_OTHER)
    if kind == "asked":  # /abschluss before the series is full asks first
        await accepted(chat, "/abschluss", BY_OTHER)
    if kind == "storno asked":
        booking = chat.last(CHAT, with_buttons=True)
        await chat.tap(booking, "Stornieren", user_id=OTHER)
    if kind == "own change":  # the latest change is a game ``by`` booked
        await accepted(chat, "/spiel Zora null gewonnen", by)
    if kind == "struck":  # the latest change is ``by``'s strike, "↩️ Rückgängig" under it
        await accepted(chat, "/storno 1", by)
    if kind == "long list":  # more rows than /liste shows at once: it pages, with buttons
        for _ in range(LIST_TAIL):
            await accepted(chat, "/eingepasst", BY_OTHER)
        await accepted(chat, "/liste", BY_OTHER)
    return {}


async def house(chat: Harness, by: Sender, kind: str = "house") -> dict[str, str]:
    """A list under house rules by ``by`` with a game (``house rules``: without; ``ramsch``:
    in its Ramsch phase; ``sick``: Anna reported sick for it)."""
    await accepted(chat, "/regeln haus", by)
    await accepted(chat, "/neu Anna Bernd Carla", by)
    if kind == "house rules":
        return {}
    await accepted(chat, "/spiel Anna herz mit 2 gewonnen", BY_OTHER)
    if kind in ("ramsch", "sick"):
        await accepted(chat, "/bock", BY_OTHER)
        for _ in range(3):
            await accepted(chat, "/eingepasst", BY_OTHER)
    if kind == "sick":
        await accepted(chat, "/krank Anna", BY_OTHER)
    return {}


PARTICIPANTS = ("Hilde", "Kuno", "Walli", "Otto", "Paula", "Quirin")


async def tournament(chat: Harness, by: Sender, kind: str = "tournament") -> dict[str, str]:
    """A tournament started by ``by``, its participants entered by an admin (``drawn``: and
    its first series drawn, a player of table 1 linked at the desk; ``linked``: table 1 plays
    in another chat; ``reported``: every result of series 1 in; ``next draw``: series 2
    drawn and taken back, the desk asked for the next draw with a button; ``live page``: the
    hall's link given; ``signing``:
    table 1 closed its list and asks for signatures)."""
    if kind == "second tournament":  # an older one of someone else, ended
        await accepted(chat, "/turnier Herbstpokal", BY_OTHER)
        await accepted(chat, "/turnier ende", BY_OTHER)
        await accepted(chat, "/turnier ende ja", BY_OTHER)
    await accepted(chat, "/turnier Preisskat", by)
    await accepted(chat, "/teilnehmer " + ", ".join(PARTICIPANTS), LEAD)
    if kind in ("tournament", "second tournament"):
        return {}
    if kind == "live page":  # the hall's link given
        await accepted(chat, "/leinwand", LEAD)
        return {}
    await accepted(chat, "/serienlaenge 3 3", LEAD)
    draw = await accepted(chat, "/auslosen 4711", LEAD)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", draw))
    table1 = re.search(r"Tisch 1\b[^\n]*?: ([^\n]+)", draw)
    assert table1 and codes, draw
    names = [n.strip() for n in table1.group(1).split(",")]
    # a player of table 1 is known: linked to their name at the desk
    await accepted(chat, f"/ich {names[0]}", ROLES["table player"][0])
    state = {"table": codes["1"], "absent": names[1]}
    if kind in ("linked", "signing", "claimed"):  # the draw's deep link, in the table's chat
        url = chat.last(CHAT, with_buttons=True).buttons[0][0][1]
        payload = url.split("startgroup=", 1)[1]
        await chat.say(f"/start {payload}", chat_id=FAR, user_id=OTHER)
        assert "Serie 1 · Tisch 1" in chat.last(FAR).text
    if kind == "claimed":  # someone at the table says he is the absent player: a claim
        await chat.say(f"/ich {names[1]}", chat_id=FAR, user_id=MALLORY, name="Mallory")
        assert "Stimmt das?" in chat.last(FAR).text, chat.last(FAR).text
    if kind == "signing":
        await accepted(chat, f"/spiel {names[0]} grand ohne 1 hand gewonnen", BY_OTHER, FAR)
        await accepted(chat, "/abschluss ja", BY_OTHER, FAR)
    if kind in ("reported", "next draw"):
        lines = "\n".join(f"{n} {100 + 10 * i} 1 0" for i, n in enumerate(PARTICIPANTS))
        await accepted(chat, f"/ergebnis {lines}", LEAD)
    if kind == "next draw":
        await accepted(chat, "/auslosen 4712", LEAD)
        await accepted(chat, "/auslosen zurück", LEAD)
        await accepted(chat, "/auslosen zurück ja", LEAD)
    return state


TEAMS = "/mannschaft Nord: Anna, Bernd, Carla, Ersatz Dora\nSüd: Emil, Frida, Gert\nOst: Hilde, Ines, Jost"


async def code_for(chat: Harness, command: str, person: Sender, pattern: str, **named: Any) -> str:
    """The management names ``person`` for a role with ``command`` at the desk (answering
    their message, or with ``named`` words of its own); the code arrives in the person's
    private chat alone, which they opened with /start before (the way a role is given)."""
    uid, name = int(person["user_id"]), str(person["name"])
    await chat.say("/start", chat_id=uid, user_id=uid, name=name)
    out = await chat.say(
        command,
        chat_id=CHAT,
        user_id=int(LEAD["user_id"]),
        name=str(LEAD["name"]),
        **named,
    )
    text = "\n".join(r.text for r in out)
    assert f"geht privat an {name}" in text and not re.search(pattern, text), text
    found = re.search(pattern, chat.last(uid).text)
    assert found, chat.last(uid).text
    return found.group(1)


async def bind_captain(chat: Harness) -> str:
    """Nord's captain binds themself with the code the management had sent them; Süd's code
    goes to the named person (linked as Emil at the desk) and is returned, unused."""
    captain = ROLES["captain"][0]
    reply_to = (int(captain["user_id"]), str(captain["name"]))
    nord = await code_for(chat, "/kapitaen Nord", captain, r"/kapitaen (K\w+)", reply_to=reply_to)
    await accepted(chat, f"/kapitaen {nord}", captain)
    named = ROLES["named"][0]
    await accepted(chat, "/ich Emil", named)
    return await code_for(chat, "/kapitaen Süd Emil", named, r"/kapitaen (K\w+)")


async def bind_host(chat: Harness) -> str:
    """The host's code, sent to the host by the management (the way a host gets the day)."""
    host = ROLES["host"][0]
    reply_to = (int(host["user_id"]), str(host["name"]))
    return await code_for(chat, "/ausrichter", host, r"/ausrichter (A\w+)", reply_to=reply_to)


async def league(chat: Harness, by: Sender, kind: str = "league") -> dict[str, str]:
    """A league started by ``by``, its teams entered by an admin, Nord's captain bound
    (``league day``: day 1 opened; ``league seated``: its series 1 seated; ``league
    played``: a day of one series, every result in; ``host code``: day 1 today with a host
    code; ``hosted``: the host has linked their chat with it)."""
    await accepted(chat, "/liga Testliga", by)
    if kind == "league played":
        await accepted(chat, "/liga serien 1", LEAD)
    await accepted(chat, TEAMS, LEAD)
    state = {"code": await bind_captain(chat)}
    if kind == "league":
        return state
    await accepted(chat, "/spieltag 1 Reken", LEAD)
    if kind in ("host code", "hosted"):
        state["code"] = await bind_host(chat)
        if kind == "hosted":
            await accepted(chat, f"/ausrichter {state['code']}", ROLES["host"][0], FAR)
        return state
    if kind == "league day":
        return state
    seating = await accepted(chat, "/setzen", LEAD)
    found = re.search(r"Tisch 1 \([^)]*/tisch (L\w{6})\)", seating)
    assert found, seating
    state["table"] = found.group(1)
    if kind == "league played":
        names = ["Anna", "Bernd", "Carla", "Emil", "Frida", "Gert", "Hilde", "Ines", "Jost"]
        lines = "\n".join(f"{n} {100 + 10 * i} 1 0" for i, n in enumerate(names))
        await accepted(chat, f"/ergebnis {lines}", LEAD)
    return state


async def game_night(chat: Harness, by: Sender) -> dict[str, str]:
    """A game night planned by ``by``, with three yes-votes."""
    from skatbot.usecases.gamenight.nights import vote

    await send(chat, "/spielabend morgen 19:00", by)
    poll_id = list(chat.polls)[-1]
    for i, name in enumerate(("Ulla", "Veit", "Wanda")):
        await chat.db.write(lambda s, i=i, name=name: vote(s, poll_id, 300 + i, name, "", (0,)))
    return {}


Setup = Callable[[Harness, Sender], Awaitable[dict[str, str]]]
SETUPS: dict[str, Setup] = {
    "nothing": nothing,
    "game night": game_night,
    **{
        kind: partial(lists, kind=kind)
        for kind in (
            "lists",
            "closed",
            "stake",
            "asked",
            "storno asked",
            "builder",
            "doubtful",
            "own change",
            "struck",
            "long list",
        )
    },
    **{kind: partial(house, kind=kind) for kind in ("house", "house rules", "ramsch", "sick")},
    **{kind: partial(tournament, kind=kind) for kind in TOURNAMENT_SETUPS},
    **{
        kind: partial(league, kind=kind)
        for kind in (
            "league",
            "league day",
            "league seated",
            "league played",
            "host code",
            "hosted",
        )
    },
}


# --- the cells -------------------------------------------------------------------------------

# Cells that fail today for a reason another change fixes: strict, so that the fix shows.
KNOWN: dict[tuple[str, str], str] = {}

CELLS = [
    pytest.param(
        name,
        who,
        id=f"{name} · {who}",
        marks=[pytest.mark.xfail(strict=True, reason=KNOWN[(name, who)])]
        if (name, who) in KNOWN
        else [],
    )
    for name, row in MATRIX.items()
    for who in row.identities
]


def cast(identity: str) -> tuple[Sender, Sender]:
    return ROLES[identity] if identity in ROLES else IDENTITIES[identity]


def button(chat: Harness, where: int, label: str) -> Message:
    """The latest bot message in ``where`` with a button labelled ``label``."""
    for msg in sorted(chat.messages.values(), key=lambda m: -m.message_id):
        if msg.chat_id == where and any(label in t for row in msg.buttons for t, _ in row):
            return msg
    raise LookupError(f"no button {label!r} in chat {where}")


@pytest.mark.parametrize(("name", "identity"), CELLS)
async def test_rights_matrix(chat: Harness, name: str, identity: str) -> None:
    row = MATRIX[name]
    chat.set_admins(CHAT, LEADER, *([ADMIN] if row.where == CHAT else []))
    chat.set_admins(FAR, *([ADMIN] if row.where == FAR else []))
    actor, author = cast(identity)
    chat.public_url = "https://skat.example.org"  # /leinwand gives its link
    state = await SETUPS[row.setup](chat, author)
    if row.asks:  # the question the confirmation answers, asked by the same identity
        await send(chat, row.asks, actor, row.where)
    message = row.message.format(**state)
    before = dump(chat)
    if row.tap is not None:
        text, refused = await tap_button(chat, row, message, actor)
    else:
        out = await send(chat, message, actor, row.where)
        text = "\n".join(r.text for r in out)
        refused = not out or any(r.refusal for r in out)
    after = dump(chat)
    if identity in row.allowed:
        assert not refused, (name, identity, text)
        assert row.says in text, (name, identity, text)
        if row.reads:  # only the update's id is stored (a redelivery is answered the same)
            after.pop(PROCESSED), before.pop(PROCESSED)
            assert after == before, (name, identity, "a read changed something", text)
        else:
            assert after != before, (name, identity, "nothing changed", text)
    else:
        assert refused, (name, identity, "allowed", text)
        if row.tap is None:
            assert "👉" in text, text  # every refusal names a way that works
        else:  # a tap's note is stored with its update id (a redelivery gets the same note)
            after.pop(PROCESSED), before.pop(PROCESSED)
        assert after == before, (name, identity, "a refusal changed something", text)


PROCESSED = "processed_updates"


async def tap_button(chat: Harness, row: Row, label: str, actor: Sender) -> tuple[str, bool]:
    """Tap the latest button labelled ``label`` in the row's chat (checked to be the row's
    route): what the tapper saw, and whether it was refused (an alert)."""
    msg = button(chat, row.where, label)
    data = msg.data(label)
    route = next(r for r in ROUTES if r.kind is Kind.CALLBACK and re.match(r.pattern or "", data))
    assert route.name == row.tap, (label, data, route.name)
    name = actor.get("name", "Spieler")
    tapped = await chat.tap(msg, label, user_id=actor["user_id"], name=name)
    # refused: an alert, or only a note (nothing sent, nothing edited: "gehört Anna");
    # what only the tapper sees (a builder opened by a tap) counts as an answer
    shown = [tapped.text, *(r.text for r in tapped.private)]
    return tapped.notice + "\n" + "\n".join(shown), tapped.alert or not (
        tapped.replies or tapped.private
    )


# --- the route table and the rights page agree with the matrix ----------------------------


def test_every_route_has_a_row() -> None:
    """Every command and button of the route table has a row of the matrix (here or, for
    Telegram glue, in tests/handlers/test_rights.py), or is named below as no right of its
    own with the reason: a new route fails here until it is classified."""
    from tests.handlers.test_rights import COVERED

    covered = {row.route for row in MATRIX.values()} | COVERED
    routes = {r.name: r for r in ROUTES}
    assert not (covered - set(routes)), covered - set(routes)
    assert not (set(NOT_A_RIGHT) - set(routes)), set(NOT_A_RIGHT) - set(routes)
    assert not (covered & set(NOT_A_RIGHT)), covered & set(NOT_A_RIGHT)
    missing = [
        f"{r.kind.value} {r.name}" for r in ROUTES if r.name not in covered | set(NOT_A_RIGHT)
    ]
    assert not missing, f"routes without a row in the rights matrix: {missing}"


# Routes that grant or refuse nothing themselves, with the reason.
NOT_A_RIGHT: dict[str, str] = {
    "for another bot": "a command for another bot: nothing of ours runs",
    "edited": "an edited /spiel corrects its own booking as /korrigieren does (its row), and "
    "Telegram lets only the sender edit a message",
    "my chat member": "the bot's own membership: Telegram sends it, nobody types it",
    "migrate": "a group became a supergroup: Telegram sends it, nobody types it",
    "unknown": "a button no route knows: answered, nothing changes",
    "bid reply": "a bid typed into the builder: the builder's right (its row), checked by the "
    "same may_use",
    "unknown command": "a command we do not have: answered with the nearest, nothing runs",
    "inline": "@bot grand ohne 1 hand: a value computed, nothing stored, no chat",
    "poll answer": "a vote in a game night's poll: Telegram lets each member give only their "
    "own vote, and the bot seats only who voted",
}


RIGHTS_PAGE = Path(__file__).parents[3] / "docs" / "rights.md"
# an identity's column in the rights page's tables (the three placeholders share one)
COLUMN = {
    "member": "member",
    "creator": "creator",
    "admin": "admin",
    "anonymous admin": "anonymous admin",
    "channel": "channel identity",
    **{who: "placeholder id" for who in IDENTITIES if who.startswith("placeholder")},
}
# what the "also" column says for a role given to someone
ROLE_WORDS = {
    "captain": "captain",
    "host": "host",
    "table player": "player of that table",
    "named": "the person it was sent to",
}


def rights_page_tables() -> dict[str, list[tuple[list[str], dict[str, str]]]]:
    """The tables of docs/rights.md, "Who may do what": the first word of the bold line above
    each -> its rows as (the commands in backticks of the first cell, column -> cell)."""
    section = RIGHTS_PAGE.read_text(encoding="utf-8").split("\n## Who may do what\n", 1)[1]
    tables: dict[str, list[tuple[list[str], dict[str, str]]]] = {}
    title, header = "", []
    for line in section.split("\n## ", 1)[0].splitlines():
        if line.startswith("**"):
            title = line.split()[0].strip("*")
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "command":
            header, tables[title] = cells, []
            continue
        tokens = re.findall(r"`([^`]+)`", cells[0])
        tables[title].append((tokens, dict(zip(header, cells, strict=True))))
    return tables


def says(cells: dict[str, str], identity: str) -> bool | None:
    """What the rights page's row says for ``identity``: yes, no, or "–" (cannot happen: None)."""
    if identity in ROLES:
        return ROLE_WORDS[identity] in cells["also"]
    word = cells[COLUMN[identity]].split()[0]
    assert word in ("yes", "no", "–"), cells
    return None if word == "–" else word == "yes"


def test_the_rights_page_says_what_the_matrix_tests() -> None:
    """Every row of the matrix is stated by exactly one row of its table in docs/rights.md,
    every cell as the test has it; every command in those tables is a row of the matrix
    (here, or of the real bot's cells in tests/handlers/test_rights.py)."""
    from tests.handlers.test_rights import COMMANDS as WIRE
    from tests.handlers.test_rights import DELETE, TAPPERS

    # (table, command) -> {identity: allowed}, from both files' cells
    tested: dict[tuple[str, str], dict[str, bool]] = {}
    for name, row in MATRIX.items():
        cells = tested.setdefault((row.table, row.readme or name), {})
        for who in row.identities:
            assert cells.get(who, who in row.allowed) == (who in row.allowed), (name, who)
            cells[who] = who in row.allowed
    for name, wire in WIRE.items():
        cells = tested.setdefault(("Lists", name), {})
        for who in wire.identities:
            assert cells.get(who, who in wire.allowed) == (who in wire.allowed), (name, who)
            cells[who] = who in wire.allowed
    for _, label, allowed in DELETE.values():
        tested[("Buttons", label)] = {who: who in allowed for who in TAPPERS}

    tables = rights_page_tables()
    assert set(tables) == {table for table, _ in tested}, set(tables)
    stated = set()
    for table, rows in tables.items():
        for tokens, cells in rows:
            assert tokens, (table, cells)
            for command in tokens:
                assert (table, command) in tested, (
                    f"docs/rights.md {table}: {command} is not tested"
                )
                assert (table, command) not in stated, f"docs/rights.md {table}: {command} twice"
                stated.add((table, command))
                for who, allowed in tested[(table, command)].items():
                    assert says(cells, who) == allowed, (table, command, who, cells)
            if table == "Buttons":  # a tap is a person's: the other columns are "–"
                assert all(says(cells, who) is None for who in COLUMN if who not in TAPPERS)
    assert stated == set(tested), set(tested) - stated


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


async def test_an_admin_refused_at_the_draw_button_is_told_the_command(chat: Harness) -> None:
    """A tap cannot ask Telegram whether the tapper is an admin, so "Nächste Serie auslosen"
    is the creator's; an admin who taps it is told the command that works for them, and
    it does."""
    chat.set_admins(CHAT, LEADER, ADMIN)
    await SETUPS["next draw"](chat, {"user_id": CREATOR})
    label = "Nächste Serie auslosen"
    tapped = await chat.tap(button(chat, CHAT, label), label, user_id=ADMIN)
    assert tapped.alert and "/auslosen" in tapped.notice, tapped.notice
    text = await accepted(chat, "/auslosen", {"user_id": ADMIN})
    assert "Serie 2" in text, text
