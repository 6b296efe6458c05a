"""A document or photo that cannot be sent never takes its text with it: after the last try
the caption goes out as a message, with a note that the file is missing."""

from __future__ import annotations

from skatbot.handlers.outbox.queues import SEND_ATTEMPTS
from tests.helpers import Bot

CHAT = -1001
NOTE = "konnte nicht gesendet werden"


async def test_a_pdf_that_fails_for_good_leaves_its_summary(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    bot.api.fail_next("sendDocument", status=502, times=SEND_ATTEMPTS)  # every try fails
    out = await bot.say("/pdf")
    assert not [r for r in out if r.document]
    [message] = [r for r in out if r.method == "sendMessage"]
    assert NOTE in message.text and ".pdf" in message.text
    assert "Zwischenstand" in message.text  # the caption the PDF would have carried
    assert [c.method for c in bot.api.calls if c.method == "sendDocument"] == [
        "sendDocument"
    ] * SEND_ATTEMPTS


async def test_a_refused_photo_leaves_its_text(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    for _ in range(3):
        await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    bot.api.fail_next("sendPhoto", status=400, description="Bad Request: IMAGE_PROCESS_FAILED")
    out = await bot.say("/stand bild")
    assert not [r for r in out if r.method == "sendPhoto"]
    [message] = [r for r in out if r.method == "sendMessage"]
    assert NOTE in message.text and ".png" in message.text
    assert "Anna" in message.text and "3/36" in message.text  # the standings are there


async def test_a_document_that_goes_through_needs_no_note(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    out = await bot.say("/pdf")
    assert [r for r in out if r.document]
    assert not any(NOTE in r.text for r in out)
