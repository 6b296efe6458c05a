"""A minimal Bot API on loopback plus a terminal front end: ``skatbot console``.

``BotApiServer`` speaks enough of the Bot API over real HTTP that an unmodified
python-telegram-bot ``Application`` can run against it (``base_url=f"{api.url}/bot"``).
The strict stand-in the tests use (Telegram's limits, faults, admins, flood control, topics)
extends it in ``tests/standin/fake_telegram.py``; none of that ships with the product.
"""

from skatbot.standin.server import ApiCall, BotApiServer, BotMessage, html_to_text, parse_html

__all__ = ["ApiCall", "BotApiServer", "BotMessage", "html_to_text", "parse_html"]
