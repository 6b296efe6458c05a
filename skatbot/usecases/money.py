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

import datetime as dt
from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING, Any, TypeVar

from skatbot.rules import money as m
from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.rules.scoring import minus_sign
from skatbot.storage import money as store
from skatbot.storage import repo
from skatbot.storage import tournament_repo as trepo
from skatbot.storage.database import ensure_chat, lock_chat
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases import texts, tournament
from skatbot.usecases.reply import Command, Document, Reply

if TYPE_CHECKING:
    from skatbot.pdf.cash import CashDocument
    from skatbot.usecases.rich import RichDoc

PDF_SUMMARY_LINES = 12


def _rest(cmd: Command) -> str:
    parts = cmd.text.split(None, 1)
    return parts[1] if len(parts) > 1 else ""


# --- stakes of a list -----------------------------------------------------------------------


def stake_of(session: Session, lst: repo.ListInfo) -> m.Stake | None:
    data = store.latest(session, lst.chat_id, store.STAKE, list_id=lst.id)
    return None if data is None else m.Stake.from_json(data)


# /einsatz … startpunkte: the start points of a house-rules list move money too (a chat that
# carries its standings over from an earlier evening); by default money settles what was played.
START_WORDS = {"startpunkte", "mit-startpunkten", "mitstartpunkten"}


def carries_start(session: Session, lst: repo.ListInfo) -> bool:
    data = store.latest(session, lst.chat_id, store.STAKE, list_id=lst.id)
    return data is not None and data.get("start") is True


def money_scores(session: Session, loaded: repo.LoadedList) -> list[int]:
    """The scores money settles, in seat order: what was played in the series (start points
    left out), unless the stake carries them (``/einsatz … startpunkte``)."""
    sheet = loaded.sheet
    scores = [s.score for s in sheet.standings()]
    if sheet.house is None or not any(sheet.start) or carries_start(session, loaded.lst):
        return scores
    return [score - start for score, start in zip(scores, sheet.start, strict=True)]


def start_points_line(session: Session, loaded: repo.LoadedList, stake: m.Stake) -> str | None:
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


def list_settlement(session: Session, loaded: repo.LoadedList) -> m.Settlement | None:
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
    count = len(settlement.transfers)
    lines.append("Zahlungen: " + ("1 Überweisung" if count == 1 else f"{count} Überweisungen"))
    for t in settlement.transfers:
        lines.append(f"{names[t.payer]} → {names[t.payee]}: {m.format_money(t.cents)}")
    return lines


def series_money_lines(session: Session, loaded: repo.LoadedList) -> list[str]:
    """For the Serienabschluss PDF: the settlement's lines, empty without a stake."""
    settlement = list_settlement(session, loaded)
    if settlement is None:
        return []
    standings = loaded.sheet.standings()
    lines = settlement_lines(settlement, money_scores(session, loaded), [s.lost for s in standings])
    start = start_points_line(session, loaded, settlement.stake)
    return [*lines, start] if start else lines


def export_money(session: Session, loaded: repo.LoadedList) -> dict[str, Any] | None:
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


def _refuse_at_desk(session: Session, cmd: Command, what: str) -> None:
    if trepo.tournament_of(session, cmd.chat_id) is not None:
        raise RuleError(
            f"{what} gilt für Listen am Tisch; hier ist die Turnierleitung eines Turniers.",
            hint="Turniergeld: /gebuehren, /preise, /kasse.",
        )


