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
    line_height,
)
from skatbot.pdf.fonts import printable
from skatbot.pdf.model import PlayerTotal, SeriesDocument, SheetRow

ROW_H = 5.0
ROW_PAD = 1.4
"""Vertical space kept free around the text of a multi-line row (mm)."""
HEAD_H1 = 5.5
HEAD_H2 = 3.5
TEXT_SIZE = 8.0
TEXT_MIN = 7.0
"""A too long game text shrinks from 8 pt to 7 pt, and wraps beyond that."""
NAME_MIN = 6.5
NOTE_SIZE = 6.5
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


# The value column: the game's value on an ISkO list; under house rules what was booked to
# the declarer (Kontra/Re, Bock and a lost game's doubling included), named so.
VALUE_TITLE = {False: "Wert", True: "gebucht"}
VALUE_LEGEND = (
    "gebucht = der Betrag des Alleinspielers: Spielwert mit Kontra/Re, Bock und doppeltem Verlust."
)


def _layout(pdf: SkatPDF, players: int, house: bool = False) -> _Layout:
    player = 23.0 if players >= 4 else 27.0
    nr, dealer, bid, value = 8.0, 20.0, 9.0, 14.0 if house else 10.0
    game = pdf.content_width - nr - dealer - bid - value - players * player
    return _Layout(nr, dealer, game, bid, value, player)


