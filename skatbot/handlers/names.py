"""Player names: validation for /neu and /umbenennen, resolution of prefixes in commands."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Sequence

from skatbot.rules.errors import RuleError

MAX_NAME = 32
RESERVED = {"geber", "passe", "alle"}


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


def resolve(word: str, names: Sequence[str]) -> int:
    """Seat index of the player named by ``word``: exact or unique prefix, case-insensitive."""
    key = unicodedata.normalize("NFC", word).casefold().lstrip("@")
    folded = [n.casefold() for n in names]
    if key in folded:
        return folded.index(key)
    hits = [i for i, n in enumerate(folded) if n.startswith(key)] if key else []
    if len(hits) == 1:
        return hits[0]
    listed = ", ".join(names)
    if len(hits) > 1:
        options = " oder ".join(names[i] for i in hits)
        raise RuleError(
            f"„{word}“ ist nicht eindeutig: {options}?", hint="Mehr Buchstaben angeben."
        )
    close = difflib.get_close_matches(key, folded, n=1, cutoff=0.6)
    hint = f"Meintest du {names[folded.index(close[0])]}? " if close else ""
    shown = word if len(word) <= 32 else word[:32] + "…"
    raise RuleError(
        f"„{shown}“ spielt in dieser Liste nicht mit.", hint=f"{hint}Am Tisch: {listed}."
    )