def einsatz(session: Session, cmd: Command) -> Reply:
    """``/einsatz BETRAG [paarweise|kasse|verlustspiel]``, ``/einsatz aus``, ``/einsatz``."""
    _refuse_at_desk(session, cmd, "Der Einsatz")
    running = repo.open_list(session, cmd.chat_id)
    latest = running or repo.latest_list(session, cmd.chat_id)
    if not cmd.args:
        current = store.latest(session, cmd.chat_id, store.STAKE)
        stake = None if current is None else m.Stake.from_json(current)
        lines = [
            "💶 Einsatz: "
            + (escape(stake.label) if stake else "keiner")
            + " (gilt, bis er mit /einsatz geändert wird)."
        ]
        if latest is not None:
            of_list = stake_of(session, latest)
            if (of_list is None) != (stake is None) or (of_list and of_list != stake):
                label = of_list.label if of_list else "keiner"
                lines.append(
                    f"Für die {'laufende' if running else 'letzte'} Liste: {escape(label)}."
                )
        lines.append("Setzen: " + m.STAKE_EXAMPLE + " · ohne Geld: /einsatz aus")
        return Reply("\n".join(lines))
    words = [w.casefold() for w in cmd.args]
    if "liste" in words[:-1] and is_number(words[words.index("liste") + 1]):
        return _stake_of_earlier_list(session, cmd, words.index("liste"))
    carry = any(w.casefold() in START_WORDS for w in cmd.args)
    stake = m.parse_stake([w for w in cmd.args if w.casefold() not in START_WORDS])
    ensure_chat(session, cmd.chat_id, lock=True)
    lock_chat(session, cmd.chat_id)
    if running is not None:
        from_list, scope = running.id, "für die laufende Liste und alle folgenden"
    elif latest is not None and stake_of(session, latest) is None:
        from_list, scope = latest.id, "für die zuletzt gespielte Liste und alle folgenden"
    elif latest is not None:
        from_list, scope = latest.id + 1, "ab der nächsten Liste"
    else:
        from_list, scope = 0, "für alle Listen"
    value: dict[str, object] = {"per_point": "0", "method": "paarweise"}
    if stake is not None:
        value = dict(stake.to_json())
    if carry and stake is not None:
        value["start"] = True
    notice = _stake_change_notice(session, cmd, running, stake)
    store.add(
        session, cmd.chat_id, store.STAKE, value, from_list=from_list,
        user_id=cmd.user_id, update_id=cmd.update_id,
    )  # fmt: skip
    if stake is None:
        return Reply(
            notice
            + f"💶 Ohne Einsatz – {scope} in {cmd.here}. Wieder mit Geld: /einsatz 1 ct"
        )
    start = "Startpunkte zählen beim Geld mit.\n" if carry else ""
    return Reply(
        notice + f"💶 Einsatz: <b>{escape(stake.label)}</b> – gilt {scope} in {cmd.here}, "
        "bis ihr ihn mit /einsatz ändert (ohne Geld: /einsatz aus).\n"
        f"{start}Wer wem was zahlt: /abrechnung"
    )


def _stake_of_earlier_list(session: Session, cmd: Command, at: int) -> Reply:
    """``/einsatz BETRAG liste N``: the stake of list N alone (an earlier series of the
    evening played without one); the chat's stake and the other lists keep theirs."""
    number = int(cmd.args[at + 1])
    stake = m.parse_stake([*cmd.args[:at], *cmd.args[at + 2 :]])
    ensure_chat(session, cmd.chat_id, lock=True)
    lock_chat(session, cmd.chat_id)
    lst = repo.numbered_list(session, cmd.chat_id, number)
    if lst is None:
        raise RuleError(
            f"In {cmd.here} gibt es keine Liste {number}.", hint="Alle Listen zeigt /listen."
        )
    value = stake.to_json() if stake else {"per_point": "0", "method": "paarweise"}
    store.add(
        session, cmd.chat_id, store.STAKE, {**value, "only": lst.id}, from_list=lst.id,
        user_id=cmd.user_id, update_id=cmd.update_id,
    )  # fmt: skip
    label = f"<b>{escape(stake.label)}</b>" if stake else "ohne Einsatz"
    settle = f"Abrechnen: /abrechnung {number}"
    if _in_latest_evening(session, cmd, lst):
        settle += " · den ganzen Abend: /abrechnung abend"
    return Reply(
        f"💶 Liste {number}: {label} – nur diese Liste; die anderen behalten ihren Einsatz.\n"
        + settle
    )


def _in_latest_evening(session: Session, cmd: Command, lst: repo.ListInfo) -> bool:
    """Whether ``/abrechnung abend`` settles ``lst`` with others: it is one of several
    series of the latest evening (the /weiter chain of the latest list)."""
    from skatbot.usecases.evening import evening_lists

    latest = repo.latest_list(session, cmd.chat_id)
    if latest is None:
        return False
    evening = evening_lists(session, latest)
    return len(evening) > 1 and lst.id in {e.id for e in evening}


