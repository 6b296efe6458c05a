"""PTB's in-process request (``InProcessRequest``, the console's transport) against the strict
stand-in: every refusal reaches PTB as over HTTP (same error, same text), a slow answer times
out like a slow connection, uploads and downloads arrive whole, and the console opens no
socket."""

from __future__ import annotations

import asyncio
import io
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError, TimedOut

from skatbot.app import build_application
from skatbot.standin.botapi import BotApi
from skatbot.standin.console import run_console
from skatbot.standin.request import InProcessRequest
from skatbot.storage.database import Database
from tests.standin.fake_telegram import FakeBotApi

GROUP = -1001
PLAYER = 7  # seen in the group, never wrote to the bot privately


def in_process(api: BotApi, read_timeout: float | None = 5.0) -> Bot:
    request = InProcessRequest(api, read_timeout=read_timeout)
    return Bot(api.token, request=request, get_updates_request=InProcessRequest(api))


def over_http(api: FakeBotApi) -> Bot:
    return Bot(api.token, base_url=f"{api.url}/bot", base_file_url=f"{api.url}/file/bot")


async def identical_edit(bot: Bot) -> Any:
    sent = await bot.send_message(GROUP, "<b>Stand</b>", parse_mode="HTML")
    return await bot.edit_message_text("<b>Stand</b>", GROUP, sent.message_id, parse_mode="HTML")


async def flood(bot: Bot) -> Any:
    for n in range(21):
        await bot.send_message(GROUP, f"Nachricht {n}")


Refusal = Callable[[Bot], Awaitable[Any]]
REFUSALS: dict[str, Refusal] = {
    "text too long": lambda bot: bot.send_message(GROUP, "x" * 4097),
    "empty text": lambda bot: bot.send_message(GROUP, ""),
    "caption too long": lambda bot: bot.send_document(GROUP, b"%PDF", caption="x" * 1025),
    "broken HTML": lambda bot: bot.send_message(GROUP, "<b>fett", parse_mode="HTML"),
    "identical edit": identical_edit,
    "callback data too long": lambda bot: bot.send_message(
        GROUP,
        "Knopf",
        reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="x" * 65)]]),
    ),
    "flood control": flood,
    "never started privately": lambda bot: bot.send_message(PLAYER, "Hallo"),
    "unknown chat": lambda bot: bot.send_message(-999, "Hallo"),
}


async def refusal_of(api: FakeBotApi, bot: Bot, action: Refusal) -> tuple[str, str]:
    api.add_chat(GROUP)
    api.push_message("/neu", chat_id=GROUP, user_id=PLAYER, first_name="Anna")
    async with bot:
        with pytest.raises(TelegramError) as refused:
            await action(bot)
    return type(refused.value).__name__, refused.value.message


@pytest.mark.parametrize("name", REFUSALS)
async def test_refusals_are_the_same_in_process_and_over_http(name: str) -> None:
    async with FakeBotApi(group_window=60) as api:
        over_wire = await refusal_of(api, over_http(api), REFUSALS[name])
    here = FakeBotApi(group_window=60)  # never started: no server, no port
    assert await refusal_of(here, in_process(here), REFUSALS[name]) == over_wire
    assert here.calls[-1].ok is False


async def test_a_slow_answer_times_out_but_is_delivered() -> None:
    api = FakeBotApi()
    api.add_chat(GROUP)
    async with in_process(api, read_timeout=0.2) as bot:
        api.fail_next("sendMessage", status=200, delay=0.5)
        with pytest.raises(TimedOut):
            await bot.send_message(GROUP, "langsam")
        await api.wait_for_call("sendMessage", count=1, timeout=2)
    assert [m.text for m in api.messages(GROUP)] == ["langsam"]


@pytest.mark.parametrize("transport", ["in-process", "http"])
async def test_uploads_and_downloads_arrive_whole(transport: str) -> None:
    """A multipart upload and a download of the file URL (PTB quotes the token in it)."""
    async with FakeBotApi() as api:
        api.add_chat(GROUP)
        content = bytes(range(256)) * 40
        async with in_process(api) if transport == "in-process" else over_http(api) as bot:
            sent = await bot.send_document(GROUP, content, filename="liste.pdf", caption="Liste")
            assert sent.document is not None and sent.caption == "Liste"
            assert api.documents(GROUP) == [("liste.pdf", content)]
            file = await bot.get_file(sent.document.file_id)
            assert bytes(await file.download_as_bytearray()) == content


async def test_a_long_poll_ends_with_the_client() -> None:
    """getUpdates waits for updates in the Bot API; the request's shutdown ends the wait."""
    api = BotApi()
    request = InProcessRequest(api)
    bot = Bot(api.token, request=InProcessRequest(api), get_updates_request=request)
    await bot.initialize()
    poll = asyncio.create_task(bot.get_updates(timeout=30))
    await asyncio.sleep(0.05)
    poll.cancel()
    await bot.shutdown()
    assert not request._running
    with pytest.raises(asyncio.CancelledError):
        await poll


@pytest.fixture
async def no_sockets(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the console opened a socket")

    asyncio.get_running_loop()  # the test's loop (its self-pipe) exists before
    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    yield


@pytest.mark.usefixtures("no_sockets")
async def test_the_console_opens_no_socket(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    stdout = io.StringIO()
    try:
        code = await asyncio.wait_for(
            run_console(
                lambda api: build_application(api.token, db, bot_api=api, rate_limit=False),
                stdin=io.StringIO(
                    "/neu Anna Bernd Carla\n/spiel Anna grand ohne 1 hand gewonnen\n"
                ),
                stdout=stdout,
                out_dir=tmp_path,
            ),
            30,
        )
    finally:
        db.dispose()
    assert code == 0
    assert "✅ Spiel 1/36 · Anna: Grand ohne 1 Hand – gewonnen" in stdout.getvalue().splitlines()
