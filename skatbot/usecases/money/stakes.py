"""Money use cases: /einsatz, /abrechnung at a table; /gebuehren, /preise, /kasse
at a tournament desk; and the money parts of the list PDF, the export and the certificates.

The arithmetic is :mod:`skatbot.rules.money`; the settings are the append-only log of
:mod:`skatbot.storage.money`.

**Where a stake lives.** ``/einsatz 1 ct`` holds for this chat's (or topic's) lists until it is
changed: the running list and every later one (``/weiter``, ``/neu``). Lists before keep the
stake they were played with. Without a running list a new stake also covers the latest list if
that was played without one (set after ``/abschluss``, then ``/abrechnung``); otherwise it
starts with the next list. The reply says which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from skatbot.rules import money as m
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.rules.scoring import minus_sign
from skatbot.storage import lists as lists_store
from skatbot.storage import money as money_store
from skatbot.storage.database import ensure_chat
from skatbot.storage.unit import Session
from skatbot.usecases.common import rich, texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.common.rich import Block, Cell, Paragraph, RichDoc, Table
from skatbot.usecases.common.rights import owns
from skatbot.usecases.evening.evenings import evening_lists
from skatbot.usecases.money import texts as stake_texts
from skatbot.usecases.sheet.list_changes import list_number_word, picked_list

# --- stakes of a list -----------------------------------------------------------------------


def stake_of(session: Session, lst: lists_store.ListInfo) -> m.Stake | None:
    data = money_store.latest(session, lst.chat_id, money_store.STAKE, list_id=lst.id)
    return None if data is None else m.Stake.from_json(data)


# /einsatz … startpunkte: the start points of a house-rules list move money too (a chat that
# carries its standings over from an earlier evening); by default money settles what was played.
START_WORDS = {"startpunkte", "mit-startpunkten", "mitstartpunkten"}


def carries_start(session: Session, lst: lists_store.ListInfo) -> bool:
    data = money_store.latest(session, lst.chat_id, money_store.STAKE, list_id=lst.id)
    return data is not None and data.get("start") is True


def money_scores(session: Session, loaded: lists_store.LoadedList) -> list[int]:
    """The scores money settles, in seat order: what was played in the series (start points
    left out), unless the stake carries them (``/einsatz … startpunkte``)."""
    sheet = loaded.sheet
    scores = [s.score for s in sheet.standings()]
    if sheet.house is None or not any(sheet.start) or carries_start(session, loaded.lst):
        return scores
    return [score - start for score, start in zip(scores, sheet.start, strict=True)]


def start_points_line(
    session: Session, loaded: lists_store.LoadedList, stake: m.Stake
) -> str | None:
    """How the settlement treated start points (None when the list has none)."""
    sheet = loaded.sheet
    if sheet.house is None or not any(sheet.start):
        return None
    shown = " · ".join(
        f"{n} {minus_sign(p)}" for n, p in zip(sheet.players, sheet.start, strict=True) if p
    )
    amount = m.format_stake(stake.per_point)
    if carries_start(session, loaded.lst):
        return (
            f"Startpunkte ({shown}) zählen mit. Nur was gespielt wurde: "
            f"/einsatz {amount} {stake.method.value}"
        )
    return (
        f"Startpunkte ({shown}) bewegen kein Geld – abgerechnet wird, was in der Serie "
        f"gespielt wurde. Mit Startpunkten: /einsatz {amount} {stake.method.value} startpunkte"
    )


def list_settlement(session: Session, loaded: lists_store.LoadedList) -> m.Settlement | None:
    """The list's settlement under its stake (None without a stake)."""
    stake = stake_of(session, loaded.lst)
    if stake is None:
        return None
    standings = loaded.sheet.standings()
    return m.settle_scores(
        [s.name for s in standings],
        money_scores(session, loaded),
        [s.lost for s in standings],
        stake,
    )


