"""The changes of a running list: ``/eingepasst``, ``/korrigieren``, ``/storno``,
``/umbenennen``, ``/geber``, ``/serie`` (``/spiel`` itself: spiel.py). Each runs inside the
write transaction the runtime opened with the place locked; its route serves the places that
keep lists. A ``RuleError`` raised anywhere rolls the transaction back, so a refusal never
changes a list.

The reads (``/stand``, ``/liste``, ``/listen``) are in views.py, ``/neu`` and every new list
in new_list.py, the JSON of ``/export`` in json_list.py; their names stay importable from
here for the commands of other features.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from skatbot.rules import house as h
from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import format_announcement, is_grammar_word, parse_with_notes
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.rules.sheet import Entry, RowKind, Sheet
from skatbot.storage import lists as lists_store
from skatbot.storage import questions
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm, keyboards, texts
from skatbot.usecases.common.confirm import Shown
from skatbot.usecases.common.names import check_unique, clean_name, resolve, take_name
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.people.persons import after_rename
from skatbot.usecases.sheet import texts as sheet_texts
from skatbot.usecases.sheet.booking import (
    KEEP_WORDS,
    Keys,
    after_row,
    book,
    game_text,
    user_fields,
)
from skatbot.usecases.sheet.json_list import export_document
from skatbot.usecases.sheet.lists import At, require_list
from skatbot.usecases.sheet.new_list import (
    opening_reply,
    refuse_at_tournament_desk,
    start_list,
)
from skatbot.usecases.sheet.views import list_number_word, picked_list

# Importable from here too (older homes of these names).
__all__ = [
    "after_row",
    "export_document",
    "list_number_word",
    "opening_reply",
    "picked_list",
    "refuse_at_tournament_desk",
    "start_list",
    "user_fields",
]

MAX_SERIES = 200
PASS_WORDS = {"passe", "eingepasst", "pass"}


# --- requests -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PassRound:
    """/eingepasst (or /spiel passe): everyone passed."""


@dataclass(frozen=True)
class Correct:
    """/korrigieren N …: the words after the command, and the command as typed (a refusal's
    hint repeats it)."""

    words: tuple[str, ...]
    typed: str = ""
    keep: bool = False  # "… wie gespielt": Bock and Ramsch stay as played


@dataclass(frozen=True)
class Cancel:
    """/storno N (``word``: the number as typed; None: none given). ``confirmed``: "/storno
    N ja", or the "Ja" of the question: an earlier game than the latest is struck without
    asking. ``keep``: "wie gespielt", Bock and Ramsch stay as played."""

    word: str | None
    confirmed: bool = False
    keep: bool = False


@dataclass(frozen=True)
class Rename:
    words: tuple[str, ...]  # the old name, then the new one (either may have spaces)


@dataclass(frozen=True)
class NextDealer:
    name: str


@dataclass(frozen=True)
class SeriesLength:
    games: int | None  # None: no plain number given (the refusal names the current length)


def parse_pass(cmd: Command) -> PassRound:
    return PassRound()


# The word a table may put before a game's number: "/korrigieren Spiel 7 …".
NUMBER_PREFIXES = {"spiel", "nr", "nr.", "nummer"}


def without_number_prefix(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` without a "Spiel" before the game's number ("Spiel 7 Anna …" → "7 Anna …")."""
    if len(words) > 1 and words[0].casefold() in NUMBER_PREFIXES and is_number(words[1]):
        return words[1:]
    return words


