"""The fonts made ready once per process give the very PDF fpdf2's own add_font gives.

``skatbot.pdf.embedded_fonts`` clones fpdf2's font object instead of letting ``add_font``
parse the font file for every document; these tests pin that against fpdf2 itself, byte for
byte, so a change inside fpdf2 that the clone does not follow fails here.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from fpdf import FPDF

from skatbot.pdf import base
from skatbot.pdf.embedded_fonts import LAYOUT_TABLES, font_data
from skatbot.pdf.forms import render_blank_form
from skatbot.pdf.sample import sample_document
from skatbot.pdf.series import render_series

NAMES = ("Jürgen Größe", "Łukasz", "Σοφία", "Юрий")


def _documents() -> list[bytes]:
    return [
        _undated(render_series(sample_document(48))[0]),
        _undated(render_series(sample_document(12, players=NAMES))[0]),
        _undated(render_blank_form(4)),
    ]


def _undated(pdf: bytes) -> bytes:
    """A PDF carries the time it was made (and an id derived from it): masked."""
    return re.sub(rb"/CreationDate \(D:[^)]*\)|/ID \[<[0-9A-F]+><[0-9A-F]+>\]", b"", pdf)


@pytest.fixture
def fpdf2_add_font(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """SkatPDF with fpdf2's own add_font, reading the same font data from files."""
    files = {}
    for style in ("", "B"):
        files[style] = tmp_path / f"LiberationSans{style}.ttf"
        files[style].write_bytes(font_data(style))

    def add_font(pdf: FPDF, family: str, style: str) -> None:
        pdf.add_font(family, style, str(files[style]))

    monkeypatch.setattr(base, "add_embedded_font", add_font)
    yield


def test_documents_are_byte_identical_to_fpdf2s_add_font(request: pytest.FixtureRequest) -> None:
    ours = _documents()
    request.getfixturevalue("fpdf2_add_font")
    theirs = _documents()
    assert [len(d) for d in ours] == [len(d) for d in theirs]
    assert ours == theirs


def test_one_document_leaves_nothing_behind_for_the_next() -> None:
    first = _undated(render_series(sample_document(12))[0])
    render_series(sample_document(12, players=NAMES))  # other characters, both faces
    assert _undated(render_series(sample_document(12))[0]) == first


def test_documents_made_at_once_in_threads_are_the_same() -> None:
    expected = _documents()
    results: list[list[bytes]] = []

    def make() -> None:
        results.append(_documents())

    threads = [threading.Thread(target=make) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_only_the_layout_tables_are_left_out() -> None:
    from io import BytesIO

    from skatbot.pdf.fonts import regular_font_path

    shipped = TTFont(regular_font_path(), lazy=True)
    prepared = TTFont(BytesIO(font_data("")), lazy=True)
    assert set(shipped.keys()) - set(prepared.keys()) == set(LAYOUT_TABLES)
    assert prepared.getBestCmap() == shipped.getBestCmap()
    assert prepared["hmtx"].metrics == shipped["hmtx"].metrics
