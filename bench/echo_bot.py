"""The framework floor for bench/run.py: our polling loop and PTB with a handler that only
replies (a booking-sized HTML text with four buttons). Run as its own process like the bot.

    python bench/echo_bot.py API_URL TOKEN
"""

from __future__ import annotations

import asyncio
import signal
import sys

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import Application, CommandHandler, ContextTypes

from skatbot.handlers.bot_state import CONTEXT_TYPES
from skatbot.runner import run_polling

ECHO_TEXT = (
    "✅ <b>Spiel 12/36</b> · Anna: Grand ohne 1 Hand – gewonnen\n"
    "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72\n"
    "<b>Anna +72</b> · Seeger-Fabian +122 (72 + 50)\n"
    "Stand: Anna 437 · Bernd 320 · Carla −50\nSpiel 13/36 · Geber Bernd · Vorhand Carla"
)
ECHO_KEYS = InlineKeyboardMarkup(
    [
        [InlineKeyboardButton("Neues Spiel", callback_data="v1:n")],
        [
            InlineKeyboardButton("Korrigieren", callback_data="v1:k:12"),
            InlineKeyboardButton("Stornieren", callback_data="v1:s:12"),
            InlineKeyboardButton("Stand", callback_data="v1:st"),
        ],
    ]
)


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await context.bot.send_message(
        update.effective_chat.id, ECHO_TEXT, parse_mode=ParseMode.HTML, reply_markup=ECHO_KEYS
    )


async def main(api_url: str, token: str) -> None:
    app = (
        Application.builder()
        .token(token)
        .context_types(CONTEXT_TYPES)
        .base_url(f"{api_url}/bot")
        .updater(None)
        .build()
    )
    for name in ("spiel", "neu", "abschluss", "weiter"):
        app.add_handler(CommandHandler(name, echo))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await run_polling(app, stop=stop, timeout=5)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
