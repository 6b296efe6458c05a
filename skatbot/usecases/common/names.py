"""Player names: validation for /neu and /umbenennen, resolution of prefixes in commands."""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from skatbot.rules.errors import RuleError

MAX_NAME = 32
RESERVED = {"geber", "passe", "alle", "und"}


def clean_name(raw: str) -> str:
    """Validate one display name: 1–32 printable characters, any script."""
    name = unicodedata.normalize("NFC", raw.strip())
    if not name:
        raise RuleError("Ein Name ist leer.", hint="Namen mit Leerzeichen oder Komma trennen.")
    if len(name) > MAX_NAME:
        raise RuleError(
            f"Der Name „{name[:MAX_NAME]}…“ ist zu lang.", hint=f"Höchstens {MAX_NAME} Zeichen."
        )
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") and c not in "\u200d" for c in name):
        raise RuleError("Ein Name enthält Steuerzeichen.", hint="Nur sichtbare Zeichen verwenden.")
    if name.casefold() in RESERVED or name.startswith("/"):
        raise RuleError(f"„{name}“ geht nicht als Name.", hint="Bitte einen anderen Namen wählen.")
    if name.isdigit():
        raise RuleError(f"„{name}“ ist eine Zahl, kein Name.", hint="Bitte einen Namen angeben.")
    return name


# Quotes that group a name with spaces: "Anna Maria", „Anna Maria“, “Anna Maria”, »Anna Maria«.
_QUOTED = re.compile(r'"([^"]*)"|„([^“”"]*)[“”"]|“([^”"]*)[”"]|»([^«]*)«')
_QUOTE_CHARS = '"„“”»«'
_AND_WORDS = {"und", "&", "+"}
# "&" or "+" inside a word ("Tom&Jerry"): one name or two people?
_JOINED = re.compile(r"(?<=\S)\s*[&+]\s*(?=\S)")


@dataclass(frozen=True)
class Reading:
    """The names of ``/neu`` as read, and why that reading may not be what was meant
    (``doubts``; then ``other`` is the other reading, if there is one)."""

    names: list[str]
    doubts: tuple[str, ...] = ()
    other: list[str] | None = None


# An initial ("M.") written after a first name: "Peter M." and "Peter K." at one table.
_INITIAL = re.compile(r"^[^\W\d_]\.$")


def join_initials(words: Sequence[str]) -> list[str]:
    """Names separated by spaces: an initial ("M.") belongs to the name before it ("Peter
    M."), since nobody is called "M."; a run of initials ("A. B. C.") stays a run of names."""
    joined: list[str] = []
    for word in words:
        if _INITIAL.match(word) and joined and not _INITIAL.match(joined[-1].split()[-1]):
            joined[-1] += " " + word
        else:
            joined.append(word)
    return joined


def full_stop(text: str) -> str:
    """``text`` ending a sentence: a full stop, unless a name like "Peter M." ends it already."""
    return text if text.endswith(".") else text + "."


def hide_quoted(raw: str) -> tuple[str, list[str]]:
    """``raw`` with each quoted name replaced by a word of its own (no spaces inside), and the
    names; :func:`unquote` puts them back."""
    quoted: list[str] = []

    def keep(match: re.Match[str]) -> str:
        quoted.append(next(g for g in match.groups() if g is not None))
        return f" \x00{len(quoted) - 1}\x00 "

    return _QUOTED.sub(keep, raw), quoted


def unquote(part: str, quoted: Sequence[str]) -> str:
    """``part`` with the quoted names :func:`hide_quoted` took out put back."""
    return re.sub(r"\x00([0-9]+)\x00", lambda m: quoted[int(m.group(1))], part).strip()


def read_names(raw: str) -> Reading:
    """The names of ``/neu``. A name in quotes is one name, spaces and all; outside quotes
    names are separated by commas (then a name may contain spaces), else by spaces (an
    initial joins the name before it: "Peter M."); "und",
    "&" and "+" separate only as words of their own. ``&amp;`` (copied from a web page)
    is an "&". A name joined by "&" ("Tom&Jerry") is read as one name, with a doubt."""
    rest, quoted, doubts = _hide_quotes(raw)
    parts = _parts(rest)
    names = [unquote(p, quoted) for p in parts if p.strip()]
    joined = [i for i, n in enumerate(names) if i not in _quoted_at(parts) and _JOINED.search(n)]
    if not joined:
        return Reading(names, tuple(doubts))
    doubts.append("„" + "“, „".join(names[i] for i in joined) + "“: ein Name oder zwei Spieler?")
    return Reading(names, tuple(doubts), _split_joined(names, joined))


def _hide_quotes(raw: str) -> tuple[str, list[str], list[str]]:
    """``raw`` with its quoted names hidden (``hide_quoted``), the names, and the doubt of a
    quote left open (its quote characters dropped)."""
    raw = re.sub("&amp;", "&", raw, flags=re.IGNORECASE)
    rest, quoted = hide_quoted(raw)
    if not any(c in rest for c in _QUOTE_CHARS):
        return rest, quoted, []
    rest = "".join(c for c in rest if c not in _QUOTE_CHARS)
    return rest, quoted, ["Ein Anführungszeichen ist nicht geschlossen"]


