"""The `/spiel` grammar (docs/rules.md §3): tokens, synonyms, order, errors, canonical text."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatbot.rules import (
    Announcement,
    ContradictionError,
    GameType,
    GrammarError,
    RuleError,
    contract_text,
    format_announcement,
    parse_announcement,
)
from skatbot.rules.grammar import NUMBER_WORDS, is_grammar_word, tokenize
from tests.rules.test_properties import announcements

GRAND_OHNE_1_HAND_WON = Announcement(
    GameType.GRAND, matadors=1, with_matadors=False, hand=True, won=True
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Grand OHNE1 Hand", ["grand", "ohne", "1", "hand"]),
        ("kreuz m2 r30 +", ["kreuz", "m", "2", "r", "30", "+"]),
        ("pik o3 augen85", ["pik", "o", "3", "augen", "85"]),
        ("herz mit2 reiz20 gereizt20", ["herz", "mit", "2", "reiz", "20", "gereizt", "20"]),
        ("  null\tHAND  ", ["null", "hand"]),
        ("GRÜN", ["grün"]),
    ],
)
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_tokenize_accepts_word_lists() -> None:
    assert tokenize(["Grand ohne1", "hand"]) == ["grand", "ohne", "1", "hand"]


@pytest.mark.parametrize(
    "text",
    [
        "grand ohne 1 hand gewonnen",
        "GRAND OHNE 1 HAND GEWONNEN",
        "Grand Ohne 1 Hand Gewonnen",
        "gRaNd oHnE 1 hAnD gEwOnNeN",
        "grand ohne1 hand gewonnen",
        "grand o1 hand g",
        "grand o 1 hand +",
        "Grand O1 Hand +",
    ],
)
def test_case_and_glued_forms(text: str) -> None:
    assert parse_announcement(text) == GRAND_OHNE_1_HAND_WON


def test_order_free() -> None:
    words = ["grand", "ohne 1", "hand", "gewonnen"]
    for perm in itertools.permutations(words):
        assert parse_announcement(" ".join(perm)) == GRAND_OHNE_1_HAND_WON


def test_order_free_with_bid_points_and_announcement() -> None:
    words = ["kreuz", "mit 1", "hand", "schneider angesagt", "reiz 48", "augen 95"]
    expected = parse_announcement(" ".join(words))
    assert expected.card_points == 95 and expected.bid == 48 and expected.schneider_announced
    for perm in itertools.permutations(words):
        assert parse_announcement(" ".join(perm)) == expected


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("karo mit 1 +", GameType.KARO),
        ("schellen mit 1 +", GameType.KARO),
        ("herz mit 1 +", GameType.HERZ),
        ("rot mit 1 +", GameType.HERZ),
        ("pik mit 1 +", GameType.PIK),
        ("grün mit 1 +", GameType.PIK),
        ("gruen mit 1 +", GameType.PIK),
        ("GRÜN mit 1 +", GameType.PIK),
        ("kreuz mit 1 +", GameType.KREUZ),
        ("eichel mit 1 +", GameType.KREUZ),
        ("grand mit 1 +", GameType.GRAND),
        ("null +", GameType.NULL),
    ],
)
def test_game_synonyms(text: str, game: GameType) -> None:
    assert parse_announcement(text).game is game


@pytest.mark.parametrize(
    ("text", "matadors", "with_matadors"),
    [
        ("kreuz mit 3 +", 3, True),
        ("kreuz mit3 +", 3, True),
        ("kreuz m 3 +", 3, True),
        ("kreuz m3 +", 3, True),
        ("kreuz ohne 3 +", 3, False),
        ("kreuz ohne3 +", 3, False),
        ("kreuz o 3 +", 3, False),
        ("kreuz o3 +", 3, False),
        ("kreuz mit 11 +", 11, True),
        ("kreuz ohne11 +", 11, False),
    ],
)
def test_matador_forms(text: str, matadors: int, with_matadors: bool) -> None:
    a = parse_announcement(text)
    assert (a.matadors, a.with_matadors) == (matadors, with_matadors)


@pytest.mark.parametrize(
    ("word", "won"),
    [("gewonnen", True), ("g", True), ("+", True), ("verloren", False), ("v", False),
     ("-", False), ("GEWONNEN", True), ("V", False)],
)  # fmt: skip
def test_outcome_synonyms(word: str, won: bool) -> None:
    assert parse_announcement(f"kreuz mit 1 {word}").won is won


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("kreuz mit 1 hand schneider angesagt +", "schneider_announced"),
        ("kreuz mit 1 hand schneiderangesagt +", "schneider_announced"),
        ("kreuz mit 1 hand sa +", "schneider_announced"),
        ("kreuz mit 1 hand SA +", "schneider_announced"),
        ("kreuz mit 1 hand schwarz angesagt +", "schwarz_announced"),
        ("kreuz mit 1 hand schwarzangesagt +", "schwarz_announced"),
        ("kreuz mit 1 hand swa +", "schwarz_announced"),
        ("kreuz mit 1 ouvert +", "ouvert"),
        ("kreuz mit 1 offen +", "ouvert"),
        ("kreuz mit 1 schneider +", "schneider"),
        ("kreuz mit 1 schwarz +", "schwarz"),
        ("kreuz mit 1 hand +", "hand"),
    ],
)
def test_level_synonyms(text: str, field: str) -> None:
    assert getattr(parse_announcement(text), field) is True


@pytest.mark.parametrize(
    ("text", "bid", "points"),
    [
        ("kreuz mit 1 reiz 30 +", 30, None),
        ("kreuz mit 1 gereizt 30 +", 30, None),
        ("kreuz mit 1 r 30 +", 30, None),
        ("kreuz mit 1 r30 +", 30, None),
        ("kreuz mit 1 reiz30 +", 30, None),
        ("kreuz mit 1 augen 85", None, 85),
        ("kreuz mit 1 augen85", None, 85),
        ("kreuz mit 1 augen 0", None, 0),
        ("kreuz mit 1 augen 0120", None, 120),
        ("kreuz mit 1 r18 augen 61 g", 18, 61),
    ],
)
def test_bid_and_points(text: str, bid: int | None, points: int | None) -> None:
    a = parse_announcement(text)
    assert (a.bid, a.card_points) == (bid, points)


@pytest.mark.parametrize(
    ("word", "suggestion"),
    [
        ("grnad", "grand"),
        ("gewonen", "gewonnen"),
        ("verlorn", "verloren"),
        ("schnieder", "schneider"),
        ("hnad", "hand"),
        ("kruez", "kreuz"),
    ],
)
def test_unknown_word_with_suggestion(word: str, suggestion: str) -> None:
    with pytest.raises(GrammarError) as exc:
        parse_announcement(f"{word} mit 1 gewonnen" if word != "grnad" else "grnad mit 1 +")
    assert f"„{word}“" in str(exc.value)
    assert f"„{suggestion}“" in str(exc.value)


def test_unknown_word_without_suggestion_gives_examples() -> None:
    with pytest.raises(GrammarError) as exc:
        parse_announcement("grand mit 1 xyzzyq +")
    assert "xyzzyq" in str(exc.value)
    assert "Meintest" not in str(exc.value)


def test_long_unknown_word_is_shortened() -> None:
    with pytest.raises(GrammarError) as exc:
        parse_announcement("grand mit 1 + " + "x" * 5000)
    assert len(str(exc.value)) < 300


@pytest.mark.parametrize(
    "text",
    [
        "grand null mit 1 +",
        "kreuz pik mit 1 +",
        "karo schellen rot mit 1 +",
        "grand mit 1 gewonnen verloren",
        "grand mit 1 + -",
        "grand mit 1 ohne 2 +",
        "grand mit 1 reiz 18 reiz 20 +",
        "grand mit 1 augen 70 augen 80",
    ],
)
def test_conflicting_inputs_refused(text: str) -> None:
    with pytest.raises(ContradictionError, match="widerspricht"):
        parse_announcement(text)


def test_repeated_identical_word_is_harmless() -> None:
    assert parse_announcement("grand grand ohne 1 hand hand gewonnen g") == GRAND_OHNE_1_HAND_WON


@pytest.mark.parametrize("text", ["grand mit 1 kontra +", "grand mit 1 kontra re +"])
def test_kontra_only_with_house_rules(text: str) -> None:
    with pytest.raises(RuleError, match="Hausregeln"):
        parse_announcement(text)
    a = parse_announcement(text, house=True)
    assert a.kontra


def test_kontra_re_with_house_rules() -> None:
    a = parse_announcement("grand mit 1 kontra re +", house=True)
    assert a.kontra and a.re


def test_re_without_kontra_refused() -> None:
    with pytest.raises(RuleError, match="Kontra"):
        parse_announcement("grand mit 1 re +", house=True)


@pytest.mark.parametrize(
    "text",
    ["grand mit 12345 +", "grand mit 1 reiz 99999 +", "grand mit 1 augen 00000085",
     "grand mit 1 reiz " + "9" * 500 + " +"],
)  # fmt: skip
def test_numbers_too_long_refused(text: str) -> None:
    with pytest.raises(GrammarError, match="zu groß") as exc:
        parse_announcement(text)
    assert len(str(exc.value)) < 200


@pytest.mark.parametrize("text", ["grand mit 1 + 5", "7", "grand 1 mit 2 +"])
def test_bare_number_refused(text: str) -> None:
    with pytest.raises(GrammarError, match="ohne Bezug"):
        parse_announcement(text)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("grand mit +", "Nach „mit“ fehlt eine Zahl"),
        ("grand mit 1 reiz", "Nach „reiz“ fehlt eine Zahl"),
        ("grand mit 1 augen", "Nach „augen“ fehlt eine Zahl"),
        ("grand mit zwölf +", "Nach „mit“ fehlt eine Zahl"),
        ("grand mit viele +", "Nach „mit“ fehlt eine Zahl"),
    ],
)
def test_missing_number(text: str, fragment: str) -> None:
    with pytest.raises(GrammarError, match=fragment):
        parse_announcement(text)


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_refused(text: str) -> None:
    with pytest.raises(GrammarError, match="Spielansage fehlt"):
        parse_announcement(text)


def test_missing_game_refused() -> None:
    with pytest.raises(GrammarError, match="Spielart fehlt"):
        parse_announcement("mit 1 hand gewonnen")


def test_lone_angesagt_refused() -> None:
    with pytest.raises(GrammarError, match="angesagt"):
        parse_announcement("grand mit 1 hand angesagt +")


# --- canonical text -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "contract", "full"),
    [
        ("grand ohne 1 hand g", "Grand ohne 1 Hand", "Grand ohne 1 Hand gewonnen"),
        ("kreuz ouvert mit 2 +", "Kreuz ouvert mit 2", "Kreuz ouvert mit 2 gewonnen"),
        ("null ouvert hand v", "Null ouvert Hand", "Null ouvert Hand verloren"),
        ("null r24 +", "Null", "Null Reiz 24 gewonnen"),
        ("herz m2 schneider +", "Herz mit 2 Schneider", "Herz mit 2 Schneider gewonnen"),
        (
            "kreuz mit 1 hand sa augen 95",
            "Kreuz mit 1 Hand Schneider angesagt",
            "Kreuz mit 1 Hand Schneider angesagt Augen 95",
        ),
        (
            "pik o3 hand swa schwarz augen 120",
            "Pik ohne 3 Hand Schwarz angesagt",
            "Pik ohne 3 Hand Schwarz angesagt Schwarz Augen 120",
        ),
        (
            "karo mit 1 schwarz verloren augen 0",
            "Karo mit 1 Schwarz",
            "Karo mit 1 Schwarz Augen 0 verloren",
        ),
    ],
)
def test_contract_and_format(text: str, contract: str, full: str) -> None:
    a = parse_announcement(text)
    assert contract_text(a) == contract
    assert format_announcement(a) == full
    assert parse_announcement(full) == a


def test_contract_text_adds_reached_levels() -> None:
    a = parse_announcement("kreuz mit 1 augen 95")
    assert contract_text(a) == "Kreuz mit 1"
    assert contract_text(a, schneider=True) == "Kreuz mit 1 Schneider"
    assert contract_text(a, schneider=True, schwarz=True) == "Kreuz mit 1 Schwarz"


def test_format_with_kontra_re_round_trips_under_house_rules() -> None:
    a = parse_announcement("grand mit 1 kontra re reiz 30 +", house=True)
    text = format_announcement(a)
    assert text == "Grand mit 1 Kontra Re Reiz 30 gewonnen"
    assert parse_announcement(text, house=True) == a


# --- what a phone keyboard adds -------------------------------------------


@pytest.mark.parametrize(
    ("word", "won"),
    [("gew", True), ("gew.", True), ("Gew.", True), ("g!", True), ("gewonnen!", True),
     ("gewonnen!!", True), ("gewonnen.", True), ("+!", True), ("verl", False),
     ("verl.", False), ("verloren!", False), ("v.", False), ("-", False)],
)  # fmt: skip
def test_outcome_as_typed_on_a_phone(word: str, won: bool) -> None:
    assert parse_announcement(f"kreuz mit 1 {word}").won is won


@pytest.mark.parametrize(
    "text",
    [
        "grand, ohne 1, hand, gewonnen",
        "grand,ohne 1,hand,gewonnen!",
        "Grand ohne 1 Hand gew.",
        "grand ohne eins hand g!",
        "grand ohne ein hand gewonnen",
        "grand; ohne 1; hand; gewonnen.",
        "grand ohne 1 hand … gewonnen",
        "grand ohne 1. hand! gewonnen?",
        "grand ohne 1 hand gewonnen :",
    ],
)
def test_punctuation_is_forgiven(text: str) -> None:
    assert parse_announcement(text) == GRAND_OHNE_1_HAND_WON


@pytest.mark.parametrize(
    ("text", "matadors", "with_matadors"),
    [
        ("kreuz mit eins +", 1, True),
        ("kreuz mit einem +", 1, True),
        ("kreuz ohne einen +", 1, False),
        ("kreuz mit zwei +", 2, True),
        ("kreuz ohne drei +", 3, False),
        ("kreuz mit vier +", 4, True),
        ("kreuz mit fünf +", 5, True),
        ("kreuz mit fuenf +", 5, True),
        ("kreuz m sechs +", 6, True),
        ("kreuz o sieben +", 7, False),
        ("kreuz mit acht +", 8, True),
        ("kreuz mit neun +", 9, True),
        ("kreuz mit zehn +", 10, True),
        ("kreuz ohne elf +", 11, False),
        ("KREUZ OHNE ELF +", 11, False),
        ("kreuz mit Zwei, gewonnen", 2, True),
    ],
)
def test_number_words_after_mit_ohne(text: str, matadors: int, with_matadors: bool) -> None:
    a = parse_announcement(text)
    assert (a.matadors, a.with_matadors) == (matadors, with_matadors)


@pytest.mark.parametrize("text", ["grand mit 1 reiz zwei +", "grand mit 1 zwei +"])
def test_number_words_only_count_matadors(text: str) -> None:
    with pytest.raises(GrammarError):
        parse_announcement(text)


def test_number_word_range_matches_the_most_matadors() -> None:
    assert sorted(set(NUMBER_WORDS.values())) == list(range(1, 12))


@pytest.mark.parametrize(
    ("word", "known"),
    [("grand", True), ("Grand", True), ("o1", True), ("gew.", True), ("+", True),
     ("hand,", True), ("3", True), ("Anna", False), ("grnad", False), ("Anna:", False),
     ("", False), (",", False)],
)  # fmt: skip
def test_is_grammar_word(word: str, known: bool) -> None:
    assert is_grammar_word(word) is known


PHONE_OUTCOME = {"gewonnen": ["gew", "gew.", "g!", "gewonnen!", "+"],
                 "verloren": ["verl", "verl.", "v", "verloren."]}  # fmt: skip
SPELLED = {str(n): w for w, n in NUMBER_WORDS.items() if w not in ("ein", "einem", "einen")}


@given(
    a=announcements(house=True),
    style=st.data(),
)
def test_phone_forms_read_as_the_canonical_text(a: Announcement, style: st.DataObject) -> None:
    """Whatever a phone adds to the canonical text (commas, trailing dots and exclamation
    marks, gew/verl, number words after mit/ohne) reads back as the same announcement."""
    words = format_announcement(a).split()
    typed = []
    for i, word in enumerate(words):
        if word in PHONE_OUTCOME:
            word = style.draw(st.sampled_from(PHONE_OUTCOME[word]))
        elif word in SPELLED and i > 0 and words[i - 1] in ("mit", "ohne"):
            word = style.draw(st.sampled_from([word, SPELLED[word]]))
        word += style.draw(st.sampled_from(["", "", ",", ".", "!", ":", "…"]))
        typed.append(word)
    assert parse_announcement(" ".join(typed), house=True) == a