def _stake_change_notice(
    session: Session, cmd: Command, running: repo.ListInfo | None, new: m.Stake | None
) -> str:
    """The table is told when the money of a list it is playing changes: who changed it,
    from what to what, and that the games already played count with the new stake."""
    if running is None:
        return ""
    old = stake_of(session, running)
    if old == new:
        return ""
    played = repo.load(session, running).sheet.games_played
    if not played:
        return ""
    who = escape(cmd.user_name) if cmd.user_name else "jemand"
    before = escape(old.label) if old else "keiner"
    after = escape(new.label) if new else "keiner"
    games = (
        "das Spiel, das schon gespielt ist"
        if played == 1
        else f"die {played} Spiele, die schon gespielt sind"
    )
    return (
        f"📣 <b>An alle am Tisch:</b> {who} hat den Einsatz der laufenden Liste geändert – "
        f"{before} → {after}; die Änderung gilt auch für {games}. "
        f"Zurück: {_stake_command(old)}\n"
    )


def _stake_command(stake: m.Stake | None) -> str:
    """The /einsatz line that sets ``stake`` again (parse_stake reads it back)."""
    if stake is None:
        return "/einsatz aus"
    return f"/einsatz {m.format_stake(stake.per_point)} {stake.method.value}"


def abrechnung(session: Session, cmd: Command) -> Reply:
    if trepo.tournament_of(session, cmd.chat_id) is not None:
        return _tournament_dues(session, cmd)
    if [w.casefold() for w in cmd.args] == ["abend"]:
        return _evening_settlement(session, cmd)
    from skatbot.usecases.sheet import list_number_word, picked_list

    _number, words = list_number_word(list(cmd.args), "/abrechnung")
    if words:
        raise RuleError(
            f"„{words[0][:20]}“ kenne ich bei /abrechnung nicht.",
            hint="/abrechnung (die Liste), /abrechnung 2 (Liste 2) oder /abrechnung abend "
            "(alle Serien des Abends)",
        )
    lst, _words, _head = picked_list(session, cmd)
    loaded = repo.load(session, lst)
    settlement = list_settlement(session, loaded)
    if settlement is None:
        raise RuleError(
            "Für diese Liste ist kein Einsatz festgelegt.",
            hint="Z. B. /einsatz 1 ct (pro Punkt, paarweise) oder /einsatz 1 ct kasse, "
            "dann /abrechnung.",
        )
    number = repo.list_number(session, lst)
    state = "Endstand" if lst.status == "closed" else "Zwischenstand"
    head = (
        f"💶 <b>Abrechnung</b> – Liste {number} ({state}, {texts.games(loaded.sheet.games_played)})"
    )
    standings = loaded.sheet.standings()
    scores, lost = money_scores(session, loaded), [s.lost for s in standings]
    body = [escape(line) for line in settlement_lines(settlement, scores, lost)]
    start = start_points_line(session, loaded, settlement.stake)
    if start:
        body.append("🏁 " + escape(start))
    if settlement.is_pot:
        note = "Wertung: " + texts.rules_label(loaded.sheet)
    else:
        note = (
            "Paarweise: jeder zahlt jedem Besseren die Differenz × Einsatz "
            f"({texts.rules_label(loaded.sheet)})."
        )
    body.append(note)
    from skatbot.usecases import rich

    doc = settlement_doc(head, settlement, scores, lost, note)
    settings = rich.settings_of(session, cmd.chat_id, None)
    return Reply(rich.maybe("\n".join([head, *body]), doc, settings))


def settlement_doc(
    head: str, settlement: m.Settlement, scores: Sequence[int], lost: Sequence[int], note: str
) -> RichDoc:
    """``settlement_lines`` as tables: each player's balance, then the transfers."""
    from skatbot.usecases.rich import Block, Cell, Paragraph, RichDoc, Table

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
    blocks.append(Paragraph(escape(note)))
    return RichDoc(tuple(blocks))


