"""The league's routes as declared: the parsers refuse bad words with the fix, the rights
(``LEAGUE_MANAGER``, ``DAY_RUNNER``, ``TEAM_CAPTAIN``) refuse before anything changes, the
captain's right reads the team named in the request, and a chat that hosted a day reads the
league on any date but changes it on that date only."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import select

from skatbot.handlers.routes import ROUTES, Kind
from skatbot.rules.errors import RuleError
from skatbot.storage.league_models import MatchDay
from skatbot.usecases.common.place_kinds import PlaceKind
from skatbot.usecases.common.reply import Command
from skatbot.usecases.common.rights import DAY_RUNNER, LEAGUE_MANAGER, TEAM_CAPTAIN
from skatbot.usecases.league import day, results, setup
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.league.test_league import (
    HOST,
    HOST_CHAT,
    LEADER,
    NORD_CAPTAIN,
    STRANGER,
    host_code,
    setup_league,
)

LEAGUE_COMMANDS = (
    "liga", "mannschaft", "kapitaen", "spieltag", "aufstellung", "setzen", "sitzplan",
    "wechsel", "tabelle", "einzelwertung", "bestaetigen", "ausrichter", "freigeben", "ergebnis",
)  # fmt: skip


def command(text: str) -> Command:
    return Command(-1001, "Liga", 1, "Gerd", 1, tuple(text.split()[1:]), text=text)


def test_every_league_route_declares_its_place_kinds_and_asks_no_flag() -> None:
    routes = {r.name: r for r in ROUTES if r.kind is Kind.COMMAND}
    for name in LEAGUE_COMMANDS:
        route = routes[name]
        assert route.targets, name
        assert not route.admin, name  # a right that asks for it says so
    # the management's commands ask Telegram whether the sender is a chat admin
    for name in ("liga", "mannschaft", "spieltag", "setzen", "wechsel", "freigeben"):
        assert routes[name].asks_admin, name
    assert not routes["tabelle"].asks_admin


def test_the_rights_check_the_league_desk_and_the_hosts_chat() -> None:
    assert set(LEAGUE_MANAGER.checks) == {PlaceKind.LEAGUE_DESK}
    assert (
        set(DAY_RUNNER.checks)
        == set(TEAM_CAPTAIN.checks)
        == {
            PlaceKind.LEAGUE_DESK,
            PlaceKind.HOST,
        }
    )


@pytest.mark.parametrize(
    ("parse", "text", "problem", "fix"),
    [
        (setup.parse_liga, "/liga serien 9", "Wie viele Serien", "1 bis 6"),
        (setup.parse_liga, "/liga wechsel manchmal", "Wann darf", "/liga wechsel zwischen"),
        (setup.parse_liga, "/liga matchpunkte 0", "Matchpunkte", "1 bis 10"),
        (setup.parse_mannschaft, "/mannschaft Nord Anna", "Doppelpunkt", "/mannschaft Nord:"),
        (setup.parse_kapitaen, "/kapitaen", "Welcher Kapitäns-Code", "/kapitaen K"),
        (setup.parse_host_code, "/ausrichter", "Welcher Ausrichter-Code", "/ausrichter A"),
        (day.parse_spieltag, "/spieltag eins", "Welcher Spieltag", "/spieltag 1"),
        (day.parse_spieltag, "/spieltag 2 Reken 30.02.2027", "kein Datum", "14.03.2027"),
        (day.parse_wechsel, "/wechsel", "Wer wechselt", "/wechsel Nord Erik für Anna"),
        (results.parse_ergebnis, "/ergebnis", "Welches Ergebnis", "/ergebnis Anna"),
        (results.parse_ergebnis, "/ergebnis serie 2", "fehlen die Ergebnisse", "/ergebnis"),
    ],
)
def test_a_parser_refuses_bad_words_with_the_fix(
    parse: Any, text: str, problem: str, fix: str
) -> None:
    with pytest.raises(RuleError) as refusal:
        parse(command(text))
    assert problem in refusal.value.message and fix in refusal.value.hint


def test_the_parsers_say_what_is_asked() -> None:
    assert setup.parse_liga(command("/liga serien 4")) == setup.ChangeSetting("series_per_day", 4)
    assert setup.parse_liga(command("/liga verlustspiel 0,50 €")) == setup.ChangeSetting(
        "lost_fee_cents", 50
    )
    # where a league starts, every word is its name
    assert setup.parse_new_league(command("/liga serien 4")) == setup.NameLeague("serien 4")
    assert setup.parse_kapitaen(command("/kapitaen k7f3q2x9")) == setup.RedeemCode("K7F3Q2X9")
    assert setup.parse_kapitaen(command("/kapitaen Nord")) == setup.NameCaptain("Nord")
    assert setup.parse_captain_code(command("/kapitaen Nord")) == setup.RedeemCode("NORD")
    assert results.parse_ergebnis(command("/ergebnis serie 2\nAnna 100 1 0")) == (
        results.EnterResults(("Anna 100 1 0",), 2, 2)
    )


async def test_the_captains_right_reads_the_team_named(chat: Harness) -> None:
    await setup_league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    before = await chat.text("/aufstellung")
    text = await refused(
        chat, "/aufstellung Süd: Fritz, Gabi, Hans", "„Süd“", "/kapitaen CODE", **NORD_CAPTAIN
    )
    assert "Kapitän" in text
    assert await chat.text("/aufstellung") == before
    await ok(chat, "/aufstellung Nord: Anna, Bernd, Carla", "Nord: Anna, Bernd, Carla",
             **NORD_CAPTAIN)  # fmt: skip
    # the management's right comes before the words: no syntax lesson to the unentitled
    await refused(chat, "/spieltag eins", "verwalten Gerd", "Lesen geht für alle", **STRANGER)
    await refused(chat, "/freigeben", "verwalten Gerd", **NORD_CAPTAIN)


async def test_a_hosts_chat_reads_on_any_date_and_changes_on_its_day(chat: Harness) -> None:
    await setup_league(chat)
    await ok(chat, "/spieltag 1 Münster", **LEADER)
    code = await host_code(chat)
    at_host = {"chat_id": HOST_CHAT, **HOST}
    await ok(chat, f"/ausrichter {code}", "richtet hier Spieltag 1", **at_host)
    await refused(chat, "/setzen", "richtet hier Hugo", chat_id=HOST_CHAT, **STRANGER)
    await ok(chat, "/setzen", "Serie 1", **at_host)

    def yesterday(session: Any) -> None:
        played = session.scalars(select(MatchDay).where(MatchDay.number == 1)).one()
        played.play_date = played.play_date - dt.timedelta(days=1)

    chat.db.run_write(yesterday)
    for reading in ("/sitzplan", "/aufstellung", "/tabelle 1", "/einzelwertung"):
        out = await chat.say(reading, **at_host)
        assert not any("gilt hier nicht" in r.text for r in out), (reading, out)
    await ok(chat, "/sitzplan", "Spieltag 1 in Münster · Serie 1", **at_host)
    await refused(chat, "/aufstellung Nord fehlt", "nur an diesem Tag", "/tabelle", **at_host)
    await refused(chat, "/wechsel Nord Erik für Anna", "gilt hier nicht", **at_host)
    # a chat that never hosted has no league to read
    await refused(chat, "/tabelle", "keine Liga", "/liga", chat_id=-4004, **STRANGER)
