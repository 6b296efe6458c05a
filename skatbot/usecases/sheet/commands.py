"""Use cases of the chat list. Each runs inside one write transaction: ``op(session, cmd)``.

A ``RuleError`` raised anywhere rolls the transaction back, so a refusal never changes a list.
"""

from __future__ import annotations

import secrets
from html import escape

from skatbot.rules import house as h
from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import format_announcement, is_grammar_word, parse_with_notes
from skatbot.rules.house import rules_from_code
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.rules.scoring import minus_sign
from skatbot.rules.sheet import (
    Entry,
    RowKind,
    Sheet,
    default_series_length,
    replay,
)
from skatbot.rules.value import GameResult
from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.database import lock_chat
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.tournament import tournament_of
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards, rich, texts
from skatbot.usecases.common.names import (
    Reading,
    check_unique,
    clean_name,
    full_stop,
    neu_line,
    read_names,
    resolve,
    take_name,
)
from skatbot.usecases.common.place_kinds import Becoming, refuse_other_kind
from skatbot.usecases.common.places import guard_replace
from skatbot.usecases.common.reply import Answer, Command, Reply
from skatbot.usecases.people.persons import after_rename, me_buttons
from skatbot.usecases.sheet.booking import Keys, after_row, book, game_text, user_fields
from skatbot.usecases.sheet.lists import DESK_HINT, require_list
from skatbot.usecases.sheet.lists import refuse_at_desk as _refuse_at_desk

__all__ = ["after_row", "user_fields"]  # moved to usecases.sheet.booking; imported from here too

MAX_SERIES = 200
PASS_WORDS = {"passe", "eingepasst", "pass"}


def list_number_word(words: list[str], command: str = "/liste") -> tuple[int | None, list[str]]:
    """A list number among the words of a read-only command ("/stand 2", "/pdf liste 2",
    "/stand bild 2") and the other words. A number in other digits ("/liste ٢") is refused:
    read as no number at all it would silently show another list."""
    lowered = [w.casefold() for w in words]
    for i, w in enumerate(lowered):
        word = w.removeprefix("#").removeprefix("nr.")
        refuse_foreign_digits(word, "die Nummer der Liste", f"{command} 2")
        if is_number(word) and len(word) <= 6:
            before = i - 1 if i and lowered[i - 1] in ("liste", "nr", "nr.") else i
            return int(word), words[:before] + words[i + 1 :]
    return None, words


def picked_list(session: Session, cmd: Command) -> tuple[lists_store.ListInfo, list[str], str]:
    """The list a read-only command shows (``/liste``, ``/stand``, ``/pdf``, ``/export``,
    ``/abrechnung``): list N of the place when the words name a number (as in the file
    name ``skatliste-N-…``), else the open list, else the latest. Also the other words,
    and a line saying which list it is when a number was asked for."""
    first = cmd.text.split()[0].split("@")[0] if cmd.text.strip() else ""
    asked = first if first.startswith("/") else "/liste"  # for the hint of a refusal
    number, rest = list_number_word(list(cmd.args), asked)
    if number is None:
        lst = lists_store.open_list(session, cmd.place_id) or lists_store.latest_list(
            session, cmd.place_id
        )
        if lst is None:
            _refuse_at_desk(session, cmd)
            raise RuleError(
                f"In {cmd.here} gibt es noch keine Liste.",
                hint="Starte eine mit /neu Anna Bernd Carla.",
            )
        return lst, rest, ""
    lst = lists_store.numbered_list(session, cmd.place_id, number)
    if lst is None:
        latest = lists_store.latest_list(session, cmd.place_id)
        count = lists_store.list_number(session, latest) if latest is not None else 0
        which = f"Liste 1 bis {count}" if count > 1 else ("Liste 1" if count else "keine Liste")
        raise RuleError(
            f"In {cmd.here} gibt es keine Liste {number}.",
            hint=f"Hier gibt es {which} – alle zeigt /listen.",
        )
    return lst, rest, list_head(number, lst)


