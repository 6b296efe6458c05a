"""Charts as PNG pictures for the chat: the running scores of a series, a player's season.

Rendered with Pillow (already installed for fpdf2; ``bench/charts.py`` measured it against
matplotlib: a fraction of the import time and memory). This module is imported only when a
picture is made (``/stand bild``, ``/abschluss``, ``/statistik NAME``), never at start;
``tests/test_charts.py`` checks that a bot start does not load it, nor Pillow.

Made to be read on a phone, in Telegram's light and dark themes: a light neutral card (not
pure white, so it does not glare in dark mode; dark text on it keeps full contrast in both),
thick lines drawn with 2× supersampling, large labels, and per player a colour of the
Okabe-Ito palette (distinguishable with colour-vision deficiencies) *and* a marker shape, so
the lines can be told apart without colour too. The legend names each player with the last
value. Names are drawn with Liberation Sans; characters it lacks (emoji) are left out, as in
the PDFs.

The module knows nothing of rules or storage: a ``Chart`` is plain data.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from skatbot.pdf.fonts import bold_font_path, printable, regular_font_path

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

RGB = tuple[int, int, int]

WIDTH, HEIGHT = 1200, 1000  # the PNG's size in pixels (a phone shows it ~360 dp wide)
SCALE = 2  # drawn at twice the size and scaled down: smooth lines without anti-aliasing
BACKGROUND: RGB = (241, 241, 236)  # light neutral grey: readable in Telegram's light and dark
TEXT: RGB = (28, 28, 30)
MUTED: RGB = (92, 92, 96)
GRID: RGB = (205, 205, 198)
ZERO: RGB = (110, 110, 110)
# Okabe-Ito, in the order that keeps the first four far apart (a table has 3 or 4 players).
COLORS: tuple[RGB, ...] = (
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (0, 158, 115),  # bluish green
    (178, 75, 150),  # reddish purple (darker than Okabe-Ito's, for contrast on the card)
    (190, 130, 0),  # orange, darkened
    (60, 150, 210),  # sky blue, darkened
)
MARKERS = ("circle", "square", "triangle", "diamond", "down", "hexagon")
BAR_UP: RGB = (150, 200, 170)
BAR_DOWN: RGB = (230, 160, 150)

TITLE_SIZE = 54
LABEL_SIZE = 42
TICK_SIZE = 36
LINE_WIDTH = 9
MARKER_RADIUS = 14
# How far the widest marker (a triangle, with its ring) reaches from its point: every line
# has one at the plot's left edge, beside the value labels, and may have one on its bottom.
MARKER_REACH = round((MARKER_RADIUS + 3) * 1.3)
LABEL_GAP = MARKER_REACH + 8  # from the plot's edge to a value's or a game's label
MAX_MARKERS = 14  # per line; more points get a marker on every k-th point (and the last)
MINUS = "\u2212"


@dataclass(frozen=True)
class Line:
    """One player's values at x = 0, 1, 2, ... (0: before the first game/series)."""

    name: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Chart:
    title: str
    subtitle: str
    x_label: str
    lines: tuple[Line, ...]
    # labelled x positions; empty: numbers at a round step
    x_ticks: tuple[tuple[int, str], ...] = ()
    x_step: int = 0  # the step of the numbered x ticks (0: chosen to fit)
    # values drawn as bars at x = 1, 2, ... behind the lines (a season: each series' score)
    bars: tuple[int, ...] = ()
    bar_label: str = ""
    notes: tuple[str, ...] = field(default=())  # small lines under the chart


def number(value: int) -> str:
    """German format: dot as thousands separator, typographic minus ("−1.234"): the one
    format of texts, tables and PDFs (``rules.scoring.minus_sign``)."""
    from skatbot.rules.scoring import minus_sign

    return minus_sign(value)


@cache
def _font(size: int, bold: bool = False) -> FreeTypeFont:
    path = bold_font_path() if bold else regular_font_path()
    return ImageFont.truetype(str(path), size * SCALE)


def clean(text: str) -> str:
    """The text without the characters the font lacks (emoji), never empty."""
    kept, _lost = printable(text)
    return kept or "?"


def nice_step(span: float, ticks: int = 5) -> int:
    """A round grid step (1, 2, 2.5, 5 × 10ⁿ) giving about ``ticks`` lines over ``span``."""
    if span <= 0:
        return 10
    raw = span / ticks
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= raw and float(step).is_integer():
            return int(step)
    return int(10 * magnitude)  # pragma: no cover


def x_step(points: int, base: int = 1, most: int = 12) -> int:
    """A step for the numbered x ticks: a multiple of ``base`` with at most ``most`` ticks."""
    base = max(base, 1)
    step = base
    while points / step > most:
        step += base
    return step


