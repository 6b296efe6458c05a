"""The route table: every way an update reaches the bot, in one list (``ROUTES``).

One ``Route`` per command, button prefix, message filter and status update. The table drives
the PTB handlers (``registry.register``: in table order, which is PTB's order of trial), the
flags of a command (``write``: a write transaction; ``admin``: getChatMember is asked before
the transaction and passed as ``Command.is_admin``; ``heavy``: run in a worker thread; ``document``: a read answered with a document, shared
fairly within the chat), the
update types asked from Telegram (``allowed_updates``) and the command menu (``menu``, sent
with setMyCommands). A command is in the menu unless its line says ``HIDDEN``.

Adding a command is one use case ``fn(session, command) -> Reply`` plus one line here::

    command("name", lazy("module:fn"), "Menütext", write=True),

and a button one use case ``fn(session, command) -> Answer`` (``command.args == (data,)``)
plus one line with the pattern of its callback data::

    button("name", r"^v1:x:", lazy("module:fn")),
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from telegram.ext import filters
from telegram.ext.filters import BaseFilter

from skatbot.handlers import admin
from skatbot.handlers.command_like import COMMAND_LIKE
from skatbot.handlers.runtime import CallbackUseCase, UseCase
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import PlaceKind
from skatbot.usecases.common.reply import Command
from skatbot.usecases.common.rights import TOURNAMENT_MANAGER
from skatbot.usecases.common.serving import Target, at, serve

DESK = PlaceKind.TOURNAMENT_DESK

# A PTB callback: for routes that are Telegram glue themselves (status updates, the builder's
# buttons, and /anheften, which sends and pins before it writes).
Callback = Callable[..., Coroutine[Any, Any, None]]


class Kind(Enum):
    COMMAND = "command"  # /name (CommandHandler)
    CALLBACK = "callback"  # a button: callback data matching ``pattern``
    MESSAGE = "message"  # a message ``filter`` (MessageHandler)
    MY_CHAT_MEMBER = "my_chat_member"  # the bot's own membership changed
    INLINE = "inline"  # "@bot grand ohne 1 hand"


# Write ``HIDDEN`` as a command's menu text to keep it out of the menu (an alias, /start).
HIDDEN: Final = None


@dataclass(frozen=True)
class Route:
    kind: Kind
    name: str  # the command; for other kinds a label (logs, tests)
    # a use case (commands, buttons), named (``Lazy``) or itself, or a PTB callback
    # a route declared by place kind (``Target``s: parser, use case, right), or the older forms
    run: Lazy | UseCase | CallbackUseCase | Callback | tuple[Target, ...]
    menu: str | None = HIDDEN  # the menu text of a command
    write: bool = False  # commands; a button's use case always runs in a write transaction
    admin: bool = False
    heavy: bool = False  # run in a worker thread (commands and buttons)
    # commands: a read whose answer is always a document (PDF, JSON, picture), so
    # ``fairness`` shares it within the chat (repeat note, member rate, pending documents)
    document: bool = False
    editable: bool = False  # commands: an edit of the message corrects its booking
    pattern: str | None = None  # CALLBACK: regex matched at the start of the data
    filter: BaseFilter | None = None  # MESSAGE
    group: int = 0  # PTB handler group; -1 runs before everything and may stop an update
    updates: tuple[str, ...] = ("message",)  # the update types this route needs

    @property
    def is_use_case(self) -> bool:
        """A sync use case run by ``runtime.execute`` (commands) or ``runtime.execute_callback``
        (buttons); else ``run`` is a PTB callback."""
        return isinstance(self.run, (Lazy, tuple)) or not inspect.iscoroutinefunction(self.run)

    @property
    def targets(self) -> tuple[Target, ...]:
        """The place kinds a declared route serves, one target each (else ``()``)."""
        return self.run if isinstance(self.run, tuple) else ()

    @property
    def asks_admin(self) -> bool:
        """Whether Telegram is asked if the sender is a chat admin (before the transaction)."""
        return self.admin or any(r.asks_admin for t in self.targets for r in t.rights)

    @property
    def use_case(self) -> Any:
        """The use case function of a command or button route (imported at the first call)."""
        if isinstance(self.run, tuple):
            found = _SERVED.get(self.name + self.kind.value)
            if found is None:
                found = _SERVED[self.name + self.kind.value] = serve(self.name, self.run)
            return found
        return self.run.resolve() if isinstance(self.run, Lazy) else self.run


_SERVED: dict[str, Any] = {}


@dataclass(frozen=True)
class Lazy:
    """The use case ``"module:function"`` of ``skatbot.usecases``, imported at its first use,
    so that a bot start imports no use case at all (it polls sooner; the first update pays
    the import once). The runtime calls the function itself: nothing wraps it.
    tests/handlers/test_routes.py resolves every one."""

    target: str

    @property
    def path(self) -> str:
        """``"skatbot.usecases.module:function"``."""
        return f"skatbot.usecases.{self.target}"

    def resolve(self) -> Callable[[Session, Command], Any]:
        found = _RESOLVED.get(self.target)
        if found is None:
            module, _, name = self.path.partition(":")
            found = _RESOLVED[self.target] = getattr(importlib.import_module(module), name)
        return found


_RESOLVED: dict[str, Callable[[Session, Command], Any]] = {}


def lazy(target: str) -> Lazy:
    return Lazy(target)


def glue(target: str) -> Callback:
    """The PTB callback ``"module:function"`` of ``skatbot.handlers``, imported at its first
    update (like :func:`lazy`)."""
    module, _, name = target.partition(":")
    path = f"skatbot.handlers.{module}"
    found: list[Callback] = []

    async def run(*args: Any) -> None:
        if not found:
            found.append(getattr(importlib.import_module(path), name))
        await found[0](*args)

    run.__name__ = name
    run.__qualname__ = run.lazy_target = f"{path}:{name}"  # type: ignore[attr-defined]
    return run


def command(
    name: str,
    run: Lazy | UseCase | Callback | Target | tuple[Target, ...],
    menu: str | None,
    *,
    write: bool = False,
    admin: bool = False,
    heavy: bool = False,
    document: bool = False,
    editable: bool = False,
) -> Route:
    """``/name``. ``menu`` is required: its menu text, or ``HIDDEN``. ``run``: the targets
    of the place kinds it serves (``at(...)``), or an undeclared use case."""
    if isinstance(run, Target):
        run = (run,)
    if inspect.iscoroutinefunction(run) and (write or admin or heavy):
        raise ValueError(f"/{name}: a PTB callback runs its own unit, flags do not apply")
    if document and (write or not heavy):
        raise ValueError(f"/{name}: a document is a heavy read (heavy=True, no write)")
    return Route(
        Kind.COMMAND,
        name,
        run,
        menu,
        write=write,
        admin=admin,
        heavy=heavy,
        document=document,
        editable=editable,
    )


def button(
    name: str,
    pattern: str,
    run: Lazy | CallbackUseCase | Callback | Target | tuple[Target, ...],
    *,
    heavy: bool = False,
) -> Route:
    """A button: callback data matching ``pattern`` (PTB takes the first route that matches)."""
    if isinstance(run, Target):
        run = (run,)
    if inspect.iscoroutinefunction(run) and heavy:
        raise ValueError(f"button {name}: a PTB callback runs its own unit, flags do not apply")
    return Route(
        Kind.CALLBACK, name, run, heavy=heavy, pattern=pattern, updates=("callback_query",)
    )


def message(
    name: str,
    filter: BaseFilter,
    run: Callback,
    *,
    group: int = 0,
    updates: tuple[str, ...] = ("message",),
) -> Route:
    return Route(Kind.MESSAGE, name, run, filter=filter, group=group, updates=updates)


# One route per line (a table): not reflowed by the formatter.
# fmt: off
ROUTES: list[Route] = [
    # Group -1 runs before every other handler and ends the update there (ApplicationHandlerStop).
    message(
        "for another bot",  # /spiel@otherbot: no handler of ours may see it
        admin.FOR_ANOTHER_BOT,
        admin.ignore_other_bots_command,
        group=-1,
        updates=("message", "edited_message"),
    ),
    message(
        "edited",  # an edit corrects its booking, never runs as a new command
        filters.UpdateType.EDITED,
        glue("edits:on_edited"),
        group=-1,
        updates=("edited_message",),
    ),
    # Commands. PTB tries them in this order; the commands of every deal come first.
    command("spiel", lazy("sheet.spiel:spiel"), "Spiel eintragen – ohne Worte mit Knöpfen, oder: /spiel Anna grand ohne 1 hand g", write=True, editable=True),
    command("eingepasst", lazy("sheet.commands:eingepasst"), "Alle haben gepasst", write=True, editable=True),
    command("neu", lazy("sheet.commands:neu"), "Neue Liste: /neu Anna Bernd Carla [Dora]", write=True),
    # heavy: /stand bild renders a picture, in a worker thread like the PDFs
    command("stand", lazy("sheet.commands:stand"), "Serienabschluss mit Rechenweg – /stand bild als Bild", heavy=True),
    command("anheften", glue("pinned:cmd_anheften"), "Stand anheften – wird nach jedem Spiel aktualisiert"),
    command("liste", lazy("sheet.commands:liste"), "Die letzten Zeilen der Liste – /liste 2: Liste 2"),
    command("listen", lazy("sheet.commands:listen"), "Alle Listen dieses Chats mit Nummer"),
    command("darstellung", lazy("common.display:darstellung"), "Liste und Stand als Tabelle oder Text: /darstellung tabelle|text", write=True),
    command("korrigieren", lazy("sheet.commands:korrigieren"), "Spiel N korrigieren: /korrigieren 7 Anna … [geber NAME]", write=True, editable=True),
    command("storno", lazy("sheet.commands:storno"), "Spiel N streichen: /storno 7", write=True),
    command("geber", lazy("sheet.commands:geber"), "Nächsten Geber festlegen", write=True),
    command("serie", lazy("sheet.commands:serie"), "Serienlänge ändern: /serie 48", write=True),
    command("umbenennen", lazy("sheet.commands:umbenennen"), "Anzeigenamen ändern", write=True),
    command("wert", lazy("sheet.commands:wert"), "Spielwert berechnen, ohne einzutragen"),
    # heavy: a tournament's export (up to 1,000 participants) is computed in a worker thread
    command("export", lazy("place.export:export"), "Liste als JSON", heavy=True, document=True),
    # PDFs take 50-100 ms to render: in a worker thread, not on the event loop
    command("pdf", lazy("place.documents:pdf"), "Liste als PDF", heavy=True, document=True),
    command("abschluss", lazy("place.documents:abschluss"), "Serie abschließen (mit PDF)", write=True, heavy=True),
    # chat admins may open a closed list again
    command("oeffnen", lazy("place.documents:oeffnen"), "Abgeschlossene Serie wieder öffnen (Admins)", write=True, admin=True),
    command("weiter", lazy("evening.commands:weiter"), "Neue Serie mit denselben Spielern", write=True),
    command("statistik", lazy("season.statistics:statistik"), "Statistik des Chats – /statistik NAME für einen Spieler", heavy=True),
    command("abend", lazy("evening.commands:abend"), "Alle Serien des Abends mit Summe je Spieler: /abend [pdf]", heavy=True),
    command("ich", lazy("people.persons:ich"), "Wer bin ich? /ich NAME verknüpft dich mit deinem Namen", write=True),
    command("spieler", lazy("people.persons:spieler"), "Spieler des Chats; /spieler zusammen A B – zwei Schreibweisen, eine Person", write=True),
    # a season replays every closed list of the place: in a worker thread
    command("saison", lazy("season.commands:saison"), "Saisontabelle: /saison [2026 | märz 2026 | von … bis …] [pdf]", heavy=True),
    command("saisonregeln", lazy("season.commands:saisonregeln"), "Zählweise der Saison: /saisonregeln summe|schnitt beste N mindestens N", write=True),
    command("vordruck", lazy("place.documents:vordruck"), "Leere Liste zum Ausdrucken: /vordruck 3 oder 4", heavy=True, document=True),
    command("regeln", lazy("house.commands:regeln"), "Regeln: /regeln haus (Kontra/Re, Bock, Ramsch) oder /regeln isko", write=True),
    command("ramsch", lazy("house.commands:ramsch"), "Hausregeln: Ramsch eintragen: /ramsch Anna 55", write=True),
    command("bock", lazy("house.commands:bock"), "Hausregeln: Bock von Hand auslösen", write=True),
    command("krank", lazy("house.commands:krank"), "Hausregeln: vor dem Ramsch krank melden", write=True),
    command("gesund", lazy("house.commands:gesund"), "Hausregeln: alle gesund, es wird geramscht", write=True),
    command("startpunkte", lazy("house.commands:startpunkte"), "Hausregeln: Startpunkte setzen", write=True),
    # admin=True: the stake of a closed list (/einsatz … liste N) is for its creator and the admins
    command("einsatz", lazy("money.stakes:einsatz"), "Geld: Einsatz pro Punkt: /einsatz 1 ct [kasse]", write=True, admin=True),
    command("abrechnung", lazy("place.abrechnung:abrechnung"), "Geld: wer wem was zahlt (Turnier: wer was zahlt)", heavy=True),
    # Tournament management is for its creator and the chat's admins (admin=True); draws,
    # rankings and certificates of up to 1,000 participants run in a worker thread.
    command("turnier", at(frozenset({PlaceKind.LISTS, DESK}), "tournament.desk:turnier", parse="tournament.desk:parse", right={"EndTournament": TOURNAMENT_MANAGER}), "Preisskat: diesen Chat zur Turnierleitung machen · /turnier ende beendet es", write=True),
    command("turniere", at(frozenset({PlaceKind.LISTS, DESK}), "tournament.tournament_season:turniere", parse="tournament.tournament_season:parse_turniere"), "Preisskat: die Turniere dieses Chats mit Datum und Sieg"),
    command("teilnehmer", at(DESK, "tournament.roster:teilnehmer", parse="tournament.roster:parse_teilnehmer", right={"AddParticipants": TOURNAMENT_MANAGER}), "Preisskat: Teilnehmer eintragen (nach der Auslosung: ab der nächsten Serie) oder anzeigen", write=True),
    command("entfernen", at(DESK, "tournament.roster:entfernen", parse="tournament.roster:parse_entfernen", right=TOURNAMENT_MANAGER), "Preisskat: Teilnehmer entfernen, nach der Auslosung ab der nächsten Serie", write=True),
    command("team", at(DESK, "tournament.teams:team", parse="tournament.teams:parse_team", right={"SetTeam": TOURNAMENT_MANAGER}), "Preisskat: Team setzen: /team Anna Skatfreunde Nord (/team Anna -)", write=True),
    command("teamwertung", at(DESK, "tournament.teams:teamwertung", parse="tournament.teams:parse_teamwertung", right={"SetTeamScoring": TOURNAMENT_MANAGER}), "Preisskat: Teamwertung: /teamwertung summe oder beste 3", write=True),
    command("serienlaenge", at(DESK, "tournament.series_length:serienlaenge", parse="tournament.series_length:parse", right={"SetLengths": TOURNAMENT_MANAGER}), "Preisskat: Spiele je Serie: /serienlaenge 36 48", write=True),
    command("turnierregeln", at(DESK, "tournament.ranking:turnierregeln", parse="tournament.ranking:parse_turnierregeln", right={"SetCounting": TOURNAMENT_MANAGER}), "Preisskat: Zählweise: /turnierregeln summe oder schnitt mindestens 2", write=True),
    command("auslosen", at(DESK, "tournament.draw:auslosen", parse="tournament.draw:parse", right=TOURNAMENT_MANAGER), "Preisskat: Tische der nächsten Serie auslosen", write=True, heavy=True),
    command("ergebnis", (at(frozenset({PlaceKind.LEAGUE_DESK, PlaceKind.HOST}), "league.results:ergebnis", parse=None), at(DESK, "tournament.result_entry:ergebnis", parse="tournament.result_entry:parse_ergebnis", right=TOURNAMENT_MANAGER)), "Preisskat und Liga: Ergebnis: /ergebnis Anna 437 12 3", write=True),
    command("fehlend", at(DESK, "tournament.result_entry:fehlend", parse="tournament.result_entry:parse_fehlend"), "Preisskat: fehlende Ergebnisse und wie weit die Tische sind"),
    # admin=True: /tisch freigeben N is for the tournament's management
    # a league table's code opens its list, else the Preisskat's /tisch
    command("tisch", lazy("league.tables:tisch"), "Preisskat und Liga: hier spielt ein Tisch: /tisch CODE (aus der Auslosung, dem Sitzplan)", write=True, admin=True),
    command("rangliste", at(DESK, "tournament.ranking:rangliste", parse="tournament.ranking:parse_rangliste"), "Preisskat: Rangliste über alle Serien", heavy=True),
    command("urkunden", at(DESK, "tournament.ranking:urkunden", parse="tournament.ranking:parse_urkunden"), "Preisskat: Urkunden als PDF", heavy=True, document=True),
    command("gebuehren", at(DESK, "tournament.cash:gebuehren", parse="tournament.cash:parse_gebuehren", right={"SetFees": TOURNAMENT_MANAGER}), "Preisskat: Startgeld, Verlustspielgeld, Tischgeld", write=True),
    command("preise", at(DESK, "tournament.cash:preise", parse="tournament.cash:parse_preise", right={"SetPrizes": TOURNAMENT_MANAGER}), "Preisskat: Preise als Beträge oder Anteile am Topf", write=True, heavy=True),
    command("kasse", at(DESK, "tournament.cash:kasse", parse="tournament.cash:parse_kasse"), "Preisskat: Kassenbericht als PDF", heavy=True, document=True),
    # League play: the league's creator and the chat's admins manage (admin=True asks Telegram);
    # captains change their own team's line-up (/aufstellung, /wechsel); reading is for all.
    command("liga", lazy("league.setup:liga"), "Liga: diesen Chat zur Ligaleitung machen: /liga NAME", write=True, admin=True),
    command("mannschaft", lazy("league.setup:mannschaft"), "Liga: Mannschaft: /mannschaft Nord: Anna, Bernd, Carla, Dora, Ersatz Erik", write=True, admin=True),
    command("kapitaen", lazy("league.setup:kapitaen"), "Liga: Kapitän werden: /kapitaen CODE (Leitung: /kapitaen TEAM als Antwort – Code privat)", write=True, admin=True),
    command("spieltag", lazy("league.day:spieltag"), "Liga: Spieltag anlegen: /spieltag 1 Ort", write=True, admin=True),
    command("aufstellung", lazy("league.day:aufstellung"), "Liga: Aufstellung zur 1. Serie: /aufstellung Nord: A, B, C, D", write=True, admin=True),
    # heavy: the seating search of an unusual group runs up to a second
    command("setzen", lazy("league.day:setzen"), "Liga: nächste Serie setzen (je Tisch ein Spieler jeder Mannschaft)", write=True, admin=True, heavy=True),
    command("sitzplan", lazy("league.day:sitzplan"), "Liga: Sitzplan einer Serie: /sitzplan [N]", heavy=True),
    command("wechsel", lazy("league.day:wechsel"), "Liga: Wechsel: /wechsel Nord Erik für Anna [spiel 17]", write=True, admin=True),
    command("tabelle", lazy("league.documents:tabelle"), "Liga: Tabelle der Saison – /tabelle N: ein Spieltag", heavy=True),
    command("einzelwertung", lazy("league.documents:einzelwertung"), "Liga: Einzelwertung (Schnitt je Spiel)", heavy=True),
    command("bestaetigen", lazy("league.results:bestaetigen"), "Liga: Kapitän bestätigt die Ergebnisse des Spieltags", write=True),
    # a decentral day's host links their own chat (the code of /spieltag, valid on its date)
    command("ausrichter", lazy("league.setup:ausrichter"), "Liga: Spieltag ausrichten: /ausrichter CODE (Leitung: /ausrichter als Antwort)", write=True, admin=True),
    command("freigeben", lazy("league.results:freigeben"), "Liga: Spieltag freigeben – danach fest", write=True, admin=True),
    # chat admins and the list's creator; asks first, then a confirmation button (v1:del:)
    command("loeschen", lazy("place.admin:loeschen"), "Alle Daten dieses Chats löschen (mit Bestätigung)", write=True, admin=True),
    command("hilfe", lazy("place.help:hilfe"), "Hilfe – /hilfe spiel · /hilfe haus · /hilfe turnier · /hilfe liga"),
    command("help", lazy("place.help:hilfe"), HIDDEN),  # the English alias of /hilfe
    # Telegram's "Start" button; in a group also a table's deep link (/start tisch_…)
    command("start", lazy("place.help:start"), HIDDEN, write=True),
    # Status updates.
    Route(Kind.MY_CHAT_MEMBER, "my chat member", admin.on_my_chat_member, updates=("my_chat_member",)),
    message("migrate", filters.StatusUpdate.MIGRATE, admin.on_migrate),  # group -> supergroup
    # Buttons (callback data v1:…, see keyboards.py). PTB takes the first pattern that matches.
    button("delete", r"^v1:del:", admin.on_delete_button),  # /loeschen's confirmation
    button("close", r"^v1:(close|keep):", lazy("place.documents:close_tap"), heavy=True),  # /abschluss's question (a PDF)
    button("me", r"^v1:me:", lazy("people.persons:me_tap")),  # "Das bin ich" under a new list
    button("claim", r"^v1:ic:", lazy("people.persons:claim_tap")),  # a table confirms a name
    button("reading", r"^v1:nu:", lazy("sheet.commands:reading_tap")),  # which table a doubtful /neu means
    button("sign", r"^v1:tu:", lazy("tournament.tables:sign_tap")),  # a tournament table signs its closed list
    button("next draw", r"^v1:td:", at(frozenset({PlaceKind.LISTS, DESK}), "tournament.draw:draw_tap", parse="tournament.draw:parse_tap"), heavy=True),  # "Nächste Serie auslosen"
    button("builder", r"^v1:b:", glue("builder:on_builder_button")),  # the game builder's own buttons
    button("korrigieren", r"^v1:k:", lazy("sheet.buttons:korrigieren")),  # under a booking
    button("storno", r"^v1:s:", lazy("sheet.buttons:storno_ask")),  # under a booking: asks
    button("storno ja", r"^v1:sj:", lazy("sheet.buttons:storno_yes")),
    button("storno nein", r"^v1:sn:", lazy("sheet.buttons:storno_no")),
    button("gesund", r"^v1:g:", lazy("house.buttons:gesund")),  # before a Ramsch: Alle gesund
    button("krank", r"^v1:kr:", lazy("house.buttons:krank")),  # before a Ramsch: NAME krank
    button("new game", r"^v1:n$", lazy("sheet.buttons:new_game")),  # Neues Spiel
    button("stand", r"^v1:st$", lazy("sheet.buttons:show_stand")),  # Stand
    button("unknown", r"^", lazy("sheet.buttons:unknown")),  # anything else: "Unbekannter Knopf"
    # Messages: a bid typed as a reply to the builder.
    message("bid reply", filters.TEXT & filters.REPLY & ~filters.COMMAND, glue("builder:on_reply")),
    # A command no route took (/stnad): the nearest of ours, or silence (handlers/typos.py).
    # Group 1, after every route of group 0 (also those added after this table).
    message("unknown command", COMMAND_LIKE, glue("typos:on_unknown_command"), group=1),
    Route(Kind.INLINE, "inline", glue("inline:on_inline_query"), updates=("inline_query",)),
]
# fmt: on

# The order Telegram's allowed_updates lists them in (the poller and setWebhook ask for these).
_UPDATE_ORDER = ("message", "edited_message", "callback_query", "inline_query", "my_chat_member")


def editable(routes: Sequence[Route] = ROUTES) -> frozenset[str]:
    """The commands whose edited message corrects their booking (handlers/edits.py)."""
    return frozenset(r.name for r in routes if r.editable)


def commands(routes: Sequence[Route] = ROUTES) -> list[Route]:
    return [r for r in routes if r.kind is Kind.COMMAND]


def menu(routes: Sequence[Route] = ROUTES) -> list[tuple[str, str]]:
    """The command menu (setMyCommands), in table order: every command not ``HIDDEN``."""
    return [(r.name, r.menu) for r in commands(routes) if r.menu is not None]


def allowed_updates(routes: Sequence[Route] = ROUTES) -> list[str]:
    wanted = {u for r in routes for u in r.updates}
    unknown = wanted - set(_UPDATE_ORDER)
    if unknown:
        raise ValueError(f"update types without a place in _UPDATE_ORDER: {sorted(unknown)}")
    return [u for u in _UPDATE_ORDER if u in wanted]
