"""Entry that forgives a phone keyboard: names without diacritics,
punctuation after a name and in the announcement, a game typed without its player, and
"und"/"&" between the names of /neu."""

from __future__ import annotations

import pytest

from skatbot.rules.errors import RuleError
from skatbot.usecases.common.names import resolve, split_names
from tests.harness import Harness
from tests.helpers import export_raw
from tests.usecases.sheet.test_builder import Phone, buttons, games

TABLE = ["Jürgen", "Özlem", "Łukasz", "Strauß"]


@pytest.mark.parametrize(
    ("word", "name"),
    [
        ("juergen", "Jürgen"),
        ("jurgen", "Jürgen"),
        ("JUERGEN", "Jürgen"),
        ("Jürgen", "Jürgen"),
        ("jür", "Jürgen"),
        ("jue", "Jürgen"),
        ("ozlem", "Özlem"),
        ("oezlem", "Özlem"),
        ("oz", "Özlem"),
        ("lukasz", "Łukasz"),
        ("Lukasz", "Łukasz"),
        ("luk", "Łukasz"),
        ("strauss", "Strauß"),
        ("STRAUSS", "Strauß"),
        ("strauß", "Strauß"),
        ("Jürgen:", "Jürgen"),
        ("juergen,", "Jürgen"),
        ("@lukasz!", "Łukasz"),
        ("ozlem…", "Özlem"),
    ],
)
def test_names_as_typed_on_a_phone(word: str, name: str) -> None:
    assert TABLE[resolve(word, TABLE)] == name


def test_names_stored_without_diacritics_match_typed_ones() -> None:
    assert resolve("Jürgen", ["Anna", "Juergen", "Bernd"]) == 1
    assert resolve("Jürgen", ["Anna", "Jurgen", "Bernd"]) == 1


@pytest.mark.parametrize(
    ("word", "names", "candidates"),
    [
        ("jurgen", ["Jürgen", "Jürgén", "Anna"], "Jürgen oder Jürgén"),
        ("jurg", ["Jürgen", "Jurgis", "Anna"], "Jürgen oder Jurgis"),
        ("an:", ["Anna", "Andreas", "Bernd"], "Anna oder Andreas"),
    ],
)
def test_ambiguity_stays_an_error_naming_the_candidates(
    word: str, names: list[str], candidates: str
) -> None:
    with pytest.raises(RuleError, match="nicht eindeutig") as exc:
        resolve(word, names)
    assert candidates in str(exc.value)


def test_exact_name_beats_a_folded_one() -> None:
    # "Jurgen" is typed exactly as one player is called; Jürgen is only a folded match
    assert resolve("jurgen", ["Jürgen", "Jurgen", "Anna"]) == 1
    # a name that really ends in a dot is found as it is
    assert resolve("B.", ["Anna", "B.", "Carla"]) == 1


def test_unknown_name_still_suggests_and_lists_the_table() -> None:
    with pytest.raises(RuleError, match="spielt in dieser Liste nicht mit") as exc:
        resolve("jurgn", TABLE)
    assert "Meintest du Jürgen?" in str(exc.value)
    assert "Am Tisch: Jürgen, Özlem, Łukasz, Strauß." in str(exc.value)


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ("Anna Bernd und Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna Bernd UND Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna, Bernd und Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna, Bernd, und Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna,Bernd,und Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna & Bernd & Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna&Bernd&Carla", ["Anna&Bernd&Carla"]),  # one name (asked: see test_neu_reading)
        ("Anna, Bernd & Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna Lena, Bernd und Carla", ["Anna Lena", "Bernd", "Carla"]),
        ("Anna Bernd Carla Dora", ["Anna", "Bernd", "Carla", "Dora"]),
        ("Anna, Undine, Bernd", ["Anna", "Undine", "Bernd"]),
        ("Anna Undine Bernd", ["Anna", "Undine", "Bernd"]),
    ],
)
def test_split_names(raw: str, names: list[str]) -> None:
    assert [n.strip() for n in split_names(raw)] == names


# --- as commands ------------------------------------------------------------------------------


async def test_neu_with_und_and_ampersand(chat: Harness) -> None:
    text = await chat.text("/neu Anna Bernd und Carla")
    assert "Neue Liste: Anna, Bernd, Carla – Dreiertisch" in text
    assert "und" not in text.splitlines()[0].split("–")[0]
    text = await chat.text("/neu Anna, Bernd & Carla, Dora")
    assert "Neue Liste: Anna, Bernd, Carla, Dora – Vierertisch" in text


async def test_neu_refuses_und_as_a_name(chat: Harness) -> None:
    await chat.text("/neu Anna Bernd Carla")
    text = await chat.text("/umbenennen Carla und")
    assert "„und“ geht nicht als Name" in text


