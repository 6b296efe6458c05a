"""/weiter and /abend: an evening of several series at one table.

An *evening* is the chain of lists of this place that ``/weiter`` linked, ending at the
latest list and going back while the lists were created on the same calendar day
(Europe/Berlin) as the latest one. A ``/neu`` starts a new chain. Players are matched by name
(case-insensitive) across the series; a player missing in a series counts 0 there ("–").
The sum adds each series' score: the Seeger-Fabian total of an ISkO list, the points
(start points included) of a house-rules list.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING

from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError
from skatbot.rules.ranking import Ranked, Standing, lot_note, rank_standings
from skatbot.rules.scoring import minus_sign
from skatbot.storage import lists as lists_store
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.unit import Session
from skatbot.usecases.common import rich, texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Document, Reply
from skatbot.usecases.common.rich import Cell, Heading, Paragraph, RichDoc, glance_table
from skatbot.usecases.sheet.list_changes import start_list

if TYPE_CHECKING:
    from skatbot.pdf.evening import EveningDocument

MISSING = "–"  # a player who did not play a series (counts 0)


# --- the evening -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesLine:
    """One player's result in one series."""

    name: str
    score: int
    won: int
    lost: int
    steps: str  # the calculation, e.g. "72 + 50 × (1 − 0) + 40 × 0 = 122"


@dataclass(frozen=True)
class SeriesResult:
    number: int  # 1-based within the evening
    list_id: int
    players: tuple[str, ...]  # seat order
    lines: tuple[SeriesLine, ...]  # seat order
    games: int
    series_length: int
    house: bool
    rules: str  # e.g. "ISkO, Seeger-Fabian"
    closed: bool


@dataclass
class EveningPlayer:
    name: str  # as written in the latest series the player played
    scores: list[int | None] = field(default_factory=list)  # per series; None: not there
    won: int = 0
    lost: int = 0

    @property
    def total(self) -> int:
        return sum(s for s in self.scores if s is not None)


@dataclass(frozen=True)
class Evening:
    date: dt.date
    series: tuple[SeriesResult, ...]
    ranked: tuple[Ranked, ...]
    players: dict[str, EveningPlayer]  # by ranked name
    note: str  # the lot note, "" if no lot was needed

    @property
    def any_missing(self) -> bool:
        return any(None in p.scores for p in self.players.values())

    @property
    def sum_label(self) -> str:
        kinds = {s.house for s in self.series}
        if kinds == {False}:
            return "Summe der Seeger-Fabian-Wertungen"
        if kinds == {True}:
            return "Summe der Punkte (Hausregeln, mit Startpunkten)"
        return "Summe der Seeger-Fabian-Wertungen (ISkO) und der Punkte (Hausregeln)"


def evening_lists(session: Session, latest: lists_store.ListInfo) -> list[lists_store.ListInfo]:
    """The lists of the evening that ends with ``latest``, oldest first."""
    day = berlin_date(latest.created_at)
    chain = [latest]
    while True:
        previous = lists_store.continued_list(session, chain[-1])
        # Links always point back to an older list; the id check keeps even bad data finite.
        if previous is None or previous.id >= chain[-1].id:
            break
        if berlin_date(previous.created_at) != day:
            break
        chain.append(previous)
    chain.reverse()
    # a list without a game (closed before empty lists were refused) is no series
    return [
        lst for lst in chain if lst is latest or lists_store.load(session, lst).sheet.games_played
    ]


def _series_result(number: int, loaded: lists_store.LoadedList) -> SeriesResult:
    sheet = loaded.sheet
    lines: list[SeriesLine]
    if sheet.house is None:
        lines = [SeriesLine(t.name, t.score, t.won, t.lost, t.steps) for t in sheet.totals()]
    else:
        lines = [
            SeriesLine(t.name, t.score, t.won, t.lost, f"Start {t.steps}")
            for t in sheet.house_totals()
        ]
    return SeriesResult(
        number=number,
        list_id=loaded.lst.id,
        players=sheet.players,
        lines=tuple(lines),
        games=sheet.games_played,
        series_length=sheet.series_length,
        house=sheet.house is not None,
        rules=texts.rules_label(sheet),
        closed=loaded.lst.status is ListStatus.CLOSED,
    )


