"""The ``/spiel`` grammar (docs/rules.md §3): parse words into an Announcement and format it back.

Tokens are case-insensitive and order-free. ``format_announcement`` writes the canonical German
form, and ``parse_announcement(format_announcement(a)) == a`` for every normalised ``a``.

What a phone keyboard adds is forgiven: trailing punctuation (``gewonnen!``, ``gew.``, ``hand,``),
commas between words, the short forms ``gew``/``verl`` and number words after mit/ohne
(``ohne eins``, ``mit zwei`` … ``elf``).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable
from typing import Any

from skatbot.rules.errors import ContradictionError, GrammarError, RuleError
from skatbot.rules.game import Announcement, GameType
from skatbot.rules.numbers import has_foreign_digit, is_number
from skatbot.rules.value import normalize

GAME_WORDS: dict[str, GameType] = {
    "karo": GameType.KARO,
    "schellen": GameType.KARO,
    "herz": GameType.HERZ,
    "rot": GameType.HERZ,
    "pik": GameType.PIK,
    "grün": GameType.PIK,
    "gruen": GameType.PIK,
    "kreuz": GameType.KREUZ,
    "eichel": GameType.KREUZ,
    "grand": GameType.GRAND,
    "null": GameType.NULL,
}
WON_WORDS = {
    "gewonnen": True,
    "gew": True,
    "g": True,
    "+": True,
    "verloren": False,
    "verl": False,
    "v": False,
    "-": False,
}
MATADOR_WORDS = {"mit": True, "m": True, "ohne": False, "o": False}
FLAG_WORDS = {
    "hand": "hand",
    "ouvert": "ouvert",
    "offen": "ouvert",
    "schneiderangesagt": "schneider_announced",
    "sa": "schneider_announced",
    "schwarzangesagt": "schwarz_announced",
    "swa": "schwarz_announced",
    "kontra": "kontra",
    "re": "re",
}
LEVEL_WORDS = {"schneider": "schneider", "schwarz": "schwarz"}
# Matadors as words ("ohne eins", "mit zwei"); only after mit/ohne, where a count is expected.
NUMBER_WORDS = {
    "ein": 1,
    "eins": 1,
    "einem": 1,
    "einen": 1,
    "zwei": 2,
    "drei": 3,
    "vier": 4,
    "fünf": 5,
    "fuenf": 5,
    "sechs": 6,
    "sieben": 7,
    "acht": 8,
    "neun": 9,
    "zehn": 10,
    "elf": 11,
}
BID_WORDS = {"reiz", "gereizt", "r"}
POINT_WORDS = {"augen"}
VOCABULARY = sorted(
    {
        *GAME_WORDS,
        *WON_WORDS,
        *MATADOR_WORDS,
        *FLAG_WORDS,
        *LEVEL_WORDS,
        *BID_WORDS,
        *POINT_WORDS,
        "angesagt",
        "gewonnen",
        "verloren",
    }
    - {"g", "v", "m", "o", "r", "+", "-", "gew", "verl"}
)
HOUSE_FLAGS = {"kontra", "re"}
MAX_DIGITS = 4

_GLUED = re.compile(r"^(mit|ohne|m|o|r|reiz|gereizt|augen)([0-9]+)$")
# Punctuation a phone adds: commas/semicolons separate words, and a word may end in . ! ? : …
_SEPARATORS = re.compile(r"[,;]")
TRAILING = ".!?:…"


def tokenize(text: str | Iterable[str]) -> list[str]:
    """Lower-case words; glued forms such as ``ohne1`` or ``r30`` are split, commas separate
    words and trailing punctuation is dropped (``gew.`` → ``gew``, ``g!`` → ``g``)."""
    raw = text.split() if isinstance(text, str) else [w for t in text for w in t.split()]
    words = [w.rstrip(TRAILING) for part in raw for w in _SEPARATORS.split(part)]
    tokens: list[str] = []
    for word in words:
        if not word:
            continue
        word = word.casefold()
        # Only a word that ends in a digit but is no plain number can be glued ("ohne1").
        glued = _GLUED.match(word) if is_number(word[-1]) and not is_number(word) else None
        if glued:
            tokens.extend(glued.groups())
        else:
            tokens.append(word)
    return tokens


KNOWN_TOKENS = frozenset(
    {
        *GAME_WORDS,
        *WON_WORDS,
        *MATADOR_WORDS,
        *FLAG_WORDS,
        *LEVEL_WORDS,
        *BID_WORDS,
        *POINT_WORDS,
        "angesagt",
    }
)


def is_grammar_word(word: str) -> bool:
    """Is ``word`` (as typed, e.g. "Grand", "o1", "gew.") a word of the game grammar? Used to
    tell a game typed without its player from a misspelt name."""
    tokens = tokenize(word)
    return bool(tokens) and all(t in KNOWN_TOKENS or is_number(t) for t in tokens)


def suggest(word: str, vocabulary: Iterable[str]) -> str | None:
    """The closest known word, if one is close enough to be a typo."""
    matches = difflib.get_close_matches(word, list(vocabulary), n=1, cutoff=0.6)
    return matches[0] if matches else None


class _Builder:
    """Collects the facts of one announcement and refuses duplicates and conflicts."""

    def __init__(self) -> None:
        self.fields: dict[str, Any] = {}

    def set(self, field: str, value: Any, word: str) -> None:
        if field in self.fields and self.fields[field] != value:
            raise ContradictionError(
                f"„{word}“ widerspricht einer früheren Angabe.",
                hint="Jede Angabe nur einmal, z. B. nur eine Spielart und ein Ergebnis.",
            )
        self.fields[field] = value


def _number(tokens: list[str], i: int, after: str, example: str) -> int:
    if i < len(tokens) and has_foreign_digit(tokens[i]):
        raise GrammarError(
            f"„{tokens[i][:8]}“ nach „{after}“ ist keine Zahl aus den Ziffern 0–9.",
            hint=f"Z. B. „{example}“.",
        )
    if i >= len(tokens) or not is_number(tokens[i]):
        raise GrammarError(f"Nach „{after}“ fehlt eine Zahl.", hint=f"Z. B. „{example}“.")
    if len(tokens[i]) > MAX_DIGITS:
        raise GrammarError(f"Die Zahl {tokens[i][:8]}… ist zu groß.", hint=f"Z. B. „{example}“.")
    return int(tokens[i])


def parse_announcement(text: str | Iterable[str], *, house: bool = False) -> Announcement:
    """Parse the words after the declarer into a normalised Announcement.

    ``house`` allows Kontra/Re (house rules only). Raises ``RuleError`` subclasses with German
    messages naming the fix.
    """
    announcement, _ = parse_with_notes(text, house=house)
    return announcement


def parse_with_notes(
    text: str | Iterable[str], *, house: bool = False
) -> tuple[Announcement, tuple[str, ...]]:
    """Like ``parse_announcement``, also returning notes on what was set automatically."""
    tokens = tokenize(text)
    if not tokens:
        raise GrammarError("Die Spielansage fehlt.", hint="Z. B. „grand ohne 1 hand gewonnen“.")
    b = _Builder()
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if tok in GAME_WORDS:
            b.set("game", GAME_WORDS[tok], tok)
        elif tok in MATADOR_WORDS:
            n = NUMBER_WORDS.get(nxt) or _number(tokens, i + 1, tok, f"{tok} 2")
            b.set("matadors", (MATADOR_WORDS[tok], n), tok)
            i += 1
        elif tok in LEVEL_WORDS and nxt == "angesagt":
            b.set(f"{LEVEL_WORDS[tok]}_announced", True, f"{tok} angesagt")
            i += 1
        elif tok in LEVEL_WORDS:
            b.set(LEVEL_WORDS[tok], True, tok)
        elif tok in FLAG_WORDS:
            if FLAG_WORDS[tok] in HOUSE_FLAGS and not house:
                raise RuleError(
                    "Kontra und Re gibt es nur mit Hausregeln.",
                    hint="Mit /regeln haus einschalten (gilt ab dem ersten Spiel einer Liste).",
                )
            b.set(FLAG_WORDS[tok], True, tok)
        elif tok in WON_WORDS:
            b.set("won", WON_WORDS[tok], tok)
        elif tok in BID_WORDS:
            b.set("bid", _number(tokens, i + 1, tok, "reiz 18"), tok)
            i += 1
        elif tok in POINT_WORDS:
            b.set("card_points", _number(tokens, i + 1, tok, "augen 85"), tok)
            i += 1
        elif tok == "angesagt":
            raise GrammarError(
                "„angesagt“ steht allein.",
                hint="Schreib „schneider angesagt“ oder „schwarz angesagt“.",
            )
        elif is_number(tok):
            raise GrammarError(
                f"Die Zahl {tok[:8]} steht ohne Bezug.",
                hint="Meinst du „mit/ohne N“, „reiz N“ oder „augen N“?",
            )
        else:
            raise _unknown_word(tok)
        i += 1
    return _build(b.fields)


def _unknown_word(tok: str) -> GrammarError:
    shown = tok if len(tok) <= 20 else tok[:20] + "…"
    close = suggest(tok, VOCABULARY)
    hint = (
        f"Meintest du „{close}“?"
        if close
        else "Erlaubt sind z. B. grand, mit 2, hand, reiz 30, gewonnen."
    )
    return GrammarError(f"Unbekanntes Wort „{shown}“.", hint=hint)


def _build(fields: dict[str, Any]) -> tuple[Announcement, tuple[str, ...]]:
    if "game" not in fields:
        raise GrammarError(
            "Die Spielart fehlt.", hint="Karo, Herz, Pik, Kreuz, Grand oder Null angeben."
        )
    matadors = fields.pop("matadors", None)
    if matadors is not None:
        fields["with_matadors"], fields["matadors"] = matadors
    return normalize(Announcement(**fields))


def contract_text(a: Announcement, *, schneider: bool = False, schwarz: bool = False) -> str:
    """The game as written on a list, e.g. "Grand ohne 1 Hand" or "Null ouvert Hand".

    ``schneider``/``schwarz`` add reached levels that were not announced.
    """
    if a.game.is_null:
        return "Null" + (" ouvert" if a.ouvert else "") + (" Hand" if a.hand else "")
    parts = [a.game.label]
    if a.ouvert:
        parts.append("ouvert")
    parts.append(f"{'mit' if a.with_matadors else 'ohne'} {a.matadors}")
    if a.hand and not a.ouvert:
        parts.append("Hand")
    if not a.ouvert:
        if a.schwarz_announced:
            parts.append("Schwarz angesagt")
        elif a.schneider_announced:
            parts.append("Schneider angesagt")
    if not a.schwarz_announced:
        if a.schwarz or schwarz:
            parts.append("Schwarz")
        elif (a.schneider or schneider) and not a.schneider_announced:
            parts.append("Schneider")
    return " ".join(parts)


def doubling_words(a: Announcement) -> list[str]:
    """["Kontra", "Re"] as far as they were given (house rules)."""
    return (["Kontra"] if a.kontra else []) + (["Re"] if a.re else [])


def format_announcement(a: Announcement) -> str:
    """Canonical German text of the whole input; ``parse`` reads it back to ``a``."""
    parts = [contract_text(a)]
    if a.schwarz_announced and a.schwarz:
        parts.append("Schwarz")
    elif a.schneider_announced and a.schneider and not a.schwarz:
        parts.append("Schneider")
    parts.extend(doubling_words(a))
    if a.bid is not None:
        parts.append(f"Reiz {a.bid}")
    if a.card_points is not None:
        parts.append(f"Augen {a.card_points}")
    if a.won is not None:
        parts.append("gewonnen" if a.won else "verloren")
    return " ".join(parts)


def with_outcome(a: Announcement, **changes: Any) -> Announcement:
    """A copy with changed fields, normalised again."""
    return normalize(dataclasses.replace(a, **changes))[0]