def _as_played(words: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """The words without a closing "wie gespielt", and whether it was there."""
    tail = len(KEEP_WORDS)
    if tuple(w.casefold() for w in words[-tail:]) == KEEP_WORDS:
        return words[:-tail], True
    return words, False


def _with_yes(words: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """The words without a closing "ja" after the number, and whether it was there."""
    if len(words) >= 2 and words[-1].casefold() == "ja":
        return words[:-1], True
    return words, False


def parse_korrigieren(cmd: Command) -> Correct:
    words, keep = _as_played(without_number_prefix(cmd.args))
    return Correct(words, cmd.text, keep)


def parse_storno(cmd: Command) -> Cancel:
    # "/storno 5 ja wie gespielt" and "/storno 5 wie gespielt ja" alike
    words, confirmed = _with_yes(cmd.args)
    words, keep = _as_played(words)
    if not confirmed:
        words, confirmed = _with_yes(words)
    return Cancel(words[0] if words else None, confirmed, keep)


def parse_umbenennen(cmd: Command) -> Rename:
    words = list(cmd.args)
    if len(words) < 2:
        raise RuleError("Alter und neuer Name?", hint="Z. B. /umbenennen Anna Annika")
    return Rename(tuple(words))


def parse_geber(cmd: Command) -> NextDealer:
    if not cmd.args:
        raise RuleError("Wer gibt als Nächstes?", hint="Z. B. /geber Bernd")
    return NextDealer(" ".join(cmd.args))


def parse_serie(cmd: Command) -> SeriesLength:
    words = cmd.args
    for word in words:
        refuse_foreign_digits(word, "die Zahl der Spiele", "/serie 48")
    if len(words) != 1 or not is_number(words[0]) or len(words[0]) > 4:
        return SeriesLength(None)
    return SeriesLength(int(words[0]))


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


def eingepasst(session: Session, place: Place, request: PassRound) -> sheet_texts.Passed:
    loaded = require_list(session, place)
    sheet = loaded.sheet
    sheet.check_can_add()
    sheet.check_pass_allowed()
    booked = book(session, place, loaded, row={"kind": RowKind.PASS, "dealer": sheet.next_dealer})
    return sheet_texts.Passed(booked, loaded.lst.seed)


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


def korrigieren(session: Session, place: Place, request: Correct) -> Reply:
    words = list(request.words)
    loaded = require_list(session, place)
    nr = _game_number(words[0] if words else None, "korrigieren", loaded.sheet)
    loaded.sheet.entry(nr)  # an unknown number is refused first
    fields, notes = correction_fields(loaded, nr, words[1:])
    return write_correction(
        session, place, loaded, nr, fields, notes, typed=request.typed, keep=request.keep
    )


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
    at: At,
    loaded: lists_store.LoadedList,
    nr: int,
    declarer: int,
    text: str,
    notes: tuple[str, ...] = (),
) -> Reply:
    """Replace game ``nr`` by a game given as canonical text (``/korrigieren``, the builder)."""
    fields = {"kind": RowKind.GAME, "declarer": declarer, "announcement": text}
    return write_correction(session, at, loaded, nr, fields, notes)


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
    at: At,
    loaded: lists_store.LoadedList,
    nr: int,
    fields: dict[str, object],
    notes: tuple[str, ...] = (),
    *,
    typed: str | None = None,
    keep: bool = False,
) -> Reply:
    """Strike game ``nr`` and book ``fields`` (see ``correction_fields``) in its place, with
    the same number and the same dealer unless ``fields`` name a new one; refuses what
    ``/korrigieren`` refuses, and a correction that changes nothing. ``typed``: the
    command as sent, for the hint of a refusal; ``keep``: Bock and Ramsch stay as played
    (see ``booking.book``)."""
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
    _check_correction(loaded, nr, fields, dealer, old_dealer)
    row = {"dealer": dealer, "target": target.row.id, **fields}
    booked = book(session, at, loaded, row=row, typed=typed, keep=keep)
    after, new = booked.after, booked.row
    entry = next(e for e in after.entries if new is not None and e.row.id == new.id)
    old = texts.entry_title(sheet, target)
    text = game_text(after, entry, loaded.lst.seed, "✏️", notes)
    head = f"Spiel {nr} korrigiert (gestrichen: <s>{old}</s>)."
    if keep and sheet.house is not None:
        head += f"\n{sheet_texts.KEPT}"
    if dealer != old_dealer:
        head += (
            f"\n🔄 Geber in Spiel {nr}: {escape(loaded.names[dealer])}"
            f" (vorher {escape(loaded.names[old_dealer])})."
        )
    return booked.reply(f"{head}\n{text}\n{UNDO_LINE}")


def _check_correction(
    loaded: lists_store.LoadedList,
    nr: int,
    fields: dict[str, object],
    dealer: int,
    old_dealer: int,
) -> None:
    """What the corrected game must fit: its dealer (who sits out at a 4-table), a Ramsch's
    table."""
    declarer = fields.get("declarer")
    if fields["kind"] is RowKind.GAME and isinstance(declarer, int):
        _check_corrected_declarer(loaded, nr, fields, declarer, dealer, old_dealer)
    if fields["kind"] is RowKind.RAMSCH and isinstance(fields.get("announcement"), str):
        sheet = loaded.sheet
        h.validate_ramsch(
            h.parse_ramsch_text(str(fields["announcement"])),
            sheet.table_size,
            sheet.sitting_out(dealer),
        )


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


UNDO_LINE = "↩️ Zurücknehmen: /rueckgaengig"


def storno_shown(session: Session, loaded: lists_store.LoadedList, entry: Entry) -> Shown:
    """The game as a question "Spiel N streichen?" names it: its row, as stored."""
    return Shown(
        f"row:{entry.row.id}",
        questions.thing_state(session, "rows", entry.row.id),
        f"Spiel {entry.nr} der Liste Nr. {lists_store.list_number(session, loaded.lst)}",
    )


