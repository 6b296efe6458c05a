"""Telegram's text limits for our HTML replies: measure and split.

Telegram counts a text after parsing its entities, in UTF-16 code units: 4,096 for a message,
1,024 for a caption. A reply longer than that is refused whole, so a long answer is cut into
messages that each fit. Cuts fall at line ends where no tag is open (a ``<b>`` never spans
two messages); a single line that is too long on its own is cut at a space outside tags.
"""

from __future__ import annotations

import re
from html import unescape

MAX_TEXT = 4096
MAX_CAPTION = 1024

_TOKEN = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*>|&[#a-zA-Z0-9]+;|[^<&]+|[<&]")


def plain_length(html: str) -> int:
    """The length Telegram counts for ``html``: tags removed, entities decoded, UTF-16."""
    text = re.sub(r"<[^<>]*>", "", html)
    return len(unescape(text).encode("utf-16-le")) // 2


def fits(html: str, limit: int = MAX_TEXT) -> bool:
    return plain_length(html) <= limit


def _cut_points(html: str, separator: str) -> list[int]:
    """Offsets just after each ``separator`` that lies outside every tag pair."""
    points = []
    depth = 0
    for match in _TOKEN.finditer(html):
        if match.group(2):
            depth += -1 if match.group(1) else 1
            continue
        if depth:
            continue
        start = match.start()
        chunk = match.group(0)
        pos = chunk.find(separator)
        while pos >= 0:
            points.append(start + pos + len(separator))
            pos = chunk.find(separator, pos + 1)
    return points


def _pieces(html: str, separator: str) -> list[str]:
    pieces = []
    last = 0
    for point in _cut_points(html, separator):
        pieces.append(html[last:point])
        last = point
    if last < len(html):
        pieces.append(html[last:])
    return pieces


def _hard_cut(html: str, limit: int) -> list[str]:
    """Last resort for one over-long word: cut the plain text (tags dropped)."""
    text = unescape(re.sub(r"<[^<>]*>", "", html))
    out = []
    while text:
        size = limit
        while len(text[:size].encode("utf-16-le")) // 2 > limit:
            size -= 1
        out.append(text[:size].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
        text = text[size:]
    return out


def _pack(html: str, limit: int, separators: tuple[str, ...]) -> list[str]:
    """Fill parts with the pieces between cut points (first separator); a piece too long for
    a part is cut at the next separator (a line at its spaces), at last by characters."""
    if not separators:
        return _hard_cut(html, limit)
    parts: list[str] = []
    current = ""
    for piece in _pieces(html, separators[0]):
        if fits(current + piece, limit):
            current += piece
            continue
        if current:
            parts.append(current)
            current = ""
        if fits(piece, limit):
            current = piece
        else:
            parts.extend(_pack(piece, limit, separators[1:]))
    if current:
        parts.append(current)
    return parts


def split_html(html: str, limit: int = MAX_TEXT) -> list[str]:
    """``html`` as one or more texts that each fit ``limit``, cut at line ends if possible.

    Joining the parts with nothing between them gives back ``html`` except for the line
    breaks at the cuts, which are dropped (Telegram would refuse a text ending in nothing).
    """
    if fits(html, limit):
        return [html]
    parts = _pack(html, limit, ("\n", " "))
    cleaned = [part.rstrip("\n ") for part in parts]
    return [part for part in cleaned if part.strip()]
