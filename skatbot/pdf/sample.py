"""Deterministic example data for the PDF documents (tests, benchmark, docs/sample-list).

This is NOT the rules engine: game values are taken from a fixed table of realistic games and
the Seeger-Fabian totals are computed with the plain formula, just enough for a plausible list.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field

from skatbot.pdf.base import format_number
from skatbot.pdf.model import PlayerTotal, SeriesDocument, SheetRow

# (text, value) of games that really occur; values per ISkO.
GAMES: tuple[tuple[str, int], ...] = (
    ("Karo mit 1", 18),
    ("Herz ohne 1", 20),
    ("Pik mit 1", 22),
    ("Kreuz mit 1", 24),
    ("Kreuz ohne 2", 36),
    ("Pik ohne 2 Hand", 44),
    ("Herz mit 3", 40),
    ("Grand mit 1", 48),
    ("Grand ohne 1 Hand", 72),
    ("Grand mit 2 Schneider", 96),
    ("Null", 23),
    ("Null Hand", 35),
    ("Null ouvert", 46),
    ("Kreuz mit 2 Schneider", 48),
    ("Karo ohne 3 Hand Schneider angesagt", 63),
)
BIDS = (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66)

DEFAULT_PLAYERS = ("Anna", "Łukasz", "Σοφία", "Юрий")


@dataclass
class _Sheet:
    players: list[str]
    table_size: int
    rows: list[SheetRow] = field(default_factory=list)
    running: dict[str, int] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    nr: int = 0

    def __post_init__(self) -> None:
        for p in self.players:
            self.running[p] = 0
            self.won[p] = 0
            self.lost[p] = 0

    def dealer(self, nr: int) -> str:
        return self.players[(nr - 1) % len(self.players)]

    def declarer(self, rng: random.Random, nr: int) -> str:
        candidates = [p for p in self.players if p != self.dealer(nr) or len(self.players) == 3]
        return rng.choice(candidates)

    def book(
        self,
        declarer: str | None,
        text: str,
        bid: int | None,
        value: int | None,
        won: bool | None,
        note: str = "",
        overbid: bool = False,
    ) -> SheetRow:
        self.nr += 1
        bookings: dict[str, int] = {}
        if declarer is not None and value is not None:
            points = value if won else -2 * value
            bookings[declarer] = points
            self.running[declarer] += points
            (self.won if won else self.lost)[declarer] += 1
        row = SheetRow(
            nr=self.nr,
            dealer=self.dealer(self.nr),
            text=text,
            bid=bid,
            value=value,
            bookings=bookings,
            running=dict(self.running),
            struck=False,
            note=note,
            overbid=overbid,
            won=won,
        )
        self.rows.append(row)
        return row

    def struck(self, declarer: str, text: str, bid: int, value: int, won: bool, note: str) -> None:
        """A wrong entry for the next game number, struck through (running sums unchanged)."""
        self.rows.append(
            SheetRow(
                nr=None,
                dealer=self.dealer(self.nr + 1),
                text=text,
                bid=bid,
                value=value,
                bookings={declarer: value if won else -2 * value},
                running=dict(self.running),
                struck=True,
                note=note,
                won=won,
            )
        )

    def totals(self) -> list[PlayerTotal]:
        factor = 40 if self.table_size == 3 else 30
        result = []
        for p in self.players:
            others = sum(self.lost[q] for q in self.players if q != p)
            gp, w, lo = self.running[p], self.won[p], self.lost[p]
            score = gp + 50 * (w - lo) + factor * others
            steps = (
                f"{format_number(gp)} + 50 × ({w} − {lo}) + {factor} × {others}"
                f" = {format_number(score)}"
            )
            result.append(PlayerTotal(p, gp, w, lo, others, score, steps))
        return result


def _random_game(rng: random.Random) -> tuple[str, int, int, bool]:
    text, value = rng.choice(GAMES)
    bid = rng.choice([b for b in BIDS if b <= value])
    won = rng.random() < 0.78
    return text, value, bid, won


def sample_document(
    games: int = 20,
    players: tuple[str, ...] = DEFAULT_PLAYERS,
    seed: int = 7,
    title: str = "Skatliste – Skatrunde Dienstag",
    closed: bool = True,
    with_specials: bool = True,
) -> SeriesDocument:
    """A plausible series with ``games`` valid games.

    With ``with_specials`` it contains (if ``games`` >= 12) a corrected game, a cancelled
    entry, an overbid game and a passed game."""
    rng = random.Random(seed)
    sheet = _Sheet(list(players), len(players))
    special_at = {3: "passed", 5: "correction", 8: "overbid", 11: "cancel"}
    while sheet.nr < games:
        upcoming = sheet.nr + 1
        kind = special_at.get(upcoming) if with_specials and games >= 12 else None
        declarer = sheet.declarer(rng, upcoming)
        if kind == "passed":
            sheet.book(None, "eingepasst", None, None, None)
            continue
        if kind == "overbid":
            # bid 30, Karo mit 1 is only worth 18: lost with 4 × 9 = 36, booked −72
            sheet.book(declarer, "Karo mit 1", 30, 36, False, note="überreizt", overbid=True)
            continue
        text, value, bid, won = _random_game(rng)
        if kind == "correction":
            sheet.struck(declarer, "Herz mit 1", 18, 20, True, f"korrigiert → Spiel {upcoming}")
            sheet.book(declarer, "Herz mit 2", 18, 30, True, note="Korrektur")
            continue
        if kind == "cancel":
            sheet.struck(declarer, text, bid, value, won, "storniert")
        sheet.book(declarer, text, bid, value, won)

    totals = sheet.totals()
    order = sorted(totals, key=lambda t: (-t.score, -t.won, t.lost))
    ranking = [(i, t.name, t.score) for i, t in enumerate(order, start=1)]
    return SeriesDocument(
        title=title,
        date=datetime.date(2025, 11, 25),
        rules="ISkO / Seeger-Fabian",
        players=list(players),
        table_size=len(players),
        rows=sheet.rows,
        totals=totals,
        ranking=ranking,
        closed=closed,
    )
