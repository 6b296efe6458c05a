"""Certificates ("Urkunden") for the places of a tournament: one A4 page per place."""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from skatbot.pdf.base import BLACK, GREY_TEXT, SkatPDF, format_date_long, format_number
from skatbot.pdf.fonts import printable

RED = (180, 20, 30)
FRAME = (40, 40, 40)


def points_phrase(score: int) -> str:
    """E.g. "mit 2.345 Punkten", "mit 1 Punkt"."""
    unit = "Punkt" if abs(score) == 1 else "Punkten"
    return f"mit {format_number(score)} {unit}"


class _CertificatePDF(SkatPDF):
    def __init__(self, tournament: str) -> None:
        super().__init__(f"Urkunden – {tournament}", subject="Urkunde", show_footer=False)
        self.set_auto_page_break(False)

    def centred(
        self, y: float, text: str, size: float, bold: bool = False, min_size: float = 10.0
    ) -> None:
        """One centred line with its baseline at ``y``, shrunk (then shortened) to fit."""
        width = self.content_width - 20
        self.fit_size(text, width, size, min_size, bold)
        text = self.fit(text, width)
        self.text(self.w / 2 - self.text_width(text) / 2, y, text)

    def suits(self, y: float, size: float = 16) -> None:
        self.font(size)
        parts = [("♣", BLACK), ("♠", BLACK), ("♥", RED), ("♦", RED)]
        gap = 6.0
        total = sum(self.text_width(s) for s, _ in parts) + gap * (len(parts) - 1)
        x = self.w / 2 - total / 2
        for symbol, rgb in parts:
            self.color(rgb)
            self.text(x, y, symbol)
            x += self.text_width(symbol) + gap
        self.color(BLACK)

    def page_for(
        self,
        tournament: str,
        date: datetime.date,
        place: int,
        name: str,
        score: int,
        prize: str | None = None,
    ) -> None:
        self.add_page()
        # double frame
        self.set_draw_color(*FRAME)
        self.set_line_width(1.2)
        self.rect(10, 10, self.w - 20, self.h - 20)
        self.set_line_width(0.3)
        self.rect(13.5, 13.5, self.w - 27, self.h - 27)

        self.suits(48)
        self.color(BLACK)
        self.set_char_spacing(4)
        self.centred(75, "URKUNDE", 44, bold=True)
        self.set_char_spacing(0)
        self.centred(95, tournament, 20, bold=True)
        self.color(GREY_TEXT)
        self.centred(105, f"am {format_date_long(date)}", 13)
        self.color(BLACK)

        self.centred(145, name, 30, bold=True, min_size=14)
        self.centred(160, f"erreichte {points_phrase(score)} den", 14)
        self.color(RED)
        self.centred(188, f"{place}. Platz", 40, bold=True)
        self.color(BLACK)
        if prize:
            self.centred(202, f"Preis: {prize}", 16, bold=True)
        self.suits(222 if prize else 212, 12)

        # signatures
        y = self.h - 45
        width = 65.0
        for x, label in (
            (self.l_margin + 12, "Ort, Datum"),
            (self.w - self.r_margin - 12 - width, "Turnierleitung"),
        ):
            self.set_draw_color(*BLACK)
            self.set_line_width(0.3)
            self.line(x, y, x + width, y)
            self.font(9)
            self.color(GREY_TEXT)
            self.text(x + width / 2 - self.text_width(label) / 2, y + 5, label)
            self.color(BLACK)


def render_certificates(
    tournament: str,
    date: datetime.date,
    places: list[tuple[int, str, int]],
    prizes: Mapping[str, str] | None = None,
) -> tuple[bytes, set[str]]:
    """One certificate page per ``(place, name, score)``; ``prizes`` (name → "120,00 €")
    adds the prize below the place.

    Returns the PDF bytes and the names that lost characters (emoji) in the PDF."""
    pdf = _CertificatePDF(tournament)
    clean_tournament = pdf.clean(tournament)
    lost: set[str] = set()
    for place, name, score in places:
        clean_name, removed = printable(name)
        if removed:
            lost.add(name)
        pdf.page_for(clean_tournament, date, place, clean_name, score, (prizes or {}).get(name))
    if not places:
        pdf.add_page()
    return bytes(pdf.output()), lost