def list_head(number: int, lst: lists_store.ListInfo) -> str:
    """E.g. "📋 Liste 2 vom 30.11.2026 (abgeschlossen)"."""
    day = f" vom {texts.day(lst.created_at)}" if lst.created_at else ""
    state = "abgeschlossen" if lst.status is ListStatus.CLOSED else "läuft"
    return f"📋 <b>Liste {number}</b>{day} ({state})"


def state_line(loaded: lists_store.LoadedList) -> str:
    """The next deal of an open list, or when a closed one was closed."""
    if loaded.lst.status is ListStatus.CLOSED:
        return texts.closed_line(loaded.lst.closed_at, loaded.sheet.games_played)
    return texts.progress(loaded.sheet)


# --- /neu -----------------------------------------------------------------------------------
def refuse_at_tournament_desk(session: Session, cmd: Command) -> str:
    """The rules code of the place (its chat row locked); a tournament desk and a league
    desk keep no lists of their own."""
    rules = chats.chat_rules(session, cmd.place_id)
    if tournament_of(session, cmd.place_id) is not None:
        raise RuleError(
            ("Dieses Thema" if cmd.thread_id else "Dieser Chat")
            + " ist die Turnierleitung eines Turniers.",
            hint="Listen bitte in einem eigenen Chat oder Thema führen (je Tisch eins). "
            + DESK_HINT,
        )
    refuse_other_kind(session, cmd, Becoming.LISTS)
    return rules


