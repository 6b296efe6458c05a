"""Rich messages (Bot API 10.1): a ``RichDoc`` as Telegram's rich HTML, within its limits.

``sendRichMessage`` takes an ``InputRichMessage``; we use its ``html`` field (headings,
paragraphs, tables with header cells, ``<s>`` for struck rows). The documented limits of one
rich message: 32,768 characters of text, 500 blocks (table rows, list items and nested blocks
count), 20 table columns, 16 levels of nesting. A document over a limit is cut into several
messages between blocks and between table rows (the header row is repeated), so every part
fits; a table with more columns than allowed is not sent as a table at all.

PTB has no method for it yet: the request goes through ``Bot.do_api_request`` (PTB's own
HTTP client, pacing and retries of the outbox included).

When the server refuses (a Bot API server older than 10.1 does not know the method; a chat
may refuse the format) the caller sends the text form instead, and the refusal is remembered
for the bot (method unknown) or the chat (format refused), so it is not tried again there.
Any other 400 to a rich message (the documentation names no error texts) also sends the text
form, for that reply only. Each rich message is a step of its outbox row, like a text part
(sending and editing: ``outbox.sender``).
"""

from __future__ import annotations

import dataclasses
import logging
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape, unescape
from typing import Any

from telegram.error import BadRequest, EndPointNotFound, TelegramError
from telegram.warnings import PTBUserWarning

from skatbot.handlers.outbox.keyboard import STYLES
from skatbot.usecases.common.reply import Button, Buttons
from skatbot.usecases.common.rich import Block, Cell, Heading, Paragraph, RichDoc, RichText, Table

log = logging.getLogger(__name__)
# PTB's edit_message_text has no rich_message yet; its warning to use it does not apply.
warnings.filterwarnings(
    "ignore", message=r"Please use 'Bot\.editMessageText'", category=PTBUserWarning
)

MAX_TEXT = 32_768  # characters of text (markup not counted)
MAX_BLOCKS = 500  # blocks, list items and table rows
MAX_COLUMNS = 20
MAX_DEPTH = 16
SEND = "sendRichMessage"
EDIT = "editMessageText"


# -- measuring and cutting ---------------------------------------------------------------------


def _plain(html: str) -> str:
    """The text of our own HTML (tags out, entities decoded): what the limit counts."""
    out, inside = [], False
    for ch in html:
        if ch == "<":
            inside = True
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    return unescape("".join(out))


def _paragraph_lines(p: Paragraph) -> list[str]:
    return [line for line in p.html.split("\n") if line.strip()]


def _cost(block: Block) -> tuple[int, int]:
    """(characters, blocks) of one block."""
    if isinstance(block, Heading):
        return len(_plain(block.html)), 1
    if isinstance(block, Paragraph):
        lines = _paragraph_lines(block)
        return sum(len(_plain(line)) for line in lines), max(1, len(lines))
    return _table_head_cost(block)


def _table_head_cost(table: Table) -> tuple[int, int]:
    chars = sum(len(h) for h in table.header) + len(_plain(table.caption))
    return chars, 2  # the table block and its header row


def _row_cost(row: tuple[Cell, ...]) -> tuple[int, int]:
    return sum(len(_plain(c.html)) for c in row), 1


@dataclass
class Size:
    chars: int = 0
    blocks: int = 0
    columns: int = 0
    depth: int = 0

    def fits(self) -> bool:
        return (
            self.chars <= MAX_TEXT
            and self.blocks <= MAX_BLOCKS
            and self.columns <= MAX_COLUMNS
            and self.depth <= MAX_DEPTH
        )


def measure(doc: RichDoc) -> Size:
    size = Size(depth=1)
    for block in doc.blocks:
        chars, blocks = _cost(block)
        size.chars += chars
        size.blocks += blocks
        if isinstance(block, Table):
            size.columns = max(size.columns, len(block.header))
            size.depth = max(size.depth, 4)  # table > row > cell > <s>/<b>
            for row in block.rows:
                c, b = _row_cost(row)
                size.chars += c
                size.blocks += b
    return size


def split(doc: RichDoc, *, max_text: int = MAX_TEXT, max_blocks: int = MAX_BLOCKS) -> list[RichDoc]:
    """``doc`` in parts that each fit, cut between blocks and between table rows."""
    parts: list[list[Block]] = [[]]
    used = [0, 0]

    def room(chars: int, blocks: int) -> bool:
        return used[0] + chars <= max_text and used[1] + blocks <= max_blocks

    def new_part() -> None:
        parts.append([])
        used[0] = used[1] = 0

    def take(chars: int, blocks: int) -> None:
        used[0] += chars
        used[1] += blocks

    for block in doc.blocks:
        if not isinstance(block, Table):
            chars, blocks = _cost(block)
            if not room(chars, blocks) and parts[-1]:
                new_part()
            parts[-1].append(block)
            take(chars, blocks)
            continue
        head_chars, head_blocks = _table_head_cost(block)
        rows: list[tuple[Cell, ...]] = []
        for row in block.rows:
            chars, blocks = _row_cost(row)
            need = (chars, blocks) if rows else (chars + head_chars, blocks + head_blocks)
            if not room(*need) and (rows or parts[-1]):
                if rows:
                    parts[-1].append(dataclasses.replace(block, rows=tuple(rows)))
                rows = []
                new_part()
                need = (chars + head_chars, blocks + head_blocks)
            rows.append(row)
            take(*need)
        if rows or not block.rows:
            if not block.rows:
                take(head_chars, head_blocks)
            parts[-1].append(dataclasses.replace(block, rows=tuple(rows)))
    return [RichDoc(tuple(p)) for p in parts if p]