def settlement_lines(
    settlement: m.Settlement, scores: Sequence[int], lost: Sequence[int] = ()
) -> list[str]:
    """Plain text (no HTML): the stake, each player's balance, then the transfers or the pot.
    Into the pot per lost game, a player's lost games stand beside the name, else the score."""
    lines = [f"Einsatz: {settlement.stake.label}"]
    names = settlement.names
    if settlement.is_pot:
        per_game = settlement.stake.method is m.Method.POT_GAMES and len(lost) == len(names)
        shown = [f"{n} verl." for n in lost] if per_game else [minus_sign(s) for s in scores]
        for name, what, balance in zip(names, shown, settlement.balances, strict=True):
            pays = f"zahlt {m.format_money(-balance)}" if balance else "zahlt nichts"
            lines.append(f"{name} ({what}): {pays}")
        lines.append(f"In der Kasse: {m.format_money(settlement.pot)}")
        return lines
    for name, score, balance in zip(names, scores, settlement.balances, strict=True):
        lines.append(f"{name} ({minus_sign(score)}): {m.format_money(balance, signed=True)}")
    if not settlement.transfers:
        lines.append("Niemand muss zahlen.")
        return lines
    lines.append(transfers_line(len(settlement.transfers)))
    for t in settlement.transfers:
        lines.append(f"{names[t.payer]} → {names[t.payee]}: {m.format_money(t.cents)}")
    return lines


def transfers_line(count: int) -> str:
    return "Zahlungen: " + ("1 Überweisung" if count == 1 else f"{count} Überweisungen")


def series_money_lines(session: Session, loaded: lists_store.LoadedList) -> list[str]:
    """For the list's PDF (Zwischenstand or Serienabschluss): the settlement's lines, empty without a stake."""
    settlement = list_settlement(session, loaded)
    if settlement is None:
        return []
    standings = loaded.sheet.standings()
    lines = settlement_lines(settlement, money_scores(session, loaded), [s.lost for s in standings])
    start = start_points_line(session, loaded, settlement.stake)
    return [*lines, start] if start else lines


def export_money(session: Session, loaded: lists_store.LoadedList) -> dict[str, Any] | None:
    """The ``money`` part of the list export (None without a stake)."""
    settlement = list_settlement(session, loaded)
    if settlement is None:
        return None
    names = settlement.names
    return {
        "stake_cents_per_point": str(settlement.stake.per_point),
        "method": settlement.stake.method.value,
        "balances_cents": dict(zip(names, settlement.balances, strict=True)),
        "transfers": [
            {"from": names[t.payer], "to": names[t.payee], "cents": t.cents}
            for t in settlement.transfers
        ],
        "pot_cents": settlement.pot,
    }


# --- /einsatz -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShowStake:
    """``/einsatz``: the place's stake, and the list's when it differs."""


@dataclass(frozen=True)
class SetStake:
    """``/einsatz BETRAG [ART] [startpunkte]`` or ``/einsatz aus`` (``stake`` None)."""

    stake: m.Stake | None
    carry_start: bool


@dataclass(frozen=True)
class StakeOfList:
    """``/einsatz BETRAG liste N``: the stake of list N alone."""

    number: int
    stake: m.Stake | None
    words: tuple[str, ...]  # as typed, for the refusal's hint


def parse(cmd: Command) -> ShowStake | SetStake | StakeOfList:
    if not cmd.args:
        return ShowStake()
    words = [w.casefold() for w in cmd.args]
    if "liste" in words[:-1] and is_number(words[words.index("liste") + 1]):
        at = words.index("liste")
        stake = m.parse_stake([*cmd.args[:at], *cmd.args[at + 2 :]])
        return StakeOfList(int(cmd.args[at + 1]), stake, cmd.args)
    carry = any(w in START_WORDS for w in words)
    return SetStake(m.parse_stake([w for w in cmd.args if w.casefold() not in START_WORDS]), carry)


def einsatz(
    session: Session, place: Place, request: ShowStake | SetStake | StakeOfList
) -> stake_texts.StakeShown | stake_texts.StakeSet | stake_texts.ListStakeSet:
    """``/einsatz BETRAG [paarweise|kasse|verlustspiel]``, ``/einsatz aus``, ``/einsatz``,
    ``/einsatz BETRAG liste N``. A Preisskat desk keeps no lists: the route serves it not."""
    if isinstance(request, StakeOfList):
        return _stake_of_earlier_list(session, place, request)
    if isinstance(request, ShowStake):
        return _show_stake(session, place)
    return _set_stake(session, place, request)


