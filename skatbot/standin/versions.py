"""The Bot API versions the stand-ins can play (``BotApi(api_version=…)``): what a server of
each version knows, so that a bot's fallback for an older server can be tested. A server
ignores the parameters and fields it does not know and answers 404 ``Not Found: method not
found`` for a method it does not know (tdlib/telegram-bot-api's ``Client.cpp``)."""

from __future__ import annotations

__all__ = [
    "API_9_4",
    "API_9_5",
    "API_9_6",
    "API_10_0",
    "API_10_1",
    "API_10_2",
    "API_10_3",
    "CURRENT_API",
]

API_9_4 = (9, 4)
"""``InlineKeyboardButton.style`` ("danger", "success", "primary")."""
API_9_5 = (9, 5)
"""``date_time`` entities (HTML ``<tg-time unix=… format=…>``)."""
API_9_6 = (9, 6)
"""Polls with ``allows_revoting``; ``open_period`` up to 2,628,000 s."""
API_10_0 = (10, 0)
"""Polls with ``members_only`` (channels only) and a single option."""
API_10_1 = (10, 1)
"""Rich messages (sendRichMessage; editMessageText with ``rich_message``)."""
API_10_2 = (10, 2)
"""Ephemeral messages: ``receiver_user_id``/``callback_query_id``, the edit and delete methods,
``BotCommand.is_ephemeral``, ``ReplyParameters.ephemeral_message_id``."""
API_10_3 = (10, 3)
"""``EphemeralMessageParameters`` (also on sendRichMessage), ``InlineKeyboardButton.disabled``,
rich button rows (``<tg-button-row>``) and compact tables."""
CURRENT_API = API_10_3
