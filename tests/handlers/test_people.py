"""Forged "Das bin ich" data through Telegram; the rest of who is who runs on the use cases:
tests/usecases/people/test_people.py."""

from __future__ import annotations

from tests.handlers.test_builder import Phone, buttons
from tests.helpers import Bot, ok

CHAT = -1001


async def test_forged_das_bin_ich_data_changes_nothing(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    msg = bot.api.messages(CHAT)[-1]
    assert "🙋 Das bin ich" in buttons(msg)
    phone = Phone(bot, msg.message_id, user_id=5)
    # Forged data (not on the message) changes nothing.
    await phone.data("v1:me:999:0", user_id=9)
    await ok(bot, "/ich", "keinem Namen", user_id=9)
