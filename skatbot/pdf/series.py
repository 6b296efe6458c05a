"""The series list ("Skatliste") PDF, styled after a printed Skat Spielliste."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skatbot.pdf.base import (
    BLACK,
    GREY_TEXT,
    GRID,
    RGB,
    Column,
    SkatPDF,
    format_date,
    format_number,
    format_signed,
)
from skatbot.pdf.fonts import printable
from skatbot.pdf.model import PlayerTotal, SeriesDocument, SheetRow

ROW_H = 5.0
ROW_H_TWO_LINES = 8.0
HEAD_H1 = 5.5
HEAD_H2 = 3.5
STRUCK_TEXT: RGB = (120, 120, 120)
OVERBID: RGB = (170, 20, 20)
ROUND_LINE: RGB = (60, 60, 60)
LINE_COLORS: tuple[RGB, ...] = (
    (0, 90, 170),
    (205, 80, 0),
    (0, 140, 100),
    (150, 60, 140),
)
DASHES: tuple[tuple[float, float], ...] = ((0.0, 0.0), (2.2, 1.0), (0.6, 0.7), (4.0, 1.2))


@dataclass(frozen=True)
class _Layout:
    nr: float
    dealer: float
    game: float
    bid: float
    value: float
    player: float

    @property
    def booking(self) -> float:
        return self.player * 0.5

    @property
    def sum(self) -> float:
        return self.player - self.booking


def _layout(pdf: SkatPDF, players: int) -> _Layout:
    player = 23.0 if players >= 4 else 27.0
    nr, dealer, bid, value = 8.0, 20.0, 9.0, 10.0
    game = pdf.content_width - nr - dealer - bid - value - players * player
    return _Layout(nr, dealer, game, bid, value, player)


class _SeriesPDF(SkatPDF):
    def __init__(self, doc: SeriesDocument) -> None:
        super().__init__(
            doc.title, subject="Skatliste", footer_label=f"{doc.title} · {format_date(doc.date)}"
        )
        self.doc = doc
        self.players = [self.clean(p) for p in doc.players]
        self.layout = _layout(self, len(doc.players))

    # -- header block -------------------------------------------------------------------------

    def header_block(self) -> None:
        doc = self.doc
        self.add_page()
        self.font(16, bold=True)
        self.set_x(self.l_margin)
        self.cell(self.content_width, 8, self.fit(self.clean(doc.title), self.content_width))
        self.ln(8)
        if doc.subtitle:
            self.font(10)
            self.set_x(self.l_margin)
            self.cell(self.content_width, 5, self.fit(self.clean(doc.subtitle), self.content_width))
            self.ln(5)
        table = {3: "Dreiertisch", 4: "Vierertisch"}.get(
            doc.table_size, f"{doc.table_size} Spieler"
        )
        fields = [
            ("Datum", format_date(doc.date)),
            ("Wertung", self.clean(doc.rules)),
            ("Tisch", table),
            ("Spiele", str(sum(1 for r in doc.rows if not r.struck and r.nr is not None))),
        ]
        self.set_y(self.get_y() + 1)
        self.set_x(self.l_margin)
        for label, value in fields:
            self.font(9, bold=True)
            self.cell(self.get_string_width(label + ": ") + 0.5, 5, label + ":")
            self.font(9)
            self.cell(self.get_string_width(value) + 7, 5, value)
        self.ln(5)
        self.set_x(self.l_margin)
        self.font(9, bold=True)
        label = "Spieler (Sitzordnung):"
        self.cell(self.get_string_width(label) + 1.5, 5, label)
        self.font(9)
        names = ", ".join(f"{i}. {name}" for i, name in enumerate(self.players, start=1))
        self.cell(0, 5, self.fit(names, self.content_width - self.get_string_width(label) - 2))
        self.ln(5)
        if not doc.closed:
            self.font(8)
            self.color(GREY_TEXT)
            self.set_x(self.l_margin)
            self.cell(0, 4.5, "Zwischenstand – die Serie ist noch nicht abgeschlossen.")
            self.ln(4.5)
            self.color(BLACK)
        self.set_draw_color(*BLACK)
        self.set_line_width(0.4)
        self.line(self.l_margin, self.get_y() + 1.5, self.w - self.r_margin, self.get_y() + 1.5)
        self.set_y(self.get_y() + 4)

    # -- game table ---------------------------------------------------------------------------

    def _fixed_columns(self) -> list[Column]:
        lay = self.layout
        return [
            Column("Nr", lay.nr, "R"),
            Column("Geber", lay.dealer),
            Column("Spiel", lay.game),
            Column("Reiz", lay.bid, "R"),
            Column("Wert", lay.value, "R"),
        ]

    def table_header(self) -> None:
        lay = self.layout
        height = HEAD_H1 + HEAD_H2
        x0, y0 = self.header_box(self.content_width, height)
        self.font(8, bold=True)
        self.color(BLACK)
        x = self.header_cells(self._fixed_columns(), x0, y0, height)
        for name in self.players:
            self.font(8, bold=True)
            self.put(x, y0 + 0.3, lay.player, HEAD_H1, name, "C")
            self.font(5.5)
            self.color(GREY_TEXT)
            self.put(x, y0 + HEAD_H1 - 0.3, lay.booking, HEAD_H2, "Buchung", "R")
            self.put(x + lay.booking, y0 + HEAD_H1 - 0.3, lay.sum, HEAD_H2, "Summe", "R")
            self.color(BLACK)
            x += lay.player
            self.line(x, y0, x, y0 + height)
        self.header_rule(y0 + height)
        self.set_xy(x0, y0 + height)

    def game_row(self, row: SheetRow) -> None:
        lay = self.layout
        text = self.clean(row.text)
        note = self.clean(row.note)
        if row.overbid and "überreizt" not in note:
            note = f"überreizt · {note}" if note else "überreizt"
        avail = lay.game - 2
        self.font(6.5)
        note_w = self.text_width(note) if note else 0.0
        self.font(8)
        text_w = self.text_width(text)
        two_lines = bool(note) and text_w + 2 + note_w > avail
        text_size = 8.0
        if text_w > avail:
            text_size = self.fit_size(text, avail, 8.0, 6.5, bold=False)
            text_w = min(self.text_width(text), avail)
        height = ROW_H_TWO_LINES if two_lines else ROW_H
        self.ensure_row_space(height)
        x0, y0 = self.l_margin, self.get_y()
        struck = row.struck
        text_color = STRUCK_TEXT if struck else BLACK
        self.color(text_color)
        self.font(8, strike=struck)

        x = x0
        self.put(x, y0, lay.nr, height, "" if row.nr is None else str(row.nr), "R")
        x += lay.nr
        self.put(x, y0, lay.dealer, height, self.clean(row.dealer))
        x += lay.dealer
        self.font(text_size, strike=struck)
        if two_lines:
            self.put(x, y0 + 0.4, lay.game, 4.2, text)
        else:
            self.put(x, y0, lay.game, height, text)
        if note:
            self.font(6.5, bold=row.overbid and not struck)
            self.color(OVERBID if row.overbid and not struck else GREY_TEXT)
            if two_lines:
                self.put(x, y0 + 4.0, lay.game, 3.6, note)
            else:
                self.put(x + 1 + text_w + 2, y0, note_w + 2, height, note, padding=0)
            self.color(text_color)
        self.font(8, strike=struck)
        x += lay.game
        self.put(x, y0, lay.bid, height, "" if row.bid is None else str(row.bid), "R")
        x += lay.bid
        self.put(x, y0, lay.value, height, "" if row.value is None else str(row.value), "R")
        x += lay.value
        for name in self.doc.players:
            if name in row.bookings:
                self.font(7, strike=struck)
                self.color(STRUCK_TEXT if struck else GREY_TEXT)
                self.put(x, y0, lay.booking, height, format_signed(row.bookings[name]), "R")
                if not struck and name in row.running:
                    self.font(8, bold=True)
                    self.color(BLACK)
                    self.put(
                        x + lay.booking, y0, lay.sum, height, format_number(row.running[name]), "R"
                    )
            x += lay.player
        self.color(BLACK)

        # grid: vertical column lines and the line below the row
        self.set_draw_color(*GRID)
        self.set_line_width(0.15)
        x = x0
        for width in (lay.nr, lay.dealer, lay.game, lay.bid, lay.value):
            x += width
            self.line(x, y0, x, y0 + height)
        for _ in self.doc.players:
            x += lay.player
            self.line(x, y0, x, y0 + height)
        self.line(x0, y0, x0, y0 + height)
        end_of_round = (
            not struck and row.nr is not None and row.nr % max(self.doc.table_size, 1) == 0
        )
        if end_of_round:
            self.set_draw_color(*ROUND_LINE)
            self.set_line_width(0.35)
        self.line(x0, y0 + height, x0 + self.content_width, y0 + height)
        self.set_xy(x0, y0 + height)

    def game_table(self) -> None:
        self.begin_table(self.table_header, ROW_H)
        if not self.doc.rows:
            self.font(8)
            self.color(GREY_TEXT)
            self.set_x(self.l_margin)
            self.cell(self.content_width, ROW_H, "Noch keine Spiele eingetragen.", align="C")
            self.ln(ROW_H)
            self.color(BLACK)
        for row in self.doc.rows:
            self.game_row(row)
        self.end_table()

    # -- Serienabschluss ----------------------------------------------------------------------

    def closing(self) -> None:
        doc = self.doc
        # keep heading + table together
        needed = 6 + 9 + 6.5 * max(len(doc.totals), 1) + 8
        if self.space_left() < needed + 4:
            self.add_page()
        self.heading("Serienabschluss" if doc.closed else "Zwischenstand (Serienabschluss)")
        fixed = 32 + 20 + 18 + 17 + 20 + 18
        columns = [
            Column("Spieler", 32),
            Column("Spielpunkte", 20, "R"),
            Column("gewonnen", 18, "R"),
            Column("verloren", 17, "R"),
            Column("Verl. andere", 20, "R"),
            Column("Rechenweg", self.content_width - fixed),
            Column("Wertung", 18, "R"),
        ]
        self.header_row(columns, 6.0, size=7.5)
        for total in doc.totals:
            self._total_row(columns, total)
        self.font(7)
        self.color(GREY_TEXT)
        self.set_x(self.l_margin)
        self.cell(
            self.content_width,
            4.5,
            "Verl. andere = verlorene Spiele der anderen Spieler am Tisch.",
        )
        self.ln(5)
        self.color(BLACK)

    def _total_row(self, columns: Sequence[Column], total: PlayerTotal) -> None:
        height = 6.5
        values = [
            self.clean(total.name),
            format_number(total.game_points),
            str(total.won),
            str(total.lost),
            str(total.others_lost),
        ]
        x0, y0 = self.l_margin, self.get_y()
        self.set_draw_color(*GRID)
        self.set_line_width(0.2)
        x = x0
        for column in columns:
            self.rect(x, y0, column.width, height)
            x += column.width
        x = x0
        self.font(8.5)
        for column, value in zip(columns, values, strict=False):
            self.put(x, y0, column.width, height, value, column.align)
            x += column.width
        steps_col = columns[5]
        steps = self.clean(total.steps)
        self.fit_size(steps, steps_col.width - 2, 8.5, 6.0, bold=False)
        self.put(x, y0, steps_col.width, height, steps)
        x += steps_col.width
        self.font(9, bold=True)
        self.put(x, y0, columns[6].width, height, format_number(total.score), "R")
        self.set_xy(x0, y0 + height)

    def ranking_and_chart(self) -> None:
        block_h = 66.0
        if self.space_left() < block_h:
            self.add_page()
        x0, y0 = self.l_margin, self.get_y() + 2
        left_w = 58.0
        self.set_xy(x0, y0)
        self.font(11, bold=True)
        self.cell(left_w, 6, "Rangliste")
        y = y0 + 7.5
        for place, name, score in self.doc.ranking:
            self.set_draw_color(*GRID)
            self.set_line_width(0.15)
            self.font(9, bold=True)
            self.put(x0, y, 9, 5.5, f"{place}.", "R", padding=0.5)
            self.font(9)
            self.put(x0 + 9, y, left_w - 27, 5.5, self.clean(name))
            self.font(9, bold=True)
            self.put(x0 + left_w - 18, y, 18, 5.5, format_number(score), "R")
            self.line(x0, y + 5.5, x0 + left_w, y + 5.5)
            y += 5.5
        if self.doc.ranking_note:
            self.font(7.5)
            self.color(GREY_TEXT)
            self.set_xy(x0, y + 1.5)
            self.multi_cell(left_w, 3.6, self.clean(self.doc.ranking_note))
            self.color(BLACK)
        chart_x = x0 + left_w + 8
        self.chart(chart_x, y0, self.w - self.r_margin - chart_x, block_h - 4)
        self.set_xy(self.l_margin, y0 + block_h)

    # -- chart --------------------------------------------------------------------------------

    def chart(self, x: float, y: float, w: float, h: float) -> None:
        doc = self.doc
        valid = [r for r in doc.rows if not r.struck and r.nr is not None]
        series: list[list[int]] = [[0] + [r.running.get(p, 0) for r in valid] for p in doc.players]
        self.font(9, bold=True)
        self.set_xy(x, y)
        self.cell(w, 5, "Verlauf der Spielpunkte")

        legend_h = 5.0
        px, py = x + 11, y + 7
        pw, ph = w - 13, h - 7 - 5 - legend_h
        values = [v for s in series for v in s] or [0]
        lo, hi = min(0, *values), max(0, *values)
        step = _nice_step(hi - lo)
        lo = (lo // step) * step
        hi = -((-hi) // step) * step
        if hi == lo:
            hi = lo + step
        games = max(len(valid), 1)

        def sx(i: float) -> float:
            return px + pw * i / games

        def sy(v: float) -> float:
            return py + ph - ph * (v - lo) / (hi - lo)

        # grid and y labels
        self.set_line_width(0.1)
        self.font(6)
        self.color(GREY_TEXT)
        tick = lo
        while tick <= hi:
            self.set_draw_color(*((90, 90, 90) if tick == 0 else (215, 215, 215)))
            self.set_line_width(0.25 if tick == 0 else 0.1)
            self.line(px, sy(tick), px + pw, sy(tick))
            self.set_xy(x, sy(tick) - 1.5)
            self.cell(10, 3, format_number(tick), align="R")
            tick += step
        # x labels
        xstep = _x_step(games, doc.table_size)
        for i in range(0, games + 1, xstep):
            self.set_draw_color(215, 215, 215)
            self.set_line_width(0.1)
            self.line(sx(i), py, sx(i), py + ph)
            self.set_xy(sx(i) - 5, py + ph + 0.5)
            self.cell(10, 3, str(i), align="C")
        self.set_xy(px + pw - 20, py + ph + 3.2)
        self.cell(20, 3, "Spiele", align="R")
        self.set_draw_color(*GRID)
        self.set_line_width(0.2)
        self.rect(px, py, pw, ph)

        # lines
        self.set_line_width(0.5)
        for index, points in enumerate(series):
            color = LINE_COLORS[index % len(LINE_COLORS)]
            dash, gap = DASHES[index % len(DASHES)]
            self.set_draw_color(*color)
            self.set_dash_pattern(dash=dash, gap=gap)
            if len(points) > 1:
                self.polyline([(sx(i), sy(v)) for i, v in enumerate(points)], style="D")
            self.set_dash_pattern()

        # legend
        lx, ly = px, py + ph + 7.5
        slot = pw / max(len(self.players), 1)
        for index, name in enumerate(self.players):
            color = LINE_COLORS[index % len(LINE_COLORS)]
            dash, gap = DASHES[index % len(DASHES)]
            self.set_draw_color(*color)
            self.set_line_width(0.6)
            self.set_dash_pattern(dash=dash, gap=gap)
            sx0 = lx + index * slot
            self.line(sx0, ly, sx0 + 6, ly)
            self.set_dash_pattern()
            self.font(7)
            self.color(BLACK)
            self.put(sx0 + 8, ly - 1.6, slot - 9, 3.2, name, padding=0)
        self.color(BLACK)
        self.set_draw_color(*BLACK)


def _nice_step(span: int) -> int:
    """A round grid step giving about four to six horizontal lines."""
    if span <= 0:
        return 10
    raw = span / 5
    magnitude = 1
    while magnitude * 10 <= raw:
        magnitude *= 10
    for factor in (1, 2, 2.5, 5, 10):
        step = int(factor * magnitude)
        if step >= raw and step > 0:
            return step
    return 10 * magnitude  # pragma: no cover


def _x_step(games: int, table_size: int) -> int:
    base = max(table_size, 1)
    step = base
    while games / step > 12:
        step += base
    return step


def lost_names(names: Sequence[str]) -> set[str]:
    """The names that lose characters (e.g. emoji) in the PDF."""
    return {name for name in names if printable(name)[1]}


def render_series(doc: SeriesDocument) -> tuple[bytes, set[str]]:
    """Render the series list.

    Returns the PDF bytes and the (original) player names that lost characters in the PDF
    because the embedded font cannot draw them (emoji)."""
    pdf = _SeriesPDF(doc)
    pdf.header_block()
    pdf.game_table()
    pdf.closing()
    pdf.ranking_and_chart()
    names = [*doc.players, *(t.name for t in doc.totals), *(r[1] for r in doc.ranking)]
    for row in doc.rows:
        names.append(row.dealer)
        names.extend(row.bookings)
    return bytes(pdf.output()), lost_names(names)
