"""Keeps the bot token out of the logs (belt and braces).

The Bot API puts the token into every request URL (``/bot<TOKEN>/sendMessage``). httpx logs
request URLs at INFO (raised to WARNING in the Telegram modes), and an exception text may
quote a URL. ``TokenFilter`` masks the token in every record that passes a handler it is
attached to - message, arguments and exception text.
"""

from __future__ import annotations

import logging
from urllib.parse import quote

MASK = "<TOKEN>"


class TokenFilter(logging.Filter):
    """Replaces the token (raw and URL-encoded) in log records by ``<TOKEN>``."""

    def __init__(self, token: str) -> None:
        super().__init__()
        token = token.strip()
        variants = {token, quote(token, safe=""), quote(token)} if token else set()
        # Longest first, so a variant containing another is replaced as a whole.
        self._secrets = sorted((v for v in variants if v), key=len, reverse=True)

    def mask(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: leave it to the handler's error path
            return True
        masked = self.mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.mask(record.exc_text)
        if record.stack_info:
            record.stack_info = self.mask(record.stack_info)
        return True


def install_token_filter(token: str, logger: logging.Logger | None = None) -> TokenFilter:
    """Attach a ``TokenFilter`` to every handler of ``logger`` (default: the root logger).

    Filters on handlers see the records of all loggers that propagate to them (a filter on a
    logger would only see that logger's own records).
    """
    target = logger or logging.getLogger()
    token_filter = TokenFilter(token)
    for handler in target.handlers:
        handler.addFilter(token_filter)
    return token_filter