class _Canvas:
    """Drawing at ``SCALE`` times the final size; coordinates are given in final pixels."""

    def __init__(self) -> None:
        self.image = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB = TEXT,
        *,
        bold: bool = False,
        anchor: str = "la",
    ) -> None:
        self.draw.text(
            (xy[0] * SCALE, xy[1] * SCALE), text, font=_font(size, bold), fill=fill, anchor=anchor
        )

    def width(self, text: str, size: int, *, bold: bool = False) -> float:
        return float(self.draw.textlength(text, font=_font(size, bold))) / SCALE

    def fitted(self, text: str, size: int, room: float, *, bold: bool = False) -> str:
        """``text``, shortened with "…" until it fits into ``room`` pixels."""
        if self.width(text, size, bold=bold) <= room:
            return text
        while len(text) > 1 and self.width(text + "…", size, bold=bold) > room:
            text = text[:-1]
        return text.rstrip() + "…"

    def line(self, points: Sequence[tuple[float, float]], fill: RGB, width: float) -> None:
        scaled = [(x * SCALE, y * SCALE) for x, y in points]
        w = max(1, round(width * SCALE))
        if len(scaled) == 1:
            scaled = scaled * 2
        self.draw.line(scaled, fill=fill, width=w, joint="curve")
        if width >= 3:  # round caps and joints: a dot at every point
            r = w / 2
            for x, y in scaled:
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    def rect(self, box: tuple[float, float, float, float], fill: RGB) -> None:
        x0, y0, x1, y1 = box
        self.draw.rectangle(
            (min(x0, x1) * SCALE, min(y0, y1) * SCALE, max(x0, x1) * SCALE, max(y0, y1) * SCALE),
            fill=fill,
        )

    def marker(self, kind: str, x: float, y: float, fill: RGB, radius: float) -> None:
        """A filled marker with a ring in the background colour (stands out on lines)."""
        for r, colour in ((radius + 3, BACKGROUND), (radius, fill)):
            cx, cy, rr = x * SCALE, y * SCALE, r * SCALE
            if kind == "circle":
                self.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=colour)
            elif kind == "square":
                s = rr * 0.88
                self.draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=colour)
            else:
                sides, rotation, grow = {
                    "triangle": (3, 0, 1.3),
                    "down": (3, 180, 1.3),
                    "diamond": (4, 45, 1.2),
                    "hexagon": (6, 0, 1.05),
                }[kind]
                self.draw.regular_polygon((cx, cy, rr * grow), sides, rotation, fill=colour)

    def png(self) -> bytes:
        small = self.image.reduce(SCALE)  # a box filter: exactly right for supersampling
        out = io.BytesIO()
        small.save(out, format="PNG", compress_level=6)
        return out.getvalue()


MARGIN = 48


def render_png(chart: Chart) -> bytes:
    """The chart as a PNG of ``WIDTH`` × ``HEIGHT`` pixels: heading, legend, plot, notes."""
    c = _Canvas()
    y = _heading(c, chart)
    y = _legend(c, chart, y)
    plot = _Plot.fit(c, chart, top=y + 10)
    _axes(c, chart, plot)
    _bars(c, chart, plot)
    _lines(c, chart, plot)
    _notes(c, chart)
    return c.png()


def _heading(c: _Canvas, chart: Chart) -> float:
    """The title and the subtitle; returns the y below them."""
    room = WIDTH - 2 * MARGIN
    c.text(
        (MARGIN, 36),
        c.fitted(clean(chart.title), TITLE_SIZE, room, bold=True),
        TITLE_SIZE,
        bold=True,
    )
    y = 36 + TITLE_SIZE + 14
    if chart.subtitle:
        c.text((MARGIN, y), c.fitted(clean(chart.subtitle), TICK_SIZE, room), TICK_SIZE, MUTED)
        y += TICK_SIZE + 16
    return y


