"""sendPhoto in the stand-ins: the strict one checks the picture like Telegram (a real
image, its dimensions, the caption limit); the product one (the console's transport) keeps
it with its size."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from telegram import Bot
from telegram.error import BadRequest

from skatbot.standin.botapi import image_size
from tests.standin.fake_telegram import FakeBotApi
from tests.standin.server import BotApiServer

GROUP = -1001


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 200, 200)).save(out, format="PNG")
    return out.getvalue()


def jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 200, 200)).save(out, format="JPEG")
    return out.getvalue()


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi() as fake:
        fake.add_chat(GROUP)
        yield fake


def test_image_size_reads_png_and_jpeg_headers() -> None:
    assert image_size(png(1200, 1000)) == (1200, 1000)
    assert image_size(jpeg(640, 480)) == (640, 480)
    assert image_size(b"%PDF-1.7") is None
    assert image_size(b"") is None


async def test_strict_photo_checks(api: FakeBotApi) -> None:
    async with Bot(api.token, base_url=f"{api.url}/bot") as bot:
        sent = await bot.send_photo(
            GROUP, png(1200, 1000), filename="a.png", caption="<b>x</b>" * 1024, parse_mode="HTML"
        )
        assert sent.photo[-1].width == 1200 and sent.photo[-1].height == 1000
        assert sent.caption == "x" * 1024
        with pytest.raises(BadRequest, match=r"^Message caption is too long$"):
            await bot.send_photo(GROUP, png(10, 10), filename="b.png", caption="x" * 1025)
        with pytest.raises(BadRequest, match=r"^Image_process_failed$"):
            await bot.send_photo(GROUP, b"%PDF-1.7 not a picture", filename="c.png")
        with pytest.raises(BadRequest, match=r"^Photo_invalid_dimensions$"):
            await bot.send_photo(GROUP, png(2100, 100), filename="d.png")  # wider than 20:1
        with pytest.raises(BadRequest, match=r"^Photo_invalid_dimensions$"):
            await bot.send_photo(GROUP, png(6000, 4001), filename="e.png")  # w + h > 10,000
        edited = await bot.edit_message_caption(GROUP, sent.message_id, caption="neu")
        assert getattr(edited, "caption", None) == "neu"
    assert [name for name, _ in api.photos(GROUP)] == ["a.png"]
    assert api.documents(GROUP) == []  # a photo is not a document


async def test_product_stand_in_keeps_photos() -> None:
    async with BotApiServer() as server:
        server.add_chat(GROUP)
        async with Bot(server.token, base_url=f"{server.url}/bot") as bot:
            sent = await bot.send_photo(GROUP, png(300, 200), filename="x.png", caption="Bild")
        assert (sent.photo[-1].width, sent.photo[-1].height) == (300, 200)
        assert server.photos(GROUP) == [("x.png", png(300, 200))]
