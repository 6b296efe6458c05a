"""The inline calculator: ``@bot grand ohne 1 hand`` in any chat offers the game's value.

The answer is one article: its title is the value ("Grand ohne 1 Hand → 72"), its
description the computation, and the message it sends is what ``/wert`` answers
(``sheet_ops.wert_text``). Nothing is stored and no database is touched. Without a result
word ("gewonnen", "verloren", "augen N") the game counts as won, so the title shows the plain
value. A refusal (unknown word, impossible game) and an empty query are answered with one
article too, carrying the German hint; Telegram never sees an error from us.

Inline mode must be switched on with BotFather (``/setinline``) for Telegram to send
``inline_query`` updates at all.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from html import escape

from telegram import InlineQueryResultArticle, InputTextMessageContent, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from skatbot.handlers import sheet_ops
from skatbot.handlers.runtime import error_text
from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import POINT_WORDS, WON_WORDS, parse_with_notes, tokenize
from skatbot.rules.value import evaluate
from skatbot.usecases import texts

log = logging.getLogger(__name__)

CACHE_SECONDS = 5  # the same query from anyone is answered from Telegram's cache meanwhile
EXAMPLE = "grand ohne 1 hand"
MAX_QUERY_WORDS = 40  # Telegram sends at most 256 characters; a game needs a dozen words


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
        tokens = tokenize(words)
        assumed = not any(t in WON_WORDS or t in POINT_WORDS for t in tokens)
        announcement, notes = parse_with_notes([*words, "gewonnen"] if assumed else words)
        r = evaluate(announcement)
    except RuleError as err:
        return refusal(err, bot_username)
    label = texts.game_label(r)
    if assumed:
        title = f"{label} → {r.value}"
    else:
        outcome = "gewonnen" if r.won else ("verloren, überreizt" if r.overbid else "verloren")
        title = f"{label}, {outcome} → {texts.signed(r.score)}"
    return Calculation(title=title, description=r.breakdown, message=sheet_ops.wert_text(r, notes))


def article(calc: Calculation) -> InlineQueryResultArticle:
    digest = hashlib.sha1(calc.message.encode(), usedforsecurity=False).hexdigest()[:16]
    return InlineQueryResultArticle(
        id=f"wert-{digest}",
        title=calc.title,
        description=calc.description,
        input_message_content=InputTextMessageContent(calc.message, parse_mode=ParseMode.HTML),
    )


async def on_inline_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.inline_query
    if query is None:
        return
    calc = calculate(query.query or "", context.bot.username or "")
    try:
        await query.answer([article(calc)], cache_time=CACHE_SECONDS)
    except TelegramError as err:  # too late (queries expire) or inline mode off: nothing to do
        log.info("answerInlineQuery for %s failed: %s", query.id, err)
