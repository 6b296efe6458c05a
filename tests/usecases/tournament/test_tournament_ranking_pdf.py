"""/rangliste pdf: a document with every participant."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from tests.harness import Harness
from tests.usecases.tournament.test_tournament_chat import (
    ORGANISER,
    draw,
    results_message,
    setup_tournament,
)

NAMES = ["Anna", "Bernd", "Carla", "Łukasz", "Σοφία", "Frieda", "Gustav"]


async def test_rangliste_pdf_contains_every_participant(chat: Harness) -> None:
    await setup_tournament(chat, names=NAMES)
    await draw(chat)
    results = {n: (100 * i + 1000, 2 + i % 3, i % 2) for i, n in enumerate(NAMES)}
    reply = await chat.text(results_message(results), **ORGANISER)
    assert "Serie 1 ist komplett" in reply

    plain = await chat.say("/rangliste")
    assert not any(r.document for r in plain)
    assert "Als PDF: /rangliste pdf" in "\n".join(r.text for r in plain)

    out = await chat.say("/rangliste PDF")
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1
    filename, data = docs[0]
    assert re.fullmatch(r"rangliste-preisskat-vereinsheim-\d{4}-\d\d-\d\d\.pdf", filename)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "Rangliste nach 1 Serie" in text
    for name in NAMES:
        assert name in text
    assert "1. Gustav" in "\n".join(r.text for r in out)

    assert "/rangliste pdf" in await chat.text("/rangliste xyz")
