"""German and documents: one number format (1.305) in texts, tables and PDFs; no "Bock 1/9"
with Geberrunden; /hilfe rating does not promise a rise; the 4-table PDF marks the dealer who
sits out; under Bock the Wert column shows what was booked; the chat picture and the PDF
chart are labelled the same."""

from __future__ import annotations

from skatbot.rules.scoring import minus_sign
from tests.helpers import Bot, ok
from tests.usecases.house.test_house_pdf import pdf_text


def test_one_number_format() -> None:
    assert minus_sign(1305) == "1.305"
    assert minus_sign(-12345) == "−12.345"
    assert minus_sign(94) == "94"


async def test_thousands_are_grouped_in_the_chat_and_the_pdf(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/startpunkte Anna 1305", "Anna 1.305")
    await ok(bot, "/spiel Bernd grand mit 1 g")
    await ok(bot, "/stand", "Anna 1.305")
    assert "1.305" in await pdf_text(bot)


async def test_rating_help_promises_no_rise(bot: Bot) -> None:
    text = await ok(bot, "/hilfe rating")
    assert "wer regelmäßig spielt, steigt" not in text
    assert "entscheiden" in text and "die Plätze" in text


async def test_four_table_pdf_marks_the_dealer_and_bock_values(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
    await ok(bot, "/neu Anna Bernd Carla Dora")
    await ok(bot, "/bock")
    await ok(bot, "/spiel Bernd null g", "Bernd +46 (23; Bock ×2)")
    text = await pdf_text(bot)
    assert "1 Anna Null Bock 46 setzt aus +46 46" in text, text
    assert "Verlauf des Stands (Punkte mit Startpunkten)" in text


async def test_the_pdf_chart_is_the_pictures_curve(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand mit 1 g")
    assert "Verlauf des Stands (Seeger-Fabian)" in await pdf_text(bot)