def _show_stake(session: Session, place: Place) -> stake_texts.StakeShown:
    running = lists_store.open_list(session, place.id)
    latest = running or lists_store.latest_list(session, place.id)
    current = money_store.latest(session, place.id, money_store.STAKE)
    stake = None if current is None else m.Stake.from_json(current)
    of_list = stake_of(session, latest) if latest is not None else None
    differs = latest is not None and of_list != stake
    return stake_texts.StakeShown(stake, of_list, differs, running is not None)


def _stake_scope(
    session: Session, running: lists_store.ListInfo | None, latest: lists_store.ListInfo | None
) -> tuple[int, stake_texts.Scope]:
    """From which list a new stake of the place holds."""
    if running is not None:
        return running.id, stake_texts.Scope.RUNNING
    if latest is not None and stake_of(session, latest) is None:
        return latest.id, stake_texts.Scope.LATEST
    if latest is not None:
        return latest.id + 1, stake_texts.Scope.NEXT
    return 0, stake_texts.Scope.ALL


def _set_stake(session: Session, place: Place, request: SetStake) -> stake_texts.StakeSet:
    running = lists_store.open_list(session, place.id)
    latest = running or lists_store.latest_list(session, place.id)
    stake = request.stake
    ensure_chat(session, place.id)  # the stake's row refers to it
    from_list, scope = _stake_scope(session, running, latest)
    value: dict[str, object] = {"per_point": "0", "method": "paarweise"}
    if stake is not None:
        value = dict(stake.to_json())
    carries_start = request.carry_start and stake is not None
    if carries_start:
        value["start"] = True
    changed = _stake_changed(session, place, running, stake)
    asker = place.asker
    money_store.add(
        session, place.id, money_store.STAKE, value, from_list=from_list,
        user_id=asker.user_id, update_id=asker.update_id,
    )  # fmt: skip
    return stake_texts.StakeSet(stake, scope, place.here, carries_start, changed)


def closed_list_manager(session: Session, place: Place, request: object) -> None:
    """The right ``rights.CLOSED_LIST_STAKE``: the money of a closed series is changed like the
    series itself (``/oeffnen``), by its creator or the chat's admins; an open list's by anyone
    (a list that is not there is the use case's refusal)."""
    assert isinstance(request, StakeOfList)
    lst = lists_store.numbered_list(session, place.id, request.number)
    if lst is None or lst.status == "open" or place.asker.is_admin:
        return
    if owns(place.asker.user_id, lst.created_by):
        return
    raise RuleError(
        f"Den Einsatz der abgeschlossenen Liste {request.number} ändern nur die Admins dieses "
        "Chats und wer die Liste angelegt hat.",
        hint=f"Bitte einen Admin, /einsatz {escape(' '.join(request.words))} zu schicken.",
    )


def _stake_of_earlier_list(
    session: Session, place: Place, request: StakeOfList
) -> stake_texts.ListStakeSet:
    """``/einsatz BETRAG liste N``: the stake of list N alone (an earlier series of the
    evening played without one); the chat's stake and the other lists keep theirs. Who may
    change a closed list's stake is the route's right (``closed_list_manager``)."""
    number, stake = request.number, request.stake
    ensure_chat(session, place.id)  # the stake's row refers to it
    lst = lists_store.numbered_list(session, place.id, number)
    if lst is None:
        raise RuleError(
            f"In {place.here} gibt es keine Liste {number}.", hint="Alle Listen zeigt /listen."
        )
    value = stake.to_json() if stake else {"per_point": "0", "method": "paarweise"}
    money_store.add(
        session, place.id, money_store.STAKE, {**value, "only": lst.id}, from_list=lst.id,
        user_id=place.asker.user_id, update_id=place.asker.update_id,
    )  # fmt: skip
    return stake_texts.ListStakeSet(number, stake, _in_latest_evening(session, place, lst))


def _in_latest_evening(session: Session, place: Place, lst: lists_store.ListInfo) -> bool:
    """Whether ``/abrechnung abend`` settles ``lst`` with others: it is one of several
    series of the latest evening (the /weiter chain of the latest list)."""
    latest = lists_store.latest_list(session, place.id)
    if latest is None:
        return False
    evening = evening_lists(session, latest)
    return len(evening) > 1 and lst.id in {e.id for e in evening}


