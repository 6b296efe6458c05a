"""The stand-in's reading of a rich message (``InputRichMessage.html``), its limits, and the
text it is shown as: headings and paragraphs as lines, tables as aligned columns (struck cells
with a combining stroke), as the console prints them.

Checked as the Bot API documents them: at most 32,768 characters of text, 500 blocks (table
rows and nested blocks count), 20 table columns, 16 levels of nesting; only the tags below;
every tag closed. The error texts are the stand-in's own (the documentation gives none).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

MAX_TEXT = 32_768
MAX_BLOCKS = 500
MAX_COLUMNS = 20
MAX_DEPTH = 16

_BLOCK_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "table", "footer", "blockquote"}
_INLINE_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "br"}
_TABLE_TAGS = {"tr", "th", "td", "caption"}
_ALLOWED = _BLOCK_TAGS | _INLINE_TAGS | _TABLE_TAGS
_STRUCK = {"s", "strike", "del"}


class RichError(ValueError):
    """The rich message is refused; ``str()`` is the description after ``Bad Request: ``."""


@dataclass
class RCell:
    text: str
    header: bool = False
    struck: bool = False
    right: bool = False


@dataclass
class RBlock:
    kind: str  # "heading", "paragraph", "table"
    text: str = ""
    rows: list[list[RCell]] = field(default_factory=list)


@dataclass
class RichContent:
    blocks: list[RBlock]
    chars: int
    block_count: int

    def tables(self) -> list[list[list[RCell]]]:
        return [b.rows for b in self.blocks if b.kind == "table"]

    def plain(self) -> str:
        """The message as text: tables as aligned columns."""
        out: list[str] = []
        for block in self.blocks:
            if block.kind == "table":
                out.extend(table_lines(block.rows))
            else:
                out.append(block.text)
        return "\n".join(out)


def _width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else 1 for ch in text)


def _strike(text: str) -> str:
    return "".join(ch + "\u0336" for ch in text)


def table_lines(rows: list[list[RCell]]) -> list[str]:
    """Aligned columns (numbers to the right), a rule under the header row."""
    if not rows:
        return []
    columns = max(len(r) for r in rows)
    shown = [[_strike(c.text) if c.struck else c.text for c in r] for r in rows]
    widths = [max((_width(r[i]) for r in shown if i < len(r)), default=0) for i in range(columns)]
    lines = []
    for row, texts in zip(rows, shown, strict=True):
        cells = []
        for i in range(columns):
            text = texts[i] if i < len(texts) else ""
            pad = " " * (widths[i] - _width(text))
            right = i < len(row) and row[i].right
            cells.append(pad + text if right else text + pad)
        lines.append(" │ ".join(cells).rstrip())
        if row and all(c.header for c in row):
            lines.append("─┼─".join("─" * w for w in widths))
    return lines


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.blocks: list[RBlock] = []
        self.block: RBlock | None = None
        self.row: list[RCell] | None = None
        self.cell: RCell | None = None
        self.chars = 0
        self.count = 0
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _ALLOWED:
            raise RichError(f"can't parse rich message: unsupported tag <{tag}>")
        if tag == "br":
            self._text("\n")
            return
        self.stack.append(tag)
        self.depth = max(self.depth, len(self.stack))
        if self.depth > MAX_DEPTH:
            raise RichError("rich message nesting is too deep")
        if tag in _BLOCK_TAGS:
            if self.block is not None and self.block.kind == "table" and tag != "table":
                raise RichError(f"can't parse rich message: <{tag}> inside a table")
            kind = "heading" if tag[0] == "h" else "table" if tag == "table" else "paragraph"
            self.block = RBlock(kind)
            self.count += 1
        elif tag == "tr":
            if self.block is None or self.block.kind != "table":
                raise RichError("can't parse rich message: <tr> outside a table")
            self.row = []
            self.count += 1
        elif tag in ("th", "td"):
            if self.row is None:
                raise RichError(f"can't parse rich message: <{tag}> outside a row")
            align = dict(attrs).get("align")
            if align not in (None, "left", "center", "right"):
                raise RichError("can't parse rich message: bad cell alignment")
            self.cell = RCell("", header=tag == "th", right=align == "right")
        elif tag in _STRUCK and self.cell is not None:
            self.cell.struck = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "br":
            return
        if not self.stack or self.stack[-1] != tag:
            raise RichError(f"can't parse rich message: unexpected end tag </{tag}>")
        self.stack.pop()
        if tag in ("th", "td") and self.cell is not None and self.row is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None and self.block is not None:
            if len(self.row) > MAX_COLUMNS:
                raise RichError("too many table columns in the rich message")
            self.block.rows.append(self.row)
            self.row = None
        elif tag in _BLOCK_TAGS and self.block is not None:
            self.blocks.append(self.block)
            self.block = None

    def handle_data(self, data: str) -> None:
        self._text(data)

    def _text(self, data: str) -> None:
        if not data:
            return
        if self.block is None:
            if data.strip():
                raise RichError("can't parse rich message: text outside a block")
            return
        self.chars += len(data)
        if self.cell is not None:
            self.cell.text += data
        elif self.block.kind == "table":
            if data.strip():
                raise RichError("can't parse rich message: text outside a table cell")
        else:
            self.block.text += data


def parse_rich(message: Any) -> RichContent:
    """Check an ``InputRichMessage`` and read it; ``RichError`` if Telegram would refuse it."""
    if isinstance(message, str):
        import json

        try:
            message = json.loads(message)
        except ValueError:
            raise RichError("can't parse InputRichMessage JSON object") from None
    if not isinstance(message, dict):
        raise RichError("can't parse InputRichMessage JSON object")
    given = [k for k in ("html", "markdown", "blocks") if message.get(k) is not None]
    if len(given) != 1:
        raise RichError("exactly one of html, markdown or blocks must be specified")
    if given[0] != "html":
        raise RichError(f"the stand-in reads only html rich messages, not {given[0]}")
    html = message["html"]
    if not isinstance(html, str) or not html.strip():
        raise RichError("rich message is empty")
    parser = _Parser()
    parser.feed(html)
    parser.close()
    if parser.stack:
        raise RichError(f"can't parse rich message: unclosed tag <{parser.stack[-1]}>")
    if not parser.blocks:
        raise RichError("rich message is empty")
    if parser.chars > MAX_TEXT:
        raise RichError("rich message is too long")
    if parser.count > MAX_BLOCKS:
        raise RichError("too many blocks in the rich message")
    return RichContent(parser.blocks, parser.chars, parser.count)
