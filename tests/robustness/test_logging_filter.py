"""The bot token never reaches the logs: the TokenFilter masks it everywhere."""

from __future__ import annotations

import io
import logging

from skatbot.logging_filter import MASK, TokenFilter, install_token_filter

TOKEN = "123456:AAH-secret_token-xyz"


def _logger_with_stream() -> tuple[logging.Logger, io.StringIO, logging.Handler]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("skatbot.test.tokenfilter")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, stream, handler


def test_token_masked_in_message_args_exception_and_url_encoding() -> None:
    logger, stream, _ = _logger_with_stream()
    install_token_filter(TOKEN, logger)
    child = logging.getLogger("skatbot.test.tokenfilter.child")  # propagates to the handler
    logger.info("GET https://api.telegram.org/bot%s/getUpdates", TOKEN)
    child.warning("url-encoded: /bot123456%3AAAH-secret_token-xyz/sendMessage")
    try:
        raise RuntimeError(f"connect to https://api.telegram.org/bot{TOKEN}/getMe failed")
    except RuntimeError:
        logger.exception("request failed")
    out = stream.getvalue()
    assert TOKEN not in out
    assert "123456%3AAAH" not in out
    assert out.count(MASK) == 3  # message, url-encoded message, exception text
    assert "getUpdates" in out and "sendMessage" in out and "RuntimeError" in out


def test_records_without_the_token_are_untouched() -> None:
    f = TokenFilter(TOKEN)
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "game %s booked", (7,), None)
    assert f.filter(record)
    assert record.getMessage() == "game 7 booked"
    assert TokenFilter("").filter(record)


def test_telegram_mode_logging_installs_the_filter(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from skatbot import app

    root = logging.getLogger()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    monkeypatch.setattr(root, "handlers", [handler])
    app.setup_telegram_logging(TOKEN)
    logging.getLogger("telegram.ext.Application").error("boom at /bot%s/x", TOKEN)
    assert TOKEN not in stream.getvalue() and MASK in stream.getvalue()
    assert logging.getLogger("httpx").level == logging.WARNING
