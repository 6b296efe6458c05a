"""The Preisskat desk's words: each result of its use cases as the chat reads it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from html import escape

from skatbot.rules import tournament as tr
from skatbot.usecases.common import texts as common_texts
from skatbot.usecases.common import wording
from skatbot.usecases.common.reply import Reply


@dataclass(frozen=True)
class SeriesLengths:
    games_3: int
    games_4: int
    changed: bool


@wording.reply_of.register
def _(result: SeriesLengths) -> Reply:
    games = f"{common_texts.games(result.games_3)} am Dreiertisch, {result.games_4} am Vierertisch"
    if result.changed:
        return Reply(f"📏 Serienlänge jetzt: {games}.")
    return Reply(f"📏 Serienlänge: {games}.\nÄndern: /serienlaenge 36 48")


# --- /turnierregeln ---------------------------------------------------------------------------


def counting_line(counting: tr.Counting) -> str:
    if counting.average:
        return (
            f"Gezählt: Schnitt je gespielter Serie, gewertet ab "
            f"{common_texts.series_count(counting.minimum)} (/turnierregeln)."
        )
    return "Gezählt: Summe aller Serien, eine fehlende Serie zählt 0 (/turnierregeln)."


@dataclass(frozen=True)
class Counting:
    tournament: str  # its name
    counting: tr.Counting
    changed: bool


@wording.reply_of.register
def _(result: Counting) -> Reply:
    if result.changed:
        return Reply(f"✅ {counting_line(result.counting)}\nDie Rangliste folgt sofort: /rangliste")
    return Reply(
        f"📐 <b>Zählweise – {escape(result.tournament)}</b>\n{counting_line(result.counting)}\n"
        "Ändern: /turnierregeln summe oder /turnierregeln schnitt mindestens 2"
    )


# --- /teamwertung -----------------------------------------------------------------------------


def team_scoring(best: int | None) -> str:
    """How a team's members count: all of them, or its best ``best``."""
    if best is None:
        return "Teamwertung: Summe aller Mitglieder"
    return f"Teamwertung: die besten {best} je Team"


class Change(Enum):
    NONE = "shown"  # only asked
    SAME = "unchanged"  # set to what it was
    DONE = "changed"


@dataclass(frozen=True)
class TeamScoring:
    best: int | None
    change: Change


@wording.reply_of.register
def _(result: TeamScoring) -> Reply:
    scoring = team_scoring(result.best)
    if result.change is Change.DONE:
        return Reply(f"🏅 {scoring}. Die /rangliste zeigt sie neben der Einzelwertung.")
    if result.change is Change.SAME:
        return Reply(f"🏅 {scoring} – unverändert.")
    return Reply(f"🏅 {scoring}.\nÄndern: /teamwertung summe · /teamwertung beste 3")
