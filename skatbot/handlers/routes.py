"""The route table: every way an update reaches the bot, in one list (``ROUTES``).

One ``Route`` per command, button prefix, message filter and status update. The table drives
the PTB handlers (``registry.register``: in table order, which is PTB's order of trial), the
flags of a command (``write``: a write transaction; ``admin``: getChatMember is asked before
the transaction and passed as ``Command.is_admin``; ``heavy``: run in a worker thread), the
update types asked from Telegram (``allowed_updates``) and the command menu (``menu``, sent
with setMyCommands). A command is in the menu unless its line says ``HIDDEN``.

Adding a command is one use case ``fn(session, command) -> Reply`` plus one line here::

    command("name", module.fn, "Menütext", write=True),
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from telegram.ext import filters
from telegram.ext.filters import BaseFilter

from skatbot.handlers import (
    admin,
    builder,
    documents,
    edits,
    evening,
    house_ops,
    inline,
    pinned,
    sheet_ops,
    tournament_ops,
)
from skatbot.handlers import help as help_ops
from skatbot.handlers.runtime import UseCase

# A PTB callback: for routes that are Telegram glue themselves (buttons, status updates, and
# the few commands that run their own units: /loeschen, /anheften).
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
    run: UseCase | Callback  # a use case (commands only) or a PTB callback
    menu: str | None = HIDDEN  # the menu text of a command
    write: bool = False
    admin: bool = False
    heavy: bool = False
    pattern: str | None = None  # CALLBACK: regex matched at the start of the data
    filter: BaseFilter | None = None  # MESSAGE
    group: int = 0  # PTB handler group; -1 runs before everything and may stop an update
    updates: tuple[str, ...] = ("message",)  # the update types this route needs

    @property
    def is_use_case(self) -> bool:
        """A sync use case run by ``runtime.execute`` (else ``run`` is a PTB callback)."""
        return not inspect.iscoroutinefunction(self.run)


def command(
    name: str,
    run: UseCase | Callback,
    menu: str | None,
    *,
    write: bool = False,
    admin: bool = False,
    heavy: bool = False,
) -> Route:
    """``/name``. ``menu`` is required: its menu text, or ``HIDDEN``."""
    if inspect.iscoroutinefunction(run) and (write or admin or heavy):
        raise ValueError(f"/{name}: a PTB callback runs its own unit, flags do not apply")
    return Route(Kind.COMMAND, name, run, menu, write=write, admin=admin, heavy=heavy)


def button(name: str, pattern: str, run: Callback) -> Route:
    return Route(Kind.CALLBACK, name, run, pattern=pattern, updates=("callback_query",))


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
        edits.on_edited,
        group=-1,
        updates=("edited_message",),
    ),
    # Commands. PTB tries them in this order; the commands of every deal come first.
    command("spiel", builder.spiel, "Spiel eintragen – ohne Worte mit Knöpfen, oder: /spiel Anna grand ohne 1 hand g", write=True),
    command("eingepasst", sheet_ops.eingepasst, "Alle haben gepasst", write=True),
    command("neu", sheet_ops.neu, "Neue Liste: /neu Anna Bernd Carla [Dora]", write=True),
    command("stand", sheet_ops.stand, "Serienabschluss mit Rechenweg"),
    command("anheften", pinned.cmd_anheften, "Stand anheften – wird nach jedem Spiel aktualisiert"),
    command("liste", sheet_ops.liste, "Die letzten Zeilen der Liste"),
    command("korrigieren", sheet_ops.korrigieren, "Spiel N korrigieren: /korrigieren 7 Anna … [geber NAME]", write=True),
    command("storno", sheet_ops.storno, "Spiel N streichen: /storno 7", write=True),
    command("geber", sheet_ops.geber, "Nächsten Geber festlegen", write=True),
    command("serie", sheet_ops.serie, "Serienlänge ändern: /serie 48", write=True),
    command("umbenennen", sheet_ops.umbenennen, "Anzeigenamen ändern", write=True),
    command("wert", sheet_ops.wert, "Spielwert berechnen, ohne einzutragen"),
    # heavy: a tournament's export (up to 1,000 participants) is computed in a worker thread
    command("export", sheet_ops.export, "Liste als JSON", heavy=True),
    # PDFs take 50-100 ms to render: in a worker thread, not on the event loop
    command("pdf", documents.pdf, "Liste als PDF", heavy=True),
    command("abschluss", documents.abschluss, "Serie abschließen (mit PDF)", write=True, heavy=True),
    # chat admins may open a closed list again
    command("oeffnen", documents.oeffnen, "Abgeschlossene Serie wieder öffnen (Admins)", write=True, admin=True),
    command("weiter", evening.weiter, "Neue Serie mit denselben Spielern", write=True),
    command("abend", evening.abend, "Alle Serien des Abends mit Summe je Spieler: /abend [pdf]", heavy=True),
    command("vordruck", documents.vordruck, "Leere Liste zum Ausdrucken: /vordruck 3 oder 4", heavy=True),
    command("regeln", house_ops.regeln, "Regeln: /regeln haus (Kontra/Re, Bock, Ramsch) oder /regeln isko", write=True),
    command("ramsch", house_ops.ramsch, "Hausregeln: Ramsch eintragen: /ramsch Anna 55", write=True),
    command("bock", house_ops.bock, "Hausregeln: Bock von Hand auslösen", write=True),
    command("krank", house_ops.krank, "Hausregeln: vor dem Ramsch krank melden", write=True),
    command("gesund", house_ops.gesund, "Hausregeln: alle gesund, es wird geramscht", write=True),
    command("startpunkte", house_ops.startpunkte, "Hausregeln: Startpunkte setzen", write=True),
    # Tournament management is for its creator and the chat's admins (admin=True); draws,
    # rankings and certificates of up to 1,000 participants run in a worker thread.
    command("turnier", tournament_ops.turnier, "Preisskat: diesen Chat zum Turnier-Schreibtisch machen", write=True),
    command("teilnehmer", tournament_ops.teilnehmer, "Preisskat: Teilnehmer eintragen oder anzeigen", write=True, admin=True),
    command("entfernen", tournament_ops.entfernen, "Preisskat: Teilnehmer entfernen (vor der ersten Auslosung)", write=True, admin=True),
    command("team", tournament_ops.team, "Preisskat: Team setzen: /team Anna Skatfreunde Nord (/team Anna -)", write=True, admin=True),
    command("teamwertung", tournament_ops.teamwertung, "Preisskat: Teamwertung: /teamwertung summe oder beste 3", write=True, admin=True),
    command("serienlaenge", tournament_ops.serienlaenge, "Preisskat: Spiele je Serie: /serienlaenge 36 48", write=True, admin=True),
    command("auslosen", tournament_ops.auslosen, "Preisskat: Tische der nächsten Serie auslosen", write=True, admin=True, heavy=True),
    command("ergebnis", tournament_ops.ergebnis, "Preisskat: Ergebnis: /ergebnis Anna 437 12 3", write=True, admin=True),
    command("fehlend", tournament_ops.fehlend, "Preisskat: fehlende Ergebnisse"),
    command("rangliste", tournament_ops.rangliste, "Preisskat: Rangliste über alle Serien", heavy=True),
    command("urkunden", tournament_ops.urkunden, "Preisskat: Urkunden als PDF", heavy=True),
    # asks the chat's admins itself, then a confirmation button (v1:del:)
    command("loeschen", admin.cmd_loeschen, "Alle Daten dieses Chats löschen (mit Bestätigung)"),
    command("hilfe", help_ops.hilfe, "Hilfe – /hilfe spiel · /hilfe haus · /hilfe turnier"),
    command("help", help_ops.hilfe, HIDDEN),  # the English alias of /hilfe
    command("start", help_ops.start, HIDDEN),  # Telegram's "Start" button
    # Status updates.
    Route(Kind.MY_CHAT_MEMBER, "my chat member", admin.on_my_chat_member, updates=("my_chat_member",)),
    message("migrate", filters.StatusUpdate.MIGRATE, admin.on_migrate),  # group -> supergroup
    # Buttons (callback data v1:…, see keyboards.py). PTB takes the first pattern that matches.
    button("delete", r"^v1:del:", admin.on_delete_button),  # /loeschen's confirmation
    button("close", r"^v1:(close|keep):", documents.on_close_button),  # /abschluss's question
    button("builder", r"^v1:b:", builder.on_callback),  # the game builder's own buttons
    button("row", r"^v1:(k|s|sj|sn):", builder.on_callback),  # under a booking: korrigieren, storno
    button("health", r"^v1:(g|kr):", builder.on_callback),  # before a Ramsch: gesund, krank
    button("new game", r"^v1:n$", builder.on_callback),  # Neues Spiel
    button("stand", r"^v1:st$", builder.on_callback),  # Stand
    button("unknown", r"^", builder.on_callback),  # anything else: "Unbekannter Knopf"
    # Messages: a bid typed as a reply to the builder.
    message("bid reply", filters.TEXT & filters.REPLY & ~filters.COMMAND, builder.on_reply),
    Route(Kind.INLINE, "inline", inline.on_inline_query, updates=("inline_query",)),
]
# fmt: on

# The order Telegram's allowed_updates lists them in (the poller and setWebhook ask for these).
_UPDATE_ORDER = ("message", "edited_message", "callback_query", "inline_query", "my_chat_member")


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