def evening_of(session: Session, latest: lists_store.ListInfo) -> Evening:
    lists = evening_lists(session, latest)
    series = tuple(
        _series_result(i, lists_store.load(session, lst)) for i, lst in enumerate(lists, 1)
    )
    # A player's name is the one of the latest series they played (a rename carries over).
    players: dict[str, EveningPlayer] = {}
    for s in series:
        for line in s.lines:
            players.setdefault(line.name.casefold(), EveningPlayer(line.name)).name = line.name
    for key, player in players.items():
        for s in series:
            found = next((x for x in s.lines if x.name.casefold() == key), None)
            player.scores.append(None if found is None else found.score)
            if found is not None:
                player.won += found.won
                player.lost += found.lost
    standings = [Standing(p.name, p.total, p.won, p.lost) for p in players.values()]
    ranked = tuple(rank_standings(standings, latest.seed))
    return Evening(
        date=berlin_date(lists[0].created_at),
        series=series,
        ranked=ranked,
        players={p.name: p for p in players.values()},
        note=lot_note(ranked, latest.seed),
    )


# --- /weiter ---------------------------------------------------------------------------------


def weiter(session: Session, place: Place, cmd: Command) -> Reply:
    """A new series at the same table: the same players in the same seats, the dealer
    continuing where the last list ended, the same series length. Created like /neu
    (``start_list``): under the chat's /regeln. The Command goes through whole: the new list
    is started and booked as the sheet starts every list."""
    if lists_store.open_list(session, place.id) is not None:
        raise RuleError("Es läuft noch eine Liste.", hint="Erst /abschluss, dann /weiter.")
    last = lists_store.latest_list(session, place.id)
    if last is None:
        raise RuleError(
            "Es gibt keine frühere Liste.", hint="Starte eine mit /neu Anna Bernd Carla."
        )
    loaded = lists_store.load(session, last)
    names = loaded.names
    lst, sheet = start_list(
        session,
        cmd,
        names,
        first_dealer=loaded.sheet.next_dealer,
        series_length=last.series_length,
        continues=last,
    )
    number = len(evening_lists(session, lst))
    changed = " (neu nach /regeln)" if lst.rules != last.rules else ""
    return Reply(
        f"🃏 <b>Neue Serie</b> ({number}. des Abends) mit {', '.join(escape(n) for n in names)}"
        f" – {lst.series_length} Spiele, {texts.rules_label(sheet)}{changed}.\n"
        f"{texts.progress(sheet)}\nDer Abend bisher: /abend"
    )


# --- /abend ----------------------------------------------------------------------------------


def _state(s: SeriesResult) -> str:
    return "abgeschlossen" if s.closed else "läuft"


def _score(value: int | None) -> str:
    return MISSING if value is None else minus_sign(value)


def _date(day: dt.date) -> str:
    return f"{day.day:02d}.{day.month:02d}.{day.year}"


def evening_text(evening: Evening, *, details: bool = True, mark: str = "🌙") -> str:
    lines = [
        f"{mark} <b>Skatabend vom {_date(evening.date)}</b> – {texts.series_count(len(evening.series))}"
    ]
    if details:
        for s in evening.series:
            lines.append(
                f"Serie {s.number}: {texts.games(s.games)} von {s.series_length}, {_state(s)}"
                f" · {s.rules}"
            )
    lines.append(f"<b>{evening.sum_label}</b>")
    several = len(evening.series) > 1
    for r in evening.ranked:
        player = evening.players[r.standing.name]
        line = f"{r.place}. <b>{escape(player.name)} {minus_sign(player.total)}</b>"
        if details and several:
            line += " – " + " · ".join(f"S{i} {_score(v)}" for i, v in enumerate(player.scores, 1))
        lines.append(line)
    if details and several:
        lines.append(
            "S1, S2 … = Serie 1, 2 …"
            + (f"; {MISSING} = nicht dabei (zählt 0)" if evening.any_missing else "")
        )
    if evening.note:
        lines.append(escape(evening.note))
    return "\n".join(lines)