def _stake_changed(
    session: Session, place: Place, running: lists_store.ListInfo | None, new: m.Stake | None
) -> stake_texts.StakeChanged | None:
    """The table is told when the money of a list it is playing changes: who changed it,
    from what to what, and that the games already played count with the new stake."""
    if running is None:
        return None
    old = stake_of(session, running)
    if old == new:
        return None
    played = lists_store.load(session, running).sheet.games_played
    if not played:
        return None
    return stake_texts.StakeChanged(place.asker.name, old, new, played)


def list_settlement_reply(session: Session, cmd: Command) -> Reply:
    """``/abrechnung [N]`` at a table: who pays whom for the list (its stake)."""
    _number, words = list_number_word(list(cmd.args), "/abrechnung")
    if words:
        raise RuleError(
            f"„{words[0][:20]}“ kenne ich bei /abrechnung nicht.",
            hint="/abrechnung (die Liste), /abrechnung 2 (Liste 2) oder /abrechnung abend "
            "(alle Serien des Abends)",
        )
    lst, _words, _head = picked_list(session, cmd)
    loaded = lists_store.load(session, lst)
    settlement = list_settlement(session, loaded)
    if settlement is None:
        raise RuleError(
            "Für diese Liste ist kein Einsatz festgelegt.",
            hint="Z. B. /einsatz 1 ct (pro Punkt, paarweise) oder /einsatz 1 ct kasse, "
            "dann /abrechnung.",
        )
    number = lists_store.list_number(session, lst)
    state = "Endstand" if lst.status == "closed" else "Zwischenstand"
    head = (
        f"💶 <b>Abrechnung</b> – Liste {number} ({state}, {texts.games(loaded.sheet.games_played)})"
    )
    standings = loaded.sheet.standings()
    scores, lost = money_scores(session, loaded), [s.lost for s in standings]
    body = [escape(line) for line in settlement_lines(settlement, scores, lost)]
    start = start_points_line(session, loaded, settlement.stake)
    start_line = "🏁 " + escape(start) if start else ""
    if start_line:
        body.append(start_line)
    if settlement.is_pot:
        note = "Wertung: " + texts.rules_label(loaded.sheet)
    else:
        note = (
            "Paarweise: jeder zahlt jedem Besseren die Differenz × Einsatz "
            f"({texts.rules_label(loaded.sheet)})."
        )
    body.append(note)
    doc = settlement_doc(head, settlement, scores, lost, note, start=start_line)
    settings = rich.settings_of(session, cmd.place_id, None)
    return Reply(rich.maybe("\n".join([head, *body]), doc, settings))


def settlement_doc(
    head: str,
    settlement: m.Settlement,
    scores: Sequence[int],
    lost: Sequence[int],
    note: str,
    *,
    start: str = "",
) -> RichDoc:
    """``settlement_lines`` as tables: each player's balance, then the transfers; ``start``
    (HTML) how start points were treated, after the amounts as in the text form."""
    names = settlement.names
    blocks: list[Block] = [
        Paragraph(head),
        Paragraph(escape(f"Einsatz: {settlement.stake.label}")),
    ]
    if settlement.is_pot:
        per_game = settlement.stake.method is m.Method.POT_GAMES and len(lost) == len(names)
        shown = [f"{n}" for n in lost] if per_game else [minus_sign(x) for x in scores]
        rows = tuple(
            (
                Cell(escape(name)),
                Cell(escape(what), right=True),
                Cell(escape(m.format_money(-balance)) if balance else "nichts", right=True),
            )
            for name, what, balance in zip(names, shown, settlement.balances, strict=True)
        )
        blocks.append(Table(("Spieler", "verl." if per_game else "Punkte", "zahlt"), rows))
        blocks.append(Paragraph(escape(f"In der Kasse: {m.format_money(settlement.pot)}")))
    else:
        rows = tuple(
            (
                Cell(escape(name)),
                Cell(escape(minus_sign(score)), right=True),
                Cell(f"<b>{escape(m.format_money(balance, signed=True))}</b>", right=True),
            )
            for name, score, balance in zip(names, scores, settlement.balances, strict=True)
        )
        blocks.append(Table(("Spieler", "Punkte", "Saldo"), rows))
        if settlement.transfers:
            blocks.append(Paragraph(transfers_line(len(settlement.transfers))))
            pays = tuple(
                (
                    Cell(escape(names[t.payer])),
                    Cell(escape(names[t.payee])),
                    Cell(escape(m.format_money(t.cents)), right=True),
                )
                for t in settlement.transfers
            )
            blocks.append(Table(("zahlt", "an", "Betrag"), pays))
        else:
            blocks.append(Paragraph("Niemand muss zahlen."))
    if start:
        blocks.append(Paragraph(start))
    blocks.append(Paragraph(escape(note)))
    return RichDoc(tuple(blocks))


