"""The blank form ("Vordruck") for a 3- or 4-table, to fill in by hand."""

from __future__ import annotations

from skatbot.pdf.base import BLACK, GREY_TEXT, GRID, Column, SkatPDF

GAMES_PER_TABLE = {3: 36, 4: 48}
OTHERS_FACTOR = {3: 40, 4: 30}
TABLE_NAME = {3: "Dreiertisch", 4: "Vierertisch"}

HEAD_H1 = 12.0  # the players' names are written here by hand: room for a name of ~5 mm
HEAD_H2 = 3.5
MAX_ROW_H = 7.0
ROUND_LINE = (60, 60, 60)


class _FormPDF(SkatPDF):
    def __init__(self, table_size: int) -> None:
        self.table_size = table_size
        self.games = GAMES_PER_TABLE[table_size]
        title = f"Skatliste – Vordruck {TABLE_NAME[table_size]}"
        super().__init__(title, subject="Vordruck Skatliste")
        self.player_w = 23.0 if table_size == 4 else 27.0
        self.fixed = [
            Column("Nr", 8.0, "R"),
            Column("Geber", 20.0),
            Column("Spiel", 0.0),
            Column("Reiz", 9.0, "R"),
            Column("Wert", 10.0, "R"),
        ]
        game_w = self.content_width - sum(c.width for c in self.fixed) - table_size * self.player_w
        self.fixed[2] = Column("Spiel", game_w)

    def blank(self, x: float, y: float, w: float, label: str = "") -> None:
        """A writing line of width ``w`` with its baseline at ``y``, optional tiny label below."""
        self.set_draw_color(*BLACK)
        self.set_line_width(0.2)
        self.line(x, y, x + w, y)
        if label:
            self.font(5.5)
            self.color(GREY_TEXT)
            self.text(x, y + 2.3, label)
            self.color(BLACK)

    def inline_text(
        self, x: float, y: float, text: str, size: float = 9.5, bold: bool = False
    ) -> float:
        """Text with baseline at ``y``; returns the x after it."""
        self.font(size, bold)
        self.text(x, y, text)
        return x + self.text_width(text)

    # -- page 1: the list ---------------------------------------------------------------------

    def header_block(self) -> None:
        self.add_page()
        self.font(15, bold=True)
        self.text(self.l_margin, self.t_margin + 5, "Skatliste")
        self.font(10)
        self.color(GREY_TEXT)
        self.text(
            self.l_margin + 30,
            self.t_margin + 5,
            f"Vordruck {TABLE_NAME[self.table_size]} · {self.games} Spiele",
        )
        self.color(BLACK)
        y = self.t_margin + 14
        x = self.l_margin
        for label, width in (("Datum", 30.0), ("Tisch", 14.0), ("Serie", 14.0), ("Wertung", 52.0)):
            x = self.inline_text(x, y, f"{label}:", 9, bold=True) + 1.5
            self.blank(x, y + 0.8, width)
            x += width + 6
        self.set_y(y + 4)

    def table_header(self) -> None:
        height = HEAD_H1 + HEAD_H2
        x0, y0 = self.header_box(self.content_width, height)
        self.font(8, bold=True)
        x = self.header_cells(self.fixed, x0, y0, height)
        for index in range(self.table_size):
            # room to write the player's name, with a tiny label
            self.font(5.5)
            self.color(GREY_TEXT)
            self.text(x + 1, y0 + 2.2, f"Spieler {index + 1}")
            self.set_draw_color(*GRID)
            self.line(x + 1, y0 + HEAD_H1 - 0.6, x + self.player_w - 1, y0 + HEAD_H1 - 0.6)
            half = self.player_w / 2
            self.put(x, y0 + HEAD_H1 - 0.3, half, HEAD_H2, "Buchung", "C")
            self.put(x + half, y0 + HEAD_H1 - 0.3, half, HEAD_H2, "Summe", "C")
            self.color(BLACK)
            x += self.player_w
            self.line(x, y0, x, y0 + height)
        self.header_rule(y0 + height)
        self.set_xy(x0, y0 + height)

    def rows(self) -> None:
        available = self.bottom - self.get_y() - HEAD_H1 - HEAD_H2 - 1
        row_h = min(MAX_ROW_H, available / self.games)
        row_h = max(row_h, 4.8)
        self.begin_table(self.table_header, row_h)
        x0 = self.l_margin
        for nr in range(1, self.games + 1):
            self.ensure_row_space(row_h)
            y0 = self.get_y()
            self.font(8)
            self.put(x0, y0, self.fixed[0].width, row_h, str(nr), "R")
            self.set_draw_color(*GRID)
            self.set_line_width(0.15)
            x = x0
            self.line(x, y0, x, y0 + row_h)
            for column in self.fixed:
                x += column.width
                self.line(x, y0, x, y0 + row_h)
            for _ in range(self.table_size):
                self.set_draw_color(215, 215, 215)
                self.line(x + self.player_w / 2, y0, x + self.player_w / 2, y0 + row_h)
                self.set_draw_color(*GRID)
                x += self.player_w
                self.line(x, y0, x, y0 + row_h)
            if nr % self.table_size == 0:
                self.set_draw_color(*ROUND_LINE)
                self.set_line_width(0.35)
            self.line(x0, y0 + row_h, x0 + self.content_width, y0 + row_h)
            self.set_xy(x0, y0 + row_h)
        self.end_table()

    # -- page 2: Serienabschluss --------------------------------------------------------------

    def closing(self) -> None:
        self.add_page()
        factor = OTHERS_FACTOR[self.table_size]
        self.font(14, bold=True)
        self.text(self.l_margin, self.t_margin + 5, "Serienabschluss")
        self.font(8.5)
        self.color(GREY_TEXT)
        hints = (
            "Wertung nach ISkO 6.3.1: Spielpunkte + 50 × (gewonnene − verlorene Spiele) "
            f"+ {factor} × verlorene Spiele der anderen",
            f"({TABLE_NAME[self.table_size]}: je verlorenes Spiel eines anderen Spielers "
            f"{factor} Punkte).",
        )
        y = self.t_margin + 11
        for hint in hints:
            self.text(self.l_margin, y, hint)
            y += 4
        self.color(BLACK)
        y += 3
        box_h = 27.0
        for index in range(self.table_size):
            self.player_block(self.l_margin, y, self.content_width, box_h, index + 1, factor)
            y += box_h + 3
        y += 9
        self.font(12, bold=True)
        self.text(self.l_margin, y, "Rangliste")
        y += 9
        for place in range(1, self.table_size + 1):
            x = self.inline_text(self.l_margin, y, f"{place}. Platz", 9.5, bold=True) + 3
            self.blank(x, y + 0.8, 70)
            x = self.inline_text(x + 76, y, "Wertung") + 2
            self.blank(x, y + 0.8, 28)
            y += 9
        y += 6
        self.font(12, bold=True)
        self.text(self.l_margin, y, "Unterschriften der Spieler")
        y += 14
        width = (self.content_width - (self.table_size - 1) * 6) / self.table_size
        for index in range(self.table_size):
            self.blank(self.l_margin + index * (width + 6), y, width, f"Spieler {index + 1}")

    def player_block(
        self, x0: float, y0: float, w: float, h: float, number: int, factor: int
    ) -> None:
        self.set_draw_color(*GRID)
        self.set_line_width(0.3)
        self.rect(x0, y0, w, h)
        line1 = y0 + 8
        x = self.inline_text(x0 + 3, line1, f"Spieler {number}:", 9.5, bold=True) + 2
        self.blank(x, line1 + 0.8, 70)
        line2 = y0 + 16.5
        x = self.inline_text(x0 + 3, line2, "Spielpunkte") + 2
        self.blank(x, line2 + 0.8, 22)
        x = self.inline_text(x + 24, line2, "+ 50 × (gewonnen") + 2
        self.blank(x, line2 + 0.8, 14)
        x = self.inline_text(x + 16, line2, "− verloren") + 2
        self.blank(x, line2 + 0.8, 14)
        self.inline_text(x + 16, line2, ")")
        line3 = y0 + 24
        x = self.inline_text(x0 + 3, line3, f"+ {factor} × (verlorene Spiele der anderen") + 2
        self.blank(x, line3 + 0.8, 14)
        x = self.inline_text(x + 16, line3, ") =") + 2
        self.blank(x, line3 + 0.8, 26)
        self.inline_text(x + 28, line3, "Wertung", 8.5)


def render_blank_form(table_size: int) -> bytes:
    """The empty list for ``/vordruck 3|4``: one row per game (36 or 48) and the
    Serienabschluss with the calculation steps to fill in. Other sizes raise ValueError."""
    if isinstance(table_size, bool) or table_size not in GAMES_PER_TABLE:
        raise ValueError(f"Vordruck gibt es nur für 3 oder 4 Spieler, nicht für {table_size!r}")
    pdf = _FormPDF(table_size)
    pdf.header_block()
    pdf.rows()
    pdf.closing()
    return bytes(pdf.output())
