"""`skatbot webhook`: secret check, answer only after the commit, 500 on failure; two
instances on one PostgreSQL fed the same chat concurrently."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from sqlalchemy.exc import OperationalError
from telegram.ext import CommandHandler

from skatbot.app import build_application
from skatbot.storage.database import Database
from skatbot.web.webhook import WebhookServer, serve_webhook
from tests.helpers import GROUP_WINDOW, PG_URL, game_rows
from tests.standin.fake_telegram import FakeBotApi

SECRET = "s3cr3t-Token_1"
CHAT = -1001


def message(update_id: int, text: str, chat_id: int = CHAT, user_id: int = 1) -> dict:  # type: ignore[type-arg]
    msg = {
        "message_id": update_id,
        "from": {"id": user_id, "is_bot": False, "first_name": "Spieler"},
        "chat": {"id": chat_id, "type": "group", "title": "Skatrunde"},
        "date": int(time.time()),
        "text": text,
    }
    if text.startswith("/"):
        msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
    return {"update_id": update_id, "message": msg}


@asynccontextmanager
async def instance(
    api: FakeBotApi, db: Database, *, set_webhook: bool = True
) -> AsyncIterator[WebhookServer]:
    app = build_application(api.token, db, base_url=f"{api.url}/bot", group_window=GROUP_WINDOW)
    stop = asyncio.Event()
    ready: asyncio.Future[WebhookServer] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        serve_webhook(
            app,
            listen="127.0.0.1",
            port=0,
            url="https://bot.example.org/tg/hook",
            secret=SECRET,
            set_webhook=set_webhook,
            stop=stop,
            on_ready=ready.set_result,
        )
    )
    server = await asyncio.wait_for(ready, 15)
    try:
        yield server
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


async def post(
    client: httpx.AsyncClient, server: WebhookServer, body: object, secret: str = SECRET
) -> int:
    response = await client.post(
        f"http://127.0.0.1:{server.port}/tg/hook",
        content=json.dumps(body) if not isinstance(body, bytes) else body,
        headers={"X-Telegram-Bot-Api-Secret-Token": secret, "Content-Type": "application/json"},
        timeout=30,
    )
    return response.status_code


async def test_webhook_checks_secret_and_answers_after_commit(db: Database) -> None:
    async with (
        FakeBotApi(group_window=GROUP_WINDOW) as api,
        instance(api, db) as server,
        httpx.AsyncClient() as client,
    ):
        assert api.webhook is not None and api.webhook["secret_token"] == SECRET
        api.add_chat(CHAT)
        assert await post(client, server, message(1, "/neu Anna Bernd Carla"), "wrong") == 403
        assert await post(client, server, b"{not json") == 400
        assert await post(client, server, {"hello": 1}) == 400
        assert await post(client, server, message(1, "/neu Anna Bernd Carla")) == 200
        assert await post(client, server, message(2, "/spiel Anna grand mit 1 gewonnen")) == 200
        # 200 means committed: the row is there when the answer arrives
        assert [u for _, _, u in game_rows(db)] == [2]
        assert await post(client, server, message(2, "/spiel Anna grand mit 1 gewonnen")) == 200
        assert [u for _, _, u in game_rows(db)] == [2]  # redelivery books nothing
        wrong_path = await client.post(
            f"http://127.0.0.1:{server.port}/other",
            content=b"{}",
            headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
        )
        assert wrong_path.status_code == 404


async def test_webhook_answers_500_when_processing_failed(db: Database) -> None:
    async with (
        FakeBotApi(group_window=GROUP_WINDOW) as api,
        instance(api, db, set_webhook=False) as server,
    ):
        assert api.webhook is None  # --no-set-webhook
        api.add_chat(CHAT)
        async with httpx.AsyncClient() as client:
            assert await post(client, server, message(1, "/neu Anna Bernd Carla")) == 200
            db.dispose()
            broken = db.write

            async def fail(fn, **kw):  # type: ignore[no-untyped-def]
                raise OperationalError("INSERT ...", {}, Exception("database gone"))

            db.write = fail  # type: ignore[method-assign]
            try:
                assert (
                    await post(client, server, message(2, "/spiel Anna grand mit 1 gewonnen"))
                    == 500
                )
            finally:
                db.write = broken  # type: ignore[method-assign]
            # Telegram delivers again; now it works, once
            assert await post(client, server, message(2, "/spiel Anna grand mit 1 gewonnen")) == 200
            assert [u for _, _, u in game_rows(db)] == [2]


@pytest.mark.skipif(
    not PG_URL.startswith("postgresql"), reason="needs SKATBOT_TEST_DATABASE_URL=postgresql..."
)
async def test_two_instances_on_one_postgresql(db: Database) -> None:
    second = Database(PG_URL)  # its own connection pool, like a second process
    try:
        async with (
            FakeBotApi(group_window=GROUP_WINDOW) as api,
            instance(api, db) as a,
            instance(api, second, set_webhook=False) as b,
            httpx.AsyncClient() as client,
        ):
            api.add_chat(CHAT)
            api.add_chat(-2002)
            assert await post(client, a, message(1, "/neu Anna Bernd Carla")) == 200
            assert await post(client, b, message(2, "/serie 200")) == 200
            games = [
                f"Anna grand mit {1 + i % 4} {'gewonnen' if i % 3 else 'verloren'}"
                for i in range(30)
            ]
            # 1) every update posted to BOTH instances at the same time (a balancer retrying on
            #    the other node): each is booked once, in update-id order
            uid = 10
            for g in games[:15]:
                body = message(uid, f"/spiel {g}")
                statuses = await asyncio.gather(post(client, a, body), post(client, b, body))
                assert statuses == [200, 200]
                uid += 1
            # 2) distinct updates of the same chat spread over both instances concurrently:
            #    nothing lost, nothing doubled
            bodies = [message(uid + i, f"/spiel {g}") for i, g in enumerate(games[15:])]
            results = await asyncio.gather(
                *(post(client, a if i % 2 else b, body) for i, body in enumerate(bodies))
            )
            assert set(results) == {200}
            rows = game_rows(db, CHAT)
            ids = [u for _, _, u in rows]
            assert len(ids) == 30 and len(set(ids)) == 30
            assert ids[:15] == list(range(10, 25))
            assert sorted(ids[15:]) == list(range(25, 40))
            # every game numbered once: the replay of the log has 30 games (replies follow
            # the 200 answer from each instance's outbox)
            await a.app.bot_data.outbox.wait_idle(None, 15)
            await b.app.bot_data.outbox.wait_idle(None, 15)
            stand = [str(c.params["text"]) for c in api.sent("sendMessage", chat_id=CHAT)]
            assert any("Spiel 30/200" in t for t in stand)
    finally:
        second.dispose()


async def test_cli_has_the_webhook_subcommand() -> None:
    from skatbot.cli import build_parser

    args = build_parser().parse_args(
        [
            "webhook",
            "--listen",
            "127.0.0.1",
            "--port",
            "9000",
            "--url",
            "https://x/y",
            "--no-set-webhook",
        ]
    )
    assert (args.command, args.port, args.no_set_webhook) == ("webhook", 9000, True)


def test_secret_rule(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from skatbot.cli import main
    from skatbot.web.webhook import valid_secret

    assert valid_secret(SECRET) and not valid_secret("") and not valid_secret("a b")
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "4242:TEST")
    monkeypatch.setenv("SKATBOT_WEBHOOK_SECRET", "no spaces!")
    assert main(["webhook", "--url", "https://x/y"]) == 2
    assert "SKATBOT_WEBHOOK_SECRET" in capsys.readouterr().err
    monkeypatch.delenv("SKATBOT_WEBHOOK_SECRET")
    assert main(["webhook", "--url", "https://x/y"]) == 2
    # on the command line the secret would be visible in ps: refused with that reason
    assert main(["webhook", "--url", "https://x/y", "--secret", SECRET]) == 2
    assert "ps" in capsys.readouterr().err


async def test_a_deterministic_failure_is_not_redelivered(db: Database) -> None:
    """A bug fails the same way on every retry: answered 200, the chat told once."""
    async with (
        FakeBotApi(group_window=GROUP_WINDOW) as api,
        instance(api, db, set_webhook=False) as server,
    ):
        api.add_chat(CHAT)

        async def broken(update: object, context: object) -> None:
            raise KeyError("a bug")

        server.app.add_handler(CommandHandler("kaputt", broken), group=-5)
        async with httpx.AsyncClient() as client:
            assert await post(client, server, message(1, "/kaputt")) == 200
            await server.app.bot_data.outbox.wait_idle(CHAT)
        notices = [
            c
            for c in api.sent("sendMessage", chat_id=CHAT)
            if "schiefgegangen" in str(c.params["text"])
        ]
        assert len(notices) == 1


async def test_webhook_confirms_an_unreadable_update_and_tells_the_chat(db: Database) -> None:
    """PTB cannot read it (a tap without chat_instance): 200, so Telegram does not deliver it
    again forever; the chat hears once; the next update is processed."""
    async with (
        FakeBotApi(group_window=GROUP_WINDOW) as api,
        instance(api, db) as server,
        httpx.AsyncClient() as client,
    ):
        api.add_chat(CHAT)
        chat = {"id": CHAT, "type": "group", "title": "Skatrunde"}
        tap = {
            "update_id": 5,
            "callback_query": {
                "id": "cq",
                "from": {"id": 1, "is_bot": False, "first_name": "Spieler"},
                "message": {"message_id": 1, "date": 0, "chat": chat},
                "data": "x",
            },
        }
        assert await post(client, server, tap) == 200
        assert await post(client, server, message(6, "/neu Anna Bernd Carla")) == 200
        await server.app.bot_data.outbox.wait_idle(None, 10)
        texts = [m.text or "" for m in api.messages(CHAT)]
        assert sum("konnte ich nicht lesen" in t for t in texts) == 1
        assert any("Neue Liste" in t for t in texts)
