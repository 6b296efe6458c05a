"""No silent surprises when a list starts: quotes group a name, "&" and "und" separate only
as words of their own, and a doubtful /neu shows the tables it may mean with buttons."""

from __future__ import annotations

import pytest

from skatbot.usecases.common.names import read_names
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.sheet.test_builder import Phone, buttons


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ('"Anna Maria" Bernd Carla', ["Anna Maria", "Bernd", "Carla"]),
        ("„Anna Maria“ Bernd Carla", ["Anna Maria", "Bernd", "Carla"]),
        ("“Anna Maria” Bernd, Carla", ["Anna Maria", "Bernd", "Carla"]),
        ('"Anna Maria", Bernd und "Tom & Jerry"', ["Anna Maria", "Bernd", "Tom & Jerry"]),
        ('"Tom&Jerry" Bernd Carla', ["Tom&Jerry", "Bernd", "Carla"]),
        ("Anna & Bernd und Carla", ["Anna", "Bernd", "Carla"]),
        ("Anna &amp; Bernd &amp; Carla", ["Anna", "Bernd", "Carla"]),
        # an initial belongs to the name before it; a run of initials stays a run of names
        ("Peter M. Peter K. Carla", ["Peter M.", "Peter K.", "Carla"]),
        ("Anna B. und Bernd Carla", ["Anna B.", "Bernd", "Carla"]),
        ("A. B. C.", ["A.", "B.", "C."]),
    ],
)
def test_certain_readings(raw: str, names: list[str]) -> None:
    reading = read_names(raw)
    assert reading.names == names
    assert reading.doubts == ()


@pytest.mark.parametrize(
    ("raw", "names", "other"),
    [
        ("Tom&Jerry Bernd Carla", ["Tom&Jerry", "Bernd", "Carla"], ["Tom", "Jerry", "Bernd", "Carla"]),
        ("Tom&amp;Jerry Bernd Carla", ["Tom&Jerry", "Bernd", "Carla"], ["Tom", "Jerry", "Bernd", "Carla"]),
        ("Tom+Jerry, Bernd, Carla", ["Tom+Jerry", "Bernd", "Carla"], ["Tom", "Jerry", "Bernd", "Carla"]),
    ],
)  # fmt: skip
def test_doubtful_readings(raw: str, names: list[str], other: list[str]) -> None:
    reading = read_names(raw)
    assert reading.names == names
    assert reading.other == other
    assert reading.doubts


def test_an_open_quote_is_a_doubt() -> None:
    assert read_names('"Anna Maria Bernd Carla').doubts


async def test_quotes_make_one_player(chat: Harness) -> None:
    await ok(
        chat, '/neu "Anna Maria" Bernd Carla', "Neue Liste: Anna Maria, Bernd, Carla – Dreiertisch"
    )
    await ok(chat, "/spiel anna maria grand mit 1 g", "Anna Maria: Grand mit 1 – gewonnen")


async def test_ampersand_inside_a_word_asks_with_buttons(chat: Harness) -> None:
    replies = await chat.say("/neu Tom&Jerry Bernd Carla")
    assert len(replies) == 1 and not replies[0].refusal
    text = replies[0].text
    assert "Wie ist die Liste gemeint?" in text
    assert "1) Tom&Jerry, Bernd, Carla – Dreiertisch" in text
    assert "2) Tom, Jerry, Bernd, Carla – Vierertisch" in text
    assert "Neue Liste" not in text
    # nothing was started: no list yet
    await refused(chat, "/stand", "gibt es noch keine Liste")
    question = next(m for (c, _), m in chat.messages.items() if c == -1001 and "gemeint" in m.text)
    labels = list(buttons(question))
    assert labels[0].startswith("1) Tom&Jerry") and labels[1].startswith("2) Tom, Jerry")
    await Phone(chat, question.message_id).tap(labels[1])
    opening = chat.last(-1001)
    assert "Neue Liste: Tom, Jerry, Bernd, Carla – Vierertisch" in opening.text
    assert buttons(chat.messages[(-1001, question.message_id)]) == {}


async def test_the_written_out_lines_of_the_question_work(chat: Harness) -> None:
    text = await ok(
        chat, "/neu Tom&amp;Jerry Bernd Carla", "„Tom&Jerry“: ein Name oder zwei Spieler?"
    )
    assert "amp;" not in text
    line = text[text.index("schreib sie so: ") + 16 :].split(" · ")[0]
    assert line == "/neu „Tom&Jerry“ Bernd Carla"
    await ok(chat, line, "Neue Liste: Tom&Jerry, Bernd, Carla – Dreiertisch")


async def test_five_words_point_to_quotes(chat: Harness) -> None:
    await refused(chat, "/neu Anna Maria Anna Lena Bernd", "nicht 5", '"Anna Maria"')


async def test_help_names_the_name_rules(chat: Harness) -> None:
    await ok(chat, "/hilfe", '/neu "Anna Maria" Bernd Carla', "/neu Peter M. Peter K. Carla")
    await ok(chat, "/neu Peter M. Peter K. Carla", "Neue Liste: Peter M., Peter K., Carla")
