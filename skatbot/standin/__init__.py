"""Stand-in for the Telegram Bot API: a loopback HTTP server plus a terminal front end.

``FakeBotApi`` speaks enough of the Bot API over real HTTP that an unmodified
python-telegram-bot ``Application`` can run against it (``base_url=f"{api.url}/bot"``).
"""

from skatbot.standin.server import ApiCall, BotMessage, FakeBotApi, html_to_text, parse_html

__all__ = ["ApiCall", "BotMessage", "FakeBotApi", "html_to_text", "parse_html"]
