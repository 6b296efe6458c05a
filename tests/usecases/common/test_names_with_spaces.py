"""Names as people type them: a name with spaces is matched as the longest name (or unique
beginning of a name) that the words start with, in every command that reads a name; an
ambiguous beginning lists the candidates with the whole line to send."""

from __future__ import annotations

import pytest

from skatbot.rules.errors import RuleError
from skatbot.usecases.common.names import take_name
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.sheet.test_builder import games

TABLE = ["Anna Maria", "Anna Lena", "Bernd"]


@pytest.mark.parametrize(
    ("words", "seat", "used"),
    [
        ("anna lena grand", 1, 2),
        ("Anna Maria grand", 0, 2),
        ("anna m grand", 0, 2),
        ("anna l. grand", 1, 2),
        ("bernd grand", 2, 1),
        ("b grand", 2, 1),
        ("Anna Lena", 1, 2),
    ],
)
def test_longest_name_the_words_start_with(words: str, seat: int, used: int) -> None:
    assert take_name(words.split(), TABLE) == (seat, used)


def test_a_shared_beginning_lists_both_with_the_line_to_send() -> None:
    with pytest.raises(RuleError, match="nicht eindeutig: Anna Maria oder Anna Lena") as exc:
        take_name(["anna", "grand", "mit", "1", "g"], TABLE, before="/spiel")
    assert exc.value.hint is not None
    assert "/spiel Anna Maria grand mit 1 g" in exc.value.hint
    assert "/spiel Anna Lena grand mit 1 g" in exc.value.hint


def test_unknown_name_lists_the_table_and_the_line() -> None:
    with pytest.raises(RuleError, match="spielt in dieser Liste nicht mit") as exc:
        take_name(["Berndt", "grand"], TABLE, before="/spiel")
    assert exc.value.hint is not None
    assert "Am Tisch: Anna Maria, Anna Lena, Bernd." in exc.value.hint
    assert "/spiel Bernd grand" in exc.value.hint


def test_peter_m_and_peter_k() -> None:
    names = ["Peter M.", "Peter K.", "Carla"]
    assert take_name(["Peter", "K.", "null", "g"], names) == (1, 2)
    assert take_name(["peter", "m", "null", "g"], names) == (0, 2)
    with pytest.raises(RuleError, match="nicht eindeutig"):
        take_name(["peter", "null", "g"], names)


async def test_every_list_command_reads_names_with_spaces(chat: Harness) -> None:
    await ok(chat, "/neu Anna Maria, Anna Lena, Bernd", "Anna Maria, Anna Lena, Bernd")
    await ok(chat, "/spiel anna lena grand mit 1 g", "Anna Lena: Grand mit 1 – gewonnen")
    await ok(chat, "/spiel Anna Maria kreuz mit 1 g", "Anna Maria: Kreuz mit 1 – gewonnen")
    await ok(chat, "/korrigieren 1 anna m grand mit 1 g", "Spiel 1 korrigiert", "Anna Maria")
    await ok(chat, "/korrigieren 1 geber Anna Lena", "Spiel 1 korrigiert")
    await ok(chat, "/geber anna lena", "Nächster Geber: Anna Lena")
    await ok(chat, "/umbenennen Anna Lena Lena", "Anna Lena heißt jetzt Lena")
    await ok(chat, "/spiel lena null g", "Lena: Null – gewonnen")
    assert games(chat.db)[-1] == "Null gewonnen"


async def test_an_ambiguous_name_answers_with_lines_that_work(chat: Harness) -> None:
    await ok(chat, "/neu Anna Maria, Anna Lena, Bernd")
    text = await refused(chat, "/spiel anna grand mit 1 g", "Anna Maria oder Anna Lena")
    line = next(part for part in text.split(" · ") if "/spiel Anna Lena" in part)
    line = line[line.index("/spiel") :].strip()
    await ok(chat, line, "Anna Lena: Grand mit 1 – gewonnen")


async def test_the_bots_own_hints_work_with_names_with_spaces(chat: Harness) -> None:
    await ok(chat, "/neu Anna Maria, Anna Lena, Bernd")
    text = await refused(chat, "/spiel grand ohne 1 hand gewonnen", "fehlt der Name")
    hint = text[text.index("z. B. ") + 6 :].split(" · ")[0]
    await ok(chat, hint, "Grand ohne 1 Hand – gewonnen")