async def test_a_game_typed_on_a_phone_is_booked(chat: Harness) -> None:
    await chat.text("/neu Jürgen, Özlem und Łukasz")
    text = await chat.text("/spiel juergen: grand, ohne eins, hand, gew.")
    assert "Spiel 1/36 · Jürgen: Grand ohne 1 Hand – gewonnen" in text
    assert "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72" in text
    text = await chat.text("/spiel ozlem kreuz mit zwei verl.")
    assert "Spiel 2/36 · Özlem: Kreuz mit 2 – verloren" in text
    text = await chat.text("/spiel Lukasz, null g!")
    assert "Spiel 3/36 · Łukasz: Null – gewonnen" in text
    text = await chat.text("/spiel luk pik ohne elf gewonnen!")
    assert "Spiel 4/36 · Łukasz: Pik ohne 11 – gewonnen" in text
    assert games(chat.db) == [
        "Grand ohne 1 Hand gewonnen",
        "Kreuz mit 2 verloren",
        "Null gewonnen",
        "Pik ohne 11 gewonnen",
    ]
    # the other commands that take a name forgive the same way
    assert "Nächster Geber: Özlem" in await chat.text("/geber oezlem.")
    text = await chat.text("/korrigieren 2 Ozlem: kreuz mit zwei gew.")
    assert "Spiel 2 korrigiert" in text and "Özlem: Kreuz mit 2 – gewonnen" in text


async def test_game_without_name_says_the_name_is_missing(chat: Harness) -> None:
    await chat.text("/neu Anna Bernd Carla")
    before = await export_raw(chat)
    replies = await chat.say("/spiel grand ohne 1 hand gewonnen")
    assert len(replies) == 1
    text = replies[0].text
    assert text == (
        "⚠️ Wer hat gespielt? Vor „grand ohne 1 hand gewonnen“ fehlt der Name.\n"
        "👉 /spiel NAME …, z. B. /spiel Bernd grand ohne 1 hand gewonnen · "
        "/spiel ohne Worte öffnet die Knöpfe."
    )
    assert "spielt in dieser Liste nicht mit" not in text and "Meintest" not in text
    assert await export_raw(chat) == before
    # the hint works as written
    assert "Bernd: Grand ohne 1 Hand – gewonnen" in await chat.text(
        "/spiel Bernd grand ohne 1 hand gewonnen"
    )
    # ... and so does the button under the refusal: it opens the builder
    await chat.say("/spiel Grand o1 hand +")
    refusal = chat.last(-1001)
    assert "fehlt der Name" in refusal.text
    assert buttons(refusal) == {"Mit Knöpfen eintragen": "v1:n"}
    await Phone(chat, refusal.message_id).tap("Mit Knöpfen eintragen")
    builder = chat.last_for(1)  # opened by a tap: for the tapper alone
    assert "Wer spielt?" in builder.text
    phone = Phone(chat, builder.message_id, reader=1)
    for label in ("Carla", "Grand", "ohne 1", "Hand", "gewonnen", "✅ Eintragen"):
        await phone.tap(label)
    assert games(chat.db)[-1] == "Grand ohne 1 Hand gewonnen"


@pytest.mark.parametrize(
    "message",
    ["/spiel null gewonnen", "/spiel kreuz mit 2 verloren", "/spiel o1 grand +", "/spiel gew."],
)
async def test_every_game_word_first_means_a_missing_name(chat: Harness, message: str) -> None:
    await chat.text("/neu Anna Bernd Carla")
    text = await chat.text(message)
    assert "fehlt der Name" in text, text


async def test_a_misspelt_name_is_still_a_misspelt_name(chat: Harness) -> None:
    await chat.text("/neu Anna Bernd Carla")
    text = await chat.text("/spiel Berndt grand ohne 1 hand gewonnen")
    assert "„Berndt“ spielt in dieser Liste nicht mit" in text
    assert "Meintest du Bernd?" in text


async def test_correction_without_name_names_the_command_and_the_player(chat: Harness) -> None:
    await chat.text("/neu Anna Bernd Carla")
    await chat.text("/spiel Carla grand ohne 1 gewonnen")
    text = await chat.text("/korrigieren 1 grand ohne 1 hand gewonnen")
    assert text == (
        "⚠️ Wer hat gespielt? Vor „grand ohne 1 hand gewonnen“ fehlt der Name.\n"
        "👉 /korrigieren 1 NAME …, z. B. /korrigieren 1 Carla grand ohne 1 hand gewonnen"
    )
    assert "Spiel 1 korrigiert" in await chat.text(
        "/korrigieren 1 Carla grand ohne 1 hand gewonnen"
    )
