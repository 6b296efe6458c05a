"""Replies as tables: the list and the standings laid out like the paper list.

A use case that can show a table returns a ``RichText``: a ``str`` (the usual Telegram HTML,
which stays the text form of the reply and its fallback) that also carries a ``RichDoc``,
the same content as blocks (headings, paragraphs, tables). The delivery sends the blocks as
a rich message where Telegram allows it and the text otherwise, so nothing depends on the
rich form: any string operation on a ``RichText`` gives a plain ``str`` again, i.e. the text
form.

Whether a chat gets tables is its setting ``/darstellung text|tabelle`` (default: tables).
No Telegram types here; the Bot API's rich HTML is made in ``handlers.outbox.rich``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from skatbot.rules.ranking import Ranked, lot_note
from skatbot.rules.scoring import minus_sign
from skatbot.rules.sheet import Entry, Sheet, Status
from skatbot.storage import chats
from skatbot.storage.settings import ChatSettings
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.reply import Buttons

TEXT, TABLE = "text", "tabelle"
DISPLAYS = (TEXT, TABLE)


@dataclass(frozen=True)
class Cell:
    """One table cell: ``html`` is Telegram HTML (escaped user text, ``<b>``/``<i>``)."""

    html: str
    struck: bool = False
    right: bool = False  # numbers are right-aligned


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]  # plain texts (escaped when rendered)
    rows: tuple[tuple[Cell, ...], ...]
    caption: str = ""  # HTML
    # Smaller indents between the cells where Telegram can (Bot API 10.3), for a table that
    # is read on a phone at a glance; an older server shows the usual table.
    compact: bool = False


# A table read at a glance (standings of a series, an evening, a season, a tournament) with
# this many columns or more is compact: with the usual indents it runs past a phone's width.
# The list stays a normal table (read row by row, the spaces keep the running sums apart).
COMPACT_FROM = 6


def glance_table(header: tuple[str, ...], rows: tuple[tuple[Cell, ...], ...]) -> Table:
    """A standings-like table, compact from ``COMPACT_FROM`` columns."""
    return Table(header, rows, compact=len(header) >= COMPACT_FROM)


@dataclass(frozen=True)
class Heading:
    html: str


@dataclass(frozen=True)
class Paragraph:
    html: str


Block = Heading | Paragraph | Table


@dataclass(frozen=True)
class RichDoc:
    blocks: tuple[Block, ...] = field(default=())
    # Rows of the reply's buttons that belong to the content (a long list's paging): shown
    # inside the rich message, after its blocks, where the server can (Bot API 10.3 button
    # rows), else as the keyboard under it. They are rows of the reply's ``buttons`` too, so
    # the text form (and a reply resumed from the outbox) keeps them as its keyboard.
    pager: Buttons = ()


class RichText(str):
    """A reply text that can also be shown as a rich message (``doc``)."""

    doc: RichDoc

    def __new__(cls, text: str, doc: RichDoc) -> RichText:
        made = super().__new__(cls, text)
        made.doc = doc
        return made


def wants_tables(settings: ChatSettings | None) -> bool:
    return settings is None or settings.display != TEXT


def settings_of(session: Session, chat_id: int, known: ChatSettings | None) -> ChatSettings:
    """The chat's settings (read if the list was loaded without them)."""
    if known is not None:
        return known
    return chats.settings_of(session, chat_id)


def maybe(text: str, doc: RichDoc, settings: ChatSettings | None) -> str:
    """``text`` with the table form attached if the chat wants tables."""
    return RichText(text, doc) if wants_tables(settings) else text


def _num(n: int, *, bold: bool = False, struck: bool = False) -> Cell:
    shown = escape(minus_sign(n))
    return Cell(f"<b>{shown}</b>" if bold else shown, struck=struck, right=True)


def list_table(sheet: Sheet, entries: tuple[Entry, ...] | list[Entry]) -> Table:
    """The paper list: Nr, Geber, Spiel, Wert and one column per player with the running
    sum (written where it changes, bold); struck and cancelled rows are struck through and
    change no sum; an overbid game is marked, under house rules a Bock game and the sick
    player's game too."""
    players = sheet.players
    running = [0] * len(players)
    if sheet.house is not None and sheet.start:
        running = list(sheet.start)
    shown = {e.row.id for e in entries}
    rows: list[tuple[Cell, ...]] = []
    for entry in sheet.entries:
        valid = entry.status is Status.VALID
        if valid:
            for seat, pts in entry.points.items():
                running[seat] += pts
        if entry.row.id not in shown:
            continue
        struck = not valid
        nr = str(entry.nr) if valid and entry.nr is not None else "✗"
        dealer = escape(players[entry.row.dealer or 0])
        game = _game_cell(sheet, entry) + _house_marks(sheet, entry)
        if entry.status is Status.STRUCK:
            game += " <i>(korrigiert)</i>"
        elif entry.status is Status.CANCELLED:
            game += " <i>(storniert)</i>"
        cells = [
            Cell(nr, struck=struck, right=True),
            Cell(dealer, struck=struck),
            Cell(game, struck=struck),
            Cell(_value(sheet, entry), struck=struck, right=True),
        ]
        for seat in range(len(players)):
            if seat in entry.points:
                if struck:
                    cells.append(_num(entry.points[seat], struck=True))
                else:
                    cells.append(_num(running[seat], bold=True))
            else:
                cells.append(Cell("", right=True))
        rows.append(tuple(cells))
    header = ("Nr", "Geber", "Spiel", "Wert", *players)
    return Table(header, tuple(rows))


