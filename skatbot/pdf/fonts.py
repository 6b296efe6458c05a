"""Locate the bundled Liberation Sans fonts and check text against their character map.

The fonts live in the repository's top-level ``fonts/`` directory. A wheel built by
hatchling force-includes that directory as ``skatbot/fonts`` (see ``pyproject.toml``), so
the package resource is tried first and the repository directory is the fallback for an
editable install.
"""

from __future__ import annotations

import importlib.resources
import re
import unicodedata
from functools import cache
from pathlib import Path

from fontTools.ttLib import TTFont

REGULAR_FILE = "LiberationSans-Regular.ttf"
BOLD_FILE = "LiberationSans-Bold.ttf"
LICENSE_FILE = "LICENSE-OFL.txt"

# Format characters that only make sense inside emoji sequences or for complex shaping.
# Liberation Sans maps some of them (ZWJ, ZWNJ) to empty glyphs, but without a shaping
# engine they are just noise left over from a removed emoji, so they are always dropped.
_ALWAYS_DROP = frozenset(
    {
        0x200C,  # zero width non-joiner
        0x200D,  # zero width joiner
        0x20E3,  # combining enclosing keycap
        0xFEFF,  # zero width no-break space / BOM
    }
    | set(range(0xFE00, 0xFE10))  # variation selectors 1-16
    | set(range(0xE0100, 0xE01F0))  # variation selectors 17-256
    | set(range(0xE0000, 0xE0080))  # tag characters (flag sequences)
    | set(range(0x1F3FB, 0x1F400))  # skin tone modifiers
)
_SPACES = re.compile(r" {2,}")


def _font_dir_candidates() -> list[Path]:
    candidates: list[Path] = []
    try:
        resource = importlib.resources.files("skatbot") / "fonts"
    except ModuleNotFoundError:  # pragma: no cover - the package is always importable here
        resource = None
    if isinstance(resource, Path):
        candidates.append(resource)
    # Editable install / source checkout: <repo>/skatbot/pdf/fonts.py -> <repo>/fonts
    candidates.append(Path(__file__).resolve().parents[2] / "fonts")
    return candidates


@cache
def font_dir() -> Path:
    """The directory holding the Liberation Sans TTF files and their licence."""
    for candidate in _font_dir_candidates():
        if (candidate / REGULAR_FILE).is_file() and (candidate / BOLD_FILE).is_file():
            return candidate
    searched = ", ".join(str(c) for c in _font_dir_candidates())
    raise FileNotFoundError(f"Liberation Sans fonts not found (searched: {searched})")


def regular_font_path() -> Path:
    return font_dir() / REGULAR_FILE


def bold_font_path() -> Path:
    return font_dir() / BOLD_FILE


@cache
def _supported_codepoints() -> frozenset[int]:
    """Code points both the regular and the bold face can draw (loaded once)."""
    maps: list[set[int]] = []
    for path in (regular_font_path(), bold_font_path()):
        font = TTFont(path, lazy=True)
        try:
            maps.append(set(font.getBestCmap()))
        finally:
            font.close()
    return frozenset(set.intersection(*maps))


def _drawable(char: str) -> bool:
    code = ord(char)
    return code not in _ALWAYS_DROP and code in _supported_codepoints()


def missing_characters(text: str) -> set[str]:
    """Characters of ``text`` (after NFC normalisation) that the embedded font cannot draw."""
    return {char for char in unicodedata.normalize("NFC", text) if not _drawable(char)}


def printable(text: str) -> tuple[str, bool]:
    """Return ``text`` without the characters the font lacks, and whether any were removed.

    The text is NFC-normalised first (so decomposed accents become the precomposed letters
    the font has). When something was removed, runs of spaces left behind are collapsed and
    the result is stripped, e.g. ``"Anna 🃏"`` becomes ``("Anna", True)``.
    """
    normalized = unicodedata.normalize("NFC", text)
    kept = "".join(char for char in normalized if _drawable(char))
    if len(kept) == len(normalized):
        return normalized, False
    return _SPACES.sub(" ", kept).strip(), True
