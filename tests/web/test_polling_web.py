"""`skatbot run` serves the web application beside the poller, on SKATBOT_WEB_LISTEN /
SKATBOT_WEB_PORT; a port that is taken is one German warning, and the bot polls on."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import httpx
import pytest

from skatbot.app import web_address_from_env
from tests.standin.fake_telegram import FakeBotApi


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_address_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SKATBOT_WEB_LISTEN", raising=False)
    monkeypatch.delenv("SKATBOT_WEB_PORT", raising=False)
    assert web_address_from_env() == ("127.0.0.1", 8080)
    monkeypatch.setenv("SKATBOT_WEB_LISTEN", "0.0.0.0")
    monkeypatch.setenv("SKATBOT_WEB_PORT", "9001")
    assert web_address_from_env() == ("0.0.0.0", 9001)
    for off in ("0", "off", "OFF"):
        monkeypatch.setenv("SKATBOT_WEB_PORT", off)
        assert web_address_from_env() is None
    for wrong in ("achtzig", "70000", "-1"):
        monkeypatch.setenv("SKATBOT_WEB_PORT", wrong)
        with pytest.raises(ValueError, match="SKATBOT_WEB_PORT"):
            web_address_from_env()


def test_a_wrong_port_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skatbot.cli import main

    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "4242:TEST")
    monkeypatch.setenv("SKATBOT_WEB_PORT", "achtzig")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "„achtzig“ ist kein Port" in err and "off" in err


async def start(tmp_path: Path, api: FakeBotApi, port: int) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SKATBOT_"))}
    env.update(
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_API_BASE_URL=f"{api.url}/bot",
        SKATBOT_DATABASE_URL=f"sqlite:///{tmp_path / 'skatbot.db'}",
        SKATBOT_WEB_PORT=str(port),
        SKATBOT_POLL_TIMEOUT="1",
        PYTHONPATH=str(Path(__file__).resolve().parents[2]),
    )
    code = "import sys; from skatbot.cli import main; sys.exit(main())"
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        "run",
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def polled(api: FakeBotApi, proc: asyncio.subprocess.Process) -> None:
    for _ in range(600):
        if any(c.method == "getUpdates" for c in api.calls):
            return
        assert proc.returncode is None, "skatbot run ended"
        await asyncio.sleep(0.05)
    raise AssertionError("skatbot run never polled")


async def stopped(proc: asyncio.subprocess.Process) -> str:
    proc.terminate()
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    return err.decode()


async def test_skatbot_run_serves_the_web_application(tmp_path: Path) -> None:
    port = free_port()
    async with FakeBotApi() as api:
        proc = await start(tmp_path, api, port)
        await polled(api, proc)
        async with httpx.AsyncClient() as client:
            answer = await client.get(f"http://127.0.0.1:{port}/healthz", timeout=10)
        assert (answer.status_code, answer.text) == (200, "ok\n")
        err = await stopped(proc)
    assert "Web-Seiten" not in err


async def test_a_taken_port_is_a_german_warning_and_the_bot_polls_on(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeBotApi() as api:
            api.add_chat(-1001)
            proc = await start(tmp_path, api, port)
            await polled(api, proc)
            api.push_update(
                {
                    "message": {
                        "message_id": 1,
                        "from": {"id": 1, "is_bot": False, "first_name": "Anna"},
                        "chat": {"id": -1001, "type": "group", "title": "Skatrunde"},
                        "date": 0,
                        "text": "/neu Anna Bernd Carla",
                        "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
                    }
                }
            )
            for _ in range(400):
                if any("Neue Liste" in (m.text or "") for m in api.messages(-1001)):
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the bot did not answer")
            err = await stopped(proc)
    assert f"127.0.0.1:{port} ist nicht frei" in err
    assert "SKATBOT_WEB_PORT" in err
