"""The stand-in's reading of a rich message (``InputRichMessage.html``), its limits, and the
text it is shown as: headings and paragraphs as lines, tables as aligned columns (struck cells
with a combining stroke), as the console prints them.

Checked as the Bot API documents them: at most 32,768 characters of text, 500 blocks (table
rows and nested blocks count), 20 table columns, 16 levels of nesting; only the tags below;
every tag closed. The error texts are the stand-in's own (the documentation gives none).

Bot API 10.3 added rows of buttons inside the message (``InputRichBlockButtons``, the HTML
tag ``<tg-button-row align=…>`` of 1-8 ``<tg-button type="callback_data" data=… style=…>``,
a ``disabled`` button does nothing). As ``RichMessageButton`` documents it: exactly one
action per button (``disabled`` is one), callback data of 1-64 bytes, the style ``link``
only for callback buttons, a label of plain text only (no tags inside ``<tg-button>``), and
not empty; a row stands between blocks, never inside one. Also compact tables (``is_compact``; in HTML the stand-in
takes a bare ``compact`` attribute of ``<table>`` - the documentation found names no HTML
form). For an older server (``version``) the button tags are unknown (refused) and
``compact`` is ignored.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from skatbot.standin.versions import API_10_3, CURRENT_API

MAX_TEXT = 32_768
MAX_BLOCKS = 500
MAX_COLUMNS = 20
MAX_DEPTH = 16

_BLOCK_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "table", "footer", "blockquote"}
_INLINE_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "br"}
_TABLE_TAGS = {"tr", "th", "td", "caption"}
_ALLOWED = _BLOCK_TAGS | _INLINE_TAGS | _TABLE_TAGS
_STRUCK = {"s", "strike", "del"}
_BUTTON_STYLES = {"danger", "success", "primary", "link"}
_BUTTON_TYPES = {"callback_data", "url"}
MAX_ROW_BUTTONS = 8


class RichError(ValueError):
    """The rich message is refused; ``str()`` is the description after ``Bad Request: ``."""


@dataclass
class RCell:
    text: str
    header: bool = False
    struck: bool = False
    right: bool = False


@dataclass
class RButton:
    """A button of a rich message's button row (Bot API 10.3)."""

    text: str = ""
    callback_data: str | None = None
    url: str | None = None
    style: str | None = None
    disabled: bool = False

    def label(self) -> str:
        return f"[{self.text} ⊘]" if self.disabled else f"[{self.text}]"


@dataclass
class RBlock:
    kind: str  # "heading", "paragraph", "table", "buttons"
    text: str = ""
    rows: list[list[RCell]] = field(default_factory=list)
    buttons: list[RButton] = field(default_factory=list)
    compact: bool = False
    """A table with smaller indents (``is_compact``, Bot API 10.3)."""


@dataclass
class RichContent:
    blocks: list[RBlock]
    chars: int
    block_count: int

    def tables(self) -> list[list[list[RCell]]]:
        return [b.rows for b in self.blocks if b.kind == "table"]

    def button_rows(self) -> list[list[RButton]]:
        return [b.buttons for b in self.blocks if b.kind == "buttons"]

    def blocks_json(self) -> list[dict[str, Any]]:
        """The blocks as a received ``RichMessage`` carries them, for a callback query's
        message: a button row as ``RichBlockButtons`` (its buttons' callback data is what a
        bot checks a tap against); the other blocks by their kind and text only."""
        out: list[dict[str, Any]] = []
        for block in self.blocks:
            if block.kind != "buttons":
                out.append({"type": block.kind, "text": block.text})
                continue
            buttons = []
            for b in block.buttons:
                one: dict[str, Any] = {"text": b.text}
                if b.disabled:
                    one["disabled"] = {}
                elif b.callback_data is not None:
                    one["callback_data"] = b.callback_data
                else:
                    one["url"] = b.url
                if b.style:
                    one["style"] = b.style
                buttons.append(one)
            out.append({"type": "buttons", "buttons": buttons})
        return out

    def plain(self) -> str:
        """The message as text: tables as aligned columns."""
        out: list[str] = []
        for block in self.blocks:
            if block.kind == "table":
                out.extend(table_lines(block.rows, compact=block.compact))
            elif block.kind == "buttons":
                out.append(" ".join(button.label() for button in block.buttons))
            else:
                out.append(block.text)
        return "\n".join(out)


def _width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else 1 for ch in text)


def _strike(text: str) -> str:
    return "".join(ch + "\u0336" for ch in text)


