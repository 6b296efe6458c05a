"""The ``/spiel`` grammar (docs/rules.md §3): parse words into an Announcement and format it back.

Tokens are case-insensitive and order-free. ``format_announcement`` writes the canonical German
form, and ``parse_announcement(format_announcement(a)) == a`` for every normalised ``a``.

What a phone keyboard adds is forgiven: trailing punctuation (``gewonnen!``, ``gew.``, ``hand,``),
commas between words, the short forms ``gew``/``verl`` and number words after mit/ohne
(``ohne eins``, ``mit zwei`` … ``elf``).

What the table says aloud is read too: the abbreviations of a paper list (``ABBREVIATIONS``:
``h``, ``schn``, ``gr``, ``kr`` …), counts as words in every case a sentence gives them (``mit
vieren``, ``ohne einem``), bids as ``gereizt bis 30``, ``bis 30`` or ``reizwert 27``, points
before their word (``61 augen``), and the levels as counted aloud (``kreuz ohne 2 spiel 3
hand 4``). A counted level is never taken on trust: it is checked against the computed one
(``check_counted``), and a count that differs is refused naming both.
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
from skatbot.rules.value import GameResult, evaluate, normalize

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
# Counts as words ("ohne eins", "mit vieren", "spiel drei"): only where a count is expected,
# after mit/ohne and after a counted level; in every form a sentence gives them.
NUMBER_WORDS = {
    "ein": 1,
    "eins": 1,
    "einem": 1,
    "einen": 1,
    "einer": 1,
    "zwei": 2,
    "zwo": 2,
    "zweien": 2,
    "drei": 3,
    "dreien": 3,
    "vier": 4,
    "vieren": 4,
    "fünf": 5,
    "fuenf": 5,
    "fünfen": 5,
    "fuenfen": 5,
    "sechs": 6,
    "sechsen": 6,
    "sieben": 7,
    "siebenen": 7,
    "acht": 8,
    "achten": 8,
    "neun": 9,
    "neunen": 9,
    "zehn": 10,
    "zehnen": 10,
    "elf": 11,
    "elfen": 11,
}
# A counted level goes up to 18 (a suit game mit 11 ouvert); matadors stop at elf.
LEVEL_NUMBER_WORDS = {
    **NUMBER_WORDS,
    "zwölf": 12,
    "zwoelf": 12,
    "dreizehn": 13,
    "vierzehn": 14,
    "fünfzehn": 15,
    "fuenfzehn": 15,
    "sechzehn": 16,
    "siebzehn": 17,
    "achtzehn": 18,
}
BID_WORDS = {"reiz", "gereizt", "reizwert", "r"}
BID_FILLERS = {"bis", "auf"}  # "gereizt bis 30", "reiz auf 30"; "bis 30" alone is a bid too
POINT_WORDS = {"augen"}
# Words that need the number after them (a counted level's number is optional).
NEEDS_NUMBER = {*MATADOR_WORDS, *BID_WORDS, *BID_FILLERS, *POINT_WORDS, "spiel"}
# Words a number may stand before ("61 augen", "30 gereizt"); read as "augen 61".
POSTFIX_WORDS = {"augen", "gereizt"}
# The levels as counted aloud, "kreuz ohne 2, spiel 3, hand 4": each word with the name of its
# step in ``GameResult.levels``. "spiel" is only a count; the others set their level too.
COUNTED = {
    "spiel": "Spiel",
    "hand": "Hand",
    "schneider": "Schneider",
    "schwarz": "Schwarz",
    "ouvert": "Ouvert",
    "offen": "Ouvert",
    "sa": "Schneider angesagt",
    "schneiderangesagt": "Schneider angesagt",
    "swa": "Schwarz angesagt",
    "schwarzangesagt": "Schwarz angesagt",
}
# What a paper list and a hurried hand write (listed in /hilfe spiel); each is read as its word.
ABBREVIATIONS = {
    "gr": "grand",
    "kr": "kreuz",
    "pi": "pik",
    "he": "herz",
    "ka": "karo",
    "nu": "null",
    "h": "hand",
    "schn": "schneider",
    "schw": "schwarz",
    "ang": "angesagt",
    "ouv": "ouvert",
    "sp": "spiel",
}
VOCABULARY = sorted(
    {
        *GAME_WORDS,
        *WON_WORDS,
        *MATADOR_WORDS,
        *FLAG_WORDS,
        *LEVEL_WORDS,
        *BID_WORDS,
        *POINT_WORDS,
        "spiel",
        "bis",
        "angesagt",
        "gewonnen",
        "verloren",
    }
    - {"g", "v", "m", "o", "r", "+", "-", "gew", "verl"}
)
HOUSE_FLAGS = {"kontra", "re"}
MAX_DIGITS = 4

_GLUED = re.compile(r"^(mit|ohne|m|o|r|reiz|gereizt|reizwert|augen)([0-9]+)$")
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
        *BID_FILLERS,
        *COUNTED,
        *ABBREVIATIONS,
        *LEVEL_NUMBER_WORDS,
        "angesagt",
    }
)


def is_grammar_word(word: str) -> bool:
    """Is ``word`` (as typed, e.g. "Grand", "o1", "gew.") a word of the game grammar? Used to
    tell a game typed without its player from a misspelt name."""
    tokens = tokenize(word)
    return bool(tokens) and all(t in KNOWN_TOKENS or is_number(t) for t in tokens)


def has_outcome(text: str | Iterable[str]) -> bool:
    """Do the words give the game's result ("gewonnen", "v", "augen 85", "61 augen")?"""
    return any(t in WON_WORDS or t in POINT_WORDS for t in _read_aloud(tokenize(text)))


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