def evening_doc(evening: Evening) -> RichDoc:
    """``evening_text`` as a table: one column per series and the sum."""
    series = [
        f"Serie {s.number}: {texts.games(s.games)} von {s.series_length}, {_state(s)} · {s.rules}"
        for s in evening.series
    ]
    rows = []
    for r in evening.ranked:
        player = evening.players[r.standing.name]
        rows.append(
            (
                Cell(f"{r.place}.", right=True),
                Cell(f"<b>{escape(player.name)}</b>"),
                *(Cell(escape(_score(v)), right=True) for v in player.scores),
                Cell(f"<b>{escape(minus_sign(player.total))}</b>", right=True),
            )
        )
    header = ("Platz", "Spieler", *(f"S{i}" for i in range(1, len(evening.series) + 1)), "Summe")
    tail = []
    if evening.any_missing:
        tail.append(f"{MISSING} = nicht dabei (zählt 0)")
    if evening.note:
        tail.append(escape(evening.note))
    tail.append("Als PDF: /abend pdf")
    return RichDoc(
        (
            Heading(
                f"🌙 Skatabend vom {_date(evening.date)} – {texts.series_count(len(evening.series))}"
            ),
            Paragraph("\n".join(series)),
            Paragraph(f"<b>{evening.sum_label}</b>"),
            glance_table(header, tuple(rows)),
            Paragraph("\n".join(tail)),
        )
    )


def evening_document(evening: Evening, chat_title: str) -> EveningDocument:
    from skatbot.pdf.evening import EveningDocument, EveningRow, EveningSeries

    return EveningDocument(
        title=f"Skatabend – {chat_title}" if chat_title else "Skatabend",
        date=evening.date,
        sum_label=evening.sum_label,
        series=[
            EveningSeries(
                number=s.number,
                state=f"{texts.games(s.games)} von {s.series_length}, {_state(s)}",
                rules=s.rules,
                closed=s.closed,
                lines=[(x.name, x.score, x.won, x.lost, x.steps) for x in s.lines],
            )
            for s in evening.series
        ],
        rows=[
            EveningRow(
                place=r.place,
                name=r.standing.name,
                scores=list(evening.players[r.standing.name].scores),
                total=r.standing.score,
                won=r.standing.won,
                lost=r.standing.lost,
                by_lot=r.by_lot,
            )
            for r in evening.ranked
        ],
        note=evening.note,
    )


@dataclass(frozen=True)
class EveningRequest:
    pdf: bool


def parse(cmd: Command) -> EveningRequest:
    words = [w.casefold() for w in cmd.args]
    if words not in ([], ["pdf"]):
        raise RuleError(
            f"„{cmd.args[0][:20]}“ kenne ich bei /abend nicht.", hint="/abend oder /abend pdf"
        )
    return EveningRequest(pdf=bool(words))


def abend(session: Session, place: Place, request: EveningRequest) -> Reply:
    latest = lists_store.latest_list(session, place.id)
    if latest is None:
        raise RuleError(
            f"In {place.here} gibt es noch keine Liste.",
            hint="Starte eine mit /neu Anna Bernd Carla.",
        )
    evening = evening_of(session, latest)
    if not request.pdf:
        text = evening_text(evening) + "\nAls PDF: /abend pdf"
        settings = rich.settings_of(session, place.id, None)
        return Reply(rich.maybe(text, evening_doc(evening), settings))
    from skatbot.pdf.evening import render_evening

    data, lossy = render_evening(evening_document(evening, place.title))
    text = evening_text(evening, details=False, mark="📄")
    if lossy:
        text += "\n" + texts.lossy_names_note(lossy)
    filename = f"skatabend-{evening.date.isoformat()}.pdf"
    return Reply(text, documents=(Document(filename, data, "Skatabend als PDF"),))