def table_lines(rows: list[list[RCell]], *, compact: bool = False) -> list[str]:
    """Aligned columns (numbers to the right), a rule under the header row; a compact table
    (smaller indents) without the spaces around the column rule."""
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
        lines.append(("│" if compact else " │ ").join(cells).rstrip())
        if row and all(c.header for c in row):
            lines.append(("┼" if compact else "─┼─").join("─" * w for w in widths))
    return lines


class _Parser(HTMLParser):
    def __init__(self, version: tuple[int, int] = CURRENT_API) -> None:
        super().__init__(convert_charrefs=True)
        self.since_10_3 = version >= API_10_3
        self.button: RButton | None = None
        self.stack: list[str] = []
        self.blocks: list[RBlock] = []
        self.block: RBlock | None = None
        self.row: list[RCell] | None = None
        self.cell: RCell | None = None
        self.chars = 0
        self.count = 0
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        buttons = self.since_10_3 and tag in ("tg-button-row", "tg-button")
        if tag not in _ALLOWED and not buttons:
            raise RichError(f"can't parse rich message: unsupported tag <{tag}>")
        if buttons:
            self._button_start(tag, dict(attrs))
            return
        if self.block is not None and self.block.kind == "buttons":
            raise RichError(f"can't parse rich message: <{tag}> inside a button row")
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
            self.block.compact = tag == "table" and self.since_10_3 and "compact" in dict(attrs)
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

    def _button_start(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.stack.append(tag)
        if tag == "tg-button-row":
            if self.block is not None:
                raise RichError("can't parse rich message: <tg-button-row> inside a block")
            if attrs.get("align") not in (None, "left", "center", "right"):
                raise RichError("can't parse rich message: bad button row alignment")
            self.block = RBlock("buttons")
            self.count += 1
            return
        if self.block is None or self.block.kind != "buttons" or self.button is not None:
            raise RichError("can't parse rich message: <tg-button> outside a button row")
        kind, style = attrs.get("type"), attrs.get("style")
        button = RButton(style=style, disabled="disabled" in attrs)
        if kind is not None and button.disabled:
            # RichMessageButton: "Exactly one of the fields other than text and style must be
            # used" - a disabled button has no other action
            raise RichError("can't parse rich message: a button has exactly one action")
        if kind not in _BUTTON_TYPES and not button.disabled:
            raise RichError("can't parse rich message: unsupported button type")
        if kind == "callback_data":
            button.callback_data = attrs.get("data") or ""
            if not 1 <= len(button.callback_data.encode()) <= 64:
                raise RichError("BUTTON_DATA_INVALID")
        elif kind == "url":
            button.url = attrs.get("url") or attrs.get("data") or ""
            if not button.url:
                raise RichError("can't parse rich message: a url button needs a url")
        if style is not None and (
            style not in _BUTTON_STYLES or (style == "link" and kind != "callback_data")
        ):
            raise RichError("can't parse rich message: bad button style")
        self.button = button

    def _button_end(self, tag: str) -> None:
        if tag == "tg-button" and self.button is not None and self.block is not None:
            if not self.button.text.strip():
                raise RichError("can't parse rich message: button text is empty")
            self.block.buttons.append(self.button)
            self.button = None
        elif tag == "tg-button-row" and self.block is not None:
            if not 1 <= len(self.block.buttons) <= MAX_ROW_BUTTONS:
                raise RichError("can't parse rich message: a button row has 1-8 buttons")
            self.blocks.append(self.block)
            self.block = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "br":
            return
        if not self.stack or self.stack[-1] != tag:
            raise RichError(f"can't parse rich message: unexpected end tag </{tag}>")
        self.stack.pop()
        if tag in ("tg-button-row", "tg-button"):
            self._button_end(tag)
            return
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
        if self.block.kind == "buttons":
            if self.button is not None:
                self.button.text += data
            elif data.strip():
                raise RichError("can't parse rich message: text outside a button")
            return
        if self.cell is not None:
            self.cell.text += data
        elif self.block.kind == "table":
            if data.strip():
                raise RichError("can't parse rich message: text outside a table cell")
        else:
            self.block.text += data


def parse_rich(message: Any, version: tuple[int, int] = CURRENT_API) -> RichContent:
    """Check an ``InputRichMessage`` and read it as a server of Bot API ``version`` would;
    ``RichError`` if Telegram would refuse it."""
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
    parser = _Parser(version)
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


def received_rich(content: RichContent, html: str) -> dict[str, Any]:
    """A message's ``rich_message`` as the stand-in returns it: the ``blocks`` (see
    ``RichContent.blocks_json``) and, the stand-in's own, the ``html`` it was sent as (what
    the console prints)."""
    return {"blocks": content.blocks_json(), "html": html}