def _count(tokens: list[str], i: int) -> int | None:
    """The count at ``tokens[i]`` (digits or a number word), None when there is none."""
    if i >= len(tokens):
        return None
    if tokens[i] in LEVEL_NUMBER_WORDS:
        return LEVEL_NUMBER_WORDS[tokens[i]]
    if not is_number(tokens[i]):
        return None
    return _number(tokens, i, tokens[i - 1], "spiel 3 hand 4")


def _takes_number(tokens: list[str], i: int) -> bool:
    """Does the word at ``i`` take the number after it? A word that a number may stand before
    ("61 augen") takes none when it already has its own ("augen 61")."""
    return i + 1 < len(tokens) and (is_number(tokens[i + 1]) or tokens[i + 1] in BID_FILLERS)


def _read_aloud(tokens: list[str]) -> list[str]:
    """The tokens with abbreviations written out and a number before its word put after it
    ("61 augen" → "augen 61"), unless the word has a number of its own or the number is the
    one a word before it needs ("mit 1 augen" lacks the points)."""
    tokens = [ABBREVIATIONS.get(t, t) for t in tokens]
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        owned = bool(out) and out[-1] in NEEDS_NUMBER
        postfix = nxt in POSTFIX_WORDS and not _takes_number(tokens, i + 1)
        if is_number(tok) and postfix and not owned:
            out.extend((nxt, tok))
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


@dataclasses.dataclass(frozen=True)
class Counted:
    """A level as the table counted it aloud: "Hand 4" is ``Counted("Hand", 4, "hand 4")``."""

    level: str  # the step's name in ``GameResult.levels``: "Spiel", "Hand", "Schneider angesagt"
    count: int
    said: str  # as typed, for the refusal


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
    """Like ``parse_announcement``, also returning notes on what was set automatically.
    Levels counted aloud are checked against the computed ones (``check_counted``)."""
    fields, counted = read_fields(text, house=house)
    announcement, notes = _build(fields)
    if counted:
        check_counted(evaluate(announcement), counted)
    return announcement, notes


