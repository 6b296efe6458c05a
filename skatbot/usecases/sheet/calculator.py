"""``/wert`` and the inline calculator's answer (``@bot grand ohne 1 hand``): pure, no
database, no Telegram types (``handlers/inline.py`` turns the calculation into an inline
result). Both compute a game without booking it, so ``/wert`` works at every place.

What the inline result sends is what ``/wert`` answers (``texts.wert_text``). Without a result word
("gewonnen", "verloren", "augen N") a calculator needs only the game: the answer shows both
bookings, won and lost, and the inline title the plain value. A refusal (unknown word,
impossible game) and an empty query are answered with one result too, carrying the German
hint.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.rules.game import Announcement
from skatbot.rules.grammar import has_outcome, parse_with_notes
from skatbot.rules.value import evaluate
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, error_text
from skatbot.usecases.sheet.texts import GameValue, wert_text

EXAMPLE = "grand ohne 1 hand"
MAX_QUERY_WORDS = 40  # Telegram sends at most 256 characters; a game needs a dozen words


@dataclass(frozen=True)
class Evaluate:
    """/wert GAME: the game as read, and what the parser noted; ``lost``: given without a
    result, the game read as won (``announcement``) and as lost."""

    announcement: Announcement
    notes: tuple[str, ...] = ()
    lost: Announcement | None = None


def parse_wert(cmd: Command) -> Evaluate:
    if not cmd.args:
        raise RuleError("Welches Spiel?", hint="Z. B. /wert grand ohne 1 hand gewonnen")
    if has_outcome(cmd.args):
        announcement, notes = parse_with_notes(cmd.args)
        return Evaluate(announcement, notes)
    won, notes = parse_with_notes([*cmd.args, "gewonnen"])
    lost, _ = parse_with_notes([*cmd.args, "verloren"])
    return Evaluate(won, notes, lost)


def wert(session: Session, place: Place, request: Evaluate) -> GameValue:
    """/wert: compute a game without booking it (without a result: won and lost)."""
    lost = evaluate(request.lost) if request.lost is not None else None
    return GameValue(evaluate(request.announcement), request.notes, lost)


@dataclass(frozen=True)
class Calculation:
    """One inline result: ``title``/``description`` are plain text, ``message`` is HTML."""

    title: str
    description: str
    message: str


def usage(bot_username: str) -> Calculation:
    at = f"@{bot_username} " if bot_username else ""
    return Calculation(
        title="🧮 Skat-Rechner: Spiel eingeben",
        description=f"Z. B. {EXAMPLE} · kreuz mit 2 schneider · null ouvert",
        message=(
            "🧮 <b>Skat-Rechner</b>\n"
            f"In jedem Chat: <code>{escape(at)}{EXAMPLE}</code> tippen, der Wert erscheint "
            "sofort. Mit „verloren“ oder „augen N“ auch die Buchung.\n"
            "Es wird nichts eingetragen."
        ),
    )


def refusal(err: RuleError, bot_username: str) -> Calculation:
    at = f"@{bot_username} " if bot_username else ""
    hint = err.hint or f"Z. B. {EXAMPLE}"
    return Calculation(
        title=f"⚠️ {err.message}",
        description=hint,
        message=(
            f"🧮 <b>Skat-Rechner</b>\n{error_text(err)}\n"
            f"Beispiel: <code>{escape(at)}{EXAMPLE}</code>"
        ),
    )


def calculate(query: str, bot_username: str = "") -> Calculation:
    """The inline result for ``query`` (pure: no database, no Telegram)."""
    words = query.split()
    if words and words[0].casefold().lstrip("/") == "wert":
        words = words[1:]  # "@bot wert grand …" reads like the command
    if not words:
        return usage(bot_username)
    if len(words) > MAX_QUERY_WORDS:
        err = RuleError("Das sind zu viele Wörter.", hint=f"Nur das Spiel, z. B. {EXAMPLE}")
        return refusal(err, bot_username)
    try:
        assumed = not has_outcome(words)
        announcement, notes = parse_with_notes([*words, "gewonnen"] if assumed else words)
        r = evaluate(announcement)
        lost = evaluate(parse_with_notes([*words, "verloren"])[0]) if assumed else None
    except RuleError as err:
        return refusal(err, bot_username)
    label = texts.game_label(r)
    if assumed:
        title = f"{label} → {r.value}"
    else:
        outcome = "gewonnen" if r.won else ("verloren, überreizt" if r.overbid else "verloren")
        title = f"{label}, {outcome} → {texts.signed(r.score)}"
    message = wert_text(r, notes, lost)
    return Calculation(title=title, description=r.breakdown, message=message)
