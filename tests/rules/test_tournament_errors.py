"""TournamentError is a RuleError; Seeger-Fabian is computed in one place.

The texts below are copied from the replies before the change: they must stay byte-identical.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules.errors import RuleError
from skatbot.rules.scoring import Totals, seeger_fabian_score
from skatbot.rules.sheet import LogRow, RowKind, replay
from skatbot.rules.tournament import (
    SeriesResult,
    TournamentError,
    check_series_lengths,
    draw,
    rank_series,
    series_scores,
    table_sizes,
    tournament_standings,
    validate_seed,
    validate_table_results,
)

R = SeriesResult
ABC = ["A", "B", "C"]

# (what raises, the exact text the desk has always answered)
REFUSALS: list[tuple[Callable[[], object], str]] = [
    (
        lambda: table_sizes(0),
        "Noch keine Teilnehmer – trage mit /teilnehmer mindestens 3 Personen ein.",
    ),
    (
        lambda: table_sizes(1),
        "Mit 1 Teilnehmer geht keine Tischeinteilung auf – nimm zwei Personen dazu "
        "(3 = ein Dreiertisch).",
    ),
    (
        lambda: table_sizes(2),
        "Mit 2 Teilnehmern geht keine Tischeinteilung auf – nimm eine Person dazu "
        "(3 = ein Dreiertisch).",
    ),
    (
        lambda: table_sizes(5),
        "Mit 5 Teilnehmern geht keine Tischeinteilung auf – nimm eine Person dazu "
        "(6 = 2 Dreiertische) oder spiele mit 4.",
    ),
    (lambda: validate_seed("  "), "Der Startwert fehlt – z. B. /auslosen 4711."),
    (
        lambda: validate_seed("x" * 65),
        "Der Startwert ist zu lang (höchstens 64 Zeichen) – z. B. /auslosen 4711.",
    ),
    (
        lambda: validate_seed("a/b"),
        "Der Startwert darf keine Leerzeichen und keinen Schrägstrich enthalten – "
        "z. B. /auslosen 4711.",
    ),
    (
        lambda: draw(["Anna", "Bernd", "Anna"], "1", 1),
        "„Anna“ steht doppelt in der Teilnehmerliste – bitte einen Namen ändern.",
    ),
    (
        lambda: draw(["Anna", "Bernd", " "], "1", 1),
        "Ein Teilnehmername ist leer – bitte die Liste prüfen.",
    ),
    (
        lambda: validate_table_results(ABC, [R("D", 0, 1, 1)]),
        "„D“ sitzt nicht an diesem Tisch (A, B, C) – bitte den Namen prüfen.",
    ),
    (
        lambda: validate_table_results(ABC, [R("A", 0, 1, 1), R("A", 0, 1, 1)]),
        "Für „A“ steht das Ergebnis doppelt da – bitte nur einmal eintragen.",
    ),
    (
        lambda: validate_table_results(ABC, [R("A", 0, 20, 1), R("B", 0, 20, 1)]),
        "Am Tisch A, B, C stehen 42 Spiele (gewonnen + verloren), die Serie hat aber nur 36 – "
        "bitte die Zahlen prüfen.",
    ),
    (
        lambda: series_scores([ABC], {"D": R("D", 0, 1, 1)}),
        "„D“ sitzt in dieser Serie an keinem Tisch – bitte den Namen prüfen.",
    ),
    (
        lambda: series_scores([ABC], {"A": R("A", 0, 1, 1)}),
        "Es fehlen noch Ergebnisse von B, C – /ergebnis NAME SPIELPUNKTE GEWONNEN VERLOREN.",
    ),
    # With the series named (what /serienlaenge and /rangliste answer, "Serie N: " in front).
    (
        lambda: validate_table_results(ABC, [R("A", 0, 30, 0)], 24, series=2),
        "Serie 2: Am Tisch A, B, C stehen 30 Spiele (gewonnen + verloren), die Serie hat aber "
        "nur 24 – bitte die Zahlen prüfen.",
    ),
    (
        lambda: series_scores([ABC], {n: R(n, 0, 20, 0) for n in ABC}, series=3),
        "Serie 3: Am Tisch A, B, C stehen 60 Spiele (gewonnen + verloren), die Serie hat aber "
        "nur 36 – bitte die Zahlen prüfen.",
    ),
    (
        lambda: series_scores([ABC], {"A": R("A", 0, 1, 1)}, series=1),
        "Serie 1: Es fehlen noch Ergebnisse von B, C – /ergebnis NAME SPIELPUNKTE GEWONNEN "
        "VERLOREN.",
    ),
]


@pytest.mark.parametrize(("call", "text"), REFUSALS, ids=[t[:40] for _, t in REFUSALS])
def test_tournament_refusals_are_rule_errors_with_unchanged_text(
    call: Callable[[], object], text: str
) -> None:
    with pytest.raises(RuleError) as caught:  # handlers show it as it is, no conversion
        call()
    err = caught.value
    assert isinstance(err, TournamentError)
    assert str(err) == err.message == text
    assert err.hint == ""  # the reply stays one line: "⚠️ problem – fix"
    assert err.fix and text == f"{err.problem} – {err.fix}"  # names what to do


def test_negative_counts_keep_their_text() -> None:
    # Not reachable from the chat (/ergebnis refuses negative numbers first); kept as it was.
    with pytest.raises(TournamentError) as caught:
        validate_table_results(ABC, [R("A", 0, -1, 1)])
    assert caught.value.message == (
        "A: gewonnene und verlorene Spiele können nicht negativ sein "
        "(eingegeben: -1 gewonnen, 1 verloren)."
    )


# --------------------------------------------------------------------------- Seeger-Fabian


def test_spec_worked_example() -> None:
    # docs/rules.md §5: 437 points, 12 won, 3 lost, the others lost 6 at a 4-table → 1067.
    assert seeger_fabian_score(437, 12, 3, 6, 4) == 1067
    totals = Totals("Anna", 437, 12, 3, 6, 4)
    assert totals.score == 1067
    assert totals.steps == "437 + 50 × (12 − 3) + 30 × 6 = 1.067"
    four = ["Anna", "Bernd", "Carla", "Dieter"]
    results = {
        "Anna": R("Anna", 437, 12, 3),
        "Bernd": R("Bernd", 0, 0, 2),
        "Carla": R("Carla", 0, 0, 4),
        "Dieter": R("Dieter", 0, 0, 0),
    }
    assert series_scores([four], results)["Anna"].score == 1067


def test_three_table_bonus() -> None:
    assert seeger_fabian_score(0, 0, 0, 1, 3) == 40
    assert seeger_fabian_score(-120, 1, 2, 0, 3) == -170
    with pytest.raises(ValueError):
        seeger_fabian_score(0, 0, 0, 0, 5)


GAMES = [
    "Grand ohne 1 Hand gewonnen",
    "Grand mit 4 verloren",
    "Kreuz mit 2 verloren",
    "Pik ohne 1 gewonnen",
    "Herz mit 1 Reiz 30 gewonnen",
    "Null ouvert verloren",
    "Null Hand gewonnen",
    "Karo mit 1 Augen 60",
    "Karo ohne 3 Schneider gewonnen",
]


@st.composite
def lists(draw_: st.DrawFn) -> tuple[list[str], list[LogRow]]:
    """A list of 3 or 4 players with random games (some may be refused by the rules)."""
    size = draw_(st.sampled_from([3, 4]))
    players = ["Anna", "Bernd", "Carla", "Dieter"][:size]
    rows = []
    for i in range(draw_(st.integers(0, 48))):
        dealer = i % size
        kind = draw_(st.sampled_from([RowKind.GAME, RowKind.GAME, RowKind.GAME, RowKind.PASS]))
        if kind is RowKind.PASS:
            rows.append(LogRow(i + 1, RowKind.PASS, dealer))
            continue
        declarer = draw_(st.sampled_from([s for s in range(size) if s != dealer or size == 3]))
        rows.append(LogRow(i + 1, RowKind.GAME, dealer, declarer, draw_(st.sampled_from(GAMES))))
    return players, rows


@settings(max_examples=200, deadline=None)
@given(lists())
def test_sheet_totals_agree_with_tournament_series_scores(
    data: tuple[list[str], list[LogRow]],
) -> None:
    """A list played as one tournament table scores the same in both places."""
    players, rows = data
    sheet = replay(players, rows, series_length=len(rows) or 1)
    totals = sheet.totals()
    results = {t.name: R(t.name, t.game_points, t.won, t.lost) for t in totals}
    games = {len(players): max(len(rows), 1)}
    scores = series_scores([players], results, games)
    assert {t.name: t.score for t in totals} == {n: s.score for n, s in scores.items()}
    assert {t.name: (t.won, t.lost) for t in totals} == {
        n: (s.won, s.lost) for n, s in scores.items()
    }


# --------------------------------------------------------------------------- moved from the desk


@dataclass
class Played:
    number: int
    tables: list[list[str]]
    results: dict[str, SeriesResult] = field(default_factory=dict)


def test_rank_series_counts_only_complete_series() -> None:
    one = Played(1, [ABC], {n: R(n, 10 * i, 1, 0) for i, n in enumerate(ABC)})
    two = Played(2, [["C", "A", "B"]], {"A": R("A", 500, 1, 0)})  # B and C missing
    three = Played(3, [["B", "C", "A"]], {n: R(n, 0, 0, 1) for n in ABC})
    r = rank_series([one, two, three], {3: 36, 4: 48}, "s")
    assert (r.complete, r.incomplete) == ([1, 3], [2])
    expected = tournament_standings(
        [series_scores(one.tables, one.results), series_scores(three.tables, three.results)], "s"
    )
    assert r.ranked == expected
    # C: 20 + 50 and 0 − 50 + 40 × 2 → 100
    assert [(x.standing.name, x.standing.score) for x in r.ranked] == [
        ("C", 100),
        ("B", 90),
        ("A", 80),
    ]


def test_check_series_lengths_names_the_series() -> None:
    done = [
        Played(1, [ABC], {"A": R("A", 0, 10, 0)}),
        Played(2, [ABC], {"A": R("A", 0, 20, 0), "B": R("B", 0, 4, 1)}),
    ]
    check_series_lengths(done, {3: 25, 4: 48})  # fits
    with pytest.raises(TournamentError) as caught:
        check_series_lengths(done, {3: 24, 4: 48})
    assert caught.value.message == (
        "Serie 2: Am Tisch A, B, C stehen 25 Spiele (gewonnen + verloren), die Serie hat aber "
        "nur 24 – bitte die Zahlen prüfen."
    )