async def test_house_commands_read_names_with_spaces(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    await ok(chat, "/neu Anna Maria, Anna Lena, Bernd")
    await ok(chat, "/startpunkte Anna Maria 100 anna lena -20", "Anna Maria 100", "Anna Lena −20")
    await ok(chat, "/bock")
    # Bock rounds, then ramsch: play to the ramsch is long; the parse is checked directly
    from skatbot.usecases.house.house_rules import parse_ramsch

    game = parse_ramsch(("Anna", "Lena", "Bernd", "50"), TABLE)
    assert game.losers == (1, 2)
    game = parse_ramsch(("durchmarsch", "anna", "m"), TABLE)
    assert game.durchmarsch == 0


async def test_statistik_reads_a_name_as_the_list_commands_do(chat: Harness) -> None:
    await ok(chat, "/neu Anna Maria, Anna Lena, Jürgen")
    await ok(chat, "/spiel anna lena grand mit 1 g")
    await ok(chat, "/abschluss ja")
    await ok(chat, "/statistik anna l", "Anna Lena")
    await ok(chat, "/statistik juergen", "Jürgen")
    await refused(chat, "/statistik anna", "Anna Lena", "Anna Maria")


async def test_tournament_commands_read_names_as_people_write_them(chat: Harness) -> None:
    OLGA = {"user_id": 1, "name": "Olga"}  # the organiser

    await ok(chat, "/turnier Herbstskat", **OLGA)  # type: ignore[arg-type]
    # quotes group a name, an initial belongs to the name before it: one entry each
    text = await ok(
        chat,
        '/teilnehmer "Otto Z." Hans P. Carla',
        "3 Teilnehmer eingetragen",
        **OLGA,  # type: ignore[arg-type]
    )
    assert "eingetragen: Otto Z., Hans P., Carla.\n" in text, text
    await ok(chat, "/teilnehmer Anna Maria, Peter M. [Nord], Bernd", "Peter M. [Nord]", **OLGA)  # type: ignore[arg-type]
    await ok(chat, "/team anna m Nord", "Anna Maria ist jetzt im Team „Nord“", **OLGA)  # type: ignore[arg-type]
    await ok(chat, "/auslosen 1", **OLGA)  # type: ignore[arg-type]
    await ok(chat, "/ergebnis anna m 100 2 0", "Anna Maria: 100 Spielpunkte", **OLGA)  # type: ignore[arg-type]
    await ok(chat, "/ergebnis Otto Z. 50 1 0", "Otto Z.: 50 Spielpunkte", **OLGA)  # type: ignore[arg-type]
    text = await ok(chat, "/teilnehmer Ida K.", "Nachgemeldet: Ida K. – ab Serie 2", **OLGA)  # type: ignore[arg-type]
    assert "Ida K.." not in text
    await ok(chat, "/entfernen ida k", "Nachmeldung von Ida K. zurückgenommen", **OLGA)  # type: ignore[arg-type]
    await ok(chat, "/entfernen Hans P.", "Hans P. ist ab Serie 2 nicht mehr dabei", **OLGA)  # type: ignore[arg-type]
    await ok(chat, "/ich Otto Z.", "Du bist Otto Z.", user_id=31, name="Otto")


async def test_a_name_ending_in_a_dot_ends_a_sentence_once(chat: Harness) -> None:
    await ok(chat, "/neu Anna Maria, Peter M., Peter K.")
    text = await ok(chat, "/geber peter k", "Nächster Geber: Peter K.")
    assert "K.." not in text, text
    text = await refused(
        chat, "/spiel Otto grand mit 1 g", "Am Tisch: Anna Maria, Peter M., Peter K."
    )
    assert "K.." not in text, text
    await ok(chat, "/spiel peter k null g")
    await ok(chat, "/abschluss ja")
    text = await refused(chat, "/statistik peter", "Peter K. oder Peter M.")
    assert "K.." not in text and "M.." not in text, text
    # the lines that work, as every list command gives them
    assert "/statistik Peter K. · /statistik Peter M." in text, text
    await ok(chat, "/statistik Peter K.", "Statistik: Peter K.")
    text = await refused(chat, "/ich Otto", "Bekannte Namen: Anna Maria, Peter K., Peter M.")
    assert "M.." not in text, text


async def test_krank_and_ramsch_read_names_with_spaces(chat: Harness) -> None:
    for line in (
        "/regeln haus",
        "/neu Anna Maria, Anna Lena, Bernd",
        "/bock",
        "/eingepasst",
        "/eingepasst",
        "/eingepasst",
    ):
        await ok(chat, line)
    await ok(chat, "/krank anna lena", "Anna Lena")
    await ok(chat, "/gesund")
    await ok(chat, "/ramsch Anna Maria 50", "Ramsch: Anna Maria 50")
