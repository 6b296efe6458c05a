"""House rules in the chat (docs/rules.md §6): /regeln, /startpunkte, /bock, /krank, /gesund, /ramsch.

In ISkO mode none of this exists: the commands are refused with a hint to /regeln haus.

The routes serve the places where lists are played. /regeln is parsed into a request and
worded by ``texts``; the commands that change the running list get the Command itself, as
its booking (``sheet.booking.book``) records the message and its sender with the row.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from html import escape

from skatbot.rules import house as h
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.rules.scoring import minus_sign
from skatbot.rules.sheet import RowKind, Sheet
from skatbot.storage import chats
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.names import resolve, take_name, take_names
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.common.table_guards import table_here
from skatbot.usecases.house import texts as house_texts
from skatbot.usecases.sheet.booking import Keys, book
from skatbot.usecases.sheet.lists import require_list

MAX_START = 100_000


def _require_house(sheet: Sheet, what: str) -> None:
    if sheet.house is None:
        raise RuleError(
            f"{what} gibt es nur mit Hausregeln.",
            hint="Mit /regeln haus einschalten (vor dem ersten Spiel).",
        )


@dataclass(frozen=True)
class ShowRules:
    pass


@dataclass(frozen=True)
class SetRules:
    code: str  # "isko", "haus", "haus-geber" (``HouseRules.code``)


def _dealing_round(options: list[str]) -> bool:
    """``/regeln haus``'s options: whether a round is a dealer's round (else one game)."""
    dealing = False
    for opt in options:
        if opt in ("runde=geberrunde", "geberrunde"):
            dealing = True
        elif opt not in ("runde=spiel", "spiel"):
            raise RuleError(
                f"Option „{opt[:30]}“ kenne ich nicht.", hint="runde=spiel oder runde=geberrunde"
            )
    return dealing


def parse_regeln(cmd: Command) -> ShowRules | SetRules:
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ShowRules()
    kind, options = words[0], words[1:]
    if kind not in ("haus", "isko"):
        raise RuleError(
            f"„{cmd.args[0][:20]}“ kenne ich nicht.", hint="/regeln haus oder /regeln isko"
        )
    if kind == "haus":
        return SetRules(h.HouseRules(dealing_round=_dealing_round(options)).code)
    if options:
        raise RuleError("ISkO hat keine Optionen.", hint="/regeln isko")
    return SetRules("isko")


def regeln(
    session: Session, place: Place, request: ShowRules | SetRules
) -> house_texts.RulesShown | house_texts.RulesSet:
    """The rules of the place's next lists (and of its running list while it has no game)."""
    if isinstance(request, ShowRules):
        house = chats.chat_rules(session, place.id).startswith("haus")
        return house_texts.RulesShown(house, place.here)
    code = request.code
    chats.set_chat_rules(session, place.id, code)
    lst = lists_store.open_list(session, place.id)
    if lst is None:
        here = table_here(session, place.id)
        at_table = here is not None and not here.over
        return house_texts.RulesSet(
            code, house_texts.From.AT_TABLE if at_table else house_texts.From.NEW_LIST
        )
    if lists_store.load(session, lst).rows:
        return house_texts.RulesSet(code, house_texts.From.NEXT_LIST)
    lists_store.set_list_rules(session, lst, code)
    return house_texts.RulesSet(code, house_texts.From.NOW)


def _signed_int(word: str) -> int | None:
    w = word.replace("−", "-").replace("+", "")
    body = w[1:] if w.startswith("-") else w
    if not is_number(body) or len(body) > 6:
        return None
    return int(w)