def _parts(rest: str) -> list[str]:
    """The names (quoted ones still hidden): separated by commas if there is one, else by
    spaces, an initial joining the name before it."""
    if "," in rest:
        return [" ".join(chunk) for part in rest.split(",") for chunk in _split_words(part.split())]
    return [w for chunk in _split_words(rest.split()) for w in join_initials(chunk)]


def _split_joined(names: list[str], joined: list[int]) -> list[str]:
    """The other reading: each name of ``joined`` ("Tom&Jerry") as two players."""
    other: list[str] = []
    for i, n in enumerate(names):
        if i in joined:
            other.extend(p for p in _JOINED.split(n) if p)
        else:
            other.append(n)
    return other


def _split_words(words: list[str]) -> list[list[str]]:
    """Runs of words between the separating words "und", "&", "+" (and quoted names)."""
    chunks: list[list[str]] = [[]]
    for w in words:
        if w.casefold() in _AND_WORDS:
            chunks.append([])
        elif w.startswith("\x00"):  # a quoted name stands alone
            chunks.extend(([w], []))
        else:
            chunks[-1].append(w)
    return [c for c in chunks if c]


def _quoted_at(parts: list[str]) -> set[int]:
    return {i for i, p in enumerate(p for p in parts if p.strip()) if "\x00" in p}


def neu_line(names: Sequence[str]) -> str:
    """A /neu line that reads as ``names`` without a doubt (quotes where a name needs them)."""
    return "/neu " + " ".join(
        f"„{n}“" if len(n.split()) > 1 or _JOINED.search(n) or n.casefold() in _AND_WORDS else n
        for n in names
    )


def split_names(raw: str) -> list[str]:
    """The names of ``/neu`` as :func:`read_names` reads them."""
    return read_names(raw).names


def check_unique(names: Sequence[str]) -> None:
    seen: dict[str, str] = {}
    for n in names:
        key = n.casefold()
        if key in seen:
            raise RuleError(
                f"Der Name „{n}“ kommt doppelt vor.",
                hint="Namen müssen sich unterscheiden (Groß-/Kleinschreibung zählt nicht).",
            )
        seen[key] = n


# Letters that Unicode does not decompose into a base letter and a mark.
_PLAIN = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ŀ": "l", "æ": "ae", "œ": "oe",
     "þ": "th", "ð": "d"}
)  # fmt: skip
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
# What may follow a name in a hurried message: "Anna:", "Anna,", "@anna!".
NAME_TRAILING = ":,;.!?…"


def folded(text: str) -> str:
    """Case-folded NFC text (``ß`` becomes ``ss``)."""
    return unicodedata.normalize("NFC", text).casefold()


def ascii_spelling(text: str) -> str:
    """The name in ASCII letters, as a file name can hold it: "Jürgen" → juergen,
    "Łukasz" → lukasz (characters with no such spelling are dropped)."""
    key = folded(text).translate(_GERMAN).translate(_PLAIN)
    bare = unicodedata.normalize("NFKD", key)
    return bare.encode("ascii", "ignore").decode()


@functools.lru_cache(maxsize=4096)
def spellings(text: str) -> frozenset[str]:
    """A name as typed without diacritics: "Jürgen" → jürgen, jurgen, juergen;
    "Łukasz" → łukasz, lukasz; "Strauß" → strauss. Cached: a table's names are looked up
    on every booking."""
    key = folded(text)
    german = key.translate(_GERMAN)
    out = {key, german}
    for variant in (key, german):
        bare = "".join(
            c for c in unicodedata.normalize("NFKD", variant) if not unicodedata.combining(c)
        )
        out.add(unicodedata.normalize("NFC", bare).translate(_PLAIN))
    return frozenset(out)


# What a name's parts are joined by; typed names are matched without them ("hans peter",
# "hanspeter" and "HANS-PETER" are Hans-Peter).
_JOINERS = re.compile(r"[\s\-‐‑–]+")


def compact(text: str) -> str:
    """``text`` without the spaces and hyphens between a name's parts."""
    return _JOINERS.sub("", text)


def name_parts(name: str) -> int:
    """How many words a name may be typed as ("Hans-Peter": "hans peter", 2)."""
    return len([p for p in _JOINERS.split(name) if p]) or 1


def as_written(name: str) -> str:
    """A name typed all in small letters, capitalised as a table writes it on its list
    ("anna" → "Anna", "hans-peter" → "Hans-Peter", "peter m." → "Peter M."); a name with
    any capital letter stays as it was typed ("van der Berg", "McLeod")."""
    if name != name.lower() or name == name.upper():
        return name
    out: list[str] = []
    start = True
    for ch in name:
        big = ch.upper()
        out.append(big if start and len(big) == 1 else ch)
        start = _JOINERS.fullmatch(ch) is not None
    return "".join(out)


