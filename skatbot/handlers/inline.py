"""The inline calculator: ``@bot grand ohne 1 hand`` in any chat offers the game's value.

The answer is one article: its title is the value ("Grand ohne 1 Hand → 72"), its
description the computation, and the message it sends is what ``/wert`` answers
(``usecases/sheet/calculator.py``). Nothing is stored and no database is touched. A refusal and an
empty query are answered with one article too; Telegram never sees an error from us.

Inline mode must be switched on with BotFather (``/setinline``) for Telegram to send
``inline_query`` updates at all.
"""

from __future__ import annotations

import hashlib
import logging

from telegram import InlineQueryResultArticle, InputTextMessageContent, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError

from skatbot.handlers.bot_state import SkatContext
from skatbot.usecases.sheet.calculator import Calculation, calculate

log = logging.getLogger(__name__)

CACHE_SECONDS = 5  # the same query from anyone is answered from Telegram's cache meanwhile


def article(calc: Calculation) -> InlineQueryResultArticle:
    digest = hashlib.sha1(calc.message.encode(), usedforsecurity=False).hexdigest()[:16]
    return InlineQueryResultArticle(
        id=f"wert-{digest}",
        title=calc.title,
        description=calc.description,
        input_message_content=InputTextMessageContent(calc.message, parse_mode=ParseMode.HTML),
    )


async def on_inline_query(update: Update, context: SkatContext) -> None:
    query = update.inline_query
    if query is None:
        return
    calc = calculate(query.query or "", context.bot.username or "")
    try:
        await query.answer([article(calc)], cache_time=CACHE_SECONDS)
    except TelegramError as err:  # too late (queries expire) or inline mode off: nothing to do
        log.info("answerInlineQuery for %s failed: %s", query.id, err)