def _evening_settlement(session: Session, cmd: Command) -> Reply:
    """The evening of /abend (the lists linked by /weiter on one day), each series settled
    under its own stake, the balances added per player (names matched as /abend does) and
    settled anew: the fewest transfers for the whole evening."""
    from skatbot.usecases.evening import evening_lists

    latest = repo.latest_list(session, cmd.chat_id)
    if latest is None:
        raise RuleError(
            f"In {cmd.here} gibt es noch keine Liste.",
            hint="Starte eine mit /neu Anna Bernd Carla.",
        )
    lists = evening_lists(session, latest)
    names: dict[str, str] = {}  # casefolded -> as written in the latest series
    parts: list[dict[str, int]] = []
    stakes: list[m.Stake] = []
    without: list[int] = []
    for number, lst in enumerate(lists, 1):
        settlement = list_settlement(session, repo.load(session, lst))
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
        n = len(total.transfers)
        lines.append("Zahlungen: " + ("1 Überweisung" if n == 1 else f"{n} Überweisungen"))
        for t in total.transfers:
            payer, payee = escape(names[keys[t.payer]]), escape(names[keys[t.payee]])
            lines.append(f"{payer} → {payee}: {m.format_money(t.cents)}")
    lines.append("Jede Serie nach ihrem Einsatz, die Salden addiert (Serien: /abend).")
    return Reply("\n".join(lines))


# --- tournament money -----------------------------------------------------------------------


def _require_tournament(session: Session, cmd: Command) -> Tournament:
    t = trepo.tournament_of(session, cmd.chat_id)
    if t is None:
        raise RuleError(
            f"In {cmd.here} läuft kein Turnier.",
            hint="Startgeld und Preise gibt es bei der Turnierleitung (/turnier NAME); "
            "am Tisch: /einsatz 1 ct und /abrechnung.",
        )
    return t


def _running(session: Session, cmd: Command) -> Tournament:
    from skatbot.usecases import tournament_season

    return tournament_season.running(session, cmd)


def _picked(session: Session, cmd: Command) -> tuple[Tournament, list[str], str | None]:
    """A read-only command's tournament (``turnier N`` among its words), the other words,
    and the line saying which one it shows."""
    from skatbot.usecases import tournament_season

    _require_tournament(session, cmd)
    t, rest = tournament_season.pick(session, cmd, cmd.args)
    return t, rest, tournament_season.shown_line(session, t)


T = TypeVar("T")


def _each_line(lines: Sequence[str], value: T, apply: Callable[[T, str], T]) -> T:
    """``value`` changed by each line in turn; a line's error names the line (of several)
    and stores nothing (the message is one transaction)."""
    for i, line in enumerate(lines, 1):
        try:
            value = apply(value, line)
        except RuleError as err:
            where = f"Zeile {i}: " if len(lines) > 1 else ""
            raise m.MoneyError(
                where + err.message, hint=err.hint + " Nichts wurde gespeichert."
            ) from None
    return value


def _apply_prize_line(prizes: m.Prizes, line: str) -> m.Prizes:
    words = line.split()
    if words[0].casefold() in ("serie", "serien", "serienpreise", "serienpreis"):
        rest = " ".join(words[1:])
        if rest.casefold() in ("aus", "keine", "0"):
            series: tuple[int, ...] = ()
        else:
            series = m.parse_series_prizes(rest)
        return m.Prizes(prizes.amounts, prizes.shares, series)
    if line.casefold() in ("aus", "keine"):
        return m.Prizes((), (), prizes.series)
    amounts, shares = m.parse_place_prizes(line)
    return m.Prizes(amounts, shares, prizes.series)


def fees_of(session: Session, t: Tournament) -> m.Fees:
    # A row covers the tournament it was set for and the later ones of the place (a club
    # keeps its fees), never an earlier one: an ended tournament keeps its money.
    data = store.latest(session, t.chat_id, store.FEES, list_id=t.id)
    return m.Fees() if data is None else m.Fees.from_json(data)


def prizes_of(session: Session, t: Tournament) -> m.Prizes:
    data = store.latest(session, t.chat_id, store.PRIZES, list_id=t.id)
    return m.Prizes() if data is None else m.Prizes.from_json(data)


