"""An unknown command or a typo (/stnad, /spile anna grand mit 1 g, /stornieren 3, /hallo):
the commands it means, with the whole line to send, so that a game typed wrong is never
missed in silence.

Meaning comes first: a table of the words players use for our commands (``SYNONYMS``:
/stornieren is /storno, /punkte is /stand, /hallo is /hilfe). Then spelling: the command it
is spelt as with umlauts (/öffnen → /oeffnen), those it begins, difflib's close matches.
A command players type with umlauts that Telegram cannot register (``TYPED``: /rückgängig
for /rueckgaengig) is run as typed (handlers/typos.py)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
MAX_SHOWN = 3
CUTOFF = 0.6  # difflib's ratio: /stnad → /stand (0.8), /spile → /spiel (0.8)
NEAR = 0.15  # commands shown besides the best: at most this much further off


@dataclass(frozen=True)
class Means:
    """One command a word may mean: the first of ``commands`` that is a route (a command
    another version names differently still finds one); ``args``: the words after the
    command go along (/stornieren 3 → /storno 3), else the command is shown bare;
    ``what``: what it does, where a word means two things."""

    commands: tuple[str, ...]
    args: bool = True
    what: str = ""


def _means(*commands: str, args: bool = True, what: str = "") -> Means:
    return Means(commands, args, what)


UNDO = _means("rueckgaengig", args=False, what="nimmt die letzte Änderung zurück")
STRIKE = _means("storno", what="streicht ein Spiel")
HELP = _means("hilfe", args=False)
STAND = _means("stand")
SIGN = _means("unterschreiben", "abschluss", args=False)
GREETINGS = frozenset({"hallo", "hi", "moin", "servus", "huhu"})

# What players call our commands, by meaning; keys are casefolded with umlauts written out
# (ä → ae …), the meanings best first. A word that is a command itself is answered by its
# route ("punkte", "stand" and "tabelle" mean /stand, but /stand and the league's /tabelle
# are routes; "unterschreiben" means the signature command if there is one, else /abschluss).
SYNONYMS: dict[str, tuple[Means, ...]] = {
    # striking a game, and taking a change back
    "stornieren": (STRIKE, UNDO),
    "streichen": (STRIKE, UNDO),
    # /löschen: a game, or everything?
    "loeschen": (STRIKE, _means("loeschen", args=False, what="löscht alle Daten, fragt vorher")),
    "rueckgaengig": (UNDO,),
    "rueckgangig": (UNDO,),
    "zurueck": (UNDO,),
    "zuruecknehmen": (UNDO,),
    "undo": (UNDO,),
    "wiederherstellen": (UNDO,),
    "widerrufen": (UNDO,),
    # the standings
    "punkte": (STAND,),
    "punktestand": (STAND,),
    "zwischenstand": (STAND,),
    # a tournament table's signatures
    "unterschreiben": (SIGN,),
    "unterschrift": (SIGN,),
    "unterschriften": (SIGN,),
    "signieren": (SIGN,),
    # help
    "hallo": (HELP,),
    "hi": (HELP,),
    "moin": (HELP,),
    "servus": (HELP,),
    "huhu": (HELP,),
    "anfang": (HELP,),
    "befehle": (HELP,),
    "menu": (HELP,),
    "menue": (HELP,),
    # the other commands of the sheet
    "eintragen": (_means("spiel"),),
    "buchen": (_means("spiel"),),
    "spielen": (_means("spiel"),),
    "passe": (_means("eingepasst", args=False),),
    "pass": (_means("eingepasst", args=False),),
    "gepasst": (_means("eingepasst", args=False),),
    "aendern": (_means("korrigieren"),),
    "korrektur": (_means("korrigieren"),),
    "korrigiere": (_means("korrigieren"),),
    "neue": (_means("neu"),),
    "neustart": (_means("neu"),),
    "spiele": (_means("liste", args=False),),
    "verlauf": (_means("liste", args=False),),
    "schliessen": (_means("abschluss", args=False),),
    "abschliessen": (_means("abschluss", args=False),),
    "beenden": (_means("abschluss", args=False),),
    "ende": (_means("abschluss", args=False),),
    "aufmachen": (_means("oeffnen", args=False),),
    "drucken": (_means("pdf"),),
    "ausdrucken": (_means("pdf"),),
    "formular": (_means("vordruck"),),
    "berechnen": (_means("wert"),),
    "rechnen": (_means("wert"),),
    "spielwert": (_means("wert"),),
    "naechste": (_means("weiter", args=False),),
    "geld": (_means("einsatz"),),
    "bezahlen": (_means("abrechnung", args=False),),
    "zahlen": (_means("abrechnung", args=False),),
    "statistiken": (_means("statistik"),),
    "geben": (_means("geber"),),
    "name": (_means("umbenennen"),),
    "hausregeln": (_means("regeln"),),
}

# Commands players type with umlauts: Telegram registers only a-z, 0-9 and _, so the route
# is named without them and the spelling with them is run as that command.
TYPED = frozenset({"rueckgaengig"})


def key_of(word: str) -> str:
    """A typed command word as the tables read it: casefolded, umlauts written out."""
    return word.casefold().translate(_GERMAN)


def typed_as(word: str, commands: Sequence[str]) -> str | None:
    """The command ``word`` (as typed, without "/" and "@bot") is, spelt with umlauts
    (/rückgängig → rueckgaengig), if it is one of ``TYPED`` and a route."""
    key = key_of(word)
    return key if key in TYPED and key in commands else None


@dataclass(frozen=True)
class Suggestion:
    """A command to suggest, the line to send (the words carried forward, or not) and what
    it does (where a word means two things)."""

    command: str
    line: str
    what: str = ""


def meant(word: str, args: str, known: Sequence[str]) -> list[Suggestion]:
    """The commands ``word`` means by the table of synonyms (only those that are routes,
    ``known``). With words after the command, the meanings that take them (/stornieren 3:
    /storno 3), if any."""
    found: list[Suggestion] = []
    for means in SYNONYMS.get(key_of(word), ()):
        command = next((c for c in means.commands if c in known), None)
        if command is None or any(s.command == command for s in found):
            continue
        line = f"/{command} {args}".strip() if means.args else f"/{command}"
        found.append(Suggestion(command, line, means.what))
    carried = [s for s in found if s.line != f"/{s.command}"]
    return (carried if args and carried else found)[:MAX_SHOWN]


def nearest(word: str, commands: Sequence[str]) -> list[str]:
    """Our commands closest to ``word`` by spelling (the command as typed, without "/" and
    "@bot"): the one it is spelt as with umlauts (/öffnen → /oeffnen), those it begins (/abr
    → /abrechnung), then difflib's close matches, best first."""
    key = key_of(word)
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