def _game_cell(sheet: Sheet, entry: Entry) -> str:
    r = entry.result
    if entry.ramsch is not None:
        return escape(entry.ramsch.text(sheet.players))
    if r is None:
        return "eingepasst"
    # the declarer is the player whose column gets the sum: not named again here
    label = escape(texts.game_label(r))
    if r.overbid:
        return f"{label} – verloren (<b>überreizt</b>)"
    return f"{label} – {'gewonnen' if r.won else 'verloren'}"


def _house_marks(sheet: Sheet, entry: Entry) -> str:
    """What the text form's row says besides the game under house rules: a Bock game, and
    the sick player's Grand Hand (named: on the row it is the declarer's column only)."""
    mark = entry.house
    if mark is None:
        return ""
    marks = " <i>(Bock)</i>" if mark.bock else ""
    if mark.sick_game:
        marks += f" <i>(krank: {escape(sheet.players[entry.row.declarer or 0])})</i>"
    return marks


def _value(sheet: Sheet, entry: Entry) -> str:
    """The Wert column: the game's score; under house rules what the row booked, as the text
    form writes it (Kontra, Re and Bock doubled, a lost hand game not), a Ramsch's per loser."""
    if sheet.house is None:
        return escape(minus_sign(entry.result.score)) if entry.result is not None else ""
    booked = set(entry.points.values())
    return escape(minus_sign(booked.pop())) if len(booked) == 1 else ""


def standings_table(sheet: Sheet, seed: str) -> Table:
    """Platz, Spieler, Punkte, gewonnen, verloren and the Seeger-Fabian steps."""
    if sheet.house is None:
        steps = {t.name: t.steps for t in sheet.totals()}
    else:
        steps = {t.name: f"Start {t.steps}" for t in sheet.house_totals()}
    rows = []
    for r in texts.ranked(sheet, seed):
        t = r.standing
        rows.append(
            (
                Cell(f"{r.place}.", right=True),
                Cell(f"<b>{escape(t.name)}</b>"),
                _num(t.score, bold=True),
                Cell(str(t.won), right=True),
                Cell(str(t.lost), right=True),
                Cell(escape(steps[t.name])),
            )
        )
    header = ("Platz", "Spieler", "Punkte", "gew.", "verl.", "Rechnung")
    # compact: six columns, the Rechnung alone some 35 characters - with the usual indents
    # the table runs past a phone's width, where the standings are read at a glance
    return glance_table(header, tuple(rows))


def standings_doc(
    sheet: Sheet, seed: str, *, title: str = "", tail: str = "", closed: bool = False
) -> RichDoc:
    """The standings as a table (``totals_block``'s content): the Zwischenstand, or the
    Serienabschluss of a ``closed`` series."""
    blocks: list[Block] = []
    if title:
        blocks.append(Paragraph(title))
    blocks.append(
        Heading(
            f"{texts.standings_heading(closed)} ({texts.rules_label(sheet)}), "
            f"{sheet.games_played}/{sheet.series_length} Spiele"
        )
    )
    if sheet.games_played:
        blocks.append(standings_table(sheet, seed))
        note = lot_note(texts.ranked(sheet, seed), seed)
        if note:
            blocks.append(Paragraph(escape(note)))
    else:
        blocks.append(Paragraph(texts.totals_block(sheet, seed).split("\n", 1)[1]))
    if tail:
        blocks.append(Paragraph(tail))
    return RichDoc(tuple(blocks))


def list_doc(
    sheet: Sheet,
    entries: tuple[Entry, ...] | list[Entry],
    *,
    head: str = "",
    tail: str = "",
    pager: Buttons = (),
) -> RichDoc:
    blocks: list[Block] = [Heading(f"Liste ({texts.rules_label(sheet)})")]
    if head:
        blocks.append(Paragraph(head))
    blocks.append(list_table(sheet, entries))
    if tail:
        blocks.append(Paragraph(tail))
    return RichDoc(tuple(blocks), pager)


def ranking_doc(
    title: str,
    ranked: Sequence[Ranked],
    tail: Sequence[str],
    *,
    notes: Sequence[str] = (),
    columns: Sequence[tuple[str, Sequence[str]]] = (),
) -> RichDoc:
    """A tournament's ranking (or the desk's live standings) as a table; ``columns``: more
    columns after "verl.", each a header and one plain text per row."""
    rows = tuple(
        (
            Cell(f"{r.place}.", right=True),
            Cell(escape(r.standing.name)),
            _num(r.standing.score, bold=True),
            Cell(str(r.standing.won), right=True),
            Cell(str(r.standing.lost), right=True),
            *(Cell(escape(cells[i]), right=True) for _, cells in columns),
        )
        for i, r in enumerate(ranked)
    )
    header = ("Platz", "Spieler", "Punkte", "gew.", "verl.", *(h for h, _ in columns))
    blocks: list[Block] = [Heading(title)]
    if notes:
        blocks.append(Paragraph("\n".join(notes)))
    blocks.append(glance_table(header, rows))
    if tail:
        blocks.append(Paragraph("\n".join(tail)))
    return RichDoc(tuple(blocks))
