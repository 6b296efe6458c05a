"""Names matched without regard to hyphen, space and case ("hans peter", "hanspeter" and
"HANS-PETER" are Hans-Peter), also as several words of a command; an ambiguous match refuses
with the candidates; names typed in small letters at /neu are written capitalised."""

from __future__ import annotations

import pytest

from skatbot.rules.errors import RuleError
from skatbot.usecases.common.names import as_written, take_name
from tests.harness import Harness
from tests.helpers import ok, refused

TABLE = ["Hans-Peter", "Anna", "Karl-Heinz"]


@pytest.mark.parametrize(
    ("words", "seat", "used"),
    [
        ("hans peter grand", 0, 2),
        ("Hans Peter grand", 0, 2),
        ("hanspeter grand", 0, 1),
        ("HANS-PETER grand", 0, 1),
        ("hans-peter grand", 0, 1),
        ("hans grand", 0, 1),  # a beginning, as before
        ("karl heinz g", 2, 2),
        ("karl h kreuz", 2, 1),  # "h" stays Hand: a beginning is matched only as typed
        ("anna grand", 1, 1),
    ],
)
def test_joined_names(words: str, seat: int, used: int) -> None:
    assert take_name(words.split(), TABLE) == (seat, used)


def test_two_names_alike_without_their_hyphen_refuse_with_both() -> None:
    names = ["Hans-Peter", "Hans Peter", "Bernd"]
    with pytest.raises(RuleError, match="nicht eindeutig: Hans-Peter oder Hans Peter") as exc:
        take_name(["hanspeter", "grand", "mit", "1", "g"], names, before="/spiel")
    assert "/spiel Hans-Peter grand mit 1 g" in exc.value.hint
    assert "/spiel Hans Peter grand mit 1 g" in exc.value.hint
    # each line of the hint names one of them
    assert take_name(["Hans-Peter", "grand"], names) == (0, 1)
    assert take_name(["Hans", "Peter", "grand"], names) == (1, 2)


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        ("anna", "Anna"),
        ("hans-peter", "Hans-Peter"),
        ("anna maria", "Anna Maria"),
        ("peter m.", "Peter M."),
        ("jürgen", "Jürgen"),
        ("łukasz", "Łukasz"),
        ("van der Berg", "van der Berg"),
        ("McLeod", "McLeod"),
        ("ANNA", "ANNA"),
        ("straße", "Straße"),
    ],
)
def test_names_as_written(typed: str, written: str) -> None:
    assert as_written(typed) == written


async def test_neu_writes_names_capitalised_and_commands_find_them(chat: Harness) -> None:
    await ok(chat, "/neu anna hans-peter carla", "Anna, Hans-Peter, Carla")
    await ok(chat, "/spiel hans peter grand mit 1 gewonnen", "Hans-Peter: Grand mit 1")
    await ok(chat, "/geber HANSPETER", "Hans-Peter")
    await refused(chat, "/spiel hans petra grand mit 1 gewonnen", "„petra“")
