"""The route table: every way an update reaches the bot, in one list (``ROUTES``).

One ``Route`` per command, button prefix, message filter and status update. The table drives
the PTB handlers (``registry.register``: in table order, which is PTB's order of trial), the
flags of a command (``write``: a write transaction; ``admin``: getChatMember is asked before
the transaction and passed as ``Command.is_admin``; ``heavy``: run in a worker thread; ``document``: a read answered with a document, shared
fairly within the chat; ``ephemeral``: declared ``is_ephemeral`` in the menu), the
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
from collections.abc import Sequence
from typing import Any

from telegram.ext import filters
from telegram.ext.filters import BaseFilter

from skatbot.handlers import admin
from skatbot.handlers.command_like import COMMAND_LIKE

# What a route is lives in route.py; the table's readers know these names from here too.
from skatbot.handlers.route import HIDDEN as HIDDEN
from skatbot.handlers.route import Callback, CallbackUseCase, UseCase
from skatbot.handlers.route import Kind as Kind
from skatbot.handlers.route import Lazy as Lazy
from skatbot.handlers.route import Route as Route
from skatbot.usecases.common.place_kinds import EVERYWHERE, PLAYING, PlaceKind
from skatbot.usecases.common.rights import (
    CHANGE_MAKER,
    CLOSED_LIST_STAKE,
    DAY_RUNNER,
    GAME_NIGHT_CLOSER,
    LEAGUE_MANAGER,
    LIST_DELETER,
    LIST_MANAGER,
    PERSON,
    PLACE_DELETER,
    SEASON_COUNTING,
    TABLE_LINKER,
    TEAM_CAPTAIN,
    TOURNAMENT_MANAGER,
    WHO_IS_WHO,
)
from skatbot.usecases.common.serving import Target, at

DESK = PlaceKind.TOURNAMENT_DESK
DESKS = frozenset({PlaceKind.TOURNAMENT_DESK, PlaceKind.LEAGUE_DESK})
# The sheet's commands at a desk: refused with what the desk offers and where tables play.
NO_LIST = at(DESKS, "sheet.desks:no_list")
LEAGUE_DESK = PlaceKind.LEAGUE_DESK
HOST = PlaceKind.HOST
# Where a table of a Preisskat or a league plays.
TABLES = frozenset({PlaceKind.TOURNAMENT_TABLE, PlaceKind.LEAGUE_TABLE})
# Where a match day is run: the league's desk, and a host's chat on its day.
LEAGUE_RUN = frozenset({LEAGUE_DESK, HOST})
# Where a league is read: there, and in a chat that hosted a day before (on another date).
LEAGUE_READ = LEAGUE_RUN | PLAYING


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
    ephemeral: bool = False,
) -> Route:
    """``/name``. ``menu`` is required: its menu text, or ``HIDDEN``. ``run``: the targets
    of the place kinds it serves (``at(...)``), or an undeclared use case. ``ephemeral``:
    an ephemeral command (a member asks it for themselves alone, docs/ephemeral.md)."""
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
        ephemeral=ephemeral,
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
    command("spiel", (at(PLAYING, "sheet.spiel:spiel", parse="sheet.spiel:parse"), NO_LIST), "Spiel eintragen – ohne Worte mit Knöpfen, oder: /spiel Anna grand ohne 1 hand g", write=True, editable=True),
    command("eingepasst", (at(PLAYING, "sheet.list_changes:eingepasst", parse="sheet.list_changes:parse_pass"), NO_LIST), "Alle haben gepasst", write=True, editable=True),
    # a table's next list comes from the next draw or seating: /neu and /weiter say so there
    command("neu", (at(PLAYING - TABLES, "sheet.new_list:neu", parse="sheet.new_list:parse"), at(TABLES, "place.at_table:neu"), at(DESKS, "sheet.desks:no_new_list")), "Neue Liste: /neu Anna Bernd Carla [Dora]", write=True),
    # heavy: /stand bild renders a picture, in a worker thread like the PDFs
    command("stand", (at(PLAYING, "sheet.views:stand", parse="sheet.views:parse_stand"), NO_LIST), "Zwischenstand mit Rechenweg – /stand bild als Bild", heavy=True),
    command("anheften", glue("pinned:cmd_anheften"), "Stand anheften – wird nach jedem Spiel aktualisiert"),
    command("liste", (at(PLAYING, "sheet.views:liste", parse="sheet.views:parse_liste"), NO_LIST), "Die letzten Zeilen der Liste – /liste 2: Liste 2"),
    command("listen", (at(PLAYING, "sheet.views:listen", parse="sheet.views:parse_listen"), NO_LIST), "Alle Listen dieses Chats mit Nummer"),
    command("darstellung", at(EVERYWHERE, "common.display:darstellung", parse="common.display:parse"), "Liste und Stand als Tabelle oder Text: /darstellung tabelle|text", write=True),
    command("korrigieren", (at(PLAYING, "sheet.list_changes:korrigieren", parse="sheet.list_changes:parse_korrigieren"), NO_LIST), "Spiel N korrigieren: /korrigieren 7 Anna … [geber NAME]", write=True, editable=True),
    command("storno", (at(PLAYING, "sheet.list_changes:storno", parse="sheet.list_changes:parse_storno"), NO_LIST), "Spiel N streichen: /storno 7", write=True),
    # typed also /rückgängig (Telegram's commands are a-z, 0-9 and _: handlers/typos.py runs it)
    command("rueckgaengig", (at(PLAYING, "sheet.undo:rueckgaengig", parse="sheet.undo:parse", right={"Undo": CHANGE_MAKER}), NO_LIST), "Letzte Änderung zurücknehmen (Spiel, Streichen, Korrektur)", write=True),
    command("geber", (at(PLAYING, "sheet.list_changes:geber", parse="sheet.list_changes:parse_geber"), NO_LIST), "Nächsten Geber festlegen", write=True),
    command("serie", (at(PLAYING, "sheet.list_changes:serie", parse="sheet.list_changes:parse_serie"), NO_LIST), "Serienlänge ändern: /serie 48", write=True),
    command("umbenennen", (at(PLAYING, "sheet.list_changes:umbenennen", parse="sheet.list_changes:parse_umbenennen"), NO_LIST), "Anzeigenamen ändern", write=True),
    # the Mini App's button, signed for this chat (the outbox makes it; handlers/miniapp.py)
    command("app", at(EVERYWHERE, "place.app:app"), "Mini App: Liste ansehen und Spiele eintragen"),
    command("wert", at(EVERYWHERE, "sheet.calculator:wert", parse="sheet.calculator:parse_wert"), "Spielwert berechnen, ohne einzutragen", ephemeral=True),
    # heavy: a tournament's export (up to 1,000 participants) is computed in a worker thread
    command("export", (at(DESK, "place.export:export_at_desk", parse="place.words:words"), at(EVERYWHERE - {DESK}, "place.export:export", parse="place.words:words")), "Liste als JSON", heavy=True, document=True),
    # PDFs take 50-100 ms to render: in a worker thread, not on the event loop
    command("pdf", at(EVERYWHERE, "place.documents:pdf", parse="place.words:words"), "Liste als PDF", heavy=True, document=True),
    command("abschluss", (at(PLAYING, "place.documents:abschluss", parse="place.documents:parse_close"), NO_LIST), "Serie abschließen (mit PDF)", write=True, heavy=True),
    # the latest list's creator and the chat's admins may open it again
    command("oeffnen", (at(PLAYING, "place.documents:oeffnen", parse="place.documents:parse_reopen", right=LIST_MANAGER), NO_LIST), "Abgeschlossene Serie wieder öffnen (Admins)", write=True),
    command("weiter", (at(PLAYING - TABLES, "evening.evenings:weiter"), at(TABLES, "place.at_table:weiter")), "Neue Serie mit denselben Spielern", write=True),
    command("statistik", at(EVERYWHERE, "season.statistics:statistik", parse="season.statistics:parse"), "Statistik des Chats – /statistik NAME für einen Spieler", heavy=True, ephemeral=True),
    command("abend", at(EVERYWHERE, "evening.evenings:abend", parse="evening.evenings:parse"), "Alle Serien des Abends mit Summe je Spieler: /abend [pdf]", heavy=True),
    command("ich", at(EVERYWHERE, "people.persons:ich", parse="people.persons:parse_ich", right={"LinkName": PERSON}), "Wer bin ich? /ich NAME verknüpft dich mit deinem Namen", write=True, ephemeral=True),
    command("spieler", at(EVERYWHERE, "people.persons:spieler", parse="people.persons:parse_spieler", right={"Merge": WHO_IS_WHO, "Split": WHO_IS_WHO}), "Spieler des Chats; /spieler zusammen A B – zwei Schreibweisen, eine Person", write=True),
    # a season replays every closed list of the place: in a worker thread
    command("saison", at(EVERYWHERE, "season.season_table:saison", parse="season.season_table:parse"), "Saisontabelle: /saison [2026 | märz 2026 | von … bis …] [pdf]", heavy=True),
    command("saisonregeln", at(EVERYWHERE, "season.season_table:saisonregeln", parse="season.season_table:parse_rules", right={"SetSeasonRules": SEASON_COUNTING}), "Zählweise der Saison: /saisonregeln summe|schnitt beste N mindestens N", write=True),
    command("vordruck", at(EVERYWHERE, "place.documents:vordruck", parse="place.documents:parse_blank_form"), "Leere Liste zum Ausdrucken: /vordruck 3 oder 4", heavy=True, document=True),
    command("regeln", at(PLAYING, "house.house_rules:regeln", parse="house.house_rules:parse_regeln"), "Regeln: /regeln haus (Kontra/Re, Bock, Ramsch) oder /regeln isko", write=True),
    command("ramsch", at(PLAYING, "house.house_rules:ramsch"), "Hausregeln: Ramsch eintragen: /ramsch Anna 55", write=True),
    command("bock", at(PLAYING, "house.house_rules:bock"), "Hausregeln: Bock von Hand auslösen", write=True),
    command("krank", at(PLAYING, "house.house_rules:krank"), "Hausregeln: vor dem Ramsch krank melden", write=True),
    command("gesund", at(PLAYING, "house.house_rules:gesund"), "Hausregeln: alle gesund, es wird geramscht", write=True),
    command("startpunkte", at(PLAYING, "house.house_rules:startpunkte"), "Hausregeln: Startpunkte setzen", write=True),
    # the stake of a closed list (/einsatz … liste N) is for its creator and the admins; a desk keeps no lists
    command("einsatz", at(EVERYWHERE - {DESK}, "money.stakes:einsatz", parse="money.stakes:parse", right={"StakeOfList": CLOSED_LIST_STAKE}), "Geld: Einsatz pro Punkt: /einsatz 1 ct [kasse]", write=True),
    command("abrechnung", (at(DESK, "place.abrechnung:dues", parse="place.words:words"), at(EVERYWHERE - {DESK}, "place.abrechnung:abrechnung", parse="place.words:words")), "Geld: wer wem was zahlt (Turnier: wer was zahlt)", heavy=True),
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
    # a league desk and a host's chat take the league's results, a Preisskat desk its own
    command("ergebnis", (at(LEAGUE_RUN, "league.results:ergebnis", parse="league.results:parse_ergebnis", right=DAY_RUNNER), at(DESK, "tournament.result_entry:ergebnis", parse="tournament.result_entry:parse_ergebnis", right=TOURNAMENT_MANAGER)), "Preisskat und Liga: Ergebnis: /ergebnis Anna 437 12 3", write=True),
    command("fehlend", at(DESK, "tournament.result_entry:fehlend", parse="tournament.result_entry:parse_fehlend"), "Preisskat: fehlende Ergebnisse und wie weit die Tische sind"),
    # /tisch CODE where a table plays (a league's or a Preisskat's code); /tisch freigeben N at the desk
    command("tisch", (at(PLAYING, "tables.lifecycle:link", parse="tables.lifecycle:parse", right={"LinkTable": TABLE_LINKER}), at(DESK, "tournament.tables:release", parse="tournament.tables:parse_release", right={"ReleaseTable": TOURNAMENT_MANAGER})), "Preisskat und Liga: hier spielt ein Tisch: /tisch CODE (aus der Auslosung, dem Sitzplan)", write=True),
    # the signing message of a table's closed list again (a league table is told it signs nothing)
    command("unterschreiben", at(TABLES, "place.at_table:unterschreiben"), "Preisskat: am Tisch die Nachricht zum Unterschreiben noch einmal zeigen"),
    # the hall's read-only page: the link is made (and revoked) by the management
    command("leinwand", at(DESK, "tournament.live_page:leinwand", parse="tournament.live_page:parse", right=TOURNAMENT_MANAGER), "Preisskat: Link für die Leinwand im Saal (Rangliste, Tische) · /leinwand aus sperrt ihn", write=True),
    command("rangliste", at(DESK, "tournament.ranking:rangliste", parse="tournament.ranking:parse_rangliste"), "Preisskat: Rangliste über alle Serien", heavy=True),
    command("urkunden", at(DESK, "tournament.ranking:urkunden", parse="tournament.ranking:parse_urkunden"), "Preisskat: Urkunden als PDF", heavy=True, document=True),
    command("gebuehren", at(DESK, "tournament.cash:gebuehren", parse="tournament.cash:parse_gebuehren", right={"SetFees": TOURNAMENT_MANAGER}), "Preisskat: Startgeld, Verlustspielgeld, Tischgeld", write=True),
    command("preise", at(DESK, "tournament.cash:preise", parse="tournament.cash:parse_preise", right={"SetPrizes": TOURNAMENT_MANAGER}), "Preisskat: Preise als Beträge oder Anteile am Topf", write=True, heavy=True),
    command("kasse", at(DESK, "tournament.cash:kasse", parse="tournament.cash:parse_kasse"), "Preisskat: Kassenbericht als PDF", heavy=True, document=True),
    # League play: the league's creator and the chat's admins manage at its desk; a host runs
    # the day in its own chat; captains change their own team's line-up (/aufstellung,
    # /wechsel); reading is for all, also where a day was hosted before.
    command("liga", (at(LEAGUE_DESK, "league.setup:liga", parse="league.setup:parse_liga", right={"ChangeSetting": LEAGUE_MANAGER}), at(PLAYING, "league.setup:new_league", parse="league.setup:parse_new_league")), "Liga: diesen Chat zur Ligaleitung machen: /liga NAME", write=True),
    command("mannschaft", at(LEAGUE_DESK, "league.setup:mannschaft", parse="league.setup:parse_mannschaft", right={"EnterTeams": LEAGUE_MANAGER}), "Liga: Mannschaft: /mannschaft Nord: Anna, Bernd, Carla, Dora, Ersatz Erik", write=True),
    command("kapitaen", (at(LEAGUE_DESK, "league.setup:kapitaen", parse="league.setup:parse_kapitaen", right={"NameCaptain": LEAGUE_MANAGER}), at(EVERYWHERE - {LEAGUE_DESK}, "league.setup:kapitaen", parse="league.setup:parse_captain_code")), "Liga: Kapitän werden: /kapitaen CODE (Leitung: /kapitaen TEAM als Antwort – Code privat)", write=True),
    command("spieltag", at(LEAGUE_DESK, "league.day:spieltag", parse="league.day:parse_spieltag", right=LEAGUE_MANAGER), "Liga: Spieltag anlegen: /spieltag 1 Ort", write=True),
    command("aufstellung", at(LEAGUE_READ, "league.day:aufstellung", parse="league.day:parse_aufstellung", right={"ChangeLineup": TEAM_CAPTAIN}), "Liga: Aufstellung zur 1. Serie: /aufstellung Nord: A, B, C, D", write=True),
    # heavy: the seating search of an unusual group runs up to a second
    command("setzen", at(LEAGUE_RUN, "league.day:setzen", parse="league.day:parse_setzen", right=DAY_RUNNER), "Liga: nächste Serie setzen (je Tisch ein Spieler jeder Mannschaft)", write=True, heavy=True),
    command("sitzplan", at(LEAGUE_READ, "league.day:sitzplan", parse="league.day:parse_sitzplan"), "Liga: Sitzplan einer Serie: /sitzplan [N]", heavy=True),
    command("wechsel", at(LEAGUE_RUN, "league.day:wechsel", parse="league.day:parse_wechsel", right={"Substitute": TEAM_CAPTAIN}), "Liga: Wechsel: /wechsel Nord Erik für Anna [spiel 17]", write=True),
    command("tabelle", at(LEAGUE_READ, "league.documents:tabelle", parse="league.documents:parse_tabelle"), "Liga: Tabelle der Saison – /tabelle N: ein Spieltag", heavy=True),
    command("einzelwertung", at(LEAGUE_READ, "league.documents:einzelwertung", parse="league.documents:parse_einzelwertung"), "Liga: Einzelwertung (Schnitt je Spiel)", heavy=True),
    command("bestaetigen", at(LEAGUE_RUN, "league.results:bestaetigen", parse="league.results:parse_bestaetigen"), "Liga: Kapitän bestätigt die Ergebnisse des Spieltags", write=True),
    # a decentral day's host links their own chat (the code of /spieltag, valid on its date)
    command("ausrichter", (at(LEAGUE_DESK, "league.setup:ausrichter", parse="league.setup:parse_ausrichter", right={"NameHost": LEAGUE_MANAGER}), at(PLAYING | {HOST}, "league.setup:ausrichter", parse="league.setup:parse_host_code")), "Liga: Spieltag ausrichten: /ausrichter CODE (Leitung: /ausrichter als Antwort)", write=True),
    command("freigeben", at(LEAGUE_DESK, "league.results:freigeben", parse="league.results:parse_freigeben", right=LEAGUE_MANAGER), "Liga: Spieltag freigeben – danach fest", write=True),
    # everything: the chat admins; the latest list: also its creator; at a desk a tournament: also its
    # creator (checked on what the question named). Asks first, then a confirmation button (v1:del:)
    command("loeschen", (at(DESK, "place.admin:loeschen", parse="place.admin:parse_at_desk", right={"AskList": LIST_DELETER, "ConfirmList": LIST_DELETER}), at(EVERYWHERE - {DESK}, "place.admin:loeschen", parse="place.admin:parse", right={"AskWhole": PLACE_DELETER, "ConfirmWhole": PLACE_DELETER, "AskList": LIST_DELETER, "ConfirmList": LIST_DELETER})), "Alle Daten dieses Chats löschen (mit Bestätigung)", write=True),
    # a game night is planned where lists are kept (not at a desk, a table or a host's day)
    command("spielabend", at(PlaceKind.LISTS, "gamenight.nights:spielabend", parse="gamenight.nights:parse", right={"CloseNight": GAME_NIGHT_CLOSER}), "Spielabend planen (Umfrage, dann Tische): /spielabend Di 19:00", write=True),
    command("hilfe", at(EVERYWHERE, "place.help:hilfe", parse="place.help:parse_topic"), "Hilfe – /hilfe spiel · /hilfe haus · /hilfe turnier · /hilfe liga", ephemeral=True),
    command("help", at(EVERYWHERE, "place.help:hilfe", parse="place.help:parse_topic"), HIDDEN, ephemeral=True),  # the English alias of /hilfe
    # Telegram's "Start" button; in a group also a table's deep link (/start tisch_…)
    command("start", at(EVERYWHERE, "place.help:start", parse="place.help:parse_start"), HIDDEN, write=True),
    # Status updates.
    Route(Kind.MY_CHAT_MEMBER, "my chat member", admin.on_my_chat_member, updates=("my_chat_member",)),
    message("migrate", filters.StatusUpdate.MIGRATE, admin.on_migrate),  # group -> supergroup
    Route(Kind.POLL_ANSWER, "poll answer", glue("game_night:on_poll_answer"), updates=("poll_answer",)),  # a vote in a game night's poll
    # Buttons (callback data v1:…, see keyboards.py). PTB takes the first pattern that matches.
    button("delete", r"^v1:del:", admin.on_delete_button),  # /loeschen's confirmation
    button("close", r"^v1:(close|keep):", at(PLAYING, "place.documents:close_tap", parse="place.documents:parse_close_tap"), heavy=True),  # /abschluss's question (a PDF)
    button("me", r"^v1:me:", at(EVERYWHERE, "people.persons:me_tap", parse="people.persons:parse_me_tap")),  # "Das bin ich" under a new list
    button("claim", r"^v1:ic:", at(PLAYING, "people.persons:claim", parse="people.persons:parse_claim")),  # a table confirms a name
    button("reading", r"^v1:nu:", at(PLAYING, "sheet.new_list:reading_tap", parse="sheet.new_list:parse_reading")),  # which table a doubtful /neu means
    button("sign", r"^v1:tu:", at(PLAYING, "tournament.tables:sign", parse="tournament.tables:parse_sign")),  # a tournament table signs its closed list
    button("next draw", r"^v1:td:", at(frozenset({PlaceKind.LISTS, DESK}), "tournament.draw:draw_tap", parse="tournament.draw:parse_tap"), heavy=True),  # "Nächste Serie auslosen"
    button("builder", r"^v1:b:", glue("builder:on_builder_button")),  # the game builder's own buttons
    button("korrigieren", r"^v1:k:", at(PLAYING, "sheet.buttons:korrigieren", parse="sheet.buttons:parse_row")),  # under a booking
    button("storno", r"^v1:s:", at(PLAYING, "sheet.buttons:storno_ask", parse="sheet.buttons:parse_row")),  # under a booking: asks
    button("storno ja", r"^v1:sj:", at(PLAYING, "sheet.buttons:storno_yes", parse="sheet.buttons:parse_row")),
    button("storno nein", r"^v1:(sn|sq):", at(PLAYING, "sheet.buttons:storno_no", parse="sheet.buttons:parse_row")),  # also the Nein of a typed /storno N
    button("undo", r"^v1:u:", at(PLAYING, "sheet.undo:undo_tap", parse="sheet.undo:parse_tap", right={"UndoTap": CHANGE_MAKER})),  # ↩️ Rückgängig under a strike or a correction
    button("gesund", r"^v1:g:", at(PLAYING, "house.buttons:gesund")),  # before a Ramsch: Alle gesund
    button("krank", r"^v1:kr:", at(PLAYING, "house.buttons:krank")),  # before a Ramsch: NAME krank
    button("new game", r"^v1:n$", at(PLAYING, "sheet.buttons:new_game", parse="sheet.buttons:parse_tap")),  # Neues Spiel
    button("stand", r"^v1:st$", at(PLAYING, "sheet.buttons:show_stand", parse="sheet.buttons:parse_tap")),  # Stand
    button("liste page", r"^v1:ls:", at(PLAYING, "sheet.views:page_tap", parse="sheet.views:parse_page_tap")),  # ◀ zurück / weiter ▶ of a long /liste
    button("unknown", r"^", at(EVERYWHERE, "sheet.buttons:unknown", parse="sheet.buttons:parse_tap")),  # anything else: "Unbekannter Knopf"
    # Messages: a bid typed as a reply to the builder.
    message("bid reply", filters.TEXT & filters.REPLY & ~filters.COMMAND, glue("builder:on_reply")),
    # A command no route took (/stnad): the nearest of ours, or silence (handlers/typos.py).
    # Group 1, after every route of group 0 (also those added after this table).
    message("unknown command", COMMAND_LIKE, glue("typos:on_unknown_command"), group=1),
    Route(Kind.INLINE, "inline", glue("inline:on_inline_query"), updates=("inline_query",)),
]
# fmt: on

# The order Telegram's allowed_updates lists them in (the poller and setWebhook ask for these).
_UPDATE_ORDER = (
    "message",
    "edited_message",
    "callback_query",
    "inline_query",
    "my_chat_member",
    "poll_answer",
)


def editable(routes: Sequence[Route] = ROUTES) -> frozenset[str]:
    """The commands whose edited message corrects their booking (handlers/edits.py)."""
    return frozenset(r.name for r in routes if r.editable)


def commands(routes: Sequence[Route] = ROUTES) -> list[Route]:
    return [r for r in routes if r.kind is Kind.COMMAND]


def menu(routes: Sequence[Route] = ROUTES) -> list[tuple[str, str]]:
    """The command menu (setMyCommands), in table order: every command not ``HIDDEN``."""
    return [(r.name, r.menu) for r in commands(routes) if r.menu is not None]


def ephemeral_commands(routes: Sequence[Route] = ROUTES) -> frozenset[str]:
    """The menu's commands declared ``is_ephemeral`` (setMyCommands, Bot API 10.2): a member
    may send them so that only the bot receives them, and is answered alone. A ``HIDDEN``
    alias is in no menu, so Telegram sends it as an ordinary message."""
    return frozenset(r.name for r in commands(routes) if r.ephemeral and r.menu is not None)


def allowed_updates(routes: Sequence[Route] = ROUTES) -> list[str]:
    wanted = {u for r in routes for u in r.updates}
    unknown = wanted - set(_UPDATE_ORDER)
    if unknown:
        raise ValueError(f"update types without a place in _UPDATE_ORDER: {sorted(unknown)}")
    return [u for u in _UPDATE_ORDER if u in wanted]
