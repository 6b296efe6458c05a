"""A tournament's cash: the fees (/gebuehren), the prizes (/preise), the cash report (/kasse)
and what each participant owes (/abrechnung at the desk)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from skatbot.rules import money as m
from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.storage import money as money_store
from skatbot.storage import tournament as trepo
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Document, Reply
from skatbot.usecases.tournament import tournament_season
from skatbot.usecases.tournament.results import full_ranking, series_ranking

if TYPE_CHECKING:
    from skatbot.pdf.cash import CashDocument

PDF_SUMMARY_LINES = 12


# --- fees and prizes -----------------------------------------------------------------------


def _require_tournament(session: Session, cmd: Command) -> Tournament:
    t = trepo.tournament_of(session, cmd.place_id)
    if t is None:
        raise RuleError(
            f"In {cmd.here} läuft kein Turnier.",
            hint="Startgeld und Preise gibt es bei der Turnierleitung (/turnier NAME); "
            "am Tisch: /einsatz 1 ct und /abrechnung.",
        )
    return t


def _latest(place: Place) -> Tournament:
    t = place.tournament
    assert t is not None  # the routes serve desks only
    return t


def _picked(session: Session, cmd: Command) -> tuple[Tournament, list[str], str | None]:
    """A read-only command's tournament (``turnier N`` among its words), the other words,
    and the line saying which one it shows."""
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
    data = money_store.latest(session, t.chat_id, money_store.FEES, list_id=t.id)
    return m.Fees() if data is None else m.Fees.from_json(data)


def prizes_of(session: Session, t: Tournament) -> m.Prizes:
    data = money_store.latest(session, t.chat_id, money_store.PRIZES, list_id=t.id)
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


MONEY_READABLE = "/gebuehren, /preise, /kasse, /abrechnung"


def _lines_of(cmd: Command) -> tuple[str, ...]:
    """The message's lines after the command, spaces collapsed, empty ones left out."""
    lines = (" ".join(line.split()) for line in cmd.rest.splitlines())
    return tuple(line for line in lines if line)


@dataclass(frozen=True)
class ShowFees:
    pass


@dataclass(frozen=True)
class SetFees:
    lines: tuple[str, ...]  # a fee each
    readable: ClassVar[str] = MONEY_READABLE


def parse_gebuehren(cmd: Command) -> ShowFees | SetFees:
    lines = _lines_of(cmd)
    return SetFees(lines) if lines else ShowFees()


def gebuehren(session: Session, place: Place, request: ShowFees | SetFees) -> Reply:
    if isinstance(request, ShowFees):
        t = _latest(place)
        return Reply(
            f"💶 <b>Gebühren – {escape(t.name)}</b>\n"
            + "\n".join(escape(x) for x in fees_lines(fees_of(session, t)))
            + "\nÄndern (nur Turnierleitung), z. B.: "
            + escape(FEES_EXAMPLE)
        )
    t = tournament_season.running_at(place)
    fees = _each_line(request.lines, fees_of(session, t), _apply_fee_line)
    money_store.add(
        session, t.chat_id, money_store.FEES, fees.to_json(), from_list=t.id,
        user_id=place.asker.user_id, update_id=place.asker.update_id,
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


@dataclass(frozen=True)
class ShowPrizes:
    pass


@dataclass(frozen=True)
class SetPrizes:
    lines: tuple[str, ...]  # a prize each
    readable: ClassVar[str] = MONEY_READABLE


def parse_preise(cmd: Command) -> ShowPrizes | SetPrizes:
    lines = _lines_of(cmd)
    return SetPrizes(lines) if lines else ShowPrizes()


def preise(session: Session, place: Place, request: ShowPrizes | SetPrizes) -> Reply:
    if isinstance(request, ShowPrizes):
        t = _latest(place)
        return Reply(
            f"🏅 <b>Preise – {escape(t.name)}</b>\n"
            + "\n".join(
                escape(x) for x in prizes_lines(prizes_of(session, t), cash_report(session, t))
            )
            + "\nÄndern (nur Turnierleitung): "
            + escape(m.PRIZE_EXAMPLE)
        )
    t = tournament_season.running_at(place)
    prizes = _each_line(request.lines, prizes_of(session, t), _apply_prize_line)
    money_store.add(
        session, t.chat_id, money_store.PRIZES, prizes.to_json(), from_list=t.id,
        user_id=place.asker.user_id, update_id=place.asker.update_id,
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
            series_rankings[s.number] = [r.standing.name for r in series_ranking(t, s)]
    ranking = full_ranking(t, done)  # under the tournament's counting rule
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


def tournament_dues(session: Session, cmd: Command) -> Reply:
    """``/abrechnung`` at a tournament desk: what each participant pays."""
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


@dataclass(frozen=True)
class ShowCash:
    tournament: int | None  # "turnier N"; None: the latest


def parse_kasse(cmd: Command) -> ShowCash:
    number, rest = tournament_season.split_number(cmd.args)
    if rest:
        raise RuleError(
            f"„{rest[0][:20]}“ kenne ich bei /kasse nicht.",
            hint="Einfach /kasse, ein früheres Turnier: /kasse turnier 1",
        )
    return ShowCash(number)


def kasse(session: Session, place: Place, request: ShowCash) -> Reply:
    """The cash report: income by kind, payouts, balance; the PDF has every participant."""
    t = tournament_season.chosen_at(session, place, request.tournament)
    shown = tournament_season.shown_line(session, t)
    report = cash_report(session, t)
    from skatbot.pdf.cash import render_cash

    data, lossy = render_cash(cash_document(session, t, report))
    lines = [f"🧾 <b>Kassenbericht – {escape(t.name)}</b>"]
    if shown:
        lines.append(shown)
    lines.append(f"Startgeld: {m.format_money(report.entry)}")
    lines.append(f"Verlustspielgeld: {m.format_money(sum(report.lost_fees.values()))}")
    lines.append(f"Tischgeld: {m.format_money(sum(report.table_fees.values()))}")
    for_places = [p for p in report.payouts if p.series is None]
    series = [p for p in report.payouts if p.series is not None]
    lines.append(f"Preise: {m.format_money(sum(p.cents for p in for_places))}")
    if series:
        lines.append(f"Serienpreise: {m.format_money(sum(p.cents for p in series))}")
    lines.append(_totals_line(report))
    if lossy:
        lines.append(texts.lossy_names_note(lossy))
    doc = Document(
        tournament_season.file_name("kassenbericht", t), data, f"Kassenbericht {t.name}"[:200]
    )
    return Reply("\n".join(lines), documents=(doc,))


def add_tournament_export_money(session: Session, t: Tournament, data: dict[str, object]) -> None:
    """The tournament export gains ``money`` when fees or prizes are set."""
    part = export_tournament_money(session, t)
    if part is not None:
        data["money"] = part