def startpunkte(session: Session, place: Place, cmd: Command) -> Reply:
    loaded = require_list(session, cmd)
    _require_house(loaded.sheet, "Startpunkte")
    words = list(cmd.args)
    pairs_hint = "Z. B. /startpunkte Anna 100 Bernd -20"
    if not words or _signed_int(words[0]) is not None:
        raise RuleError("Name und Punkte paarweise.", hint=pairs_hint)
    if loaded.rows:
        raise RuleError(
            "Startpunkte gehen nur vor dem ersten Spiel.",
            hint="Für die nächste Liste: /abschluss, /weiter, dann /startpunkte.",
        )
    changes: dict[int, int] = {}
    i = 0
    while i < len(words):
        before = " ".join(["/startpunkte", *words[:i]])
        seat, used = take_name(words[i:], loaded.names, before=before)
        if i + used >= len(words):
            raise RuleError("Name und Punkte paarweise.", hint=pairs_hint)
        raw = words[i + used]
        i += used + 1
        value = _signed_int(raw)
        if value is None or abs(value) > MAX_START:
            raise RuleError(
                f"„{raw[:12]}“ ist keine Punktzahl.",
                hint=f"Ganze Zahl zwischen −{MAX_START} und {MAX_START}.",
            )
        changes[seat] = value
    for seat, value in changes.items():
        lists_store.set_start_points(session, loaded.players[seat], value)
    points = [changes.get(p.seat, p.start_points) for p in loaded.players]
    shown = " · ".join(
        f"{escape(p.name)} {minus_sign(pts)}" for p, pts in zip(loaded.players, points, strict=True)
    )
    text = f"🏁 Startpunkte: {shown}\n{texts.progress(loaded.sheet)}"
    return book(session, cmd, loaded, keys=Keys.NONE).reply(text)


def bock(session: Session, place: Place, cmd: Command) -> Reply:
    loaded = require_list(session, cmd)
    _require_house(loaded.sheet, "Bock")
    booked = book(session, cmd, loaded, row={"kind": RowKind.BOCK}, keys=Keys.HEALTH)
    return booked.reply(f"🎲 3B3R von Hand ausgelöst.\n{texts.progress(booked.after)}")


def krank(session: Session, place: Place, cmd: Command) -> Reply:
    loaded = require_list(session, cmd)
    sheet = loaded.sheet
    _require_house(sheet, "Krankmelden")
    if not cmd.args:
        may = [
            i
            for i in range(sheet.table_size)
            if i not in sheet.state.sick_used and sheet.sitting_out(sheet.next_dealer) != i
        ]
        who = texts.command_name(loaded.names, may[0]) if may else "NAME"
        raise RuleError("Wer ist krank?", hint=f"Z. B. /krank {who}")
    seat = resolve(" ".join(cmd.args), loaded.names)
    state = sheet.state
    name = escape(loaded.names[seat])
    if state.phase is not h.Phase.RAMSCH:
        raise RuleError("Krankmelden geht nur vor einem Ramsch.", hint=f"Stand: {state.label()}.")
    if state.sick_now is not None:
        sick = loaded.names[state.sick_now]
        raise RuleError(
            f"{sick} ist schon krank gemeldet.",
            hint=f"Erst die Grand Hand von {sick} eintragen "
            f"(/spiel {texts.command_name(loaded.names, state.sick_now)} grand mit 1 hand "
            "gewonnen) – oder /gesund.",
        )
    if seat in state.sick_used:
        raise RuleError(
            f"{loaded.names[seat]} war in dieser Ramsch-Phase schon krank.",
            hint="Jeder nur einmal pro Ramsch-Phase.",
        )
    if sheet.sitting_out(sheet.next_dealer) == seat:
        raise RuleError(
            f"{loaded.names[seat]} gibt und setzt aus.", hint="Der Geber spielt nicht mit."
        )
    booked = book(session, cmd, loaded, row={"kind": RowKind.SICK, "seat": seat}, keys=Keys.NONE)
    return booked.reply(
        f"🤒 {name} ist krank und muss Grand Hand spielen (ohne Schneider, Kontra, Re). "
        "Der Ramsch-Zähler bleibt stehen.\n"
        f"Eintragen: /spiel {name} grand mit 1 hand gewonnen\n{texts.progress(booked.after)}"
    )


def gesund(session: Session, place: Place, cmd: Command) -> Reply:
    loaded = require_list(session, cmd)
    sheet = loaded.sheet
    _require_house(sheet, "Ramsch")
    if sheet.state.phase is not h.Phase.RAMSCH:
        raise RuleError("Gerade ist keine Ramsch-Phase.", hint=f"Stand: {sheet.state.label()}.")
    if sheet.state.sick_now is None:
        return Reply(
            "💪 Alle gesund – es wird geramscht.\n"
            "Eintragen: /ramsch VERLIERER AUGEN [geschoben N] [jungfrau N]\n"
            + texts.house_line(sheet)
        )
    booked = book(session, cmd, loaded, row={"kind": RowKind.HEALTHY}, keys=Keys.NONE)
    return booked.reply(f"💪 Doch alle gesund – es wird geramscht.\n{texts.progress(booked.after)}")