# -- rich HTML -----------------------------------------------------------------------------------


def _cell(cell: Cell, tag: str) -> str:
    inner = f"<s>{cell.html}</s>" if cell.struck and cell.html else cell.html
    align = ' align="right"' if cell.right else ""
    return f"<{tag}{align}>{inner}</{tag}>"


def _blocks_html(blocks: tuple[Block, ...]) -> Iterator[str]:
    for block in blocks:
        if isinstance(block, Heading):
            yield f"<h3>{block.html}</h3>"
        elif isinstance(block, Paragraph):
            for line in _paragraph_lines(block):
                yield f"<p>{line}</p>"
        else:
            head = "".join(f"<th>{escape(h)}</th>" for h in block.header)
            body = "".join(
                "<tr>" + "".join(_cell(c, "td") for c in row) + "</tr>" for row in block.rows
            )
            caption = f"<caption>{block.caption}</caption>" if block.caption else ""
            # ``compact``: InputRichBlockTable.is_compact (10.3); its HTML form is not in the
            # documentation found - a bare attribute, which a server that does not know it
            # ignores (as it ignores any unknown attribute)
            table = "<table compact>" if block.compact else "<table>"
            yield f"{table}{caption}<tr>{head}</tr>{body}</table>"


def to_html(doc: RichDoc) -> str:
    return "".join(_blocks_html(doc.blocks))


# -- button rows inside the message (Bot API 10.3) -----------------------------------------------

MAX_ROW_BUTTONS = 8  # InputRichBlockButtons: "List of 1-8 buttons"


def rows_inside(doc: RichDoc, buttons: Buttons) -> Buttons:
    """The rows of ``buttons`` that go inside the rich message: those of the content
    (``doc.pager``) that a button row can hold (1-8 buttons)."""
    return tuple(row for row in doc.pager if row in buttons and 1 <= len(row) <= MAX_ROW_BUTTONS)


def _button_html(button: tuple[str, str], *, disabled_known: bool) -> str:
    """One ``RichMessageButton`` as ``<tg-button>``: exactly one action (callback data, a
    link, or ``disabled``), its style, and a label of plain text."""
    label, data = button
    if isinstance(button, Button) and button.disabled and disabled_known:
        action = "disabled"
    elif data.startswith("https://"):
        action = f'type="url" url="{escape(data)}"'
    else:
        action = f'type="callback_data" data="{escape(data)}"'
    style = ""
    if isinstance(button, Button) and button.role:
        style = f' style="{STYLES[button.role]}"'
    return f"<tg-button {action}{style}>{escape(label)}</tg-button>"


def rows_html(rows: Buttons, *, disabled_known: bool = True) -> str:
    """``<tg-button-row>`` per row (``InputRichBlockButtons``), centred under the content."""
    return "".join(
        '<tg-button-row align="center">'
        + "".join(_button_html(b, disabled_known=disabled_known) for b in row)
        + "</tg-button-row>"
        for row in rows
    )


def input_rich_message(
    doc: RichDoc, rows: Buttons = (), *, disabled_known: bool = True
) -> dict[str, Any]:
    """The ``InputRichMessage`` of one part (no entity detection: names are names), with
    ``rows`` of buttons after its blocks."""
    html = to_html(doc) + rows_html(rows, disabled_known=disabled_known)
    return {"html": html, "skip_entity_detection": True}


def parts_of(text: RichText) -> list[RichDoc] | None:
    """The rich messages ``text`` is sent as, or ``None`` if it cannot be one (too wide).
    Room is kept for the content's button rows (a block each, labels and all) in the last."""
    if measure(text.doc).columns > MAX_COLUMNS:
        return None
    rows = len(text.doc.pager)
    return split(text.doc, max_text=MAX_TEXT - 64 * 8 * rows, max_blocks=MAX_BLOCKS - rows)


# -- what the server refused -----------------------------------------------------------------


@dataclass
class RichRefusals:
    """What the server refused so far (one per outbox): rich messages at all (the method is
    unknown), or the format in some chats. Not tried again there."""

    method_unknown: bool = False
    chats: set[int] = field(default_factory=set)
    # Button rows inside a rich message (Bot API 10.3); a server before it refuses the tag.
    rows_known: bool = True

    def note_rows(self, err: TelegramError) -> bool:
        """True if ``err`` refused a request with button rows inside the message for them
        (then remembered for the bot: the rows go as the keyboard from now on, and the
        request is made again so). The documentation names no error text; a refusal that
        names a button counts, so a wording we do not know still gets the message out."""
        if not self.rows_known or not isinstance(err, BadRequest):
            return False
        if "button" not in err.message.lower():
            return False
        log.info("the Bot API server has no button rows in rich messages (%s): keyboards", err)
        self.rows_known = False
        return True

    def allowed(self, chat_id: int) -> bool:
        return not self.method_unknown and chat_id not in self.chats

    def note(self, chat_id: int, err: TelegramError) -> bool:
        """True if ``err`` says the server will not take rich messages (then remembered)."""
        if isinstance(err, EndPointNotFound) or "method not found" in err.message.lower():
            if not self.method_unknown:
                log.info("the Bot API server has no rich messages (%s): text from now on", err)
            self.method_unknown = True
            return True
        if isinstance(err, BadRequest) and _format_refused(err.message):
            log.info("chat %s refused a rich message (%s): text there from now on", chat_id, err)
            self.chats.add(chat_id)
            return True
        return False


def _format_refused(message: str) -> bool:
    lowered = message.lower()
    return "rich" in lowered or "text is empty" in lowered or "message text is empty" in lowered