class _Table:
    """The names of a table as :func:`_hits` compares them: folded at once, their plain
    spellings only when an exact match fails, and then once per lookup."""

    def __init__(self, names: Sequence[str]) -> None:
        self.folded = tuple(" ".join(folded(n).split()) for n in names)

    @functools.cached_property
    def keys(self) -> tuple[frozenset[str], ...]:
        return tuple(spellings(n) for n in self.folded)

    @functools.cached_property
    def compact_keys(self) -> tuple[frozenset[str], ...]:
        return tuple(frozenset(compact(k) for k in keys) for keys in self.keys)

    @classmethod
    def of(cls, names: Sequence[str]) -> _Table:
        return cls(names)


def _hits(typed: str, table: _Table) -> list[int]:
    """The seats ``typed`` may name, from the first step that finds any: the exact name; the
    name written without diacritics (``juergen``/``jurgen`` → Jürgen, ``lukasz`` → Łukasz); a
    beginning of either; the whole name without its spaces and hyphens (``hans peter``,
    ``hanspeter`` → Hans-Peter). Case-insensitive; trailing punctuation (``Anna:``) is
    ignored."""
    key = " ".join(folded(typed).lstrip("@").split())
    if key in table.folded:  # exact, even a name that ends in a dot
        return [table.folded.index(key)]
    key = key.rstrip(NAME_TRAILING)
    if not key:
        return []
    if key in table.folded:
        return [table.folded.index(key)]
    typed_keys = spellings(key)
    exact = [i for i, keys in enumerate(table.keys) if typed_keys & keys]
    if exact:
        return exact
    # The whole name without its spaces and hyphens; a beginning only as typed, so that
    # "karl h" stays Karl-Heinz with Hand rather than the beginning of "karlheinz".
    typed_compact = {compact(k) for k in typed_keys}
    joined = [i for i, keys in enumerate(table.compact_keys) if typed_compact & keys]
    if joined:
        return joined
    return [i for i, keys in enumerate(table.keys) if any(k.startswith(key) for k in keys)]


def match_words(words: Sequence[str], names: Sequence[str]) -> tuple[list[int], int]:
    """(candidate seats, words used) of the longest run of leading words that names anyone
    (exactly, without diacritics, or as a beginning); ``([], 0)`` when none does."""
    longest = max((name_parts(n) for n in names), default=1)
    table = _Table.of(names)
    for used in range(min(len(words), longest), 0, -1):
        hits = _hits(" ".join(words[:used]), table)
        if hits:
            return hits, used
    return [], 0


def _line(before: str, name: str, rest: Sequence[str]) -> str:
    return " ".join(part for part in (before, name, " ".join(rest)) if part)


def take_name(words: Sequence[str], names: Sequence[str], *, before: str = "") -> tuple[int, int]:
    """(seat, words used): the player named by the first words of ``words`` – the longest
    run of words that is a name or the unique beginning of one ("anna lena grand" → Anna
    Lena, 2 words), tried as :func:`resolve` tries one word. Every command that reads a name
    goes through here. ``before`` is what precedes the name in the command ("/spiel",
    "/korrigieren 7"): a refusal then gives the whole line to send for each candidate."""
    if not words:
        raise RuleError("Welcher Name?", hint=f"Am Tisch: {full_stop(', '.join(names))}")
    hits, used = match_words(words, names)
    if len(hits) == 1:
        return hits[0], used
    if hits:
        typed = " ".join(words[:used])
        hint = "Mehr Buchstaben angeben."
        if before:
            lines = " · ".join(_line(before, names[i], words[used:]) for i in hits[:5])
            hint = f"Mehr Buchstaben angeben, z. B. {lines}"
        options = " oder ".join(names[i] for i in hits)
        raise RuleError(f"„{_shown(typed)}“ ist nicht eindeutig: {options}?", hint=hint)
    word = words[0]
    key = folded(word).lstrip("@").rstrip(NAME_TRAILING)
    listed = ", ".join(names)
    plain = {k: i for i, n in enumerate(names) for k in spellings(n)}
    close = difflib.get_close_matches(key, list(plain), n=1, cutoff=0.6)
    hint = ""
    if close:
        name = names[plain[close[0]]]
        hint = f"Meintest du {name}? "
        if before:
            hint += f"{_line(before, name, words[1:])} · "
    raise RuleError(
        f"„{_shown(word)}“ spielt in dieser Liste nicht mit.",
        hint=f"{hint}Am Tisch: {full_stop(listed)}",
    )


def resolve(word: str, names: Sequence[str]) -> int:
    """Seat index of the player named by ``word`` (all of it; see :func:`take_name`)."""
    words = word.split() or [word]
    seat, used = take_name(words, names)
    if used < len(words):
        raise RuleError(
            f"„{_shown(word)}“ spielt in dieser Liste nicht mit.",
            hint=f"Am Tisch: {full_stop(', '.join(names))}",
        )
    return seat


def take_names(words: Sequence[str], names: Sequence[str], *, before: str = "") -> list[int]:
    """Every name of ``words``, one after the other ("/ramsch Anna Maria Bernd 50")."""
    seats: list[int] = []
    i = 0
    while i < len(words):
        seat, used = take_name(words[i:], names, before=_line(before, "", words[:i]))
        seats.append(seat)
        i += used
    return seats


def _shown(word: str) -> str:
    return word if len(word) <= 32 else word[:32] + "…"