def unknown_command_text(
    text: str,
    commands: Sequence[str],
    *,
    addressed: bool,
    known: Sequence[str] | None = None,
) -> str | None:
    """The answer to ``text``, a message that starts with an unknown command, or None when
    the bot keeps quiet: a command not addressed to this bot (``addressed``: in a private
    chat, or /cmd@thisbot) is answered only when it means or is close to one of ours, since
    other bots in the group may know it. ``commands``: those suggested by spelling (the
    menu's); ``known``: every command a synonym may name (default: ``commands``)."""
    first, _, rest = text.strip().partition(" ")
    word = first[1:].partition("@")[0]
    if not word:
        return None
    args = " ".join(rest.split())
    found = meant(word, args, commands if known is None else known)
    if not found:
        found = [Suggestion(c, f"/{c} {args}".strip()) for c in nearest(word, commands)]
    if not found and not addressed:
        return None
    shown = escape("/" + (word if len(word) <= 32 else word[:32] + "…"))
    if not found:
        return f"⚠️ {shown} kenne ich nicht.\n👉 Alle Befehle: /hilfe"
    if key_of(word) in GREETINGS and [s.command for s in found] == ["hilfe"]:
        return "👋 Hallo! Ich führe hier die Skatliste.\n👉 Was ich kann: /hilfe"
    short = len(args) <= SHORT_ARGS
    options = " oder ".join(_option(s, short=short, glossed=len(found) > 1) for s in found)
    lines = " · ".join(escape(s.line) for s in found)
    return f"⚠️ {shown} kenne ich nicht. Meintest du {options}?\n👉 {lines} · alle Befehle: /hilfe"


SHORT_ARGS = 12  # words after the command shown in the question too (/storno 3), not a game


def _option(found: Suggestion, *, short: bool, glossed: bool) -> str:
    """One command of the question; what it does, when there is a choice."""
    option = escape(found.line if short else f"/{found.command}")
    return f"{option} ({escape(found.what)})" if found.what and glossed else option