class _SeriesPDF(SkatPDF):
    def __init__(self, doc: SeriesDocument) -> None:
        super().__init__(
            doc.title, subject="Skatliste", footer_label=f"{doc.title} · {format_date(doc.date)}"
        )
        self.doc = doc
        self.players = [self.clean(p) for p in doc.players]
        self.layout = _layout(self, len(doc.players), doc.house)
        self.house = doc.house
        self.start = {name: doc.start.get(name, 0) for name in doc.players}
        self.head_names = [
            self.fit_lines(name, self.layout.player - 3, 8, NAME_MIN, bold=True)
            for name in self.players
        ]
        names_h = max(line_height(size) * len(lines) for size, lines in self.head_names)
        self.head_h1 = max(HEAD_H1, names_h + 1.2)
        self._header_height_estimate = self.head_h1 + HEAD_H2

    # -- header block -------------------------------------------------------------------------

    def header_block(self) -> None:
        doc = self.doc
        self.add_page()
        pad = self.c_margin  # where a cell() puts its text, as the lines below do
        self.font(16, bold=True)
        for line in self.wrap(self.clean(doc.title), self.content_width - 2 * pad):
            self.put(self.l_margin, self.get_y(), self.content_width, 8, line, padding=pad)
            self.ln(8)
        if doc.subtitle:
            self.font(10)
            for line in self.wrap(self.clean(doc.subtitle), self.content_width - 2 * pad):
                self.put(self.l_margin, self.get_y(), self.content_width, 5, line, padding=pad)
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
        label_w = self.get_string_width(label) + 1.5
        self.cell(label_w, 5, label)
        self.font(9)
        # every name in full: the list wraps, a name breaks only if it is longer than a line
        count = len(self.players)
        chunks = [
            f"{i}. {name}" + (", " if i < count else "")
            for i, name in enumerate(self.players, start=1)
        ]
        x = self.l_margin + label_w
        for line in self.wrap_chunks(chunks, self.w - self.r_margin - x - 2 * pad):
            self.put(x, self.get_y(), self.w - self.r_margin - x, 5, line, padding=pad)
            self.ln(5)
        if not doc.closed:
            self.font(8)
            self.color(GREY_TEXT)
            self.set_x(self.l_margin)
            self.cell(0, 4.5, "Zwischenstand – die Serie ist noch nicht abgeschlossen.")
            self.ln(4.5)
            self.color(BLACK)
        elif doc.closed_on is not None:
            self.font(8, bold=True)
            self.set_x(self.l_margin)
            self.cell(0, 4.5, f"Serie abgeschlossen am {format_date(doc.closed_on)}.")
            self.ln(4.5)
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
            Column(VALUE_TITLE[self.house], lay.value, "R"),
        ]

    def table_header(self) -> None:
        lay = self.layout
        head_h1 = self.head_h1
        height = head_h1 + HEAD_H2
        x0, y0 = self.header_box(self.content_width, height)
        self.font(8, bold=True)
        self.color(BLACK)
        x = self.header_cells(self._fixed_columns(), x0, y0, height)
        for size, lines in self.head_names:
            self.font(size, bold=True)
            self.put_lines(x, y0 + 0.3, lay.player, head_h1, lines, "C")
            self.font(5.5)
            self.color(GREY_TEXT)
            self.put(x, y0 + head_h1 - 0.3, lay.booking, HEAD_H2, "Buchung", "R")
            self.put(x + lay.booking, y0 + head_h1 - 0.3, lay.sum, HEAD_H2, "Summe", "R")
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
        note_bold = row.overbid and not row.struck
        avail = lay.game - 3
        # the game text: shrunk a little, then wrapped; never cut
        text_size, text_lines = self.fit_lines(text, avail, TEXT_SIZE, TEXT_MIN)
        last_w = self.text_width(text_lines[-1])
        note_lines: list[str] = []
        note_w = 0.0
        if note:
            self.font(NOTE_SIZE, bold=note_bold)
            note_w = self.text_width(note)
            if last_w + 2 + note_w > avail:
                note_lines = self.wrap(note, avail)
        dealer = self.clean(row.dealer)
        text_step = line_height(text_size)
        text_h = text_step * len(text_lines) + line_height(NOTE_SIZE) * len(note_lines)
        dealer_h = self.block_height(dealer, lay.dealer - 3, TEXT_SIZE, NAME_MIN)
        height = max(ROW_H, text_h + ROW_PAD, dealer_h + ROW_PAD)
        self.ensure_row_space(height)
        x0, y0 = self.l_margin, self.get_y()
        struck = row.struck
        text_color = STRUCK_TEXT if struck else BLACK
        self.color(text_color)
        self.font(TEXT_SIZE, strike=struck)

        x = x0
        self.put(x, y0, lay.nr, height, "" if row.nr is None else str(row.nr), "R")
        x += lay.nr
        self.put_fitted(
            x, y0, lay.dealer, height, dealer, size=TEXT_SIZE, min_size=NAME_MIN, strike=struck
        )
        x += lay.dealer
        top = y0 + (height - text_h) / 2
        self.font(text_size, strike=struck)
        for index, line in enumerate(text_lines):
            self.put(x, top + index * text_step, lay.game, text_step, line)
        if note:
            self.font(NOTE_SIZE, bold=note_bold)
            self.color(OVERBID if note_bold else GREY_TEXT)
            if note_lines:
                note_top = top + len(text_lines) * text_step
                self.put_lines(x, note_top, lay.game, top + text_h - note_top, note_lines)
            else:
                last_y = top + (len(text_lines) - 1) * text_step
                self.put(x + 1.5 + last_w + 2, last_y, note_w + 2, text_step, note, padding=0)
            self.color(text_color)
        x += lay.game
        for width, number in ((lay.bid, row.bid), (lay.value, row.value)):
            if number is not None:
                self.put_fitted(
                    x, y0, width, height, str(number), "R", size=8, min_size=5, strike=struck
                )
            x += width
        for name in self.doc.players:
            if name in row.bookings:
                self.color(STRUCK_TEXT if struck else GREY_TEXT)
                self.put_fitted(
                    x, y0, lay.booking, height, format_signed(row.bookings[name]), "R",
                    size=7, min_size=5, strike=struck,
                )  # fmt: skip
                if not struck and name in row.running:
                    self.color(BLACK)
                    self.put_fitted(
                        x + lay.booking, y0, lay.sum, height, format_number(row.running[name]),
                        "R", size=8, min_size=5, bold=True,
                    )  # fmt: skip
            elif self.doc.table_size == 4 and name == row.dealer and not struck:
                # the dealer of a 4-table sits the game out: marked in his column
                self.color(GREY_TEXT)
                self.font(NOTE_SIZE)
                self.put(x, y0, lay.player, height, "setzt aus", "C")
                self.font(TEXT_SIZE)
            x += lay.player
        self.color(BLACK)
        end_of_round = (
            not struck and row.nr is not None and row.nr % max(self.doc.table_size, 1) == 0
        )
        self._row_grid(x0, y0, height, end_of_round)

    def start_row(self) -> None:
        """House rules: the start points as the first row; the running sums begin there."""
        lay = self.layout
        height = ROW_H
        self.ensure_row_space(height)
        x0, y0 = self.l_margin, self.get_y()
        self.color(BLACK)
        x = x0 + lay.nr + lay.dealer
        self.put_fitted(x, y0, lay.game, height, "Startpunkte", size=TEXT_SIZE, min_size=TEXT_MIN)
        x += lay.game + lay.bid + lay.value
        for name in self.doc.players:
            self.put_fitted(
                x + lay.booking, y0, lay.sum, height, format_number(self.start[name]), "R",
                size=8, min_size=5, bold=True,
            )  # fmt: skip
            x += lay.player
        self._row_grid(x0, y0, height, end_of_round=True)

    def _row_grid(self, x0: float, y0: float, height: float, end_of_round: bool) -> None:
        """The vertical column lines of a row and the line below it."""
        lay = self.layout
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
        if end_of_round:
            self.set_draw_color(*ROUND_LINE)
            self.set_line_width(0.35)
        self.line(x0, y0 + height, x0 + self.content_width, y0 + height)
        self.set_xy(x0, y0 + height)

    def game_table(self) -> None:
        self.begin_table(self.table_header, ROW_H)
        if self.house and any(self.start.values()):
            self.start_row()
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
        columns = self._closing_columns()
        # keep heading + table together
        rows_h = sum(self._total_height(columns, total) for total in doc.totals)
        needed = 6 + 9 + max(rows_h, 6.5) + 8
        if self.space_left() < needed + 4:
            self.add_page()
        self.heading("Serienabschluss" if doc.closed else "Zwischenstand")
        self.header_row(columns, 6.0, size=7.5)
        for total in doc.totals:
            self._total_row(columns, total)
        self.font(7)
        self.color(GREY_TEXT)
        self.set_x(self.l_margin)
        if self.house:
            legend = "Stand = Startpunkte + Buchungen (Hausregeln, ohne Seeger-Fabian)."
        else:
            legend = "Verl. andere = verlorene Spiele der anderen Spieler am Tisch."
        self.cell(self.content_width, 4.5, legend)
        self.ln(4.5 if self.house else 5)
        if self.house:
            self.set_x(self.l_margin)
            self.cell(self.content_width, 4.5, VALUE_LEGEND)
            self.ln(5)
        self.color(BLACK)

    def _closing_columns(self) -> list[Column]:
        """Seeger-Fabian columns for ISkO lists; start, bookings and Stand under house rules."""
        if self.house:
            fixed = 32 + 16 + 20 + 18 + 17 + 18
            return [
                Column("Spieler", 32),
                Column("Start", 16, "R"),
                Column("Buchungen", 20, "R"),
                Column("gewonnen", 18, "R"),
                Column("verloren", 17, "R"),
                Column("Rechenweg", self.content_width - fixed),
                Column("Stand", 18, "R"),
            ]
        fixed = 32 + 20 + 18 + 17 + 20 + 18
        return [
            Column("Spieler", 32),
            Column("Spielpunkte", 20, "R"),
            Column("gewonnen", 18, "R"),
            Column("verloren", 17, "R"),
            Column("Verl. andere", 20, "R"),
            Column("Rechenweg", self.content_width - fixed),
            Column("Wertung", 18, "R"),
        ]

    def _total_values(self, total: PlayerTotal) -> list[str]:
        """The cells of a closing row, in column order."""
        counts = [str(total.won), str(total.lost)]
        steps = self.clean(total.steps)
        score = format_number(total.score)
        if self.house:
            start = self.start.get(total.name, 0)
            return [
                self.clean(total.name),
                format_number(start),
                format_number(total.game_points),
                *counts,
                steps,
                score,
            ]
        return [
            self.clean(total.name),
            format_number(total.game_points),
            *counts,
            str(total.others_lost),
            steps,
            score,
        ]

    def _total_height(self, columns: Sequence[Column], total: PlayerTotal) -> float:
        values = self._total_values(total)
        name_h = self.block_height(values[0], columns[0].width - 3, 8.5, 7.0)
        steps_h = self.block_height(values[5], columns[5].width - 3, 8.5, 6.0)
        return max(6.5, name_h + ROW_PAD, steps_h + ROW_PAD)

    def _total_row(self, columns: Sequence[Column], total: PlayerTotal) -> None:
        height = self._total_height(columns, total)
        self.ensure_row_space(height)
        values = self._total_values(total)
        x0, y0 = self.row_grid(columns, height)
        x = x0
        last = len(columns) - 1
        for index, (column, value) in enumerate(zip(columns, values, strict=True)):
            if index == last:
                self.put_fitted(
                    x, y0, column.width, height, value, column.align,
                    size=9, min_size=6, bold=True,
                )  # fmt: skip
            else:
                min_size = {0: 7.0, 5: 6.0}.get(index, 6.0)
                self.put_fitted(
                    x, y0, column.width, height, value, column.align, size=8.5, min_size=min_size
                )
            x += column.width
        self.set_xy(x0, y0 + height)

    def ranking_and_chart(self) -> None:
        chart_h = 62.0
        left_w = 58.0
        name_w = left_w - 27
        heights = [
            max(5.5, self.block_height(self.clean(name), name_w - 3, 9, 7.5) + ROW_PAD)
            for _, name, _ in self.doc.ranking
        ]
        block_h = max(chart_h, 7.5 + sum(heights) + (12 if self.doc.ranking_note else 0)) + 4
        if self.space_left() < block_h:
            self.add_page()
        x0, y0 = self.l_margin, self.get_y() + 2
        self.set_xy(x0, y0)
        self.font(11, bold=True)
        self.cell(left_w, 6, "Rangliste")
        y = y0 + 7.5
        for (place, name, score), height in zip(self.doc.ranking, heights, strict=True):
            self.set_draw_color(*GRID)
            self.set_line_width(0.15)
            self.font(9, bold=True)
            self.put(x0, y, 9, height, f"{place}.", "R", padding=0.5)
            self.put_fitted(x0 + 9, y, name_w, height, self.clean(name), size=9, min_size=7.5)
            self.put_fitted(
                x0 + left_w - 18, y, 18, height, format_number(score), "R",
                size=9, min_size=6, bold=True,
            )  # fmt: skip
            self.line(x0, y + height, x0 + left_w, y + height)
            y += height
        if self.doc.ranking_note:
            self.font(7.5)
            self.color(GREY_TEXT)
            self.set_xy(x0, y + 1.5)
            self.multi_cell(left_w, 3.6, self.clean(self.doc.ranking_note))
            self.color(BLACK)
        chart_x = x0 + left_w + 8
        self.chart(chart_x, y0, self.w - self.r_margin - chart_x, chart_h)
        self.set_xy(self.l_margin, y0 + block_h)

    def money_block(self) -> None:
        """The settlement under the list's stake: the stake, balances, transfers or pot."""
        lines = [self.clean(line) for line in self.doc.money]
        if self.space_left() < 10 + 4.5 * len(lines):
            self.add_page()
        self.heading("Abrechnung", 11, gap_before=2)
        for index, line in enumerate(lines):
            self.font(9, bold=index == 0)
            self.set_x(self.l_margin)
            self.cell(self.content_width, 4.5, self.fit(line, self.content_width))
            self.ln(4.5)

    # -- chart --------------------------------------------------------------------------------

    def chart(self, x: float, y: float, w: float, h: float) -> None:
        doc = self.doc
        valid = [r for r in doc.rows if not r.struck and r.nr is not None]
        series: list[list[int]] = [
            [self.start[p]] + [r.running.get(p, 0) for r in valid] for p in doc.players
        ]
        title = "Verlauf der Spielpunkte"
        if doc.curve:  # the curve of the chat's picture, with its label
            series = [[point[seat] for point in doc.curve] for seat in range(len(doc.players))]
            title = "Verlauf des Stands" + (f" ({doc.curve_label})" if doc.curve_label else "")
        self.font(9, bold=True)
        self.set_xy(x, y)
        self.cell(w, 5, title)

        px, py = x + 11, y + 7
        pw = w - 13
        # the legend: as many entries side by side as fit with every name in full
        self.font(7)
        count = max(len(self.players), 1)
        per_row = count
        while per_row > 1 and any(
            self.text_width(name) > pw / per_row - 9 for name in self.players
        ):
            per_row -= 1
        legend_rows = -(-count // per_row)
        legend_h = 5.0 + 3.6 * (legend_rows - 1)
        ph = h - 7 - 5 - legend_h
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
        lx, ly0 = px, py + ph + 7.5
        slot = pw / per_row
        for index, name in enumerate(self.players):
            ly = ly0 + 3.6 * (index // per_row)
            color = LINE_COLORS[index % len(LINE_COLORS)]
            dash, gap = DASHES[index % len(DASHES)]
            self.set_draw_color(*color)
            self.set_line_width(0.6)
            self.set_dash_pattern(dash=dash, gap=gap)
            sx0 = lx + (index % per_row) * slot
            self.line(sx0, ly, sx0 + 6, ly)
            self.set_dash_pattern()
            self.color(BLACK)
            self.put_fitted(sx0 + 8, ly - 1.6, slot - 9, 3.2, name, size=7, min_size=5, padding=0)
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
    if doc.money:
        pdf.money_block()
    names = [*doc.players, *(t.name for t in doc.totals), *(r[1] for r in doc.ranking)]
    for row in doc.rows:
        names.append(row.dealer)
        names.extend(row.bookings)
    return bytes(pdf.output()), lost_names(names)
