"""The bot token is never printed: when Telegram rejects it at start (401 on getMe), both
`skatbot run` and `skatbot webhook` end with one German line and exit code 2, and neither
stdout nor stderr contains the token (nor its URL-encoded form)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.standin.fake_telegram import FakeBotApi

# Not the stand-in's token: the stand-in answers 401 Unauthorized to it, as Telegram does.
TOKEN = "987654321:AAH-geheimesTokenXYZ_0123456789abcdefg"


async def start(tmp_path: Path, api: FakeBotApi, *argv: str) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SKATBOT_"))}
    env.update(
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_API_BASE_URL=f"{api.url}/bot",
        SKATBOT_DATABASE_URL=f"sqlite:///{tmp_path / 'skatbot.db'}",
        SKATBOT_WEBHOOK_SECRET="geheim-123",
        PYTHONPATH=str(Path(__file__).resolve().parents[1]),
    )
    code = "import sys; from skatbot.cli import main; sys.exit(main())"
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        *argv,
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode() + err.decode()


@pytest.mark.parametrize(
    "argv",
    [
        ("run",),
        ("webhook", "--url", "https://bot.example.org/tg", "--listen", "127.0.0.1", "--port", "0"),
    ],
    ids=["run", "webhook"],
)
async def test_a_rejected_token_ends_the_start_without_printing_it(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    async with FakeBotApi() as api:
        code, output = await start(tmp_path, api, *argv)
        assert any(c.method == "getMe" and c.status == 401 for c in api.calls), api.calls
    secret_part = TOKEN.split(":", 1)[1]
    for form in (TOKEN, quote(TOKEN, safe=""), secret_part):
        assert form not in output, output
    assert code == 2, output
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines[-1].startswith("Telegram lehnt den Bot-Token ab"), output
    assert "TELEGRAM_BOT_TOKEN" in lines[-1]
