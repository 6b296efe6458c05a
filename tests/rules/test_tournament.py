"""Preisskat (docs/rules.md §7): table plan, seeded draw, partner repeats, results, standings."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules.ranking import Standing, lot_key
from skatbot.rules.tournament import (
    CANDIDATES,
    SeriesResult,
    TournamentError,
    draw,
    missing_results,
    partner_repeats,
    repeat_meetings,
    seed_from_int,
    series_scores,
    shuffle,
    table_sizes,
    tournament_standings,
    validate_seed,
    validate_table_results,
)

NAMES_40 = [
    "Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela", "Horst", "Ilse", "Jürgen",
    "Karin", "Lothar", "Monika", "Norbert", "Olga", "Peter", "Queenie", "Rainer", "Sabine",
    "Thomas", "Ute", "Volker", "Waltraud", "Xaver", "Yvonne", "Zacharias", "Ælfrida", "Łukasz",
    "Şahin", "Đorđe", "Ärmin", "Öskar", "Übel", "anna", "bernd", "Σοφία", "Дмитрий", "O'Neil",
    "Marie-Luise", "van Dyk",
]  # fmt: skip


def people(n: int) -> list[str]:
    return [f"Spieler {i:04d}" for i in range(n)]


# --------------------------------------------------------------------------- table plan


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
        (40, [4] * 10),
        (41, [4] * 8 + [3] * 3),
    ],
)
def test_table_sizes_examples(n: int, sizes: list[int]) -> None:
    assert table_sizes(n) == sizes


def max_fours(n: int) -> int | None:
    """Brute force: the largest number of 4-tables with the rest in 3-tables."""
    for fours in range(n // 4, -1, -1):
        if (n - 4 * fours) % 3 == 0:
            return fours
    return None


@pytest.mark.parametrize("n", range(3, 41))
def test_table_sizes_3_to_40(n: int) -> None:
    if n == 5:
        with pytest.raises(TournamentError):
            table_sizes(n)
        return
    sizes = table_sizes(n)
    assert sum(sizes) == n
    assert sizes.count(4) == max_fours(n)
    assert sizes == sorted(sizes, reverse=True)


def test_table_sizes_loop_3_to_1000() -> None:
    for n in range(3, 1001):
        if n == 5:
            continue
        sizes = table_sizes(n)
        assert sum(sizes) == n, n
        assert set(sizes) <= {3, 4}, n
        assert sizes.count(4) == max_fours(n), n
        assert sizes.count(3) <= 3, n
        assert sizes == [4] * sizes.count(4) + [3] * sizes.count(3)


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 5])
def test_table_sizes_impossible(n: int) -> None:
    with pytest.raises(TournamentError) as err:
        table_sizes(n)
    assert err.value.message == str(err.value)
    assert "–" in err.value.message  # names the fix after the dash


def test_table_sizes_five_message() -> None:
    with pytest.raises(TournamentError) as err:
        table_sizes(5)
    assert err.value.message == (
        "Mit 5 Teilnehmern geht keine Tischeinteilung auf – nimm eine Person dazu "
        "(6 = 2 Dreiertische) oder spiele mit 4."
    )


# --------------------------------------------------------------------------- seeds


def test_seed_from_int() -> None:
    assert seed_from_int(0) == "0"
    assert seed_from_int(482913) == "482913"
    with pytest.raises(ValueError):
        seed_from_int(-1)


@pytest.mark.parametrize("bad", ["", "   ", "a b", "a/b", "x" * 65])
def test_bad_seeds(bad: str) -> None:
    with pytest.raises(TournamentError):
        validate_seed(bad)
    with pytest.raises(TournamentError):
        draw(people(8), bad, 1)


def test_seed_is_stripped() -> None:
    assert validate_seed(" 4711 ") == "4711"
    assert draw(people(8), " 4711 ", 1) == draw(people(8), "4711", 1)


# --------------------------------------------------------------------------- the draw


def reference_draw_series_1(names: list[str], seed: str) -> list[list[str]]:
    """The snippet of docs/preisskat.md: recomputes series 1 with nothing but hashlib."""
    a = sorted(names, key=lambda s: (s.casefold(), s))
    for i in range(len(a) - 1, 0, -1):
        h = hashlib.sha256(f"{seed}/1/0/{i}".encode()).digest()
        j = int.from_bytes(h[:8], "big") % (i + 1)
        a[i], a[j] = a[j], a[i]
    threes = (-len(a)) % 4  # 4-tables first, then 0..3 three-tables
    sizes = [4] * ((len(a) - 3 * threes) // 4) + [3] * threes
    tables, pos = [], 0
    for size in sizes:
        tables.append(a[pos : pos + size])
        pos += size
    return tables


@pytest.mark.parametrize("n", [3, 4, 6, 7, 9, 13, 17, 40])
@pytest.mark.parametrize("seed", ["0", "4711", "Vereinsmeisterschaft2026", "ÄÖÜ-ß"])
def test_series_1_matches_reference_snippet(n: int, seed: str) -> None:
    names = NAMES_40[:n]
    assert draw(names, seed, 1) == reference_draw_series_1(names, seed)


def reference_draw(
    names: Sequence[str], seed: str, series: int, previous: Sequence[Sequence[Sequence[str]]]
) -> list[list[str]]:
    """Straight transcription of the module docstring (slow, no shortcuts)."""
    met: Counter[frozenset[str]] = Counter()
    for earlier in previous:
        for table in earlier:
            for x, y in itertools.combinations(table, 2):
                met[frozenset((x, y))] += 1

    def conf(x: str, table: Sequence[str]) -> int:
        return sum(met[frozenset((x, y))] for y in table if y != x)

    def cost(tables: Sequence[Sequence[str]]) -> int:
        return sum(met[frozenset((x, y))] for t in tables for x, y in itertools.combinations(t, 2))

    sizes = table_sizes(len(names))
    best: list[list[str]] | None = None
    best_cost = 0
    for k in range(CANDIDATES):
        a = shuffle(sorted(names, key=lambda s: (s.casefold(), s)), f"{seed}/{series}/{k}")
        tables: list[list[str]] = [
            a[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))
        ]
        positions = [(t, s) for t in range(len(tables)) for s in range(len(tables[t]))]
        changed = True
        while changed:
            changed = False
            for t, s in positions:
                p = tables[t][s]
                c = conf(p, tables[t])
                if c == 0:
                    continue
                best_delta, target = 0, None
                for u, b in positions:
                    if u == t:
                        continue
                    q = tables[u][b]
                    delta = (
                        conf(p, [y for y in tables[u] if y != q])
                        + conf(q, [y for y in tables[t] if y != p])
                        - c
                        - conf(q, tables[u])
                    )
                    if delta < best_delta:
                        best_delta, target = delta, (u, b)
                if target is not None:
                    u, b = target
                    tables[t][s], tables[u][b] = tables[u][b], tables[t][s]
                    changed = True
        c = cost(tables)
        if best is None or c < best_cost:
            best, best_cost = tables, c
        if c == 0:
            break
    assert best is not None
    return best


@pytest.mark.parametrize("n", [6, 7, 9, 12, 13, 16, 22])
@pytest.mark.parametrize("seed", ["1", "4711"])
def test_later_series_match_reference_transcription(n: int, seed: str) -> None:
    names = people(n)
    previous: list[list[list[str]]] = []
    for series in range(1, 5):
        tables = draw(names, seed, series, previous)
        assert tables == reference_draw(names, seed, series, previous), (n, series)
        previous.append(tables)


def test_same_seed_same_tables_in_any_input_order() -> None:
    names = NAMES_40[:23]
    rnd = random.Random(1)
    first = [draw(names, "4711", 1)]
    first.append(draw(names, "4711", 2, first))
    for _ in range(10):
        shuffled = list(names)
        rnd.shuffle(shuffled)
        again = [draw(shuffled, "4711", 1)]
        again.append(draw(tuple(reversed(shuffled)), "4711", 2, again))
        assert again == first


def test_different_seed_different_tables() -> None:
    names = people(12)
    draws = {str(draw(names, str(seed), 1)) for seed in range(20)}
    assert len(draws) == 20
    assert draw(names, "1", 1) != draw(names, "2", 1)
    # and a different series number gives a different draw
    assert draw(names, "1", 1) != draw(names, "1", 2, [draw(names, "1", 1)])


def test_names_differing_only_in_case_are_distinct_and_ordered() -> None:
    names = ["anna", "Anna", "Bernd", "bernd", "Carla", "Dieter", "Erika"]
    tables = draw(names, "7", 1)
    assert sorted(n for t in tables for n in t) == sorted(names)
    assert draw(list(reversed(names)), "7", 1) == tables


def test_duplicate_participant_rejected() -> None:
    with pytest.raises(TournamentError, match="doppelt"):
        draw(["Anna", "Bernd", "Anna", "Carla"], "1", 1)


def test_previous_must_cover_all_earlier_series() -> None:
    names = people(8)
    s1 = draw(names, "1", 1)
    with pytest.raises(ValueError):
        draw(names, "1", 2)
    with pytest.raises(ValueError):
        draw(names, "1", 3, [s1])
    with pytest.raises(ValueError):
        draw(names, "1", 0)


def test_too_few_participants_for_draw() -> None:
    with pytest.raises(TournamentError):
        draw(people(5), "1", 1)


seeds = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc"), blacklist_characters="/"
    ),
    min_size=1,
    max_size=20,
).filter(lambda s: s.strip() == s and not any(ch.isspace() for ch in s))


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 60).filter(lambda n: n != 5), seeds)
def test_everyone_seated_exactly_once_per_series(n: int, seed: str) -> None:
    names = people(n)
    previous: list[list[list[str]]] = []
    for series in (1, 2, 3):
        tables = draw(names, seed, series, previous)
        seated = [name for table in tables for name in table]
        assert sorted(seated) == sorted(names)
        assert [len(t) for t in tables] == table_sizes(n)
        previous.append(tables)


# --------------------------------------------------------------------------- repeats


def plain_series(names: list[str], seed: str, series_count: int) -> list[list[list[str]]]:
    """Independent shuffles per series (no repeat avoidance), for comparison."""
    sizes = table_sizes(len(names))
    out = []
    for s in range(1, series_count + 1):
        a = shuffle(sorted(names), f"{seed}/{s}/0")
        out.append([a[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))])
    return out


def drawn_series(names: list[str], seed: str, series_count: int) -> list[list[list[str]]]:
    out: list[list[list[str]]] = []
    for s in range(1, series_count + 1):
        out.append(draw(names, seed, s, out))
    return out


def test_partner_repeats_counts_pairs() -> None:
    s1 = [["A", "B", "C"], ["D", "E", "F"]]
    s2 = [["A", "B", "D"], ["C", "E", "F"]]
    s3 = [["A", "B", "E"], ["C", "D", "F"]]
    assert partner_repeats([s1]) == 0
    assert partner_repeats([s1, s2]) == 2  # A-B, E-F
    assert partner_repeats([s1, s2, s3]) == 4  # A-B (3x), E-F, C-F, D-F
    assert repeat_meetings([s1, s2, s3]) == 5


@pytest.mark.parametrize("n", [12, 24, 40])
def test_repeats_fewer_than_plain_shuffles(n: int, capsys: pytest.CaptureFixture[str]) -> None:
    names = people(n)
    lines = []
    for series_count in (2, 3):
        ours_total = plain_total = 0
        for seed in range(10):
            ours = partner_repeats(drawn_series(names, str(seed), series_count))
            plain = partner_repeats(plain_series(names, str(seed), series_count))
            assert ours <= plain, (n, series_count, seed)
            ours_total += ours
            plain_total += plain
            if n >= 24:  # plenty of room: no pair needs to meet twice
                assert ours == 0, (n, series_count, seed)
        lines.append(
            f"{n} Teilnehmer, Serien 1-{series_count}: wiederholte Paare im Mittel "
            f"{ours_total / 10:.1f} (Auslosung) gegen {plain_total / 10:.1f} (reiner Zufall)"
        )
    with capsys.disabled():
        print("\n" + "\n".join(lines))


def test_sixteen_players_series_2_without_repeats() -> None:
    names = people(16)
    for seed in range(30):
        tables = drawn_series(names, str(seed), 2)
        assert partner_repeats(tables) == 0, seed


def test_six_players_repeats_minimal() -> None:
    # two 3-tables: by pigeonhole every series-2 table repeats at least one pair
    names = people(6)
    for seed in range(10):
        assert partner_repeats(drawn_series(names, str(seed), 2)) == 2


def test_large_field_repeat_free_for_six_series() -> None:
    names = people(400)
    assert partner_repeats(drawn_series(names, "4711", 6)) == 0


# --------------------------------------------------------------------------- results


def test_validate_table_results_accepts_good_input() -> None:
    table = ["Anna", "Bernd", "Carla"]
    validate_table_results(
        table,
        [SeriesResult("Anna", 500, 10, 2), SeriesResult("Bernd", -100, 8, 6)],
        36,
    )
    validate_table_results(
        table,
        [
            SeriesResult("Anna", 500, 12, 0),
            SeriesResult("Bernd", 0, 12, 0),
            SeriesResult("Carla", 0, 12, 0),
        ],
    )  # exactly 36 at a 3-table
    validate_table_results(
        ["A", "B", "C", "D"], [SeriesResult(n, 0, 12, 0) for n in "ABCD"]
    )  # 48 at a 4-table


def test_validate_table_results_too_many_games() -> None:
    table = ["Anna", "Bernd", "Carla"]
    with pytest.raises(TournamentError) as err:
        validate_table_results(
            table,
            [
                SeriesResult("Anna", 500, 12, 1),
                SeriesResult("Bernd", 0, 12, 0),
                SeriesResult("Carla", 0, 12, 0),
            ],
        )
    assert "37 Spiele" in err.value.message and "nur 36" in err.value.message
    with pytest.raises(TournamentError):
        validate_table_results(["A", "B", "C", "D"], [SeriesResult("A", 0, 49, 0)])
    with pytest.raises(TournamentError):
        validate_table_results(table, [SeriesResult("Anna", 0, 20, 5)], games_per_series=24)


def test_validate_table_results_other_errors() -> None:
    table = ["Anna", "Bernd", "Carla"]
    with pytest.raises(TournamentError, match="Dieter"):
        validate_table_results(table, [SeriesResult("Dieter", 0, 1, 1)])
    with pytest.raises(TournamentError, match="negativ"):
        validate_table_results(table, [SeriesResult("Anna", 0, -1, 1)])
    with pytest.raises(TournamentError, match="negativ"):
        validate_table_results(table, [SeriesResult("Anna", 0, 1, -1)])
    with pytest.raises(TournamentError, match="doppelt"):
        validate_table_results(
            table, [SeriesResult("Anna", 0, 1, 1), SeriesResult("Anna", 0, 1, 1)]
        )


def test_seeger_fabian_worked_example() -> None:
    # docs/rules.md §5: 437 points, 12 won, 3 lost, the others lost 6 at a 4-table → 1067
    table = ["Anna", "Bernd", "Carla", "Dieter"]
    results = {
        "Anna": SeriesResult("Anna", 437, 12, 3),
        "Bernd": SeriesResult("Bernd", 100, 5, 2),
        "Carla": SeriesResult("Carla", 0, 0, 4),
        "Dieter": SeriesResult("Dieter", 20, 1, 0),
    }
    scores = series_scores([table], results)
    assert scores["Anna"] == Standing("Anna", 1067, 12, 3)
    # Bernd: 100 + 3 × 50 + (3 + 4 + 0) × 30
    assert scores["Bernd"].score == 100 + 150 + 7 * 30
    assert scores["Carla"].score == 0 - 200 + 5 * 30
    assert scores["Dieter"].score == 20 + 50 + 9 * 30


def test_series_scores_three_table_uses_40() -> None:
    results = {
        "A": SeriesResult("A", 437, 12, 3),
        "B": SeriesResult("B", 0, 0, 6),
        "C": SeriesResult("C", 0, 0, 0),
    }
    scores = series_scores([["A", "B", "C"]], results)
    assert scores["A"].score == 437 + 9 * 50 + 6 * 40
    assert scores["C"].score == 9 * 40


def test_series_scores_errors_and_config() -> None:
    tables = [["A", "B", "C"], ["D", "E", "F"]]
    results = {n: SeriesResult(n, 0, 1, 0) for n in "ABCDE"}
    with pytest.raises(TournamentError, match="F"):
        series_scores(tables, results)
    assert missing_results(tables, results) == ["F"]
    assert missing_results(tables, {}) == list("ABCDEF")
    results["F"] = SeriesResult("F", 0, 1, 0)
    assert missing_results(tables, results) == []
    assert len(series_scores(tables, results)) == 6
    results["X"] = SeriesResult("X", 0, 0, 0)
    with pytest.raises(TournamentError, match="X"):
        series_scores(tables, results)
    del results["X"]
    results["A"] = SeriesResult("A", 0, 30, 0)
    with pytest.raises(TournamentError):
        series_scores(tables, results, {3: 24, 4: 32})
    assert series_scores(tables, results)["A"].won == 30


def test_tournament_standings_sum_and_ties() -> None:
    s1 = {
        "Anna": Standing("Anna", 1000, 10, 2),
        "Bernd": Standing("Bernd", 900, 9, 2),
        "Carla": Standing("Carla", 500, 5, 5),
    }
    s2 = {
        "Anna": Standing("Anna", 100, 1, 3),
        "Bernd": Standing("Bernd", 200, 2, 3),
        "Carla": Standing("Carla", 600, 6, 0),
    }
    ranked = tournament_standings([s1, s2], "4711")
    totals = {r.standing.name: r.standing for r in ranked}
    assert totals["Anna"] == Standing("Anna", 1100, 11, 5)
    assert totals["Bernd"] == Standing("Bernd", 1100, 11, 5)
    assert totals["Carla"] == Standing("Carla", 1100, 11, 5)
    assert [r.standing.name for r in ranked] == sorted(
        ["Anna", "Bernd", "Carla"], key=lambda n: lot_key("4711", n)
    )
    assert all(r.by_lot for r in ranked)


def test_full_tournament_flow() -> None:
    names = NAMES_40[:13]
    seed = "2026"
    rnd = random.Random(0)
    all_tables: list[list[list[str]]] = []
    series_standings = []
    for series in (1, 2, 3):
        tables = draw(names, seed, series, all_tables)
        all_tables.append(tables)
        results = {}
        for table in tables:
            games = 48 if len(table) == 4 else 36
            for name in table:
                won = rnd.randint(0, games // len(table) // 2)
                lost = rnd.randint(0, games // len(table) // 2)
                results[name] = SeriesResult(name, rnd.randint(-300, 900), won, lost)
        series_standings.append(series_scores(tables, results))
    ranked = tournament_standings(series_standings, seed)
    assert sorted(r.standing.name for r in ranked) == sorted(names)
    assert [r.place for r in ranked] == list(range(1, 14))
