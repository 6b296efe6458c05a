"""Tests for the fake Bot API, our polling loop and the console, driving a real PTB app."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, InvalidToken, RetryAfter, TimedOut
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from skatbot.handlers.bot_state import CONTEXT_TYPES
from skatbot.runner import poll_updates, run_polling
from skatbot.standin.botapi import BotApi
from skatbot.standin.console import run_console
from skatbot.standin.request import InProcessRequest
from tests.standin.fake_telegram import FakeBotApi, parse_html

App = Application[Any, Any, Any, Any, Any, Any]
Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]


def build(api_url: str, token: str = "4242:TEST", *, rate_limiter: bool = False) -> App:
    builder = (
        Application.builder()
        .token(token)
        .context_types(CONTEXT_TYPES)
        .base_url(f"{api_url}/bot")
        .base_file_url(f"{api_url}/file/bot")
        .updater(None)
    )
    if rate_limiter:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=2))  # type: ignore[arg-type]
    return builder.build()


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi() as fake:
        yield fake


class Running:
    """An app polling the fake API in a background task."""

    def __init__(self, app: App):
        self.app = app
        self.stop = asyncio.Event()
        self.task = asyncio.create_task(run_polling(app, stop=self.stop, timeout=2))

    async def close(self) -> None:
        self.stop.set()
        await asyncio.wait_for(self.task, 5)


@pytest.fixture
async def running(api: FakeBotApi) -> AsyncIterator[Callable[[App], Running]]:
    started: list[Running] = []

    def start(app: App) -> Running:
        r = Running(app)
        started.append(r)
        return r

    yield start
    for r in started:
        if not r.task.done():
            await r.close()


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_html(
        "<b>Echo:</b> " + " ".join(context.args or []).replace("&", "&amp;")
    )


async def test_command_gets_reply(api: FakeBotApi, running: Callable[[App], Running]) -> None:
    app = build(api.url)
    app.add_handler(CommandHandler("echo", echo))
    running(app)
    uid = api.push_message("/echo@skatbot_test_bot Grand & Hand", user_id=7, first_name="Anna")
    await api.wait_confirmed(uid, 5)

    [call] = api.sent("sendMessage", chat_id=-1001)
    assert call.params["parse_mode"] == "HTML"
    assert call.params["text"] == "<b>Echo:</b> Grand &amp; Hand"
    [msg] = api.messages(-1001)
    assert msg.text == "Echo: Grand & Hand"  # what Telegram shows
    assert msg.obj["entities"] == [{"type": "bold", "offset": 0, "length": 5}]
    assert msg.obj["reply_to_message"]["from"]["id"] == 7
    assert msg.message_id == 2  # the user's message was 1
    assert [c.method for c in api.calls[:2]] == ["getMe", "deleteWebhook"]
    assert app.bot.username == "skatbot_test_bot"


async def test_update_confirmed_only_after_handler(
    api: FakeBotApi, running: Callable[[App], Running]
) -> None:
    release = asyncio.Event()
    entered = asyncio.Event()
    seen: list[str] = []

    async def slow(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None and update.effective_message.text
        seen.append(update.effective_message.text)
        if update.effective_message.text == "/slow":
            entered.set()
            await release.wait()
        await update.effective_message.reply_text("fertig")

    app = build(api.url)
    app.add_handler(CommandHandler(["slow", "fast"], slow))
    running(app)
    first = api.push_message("/slow")
    second = api.push_message("/fast")
    await asyncio.wait_for(entered.wait(), 5)
    await asyncio.sleep(0.2)
    # handler still running: nothing confirmed, nothing of the batch after it processed
    assert api.confirmed_offset <= first
    assert seen == ["/slow"]
    assert [u["update_id"] for u in api.pending_updates] == [first, second]
    release.set()
    await api.wait_confirmed(second, 5)
    assert seen == ["/slow", "/fast"]
    assert api.pending_updates == []
    assert len(api.sent("sendMessage")) == 2


async def test_unconfirmed_update_is_redelivered_after_restart(api: FakeBotApi) -> None:
    """A handler that never finishes (crash/stop) leaves its update with 'Telegram'."""
    hang = asyncio.Event()
    calls: list[int] = []

    async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        calls.append(update.update_id)
        if len(calls) == 1:
            await hang.wait()

    app = build(api.url)
    app.add_handler(CommandHandler("x", handler))
    uid = api.push_message("/x")
    stop = asyncio.Event()
    task = asyncio.create_task(run_polling(app, stop=stop, timeout=1))
    while not calls:
        await asyncio.sleep(0.01)
    task.cancel()  # simulated crash in the middle of the handler
    with pytest.raises(asyncio.CancelledError):
        await task
    assert api.confirmed_offset <= uid

    app2 = build(api.url)
    app2.add_handler(CommandHandler("x", handler))
    stop2 = asyncio.Event()
    task2 = asyncio.create_task(run_polling(app2, stop=stop2, timeout=1))
    await api.wait_confirmed(uid, 5)
    stop2.set()
    await asyncio.wait_for(task2, 5)
    assert calls == [uid, uid]


async def test_handler_exception_does_not_kill_loop(
    api: FakeBotApi, running: Callable[[App], Running]
) -> None:
    errors: list[BaseException] = []

    async def boom(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        raise RuntimeError("kaputt")

    async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert context.error is not None
        errors.append(context.error)

    app = build(api.url)
    app.add_handler(CommandHandler("boom", boom))
    app.add_handler(CommandHandler("echo", echo))
    app.add_error_handler(on_error)
    running(app)
    api.push_message("/boom")
    uid = api.push_message("/echo ok")
    await api.wait_confirmed(uid, 5)
    assert [str(e) for e in errors] == ["kaputt"]
    assert api.messages()[-1].text == "Echo: ok"


async def test_poller_retries_network_errors(api: FakeBotApi) -> None:
    app = build(api.url)
    app.add_handler(CommandHandler("echo", echo))
    api.fail_next("getUpdates", status=502, description="Bad Gateway", times=2)
    api.fail_next("getUpdates", status=429, retry_after=1)
    idle: list[int] = []
    async with app:
        await app.start()
        stop = asyncio.Event()
        uid = api.push_message("/echo nach Fehlern")
        task = asyncio.create_task(
            poll_updates(
                app, stop=stop, timeout=1, on_idle=lambda: idle.append(1), initial_backoff=0.05
            )
        )
        await api.wait_confirmed(uid, 5)
        stop.set()
        await asyncio.wait_for(task, 5)
        await app.stop()
    statuses = [c.status for c in api.calls if c.method == "getUpdates"]
    assert statuses[:4] == [502, 502, 429, 200]
    assert api.messages()[-1].text == "Echo: nach Fehlern"
    assert len(idle) >= 4


async def test_stop_cancels_long_poll_quickly(api: FakeBotApi) -> None:
    app = build(api.url)
    stop = asyncio.Event()
    task = asyncio.create_task(run_polling(app, stop=stop, timeout=30))
    await api.wait_for_call("deleteWebhook")
    await asyncio.sleep(0.2)
    stop.set()
    await asyncio.wait_for(task, 3)
    assert not app.running


async def test_send_document_multipart(api: FakeBotApi, running: Callable[[App], Running]) -> None:
    payload = bytes(range(256)) * 40 + b"\r\n--boundary-lookalike\r\n"

    async def liste(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await update.effective_chat.send_document(
            payload, filename='Liste "Mai" ä.pdf', caption="<b>Liste</b>", parse_mode="HTML"
        )

    app = build(api.url)
    app.add_handler(CommandHandler("liste", liste))
    running(app)
    uid = api.push_message("/liste")
    await api.wait_confirmed(uid, 5)
    [call] = api.sent("sendDocument")
    assert call.files["document"] == ('Liste "Mai" ä.pdf', payload)
    assert call.params["chat_id"] == -1001
    assert call.params["caption"] == "<b>Liste</b>"
    assert api.documents(-1001) == [('Liste "Mai" ä.pdf', payload)]
    [msg] = api.messages()
    assert msg.caption == "Liste"
    assert msg.obj["document"]["file_size"] == len(payload)


async def test_callback_and_edits(api: FakeBotApi, running: Callable[[App], Running]) -> None:
    async def ask(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        kb = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton("Ja", callback_data="ja"),
                    InlineKeyboardButton("Nein", callback_data="nein"),
                ]
            ]
        )
        await update.effective_message.reply_text("Sicher?", reply_markup=kb)

    async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer("Gespeichert")
        await query.edit_message_text(f"Antwort: {query.data}")
        with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
            await query.edit_message_text(f"Antwort: {query.data}")

    app = build(api.url)
    app.add_handler(CommandHandler("ask", ask))
    app.add_handler(CallbackQueryHandler(answer))
    running(app)
    await api.wait_confirmed(api.push_message("/ask"), 5)
    [msg] = api.messages()
    assert [b["text"] for b in msg.buttons[0]] == ["Ja", "Nein"]
    await api.wait_confirmed(api.push_callback("nein", message_id=msg.message_id), 5)
    assert msg.text == "Antwort: nein"
    assert msg.buttons == []
    assert msg.edits == 1
    assert api.sent("answerCallbackQuery")[0].params["text"] == "Gespeichert"


async def test_unknown_method_wrong_token_and_bad_html(api: FakeBotApi) -> None:
    async with httpx.AsyncClient() as client:
        res = await client.post(f"{api.url}/bot{api.token}/sendSticker", data={"chat_id": "1"})
        assert res.status_code == 404
        assert res.json() == {
            "ok": False,
            "error_code": 404,
            "description": "Not Found: method not found",
        }
        res = await client.post(f"{api.url}/bot{api.token}/getMe", json={})
        assert res.json()["result"]["can_join_groups"] is True
    with pytest.raises(InvalidToken):
        async with build(api.url, token="4242:WRONG"):
            pass
    api.add_chat(-5)
    app = build(api.url)
    async with app:
        with pytest.raises(BadRequest, match=r"(?i)parse entities"):
            await app.bot.send_message(-5, "a <b>b", parse_mode="HTML")
        with pytest.raises(BadRequest, match=r"(?i)chat not found"):
            await app.bot.send_message(-6, "hallo")
        assert (await app.bot.get_chat_member(-5, 1)).status == "left"  # never in -5
        api.add_member(-5, 1)
        member = await app.bot.get_chat_member(-5, 1)
        assert member.status == "member"
        api.set_admins(-5, [1], owner=2)
        assert (await app.bot.get_chat_member(-5, 1)).status == "administrator"
        admins = await app.bot.get_chat_administrators(-5)
        assert [a.status for a in admins] == ["creator", "administrator"]
        chat = await app.bot.get_chat(-5)
        assert chat.title == "Skatrunde"
        await app.bot.set_my_commands([("neu", "Neue Liste")])
        assert [c.command for c in await app.bot.get_my_commands()] == ["neu"]


async def test_retry_after_raised_or_retried(api: FakeBotApi) -> None:
    api.add_chat(-1001)
    app = build(api.url)
    async with app:
        api.fail_next("sendMessage", status=429, retry_after=3)
        with pytest.raises(RetryAfter) as info:
            await app.bot.send_message(-1001, "hallo")
        assert info.value.retry_after in (3, __import__("datetime").timedelta(seconds=3))
        assert api.sent("sendMessage") == []
    limited = build(api.url, rate_limiter=True)
    async with limited:
        api.fail_next("sendMessage", status=429, retry_after=1)
        await limited.bot.send_message(-1001, "nochmal")
    assert [c.status for c in api.calls if c.method == "sendMessage"] == [429, 429, 200]


async def test_get_updates_offset_semantics(api: FakeBotApi) -> None:
    ids = [api.push_message(f"m{i}") for i in range(5)]
    async with httpx.AsyncClient() as client:

        async def get(**params: Any) -> list[int]:
            res = await client.post(
                f"{api.url}/bot{api.token}/getUpdates",
                data={k: json.dumps(v) for k, v in params.items()},
            )
            return [u["update_id"] for u in res.json()["result"]]

        assert await get(limit=2) == ids[:2]
        assert await get() == ids  # nothing confirmed yet
        assert await get(offset=ids[2]) == ids[2:]
        assert api.confirmed_offset == ids[2]
        assert await get(offset=ids[0]) == ids[2:]  # dropped forever
        assert await get(offset=-1) == ids[4:]
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert await get(offset=ids[4] + 1, timeout=0.3) == []
        assert loop.time() - start >= 0.25
        waiter = asyncio.ensure_future(get(offset=ids[4] + 1, timeout=5))
        await asyncio.sleep(0.1)
        new = api.push_message("spät")
        assert await asyncio.wait_for(waiter, 2) == [new]


def test_parse_html() -> None:
    text, entities = parse_html('<b>Grand</b> 😀 <i>x&lt;y</i> <a href="https://e.x">l</a>')
    assert text == "Grand 😀 x<y l"
    assert entities == [
        {"type": "bold", "offset": 0, "length": 5},
        {"type": "italic", "offset": 9, "length": 3},  # the emoji counts 2 UTF-16 units
        {"type": "text_link", "url": "https://e.x", "offset": 13, "length": 1},
    ]
    for bad in ("<b>x", "x</b>", "<div>x</div>", "a < b", "<b><i>x</b></i>"):
        with pytest.raises(ValueError):
            parse_html(bad)


async def test_console_end_to_end(tmp_path: Path) -> None:
    async def pdf(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await update.effective_chat.send_document(b"%PDF-1.4 test", filename="liste.pdf")

    async def menu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        kb = InlineKeyboardMarkup(
            [
                [InlineKeyboardButton("Eins", callback_data="1")],
                [InlineKeyboardButton("Zwei", callback_data="2")],
            ]
        )
        await update.effective_message.reply_text("Wähle:", reply_markup=kb)

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer()
        await query.edit_message_text(f"<i>Gewählt:</i> {query.data}", parse_mode="HTML")

    def build_app(api: BotApi) -> App:
        builder = Application.builder().token(api.token).context_types(CONTEXT_TYPES).updater(None)
        builder = builder.request(InProcessRequest(api))
        app: App = builder.get_updates_request(InProcessRequest(api)).build()
        app.add_handler(CommandHandler("echo", echo))
        app.add_handler(CommandHandler("pdf", pdf))
        app.add_handler(CommandHandler("menu", menu))
        app.add_handler(CallbackQueryHandler(pressed))
        return app

    stdin = io.StringIO("# Kommentar\n/echo a & b\n\n/pdf\n/menu\n!2\nAnna> /echo hi\n")
    stdout = io.StringIO()
    out_dir = tmp_path / "out"
    code = await asyncio.wait_for(
        run_console(build_app, stdin=stdin, stdout=stdout, out_dir=out_dir), 8
    )
    assert code == 0
    lines = stdout.getvalue().splitlines()
    assert lines == [
        "> /echo a & b",
        "Echo: a & b",
        "> /pdf",
        f"📄 liste.pdf gespeichert: {out_dir / 'liste.pdf'}",
        "> /menu",
        "Wähle:",
        "  [Eins]",
        "  [Zwei]",
        "> !2",
        "(drückt [Zwei])",
        "✎ Gewählt: 2",
        "> Anna> /echo hi",
        "Echo: hi",
    ]
    assert (out_dir / "liste.pdf").read_bytes() == b"%PDF-1.4 test"


async def test_chunked_body_and_delay_fault(api: FakeBotApi) -> None:
    api.add_chat(-1001)

    async def body() -> AsyncIterator[bytes]:
        yield b"chat_id=-1001&"
        yield b"text=gr%C3%BC%C3%9F"

    async with httpx.AsyncClient() as client:
        res = await client.post(
            f"{api.url}/bot{api.token}/sendMessage",
            content=body(),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
    assert res.json()["result"]["text"] == "grüß"

    # A slow answer makes PTB time out, but (like Telegram) the message is sent anyway.
    app = (
        Application.builder()
        .token(api.token)
        .base_url(f"{api.url}/bot")
        .updater(None)
        .read_timeout(0.2)
        .build()
    )
    async with app:
        api.fail_next("sendMessage", status=200, delay=0.5)
        with pytest.raises(TimedOut):
            await app.bot.send_message(-1001, "langsam")
        await api.wait_for_call("sendMessage", count=2, timeout=2)
    assert [m.text for m in api.messages()] == ["grüß", "langsam"]
