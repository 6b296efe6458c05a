"""/pdf, /abschluss, /weiter and /vordruck on the use cases (the ``chat`` harness); PDFs read
back with pypdf."""

from __future__ import annotations

import io

from pypdf import PdfReader

from tests.harness import Harness
from tests.pdf.helpers import all_text

pdf_text = all_text  # the text of every page


def fonts_of(data: bytes) -> set[str]:
    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


async def first_document(chat: Harness, message: str) -> tuple[str, tuple[str, bytes]]:
    out = await chat.say(message)
    docs = [r.document for r in out if r.document]
    assert docs, f"no document for {message}: {[r.text for r in out]}"
    return "\n".join(r.text for r in out), docs[0]


async def test_pdf_of_a_list_with_correction_overbid_and_international_names(chat: Harness) -> None:
    await chat.say("/neu Łukasz Şule Đorđe Σοφία")
    # 4-table: Łukasz deals and sits out first.
    await chat.say("/spiel Şule grand ohne 1 hand gewonnen")  # +72, dealer Łukasz
    await chat.say("/spiel Đorđe karo mit 1 reiz 30 gewonnen")  # overbid: −72, dealer Şule
    await chat.say("/spiel Σοφία kreuz mit 2 gewonnen")  # +36, dealer Đorđe
    await chat.say("/korrigieren 3 Σοφία kreuz mit 3 gewonnen")  # struck 36, now +48
    text, (name, data) = await first_document(chat, "/pdf")
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


async def test_emoji_is_left_out_and_named(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd 🃏Carla")
    await chat.say("/spiel Anna grand ohne 1 hand gewonnen")
    text, (_, data) = await first_document(chat, "/pdf")
    assert "fehlen im PDF bei: 🃏Carla" in text
    content = pdf_text(data)
    assert "🃏" not in content
    assert "Carla" in content


async def test_abschluss_posts_pdf_then_spiel_refused_and_weiter_continues_dealer(
    chat: Harness,
) -> None:
    await chat.say("/neu Anna Bernd Carla")
    await chat.say("/spiel Anna grand ohne 1 hand gewonnen")  # dealer Anna
    await chat.say("/spiel Bernd herz mit 1 gewonnen")  # dealer Bernd
    text, (_, data) = await first_document(chat, "/abschluss ja")
    assert "Liste abgeschlossen" in text
    assert "Serienabschluss" in pdf_text(data)
    refused = await chat.text("/spiel Anna grand mit 1 gewonnen")
    assert "abgeschlossen" in refused and "/weiter" in refused
    # Closed lists are kept: /pdf and /export still work.
    _, (_, again) = await first_document(chat, "/pdf")
    assert "Anna" in pdf_text(again)
    started = await chat.text("/weiter")
    assert "Geber Carla · Vorhand Anna" in started
    booked = await chat.text("/spiel Anna kreuz mit 1 gewonnen")
    assert "Spiel 1/36" in booked


async def test_blank_forms_have_every_row(chat: Harness) -> None:
    for size, games in (("3", 36), ("4", 48)):
        _, (name, data) = await first_document(chat, f"/vordruck {size}")
        assert name == f"vordruck-{size}er-tisch.pdf"
        content = pdf_text(data)
        for n in (1, games // 2, games):
            assert f"\n{n}" in content or content.startswith(str(n))
        assert str(games + 1) not in content.split("Serienabschluss")[0].split()
    refused = await chat.text("/vordruck 5")
    assert "/vordruck 3" in refused


async def test_a_pdf_caption_says_what_it_is_once(chat: Harness) -> None:
    """The reply's text rides on the document as its caption; the document's own caption
    is added only when the text does not say it already."""
    await chat.say("/neu Anna Bernd Carla")
    await chat.say("/spiel Anna grand ohne 1 hand gewonnen")
    (pdf,) = await chat.say("/pdf")
    assert pdf.document is not None and pdf.method == "sendDocument"
    assert pdf.text.count("Skatliste als PDF") == 1, pdf.text
