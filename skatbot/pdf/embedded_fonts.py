"""Liberation Sans made ready for fpdf2 once per process instead of once per document.

Measured (bench/README.md): of the ~175 ms a 48-game list took, fpdf2 spent ~50 ms parsing
the two TTF files (every glyph, its width and its name) and ~80 ms subsetting them for
embedding; the page content itself took ~40 ms. So, once per process:

- the font files are read without their OpenType layout tables (GSUB, GPOS, GDEF, kern).
  fpdf2 only uses them for text shaping, which skatbot does not turn on, and subsetting them
  was about a quarter of the embedding work. Nothing else of the fonts changes;
- fpdf2's font object (widths, glyph ids, metrics) is built once per face and cloned for each
  document, with the state of one document fresh: the characters it used and its own parsed
  copy of the font, which fpdf2 subsets in place when it writes the PDF.

The clone depends on fpdf2's ``TTFFont`` internals, so ``tests/pdf/test_embedded_fonts.py``
checks that a document made this way is byte-identical to one made with fpdf2's own
``add_font`` from the same font data.
"""

from __future__ import annotations

import copy
import io
import threading
from functools import cache

from fontTools.ttLib import TTFont
from fpdf import FPDF
from fpdf.fonts import SubsetMap, TTFFont

from skatbot.pdf.fonts import bold_font_path, regular_font_path

# Used by fpdf2 only when text shaping is on (set_text_shaping), which skatbot never calls.
LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF", "kern")
_PATHS = {"": regular_font_path, "B": bold_font_path}
_lock = threading.Lock()


@cache
def font_data(style: str) -> bytes:
    """The face (``""`` or ``"B"``) as TTF bytes, without the layout tables."""
    font = TTFont(_PATHS[style](), lazy=True, recalcTimestamp=False)
    try:
        for tag in LAYOUT_TABLES:
            if tag in font:
                del font[tag]
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()
    finally:
        font.close()


def _parsed(style: str) -> TTFont:
    return TTFont(io.BytesIO(font_data(style)), lazy=True, recalcTimestamp=False)


@cache
def _template(style: str) -> TTFFont:
    # fpdf2 takes the font number and the colour-font setting from a document: a scratch one.
    return TTFFont(FPDF(), io.BytesIO(font_data(style)), f"template{style}", style)  # type: ignore[arg-type]


def _clone(template: TTFFont) -> TTFFont:
    """A shallow copy. Shared with the template: what fpdf2 only reads (the character map,
    glyph ids, metrics) and the widths (a defaultdict that gains the default width for a
    character the font lacks, the same value whichever document asks)."""
    font = TTFFont.__new__(TTFFont)
    for name in TTFFont.__slots__:
        if hasattr(template, name):
            setattr(font, name, getattr(template, name))
    return font


def add_embedded_font(pdf: FPDF, family: str, style: str) -> None:
    """Make the face ``style`` (``""`` or ``"B"``) available as ``family`` in ``pdf``
    (what ``pdf.add_font`` does, without parsing the font file again)."""
    with _lock:  # two documents made at once in worker threads build it once
        template = _template(style)
    font = _clone(template)
    font.i = len(pdf.fonts) + 1
    font.fontkey = f"{family.lower()}{style}"
    font.ttfont = _parsed(style)  # fpdf2 subsets this one in place on output
    font.desc = copy.copy(template.desc)  # a PDF object: writing the PDF gives it an id
    font.missing_glyphs = []
    font.biggest_size_pt = 0
    font._hbfont = None
    font.subset = SubsetMap(font)
    pdf.fonts[font.fontkey] = font
