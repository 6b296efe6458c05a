"""The test machinery of the stand-in stays in tests/: the wheel ships only ``skatbot/``
(``[tool.hatch.build.targets.wheel] packages``), so nothing in that package may carry fault
injection, fake admins, flood control, the tests' topic or inline helpers, the test bot's
name, or an HTTP server: the console talks to its Bot API in process. (Forum topics
themselves are the console's too: ``make_forum``, ``new_topic``.)"""

from __future__ import annotations

import inspect
from pathlib import Path

import skatbot
import skatbot.standin
import skatbot.standin.botapi
from skatbot.standin.botapi import BotApi
from tests.standin.fake_telegram import BOT_USERNAME, FakeBotApi

TEST_ONLY = (
    "fail_next",
    "set_admins",
    "flood_refusals",
    "push_inline_query",
    "push_my_chat_member",
    "push_edit",
    "add_forum",
    "create_topic",
    "FakeBotApi",
    BOT_USERNAME,
)


def test_product_server_has_no_test_machinery() -> None:
    for name in TEST_ONLY:
        assert not hasattr(BotApi, name), name
        assert not hasattr(skatbot.standin, name), name
        assert not hasattr(skatbot.standin.botapi, name), name
    # no flood control (the bot's own pacer in handlers/outbox/pacer.py also has a ``group_limit``)
    assert "group_limit" not in inspect.signature(BotApi).parameters
    assert BotApi().bot_user["username"] != BOT_USERNAME
    # ... while the tests' stand-in has all of it.
    for name in ("fail_next", "set_admins", "push_inline_query", "create_topic", "push_edit"):
        assert callable(getattr(FakeBotApi, name)), name
    assert FakeBotApi().bot_user["username"] == BOT_USERNAME


def test_no_file_of_the_package_mentions_test_machinery() -> None:
    package = Path(skatbot.__file__).parent
    offenders = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        offenders += [f"{path.relative_to(package)}: {n}" for n in TEST_ONLY if n in text]
    assert offenders == []


def test_the_console_package_serves_no_http() -> None:
    """The console's transport is PTB's request in process: no server, no socket in
    ``skatbot/standin/`` (the HTTP server is the tests': tests/standin/server.py)."""
    package = Path(skatbot.standin.__file__).parent
    for name in ("start", "stop", "url"):
        assert not hasattr(BotApi(), name), name
    offenders = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        words = ("start_server", "import socket", "httpio", "StreamReader", "BotApiServer")
        offenders += [f"{path.name}: {w}" for w in words if w in text]
    assert offenders == []