def _legend(c: _Canvas, chart: Chart, y: float) -> float:
    """Marker, name and last value per line, in two columns (one for a single line), and the
    bars' key; returns the y below the legend."""
    lines = chart.lines
    columns = 1 if len(lines) <= 1 else 2
    col_w = (WIDTH - 2 * MARGIN) / columns
    row_h = LABEL_SIZE + 18

    def place(i: int) -> tuple[float, float]:
        return MARGIN + (i % columns) * col_w, y + (i // columns) * row_h + row_h / 2

    for i, line in enumerate(lines):
        colour = COLORS[i % len(COLORS)]
        lx, ly = place(i)
        c.line([(lx, ly), (lx + 56, ly)], colour, LINE_WIDTH)
        c.marker(MARKERS[i % len(MARKERS)], lx + 28, ly, colour, MARKER_RADIUS)
        last = number(line.values[-1]) if line.values else ""
        value_w = c.width(last, LABEL_SIZE, bold=True)
        name = c.fitted(clean(line.name), LABEL_SIZE, col_w - 56 - 16 - value_w - 36)
        c.text((lx + 72, ly), name, LABEL_SIZE, anchor="lm")
        name_end = lx + 72 + c.width(name, LABEL_SIZE) + 16
        c.text((name_end, ly), last, LABEL_SIZE, colour, bold=True, anchor="lm")
    entries = len(lines)
    if chart.bars and chart.bar_label:
        lx, ly = place(entries)
        c.rect((lx + 8, ly - 18, lx + 26, ly + 18), BAR_UP)
        c.rect((lx + 30, ly - 4, lx + 48, ly + 18), BAR_DOWN)
        c.text((lx + 72, ly), chart.bar_label, LABEL_SIZE, anchor="lm")
        entries += 1
    return y + -(-entries // columns) * row_h + 24


@dataclass(frozen=True)
class _Plot:
    """The plot area in pixels and the value range it shows."""

    left: float
    right: float
    top: float
    bottom: float
    lo: int
    hi: int
    step: int  # the value grid's step
    x_max: int
    x_span: float

    @classmethod
    def fit(cls, c: _Canvas, chart: Chart, top: float) -> _Plot:
        notes_h = len(chart.notes) * (TICK_SIZE + 8)
        bottom = HEIGHT - 40 - (TICK_SIZE + 12) * 2 - notes_h - (LABEL_GAP - 10)
        values = [v for line in chart.lines for v in line.values] + list(chart.bars) + [0]
        lo, hi = min(values), max(values)
        step = nice_step(hi - lo)
        lo = math.floor(lo / step) * step
        hi = math.ceil(hi / step) * step
        if hi == lo:
            hi = lo + step
        widest = max(c.width(number(v), TICK_SIZE) for v in range(lo, hi + 1, step))
        left = MARGIN + widest + LABEL_GAP + 4
        points = max((len(line.values) for line in chart.lines), default=1)
        x_max = max(points - 1, len(chart.bars), 1)
        x_span = x_max + (0.5 if chart.bars else 0)  # room for the last bar
        return cls(left, WIDTH - MARGIN, top, bottom, lo, hi, step, x_max, x_span)

    def sx(self, i: float) -> float:
        return self.left + (self.right - self.left) * i / self.x_span

    def sy(self, v: float) -> float:
        return self.bottom - (self.bottom - self.top) * (v - self.lo) / (self.hi - self.lo)


def _axes(c: _Canvas, chart: Chart, plot: _Plot) -> None:
    """The value grid (the zero line darker) with its labels, the x ticks and the x label."""
    for v in range(plot.lo, plot.hi + 1, plot.step):
        y = plot.sy(v)
        c.line([(plot.left, y), (plot.right, y)], ZERO if v == 0 else GRID, 3 if v == 0 else 1.5)
        c.text((plot.left - LABEL_GAP, y), number(v), TICK_SIZE, MUTED, anchor="rm")
    ticks = list(chart.x_ticks) or [
        (i, str(i)) for i in range(0, plot.x_max + 1, chart.x_step or x_step(plot.x_max))
    ]
    last_right = -1.0
    for i, label in ticks:
        x = plot.sx(i)
        c.line([(x, plot.top), (x, plot.bottom)], GRID, 1.5)
        w = c.width(label, TICK_SIZE)
        centre = min(x, WIDTH - 12 - w / 2)  # the last label stays inside the picture
        if centre - w / 2 > last_right + 12:  # labels that would overlap are left out
            c.text((centre, plot.bottom + LABEL_GAP), label, TICK_SIZE, MUTED, anchor="ma")
            last_right = centre + w / 2
    x_label_y = plot.bottom + LABEL_GAP + TICK_SIZE + 12
    c.text((plot.right, x_label_y), chart.x_label, TICK_SIZE, MUTED, anchor="ra")


def _bars(c: _Canvas, chart: Chart, plot: _Plot) -> None:
    """The bars, behind the lines."""
    if not chart.bars:
        return
    half = max(4.0, min(36.0, (plot.right - plot.left) / plot.x_max * 0.32))
    for i, v in enumerate(chart.bars, 1):
        box = (plot.sx(i) - half, plot.sy(0), plot.sx(i) + half, plot.sy(v))
        c.rect(box, BAR_UP if v >= 0 else BAR_DOWN)


def _lines(c: _Canvas, chart: Chart, plot: _Plot) -> None:
    """The lines, then their markers on top (at most ``MAX_MARKERS`` each, and the last)."""
    for i, line in enumerate(chart.lines):
        pts = [(plot.sx(x), plot.sy(v)) for x, v in enumerate(line.values)]
        if pts:
            c.line(pts, COLORS[i % len(COLORS)], LINE_WIDTH)
    for i, line in enumerate(chart.lines):
        n = len(line.values)
        every = max(1, math.ceil((n - 1) / MAX_MARKERS))
        colour, kind = COLORS[i % len(COLORS)], MARKERS[i % len(MARKERS)]
        for x in sorted({*range(0, n, every), n - 1} - {-1}):
            c.marker(kind, plot.sx(x), plot.sy(line.values[x]), colour, MARKER_RADIUS)


def _notes(c: _Canvas, chart: Chart) -> None:
    """Small lines under the chart."""
    for k, note in enumerate(chart.notes):
        y = HEIGHT - 36 - (len(chart.notes) - k) * (TICK_SIZE + 8) + 8
        text = c.fitted(clean(note), TICK_SIZE - 4, WIDTH - 2 * MARGIN)
        c.text((MARGIN, y), text, TICK_SIZE - 4, MUTED)
