"""A reply's two forms: the text form (a server before rich messages, or /darstellung text)
and the table form (a rich message, as the stand-in reads it). The table form must say
everything the text form says; these helpers read both."""

from __future__ import annotations

import re
from typing import Any

from skatbot.standin.rich import parse_rich
from tests.harness import Harness
from tests.helpers import Reply as Seen


async def table_form(chat: Harness, message: str, **kw: Any) -> Seen:
    """``message``'s one reply, sent as one rich message (so it is the table form)."""
    chat.rich_messages = True
    out = await chat.say(message, **kw)
    assert [r.method for r in out] == ["sendRichMessage"], [(r.method, r.text) for r in out]
    return out[0]


async def text_form(chat: Harness, message: str, **kw: Any) -> str:
    """``message``'s reply as a server without rich messages shows it."""
    chat.rich_messages = False
    try:
        out = await chat.say(message, **kw)
    finally:
        chat.rich_messages = True
    assert [r.method for r in out] == ["sendMessage"], [(r.method, r.text) for r in out]
    return out[0].text


def tables(seen: Seen) -> list[list[list[str]]]:
    """The rich message's tables: rows of cell texts, the header row first."""
    return [[[c.text for c in row] for row in t] for t in parse_rich({"html": seen.html}).tables()]


def row_of(table: list[list[str]], first: str) -> dict[str, str]:
    """The row whose first cell is ``first``, by the header's column names."""
    header, *rows = table
    found = [r for r in rows if r[0] == first]
    assert len(found) == 1, (first, table)
    return dict(zip(header, found[0], strict=True))


# Words of the text form that carry no fact by themselves (the table says the same with its
# columns: "Anna – 12 Punkte · 1 gewonnen" is a row under "Punkte", "gew.").
FILLER = {"von", "vom", "aus", "je", "mit", "und", "am"}
ALIASES = {"gewonnen": "gew.", "verloren": "verl.", "verl": "verl."}
_EDGE = ".,:;()·–→…!?„“\"'"


def words(text: str) -> set[str]:
    """The words of ``text`` (signs and punctuation at their edges dropped; "+96" is 96 as
    a table writes it, without the plus)."""
    out = set()
    for raw in re.split(r"[\s│┼]+", text):  # a compact table's cells touch its rules
        word = raw.strip(_EDGE).lstrip("+")
        if any(ch.isalnum() for ch in word):
            out.add(word)
    return out


def missing_facts(text: str, table: str) -> dict[str, set[str]]:
    """Per line of the text form, the words the table form does not have (none: it says
    all of it)."""
    said = words(table.replace("\u0336", ""))  # a struck cell's stroke is no letter
    said |= {word.rstrip(".") for word in said}  # "gew." is "gew", a place "1." is 1
    missing = {}
    for line in text.split("\n"):
        lost = {
            w
            for w in words(line) - FILLER
            if w not in said and ALIASES.get(w, "").rstrip(".") not in said
        }
        if lost:
            missing[line] = lost
    return missing