def read_fields(
    text: str | Iterable[str], *, house: bool = False
) -> tuple[dict[str, Any], tuple[Counted, ...]]:
    """The facts the words state (an Announcement's fields, not yet normalised) and the
    levels counted aloud."""
    tokens = _read_aloud(tokenize(text))
    if not tokens:
        raise GrammarError("Die Spielansage fehlt.", hint="Z. B. „grand ohne 1 hand gewonnen“.")
    b = _Builder()
    counted: dict[str, Counted] = {}

    def count_level(level: str, at: int, said: str) -> int:
        """Note the count at ``tokens[at]`` for ``level``, if there is one; the words used."""
        n = _count(tokens, at)
        if n is None:
            return 0
        stated = Counted(level, n, f"{said} {tokens[at]}")
        if counted.get(level, stated).count != n:
            raise ContradictionError(
                f"„{stated.said}“ widerspricht „{counted[level].said}“.",
                hint="Jede Stufe nur einmal zählen, z. B. „spiel 3 hand 4“.",
            )
        counted[level] = stated
        return 1

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
        elif tok == "spiel":
            if not count_level("Spiel", i + 1, tok):
                raise GrammarError(
                    "Nach „spiel“ fehlt eine Zahl.", hint="Z. B. „kreuz ohne 2 spiel 3 hand 4“."
                )
            i += 1
        elif tok in LEVEL_WORDS:
            level = LEVEL_WORDS[tok]
            label = COUNTED[tok]
            if nxt == "angesagt":  # "schneider angesagt [5]"
                b.set(f"{level}_announced", True, f"{tok} angesagt")
                i += 1 + count_level(f"{label} angesagt", i + 2, f"{tok} angesagt")
            else:
                used = count_level(label, i + 1, tok)
                after = tokens[i + 1 + used] if i + 1 + used < len(tokens) else ""
                if used and after == "angesagt":  # "schneider 4 angesagt 5", as counted aloud
                    b.set(f"{level}_announced", True, f"{tok} angesagt")
                    used += 1 + count_level(f"{label} angesagt", i + 2 + used, f"{tok} angesagt")
                else:
                    b.set(level, True, tok)
                i += used
        elif tok in FLAG_WORDS:
            if FLAG_WORDS[tok] in HOUSE_FLAGS and not house:
                raise RuleError(
                    "Kontra und Re gibt es nur mit Hausregeln.",
                    hint="Mit /regeln haus einschalten (gilt ab dem ersten Spiel einer Liste).",
                )
            b.set(FLAG_WORDS[tok], True, tok)
            if tok in COUNTED:
                i += count_level(COUNTED[tok], i + 1, tok)
        elif tok in WON_WORDS:
            b.set("won", WON_WORDS[tok], tok)
        elif tok in BID_WORDS or tok == "bis":
            at = i + 1 + (tok in BID_WORDS and nxt in BID_FILLERS)
            b.set("bid", _number(tokens, at, tokens[at - 1], "gereizt bis 18"), tok)
            i = at
        elif tok in POINT_WORDS:
            b.set("card_points", _number(tokens, i + 1, tok, "augen 85"), tok)
            i += 1
        elif tok == "angesagt":
            raise GrammarError(
                "„angesagt“ steht allein.",
                hint="Schreib „schneider angesagt“ oder „schwarz angesagt“.",
            )
        elif is_number(tok) or tok in LEVEL_NUMBER_WORDS:
            raise GrammarError(
                f"Die Zahl {tok[:8]} steht ohne Bezug.",
                hint="Meinst du „mit/ohne N“, „reiz N“ oder „augen N“?",
            )
        else:
            raise _unknown_word(tok)
        i += 1
    return b.fields, tuple(counted.values())


def check_counted(result: GameResult, counted: Iterable[Counted]) -> None:
    """Refuse a game whose levels were counted aloud other than the rules count them, naming
    both: what was said and what the bot computes, with the count that would be right."""
    counted = tuple(counted)
    if result.announcement.game.is_null:
        said = ", ".join(f"„{c.said}“" for c in counted)
        raise ContradictionError(
            f"Beim Null zählt man keine Stufen ({said}).",
            hint="Null hat feste Werte: 23, Hand 35, ouvert 46, ouvert Hand 59 – "
            "die Zahl weglassen, z. B. „null hand gewonnen“.",
        )
    steps = dict(result.levels)
    wrong = [c for c in counted if steps.get(c.level) != c.count]
    if not wrong:
        return
    first = wrong[0]
    right = steps.get(first.level)
    computed = f"{first.level} {right}" if right is not None else f"kein „{first.level}“"
    (matadors, _), *rest = result.levels
    count = ", ".join(
        [f"{result.announcement.game.label} {matadors}"] + [f"{n} {c}" for n, c in rest]
    )
    right_count = _counted_text(result)
    raise ContradictionError(
        f"Gesagt: „{first.said}“ – ich rechne {computed}: {count} → "
        f"{result.multiplier} × {result.announcement.game.base} = {result.played_value}.",
        hint=f"Stimmen Spitzen und Stufen, so zählen: „{right_count}“ (oder ohne Zahlen); "
        "sonst Spitzen oder Stufen berichtigen.",
    )


def _counted_text(result: GameResult) -> str:
    """The levels of ``result`` as the table counts them, in words the grammar reads back as
    the same levels: "ohne 2 spiel 3 hand 4", "schneider 4 angesagt 5"."""
    (matadors, _), *rest = result.levels
    words = [matadors]
    for name, count in rest:
        if name.endswith(" angesagt") and words[-2] == name.split()[0].lower():
            words.extend(("angesagt", str(count)))  # "schneider 4 angesagt 5"
        else:
            words.extend((name.lower(), str(count)))
    return " ".join(words)


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