def _size_word(size: int) -> str:
    return "Dreiertisch" if size == 3 else "Vierertisch"


def fees_lines(fees: m.Fees) -> list[str]:
    lines = [f"Startgeld: {m.format_money(fees.entry)} pro Teilnehmer"]
    lost3, lost4 = fees.lost.get(3, ()), fees.lost.get(4, ())
    if lost3 == lost4:
        lines.append(f"Verlustspielgeld: {m.tiers_label(lost3)} (je Serie)")
    else:
        for size, tiers in ((3, lost3), (4, lost4)):
            lines.append(f"Verlustspielgeld {_size_word(size)}: {m.tiers_label(tiers)} (je Serie)")
    t3, t4 = fees.table.get(3, 0), fees.table.get(4, 0)
    if t3 == t4:
        lines.append(f"Tischgeld: {m.format_money(t3)} pro Person und Serie")
    else:
        lines.append(
            f"Tischgeld: {m.format_money(t3)} am Dreiertisch, {m.format_money(t4)} am "
            "Vierertisch (pro Person und Serie)"
        )
    return lines


FEES_EXAMPLE = (
    "/gebuehren startgeld 10 € · /gebuehren verlust 0,50 € ab 4 1 € · "
    "/gebuehren verlust vierer 0,50 € ab 5 1 € · /gebuehren tisch 1 €"
)
_SIZE_WORDS = {
    "dreier": (3,),
    "dreiertisch": (3,),
    "3er": (3,),
    "3": (3,),
    "vierer": (4,),
    "vierertisch": (4,),
    "4er": (4,),
    "4": (4,),
}


def _sizes(words: list[str]) -> tuple[tuple[int, ...], list[str]]:
    if words and words[0].casefold() in _SIZE_WORDS:
        return _SIZE_WORDS[words[0].casefold()], words[1:]
    return (3, 4), words


def _apply_fee_line(fees: m.Fees, line: str) -> m.Fees:
    words = line.split()
    key = words[0].casefold().rstrip(":")
    rest = words[1:]
    off = [w.casefold() for w in rest] in (["aus"], ["0"], ["keins"], ["kein"])
    if key in ("startgeld", "start", "einsatz", "startgebühr", "startgebuehr"):
        amount = (
            0
            if off
            else m.whole_cents(
                m.parse_amount(" ".join(rest), what="Das Startgeld", example="10 €"),
                what="Das Startgeld",
            )
        )
        return m.Fees(amount, fees.lost, fees.table)
    if key in ("verlust", "verlustspiel", "verlustspielgeld", "verloren", "verlustgeld"):
        sizes, rest = _sizes(rest)
        off = [w.casefold() for w in rest] in (["aus"], ["0"], ["keins"], ["kein"])
        tiers = () if off else m.parse_tiers(rest)
        lost = dict(fees.lost)
        lost.update({s: tiers for s in sizes})
        return m.Fees(fees.entry, lost, fees.table)
    if key in ("tisch", "tischgeld"):
        sizes, rest = _sizes(rest)
        off = [w.casefold() for w in rest] in (["aus"], ["0"], ["keins"], ["kein"])
        amount = (
            0
            if off
            else m.whole_cents(
                m.parse_amount(" ".join(rest), what="Das Tischgeld", example="1 €"),
                what="Das Tischgeld",
            )
        )
        table = dict(fees.table)
        table.update({s: amount for s in sizes})
        return m.Fees(fees.entry, fees.lost, table)
    raise m.MoneyError(
        f"„{words[0][:20]}“ kenne ich bei /gebuehren nicht.",
        hint="Erlaubt: startgeld, verlust, tisch – z. B. " + FEES_EXAMPLE,
    )


