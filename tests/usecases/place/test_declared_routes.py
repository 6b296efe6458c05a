"""The place's commands as their routes declare them (the ``chat`` harness): the parsers'
refusals with their fix, the rights of the place (``common/rights.py``, "the place") and
the order in which a refusal comes (a right that has nothing to guard leaves the word to the
use case), and that every declared target names functions that exist."""

from __future__ import annotations

import importlib
import inspect

from skatbot.handlers.routes import ROUTES
from skatbot.usecases.common.place_kinds import EVERYWHERE, PlaceKind
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.place.test_rights import dump

CHAT = -1001
CREATOR, MEMBER, ADMIN = 1, 9, 7
CREATOR_SAYS = {"chat_id": CHAT, "user_id": CREATOR, "name": "Anna"}
MEMBER_SAYS = {"chat_id": CHAT, "user_id": MEMBER, "name": "Mia"}


async def a_list(chat: Harness, *, closed: bool = False) -> None:
    await ok(chat, "/neu Anna Bernd Carla", **CREATOR_SAYS)
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", **CREATOR_SAYS)
    if closed:
        await ok(chat, "/abschluss ja", **CREATOR_SAYS)


# --- the parsers: a refusal with its fix, nothing changed --------------------------------------


async def test_abschluss_with_other_words_is_refused_with_the_fix(chat: Harness) -> None:
    await a_list(chat)
    before = dump(chat)
    await refused(
        chat, "/abschluss vielleicht", "verstehe ich nicht", "/abschluss ja", **CREATOR_SAYS
    )
    assert dump(chat) == before


async def test_loeschen_words_away_from_a_desk(chat: Harness) -> None:
    await a_list(chat)
    before = dump(chat)
    await refused(chat, "/loeschen turnier", "kein Turnier", "/loeschen", **CREATOR_SAYS)
    await refused(chat, "/loeschen turnier ja", "kein Turnier", **CREATOR_SAYS)
    await refused(chat, "/loeschen alles", "verstehe ich nicht", "/loeschen liste", **CREATOR_SAYS)
    await refused(chat, "/loeschen liste bitte", "verstehe ich nicht", **CREATOR_SAYS)
    assert dump(chat) == before


async def test_spieler_trennen_takes_two_names(chat: Harness) -> None:
    await a_list(chat)
    before = dump(chat)
    await refused(chat, "/spieler trennen Anna Bernd Carla", "zwei Namen", **MEMBER_SAYS)
    await refused(chat, "/spieler zusammen Anna", "Welche Namen", **MEMBER_SAYS)
    await refused(chat, "/spieler mischen", "kenne ich bei /spieler nicht", **MEMBER_SAYS)
    assert dump(chat) == before


async def test_hilfe_names_its_topic_and_help_is_the_same(chat: Harness) -> None:
    geld = await ok(chat, "/hilfe Geld", chat_id=CHAT)
    assert "Am Tisch" in geld and "/einsatz 1 ct" in geld
    assert await ok(chat, "/help /geld", chat_id=CHAT) == geld
    assert "Am Tisch" not in await ok(chat, "/hilfe", chat_id=CHAT)


# --- the rights of the place -------------------------------------------------------------------


async def test_a_closed_lists_stake_is_its_creators_an_open_lists_anyones(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await a_list(chat, closed=True)
    await ok(chat, "/weiter", **CREATOR_SAYS)  # list 2 runs
    before = dump(chat)
    await refused(
        chat,
        "/einsatz 5 ct liste 1",
        "abgeschlossenen Liste 1",
        "/einsatz 5 ct liste 1",
        **MEMBER_SAYS,
    )
    assert dump(chat) == before
    await ok(chat, "/einsatz 5 ct liste 2", "Liste 2: 5 ct", **MEMBER_SAYS)
    await ok(chat, "/einsatz 5 ct liste 1", "Liste 1", **CREATOR_SAYS)
    await ok(chat, "/einsatz 1 ct liste 1", "Liste 1", chat_id=CHAT, user_id=ADMIN)
    # a list that is not there is the use case's answer, for anyone
    await refused(chat, "/einsatz 5 ct liste 7", "keine Liste 7", **MEMBER_SAYS)


async def test_oeffnen_says_why_before_who_may(chat: Harness) -> None:
    """The right guards a closed latest list; without one the use case's answer comes, to
    anyone (no list, a running list)."""
    await refused(chat, "/oeffnen", "noch keine Liste", **MEMBER_SAYS)
    await a_list(chat)
    await refused(chat, "/oeffnen", "gar nicht abgeschlossen", **MEMBER_SAYS)
    await ok(chat, "/abschluss ja", **CREATOR_SAYS)
    before = dump(chat)
    await refused(chat, "/oeffnen", "nur die Admins", "Anna", **MEMBER_SAYS)
    assert dump(chat) == before
    await ok(chat, "/oeffnen", "wieder geöffnet", **CREATOR_SAYS)


async def test_loeschen_says_an_empty_place_is_empty_to_anyone(chat: Harness) -> None:
    await ok(chat, "/loeschen", "nichts gespeichert", **MEMBER_SAYS)
    await refused(chat, "/loeschen liste", "keine Liste", **MEMBER_SAYS)
    await a_list(chat)
    before = dump(chat)
    await refused(chat, "/loeschen", "nur die Admins", "/loeschen", **MEMBER_SAYS)
    await refused(chat, "/loeschen ja", "nur die Admins", **MEMBER_SAYS)
    await refused(chat, "/loeschen liste", "nur die Admins", "Anna", **MEMBER_SAYS)
    assert dump(chat) == before


async def test_ich_name_needs_a_persons_own_account(chat: Harness) -> None:
    await a_list(chat)
    before = dump(chat)
    await refused(chat, "/ich Bernd", "eigenen Konto", chat_id=CHAT, sender_chat=(CHAT, "Gruppe"))
    assert dump(chat) == before
    await ok(chat, "/ich", "keinem Namen", chat_id=CHAT, sender_chat=(CHAT, "Gruppe"))
    await ok(chat, "/ich Bernd", "Du bist Bernd", **MEMBER_SAYS)


async def test_a_tournament_desk_keeps_no_stake(chat: Harness) -> None:
    await ok(chat, "/turnier Preisskat", **CREATOR_SAYS)
    before = dump(chat)
    await refused(
        chat, "/einsatz 1 ct", "/einsatz gilt hier nicht", "Turnierleitung", **CREATOR_SAYS
    )
    assert dump(chat) == before


# --- the declarations name what exists ----------------------------------------------------------


def _resolve(target: str) -> object:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(f"skatbot.usecases.{module}"), name, None)


def test_every_declared_target_names_functions_that_exist() -> None:
    """A declared route imports its use case, parser and checks at the first call: a
    misspelt one would show only when someone types the command."""
    declared = [r for r in ROUTES if r.targets]
    assert declared
    for route in declared:
        kinds = [k for t in route.targets for k in t.kinds]
        assert len(kinds) == len(set(kinds)) and set(kinds) <= EVERYWHERE, route.name
        for target in route.targets:
            for part in (target.run, target.parse):
                if part is not None:
                    found = _resolve(part)
                    assert callable(found) and not inspect.iscoroutinefunction(found), part
            for right in target.rights:
                for kind, check in right.checks.items():
                    assert kind == "*" or isinstance(kind, PlaceKind), (route.name, kind)
                    assert callable(_resolve(check)), (route.name, check)
