"""/pdf, /abschluss, /weiter and /vordruck through the real bot; PDFs read back with pypdf."""

from __future__ import annotations

import io

from pypdf import PdfReader

from tests.helpers import Bot


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def fonts_of(data: bytes) -> set[str]:
    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


async def first_document(bot: Bot, message: str) -> tuple[str, tuple[str, bytes]]:
    out = await bot.say(message)
    docs = [r.document for r in out if r.document]
    assert docs, f"no document for {message}: {[r.text for r in out]}"
    return "\n".join(r.text for r in out), docs[0]


async def test_pdf_of_a_list_with_correction_overbid_and_international_names(bot: Bot) -> None:
    await bot.say("/neu Łukasz Şule Đorđe Σοφία")
    # 4-table: Łukasz deals and sits out first.
    await bot.say("/spiel Şule grand ohne 1 hand gewonnen")  # +72, dealer Łukasz
    await bot.say("/spiel Đorđe karo mit 1 reiz 30 gewonnen")  # overbid: −72, dealer Şule
    await bot.say("/spiel Σοφία kreuz mit 2 gewonnen")  # +36, dealer Đorđe
    await bot.say("/korrigieren 3 Σοφία kreuz mit 3 gewonnen")  # struck 36, now +48
    text, (name, data) = await first_document(bot, "/pdf")
    assert name.endswith(".pdf")
    assert "Zwischenstand" in text
    content = pdf_text(data)
    for player in ("Łukasz", "Şule", "Đorđe", "Σοφία"):
        assert player in content
    assert "überreizt" in content
    assert "korrigiert" in content
    # Seeger-Fabian: Şule 72 + 50 + 30 = 152; Σοφία 48 + 50 + 30 = 128; Łukasz 30; Đorđe −72 − 50 = −122
    for total in ("152", "128", "−122"):
        assert total in content
    assert any("LiberationSans" in f for f in fonts_of(data))


async def test_emoji_is_left_out_and_named(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd 🃏Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    text, (_, data) = await first_document(bot, "/pdf")
    assert "fehlen im PDF bei: 🃏Carla" in text
    content = pdf_text(data)
    assert "🃏" not in content
    assert "Carla" in content


async def test_abschluss_posts_pdf_then_spiel_refused_and_weiter_continues_dealer(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")  # dealer Anna
    await bot.say("/spiel Bernd herz mit 1 gewonnen")  # dealer Bernd
    text, (_, data) = await first_document(bot, "/abschluss ja")
    assert "Liste abgeschlossen" in text
    assert "Serienabschluss" in pdf_text(data)
    refused = await bot.text("/spiel Anna grand mit 1 gewonnen")
    assert "abgeschlossen" in refused and "/weiter" in refused
    # Closed lists are kept: /pdf and /export still work.
    _, (_, again) = await first_document(bot, "/pdf")
    assert "Anna" in pdf_text(again)
    started = await bot.text("/weiter")
    assert "Geber Carla · Vorhand Anna" in started
    booked = await bot.text("/spiel Anna kreuz mit 1 gewonnen")
    assert "Spiel 1/36" in booked


async def test_blank_forms_have_every_row(bot: Bot) -> None:
    for size, games in (("3", 36), ("4", 48)):
        _, (name, data) = await first_document(bot, f"/vordruck {size}")
        assert name == f"vordruck-{size}er-tisch.pdf"
        content = pdf_text(data)
        for n in (1, games // 2, games):
            assert f"\n{n}" in content or content.startswith(str(n))
        assert str(games + 1) not in content.split("Serienabschluss")[0].split()
    refused = await bot.text("/vordruck 5")
    assert "/vordruck 3" in refused
