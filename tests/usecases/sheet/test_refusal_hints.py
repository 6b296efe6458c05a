"""Every refusal's hint, when followed, works.

A catalogue of refusal situations. Each entry: a setup (accepted messages), a refused input,
and what following its ``👉`` hint means:

- ``commands``: the command lines the hint names (placeholders such as NAME or N in capitals);
  each must appear in the hint word for word, and, with the obvious placeholder filled in
  (``fill``), is sent and must be accepted;
- ``then``: for a hint in words ("Schreib „hand“ dazu."), the input the hint asks for
  (``prose``: the words of the hint that say so), which must be accepted;
- ``retry``: after the commands, the refused input itself is accepted.

Every command a hint mentions must exist. The property "follow the hint → accepted" is checked
for each entry on the use cases (the ``chat`` harness).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from skatbot.handlers.routes import commands
from tests.harness import Harness
from tests.helpers import ok, refused

KNOWN = {route.name for route in commands()}

T3 = ("/neu Anna Bernd Carla",)
T4 = ("/neu Anna Bernd Carla Dora",)
G2 = (*T3, "/spiel Anna grand mit 1 gewonnen", "/spiel Bernd herz mit 2 verloren")
HOUSE = ("/regeln haus", *T3)
RAMSCH = (*HOUSE, "/bock", "/eingepasst", "/eingepasst", "/eingepasst")  # Ramsch 1/3
SICK = (*RAMSCH, "/krank Anna")
# Kontra and Re start 3B3R; the Ramsch of game 5 hangs on game 1
TRIGGERED = (
    *HOUSE,
    "/spiel Anna grand mit 1 kontra re g",
    *(["/eingepasst"] * 3),
    "/ramsch Anna 50",
)
TOURNEY = ("/turnier Stadtmeisterschaft", "/teilnehmer Anna, Bernd, Carla")
NAMES = "/neu Anna Maria, Anna Lena, Bernd"


@dataclass(frozen=True)
class Case:
    id: str
    setup: tuple[str, ...]
    refused: str
    commands: tuple[str, ...] = ()
    fill: tuple[tuple[str, str], ...] = ()
    then: tuple[str, ...] = ()
    prose: tuple[str, ...] = ()
    retry: bool = False


def spiel(id: str, words: str, then: str, *prose: str, setup: tuple[str, ...] = T3) -> Case:
    """A refused ``/spiel Anna WORDS`` whose hint (in words) asks for ``/spiel Anna THEN``."""
    return Case(id, setup, f"/spiel Anna {words}", then=(f"/spiel Anna {then}",), prose=prose)


CATALOGUE = [
    # --- the list ------------------------------------------------------------------------------
    Case("no-list", (), "/spiel Anna grand mit 1 gewonnen", ("/neu Anna Bernd Carla",), retry=True),
    Case("neu-size", (), "/neu Anna Bernd", ("/neu Anna Bernd Carla",)),
    Case(
        "spiel-no-name",
        T3,
        "/spiel grand ohne 1 hand gewonnen",
        ("/spiel Bernd grand ohne 1 hand gewonnen",),
    ),
    Case(
        "korrigieren-no-name",
        G2,
        "/korrigieren 2 herz mit 2 gewonnen",
        ("/korrigieren 2 Bernd herz mit 2 gewonnen",),
    ),
    Case("neu-geber", (), "/neu Anna Bernd Carla geber", ("/neu Anna Bernd Carla geber Bernd",)),
    Case("neu-number", (), "/neu Anna Bernd 123", then=("/neu Anna Bernd Carla",)),
    Case(
        "neu-twice",
        (),
        "/neu Anna Bernd anna",
        then=("/neu Anna Bernd Carla",),
        prose=("Namen müssen sich unterscheiden",),
    ),
    Case(
        "neu-reserved",
        (),
        "/neu Anna Bernd passe",
        then=("/neu Anna Bernd Carla",),
        prose=("anderen Namen",),
    ),
    Case(
        "sitting-out",
        T4,
        "/spiel Anna grand mit 1 gewonnen",
        ("/geber NAME",),
        fill=(("NAME", "Bernd"),),
        retry=True,
    ),
    Case(
        "sitting-out-other",
        T4,
        "/spiel Anna grand mit 1 gewonnen",
        then=("/spiel Bernd grand mit 1 gewonnen",),
        prose=("Anderen Alleinspieler",),
    ),
    # the dealer of a past game at a 4-table: /geber would only set the next dealer
    Case(
        "correction-dealer",
        (*T4, "/spiel Bernd grand mit 1 gewonnen"),
        "/korrigieren 1 Anna grand mit 1 gewonnen",
        ("/korrigieren 1 Anna grand mit 1 gewonnen geber NAME",),
        fill=(("NAME", "Dora"),),
    ),
    Case(
        "correction-dealer-other",
        (*T4, "/spiel Bernd grand mit 1 gewonnen"),
        "/korrigieren 1 Anna grand mit 1 gewonnen",
        then=("/korrigieren 1 Carla grand mit 1 gewonnen",),
        prose=("Anderen Alleinspieler",),
    ),
    Case(
        "correction-new-dealer",
        (*T4, "/spiel Bernd grand mit 1 gewonnen"),
        "/korrigieren 1 Bernd grand mit 1 gewonnen geber Bernd",
        then=("/korrigieren 1 Bernd grand mit 1 gewonnen geber Carla",),
        prose=("einen anderen Geber",),
    ),
    Case("correction-geber-name", G2, "/korrigieren 1 geber", ("/korrigieren 1 geber Bernd",)),
    Case(
        "series-full",
        (*T3, "/serie 1", "/spiel Anna grand mit 1 gewonnen"),
        "/spiel Bernd grand mit 1 gewonnen",
        ("/serie N",),
        fill=(("N", "2"),),
        retry=True,
    ),
    Case("series-length", G2, "/serie 1", then=("/serie 2",), prose=("Erlaubt: 2 bis",)),
    Case("series-word", G2, "/serie viele", ("/serie 48",)),
    Case("storno-number", G2, "/storno", ("/storno 2", "/liste")),
    Case(
        "korrigieren-number",
        G2,
        "/korrigieren",
        ("/liste",),
        then=("/korrigieren 2 passe",),
        prose=("/korrigieren 2 …",),
    ),
    Case(
        "storno-unknown",
        G2,
        "/storno 999",
        ("/liste",),
        then=("/storno 2",),
        prose=("Gültig sind 1 bis 2",),
    ),
    Case(
        "korrigieren-game",
        G2,
        "/korrigieren 1",
        ("/korrigieren 1 Anna grand ohne 1 hand gewonnen",),
    ),
    Case(
        "korrigieren-game-same",
        (*T3, "/spiel Anna grand ohne 1 hand gewonnen"),
        "/korrigieren 1",
        ("/korrigieren 1 Anna grand ohne 1 hand verloren",),
    ),
    Case(
        "korrigieren-game-4",
        (*T4, "/eingepasst"),
        "/korrigieren 1",
        ("/korrigieren 1 Bernd grand ohne 1 hand gewonnen",),
    ),
    Case("correction-unchanged", G2, "/korrigieren 1 Anna grand mit 1 gewonnen", ("/liste",)),
    Case("geber-missing", G2, "/geber", ("/geber Bernd",)),
    Case("geber-unknown", G2, "/geber Zoe", then=("/geber Bernd",), prose=("Anna, Bernd, Carla",)),
    Case(
        "ambiguous",
        ("/neu Anna Andreas Bernd",),
        "/spiel an grand mit 1 gewonnen",
        then=("/spiel ann grand mit 1 gewonnen",),
        prose=("Mehr Buchstaben",),
    ),
    Case("umbenennen-words", G2, "/umbenennen Anna", ("/umbenennen Anna Annika",)),
    Case(
        "umbenennen-twice",
        G2,
        "/umbenennen Anna bernd",
        then=("/umbenennen Anna Annika",),
        prose=("Namen müssen sich unterscheiden",),
    ),
    Case(
        "running-list",
        G2,
        "/neu Dora Emil Fritz",
        then=("/neu Dora Emil Fritz",),
        commands=("/abschluss",),
        prose=("dann /neu",),
    ),
    Case(
        "closed-list",
        (*G2, "/abschluss"),
        "/spiel Anna grand mit 1 gewonnen",
        ("/weiter",),
        retry=True,
    ),
    Case("weiter-running", G2, "/weiter", ("/abschluss", "/weiter")),
    Case("abschluss-word", G2, "/abschluss vielleicht", ("/abschluss ja",)),
    Case("oeffnen-nothing", (), "/oeffnen", ("/neu Anna Bernd Carla",)),
    Case("oeffnen-running", G2, "/oeffnen", ("/spiel",)),
    Case(
        "oeffnen-newer",
        (*G2, "/abschluss", "/weiter"),
        "/oeffnen",
        then=("/spiel Anna grand mit 1 gewonnen",),
        prose=("In der laufenden Liste weiterspielen",),
    ),
    Case("vordruck", T3, "/vordruck", ("/vordruck 3", "/vordruck 4")),
    Case("wert", (), "/wert", ("/wert grand ohne 1 hand gewonnen",)),
    # --- the announcement ----------------------------------------------------------------------
    spiel("spiel-empty", "", "grand ohne 1 hand gewonnen", "„grand ohne 1 hand gewonnen“"),
    Case(
        "spiel-nothing",
        T3,
        "/spiel Anna",
        then=("/spiel Anna grand ohne 1 hand gewonnen",),
        prose=("„grand ohne 1 hand gewonnen“",),
    ),
    spiel(
        "counted",
        "kreuz ohne 2 spiel 3 hand 5 gewonnen",
        "kreuz ohne 2 spiel 3 hand 4 gewonnen",
        "„ohne 2 spiel 3 hand 4“",
    ),
    spiel("matadors", "kreuz gewonnen", "kreuz mit 1 gewonnen", "„mit 1“"),
    spiel("matadors-range", "grand mit 5 gewonnen", "grand mit 4 gewonnen", "1 bis 4"),
    spiel("null-matadors", "null mit 2 gewonnen", "null gewonnen", "weg"),
    spiel("null-levels", "null schneider gewonnen", "null hand gewonnen", "„hand“"),
    spiel("null-points", "null augen 50", "null verloren", "„verloren“"),
    spiel("points-range", "kreuz mit 1 augen 121", "kreuz mit 1 augen 120", "0 und 120"),
    spiel("no-outcome", "kreuz mit 1", "kreuz mit 1 gewonnen", "„gewonnen“"),
    spiel(
        "won-points", "kreuz mit 1 gewonnen augen 50", "kreuz mit 1 verloren augen 50", "„verloren“"
    ),
    spiel(
        "lost-points",
        "kreuz mit 1 verloren augen 80",
        "kreuz mit 1 verloren augen 50",
        "Prüf Augen",
    ),
    spiel(
        "schwarz-points",
        "grand mit 1 schwarz augen 100",
        "grand mit 1 schwarz augen 120",
        "120 Augen",
    ),
    spiel(
        "schneider-points",
        "kreuz mit 1 schneider augen 70",
        "kreuz mit 1 schneider augen 90",
        "ab 90 Augen",
    ),
    spiel("bid", "grand mit 1 reiz 19 gewonnen", "grand mit 1 reiz 18 gewonnen", "18, 20"),
    spiel("null-bid", "null reiz 60 gewonnen", "null reiz 59 gewonnen", "Reizwert"),
    spiel("number-missing", "grand mit gewonnen", "grand mit 2 gewonnen", "„mit 2“"),
    spiel("typo", "grnad mit 1 gewonnen", "grand mit 1 gewonnen", "„grand“"),
    spiel(
        "angesagt",
        "kreuz mit 1 hand angesagt gewonnen",
        "kreuz mit 1 hand schneider angesagt gewonnen",
        "„schneider angesagt“",
    ),
    spiel("loose-number", "kreuz mit 1 5 gewonnen", "kreuz mit 1 augen 65", "„augen N“"),
    spiel("twice", "grand mit 1 gewonnen verloren", "grand mit 1 gewonnen", "nur einmal"),
    spiel("game-missing", "mit 1 gewonnen", "grand mit 1 gewonnen", "Grand"),
    Case(
        "kontra-isko",
        T3,
        "/spiel Anna grand mit 1 kontra gewonnen",
        ("/regeln haus",),
        prose=("ersten Spiel",),
        retry=True,
    ),
    spiel(
        "re-alone",
        "grand mit 1 re gewonnen",
        "grand mit 1 kontra re gewonnen",
        "„kontra re“",
        setup=HOUSE,
    ),
    # --- house rules ---------------------------------------------------------------------------
    Case("bock-isko", T3, "/bock", ("/regeln haus",), retry=True),
    Case(
        "ramsch-isko",
        T3,
        "/ramsch Anna 55",
        ("/regeln haus",),
        retry=False,
        then=("/bock", "/eingepasst", "/eingepasst", "/eingepasst", "/ramsch Anna 55"),
    ),
    Case("regeln-unknown", T3, "/regeln streng", ("/regeln haus", "/regeln isko")),
    Case(
        "regeln-option",
        T3,
        "/regeln haus schnell",
        then=("/regeln haus runde=geberrunde",),
        prose=("runde=geberrunde",),
    ),
    Case("regeln-isko", T3, "/regeln isko streng", ("/regeln isko",)),
    Case("startpunkte-pairs", HOUSE, "/startpunkte Anna", ("/startpunkte Anna 100 Bernd -20",)),
    Case(
        "startpunkte-number",
        HOUSE,
        "/startpunkte Anna viel",
        then=("/startpunkte Anna 100",),
        prose=("Ganze Zahl",),
    ),
    Case(
        "startpunkte-late",
        (*HOUSE, "/spiel Anna grand mit 1 gewonnen"),
        "/startpunkte Anna 100",
        ("/abschluss", "/weiter"),
        then=("/startpunkte Anna 100",),
        prose=("dann /startpunkte",),
    ),
    Case("krank-who", RAMSCH, "/krank", ("/krank Anna",)),
    Case(
        "krank-who-4",
        (  # a 4-table in Ramsch where Anna deals and sits out: the example is someone else
            "/regeln haus",
            *T4,
            "/spiel Bernd grand mit 1 gewonnen",
            "/bock",
            "/eingepasst",
            "/eingepasst",
            "/eingepasst",
        ),
        "/krank",
        ("/krank Bernd",),
    ),
    Case("krank-twice", SICK, "/krank Bernd", ("/spiel Anna grand mit 1 hand gewonnen", "/gesund")),
    Case("krank-twice-gesund", SICK, "/krank Bernd", ("/gesund",), retry=True),
    Case(
        "krank-dealer",
        ("/regeln haus", *T4, "/bock", "/eingepasst", "/eingepasst", "/eingepasst"),
        "/krank Dora",
        then=("/krank Anna",),
        prose=("Der Geber spielt nicht mit",),
    ),
    Case(
        "ramsch-normal-game",
        RAMSCH,
        "/spiel Anna grand mit 1 gewonnen",
        ("/ramsch VERLIERER AUGEN", "/krank NAME"),
        fill=(("VERLIERER", "Anna"), ("AUGEN", "55"), ("NAME", "Bernd")),
    ),
    Case(
        "ramsch-pass",
        RAMSCH,
        "/eingepasst",
        ("/ramsch VERLIERER AUGEN",),
        fill=(("VERLIERER", "Bernd"), ("AUGEN", "60")),
    ),
    Case(
        "sick-plays",
        SICK,
        "/spiel Bernd grand mit 1 hand gewonnen",
        ("/spiel Anna grand mit 1 hand gewonnen", "/gesund"),
    ),
    Case(
        "sick-grand-hand",
        SICK,
        "/spiel Anna kreuz mit 1 hand gewonnen",
        ("/spiel Anna grand mit 1 hand gewonnen",),
    ),
    Case(
        "sick-schneider",
        SICK,
        "/spiel Anna grand mit 1 hand augen 95",
        ("/spiel Anna grand mit 1 hand gewonnen",),
    ),
    Case("sick-ramsch", SICK, "/ramsch Bernd 55", ("/gesund",), retry=True),
    Case(
        "ramsch-words", RAMSCH, "/ramsch", ("/ramsch Anna 55 geschoben 1", "/ramsch Anna Bernd 50")
    ),
    Case("ramsch-tie", RAMSCH, "/ramsch", ("/ramsch Anna Bernd 50",)),
    Case("durchmarsch-who", RAMSCH, "/ramsch durchmarsch", ("/ramsch durchmarsch Anna",)),
    Case(
        "ramsch-points", RAMSCH, "/ramsch Anna 30", then=("/ramsch Anna 41",), prose=("41 bis 120",)
    ),
    Case(
        "ramsch-count",
        RAMSCH,
        "/ramsch Anna 55 geschoben",
        then=("/ramsch Anna 55 geschoben 1",),
        prose=("„geschoben 1“",),
    ),
    Case(
        "ramsch-virgins",
        RAMSCH,
        "/ramsch Anna 55 jungfrau 2",
        then=("/ramsch Anna 55 jungfrau 1",),
        prose=("höchstens die anderen",),
    ),
    Case(
        "ramsch-loser-dealer",
        ("/regeln haus", *T4, "/bock", "/eingepasst", "/eingepasst", "/eingepasst"),
        "/ramsch Dora 55",
        then=("/ramsch Anna 55",),
        prose=("Anderen Namen",),
    ),
    Case(
        "ramsch-all-tricks", RAMSCH, "/ramsch Carla 120 jungfrau 2", ("/ramsch durchmarsch Carla",)
    ),
    Case(
        "ramsch-three-losers",
        RAMSCH,
        "/ramsch Anna Bernd Carla 45",
        ("/ramsch Anna Bernd Carla 40",),
    ),
    Case(
        "korrigieren-3b3r-trigger",
        TRIGGERED,
        "/korrigieren 1 Anna grand mit 1 g",
        ("/korrigieren 1 Anna grand mit 1 g wie gespielt",),
    ),
    Case("storno-3b3r-trigger", TRIGGERED, "/storno 1 ja", ("/storno 1 ja wie gespielt",)),
    # --- tournament ----------------------------------------------------------------------------
    Case(
        "no-tournament",
        (),
        "/teilnehmer Anna, Bernd, Carla",
        ("/turnier NAME",),
        fill=(("NAME", "Vereinsmeisterschaft"),),
        retry=True,
    ),
    Case("turnier-name", (), "/turnier", ("/turnier Preisskat Vereinsheim",)),
    Case("entfernen-who", TOURNEY, "/entfernen", ("/entfernen Anna",)),
    Case("serienlaenge", TOURNEY, "/serienlaenge 36", ("/serienlaenge 36 48",)),
    Case("auslosen-seeds", TOURNEY, "/auslosen 1 2", ("/auslosen 4711",)),
    Case("ergebnis-before-draw", TOURNEY, "/ergebnis Anna 437 12 3", ("/auslosen",), retry=True),
    Case("ergebnis-empty", (*TOURNEY, "/auslosen"), "/ergebnis", ("/ergebnis Anna 345 12 3",)),
    Case(
        "ergebnis-too-many-numbers",
        (*TOURNEY, "/auslosen"),
        "/ergebnis Anna 260 8 3 5",
        ("/ergebnis Anna 260 8 3",),
    ),
    # --- names as people type them -------------------------------------------------------------
    Case(
        "name-shared-beginning",
        (NAMES,),
        "/spiel anna grand mit 1 g",
        ("/spiel Anna Maria grand mit 1 g", "/spiel Anna Lena grand mit 1 g"),
    ),
    Case("name-unknown", (NAMES,), "/spiel Berndt grand mit 1 g", ("/spiel Bernd grand mit 1 g",)),
    Case(
        "name-korrigieren",
        (NAMES, "/spiel Anna Lena grand mit 1 g"),
        "/korrigieren 1 anna null g",
        ("/korrigieren 1 Anna Lena null g",),
    ),
    Case(
        "neu-five-words", (), "/neu Anna Maria Anna Lena Bernd", ('/neu "Anna Maria" Bernd Carla',)
    ),
    # --- unknown commands and typos ------------------------------------------------------------
    Case("typo-stand", T3, "/stnad", ("/stand",)),
    Case("typo-spiel", T3, "/spile anna grand mit 1 g", ("/spiel anna grand mit 1 g",)),
    Case("typo-umlaut", (*G2, "/abschluss ja"), "/öffnen", ("/oeffnen",)),
]


def filled(command: str, fill: tuple[tuple[str, str], ...]) -> str:
    for placeholder, value in fill:
        command = re.sub(rf"\b{placeholder}\b", value, command)
    assert not re.search(r"\b[A-ZÄÖÜ]{2,}\b", command), ("placeholder left", command)
    return command


async def accepted(chat: Harness, message: str) -> str:
    reply = await ok(chat, message)
    assert reply, message
    if "Serie jetzt abschließen?" in reply:  # /abschluss before the end asks: a user taps "Ja"
        ask = chat.last(-1001)
        await chat.tap(ask, ask.buttons[0][0][1])
        done = chat.messages[(-1001, ask.message_id)].text
        assert done.startswith("🏁 Serie abgeschlossen"), (message, done)
    return reply


def test_catalogue_ids_are_unique() -> None:
    assert len({c.id for c in CATALOGUE}) == len(CATALOGUE)


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.id for c in CATALOGUE])
async def test_following_the_hint_is_accepted(chat: Harness, case: Case) -> None:
    for message in case.setup:
        await accepted(chat, message)
    text = await refused(chat, case.refused)
    assert text.startswith("⚠️ ") and "\n👉 " in text, (case.refused, text)
    hint = text.split("\n👉 ", 1)[1]
    mentioned = set(re.findall(r"(?<![\w/])/([a-z]+)", hint))
    assert mentioned <= KNOWN, (hint, mentioned - KNOWN)
    for part in case.prose:
        assert part in hint, (part, hint)
    for command in case.commands:
        assert command in hint, (command, hint)
    follow = [filled(c, case.fill) for c in case.commands]
    follow += [*case.then, *([case.refused] if case.retry else [])]
    assert follow, "a hint must lead somewhere"
    for message in follow:
        await accepted(chat, message)