def gebuehren(session: Session, cmd: Command) -> Reply:
    lines = [" ".join(line.split()) for line in _rest(cmd).splitlines()]
    lines = [line for line in lines if line]
    t = _require_tournament(session, cmd)
    if not lines:
        fees = fees_of(session, t)
        return Reply(
            f"💶 <b>Gebühren – {escape(t.name)}</b>\n"
            + "\n".join(escape(x) for x in fees_lines(fees))
            + "\nÄndern (nur Turnierleitung), z. B.: "
            + escape(FEES_EXAMPLE)
        )
    lock_chat(session, cmd.chat_id)
    t = _running(session, cmd)
    tournament.require_manager(t, cmd, readable="/gebuehren, /preise, /kasse, /abrechnung")
    fees = _each_line(lines, fees_of(session, t), _apply_fee_line)
    store.add(
        session, t.chat_id, store.FEES, fees.to_json(), from_list=t.id,
        user_id=cmd.user_id, update_id=cmd.update_id,
    )  # fmt: skip
    return Reply(
        f"✅ <b>Gebühren – {escape(t.name)}</b>\n"
        + "\n".join(escape(x) for x in fees_lines(fees))
        + "\nWer was zahlt: /abrechnung · Kassenbericht: /kasse"
    )


def prizes_lines(prizes: m.Prizes, report: m.CashReport | None = None) -> list[str]:
    lines: list[str] = []
    if prizes.amounts:
        lines.append(
            "Preise: "
            + " · ".join(f"{i}. {m.format_money(a)}" for i, a in enumerate(prizes.amounts, 1))
        )
    elif prizes.shares:
        pot = f" vom Topf ({m.format_money(report.pot)})" if report else " vom Topf"
        parts = []
        for i, share in enumerate(prizes.shares, 1):
            part = f"{i}. {m.format_percent(share)}"
            if report is not None:
                amounts = m.split_shares(report.pot, prizes.shares)
                part += f" = {m.format_money(amounts[i - 1])}"
            parts.append(part)
        lines.append(f"Preise{pot}: " + " · ".join(parts))
    else:
        lines.append("Preise: keine festgelegt")
    if prizes.series:
        lines.append(
            "Serienpreise (je Serie): "
            + " · ".join(f"{i}. {m.format_money(a)}" for i, a in enumerate(prizes.series, 1))
        )
    if prizes.shares:
        lines.append("Topf = alle Einnahmen (Startgeld, Verlustspiel-, Tischgeld) − Serienpreise.")
    return lines


def preise(session: Session, cmd: Command) -> Reply:
    lines = [" ".join(line.split()) for line in _rest(cmd).splitlines()]
    lines = [line for line in lines if line]
    t = _require_tournament(session, cmd)
    if not lines:
        prizes = prizes_of(session, t)
        report = cash_report(session, t)
        return Reply(
            f"🏅 <b>Preise – {escape(t.name)}</b>\n"
            + "\n".join(escape(x) for x in prizes_lines(prizes, report))
            + "\nÄndern (nur Turnierleitung): "
            + escape(m.PRIZE_EXAMPLE)
        )
    lock_chat(session, cmd.chat_id)
    t = _running(session, cmd)
    tournament.require_manager(t, cmd, readable="/gebuehren, /preise, /kasse, /abrechnung")
    prizes = _each_line(lines, prizes_of(session, t), _apply_prize_line)
    store.add(
        session, t.chat_id, store.PRIZES, prizes.to_json(), from_list=t.id,
        user_id=cmd.user_id, update_id=cmd.update_id,
    )  # fmt: skip
    report = cash_report(session, t)
    out = [f"✅ <b>Preise – {escape(t.name)}</b>"]
    out.extend(escape(x) for x in prizes_lines(prizes, report))
    if report.balance < 0:
        out.append(
            f"⚠️ Die Preise übersteigen die bisherigen Einnahmen um "
            f"{m.format_money(-report.balance)}."
        )
    out.append("Kassenbericht: /kasse · Preise stehen auf den Urkunden (/urkunden).")
    return Reply("\n".join(out))


def cash_report(session: Session, t: Tournament) -> m.CashReport:
    """The tournament's money from its participants, results, fees and prizes."""
    done = trepo.load_series(session, t)
    plays: dict[str, list[m.SeriesPlay]] = {}
    series_rankings: dict[int, list[str]] = {}
    for s in done:
        for table in s.tables:
            for name in table:
                result = s.results.get(name)
                if result is not None:
                    plays.setdefault(name, []).append(
                        m.SeriesPlay(s.number, len(table), result.lost)
                    )
        if not tr.missing_results(s.tables, s.results):  # the ranking of /rangliste serie N
            series_rankings[s.number] = [
                r.standing.name for r in tournament.series_ranking(t, s)
            ]
    ranking = tournament.full_ranking(t, done)  # under the tournament's counting rule
    people = trepo.participants(session, t)
    return m.cash_report(
        [p.name for p in people],
        plays,
        [r.standing.name for r in ranking.ranked],
        series_rankings,
        fees_of(session, t),
        prizes_of(session, t),
        refunded={p.name for p in people if p.refunded},
    )


