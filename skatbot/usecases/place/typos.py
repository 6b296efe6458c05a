"""An unknown command or a typo (/stnad, /spile anna grand mit 1 g): the nearest commands,
with the whole line to send, so that a game typed wrong is never missed in silence."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from html import escape

_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
MAX_SHOWN = 3
CUTOFF = 0.6  # difflib's ratio: /stnad → /stand (0.8), /spile → /spiel (0.8)
NEAR = 0.15  # commands shown besides the best: at most this much further off


def nearest(word: str, commands: Sequence[str]) -> list[str]:
    """Our commands closest to ``word`` (the command as typed, without "/" and "@bot"):
    the one it is spelt as with umlauts (/öffnen → /oeffnen), those it begins (/abr →
    /abrechnung), then difflib's close matches, best first."""
    key = word.casefold().translate(_GERMAN)
    if key in commands:
        return [key]
    begun = [c for c in commands if len(key) >= 3 and c.startswith(key)]
    scored = sorted(
        ((_score(key, c), c) for c in commands if c not in begun), key=lambda sc: -sc[0]
    )
    best = scored[0][0] if scored else 0.0
    close = [c for score, c in scored if score >= CUTOFF and score >= best - NEAR]
    return [*begun, *close][:MAX_SHOWN]


def _score(typed: str, command: str) -> float:
    """difflib's ratio; letters swapped (/spile, /stnad) count as nearly right."""
    ratio = difflib.SequenceMatcher(None, typed, command).ratio()
    return ratio + (0.5 if sorted(typed) == sorted(command) else 0.0)


def unknown_command_text(text: str, commands: Sequence[str], *, addressed: bool) -> str | None:
    """The answer to ``text``, a message that starts with an unknown command, or None when
    the bot keeps quiet: a command not addressed to this bot (``addressed``: in a private
    chat, or /cmd@thisbot) is answered only when it is close to one of ours, since other
    bots in the group may know it."""
    first, _, rest = text.strip().partition(" ")
    word = first[1:].partition("@")[0]
    if not word:
        return None
    found = nearest(word, commands)
    if not found and not addressed:
        return None
    shown = escape("/" + (word if len(word) <= 32 else word[:32] + "…"))
    if not found:
        return f"⚠️ {shown} kenne ich nicht.\n👉 Alle Befehle: /hilfe"
    args = " ".join(rest.split())
    options = " oder ".join(f"/{c}" for c in found)
    lines = " · ".join(escape(f"/{c} {args}".strip()) for c in found)
    return f"⚠️ {shown} kenne ich nicht. Meintest du {options}?\n👉 {lines} · alle Befehle: /hilfe"
