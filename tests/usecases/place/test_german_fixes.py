"""German and documents: one number format (1.305) in texts, tables and PDFs; no "Bock 1/9"
with Geberrunden; /hilfe rating does not promise a rise; the 4-table PDF marks the dealer who
sits out; under Bock the Wert column shows what was booked; the chat picture and the PDF
chart are labelled the same. On the use cases (the ``chat`` harness)."""

from __future__ import annotations

from skatbot.rules.scoring import minus_sign
from tests.harness import Harness
from tests.helpers import ok
from tests.pdf.helpers import all_text
from tests.standin.fake_telegram import html_to_text


async def pdf_text(chat: Harness) -> str:
    out = await chat.say("/pdf")
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1, out
    return all_text(docs[0][1])


def test_one_number_format() -> None:
    assert minus_sign(1305) == "1.305"
    assert minus_sign(-12345) == "−12.345"
    assert minus_sign(94) == "94"


async def test_thousands_are_grouped_in_the_chat_and_the_pdf(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/startpunkte Anna 1305", "Anna 1.305")
    await ok(chat, "/spiel Bernd grand mit 1 g")
    # /stand as a table (the Punkte column) and in its text form (without tables)
    stand = await ok(chat, "/stand")
    row = next(line for line in stand.splitlines() if "│Anna " in line.replace("│ ", "│"))
    assert row.split("│")[2].strip() == "1.305", stand
    [reply] = await chat.run("/stand")
    assert "Anna 1.305" in html_to_text(str(reply.text)), reply.text
    assert "1.305" in await pdf_text(chat)


async def test_rating_help_promises_no_rise(chat: Harness) -> None:
    text = await ok(chat, "/hilfe rating")
    assert "wer regelmäßig spielt, steigt" not in text
    assert "entscheiden" in text and "die Plätze" in text


async def test_four_table_pdf_marks_the_dealer_and_bock_values(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Bernd Carla Dora")
    await ok(chat, "/bock")
    await ok(chat, "/spiel Bernd null g", "Bernd +46 (23; Bock ×2)")
    text = await pdf_text(chat)
    assert "1 Anna Null Bock 46 setzt aus +46 46" in text, text
    assert "Verlauf des Stands (Punkte mit Startpunkten)" in text


async def test_the_pdf_chart_is_the_pictures_curve(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand mit 1 g")
    assert "Verlauf des Stands (Seeger-Fabian)" in await pdf_text(chat)
