"""The game as the table says it (docs/rules.md §3): levels counted aloud, counts as words,
the abbreviations of a paper list, bids as said, points before their word. Every game the
formatter writes reads back as the same game in each of these phrasings; a count that
differs from the computed one is refused, naming both."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules import Announcement, ContradictionError, GameType, GrammarError
from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import (
    ABBREVIATIONS,
    LEVEL_NUMBER_WORDS,
    format_announcement,
    parse_announcement,
    parse_with_notes,
)
from skatbot.rules.value import GameResult, evaluate
from tests.rules.test_properties import announcements

# The written-out word → each abbreviation of it, as the formatter's words are spelt.
SHORT: dict[str, list[str]] = {}
for short, word in ABBREVIATIONS.items():
    SHORT.setdefault(word, []).append(short)
SPOKEN: dict[int, list[str]] = {}
for word, n in LEVEL_NUMBER_WORDS.items():
    SPOKEN.setdefault(n, []).append(word)
COUNTED_WORDS = {"hand": "Hand", "schneider": "Schneider", "schwarz": "Schwarz", "ouvert": "Ouvert"}


def counted_aloud(text: str, result: GameResult, draw: st.DataObject) -> str:
    """``text`` with the levels counted as the table counts them: "ohne 2 spiel 3 hand 4",
    "schneider angesagt 5" or "schneider 4 angesagt 5"; counts in digits or as words."""
    steps = dict(result.levels)

    def n(count: int) -> str:
        return draw.draw(st.sampled_from([str(count), *SPOKEN.get(count, [])]))

    words = text.split()
    out: list[str] = []
    i = 0
    while i < len(words):
        word, low = words[i], words[i].lower()
        nxt = words[i + 1].lower() if i + 1 < len(words) else ""
        if low in ("mit", "ohne"):
            out += [word, words[i + 1], "spiel", n(steps["Spiel"])]
            i += 2
            continue
        if low in ("schneider", "schwarz") and nxt == "angesagt":
            announced = steps[f"{word.capitalize()} angesagt"]
            reached = steps[word.capitalize()]
            out += draw.draw(
                st.sampled_from(
                    [[word, "angesagt", n(announced)], [word, n(reached), "angesagt", n(announced)]]
                )
            )
            i += 2
            continue
        out.append(word)
        if low in COUNTED_WORDS and COUNTED_WORDS[low] in steps:
            out.append(n(steps[COUNTED_WORDS[low]]))
        i += 1
    return " ".join(out)


def said_at_the_table(a: Announcement, draw: st.DataObject) -> str:
    """The canonical text of ``a`` as a table may say it, each phrasing drawn or not."""
    text = format_announcement(a)
    if not a.game.is_null and draw.draw(st.booleans()):
        text = counted_aloud(text, evaluate(a), draw)
    words: list[str] = []
    tokens = text.split()
    i = 0
    while i < len(tokens):
        word, low = tokens[i], tokens[i].lower()
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if low in ("mit", "ohne") and nxt.isdigit():
            count = draw.draw(st.sampled_from([nxt, *SPOKEN[int(nxt)]]))
            words += [draw.draw(st.sampled_from([word, word[0]])), count]
            i += 2
            continue
        if low == "reiz":
            said = draw.draw(st.sampled_from(["reiz", "gereizt", "gereizt bis", "bis", "reizwert"]))
            words += [said, nxt]
            i += 2
            continue
        if low == "augen" and draw.draw(st.booleans()):
            words += [nxt, "augen"]
            i += 2
            continue
        words.append(draw.draw(st.sampled_from([word, *SHORT.get(low, [])])))
        i += 1
    return " ".join(words)


@settings(max_examples=400)
@given(a=announcements(house=True), draw=st.data())
def test_every_phrasing_reads_back_as_the_same_game(a: Announcement, draw: st.DataObject) -> None:
    try:
        evaluate(a)
    except RuleError:
        return  # a game the rules refuse has no count to say
    said = said_at_the_table(a, draw)
    assert parse_announcement(said, house=True) == a, said


@pytest.mark.parametrize(
    ("said", "canonical"),
    [
        ("kreuz ohne 2 spiel 3 hand 4 gewonnen", "Kreuz ohne 2 Hand gewonnen"),
        ("kreuz ohne zwei, spiel drei, hand vier, gewonnen", "Kreuz ohne 2 Hand gewonnen"),
        ("grand mit einem spiel zwei hand drei schneider vier angesagt fünf g",
         "Grand mit 1 Hand Schneider angesagt gewonnen"),
        ("kreuz mit vieren gewonnen", "Kreuz mit 4 gewonnen"),
        ("kreuz mit elfen spiel zwölf hand dreizehn g", "Kreuz mit 11 Hand gewonnen"),
        ("pik ohne einem h g", "Pik ohne 1 Hand gewonnen"),
        ("herz mit dreien schn g", "Herz mit 3 Schneider gewonnen"),
        ("gr o1 h g", "Grand ohne 1 Hand gewonnen"),
        ("kr m2 gereizt bis 36 g", "Kreuz mit 2 Reiz 36 gewonnen"),
        ("herz mit 1 bis 20 g", "Herz mit 1 Reiz 20 gewonnen"),
        ("karo mit 1 reizwert 27 augen 70", "Karo mit 1 Reiz 27 Augen 70"),
        ("kreuz mit 1 61 augen", "Kreuz mit 1 Augen 61"),
        ("grand mit 1 hand 61 augen", "Grand mit 1 Hand Augen 61"),
        ("kreuz mit 2 30 gereizt g", "Kreuz mit 2 Reiz 30 gewonnen"),
        ("gr ouv ohne 1 g", "Grand ouvert ohne 1 gewonnen"),
        ("nu ouv h v", "Null ouvert Hand verloren"),
    ],
)  # fmt: skip
def test_table_phrasings(said: str, canonical: str) -> None:
    assert format_announcement(parse_announcement(said)) == canonical


@pytest.mark.parametrize(
    ("said", "gesagt", "gerechnet", "plain"),
    [
        ("kreuz ohne 2 spiel 3 hand 5 gewonnen", "„hand 5“", "Hand 4", "kreuz ohne 2 hand g"),
        ("kreuz ohne 2 spiel 4 hand 5 gewonnen", "„spiel 4“", "Spiel 3", "kreuz ohne 2 hand g"),
        ("grand mit 1 hand 3 schneider 5 gewonnen", "„schneider 5“", "Schneider 4",
         "grand mit 1 hand schneider g"),
        ("grand mit 1 schneider 4 angesagt 4 g", "„schneider angesagt 4“", "Schneider angesagt 5",
         "grand mit 1 hand sa g"),
        ("grand mit 1 hand schwarz angesagt 6 g", "„schwarz angesagt 6“", "Schwarz angesagt 7",
         "grand mit 1 hand swa g"),
        ("pik ohne 2 ouvert 5 v", "„ouvert 5“", "Ouvert 9", "pik ohne 2 ouvert v"),
    ],
)  # fmt: skip
def test_a_count_that_differs_is_refused_naming_both(
    said: str, gesagt: str, gerechnet: str, plain: str
) -> None:
    with pytest.raises(ContradictionError) as exc:
        parse_announcement(said)
    assert gesagt in exc.value.message
    assert f"ich rechne {gerechnet}" in exc.value.message
    # The count the hint gives, said with the game and its result, books the same game.
    count = exc.value.hint.split("„")[1].split("“")[0]
    words = said.split()
    assert parse_announcement(f"{words[0]} {count} {words[-1]}") == parse_announcement(plain)


def test_null_counts_no_levels() -> None:
    with pytest.raises(ContradictionError, match="Beim Null") as exc:
        parse_announcement("null hand 35 gewonnen")
    assert "null hand gewonnen" in exc.value.hint


def test_a_level_counted_twice_differently_is_refused() -> None:
    with pytest.raises(ContradictionError, match="widerspricht"):
        parse_announcement("kreuz mit 1 hand 3 hand 4 gewonnen")


@pytest.mark.parametrize(
    ("said", "fragment"),
    [
        ("kreuz mit 1 spiel gewonnen", "Nach „spiel“ fehlt eine Zahl"),
        ("kreuz mit 1 gereizt bis gewonnen", "Nach „bis“ fehlt eine Zahl"),
        ("kreuz mit 1 bis gewonnen", "Nach „bis“ fehlt eine Zahl"),
        ("kreuz mit 1 reizwert gewonnen", "Nach „reizwert“ fehlt eine Zahl"),
        ("kreuz mit 1 vieren gewonnen", "ohne Bezug"),
    ],
)
def test_missing_numbers_of_the_new_forms(said: str, fragment: str) -> None:
    with pytest.raises(GrammarError, match=fragment):
        parse_announcement(said)


def test_an_announcement_sets_hand_and_says_so() -> None:
    a, notes = parse_with_notes("grand mit 1 schwarz angesagt gewonnen")
    assert a.hand and a.schneider_announced and a.schwarz_announced
    assert any("Hand automatisch" in n for n in notes)
    assert a.game is GameType.GRAND