def certificate_prizes(session: Session, t: Tournament) -> dict[str, str]:
    """Name → the place prize as text, for the certificates (empty without prizes)."""
    prizes = prizes_of(session, t)
    if not prizes.places:
        return {}
    report = cash_report(session, t)
    return {p.name: m.format_money(p.cents) for p in report.payouts if p.series is None and p.cents}


def export_tournament_money(session: Session, t: Tournament) -> dict[str, Any] | None:
    """The ``money`` part of the tournament export (None when nothing is set)."""
    fees, prizes = fees_of(session, t), prizes_of(session, t)
    if not fees.any and not prizes.places and not prizes.series:
        return None
    report = cash_report(session, t)
    return {
        "fees": fees.to_json(),
        "prizes": prizes.to_json(),
        "income_cents": {
            "entry": report.entry,
            "lost_games": sum(report.lost_fees.values()),
            "table": sum(report.table_fees.values()),
        },
        "payouts": [
            {"place": p.place, "name": p.name, "cents": p.cents, "series": p.series}
            for p in report.payouts
        ],
        "balance_cents": report.balance,
        "participants": [
            {
                "name": d.name,
                "entry_cents": d.entry,
                "lost_games": d.lost_games,
                "lost_fee_cents": d.lost_fee,
                "table_fee_cents": d.table_fee,
                "owed_cents": d.owed,
                "prize_cents": d.won,
            }
            for d in report.dues
        ],
    }


def _dues_line(d: m.Dues) -> str:
    parts = []
    if d.entry:
        parts.append(f"Startgeld {m.format_money(d.entry)}")
    if d.lost_fee:
        games = "1 verlorenes Spiel" if d.lost_games == 1 else f"{d.lost_games} verlorene Spiele"
        parts.append(f"{games} {m.format_money(d.lost_fee)}")
    if d.table_fee:
        parts.append(f"Tischgeld {m.format_money(d.table_fee)}")
    line = f"{escape(d.name)}: zahlt {m.format_money(d.owed)}"
    if parts:
        line += " (" + " + ".join(parts) + ")"
    if d.won:
        line += f" · Preis {m.format_money(d.won)}"
        if d.net:
            line += (" → bekommt " if d.net > 0 else " → zahlt ") + m.format_money(abs(d.net))
        else:
            line += " → quitt"  # the prize pays the dues exactly
    return line


def _tournament_dues(session: Session, cmd: Command) -> Reply:
    t, rest, shown = _picked(session, cmd)
    if rest:
        raise RuleError(
            f"„{rest[0][:20]}“ kenne ich bei /abrechnung nicht.",
            hint="/abrechnung oder /abrechnung turnier 1",
        )
    fees = fees_of(session, t)
    report = cash_report(session, t)
    lines = [f"💶 <b>Abrechnung – {escape(t.name)}</b>"]
    if shown:
        lines.append(shown)
    lines.extend(escape(x) for x in fees_lines(fees))
    if not fees.any:
        lines.append("Noch keine Gebühren festgelegt: " + escape(FEES_EXAMPLE))
    lines.extend(_dues_line(d) for d in report.dues)
    lines.append(_totals_line(report))
    return Reply("\n".join(lines))


def _totals_line(report: m.CashReport) -> str:
    return (
        f"Einnahmen {m.format_money(report.income)} · Auszahlungen "
        f"{m.format_money(report.paid_out)} · Saldo {m.format_money(report.balance)}"
    )