def evening_settlement(session: Session, place: Place) -> Reply:
    """The evening of /abend (the lists linked by /weiter on one day), each series settled
    under its own stake, the balances added per player (names matched as /abend does) and
    settled anew: the fewest transfers for the whole evening."""
    latest = lists_store.latest_list(session, place.id)
    if latest is None:
        raise RuleError(
            f"In {place.here} gibt es noch keine Liste.",
            hint="Starte eine mit /neu Anna Bernd Carla.",
        )
    lists = evening_lists(session, latest)
    names: dict[str, str] = {}  # casefolded -> as written in the latest series
    parts: list[dict[str, int]] = []
    stakes: list[m.Stake] = []
    without: list[int] = []
    for number, lst in enumerate(lists, 1):
        settlement = list_settlement(session, lists_store.load(session, lst))
        if settlement is None:
            without.append(number)
            continue
        stakes.append(settlement.stake)
        part: dict[str, int] = {}
        for name, balance in zip(settlement.names, settlement.balances, strict=True):
            names[name.casefold()] = name
            part[name.casefold()] = part.get(name.casefold(), 0) + balance
        parts.append(part)
    if not parts:
        raise RuleError(
            "Keine Serie dieses Abends hat einen Einsatz.",
            hint="Z. B. /einsatz 1 ct – er gilt für die laufende und alle folgenden Listen.",
        )
    if len({st.method.pot for st in stakes}) > 1:
        raise RuleError(
            "Die Serien dieses Abends sind teils paarweise, teils in die Kasse abgerechnet – "
            "das lässt sich nicht zu einer Abrechnung zusammenfassen.",
            hint="Jede Serie einzeln: ihr PDF (/pdf) zeigt ihre Abrechnung.",
        )
    keys = list(names)
    total = m.combine(keys, parts, stakes[-1])
    count = texts.series_count(len(lists))
    lines = [f"💶 <b>Abrechnung des Abends</b> ({count})"]
    labels = sorted({st.label for st in stakes})
    lines.append(escape("Einsatz: " + " / ".join(labels)))
    if without:
        numbers = ", ".join(str(n) for n in without)
        lines.append(f"Ohne Einsatz (zählt nicht): Serie {numbers}")
    for key, balance in zip(keys, total.balances, strict=True):
        shown = (
            (f"zahlt {m.format_money(-balance)}" if balance else "zahlt nichts")
            if total.is_pot
            else m.format_money(balance, signed=True)
        )
        lines.append(f"{escape(names[key])}: {shown}")
    if total.is_pot:
        lines.append(f"In der Kasse: {m.format_money(total.pot)}")
    elif not total.transfers:
        lines.append("Niemand muss zahlen.")
    else:
        lines.append(transfers_line(len(total.transfers)))
        for t in total.transfers:
            payer, payee = escape(names[keys[t.payer]]), escape(names[keys[t.payee]])
            lines.append(f"{payer} → {payee}: {m.format_money(t.cents)}")
    lines.append("Jede Serie nach ihrem Einsatz, die Salden addiert (Serien: /abend).")
    return Reply("\n".join(lines))


# --- hooks of the existing documents (one line each at their call sites) ---------------------


def add_export_money(
    session: Session, loaded: lists_store.LoadedList, data: dict[str, object]
) -> None:
    """The list export gains ``money`` when the list has a stake (else it stays as it was)."""
    part = export_money(session, loaded)
    if part is not None:
        data["money"] = part
