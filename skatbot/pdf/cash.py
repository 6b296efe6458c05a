"""The organiser's cash report ("Kassenbericht") of a tournament as an A4 PDF.

Pure layout: the caller computes every amount (integer cents); this module only draws the
income by kind, the payouts, the balance and one row per participant.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from skatbot.pdf.base import (
    BLACK,
    GREY_TEXT,
    HEADER_FILL,
    MINUS,
    Column,
    SkatPDF,
    format_date,
    format_date_long,
)
from skatbot.pdf.fonts import printable

ROW_H = 5.5
HEAD_H = 6.5


def format_euro(cents: int) -> str:
    """ "1.234,50 €", "−0,30 €"."""
    euros, rest = divmod(abs(cents), 100)
    text = f"{euros:,}".replace(",", ".") + f",{rest:02d} €"
    return MINUS + text if cents < 0 else text


@dataclass(frozen=True)
class CashLine:
    label: str
    cents: int


@dataclass(frozen=True)
class CashDocument:
    title: str  # the tournament's name
    date: datetime.date
    income: list[CashLine]
    payouts: list[CashLine]
    # (name, entry, lost games, lost-game fee, table fee, owed, prize, net)
    dues: list[tuple[str, int, int, int, int, int, int, int]]
    notes: list[str] = field(default_factory=list)
    held: datetime.date | None = None  # the tournament's date (title block and footer)


class _CashPDF(SkatPDF):
    def __init__(self, doc: CashDocument) -> None:
        super().__init__(
            f"Kassenbericht – {doc.title}",
            subject="Kassenbericht",
            footer_label=f"Kassenbericht – {doc.title} · {format_date(doc.held or doc.date)}",
        )
        self.doc = doc
        name_w = self.content_width - 22 - 14 - 24 - 20 - 22 - 22 - 22
        self.columns = [
            Column("Name", name_w),
            Column("Startgeld", 22, "R"),
            Column("Verl.", 14, "R"),
            Column("Verlustgeld", 24, "R"),
            Column("Tischgeld", 20, "R"),
            Column("zu zahlen", 22, "R"),
            Column("Preis", 22, "R"),
            Column("Saldo", 22, "R"),
        ]

    def header_block(self) -> None:
        self.title_block(
            self.doc.title,
            "Kassenbericht",
            [
                *([f"Turnier vom {format_date_long(self.doc.held)}"] if self.doc.held else []),
                f"Stand: {format_date_long(self.doc.date)}",
            ],
            small_notes=self.doc.notes,
            gap=2,
        )

    def account(self, heading: str, lines: Sequence[CashLine], total_label: str) -> int:
        self.heading(heading, 11, gap_before=3)
        amount_w = 32.0
        label_w = self.content_width - amount_w
        for line in lines:
            self.ensure_row_space(ROW_H)
            self.font(9)
            self.put(
                self.l_margin,
                self.get_y(),
                label_w,
                ROW_H,
                self.fit(self.clean(line.label), label_w - 3),
            )
            self.put(
                self.l_margin + label_w, self.get_y(), amount_w, ROW_H, format_euro(line.cents), "R"
            )
            self.set_y(self.get_y() + ROW_H)
        if not lines:
            self.font(9)
            self.color(GREY_TEXT)
            self.put(self.l_margin, self.get_y(), label_w, ROW_H, "keine")
            self.color(BLACK)
            self.set_y(self.get_y() + ROW_H)
        total = sum(line.cents for line in lines)
        self.total_line(total_label, total)
        return total

    def total_line(self, label: str, cents: int, size: float = 9.5) -> None:
        amount_w = 32.0
        y = self.get_y()
        self.set_draw_color(*BLACK)
        self.set_line_width(0.3)
        self.line(self.l_margin, y, self.l_margin + self.content_width, y)
        self.font(size, bold=True)
        self.put(self.l_margin, y, self.content_width - amount_w, ROW_H + 0.5, label)
        self.put(
            self.l_margin + self.content_width - amount_w, y, amount_w, ROW_H + 0.5,
            format_euro(cents), "R",
        )  # fmt: skip
        self.set_y(y + ROW_H + 1)

    def table_header(self) -> None:
        self.header_row(self.columns, HEAD_H, size=8, fill=HEADER_FILL)

    def dues_table(self) -> None:
        self.heading("Je Teilnehmer", 11, gap_before=5)
        self.begin_table(self.table_header, ROW_H)
        for name, entry, lost_games, lost_fee, table_fee, owed, prize, net in self.doc.dues:
            values = [
                self.fit(self.clean(name), self.columns[0].width - 3),
                format_euro(entry),
                str(lost_games),
                format_euro(lost_fee),
                format_euro(table_fee),
                format_euro(owed),
                format_euro(prize) if prize else "–",
                format_euro(net),
            ]
            self.table_row(self.columns, values, ROW_H, size=8.5, bold_columns=frozenset({5, 7}))
        self.end_table()
        self.font(7.5)
        self.color(GREY_TEXT)
        self.set_x(self.l_margin)
        self.multi_cell(
            self.content_width, 3.6,
            "Verl. = verlorene Spiele aller Serien. Saldo = Preis − zu zahlen "
            f"(positiv: bekommt ausgezahlt, {MINUS}: zahlt an die Kasse).",
        )  # fmt: skip
        self.color(BLACK)


def render_cash(doc: CashDocument) -> tuple[bytes, set[str]]:
    """Render the cash report. Returns the PDF bytes and the names that lost characters."""
    pdf = _CashPDF(doc)
    pdf.header_block()
    income = pdf.account("Einnahmen", doc.income, "Summe Einnahmen")
    paid = pdf.account("Auszahlungen (Preise)", doc.payouts, "Summe Auszahlungen")
    pdf.set_y(pdf.get_y() + 2)
    pdf.total_line("Saldo (Einnahmen − Auszahlungen)", income - paid, size=11)
    pdf.dues_table()
    lost = {d[0] for d in doc.dues if printable(d[0])[1]}
    return bytes(pdf.output()), lost