def cash_document(session: Session, t: Tournament, report: m.CashReport) -> CashDocument:
    from skatbot.pdf.cash import CashDocument, CashLine
    from skatbot.usecases import tournament_season

    fees = fees_of(session, t)
    done = trepo.load_series(session, t)
    incomplete = [s.number for s in done if tr.missing_results(s.tables, s.results)]
    income = [
        CashLine(f"Startgeld ({len(report.dues)} × {m.format_money(fees.entry)})", report.entry)
    ]
    by_series = _plays_by_series(done)
    for number in sorted(set(report.lost_fees) | set(report.table_fees)):
        lost_games = sum(p.lost for p in by_series.get(number, []))
        income.append(
            CashLine(
                f"Verlustspielgeld Serie {number} ({lost_games} verlorene Spiele)",
                report.lost_fees.get(number, 0),
            )
        )
        if report.table_fees.get(number):
            income.append(CashLine(f"Tischgeld Serie {number}", report.table_fees[number]))
    payouts = [
        CashLine(
            (f"Serie {p.series}, {p.place}. Platz: " if p.series else f"{p.place}. Platz: ")
            + p.name,
            p.cents,
        )
        for p in report.payouts
    ]
    notes = fees_lines(fees) + prizes_lines(prizes_of(session, t), report)
    if incomplete:
        notes.append(
            "Vorläufig: Serie " + ", ".join(map(str, incomplete)) + " ist noch unvollständig."
        )
    return CashDocument(
        title=t.name,
        date=dt.date.today(),
        income=income,
        payouts=payouts,
        dues=[
            (d.name, d.entry, d.lost_games, d.lost_fee, d.table_fee, d.owed, d.won, d.net)
            for d in report.dues
        ],
        notes=notes,
        held=tournament_season.day_of(t),
    )


def _plays_by_series(done: Sequence[trepo.LoadedSeries]) -> dict[int, list[m.SeriesPlay]]:
    out: dict[int, list[m.SeriesPlay]] = {}
    for s in done:
        for table in s.tables:
            for name in table:
                r = s.results.get(name)
                if r is not None:
                    out.setdefault(s.number, []).append(m.SeriesPlay(s.number, len(table), r.lost))
    return out


def kasse(session: Session, cmd: Command) -> Reply:
    """The cash report: income by kind, payouts, balance; the PDF has every participant."""
    t, rest, shown = _picked(session, cmd)
    if rest:
        raise RuleError(
            f"„{rest[0][:20]}“ kenne ich bei /kasse nicht.",
            hint="Einfach /kasse, ein früheres Turnier: /kasse turnier 1",
        )
    report = cash_report(session, t)
    from skatbot.pdf.cash import render_cash
    from skatbot.usecases import tournament_season

    data, lossy = render_cash(cash_document(session, t, report))
    lines = [f"🧾 <b>Kassenbericht – {escape(t.name)}</b>"]
    if shown:
        lines.append(shown)
    lines.append(f"Startgeld: {m.format_money(report.entry)}")
    lines.append(f"Verlustspielgeld: {m.format_money(sum(report.lost_fees.values()))}")
    lines.append(f"Tischgeld: {m.format_money(sum(report.table_fees.values()))}")
    place = [p for p in report.payouts if p.series is None]
    series = [p for p in report.payouts if p.series is not None]
    lines.append(f"Preise: {m.format_money(sum(p.cents for p in place))}")
    if series:
        lines.append(f"Serienpreise: {m.format_money(sum(p.cents for p in series))}")
    lines.append(_totals_line(report))
    if lossy:
        lines.append(texts.lossy_names_note(lossy))
    doc = Document(
        tournament_season.file_name("kassenbericht", t), data, f"Kassenbericht {t.name}"[:200]
    )
    return Reply("\n".join(lines), documents=(doc,))


# --- hooks of the existing documents (one line each at their call sites) ---------------------


def add_export_money(session: Session, loaded: repo.LoadedList, data: dict[str, object]) -> None:
    """The list export gains ``money`` when the list has a stake (else it stays as it was)."""
    part = export_money(session, loaded)
    if part is not None:
        data["money"] = part


def add_tournament_export_money(session: Session, t: Tournament, data: dict[str, object]) -> None:
    """The tournament export gains ``money`` when fees or prizes are set."""
    part = export_tournament_money(session, t)
    if part is not None:
        data["money"] = part
