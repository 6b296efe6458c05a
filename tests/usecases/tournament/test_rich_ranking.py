"""/rangliste as a table says what its text form says: which tournament it shows, each
player's average and series where they count, and nothing twice."""

from __future__ import annotations

from tests.harness import Harness
from tests.helpers import ok
from tests.usecases.forms import row_of, table_form, tables, text_form
from tests.usecases.tournament.test_tournament_chat import (
    ORGANISER,
    draw,
    results_message,
    setup_tournament,
)

NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav"]


async def two_series(chat: Harness, *, rules: str = "") -> None:
    """Two series; Hanna joins for the second (so she has 1 of 2). Nobody loses a game:
    a score is points + 50 (one game won): Anna 0 + 50, Bernd 10 + 50, … Gustav 60 + 50."""
    await setup_tournament(chat, names=NAMES)
    if rules:
        await ok(chat, rules, **ORGANISER)  # type: ignore[arg-type]
    await draw(chat)
    first = {n: (10 * i, 1, 0) for i, n in enumerate(NAMES)}
    await ok(chat, results_message(first), "komplett", **ORGANISER)  # type: ignore[arg-type]
    await ok(chat, "/teilnehmer Hanna", **ORGANISER)  # type: ignore[arg-type]
    await draw(chat, seed="123456")
    second = {n: (10 * i, 1, 0) for i, n in enumerate([*NAMES, "Hanna"])}
    await ok(chat, results_message(second), "komplett", **ORGANISER)  # type: ignore[arg-type]


async def test_a_missed_series_shows_in_the_table(chat: Harness) -> None:
    await two_series(chat)
    text = await text_form(chat, "/rangliste")
    assert "7. Hanna – 120 Punkte · 1 gewonnen, 0 verloren · 1 von 2 Serien" in text, text
    [table] = tables(await table_form(chat, "/rangliste"))
    assert table[0] == ["Platz", "Spieler", "Punkte", "gew.", "verl.", "Serien"]
    assert row_of(table, "7.") == {
        "Platz": "7.", "Spieler": "Hanna", "Punkte": "120", "gew.": "1", "verl.": "0",
        "Serien": "1 von 2",
    }  # fmt: skip
    assert row_of(table, "1.")["Serien"] == "2"


async def test_the_average_and_the_shown_tournament_in_the_table(chat: Harness) -> None:
    await two_series(chat, rules="/turnierregeln schnitt mindestens 2")
    await ok(chat, "/turnier ende", **ORGANISER)  # type: ignore[arg-type]
    await ok(chat, "/turnier ende ja", "ist beendet", **ORGANISER)  # type: ignore[arg-type]
    text = await text_form(chat, "/rangliste")
    shown = "ℹ️ Gezeigt: Turnier 1 „Preisskat Vereinsheim“ vom "
    assert shown in text and "(beendet)" in text, text
    last = "7. Anna – 100 Punkte · 2 gewonnen, 0 verloren · Schnitt 50 aus 2 Serien"
    assert last in text, text
    seen = await table_form(chat, "/rangliste")
    lines = seen.text.split("\n")
    # which tournament: under the title, as in the text form
    assert lines[1].startswith(shown) and lines[1].endswith("(beendet)"), seen.text
    assert last not in seen.text  # the last player once, as a row
    [table] = tables(seen)
    assert table[0] == ["Platz", "Spieler", "Punkte", "gew.", "verl.", "Schnitt", "Serien"]
    assert row_of(table, "1.")["Spieler"] == "Gustav"
    assert [row_of(table, "1.")[c] for c in ("Schnitt", "Serien")] == ["110", "2"]
    assert [row_of(table, "7.")[c] for c in ("Schnitt", "Serien")] == ["50", "2"]
    assert "Nicht gewertet (weniger als 2 Serien): Hanna" in lines


async def test_a_full_ranking_has_no_series_column(chat: Harness) -> None:
    """Everyone played every series, counted as a sum: the text names no series per
    player, the table has no column for them."""
    await setup_tournament(chat, names=NAMES)
    await draw(chat)
    first = {n: (10 * i, 1, 0) for i, n in enumerate(NAMES)}
    await ok(chat, results_message(first), "komplett", **ORGANISER)  # type: ignore[arg-type]
    assert "Serien" not in (await text_form(chat, "/rangliste")).split("\n", 1)[1]
    [table] = tables(await table_form(chat, "/rangliste"))
    assert table[0] == ["Platz", "Spieler", "Punkte", "gew.", "verl."]
