"""The Preisskat desk's commands as their routes declare them: the words read into a request
(a refusal carries its fix), the management's right on a change (the refusal names what
everyone may read), and the place kinds served (elsewhere: where the command works)."""

from __future__ import annotations

import pytest

from skatbot.handlers.routes import ROUTES, Kind
from skatbot.usecases.common.place_kinds import PlaceKind
from skatbot.usecases.common.rights import ANYONE, TOURNAMENT_MANAGER
from tests.harness import Harness
from tests.helpers import export_raw, ok, refused
from tests.usecases.tournament.test_tournament_chat import (
    ORGANISER,
    draw,
    results_message,
    setup_tournament,
)

DESK = -1701
LISTS = -1702
STRANGER = {"user_id": 77, "name": "Sven"}
NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda"]


def _target(name: str, kind: Kind = Kind.COMMAND) -> object:
    route = next(r for r in ROUTES if r.kind is kind and r.name == name)
    found = [t for t in route.targets if PlaceKind.TOURNAMENT_DESK in t.kinds]
    assert len(found) == 1, name
    return found[0]


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("turnier", "EndTournament"),
        ("teilnehmer", "AddParticipants"),
        ("team", "SetTeam"),
        ("teamwertung", "SetTeamScoring"),
        ("turnierregeln", "SetCounting"),
        ("gebuehren", "SetFees"),
        ("preise", "SetPrizes"),
    ],
)
def test_a_change_is_the_managements_and_reading_is_everyones(name: str, change: str) -> None:
    target = _target(name)
    assert target.right == {change: TOURNAMENT_MANAGER}  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["entfernen", "auslosen", "ergebnis"])
def test_a_managing_command_asks_the_right_before_its_words(name: str) -> None:
    assert _target(name).right is TOURNAMENT_MANAGER  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["turniere", "fehlend", "rangliste", "urkunden", "kasse"])
def test_a_reading_command_is_open_to_everyone(name: str) -> None:
    assert _target(name).right is ANYONE  # type: ignore[attr-defined]


def test_the_tournament_desk_gives_its_results_to_its_own_use_case() -> None:
    route = next(r for r in ROUTES if r.kind is Kind.COMMAND and r.name == "ergebnis")
    runs = {t.run: t.kinds for t in route.targets}
    assert runs["tournament.result_entry:ergebnis"] == {PlaceKind.TOURNAMENT_DESK}
    assert PlaceKind.TOURNAMENT_DESK not in runs["league.results:ergebnis"]


async def test_words_that_make_no_request_are_refused_with_the_fix(chat: Harness) -> None:
    await setup_tournament(chat, chat_id=DESK, names=NAMES)
    before = await export_raw(chat, DESK)
    at_desk = {"chat_id": DESK, **ORGANISER}
    await refused(chat, "/entfernen", "Wen soll ich entfernen?", "/entfernen Anna", **at_desk)
    await refused(chat, "/auslosen 1 2", "Höchstens ein Startwert", "/auslosen 4711", **at_desk)
    await refused(
        chat, "/auslosen zurück bitte", "kenne ich bei /auslosen zurück nicht",
        "/auslosen zurück ja", **at_desk,
    )  # fmt: skip
    await refused(chat, "/ergebnis", "Welches Ergebnis?", "/ergebnis Anna", **at_desk)
    await refused(chat, "/ergebnis serie 1", "fehlen die Ergebnisse", **at_desk)
    await refused(chat, "/rangliste morgen", "kenne ich bei /rangliste nicht", **at_desk)
    await refused(chat, "/rangliste serie x", "Welche Serie?", "/rangliste serie 2", **at_desk)
    await refused(chat, "/urkunden 0", "Für wie viele Plätze?", "/urkunden 3", **at_desk)
    await refused(chat, "/turnierregeln schnitt ab", "kenne ich bei /turnierregeln", **at_desk)
    await refused(chat, "/teamwertung beste", "kenne ich bei /teamwertung", **at_desk)
    await refused(chat, "/kasse bitte", "kenne ich bei /kasse nicht", "/kasse turnier 1", **at_desk)
    await refused(chat, "/turniere alle", "kenne ich bei /turniere nicht", **at_desk)
    await refused(chat, "/rangliste turnier x", "keine Turniernummer", **at_desk)
    assert await export_raw(chat, DESK) == before


