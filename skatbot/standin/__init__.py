"""A minimal Bot API in process plus a terminal front end: ``skatbot console``.

``BotApi`` (``botapi``) holds a bot's chats and messages and answers Bot API calls as
Telegram does; ``InProcessRequest`` (``request``) is PTB's transport to it, so an unmodified
python-telegram-bot ``Application`` runs against it without a socket or a server. The strict
stand-in the tests use (Telegram's limits, faults, admins, flood control, topics) extends it
in ``tests/standin/fake_telegram.py`` and is also served over loopback HTTP there
(``tests/standin/server.py``); none of that ships with the product.
"""

from skatbot.standin.botapi import ApiCall, BotApi, BotMessage, html_to_text, parse_html
from skatbot.standin.request import InProcessRequest

__all__ = ["ApiCall", "BotApi", "BotMessage", "InProcessRequest", "html_to_text", "parse_html"]
