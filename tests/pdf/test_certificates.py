from __future__ import annotations

import datetime

from skatbot.pdf.certificates import points_phrase, render_certificates
from tests.pdf.helpers import assert_liberation_embedded, page_texts, reader

DATE = datetime.date(2025, 11, 25)


def test_one_page_per_place_with_name_place_and_points() -> None:
    places = [(1, "Łukasz", 2345), (2, "Σοφία 🃏", 1980), (3, "Юрий", 1), (3, "Şule", 1)]
    data, lost = render_certificates("Preisskat Herz Dame", DATE, places)
    assert lost == {"Σοφία 🃏"}
    assert_liberation_embedded(data)
    pages = page_texts(data)
    assert len(pages) == len(places)
    for text, (place, name, _) in zip(pages, places, strict=True):
        assert "URKUNDE" in text
        assert "Preisskat Herz Dame" in text
        assert "am 25. November 2025" in text
        assert f"{place}. Platz" in text
        assert name.replace(" 🃏", "") in text
        assert "🃏" not in text
    assert "erreichte mit 2.345 Punkten den" in pages[0]
    assert "mit 1.980 Punkten" in pages[1]
    assert "mit 1 Punkt den" in pages[2]
    assert reader(data).metadata is not None


def test_points_phrase() -> None:
    assert points_phrase(2345) == "mit 2.345 Punkten"
    assert points_phrase(1067) == "mit 1.067 Punkten"
    assert points_phrase(1) == "mit 1 Punkt"
    assert points_phrase(-1234) == "mit −1.234 Punkten"
    assert points_phrase(0) == "mit 0 Punkten"


def test_very_long_names_still_fit_on_the_page() -> None:
    name = "Maximiliane Theodora Freifrau von und zu Hohenzollern-Sigmaringen"
    data, _ = render_certificates("Stadtmeisterschaft", DATE, [(1, name, 3000)])
    text = page_texts(data)[0]
    assert "Maximiliane" in text
    assert len(reader(data).pages) == 1
