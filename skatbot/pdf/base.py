"""A small fpdf2 base document shared by the skatbot PDFs.

A4, Liberation Sans (regular + bold, embedded as subsets), German metadata, a footer with
"Seite x/y", and helpers for tables whose header row is repeated on every page.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from fpdf import FPDF

from skatbot.pdf.embedded_fonts import add_embedded_font
from skatbot.pdf.fonts import printable

FAMILY = "LiberationSans"
MARGIN = 12.0
"""Left, right and top page margin in mm."""
BOTTOM_MARGIN = 14.0
"""Space kept free at the bottom of each page for the footer (mm)."""

MINUS = "\u2212"
ELLIPSIS = "…"

Align = Literal["L", "C", "R"]
RGB = tuple[int, int, int]

BLACK: RGB = (0, 0, 0)
GREY_TEXT: RGB = (110, 110, 110)
GRID: RGB = (170, 170, 170)
HEADER_FILL: RGB = (232, 232, 232)


def format_number(value: int) -> str:
    """German number format with a dot as thousands separator and a real minus sign."""
    text = f"{abs(value):,}".replace(",", ".")
    return f"{MINUS}{text}" if value < 0 else text


def format_signed(value: int) -> str:
    """A booking: "+72", "−94", "0"."""
    if value > 0:
        return f"+{format_number(value)}"
    return format_number(value)


def format_date(date: datetime.date) -> str:
    return f"{date.day:02d}.{date.month:02d}.{date.year}"


_MONTHS = (
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
)


def format_date_long(date: datetime.date) -> str:
    """E.g. "30. November 2025"."""
    return f"{date.day}. {_MONTHS[date.month - 1]} {date.year}"


@dataclass(frozen=True)
class Column:
    """One table column: header text, width in mm and alignment of the cell contents."""

    title: str
    width: float
    align: Align = "L"


class SkatPDF(FPDF):
    """A4 portrait document with Liberation Sans and the skatbot footer."""

    def __init__(
        self,
        title: str,
        *,
        subject: str = "",
        footer_label: str | None = None,
        created: datetime.datetime | None = None,
        show_footer: bool = True,
    ) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=BOTTOM_MARGIN)
        add_embedded_font(self, FAMILY, "")
        add_embedded_font(self, FAMILY, "B")
        clean_title = self.clean(title)
        self.set_title(clean_title)
        self.set_lang("de")
        self.set_author("skatbot")
        self.set_creator("skatbot")
        if subject:
            self.set_subject(self.clean(subject))
        self.set_creation_date(created or datetime.datetime.now(datetime.UTC))
        self.footer_label = clean_title if footer_label is None else self.clean(footer_label)
        self.show_footer = show_footer
        self._table_header: Callable[[], None] | None = None
        self.set_font(FAMILY, size=9)

    # -- text helpers -------------------------------------------------------------------------

    @staticmethod
    def clean(text: str) -> str:
        """The text without characters the embedded font cannot draw."""
        return printable(text)[0]

    def font(self, size: float, bold: bool = False, strike: bool = False) -> None:
        style = ("B" if bold else "") + ("S" if strike else "")
        self.set_font(FAMILY, style=style, size=size)

    def color(self, rgb: RGB) -> None:
        self.set_text_color(*rgb)

    def header_rule(self, y: float) -> None:
        """The black line that closes a table header at ``y`` (full content width)."""
        self.set_draw_color(*BLACK)
        self.set_line_width(0.3)
        self.line(self.l_margin, y, self.l_margin + self.content_width, y)

    def text_width(self, text: str) -> float:
        """Width of ``text`` in mm in the current font (fast path for TrueType fonts)."""
        font = self.current_font
        widths = getattr(font, "cw", None)
        if widths is None or self.char_spacing or self.font_stretching != 100:
            return self.get_string_width(text)
        return float(sum(widths[ord(char)] for char in text)) * self.font_size / 1000

    def fit(self, text: str, width: float) -> str:
        """``text`` shortened with an ellipsis so that it fits ``width`` mm in the current font."""
        if self.text_width(text) <= width:
            return text
        while text and self.text_width(text + ELLIPSIS) > width:
            text = text[:-1]
        return text.rstrip() + ELLIPSIS

    def fit_size(self, text: str, width: float, size: float, min_size: float, bold: bool) -> float:
        """Largest font size between ``min_size`` and ``size`` at which ``text`` fits."""
        self.font(size, bold)
        current = size
        while current > min_size and self.text_width(text) > width:
            current = max(min_size, current - 0.5)
            self.font(current, bold)
        return current

    def put(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        text: str,
        align: Align = "L",
        padding: float = 1.5,
    ) -> None:
        """Draw ``text`` inside the box (x, y, w, h), vertically centred, without borders.

        Too long text is shortened with an ellipsis. Uses ``FPDF.text`` (much cheaper than
        ``cell``); the current position is not changed."""
        if not text:
            return
        text = self.fit(text, w - 2 * padding)
        if align == "L":
            tx = x + padding
        else:
            width = self.text_width(text)
            tx = x + w - padding - width if align == "R" else x + (w - width) / 2
        self.text(tx, y + 0.5 * h + 0.3 * self.font_size, text)

    # -- page furniture -----------------------------------------------------------------------

    def footer(self) -> None:
        if not self.show_footer:
            return
        self.set_y(-10)
        self.font(7)
        self.color(GREY_TEXT)
        width = self.w - self.l_margin - self.r_margin
        self.cell(width * 0.75, 4, self.fit(f"skatbot · {self.footer_label}", width * 0.7))
        self.cell(width * 0.25, 4, f"Seite {self.page_no()}/{{nb}}", align="R")
        self.color(BLACK)

    @property
    def content_width(self) -> float:
        return self.w - self.l_margin - self.r_margin

    @property
    def bottom(self) -> float:
        """The lowest y coordinate content may use on the current page."""
        return self.page_break_trigger

    def space_left(self) -> float:
        return self.bottom - self.get_y()

    # -- tables with a repeated header --------------------------------------------------------

    def begin_table(self, draw_header: Callable[[], None], first_row_height: float) -> None:
        """Start a table: draw its header (on a new page if needed) and remember it for
        the following pages."""
        self._table_header = draw_header
        if self.space_left() < self._header_height_estimate + first_row_height:
            self.add_page()
        draw_header()

    _header_height_estimate = 12.0

    def end_table(self) -> None:
        self._table_header = None

    def ensure_row_space(self, height: float) -> bool:
        """Start a new page (with the table header again) if a row of ``height`` mm does not
        fit on the current page. Returns True if a page break happened."""
        if self.get_y() + height <= self.bottom:
            return False
        self.add_page()
        if self._table_header is not None:
            self._table_header()
        return True

    def header_row(
        self,
        columns: Sequence[Column],
        height: float,
        size: float = 8.0,
        fill: RGB = HEADER_FILL,
    ) -> None:
        """A simple one-line table header with a grey background at the current position."""
        x0, y0 = self.header_box(sum(c.width for c in columns), height, fill)
        self.font(size, bold=True)
        self.color(BLACK)
        x = x0
        for column in columns:
            self.put(x, y0, column.width, height, column.title, column.align)
            x += column.width
        self.set_xy(x0, y0 + height)

    def header_box(
        self, width: float, height: float, fill: RGB = HEADER_FILL
    ) -> tuple[float, float]:
        """The framed grey background of a table header at the current position; its corner."""
        x0, y0 = self.l_margin, self.get_y()
        self.set_fill_color(*fill)
        self.set_draw_color(*GRID)
        self.set_line_width(0.2)
        self.rect(x0, y0, width, height, style="DF")
        return x0, y0

    def header_cells(self, columns: Sequence[Column], x: float, y: float, height: float) -> float:
        """Header titles in the current font, each cell closed by a vertical line; the x after."""
        for column in columns:
            self.put(x, y, column.width, height, column.title, column.align)
            x += column.width
            self.line(x, y, x, y + height)
        return x

    def table_row(
        self,
        columns: Sequence[Column],
        values: Sequence[str],
        height: float,
        size: float = 8.5,
        bold_columns: frozenset[int] = frozenset(),
    ) -> None:
        """One table row (page break + repeated header if needed) with a grid."""
        self.ensure_row_space(height)
        x0, y0 = self.l_margin, self.get_y()
        self.set_draw_color(*GRID)
        self.set_line_width(0.2)
        x = x0
        for index, (column, value) in enumerate(zip(columns, values, strict=True)):
            self.rect(x, y0, column.width, height)
            self.font(size, bold=index in bold_columns)
            self.put(x, y0, column.width, height, value, column.align)
            x += column.width
        self.set_xy(x0, y0 + height)

    def heading(self, text: str, size: float = 12.0, gap_before: float = 4.0) -> None:
        """A section heading; starts a new page if less than ~25 mm are left."""
        if self.space_left() < 25:
            self.add_page()
        else:
            self.set_y(self.get_y() + gap_before)
        self.font(size, bold=True)
        self.color(BLACK)
        self.set_x(self.l_margin)
        self.cell(self.content_width, size * 0.55, text)
        self.ln(size * 0.55 + 1.5)