def _count(words: list[str], key: str) -> int:
    if key not in words:
        return 0
    i = words.index(key)
    if i + 1 >= len(words) or not is_number(words[i + 1]) or len(words[i + 1]) > 2:
        raise RuleError(f"Nach „{key}“ fehlt die Anzahl.", hint=f"Z. B. „{key} 1“.")
    n = int(words[i + 1])
    del words[i : i + 2]
    return n


def parse_ramsch(args: tuple[str, ...], names: list[str]) -> h.Ramsch:
    words = list(args)
    lowered = [w.casefold() for w in words]
    pushes = _count(lowered, "geschoben")
    virgins = _count(lowered, "jungfrau")
    words = _without_counts(words)
    if words and words[0].casefold() == "durchmarsch":
        if len(words) < 2:
            raise RuleError(
                "Wer hat den Durchmarsch geschafft?", hint="Z. B. /ramsch durchmarsch Anna"
            )
        winner = resolve(" ".join(words[1:]), names)
        return h.Ramsch(durchmarsch=winner, pushes=pushes, virgins=virgins)
    if len(words) < 2 or not is_number(words[-1]) or len(words[-1]) > 3:
        raise RuleError(
            "Verlierer und Augen?",
            hint="Z. B. /ramsch Anna 55 geschoben 1 – bei Gleichstand /ramsch Anna Bernd 50",
        )
    losers = tuple(take_names(words[:-1], names, before="/ramsch"))
    if len(losers) == 1 and virgins >= 2 and int(words[-1]) == h.RAMSCH_MAX:
        # the loser took every trick: that is a Durchmarsch (+120), not a Ramsch lost
        who = names[losers[0]]
        raise RuleError(
            f"Wenn {who} alle Stiche hat, ist das ein Durchmarsch.",
            hint=f"/ramsch durchmarsch {who}",
        )
    if len(losers) > 3:
        raise RuleError(
            "Verlierer und Augen?",
            hint="Z. B. /ramsch Anna 55 geschoben 1 – bei Gleichstand /ramsch Anna Bernd 50",
        )
    return h.Ramsch(losers=losers, points=int(words[-1]), pushes=pushes, virgins=virgins)


def _without_counts(words: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        if w.casefold() in ("geschoben", "jungfrau"):
            skip = True
            continue
        out.append(w)
    return out


def ramsch(session: Session, place: Place, cmd: Command) -> Reply:
    loaded = require_list(session, cmd)
    sheet = loaded.sheet
    _require_house(sheet, "Ramsch")
    sheet.check_can_add()
    sheet.check_ramsch_allowed()
    game = parse_ramsch(cmd.args, loaded.names)
    dealer = sheet.next_dealer
    h.validate_ramsch(game, sheet.table_size, sheet.sitting_out(dealer))
    booked = book(
        session,
        cmd,
        loaded,
        row={"kind": RowKind.RAMSCH, "dealer": dealer, "announcement": game.text()},
    )
    after = booked.after
    entry = after.entries[-1]
    lines = [
        f"🐷 <b>Spiel {entry.nr}/{after.series_length}</b> · {texts.entry_title(after, entry)}"
    ]
    lines.extend(texts.ramsch_lines(after, entry))
    lines.append(f"Stand: {texts.standings_line(after, loaded.lst.seed)}")
    lines.append(texts.progress(after))
    return booked.reply("\n".join(lines))


def health_tap(
    session: Session, place: Place, cmd: Command, list_id: int, rows: int, seat: int | None
) -> Reply:
    """A tap on "Alle gesund" (seat None) or "NAME krank" under a reply before a Ramsch."""
    loaded = require_list(session, cmd)
    if loaded.lst.id != list_id or len(loaded.rows) != rows:
        raise RuleError(
            "Diese Frage ist veraltet – die Liste hat sich geändert.",
            hint="/stand zeigt, wie es steht.",
        )
    if seat is None:
        return gesund(session, place, cmd)
    if not 0 <= seat < len(loaded.names):
        raise RuleError("Diesen Spieler gibt es nicht.", hint="/krank NAME")
    return krank(session, place, dataclasses.replace(cmd, args=(loaded.names[seat],)))
