"""Helpers for reading the generated PDFs back with pypdf."""

from __future__ import annotations

import io
from typing import Any

from pypdf import PdfReader


def reader(data: bytes) -> PdfReader:
    assert data.startswith(b"%PDF-"), "not a PDF"
    return PdfReader(io.BytesIO(data))


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in reader(data).pages]


def all_text(data: bytes) -> str:
    return "\n".join(page_texts(data))


def embedded_fonts(data: bytes) -> dict[str, bool]:
    """BaseFont name -> whether a font program (FontFile2/3) is embedded, over all pages."""
    fonts: dict[str, bool] = {}
    for page in reader(data).pages:
        resources: Any = page["/Resources"].get_object()
        if "/Font" not in resources:
            continue
        font_dict = resources["/Font"].get_object()
        for key in font_dict:
            font = font_dict[key].get_object()
            embedded = False
            for descendant in font.get("/DescendantFonts", []):
                descriptor = descendant.get_object()["/FontDescriptor"].get_object()
                embedded = embedded or "/FontFile2" in descriptor or "/FontFile3" in descriptor
            fonts[str(font["/BaseFont"])] = embedded
    return fonts


def assert_liberation_embedded(data: bytes) -> None:
    fonts = embedded_fonts(data)
    assert fonts, "no fonts in the page resources"
    for name, embedded in fonts.items():
        assert "LiberationSans" in name, name
        assert "+" in name, f"{name} is not a subset"
        assert embedded, f"{name} is not embedded"
