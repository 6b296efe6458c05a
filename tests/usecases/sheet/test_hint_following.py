"""Following a refusal's hint never leads round in a circle.

For every situation of the refusal catalogue (test_refusal_hints.py) the refused input is
sent, and the command lines of the first way its ``👉`` hint offers are read off the hint
itself (not from the catalogue) and sent in order, as a player would copy them. Each must be accepted, or be
refused with a different refusal, whose hint is followed in turn (up to a depth bound). When
the hint says to send the input again ("noch einmal"), or the catalogue says following it
makes the input acceptable, the input is sent again under the same rule.

Two refusals are the same when they differ only in their numbers: "strike game 7 first" and
then "strike game 6 first" is the circle a player would go round, one legitimate game at a
time.
"""

from __future__ import annotations

import re

import pytest

from tests.harness import Harness
from tests.helpers import ok
from tests.usecases.sheet.test_refusal_hints import CATALOGUE, HOUSE, Case

DEPTH = 6
# The placeholders hints use, as a player would fill them in (the catalogue's own first).
DEFAULTS = (("VERLIERER", "Bernd"), ("AUGEN", "55"), ("NAME", "Bernd"), ("N", "2"))
# Words that end a command line in a hint's prose.
PROSE = {
    "oder",
    "dann",
    "und",
    "zeigt",
    "öffnet",
    "eintragen",
    "verlängern",
    "abschließen",
    "ändern",
    "einschalten",
    "macht",
    "als",
    "ab",
    "–",
}
MENTION = {"geht", "gilt"}  # "/teilnehmer geht an der Turnierleitung": a command named, not asked
WAYS = re.compile(r"\s(?:oder|·)\s|\n👉 ")  # alternatives: a player takes the first
COMMAND = re.compile(r"(?<![\w/])/[a-zäöü_]+")
WORD_END = re.compile(r"[\s–,;:!?()“”„…\[·]|\.(?:\s|$)")

# A list where a trigger's 3B3R sequence was played out to its end: three Ramsch games and
# a normal game hang on game 1 (correcting or cancelling game 1 breaks all three Ramsch).
PLAYED_OUT = (
    *HOUSE,
    "/spiel Anna grand mit 1 kontra verloren",
    *(["/eingepasst"] * 3),
    "/ramsch Anna 50",
    "/ramsch Bernd 50",
    "/ramsch Carla 50",
    "/spiel Bernd grand mit 1 gewonnen",
)
SEQUENCES = [
    Case("korrigieren-played-out", PLAYED_OUT, "/korrigieren 1 Anna grand mit 1 verloren"),
    Case("storno-played-out", PLAYED_OUT, "/storno 1 ja"),
]


def shape(text: str) -> str:
    """A refusal without its numbers: what stays the same when a hint only moves on."""
    return re.sub(r"[0-9]+", "N", text)


def command_lines(hint: str) -> list[str]:
    """The command lines of the first way a hint offers (that names one), as a player would
    copy them: a command and the words after it, up to the prose around it, an ellipsis or
    an optional part in brackets."""
    for way in WAYS.split(hint.replace(" ohne Worte", "")):
        lines = []
        for found in COMMAND.finditer(way):
            words = [found.group()]
            rest = way[found.end() :]
            while rest.startswith(" "):
                rest = rest[1:]
                end = WORD_END.search(rest)
                word = rest[: end.start()] if end else rest
                if not word or word.casefold() in PROSE or COMMAND.fullmatch(word):
                    break
                words.append(word)
                rest = rest[len(word) :]
            if len(words) == 1 or words[1] not in MENTION:
                lines.append(" ".join(words))
        if lines:
            return lines
    return []


def filled(line: str, fill: tuple[tuple[str, str], ...]) -> str | None:
    """The line with its placeholders filled in; None when one is left no player could
    guess."""
    for placeholder, value in (*fill, *DEFAULTS):
        line = re.sub(rf"\b{placeholder}\b", value, line)
    return None if re.search(r"\b[A-ZÄÖÜ]{2,}\b", line) else line


async def answer(chat: Harness, message: str) -> tuple[bool, str]:
    out = await chat.say(message)
    text = "\n".join(r.text for r in out)
    if "Serie jetzt abschließen?" in text:  # /abschluss before the end asks: a user taps "Ja"
        ask = chat.last(-1001)
        await chat.tap(ask, ask.buttons[0][0][1])
    return any(r.refusal for r in out), text