def refuse_beside_running(
    session: Session, cmd: Command, command: str
) -> lists_store.ListInfo | None:
    """The open list of the place, if it has no game yet (a new one replaces it); refused
    while it has games."""
    running = lists_store.open_list(session, cmd.place_id)
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
    """Every new list starts here (/neu, and /weiter with ``continues``): under the rules the
    chat chose with /regeln, never at a tournament desk, and never beside a running list with
    games (an empty one is replaced without asking)."""
    rules = refuse_at_tournament_desk(session, cmd)
    running = refuse_beside_running(session, cmd, "/weiter" if continues is not None else "/neu")
    if running is not None:
        guard_replace(session, running)  # never a tournament table's list
        lists_store.discard_list(session, running)  # an empty list is no series: replaced, gone
    lst = lists_store.create_list(
        session,
        cmd.place_id,
        names,
        first_dealer=first_dealer,
        series_length=series_length,
        rules=rules,
        seed=secrets.token_hex(4),
        user_id=cmd.user_id,
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


def neu(session: Session, cmd: Command) -> Reply:
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
        refuse_at_tournament_desk(session, cmd)
        refuse_beside_running(session, cmd, "/neu")
        question = _ask_reading(reading, dealer_name)
        if question is not None:
            return question
    names, first_dealer = _checked_table(reading.names, dealer_name)
    return _open_new(session, cmd, names, first_dealer)


def _checked_table(raw: list[str], dealer_name: str | None) -> tuple[list[str], int]:
    names = [clean_name(p) for p in raw]
    if not 3 <= len(names) <= 4:
        hint = "In Sitzreihenfolge: /neu Anna Bernd Carla [Dora] [geber NAME]"
        if len(names) > 4:
            hint += " · Namen mit Leerzeichen in Anführungszeichen oder mit Komma: " + (
                '/neu "Anna Maria" Bernd Carla'
            )
        raise RuleError(f"Eine Liste braucht 3 oder 4 Spieler, nicht {len(names)}.", hint=hint)
    check_unique(names)
    return names, resolve(dealer_name, names) if dealer_name else 0


def _open_new(session: Session, cmd: Command, names: list[str], first_dealer: int) -> Reply:
    lst, sheet = start_list(
        session,
        cmd,
        names,
        first_dealer=first_dealer,
        series_length=default_series_length(len(names)),
    )
    return opening_reply(lst, sheet, names)


READING_PREFIX = "v1:nu:"
_READING_SEPARATOR = "|"


def _ask_reading(reading: Reading, dealer_name: str | None) -> Reply | None:
    """The tables a doubtful /neu may mean, each with a button and a line that reads it
    without a doubt; None if no reading makes a table (then /neu refuses as usual)."""
    options: list[tuple[list[str], int]] = []
    for raw in (reading.names, reading.other):
        if raw is None:
            continue
        try:
            options.append(_checked_table(raw, dealer_name))
        except RuleError:
            continue
    if not options:
        return None
    lines = [f"🤔 <b>Wie ist die Liste gemeint?</b> {escape(' · '.join(reading.doubts))}"]
    rows: list[tuple[tuple[str, str], ...]] = []
    for nr, (names, dealer) in enumerate(options, 1):
        table = "Dreiertisch" if len(names) == 3 else "Vierertisch"
        lines.append(f"{nr}) {escape(', '.join(names))} – {table}")
        data = f"{READING_PREFIX}{dealer}:{_READING_SEPARATOR.join(names)}"
        if len(data.encode()) <= 64 and not any(_READING_SEPARATOR in n for n in names):
            label = ", ".join(names)
            rows.append(((f"{nr}) {label[:40]}", data),))
    said = " · ".join(
        escape(neu_line(n) + (f" geber {dealer_name}" if dealer_name else "")) for n, _ in options
    )
    tap = "Tippe auf die richtige Liste oder schreib sie so: " if rows else "Schreib sie so: "
    lines.append(f"👉 {tap}{said}")
    return Reply("\n".join(lines), buttons=tuple(rows))


def reading_tap(session: Session, cmd: Command) -> Answer:
    """``v1:nu:<dealer>:<name>|<name>|…``: the table a doubtful /neu asked about."""
    dealer, _, joined = cmd.text.removeprefix(READING_PREFIX).partition(":")
    names = [clean_name(n) for n in joined.split(_READING_SEPARATOR)]
    if not is_number(dealer) or not 3 <= len(names) <= 4 or int(dealer) >= len(names):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    check_unique(names)
    reply = _open_new(session, cmd, names, int(dealer))
    return Answer(notice="Liste angelegt.", buttons=(), send=reply)


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


# --- parsing a game; /eingepasst, /korrigieren, /storno (/spiel itself: spiel.py) ---------------


def parse_game(
    loaded: lists_store.LoadedList, words: list[str], command: str = "/spiel", example: str = ""
) -> tuple[int, str, tuple[str, ...]]:
    """The declarer's seat, the game as canonical text and the parser's notes, from the words
    of ``/spiel`` (or of a correction: ``command`` and ``example`` for its refusals)."""
    if not words:
        raise RuleError(
            "Wer hat gespielt und was?", hint="Z. B. /spiel Anna grand ohne 1 hand gewonnen"
        )
    try:
        declarer, used = take_name(words, loaded.names, before=command)
    except RuleError:
        missing = missing_name(loaded, words, command, example)
        if missing is not None:
            raise missing from None
        raise
    announcement, notes = parse_with_notes(words[used:], house=loaded.sheet.house is not None)
    text = format_announcement(announcement)
    return declarer, text, notes


class MissingName(RuleError):
    """A game entered without the player who played it."""


def missing_name(
    loaded: lists_store.LoadedList, words: list[str], command: str, example: str = ""
) -> MissingName | None:
    """The refusal of a game entered without its player ("/spiel grand ohne 1 hand
    gewonnen"): the first word is no player but a word of the game grammar. The example
    names ``example``, else the next game's Vorhand."""
    if not words or not is_grammar_word(words[0]):
        return None
    typed = " ".join(words)
    if len(typed) > 60:
        typed = typed[:60] + "…"
    name = example or texts.command_name(loaded.names, loaded.sheet.vorhand)
    tail = " · /spiel ohne Worte öffnet die Knöpfe." if command == "/spiel" else ""
    return MissingName(
        f"Wer hat gespielt? Vor „{typed}“ fehlt der Name.",
        hint=f"{command} NAME …, z. B. {command} {name} {typed}{tail}",
    )


def eingepasst(session: Session, cmd: Command) -> Reply:
    lock_chat(session, cmd.place_id)
    loaded = require_list(session, cmd)
    sheet = loaded.sheet
    sheet.check_can_add()
    sheet.check_pass_allowed()
    booked = book(session, cmd, loaded, row={"kind": RowKind.PASS, "dealer": sheet.next_dealer})
    after = booked.after
    entry = after.entries[-1]
    lines = [
        f"🤝 <b>Spiel {entry.nr}/{after.series_length}</b> · eingepasst – keine Wertung.",
        f"Stand: {texts.standings_line(after, loaded.lst.seed)}",
        texts.progress(after),
    ]
    return booked.reply("\n".join(lines))


def _game_number(word: str | None, command: str, sheet: Sheet) -> int:
    if word is not None:
        refuse_foreign_digits(word, "die Spielnummer", f"/{command} 1")
    if word is None or not is_number(word) or len(word) > 4:
        last = sheet.games_played
        if not last:
            raise RuleError("Welche Spielnummer?", hint="Es ist noch kein Spiel eingetragen.")
        example = f"/{command} {last}" + (" …" if command == "korrigieren" else "")
        raise RuleError("Welche Spielnummer?", hint=f"Z. B. {example} – die Nummern zeigt /liste.")
    return int(word)


def korrigieren(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    lock_chat(session, cmd.place_id)
    loaded = require_list(session, cmd)
    nr = _game_number(words[0] if words else None, "korrigieren", loaded.sheet)
    loaded.sheet.entry(nr)  # an unknown number is refused first
    fields, notes = correction_fields(loaded, nr, words[1:])
    return write_correction(session, cmd, loaded, nr, fields, notes)


def correction_fields(
    loaded: lists_store.LoadedList, nr: int, rest: list[str]
) -> tuple[dict[str, object], tuple[str, ...]]:
    """The new row of a correction of game ``nr`` from the words after the number
    (``/korrigieren``, edited messages): ``{"kind": "pass"}`` or a game, with ``"dealer"``
    when ``geber NAME`` corrects the game's dealer too (alone: the game stays as it is)."""
    rest, dealer = _take_dealer(loaded, nr, rest)
    extra: dict[str, object] = {} if dealer is None else {"dealer": dealer}
    if not rest and dealer is not None:
        row = loaded.sheet.entry(nr).row
        same: dict[str, object] = {"kind": row.kind}
        if row.declarer is not None:
            same["declarer"] = row.declarer
        if row.announcement is not None:
            same["announcement"] = row.announcement
        return {**same, **extra}, ()
    if len(rest) == 1 and rest[0].casefold() in PASS_WORDS:
        return {"kind": RowKind.PASS, **extra}, ()
    if not rest:
        raise RuleError(
            "Wie lautet das richtige Spiel?", hint=f"Z. B. /korrigieren {nr} {_example(loaded, nr)}"
        )
    old = loaded.sheet.entry(nr).row.declarer
    example = texts.command_name(loaded.names, old) if old is not None else ""
    declarer, text, notes = parse_game(loaded, rest, f"/korrigieren {nr}", example)
    return {"kind": RowKind.GAME, "declarer": declarer, "announcement": text, **extra}, notes


def _example(loaded: lists_store.LoadedList, nr: int) -> str:
    """An example correction of game ``nr`` that would be accepted: a declarer who is not
    its sitting-out dealer, and a game other than the booked one."""
    row = loaded.sheet.entry(nr).row
    seat = row.declarer
    if seat is None:
        seat = 1 if loaded.sheet.sitting_out(row.dealer or 0) == 0 else 0
    game = "grand ohne 1 hand gewonnen"
    if row.declarer == seat and row.announcement == "Grand ohne 1 Hand gewonnen":
        game = "grand ohne 1 hand verloren"
    return f"{texts.command_name(loaded.names, seat)} {game}"


def _take_dealer(
    loaded: lists_store.LoadedList, nr: int, words: list[str]
) -> tuple[list[str], int | None]:
    """``geber NAME`` anywhere after the game number: the corrected dealer of game ``nr``."""
    lowered = [w.casefold() for w in words]
    if "geber" not in lowered:
        return words, None
    i = lowered.index("geber")
    if i + 1 >= len(words):
        row = loaded.sheet.entry(nr).row
        other = next(s for s in range(len(loaded.names)) if s not in (row.dealer, row.declarer))
        raise RuleError(
            "Nach „geber“ fehlt der Name.",
            hint=f"Z. B. /korrigieren {nr} geber {texts.command_name(loaded.names, other)}",
        )
    seat, used = take_name(
        words[i + 1 :], loaded.names, before=f"/korrigieren {nr} {' '.join(words[: i + 1])}"
    )
    return words[:i] + words[i + 1 + used :], seat


def correct_game(
    session: Session,
    cmd: Command,
    loaded: lists_store.LoadedList,
    nr: int,
    declarer: int,
    text: str,
    notes: tuple[str, ...] = (),
) -> Reply:
    """Replace game ``nr`` by a game given as canonical text (``/korrigieren``, the builder)."""
    fields = {"kind": RowKind.GAME, "declarer": declarer, "announcement": text}
    return write_correction(session, cmd, loaded, nr, fields, notes)


def unchanged(entry: Entry, fields: dict[str, object]) -> bool:
    """The correction ``fields`` describe exactly what game ``entry`` booked (dealer too)."""
    row = entry.row
    return (
        fields["kind"] == row.kind
        and fields.get("declarer") == row.declarer
        and fields.get("announcement") == row.announcement
        and fields.get("dealer", row.dealer) == row.dealer
    )


def write_correction(
    session: Session,
    cmd: Command,
    loaded: lists_store.LoadedList,
    nr: int,
    fields: dict[str, object],
    notes: tuple[str, ...] = (),
) -> Reply:
    """Strike game ``nr`` and book ``fields`` (see ``correction_fields``) in its place, with
    the same number and the same dealer unless ``fields`` name a new one; refuses what
    ``/korrigieren`` refuses, and a correction that changes nothing."""
    sheet = loaded.sheet
    target = sheet.entry(nr)
    old_dealer = target.row.dealer if target.row.dealer is not None else 0
    if unchanged(target, fields):
        raise RuleError(
            f"Spiel {nr} ist schon genau so eingetragen – nichts zu korrigieren.",
            hint="/liste zeigt alle Spiele mit ihren Nummern.",
        )
    fields = dict(fields)
    new_dealer = fields.pop("dealer", old_dealer)
    dealer = new_dealer if isinstance(new_dealer, int) else old_dealer
    declarer = fields.get("declarer")
    if fields["kind"] is RowKind.GAME and isinstance(declarer, int):
        _check_corrected_declarer(loaded, nr, fields, declarer, dealer, old_dealer)
    if fields["kind"] is RowKind.RAMSCH and isinstance(fields.get("announcement"), str):
        h.validate_ramsch(
            h.parse_ramsch_text(str(fields["announcement"])),
            sheet.table_size,
            sheet.sitting_out(dealer),
        )
    booked = book(session, cmd, loaded, row={"dealer": dealer, "target": target.row.id, **fields})
    after, row = booked.after, booked.row
    entry = next(e for e in after.entries if row is not None and e.row.id == row.id)
    old = texts.entry_title(sheet, target)
    text = game_text(after, entry, loaded.lst.seed, "✏️", notes)
    head = f"Spiel {nr} korrigiert (gestrichen: <s>{old}</s>)."
    if dealer != old_dealer:
        head += (
            f"\n🔄 Geber in Spiel {nr}: {escape(loaded.names[dealer])}"
            f" (vorher {escape(loaded.names[old_dealer])})."
        )
    return booked.reply(f"{head}\n{text}")


def _check_corrected_declarer(
    loaded: lists_store.LoadedList,
    nr: int,
    fields: dict[str, object],
    declarer: int,
    dealer: int,
    old_dealer: int,
) -> None:
    """At a 4-table the dealer of game ``nr`` sat out: the hint corrects the dealer too."""
    if loaded.sheet.table_size != 4 or declarer != dealer:
        return
    name = loaded.names[dealer]
    if dealer != old_dealer:
        raise RuleError(
            f"{name} kann in Spiel {nr} nicht zugleich Geber und Alleinspieler sein.",
            hint="Am Vierertisch setzt der Geber aus – einen anderen Geber angeben.",
        )
    who = texts.command_name(loaded.names, declarer)
    game = str(fields.get("announcement", "")).lower()
    raise RuleError(
        f"{name} gibt in Spiel {nr} und setzt aus – kann nicht Alleinspieler sein.",
        hint="Anderen Alleinspieler angeben – oder den Geber dieses Spiels mitkorrigieren: "
        f"/korrigieren {nr} {who} {game} geber NAME",
    )


def storno(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    lock_chat(session, cmd.place_id)
    loaded = require_list(session, cmd)
    nr = _game_number(words[0] if words else None, "storno", loaded.sheet)
    target = loaded.sheet.entry(nr)
    booked = book(
        session,
        cmd,
        loaded,
        row={"kind": RowKind.CANCEL, "target": target.row.id},
        keys=Keys.CANCEL,
    )
    after = booked.after
    lines = [
        f"🗑 Spiel {nr} storniert: <s>{texts.entry_title(loaded.sheet, target)}</s>",
        "Die folgenden Spiele rücken eine Nummer auf.",
        f"Stand: {texts.standings_line(after, loaded.lst.seed)}",
        texts.progress(after),
    ]
    return booked.reply("\n".join(lines))


# --- /umbenennen, /geber, /serie ------------------------------------------------------------


def umbenennen(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    if len(words) < 2:
        raise RuleError("Alter und neuer Name?", hint="Z. B. /umbenennen Anna Annika")
    lock_chat(session, cmd.place_id)
    loaded = require_list(session, cmd)
    seat, used = take_name(words[:-1], loaded.names, before="/umbenennen")
    new = clean_name(" ".join(words[used:]).strip('"„“”'))
    others = [n for i, n in enumerate(loaded.names) if i != seat]
    check_unique([*others, new])
    old = loaded.players[seat].name
    after_rename(session, cmd.place_id, old, new)  # a linked person keeps the new spelling
    lists_store.rename_player(session, loaded.players[seat], new)
    text = f"✏️ {escape(old)} heißt jetzt {escape(new)}. Die Zahlen bleiben, wie sie sind."
    return book(session, cmd, loaded, keys=Keys.NONE).reply(text)


def geber(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    lock_chat(session, cmd.place_id)
    loaded = require_list(session, cmd)
    if not words:
        raise RuleError("Wer gibt als Nächstes?", hint="Z. B. /geber Bernd")
    seat = resolve(" ".join(words), loaded.names)
    booked = book(session, cmd, loaded, row={"kind": RowKind.DEALER, "seat": seat}, keys=Keys.NONE)
    return booked.reply(
        f"🔄 Nächster Geber: {full_stop(escape(loaded.names[seat]))}\n"
        + texts.progress(booked.after)
    )


def serie(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    lock_chat(session, cmd.place_id)
    loaded = require_list(session, cmd)
    for word in words:
        refuse_foreign_digits(word, "die Zahl der Spiele", "/serie 48")
    if len(words) != 1 or not is_number(words[0]) or len(words[0]) > 4:
        raise RuleError(
            f"Wie viele Spiele soll die Serie haben? Jetzt: {loaded.lst.series_length}.",
            hint="Z. B. /serie 48",
        )
    n = int(words[0])
    played = loaded.sheet.games_played
    if not max(1, played) <= n <= MAX_SERIES:
        raise RuleError(
            f"{texts.games(n)} {'geht' if n == 1 else 'gehen'} nicht.",
            hint=f"Erlaubt: {max(1, played)} bis {MAX_SERIES} (schon gespielt: {played}).",
        )
    lists_store.set_series_length(session, loaded.lst, n)
    # A new sheet: the loaded one may be the sheet cache's, shared beyond this unit of work.
    booked = book(session, cmd, loaded, after=loaded.sheet.with_series_length(n), keys=Keys.NONE)
    return booked.reply(f"📏 Die Serie hat jetzt {texts.games(n)}.\n{texts.progress(booked.after)}")


# --- read-only views --------------------------------------------------------------------------


def stand(session: Session, cmd: Command) -> Reply:
    lst, words, head = picked_list(session, cmd)
    loaded = lists_store.load(session, lst)
    state = state_line(loaded)
    text = texts.totals_block(loaded.sheet, loaded.lst.seed) + "\n" + state
    doc = rich.standings_doc(loaded.sheet, loaded.lst.seed, title=head, tail=state)
    settings = rich.settings_of(session, cmd.place_id, loaded.chat_settings)
    reply = Reply(rich.maybe(f"{head}\n{text}" if head else text, doc, settings))
    if [w.casefold() for w in words] == ["bild"]:  # the running scores as a picture
        # the picture code (and Pillow) loads with the first picture, not with every /stand
        from skatbot.usecases.sheet.pictures import with_series_photo

        return with_series_photo(session, loaded, reply)
    return reply


LIST_TAIL = 20
LISTS_SHOWN = 20


def listen(session: Session, cmd: Command) -> Reply:
    """``/listen``: the place's lists by number (as /liste N, /stand N, /pdf N take it), with
    day, players, state and who won (or leads)."""
    found = lists_store.place_lists(session, cmd.place_id, last=LISTS_SHOWN)
    if not found:
        raise RuleError(
            f"In {cmd.here} gibt es noch keine Liste.",
            hint="Starte eine mit /neu Anna Bernd Carla.",
        )
    total = found[-1][0]
    lines = [f"📋 <b>Listen in {cmd.here}</b> ({total})"]
    if total > len(found):
        lines.append(f"… {total - len(found)} ältere: /liste N zeigt jede.")
    for number, lst in found:
        loaded = lists_store.load(session, lst)
        sheet = loaded.sheet
        day = texts.day(lst.created_at) if lst.created_at else "–"
        closed = lst.status is ListStatus.CLOSED
        state = ("abgeschlossen" if closed else "läuft") + f", {texts.games(sheet.games_played)}"
        if not sheet.games_played:
            state = "abgeschlossen, ohne Spiel" if closed else "läuft, noch kein Spiel"
        line = f"{number} · {day} · {escape(', '.join(loaded.names))} · {state}"
        if sheet.games_played:
            best = texts.ranked(sheet, lst.seed)[0].standing
            line += f" · {'🏆' if closed else 'vorn:'} {escape(best.name)} {minus_sign(best.score)}"
        lines.append(line)
    lines.append("Eine davon: /liste N · /stand N · /pdf N · /export N · /abrechnung N")
    return Reply("\n".join(lines))


def liste(session: Session, cmd: Command) -> Reply:
    lst, words, which = picked_list(session, cmd)
    loaded = lists_store.load(session, lst)
    sheet = loaded.sheet
    entries = sheet.entries
    show_all = bool(words) and words[0].casefold() == "alle"
    if not entries:
        return Reply((f"{which}\n" if which else "") + "Noch keine Spiele. " + state_line(loaded))
    head = [which] if which else []
    if not show_all and len(entries) > LIST_TAIL:
        number = list_number_word(list(cmd.args))[0]
        more = f"/liste {number} alle" if number else "/liste alle"
        head.append(f"… {len(entries) - LIST_TAIL} frühere Zeilen: {more}")
        entries = entries[-LIST_TAIL:]
    lines = [*head, *(texts.row_line(sheet, e) for e in entries)]
    stand_line = f"Stand: {texts.standings_line(sheet, loaded.lst.seed)}"
    lines.append(stand_line)
    lines.append(state_line(loaded))
    doc = rich.list_doc(
        sheet, entries, head="\n".join(head), tail=f"{stand_line}\n{state_line(loaded)}"
    )
    settings = rich.settings_of(session, cmd.place_id, loaded.chat_settings)
    return Reply(rich.maybe("\n".join(lines), doc, settings))


def export_document(loaded: lists_store.LoadedList) -> dict[str, object]:
    """The ``skatbot-liste/1`` JSON of docs/rules.md §11 (house lists: points as booked, Ramsch too)."""
    sheet = loaded.sheet
    names = sheet.players
    games = []
    for e in sheet.entries:
        r = e.result
        declarer = names[e.row.declarer] if r is not None and e.row.declarer is not None else None
        game: dict[str, object] = {
            "nr": e.nr,
            "kind": e.row.kind.value,
            "dealer": names[e.row.dealer or 0],
            "declarer": declarer,
            "announcement": texts.game_label(r) if r else None,
            "bid": r.announcement.bid if r else None,
            "value": r.value if r else 0,
            "won": r.won if r else None,
            "overbid": r.overbid if r else False,
            "status": e.status.value,
            "points": {names[seat]: pts for seat, pts in e.points.items()},
        }
        if e.ramsch is not None:
            game["announcement"] = e.ramsch.text(names)
            game["value"] = max((abs(p) for p in e.points.values()), default=0)
        if e.house is not None:
            game["bock"] = e.house.bock
            game["trigger"] = e.house.trigger
            # the sick player's Grand Hand in a Ramsch phase (/krank): who was sick
            game["sick"] = declarer if e.house.sick_game else None
        games.append(game)
    totals: dict[str, dict[str, int]]
    if sheet.house is None:
        totals = {
            t.name: {
                "game_points": t.game_points,
                "won": t.won,
                "lost": t.lost,
                "opponents_lost": t.opponents_lost,
                "score": t.score,
            }
            for t in sheet.totals()
        }
    else:
        totals = {
            t.name: {
                "start_points": t.start,
                "game_points": t.points,
                "won": t.won,
                "lost": t.lost,
                "score": t.score,
            }
            for t in sheet.house_totals()
        }
    doc: dict[str, object] = {
        "format": "skatbot-liste/1",
        "rules": "isko" if sheet.house is None else "haus",
        "players": list(names),
        "table_size": sheet.table_size,
        "series_length": sheet.series_length,
        "status": loaded.lst.status,
        "games": games,
        "totals": totals,
    }
    if sheet.house is not None:
        doc["house"] = {
            "runde": "geberrunde" if sheet.house.dealing_round else "spiel",
            "state": sheet.state.label(),
        }
    return doc


def wert(_session: Session, cmd: Command) -> Reply:
    """/wert: compute a game without booking it."""
    from skatbot.rules.value import evaluate

    if not cmd.args:
        raise RuleError("Welches Spiel?", hint="Z. B. /wert grand ohne 1 hand gewonnen")
    announcement, notes = parse_with_notes(cmd.args)
    return Reply(wert_text(evaluate(announcement), notes))


def wert_text(r: GameResult, notes: tuple[str, ...] = ()) -> str:
    """What /wert answers for an evaluated game (also the inline calculator's message)."""
    outcome = "gewonnen" if r.won else ("verloren, überreizt" if r.overbid else "verloren")
    lines = [f"🧮 <b>{escape(texts.game_label(r))}</b> – {outcome}"]
    lines.extend(f"ℹ️ {escape(n)}" for n in notes)
    lines.append(r.breakdown)
    if not r.won and texts.loss_reason(r):
        lines.append(f"❌ verloren: {escape(texts.loss_reason(r))}.")
    lines.append(f"Buchung: {r.booking} · nicht eingetragen")
    return "\n".join(lines)
