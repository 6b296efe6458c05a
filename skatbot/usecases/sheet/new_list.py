"""``/neu``: a new list, and every other way a list starts (``start_list``: ``/weiter``, a
table's list opened by ``/tisch``).

The route serves the places that keep lists and refuses desks before this runs (see
``desks``); ``start_list`` still refuses them for the callers that get their ``Command``
(``/weiter``, ``/tisch``), which decide no place kind of their own yet.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.rules.house import rules_from_code
from skatbot.rules.numbers import is_number
from skatbot.rules.sheet import Sheet, default_series_length, replay
from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.tournament import tournament_of
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards, texts
from skatbot.usecases.common.names import (
    Reading,
    as_written,
    check_unique,
    clean_name,
    neu_line,
    read_names,
    resolve,
)
from skatbot.usecases.common.place_kinds import Becoming, Place, refuse_other_kind
from skatbot.usecases.common.reply import Answer, Command, Reply
from skatbot.usecases.common.table_guards import guard_replace
from skatbot.usecases.people.persons import me_buttons
from skatbot.usecases.sheet.desks import no_list_at_tournament_desk
from skatbot.usecases.sheet.lists import At, place_id

READING_PREFIX = "v1:nu:"
_READING_SEPARATOR = "|"


@dataclass(frozen=True)
class NewTable:
    """/neu with names that read one way: the players in seat order, the first dealer."""

    names: tuple[str, ...]
    first_dealer: int


@dataclass(frozen=True)
class DoubtfulTable:
    """/neu with names that may be meant another way: asked before anything is created."""

    reading: Reading
    dealer_name: str | None


@dataclass(frozen=True)
class TableChosen:
    """The button of a doubtful /neu: the table it names."""

    names: tuple[str, ...]
    first_dealer: int


@dataclass(frozen=True)
class StaleReading:
    """A reading button whose data no longer makes a table."""


def parse(cmd: Command) -> NewTable | DoubtfulTable:
    words = list(cmd.args)
    dealer_name: str | None = None
    lowered = [w.casefold() for w in words]
    if "geber" in lowered:
        i = lowered.index("geber")
        if i + 1 >= len(words):
            raise RuleError(
                "Nach „geber“ fehlt der Name.", hint="Z. B. /neu Anna Bernd Carla geber Bernd"
            )
        dealer_name = " ".join(words[i + 1 :])  # the last words: a name may have spaces
        del words[i:]
    reading = read_names(" ".join(words))
    if reading.doubts:
        return DoubtfulTable(reading, dealer_name)
    names, first_dealer = _checked_table(reading.names, dealer_name)
    return NewTable(tuple(names), first_dealer)


def parse_reading(cmd: Command) -> TableChosen | StaleReading:
    """``v1:nu:<dealer>:<name>|<name>|…``."""
    data = cmd.args[0] if cmd.args else cmd.text
    dealer, _, joined = data.removeprefix(READING_PREFIX).partition(":")
    names = [clean_name(n) for n in joined.split(_READING_SEPARATOR)]
    if not is_number(dealer) or not 3 <= len(names) <= 4 or int(dealer) >= len(names):
        return StaleReading()
    check_unique(names)
    return TableChosen(tuple(names), int(dealer))


def neu(session: Session, place: Place, request: NewTable | DoubtfulTable) -> Reply:
    if isinstance(request, DoubtfulTable):
        refuse_beside_running(session, place, "/neu")
        question = _ask_reading(request.reading, request.dealer_name)
        if question is not None:
            return question
        names, first_dealer = _checked_table(request.reading.names, request.dealer_name)
        return _open_new(session, place, names, first_dealer)
    return _open_new(session, place, list(request.names), request.first_dealer)


def reading_tap(session: Session, place: Place, request: TableChosen | StaleReading) -> Answer:
    """The table a doubtful /neu asked about."""
    if isinstance(request, StaleReading):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    reply = _open_new(session, place, list(request.names), request.first_dealer)
    return Answer(notice="Liste angelegt.", buttons=(), send=reply)


def _checked_table(raw: list[str], dealer_name: str | None) -> tuple[list[str], int]:
    names = [as_written(clean_name(p)) for p in raw]
    if not 3 <= len(names) <= 4:
        hint = "In Sitzreihenfolge: /neu Anna Bernd Carla [Dora] [geber NAME]"
        if len(names) > 4:
            hint += " · Namen mit Leerzeichen in Anführungszeichen oder mit Komma: " + (
                '/neu "Anna Maria" Bernd Carla'
            )
        raise RuleError(f"Eine Liste braucht 3 oder 4 Spieler, nicht {len(names)}.", hint=hint)
    check_unique(names)
    return names, resolve(dealer_name, names) if dealer_name else 0


def _open_new(session: Session, place: Place, names: list[str], first_dealer: int) -> Reply:
    lst, sheet = create_list(
        session,
        place,
        names,
        first_dealer=first_dealer,
        series_length=default_series_length(len(names)),
    )
    return opening_reply(lst, sheet, names)


def _reading_options(reading: Reading, dealer_name: str | None) -> list[tuple[list[str], int]]:
    """The readings that make a table."""
    options: list[tuple[list[str], int]] = []
    for raw in (reading.names, reading.other):
        if raw is None:
            continue
        try:
            options.append(_checked_table(raw, dealer_name))
        except RuleError:
            continue
    return options


def _reading_button(nr: int, names: list[str], dealer: int) -> tuple[tuple[str, str], ...] | None:
    """The button of reading ``nr`` (None: its data would not fit Telegram's 64 bytes)."""
    data = f"{READING_PREFIX}{dealer}:{_READING_SEPARATOR.join(names)}"
    if len(data.encode()) > 64 or any(_READING_SEPARATOR in n for n in names):
        return None
    label = ", ".join(names)
    return ((f"{nr}) {label[:40]}", data),)


def _ask_reading(reading: Reading, dealer_name: str | None) -> Reply | None:
    """The tables a doubtful /neu may mean, each with a button and a line that reads it
    without a doubt; None if no reading makes a table (then /neu refuses as usual)."""
    options = _reading_options(reading, dealer_name)
    if not options:
        return None
    lines = [f"🤔 <b>Wie ist die Liste gemeint?</b> {escape(' · '.join(reading.doubts))}"]
    rows: list[tuple[tuple[str, str], ...]] = []
    for nr, (names, dealer) in enumerate(options, 1):
        table = "Dreiertisch" if len(names) == 3 else "Vierertisch"
        lines.append(f"{nr}) {escape(', '.join(names))} – {table}")
        button = _reading_button(nr, names, dealer)
        if button is not None:
            rows.append(button)
    said = " · ".join(
        escape(neu_line(n) + (f" geber {dealer_name}" if dealer_name else "")) for n, _ in options
    )
    tap = "Tippe auf die richtige Liste oder schreib sie so: " if rows else "Schreib sie so: "
    lines.append(f"👉 {tap}{said}")
    return Reply("\n".join(lines), buttons=tuple(rows))


def opening_reply(
    lst: lists_store.ListInfo, sheet: Sheet, names: list[str], head: str = ""
) -> Reply:
    """What a new list says (/neu, a tournament table's list with its ``head`` line)."""
    table = "Dreiertisch" if len(names) == 3 else "Vierertisch (der Geber setzt aus)"
    rules = texts.rules_label(sheet)
    lines = [
        f"🃏 <b>Neue Liste</b>: {', '.join(escape(n) for n in names)} – {table}, "
        f"{texts.games(lst.series_length)}, {rules}.",
        texts.progress(sheet),
        f"Eintragen: /spiel (mit Knöpfen) oder /spiel {escape(names[sheet.vorhand])} "
        "grand ohne 1 hand gewonnen · /hilfe",
    ]
    if head:
        lines.insert(0, head)
    return Reply("\n".join(lines), buttons=(keyboards.new_game_row(), *me_buttons(lst.id)))


# --- every new list -----------------------------------------------------------------------------


def refuse_at_tournament_desk(session: Session, cmd: Command) -> str:
    """The rules code of the place; a tournament desk and a league desk keep no lists of
    their own. For the commands that start a list and get their ``Command`` (/weiter,
    /tisch): a declared route refuses the desks itself."""
    rules = chats.chat_rules(session, cmd.place_id)
    if tournament_of(session, cmd.place_id) is not None:
        raise no_list_at_tournament_desk("Dieses Thema" if cmd.thread_id else "Dieser Chat")
    refuse_other_kind(session, cmd, Becoming.LISTS)
    return rules


def refuse_beside_running(session: Session, at: At, command: str) -> lists_store.ListInfo | None:
    """The open list of the place, if it has no game yet (a new one replaces it); refused
    while it has games."""
    running = lists_store.open_list(session, place_id(at))
    if running is not None:
        loaded = lists_store.load(session, running)
        if loaded.sheet.games_played:
            raise RuleError(
                f"Es läuft noch eine Liste ({texts.games(loaded.sheet.games_played)}).",
                hint="Schließ sie zuerst mit /abschluss ab (sie bleibt gespeichert), "
                f"dann {command}.",
            )
    return running


def start_list(
    session: Session,
    cmd: Command,
    names: list[str],
    *,
    first_dealer: int,
    series_length: int,
    continues: lists_store.ListInfo | None = None,
) -> tuple[lists_store.ListInfo, Sheet]:
    """A new list for a command that gets its ``Command`` (/weiter with ``continues``, a
    table's /tisch): never at a desk, else as ``create_list``."""
    rules = refuse_at_tournament_desk(session, cmd)
    return create_list(
        session,
        cmd,
        names,
        first_dealer=first_dealer,
        series_length=series_length,
        continues=continues,
        rules=rules,
    )


def create_list(
    session: Session,
    at: At,
    names: list[str],
    *,
    first_dealer: int,
    series_length: int,
    continues: lists_store.ListInfo | None = None,
    rules: str | None = None,
) -> tuple[lists_store.ListInfo, Sheet]:
    """Every new list starts here: under the rules the chat chose with /regeln (``rules``
    when read already), never beside a running list with games (an empty one is replaced
    without asking)."""
    where = place_id(at)
    if rules is None:
        rules = chats.chat_rules(session, where)
    running = refuse_beside_running(session, at, "/weiter" if continues is not None else "/neu")
    if running is not None:
        guard_replace(session, running)  # never a tournament table's list
        lists_store.discard_list(session, running)  # an empty list is no series: replaced, gone
    lst = lists_store.create_list(
        session,
        where,
        names,
        first_dealer=first_dealer,
        series_length=series_length,
        rules=rules,
        seed=secrets.token_hex(4),
        user_id=at.asker.user_id if isinstance(at, Place) else at.user_id,
        continues=continues.id if continues is not None else None,
    )
    sheet = replay(
        names,
        [],
        first_dealer=first_dealer,
        series_length=lst.series_length,
        house=rules_from_code(lst.rules),
    )
    return lst, sheet
