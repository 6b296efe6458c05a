"""The tournament ranking ("Rangliste") over all complete series as an A4 PDF.

Pure layout: the caller computes the places (docs/rules.md §5: score, won, lost, then the lot drawn
from the tournament seed) and the German lot note; this module only draws them.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from skatbot.pdf.base import (
    BLACK,
    GREY_TEXT,
    GRID,
    HEADER_FILL,
    LOT_MARK,
    LOT_TEXT,
    Column,
    SkatPDF,
    format_date,
    format_date_long,
    format_number,
)
from skatbot.pdf.fonts import printable

ROW_H = 5.5
HEAD_H = 6.5
KEEP_ROWS = 3
"""So many last rows stay on one page with the notes below the table."""
NOTES_GAP = 3.0
LOT_LINE_H = 4.5
TIE_RULE = (
    "Bei Gleichstand entscheiden mehr gewonnene Spiele, dann weniger verlorene Spiele, "
    "dann das Los. Das Los ergibt sich fest aus dem Startwert des Turniers "
    "(SHA-256 von Startwert und Name, der kleinere Wert gewinnt) und ist nachrechenbar."
)


@dataclass(frozen=True)
class RankingRow:
    """One line of the ranking as the handler computed it."""

    place: int
    name: str
    score: int  # Seeger-Fabian total over the counted series
    won: int
    lost: int
    by_lot: bool  # the lot decided between this entry and a neighbour


@dataclass(frozen=True)
class TeamRow:
    """One line of the team ranking as the use case computed it."""

    place: int
    team: str
    score: int
    members: str  # the counted members with their scores, e.g. "Anna 1.200 · Bernd 1.145"
    not_counted: str = ""  # best-K mode: the others, same form


TEAM_TIE_RULE = "Bei gleicher Teamwertung entscheidet der bessere Einzelplatz des besten Mitglieds."


def _series_text(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"Serie {numbers[0]}"
    return "Serien " + ", ".join(map(str, numbers))


SUM_SCORING = "Wertung: Summe der Seeger-Fabian-Wertungen aller gewerteten Serien."


class _RankingPDF(SkatPDF):
    def __init__(
        self,
        tournament: str,
        date: datetime.date,
        held: datetime.date | None = None,
        scoring: str = "",
    ) -> None:
        super().__init__(
            f"Rangliste – {tournament}",
            subject="Rangliste",
            footer_label=f"Rangliste – {tournament} · {format_date(held or date)}",
        )
        self.tournament = self.clean(tournament)
        self.date = date
        self.held = held
        self.scoring = scoring or SUM_SCORING
        name_w = self.content_width - 16 - 26 - 22 - 22
        self.columns = [
            Column("Platz", 16, "R"),
            Column("Name", name_w),
            Column("Wertung", 26, "R"),
            Column("gewonnen", 22, "R"),
            Column("verloren", 22, "R"),
        ]

    def header_block(self, counted: Sequence[int], missing: Sequence[int]) -> None:
        n = len(counted)
        series = "1 Serie" if n == 1 else f"{n} Serien"
        notes = [f"Stand: {format_date_long(self.date)}"]
        if self.held is not None:
            notes.insert(0, f"Turnier vom {format_date_long(self.held)}")
        if counted:
            notes.append(f"Gewertet: {_series_text(counted)}")
        if missing:
            verb = "ist" if len(missing) == 1 else "sind"
            notes.append(f"{_series_text(missing)} {verb} noch unvollständig und nicht gewertet.")
        notes.append(self.scoring)
        self.title_block(self.tournament, f"Rangliste nach {series}", notes)

    def table_header(self) -> None:
        y0 = self.get_y()
        self.header_row(self.columns, HEAD_H, size=8.5, fill=HEADER_FILL)
        y = self.get_y()
        x = self.l_margin
        for column in self.columns[:-1]:
            x += column.width
            self.line(x, y0, x, y)
        self.header_rule(y)

    def ranking_row(self, index: int, row: RankingRow, keep_with: float = 0.0) -> None:
        """One table row; ``keep_with`` mm below it must fit on the same page as well."""
        self.ensure_row_space(ROW_H + keep_with)
        cols = self.columns
        x0, y0 = self.l_margin, self.get_y()
        x = self.place_and_name(cols, index, ROW_H, row.place, row.name, row.by_lot)
        self.font(9, bold=True)
        self.put(x, y0, cols[2].width, ROW_H, format_number(row.score), "R")
        x += cols[2].width
        self.font(9)
        self.put(x, y0, cols[3].width, ROW_H, format_number(row.won), "R")
        x += cols[3].width
        self.put(x, y0, cols[4].width, ROW_H, format_number(row.lost), "R")
        # grid: outer and column lines, line below the row
        self.set_draw_color(*GRID)
        self.set_line_width(0.15)
        x = x0
        self.line(x, y0, x, y0 + ROW_H)
        for column in cols:
            x += column.width
            self.line(x, y0, x, y0 + ROW_H)
        self.line(x0, y0 + ROW_H, x0 + self.content_width, y0 + ROW_H)
        self.set_xy(x0, y0 + ROW_H)

    def ranking_table(self, rows: Sequence[RankingRow], notes_height: float) -> None:
        """The table; the last rows stay on one page with the notes below them."""
        self.begin_table(self.table_header, ROW_H)
        if not rows:
            self.font(9)
            self.color(GREY_TEXT)
            self.set_x(self.l_margin)
            self.cell(self.content_width, ROW_H, "Noch keine gewertete Serie.", align="C")
            self.ln(ROW_H)
            self.color(BLACK)
        keep = len(rows) - KEEP_ROWS
        for index, row in enumerate(rows):
            remaining = len(rows) - index - 1
            self.ranking_row(index, row, remaining * ROW_H + notes_height if index == keep else 0.0)
        self.end_table()

    def notes_height(self, note: str, any_lot: bool) -> float:
        """The height :meth:`notes` will take (when it fits in the page's remaining space)."""
        width = self.content_width
        height = NOTES_GAP + (LOT_LINE_H if any_lot else 0.0)
        if note:
            self.font(8.5, bold=True)
            height += 4.2 * self._line_count(self.clean(note), width) + 1
        self.font(8)
        return height + 3.8 * self._line_count(TIE_RULE, width)

    def _line_count(self, text: str, width: float) -> int:
        """Lines ``multi_cell`` needs for ``text`` in the current font."""
        lines = self.multi_cell(width, 4, text, dry_run=True, output="LINES")
        return len(lines) if isinstance(lines, list) else 1

    def notes(self, note: str, any_lot: bool) -> None:
        self.set_y(self.get_y() + NOTES_GAP)
        if self.space_left() < self.notes_height(note, any_lot) - NOTES_GAP:
            self.add_page()
        width = self.content_width
        if any_lot:
            self.font(8)
            self.color(LOT_TEXT)
            self.set_x(self.l_margin)
            self.cell(width, 4, f"{LOT_MARK} = Platz durch Los entschieden.")
            self.ln(LOT_LINE_H)
        if note:
            self.font(8.5, bold=True)
            self.color(BLACK)
            self.set_x(self.l_margin)
            self.multi_cell(width, 4.2, self.clean(note))
            self.ln(1)
        self.font(8)
        self.color(GREY_TEXT)
        self.set_x(self.l_margin)
        self.multi_cell(width, 3.8, TIE_RULE)
        self.color(BLACK)

    def team_table(self, rows: Sequence[TeamRow], mode: str) -> None:
        """The team ranking below the individual one: Platz | Team | Wertung | Mitglieder."""
        self.heading("Teamwertung", size=12, gap_before=6)
        self.font(9)
        self.color(GREY_TEXT)
        self.text_line(f"{mode} · {TEAM_TIE_RULE}", 5, 9)
        self.color(BLACK)
        self.set_y(self.get_y() + 1.5)
        team_w = 50.0
        members_w = self.content_width - 16 - team_w - 26
        columns = [
            Column("Platz", 16, "R"),
            Column("Team", team_w),
            Column("Wertung", 26, "R"),
            Column("Gewertet (nicht gewertet)", members_w),
        ]

        def header() -> None:
            self.header_row(columns, HEAD_H, size=8.5, fill=HEADER_FILL)
            self.header_rule(self.get_y())

        self.begin_table(header, ROW_H)
        for index, row in enumerate(rows):
            text = self.clean(row.members)
            if row.not_counted:
                text += f" ({self.clean(row.not_counted)})"
            team = self.clean(row.team)
            height = max(
                ROW_H,
                self.block_height(text, members_w - 3, 8.5, 7) + 1.5,
                self.block_height(team, team_w - 3, 9, 7) + 1.5,
            )
            self.ensure_row_space(height)
            x0, y0 = self.l_margin, self.get_y()
            x = self.place_and_name(columns, index, height, row.place, "", False)
            self.put_fitted(x - team_w, y0, team_w, height, team, size=9, min_size=7)
            self.font(9, bold=True)
            self.put(x, y0, columns[2].width, height, format_number(row.score), "R")
            x += columns[2].width
            self.color(BLACK)
            self.put_fitted(x, y0, members_w, height, text, size=8.5, min_size=7)
            self.set_draw_color(*GRID)
            self.set_line_width(0.15)
            x = x0
            self.line(x, y0, x, y0 + height)
            for column in columns:
                x += column.width
                self.line(x, y0, x, y0 + height)
            self.line(x0, y0 + height, x0 + self.content_width, y0 + height)
            self.set_xy(x0, y0 + height)
        self.end_table()


def render_ranking(
    tournament: str,
    date: datetime.date,
    rows: list[RankingRow],
    note: str,
    counted_series: list[int],
    missing_series: list[int],
    teams: Sequence[TeamRow] = (),
    team_mode: str = "",
    *,
    held: datetime.date | None = None,
    scoring: str = "",
) -> tuple[bytes, set[str]]:
    """Render the ranking: header, a table Platz | Name | Wertung | gewonnen | verloren (its
    header repeated on every page) and the lot note below; with ``teams`` the team ranking
    follows (``team_mode`` says how it counts, e.g. "Summe aller Mitglieder").

    Returns the PDF bytes and the (original) names that lost characters in the PDF because
    the embedded font cannot draw them (emoji). ``held``: the tournament's date (its title
    block and footer carry it); ``scoring``: how it counts (default: the sum)."""
    pdf = _RankingPDF(tournament, date, held, scoring)
    pdf.header_block(counted_series, missing_series)
    any_lot = any(r.by_lot for r in rows)
    notes_height = pdf.notes_height(note, any_lot)
    # Keep the last rows with the notes unless the notes alone need most of a page.
    if notes_height > pdf.bottom - pdf.t_margin - HEAD_H - 20 * ROW_H:
        notes_height = 0.0
    pdf.ranking_table(rows, notes_height)
    pdf.notes(note, any_lot)
    if teams:
        pdf.team_table(teams, team_mode)
    lost = {r.name for r in rows if printable(r.name)[1]}
    lost |= {r.team for r in teams if printable(r.team)[1]}
    return bytes(pdf.output()), lost
