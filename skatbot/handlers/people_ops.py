"""PTB glue of "Das bin ich" (the use cases are in usecases/people.py)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from skatbot.handlers.runtime import execute_callback
from skatbot.usecases.people import me_tap


async def on_me_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await execute_callback(update, context, me_tap)
