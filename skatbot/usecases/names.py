"""Player names: validation for /neu and /umbenennen, resolution of prefixes in commands."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence

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


_AND = re.compile(r"(?:^|\s+)und(?:\s+|$)", re.IGNORECASE)


def split_names(raw: str) -> list[str]:
    """The names of ``/neu``: separated by commas (then a name may contain spaces), else by
    spaces; "und" and "&" separate too ("Anna, Bernd und Carla", "Anna Bernd & Carla")."""
    if "," in raw:
        parts = [q for p in re.split(r"[,&]", raw) for q in _AND.split(p)]
    else:
        parts = [w for w in re.split(r"[\s&]+", raw) if w.casefold() != "und"]
    return [p for p in parts if p.strip()]


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


def spellings(text: str) -> set[str]:
    """A name as typed without diacritics: "Jürgen" → jürgen, jurgen, juergen;
    "Łukasz" → łukasz, lukasz; "Strauß" → strauss."""
    key = folded(text)
    german = key.translate(_GERMAN)
    out = {key, german}
    for variant in (key, german):
        bare = "".join(
            c for c in unicodedata.normalize("NFKD", variant) if not unicodedata.combining(c)
        )
        out.add(unicodedata.normalize("NFC", bare).translate(_PLAIN))
    return out


def resolve(word: str, names: Sequence[str]) -> int:
    """Seat index of the player named by ``word``, case-insensitive, tried in this order:
    the exact name; the name written without diacritics (``juergen``/``jurgen`` → Jürgen,
    ``lukasz`` → Łukasz); a prefix of either. Trailing punctuation (``Anna:``) is ignored.
    More than one candidate at a step is an error naming them."""
    key = folded(word).lstrip("@")
    names_folded = [folded(n) for n in names]
    if key in names_folded:  # exact, even a name that ends in a dot
        return names_folded.index(key)
    key = key.rstrip(NAME_TRAILING)
    if key in names_folded:
        return names_folded.index(key)
    typed = spellings(key)
    name_keys = [spellings(n) for n in names]
    steps = [
        [i for i, keys in enumerate(name_keys) if typed & keys],
        [i for i, keys in enumerate(name_keys) if any(k.startswith(key) for k in keys)],
    ]
    for hits in steps if key else []:
        if len(hits) == 1:
            return hits[0]
        if hits:
            options = " oder ".join(names[i] for i in hits)
            raise RuleError(
                f"„{_shown(word)}“ ist nicht eindeutig: {options}?",
                hint="Mehr Buchstaben angeben.",
            )
    listed = ", ".join(names)
    plain = {k: i for i, keys in enumerate(name_keys) for k in keys}
    close = difflib.get_close_matches(key, list(plain), n=1, cutoff=0.6)
    hint = f"Meintest du {names[plain[close[0]]]}? " if close else ""
    raise RuleError(
        f"„{_shown(word)}“ spielt in dieser Liste nicht mit.", hint=f"{hint}Am Tisch: {listed}."
    )


def _shown(word: str) -> str:
    return word if len(word) <= 32 else word[:32] + "…"