async def follow(
    chat: Harness, case: Case, message: str, text: str, seen: list[str], depth: int
) -> None:
    """Follow the hint of ``text`` (the refusal of ``message``)."""
    assert shape(text) not in seen, ("round in a circle", case.id, [*seen, text])
    seen = [*seen, shape(text)]
    hint = text.split("\n👉 ", 1)[1] if "\n👉 " in text else ""
    lines = [f for line in command_lines(hint) if (f := filled(line, case.fill))]
    if message == case.refused and (case.retry or "noch einmal" in hint):
        lines.append(message)
    assert depth < DEPTH or not lines, ("no end in sight", case.id, seen)
    for line in lines:
        was_refused, reply = await answer(chat, line)
        if was_refused:
            await follow(chat, case, line, reply, seen, depth + 1)


@pytest.mark.parametrize("case", CATALOGUE + SEQUENCES, ids=[c.id for c in CATALOGUE + SEQUENCES])
async def test_following_a_hint_never_leads_round_in_a_circle(chat: Harness, case: Case) -> None:
    for message in case.setup:
        was_refused, text = await answer(chat, message)
        assert not was_refused, (message, text)
    was_refused, text = await answer(chat, case.refused)
    assert was_refused, (case.refused, text)
    await follow(chat, case, case.refused, text, [], 0)


def test_command_lines_are_read_as_a_player_copies_them() -> None:
    hint = "Erst Spiel 7 streichen: /storno 7 – dann noch einmal: /korrigieren 1 Anna grand mit 1 g"
    assert command_lines(hint) == ["/storno 7", "/korrigieren 1 Anna grand mit 1 g"]
    assert command_lines("Mit /serie N verlängern oder mit /abschluss abschließen.") == ["/serie N"]
    assert command_lines("Z. B. /korrigieren 2 … – die Nummern zeigt /liste.") == [
        "/korrigieren 2",
        "/liste",
    ]
    assert command_lines("In Sitzreihenfolge: /neu Anna Bernd Carla [Dora] · /neu x") == [
        "/neu Anna Bernd Carla"
    ]
    assert command_lines("/teilnehmer geht an der Turnierleitung (/turnier NAME macht") == [
        "/turnier NAME"
    ]


async def test_the_way_that_keeps_the_sequence_keeps_every_game(chat: Harness) -> None:
    for message in PLAYED_OUT:
        await ok(chat, message)
    await ok(
        chat,
        "/korrigieren 1 Anna grand mit 1 verloren wie gespielt",
        "♻️ Bock und Ramsch bleiben, wie sie gespielt wurden.",
        "3B3R ausgelöst: Kontra ohne Re verloren (wie gespielt)",
    )
    listing = await ok(chat, "/liste")
    for nr in (5, 6, 7):
        assert re.search(rf"^ *{nr} │ \w+ +│ Ramsch", listing, re.M), listing
    await ok(chat, "/storno 1 ja wie gespielt", "♻️ Bock und Ramsch bleiben")
    listing = await ok(chat, "/liste")
    assert re.search(r"^ *4 │ \w+ +│ Ramsch", listing, re.M), listing


async def test_an_earlier_games_strike_that_breaks_the_sequence_leads_to_the_way_that_keeps_it(
    chat: Harness,
) -> None:
    """The strike of an earlier game asks first; its "Ja" strikes plainly, so where that
    breaks Bock and Ramsch the refusal's way names the answer too, and a typed "wie gespielt"
    is asked with the line that does it (the button would strike without it)."""
    for message in PLAYED_OUT:
        await ok(chat, message)
    await ok(chat, "/storno 1", "❓ Spiel 1 streichen?")
    tapped = await chat.tap(chat.last(with_buttons=True), "Ja, Spiel 1 streichen")
    assert tapped.alert, tapped
    assert "/storno 1 ja wie gespielt" in tapped.notice + tapped.text, tapped
    asked = await ok(chat, "/storno 1 wie gespielt", "Bock und Ramsch wie gespielt?")
    assert "/storno 1 ja wie gespielt" in asked
    await ok(chat, "/storno 1 ja wie gespielt", "♻️ Bock und Ramsch bleiben")