async def test_a_stranger_reads_but_changes_nothing(chat: Harness) -> None:
    await setup_tournament(chat, chat_id=DESK, names=NAMES)
    await draw(chat, "7", chat_id=DESK)
    before = await export_raw(chat, DESK)
    stranger = {"chat_id": DESK, **STRANGER}
    for change in (
        "/teilnehmer Gustav", "/entfernen Anna", "/auslosen zurück", "/ergebnis Anna 10 1 0",
        "/turnierregeln summe", "/team Anna Nord", "/team Anna[Nord]", "/teamwertung beste 2",
        "/turnier ende",
    ):  # fmt: skip
        text = await refused(chat, change, "verwalten Olga", "Lesen geht für alle", **stranger)
        assert "/teilnehmer, /fehlend" in text or "/rangliste, /urkunden" in text, text
    # the money's refusal names the money's reading
    await refused(
        chat, "/gebuehren startgeld 5 €", "verwalten Olga", "/kasse, /abrechnung", **stranger
    )
    await refused(chat, "/preise 1. 10 €", "verwalten Olga", "/kasse, /abrechnung", **stranger)
    # ending names what stays readable of an ended tournament
    await refused(chat, "/turnier ende", "/rangliste, /urkunden, /kasse, /export", **stranger)
    assert await export_raw(chat, DESK) == before
    await ok(chat, "/teilnehmer", "Teilnehmer (6)", **stranger)
    await ok(chat, "/fehlend", "Serie 1", **stranger)
    await ok(chat, "/turnierregeln", "Zählweise", **stranger)
    await ok(chat, "/team", "Teams", **stranger)
    await ok(chat, "/teamwertung", "Teamwertung", **stranger)
    await ok(chat, "/gebuehren", "Gebühren", **stranger)


async def test_a_desk_command_elsewhere_says_where_it_works(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla", chat_id=LISTS, **ORGANISER)
    before = await export_raw(chat, LISTS)
    for command in (
        "/teilnehmer Anna",
        "/auslosen",
        "/rangliste",
        "/gebuehren",
        "/ergebnis Anna 1 1 0",
    ):
        await refused(
            chat, command, "gilt hier nicht", "an der Turnierleitung", chat_id=LISTS, **ORGANISER
        )
    # /turnier ende where no tournament runs; /turniere: there was none
    await refused(
        chat, "/turnier ende", "läuft kein Turnier", "/turnier NAME", chat_id=LISTS, **ORGANISER
    )
    await ok(chat, "/turniere", "gab es noch kein Turnier", chat_id=LISTS, **ORGANISER)
    assert await export_raw(chat, LISTS) == before


async def test_the_draw_button_is_stale_where_the_tournament_is_gone(chat: Harness) -> None:
    await setup_tournament(chat, chat_id=DESK, names=NAMES)
    await draw(chat, "7", chat_id=DESK)
    at_desk = {"chat_id": DESK, **ORGANISER}
    await ok(chat, results_message({n: (10, 1, 0) for n in NAMES}), **at_desk)
    await ok(chat, "/auslosen 8", "Serie 2", **at_desk)
    await ok(chat, "/auslosen zurück", **at_desk)
    await ok(chat, "/auslosen zurück ja", "zurückgenommen", **at_desk)
    offer = chat.last(DESK, with_buttons=True)  # the one-tap draw of series 2 again
    await ok(chat, "/loeschen", **at_desk)
    await ok(chat, "/loeschen ja", "kein Turnier mehr", **at_desk)  # a place with lists now
    tapped = await chat.tap(offer, "Nächste Serie auslosen", user_id=ORGANISER["user_id"])
    assert tapped.notice == "Dieser Knopf gilt nicht mehr.", tapped.notice