def storno(session: Session, place: Place, request: Cancel) -> sheet_texts.Cancelled | Reply:
    """Strike game N: the latest game at once (``/rueckgaengig`` brings it back), an earlier
    one after a question naming it (``/storno N ja`` skips it)."""
    loaded = require_list(session, place)
    nr = _game_number(request.word, "storno", loaded.sheet)
    target = loaded.sheet.entry(nr)
    if target.nr is not None and target.nr < loaded.sheet.games_played and not request.confirmed:
        return _ask_storno(session, loaded, target, keep=request.keep)
    booked = book(
        session,
        place,
        loaded,
        row={"kind": RowKind.CANCEL, "target": target.row.id},
        keys=Keys.CANCEL,
        keep=request.keep,
    )
    title = texts.entry_title(loaded.sheet, target)
    kept = request.keep and loaded.sheet.house is not None
    return sheet_texts.Cancelled(booked, nr, title, loaded.lst.seed, kept)


def _ask_storno(
    session: Session, loaded: lists_store.LoadedList, entry: Entry, *, keep: bool = False
) -> Reply:
    """ "Spiel N streichen?" for an earlier game than the latest: a typo (/storno 1 for
    11) would strike a game nobody meant. The question is sealed into its "Ja" (it stores
    nothing): the "Ja" strikes exactly this game, or says what changed."""
    assert entry.nr is not None
    sheet = loaded.sheet
    sealed = confirm.seal(storno_shown(session, loaded, entry))
    text = (
        f"❓ Spiel {entry.nr} streichen? Es ist nicht das letzte Spiel (das ist Spiel "
        f"{sheet.games_played}).\n"
        f"Spiel {entry.nr} · {texts.entry_title(sheet, entry)}\n"
        f"👉 Ja oder Nein tippen – oder gleich: /storno {entry.nr} ja"
    )
    if keep:  # the "Ja" strikes plainly; "wie gespielt" goes with the typed answer only
        text = (
            f"❓ Spiel {entry.nr} streichen, Bock und Ramsch wie gespielt? Es ist nicht das "
            f"letzte Spiel (das ist Spiel {sheet.games_played}).\n"
            f"Spiel {entry.nr} · {texts.entry_title(sheet, entry)}\n"
            f"👉 Zum Streichen senden: /storno {entry.nr} ja wie gespielt"
        )
        return Reply(text)
    return Reply(
        text, buttons=keyboards.confirm_typed_cancel_buttons(entry.row.id, entry.nr, sealed)
    )


# --- /umbenennen, /geber, /serie ------------------------------------------------------------


def umbenennen(session: Session, place: Place, request: Rename) -> sheet_texts.Renamed:
    words = list(request.words)
    loaded = require_list(session, place)
    seat, used = take_name(words[:-1], loaded.names, before="/umbenennen")
    new = clean_name(" ".join(words[used:]).strip('"„“”'))
    others = [n for i, n in enumerate(loaded.names) if i != seat]
    check_unique([*others, new])
    old = loaded.players[seat].name
    after_rename(session, place.id, old, new)  # a linked person keeps the new spelling
    lists_store.rename_player(session, loaded.players[seat], new)
    return sheet_texts.Renamed(book(session, place, loaded, keys=Keys.NONE), old, new)


def geber(session: Session, place: Place, request: NextDealer) -> sheet_texts.DealerSet:
    loaded = require_list(session, place)
    seat = resolve(request.name, loaded.names)
    booked = book(
        session, place, loaded, row={"kind": RowKind.DEALER, "seat": seat}, keys=Keys.NONE
    )
    return sheet_texts.DealerSet(booked, loaded.names[seat])


def serie(session: Session, place: Place, request: SeriesLength) -> sheet_texts.SeriesLengthSet:
    loaded = require_list(session, place)
    n = request.games
    if n is None:
        raise RuleError(
            f"Wie viele Spiele soll die Serie haben? Jetzt: {loaded.lst.series_length}.",
            hint="Z. B. /serie 48",
        )
    played = loaded.sheet.games_played
    if not max(1, played) <= n <= MAX_SERIES:
        raise RuleError(
            f"{texts.games(n)} {'geht' if n == 1 else 'gehen'} nicht.",
            hint=f"Erlaubt: {max(1, played)} bis {MAX_SERIES} (schon gespielt: {played}).",
        )
    lists_store.set_series_length(session, loaded.lst, n)
    # A new sheet: the loaded one may be the sheet cache's, shared beyond this unit of work.
    booked = book(session, place, loaded, after=loaded.sheet.with_series_length(n), keys=Keys.NONE)
    return sheet_texts.SeriesLengthSet(booked, n)
