"""A small fpdf2 base document shared by the skatbot PDFs.

A4, Liberation Sans (regular + bold, embedded as subsets), German metadata, a footer with
"Seite x/y", and helpers for tables whose header row is repeated on every page.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from fpdf import FPDF

from skatbot.pdf.embedded_fonts import add_embedded_font
from skatbot.pdf.fonts import printable
from skatbot.rules.scoring import minus_sign

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
STRIPE: RGB = (246, 246, 246)  # every other row of a ranking
LOT_TEXT: RGB = (150, 90, 0)  # a place decided by lot
LOT_MARK = "Los"

PT = 25.4 / 72
"""One typographic point in mm."""
LINE_SPACING = 1.15
"""Line height of wrapped text as a multiple of the font size."""

# A line may break after a space, a hyphen, an underscore or a slash (the break character
# stays at the end of the line, spaces are dropped).
_CHUNKS = re.compile(r"[^ \-_/]+[\-_/]* *|[\-_/]+ *| +")


def line_height(size: float) -> float:
    """Height in mm of one line of wrapped text at ``size`` pt."""
    return size * PT * LINE_SPACING


def split_chunks(text: str) -> list[str]:
    """``text`` in the pieces a line may break between (concatenated they give ``text``)."""
    return _CHUNKS.findall(text)


def format_number(value: int) -> str:
    """German number format with a dot as thousands separator and a real minus sign (the
    format of the chat's texts: ``rules.scoring.minus_sign``)."""
    return minus_sign(value)


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

    def place_and_name(
        self,
        columns: Sequence[Column],
        index: int,
        height: float,
        place: int,
        name: str,
        by_lot: bool,
        *,
        name_min_size: float | None = None,
    ) -> float:
        """The start of a ranking row at the cursor: every other row striped, the place, and
        the name with "Los" at its right end when the place was decided by lot. The name
        shrinks down to ``name_min_size`` if given. Returns the x after the name column."""
        x0, y0 = self.l_margin, self.get_y()
        if index % 2 == 1:
            self.set_fill_color(*STRIPE)
            self.rect(x0, y0, sum(c.width for c in columns), height, style="F")
        self.color(BLACK)
        self.font(9, bold=True)
        self.put(x0, y0, columns[0].width, height, f"{place}.", "R")
        x = x0 + columns[0].width
        name_w = columns[1].width
        if by_lot:
            self.font(6.5)
            self.color(LOT_TEXT)
            mark_w = self.text_width(LOT_MARK) + 3
            self.put(x + name_w - mark_w, y0, mark_w, height, LOT_MARK, "R")
            self.color(BLACK)
            name_w -= mark_w
        clean = self.clean(name)
        if name_min_size is None:
            self.font(9)
        else:
            self.fit_size(clean, name_w - 3, 9, name_min_size, bold=False)
        self.put(x, y0, name_w, height, clean)
        return x + columns[1].width

    def text_line(self, text: str, height: float, size: float, bold: bool = False) -> None:
        """One line across the page (titles, notes): shrunk down to 60 % of ``size`` to fit,
        cut with "…" only beyond that."""
        text = self.clean(text)
        self.fit_size(text, self.content_width - 2, size, size * 0.6, bold)
        self.set_x(self.l_margin)
        self.cell(self.content_width, height, self.fit(text, self.content_width - 2))
        self.ln(height)

    def title_block(
        self,
        title: str,
        subtitle: str,
        notes: Sequence[str],
        *,
        small_notes: Sequence[str] = (),
        gap: float = 3,
    ) -> None:
        """A document's head on a new page: title, subtitle, grey notes (wrapped at a
        reading size, never shrunk or cut; ``small_notes`` in a smaller size after them) and
        a rule across the page."""
        self.add_page()
        self.color(BLACK)
        self.text_line(title, 8, 16, bold=True)
        self.text_line(subtitle, 6, 12, bold=True)
        self.color(GREY_TEXT)
        for note in notes:
            self.font(9)
            lines = self.wrap(self.clean(note), self.content_width - 2)
            for line in lines:
                self.set_x(self.l_margin)
                self.cell(self.content_width, 5 if len(lines) == 1 else 4.2, line)
                self.ln(5 if len(lines) == 1 else 4.2)
        for note in small_notes:
            self.text_line(note, 4.5, 8.5)
        self.color(BLACK)
        self.set_draw_color(*BLACK)
        self.set_line_width(0.4)
        y = self.get_y() + 1.5
        self.line(self.l_margin, y, self.w - self.r_margin, y)
        self.set_y(y + gap)

    def fit_size(self, text: str, width: float, size: float, min_size: float, bold: bool) -> float:
        """Largest font size between ``min_size`` and ``size`` at which ``text`` fits."""
        self.font(size, bold)
        current = size
        while current > min_size and self.text_width(text) > width:
            current = max(min_size, current - 0.5)
            self.font(current, bold)
        return current

    def wrap(self, text: str, width: float) -> list[str]:
        """``text`` broken into lines no wider than ``width`` mm in the current font.

        Breaks after spaces, hyphens, underscores and slashes; a piece longer than a whole line
        (a long name without any of them) is broken between characters. Never drops text."""
        return self.wrap_chunks(split_chunks(text), width)

    def wrap_chunks(self, chunks: Sequence[str], width: float) -> list[str]:
        """Lines of the given unbreakable-if-possible pieces (see :meth:`wrap`)."""
        lines: list[str] = []
        current = ""
        for chunk in chunks:
            if self.text_width((current + chunk).rstrip()) <= width:
                current += chunk
                continue
            if current.strip():
                lines.append(current.rstrip())
            current = ""
            if self.text_width(chunk.rstrip()) > width and len(chunk) > 1:
                pieces = split_chunks(chunk)
                if len(pieces) > 1:  # a caller's chunk ("1. Anna, ") may still break inside
                    sub = self.wrap_chunks(pieces, width)
                    lines.extend(sub[:-1])
                    current = sub[-1] + (" " if chunk.endswith(" ") else "")
                    continue
            if self.text_width(chunk.rstrip()) > width:
                pieces = self._split_evenly(chunk.rstrip(), width)
                lines.extend(pieces[:-1])
                chunk = pieces[-1] + chunk[len(chunk.rstrip()) :]
            current = chunk
        if current.strip() or not lines:
            lines.append(current.rstrip())
        return lines

    def _split_evenly(self, word: str, width: float) -> list[str]:
        """A word without break points in the fewest pieces of about equal length that fit
        (no line with only a stray "he"); one character per line at the very least."""
        for count in range(max(1, int(self.text_width(word) // width)), len(word) + 1):
            size, extra = divmod(len(word), count)
            pieces, start = [], 0
            for index in range(count):
                end = start + size + (1 if index < extra else 0)
                pieces.append(word[start:end])
                start = end
            if all(self.text_width(piece) <= width for piece in pieces):
                return pieces
        return list(word)

    def fit_lines(
        self, text: str, width: float, size: float, min_size: float, bold: bool = False
    ) -> tuple[float, list[str]]:
        """How ``text`` goes into a cell ``width`` mm wide without losing a character.

        On one line at the largest size between ``min_size`` and ``size`` that fits; if even
        ``min_size`` is too wide, wrapped at ``min_size``. Returns the size and the lines and
        leaves that font selected."""
        current = self.fit_size(text, width, size, min_size, bold)
        if self.text_width(text) <= width:
            return current, [text]
        return current, self.wrap(text, width)

    def put_lines(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        lines: Sequence[str],
        align: Align = "L",
        padding: float = 1.5,
    ) -> None:
        """Lines of text in the current font, as a block centred vertically in (x, y, w, h)."""
        step = line_height(self.font_size_pt)
        top = y + (h - step * len(lines)) / 2
        for index, line in enumerate(lines):
            self.put(x, top + index * step, w, step, line, align, padding)

    def put_fitted(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        text: str,
        align: Align = "L",
        *,
        size: float,
        min_size: float,
        bold: bool = False,
        strike: bool = False,
        padding: float = 1.5,
    ) -> None:
        """One line of text, shrunk (down to ``min_size``) until it fits, then wrapped."""
        if not text:
            return
        current, lines = self.fit_lines(text, w - 2 * padding, size, min_size, bold)
        self.font(current, bold, strike)
        self.put_lines(x, y, w, h, lines, align, padding)

    def block_height(
        self, text: str, width: float, size: float, min_size: float, bold: bool = False
    ) -> float:
        """Height of the lines :meth:`put_fitted` draws for ``text`` (without padding)."""
        current, lines = self.fit_lines(text, width, size, min_size, bold)
        return line_height(current) * len(lines)

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

        Callers make the text fit first (:meth:`fit_lines`, :meth:`put_fitted`); a text that
        still does not fit is shortened with an ellipsis as a last resort. Uses ``FPDF.text`` (much cheaper than
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
        label = f"skatbot · {self.footer_label}"
        x, y = self.l_margin, self.get_y()
        self.put_fitted(x, y, width * 0.75, 4, label, size=7, min_size=5, padding=self.c_margin)
        self.set_xy(x + width * 0.75, y)
        self.font(7)
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

    def note_lines(self, lines: Sequence[str]) -> None:
        """Small grey lines under a table (explanations, rules), each wrapped to the width."""
        self.set_y(self.get_y() + 3)
        for text in lines:
            self.font(8)
            self.color(GREY_TEXT)
            self.set_x(self.l_margin)
            self.multi_cell(self.content_width, 3.8, self.clean(text))
            self.set_y(self.get_y() + 0.8)
        self.color(BLACK)

    def keep_together(self, height: float) -> None:
        """Start a new page unless ``height`` mm fit on this one, so that a block of that
        height is not split (a block taller than a page starts where it is)."""
        if self.space_left() < height < self.bottom - self.t_margin:
            self.add_page()

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

    def row_grid(self, columns: Sequence[Column], height: float) -> tuple[float, float]:
        """Draw the cell borders of one table row at the cursor; its top-left corner."""
        x0, y0 = self.l_margin, self.get_y()
        self.set_draw_color(*GRID)
        self.set_line_width(0.2)
        x = x0
        for column in columns:
            self.rect(x, y0, column.width, height)
            x += column.width
        return x0, y0

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
        x0, y0 = self.row_grid(columns, height)
        x = x0
        for index, (column, value) in enumerate(zip(columns, values, strict=True)):
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
