"""/tisch by the kind of place: a code where lists are played (the table's own chat), the
release at the desk for its management; the words each place takes, refused with the fix,
and the buttons of a table's list read from their data before anything is looked up."""

from __future__ import annotations

import dataclasses

from skatbot.usecases.common.reply import Command
from skatbot.usecases.people.persons import ClaimAnswer, StaleButton, parse_claim
from skatbot.usecases.tournament.tables import SignTap, parse_sign
from skatbot.usecases.tournament.tables import StaleButton as StaleSign
from tests.harness import Harness
from tests.usecases.tournament.test_table_lists import messages, ok, refused
from tests.usecases.tournament.test_table_rights import DESK, ELSE, MANAGER, OUTSIDER, draw, dump


async def test_the_table_chat_takes_a_code_and_the_desk_the_release(chat: Harness) -> None:
    codes, _ = await draw(chat)
    before = dump(chat.db)
    # where a table plays: a code, nothing else
    await refused(chat, "/tisch freigeben 1", ELSE, None, "Freigeben geht nur bei der "
                  "Turnierleitung", "/tisch freigeben N")  # fmt: skip
    await refused(chat, "/tisch", ELSE, None, "Welcher Tisch?", "/tisch CODE")
    await refused(chat, "/tisch " + "X" * 17, ELSE, None, "kenne ich nicht", "/tisch K7F2QX")
    # at the desk: no table plays there; the release is for the management
    await refused(chat, f"/tisch {codes['1']}", DESK, None, "hier spielt kein Tisch",
                  "/tisch CODE im Chat oder Thema des Tisches")  # fmt: skip
    await refused(chat, "/tisch freigeben 1", DESK, None, "verwalten", user_id=OUTSIDER)
    await refused(chat, "/tisch freigeben x", DESK, None, "Tischnummer")
    assert dump(chat.db) == before  # nothing linked, nothing released
    # the code in the table's chat, then its release at the desk
    await ok(chat, f"/tisch {codes['1']}", ELSE, user_id=MANAGER)
    released = await ok(chat, "/tisch freigeben 1", DESK, user_id=MANAGER)
    assert "ist frei" in released, released


async def test_the_draws_deep_link_is_refused_at_the_desk(chat: Harness) -> None:
    _, links = await draw(chat)
    before = dump(chat.db)
    await refused(chat, f"/start {links['1']}", DESK, None, "/tisch gilt hier nicht",
                  "am Tisch eines Turniers")  # fmt: skip
    assert dump(chat.db) == before
    await ok(chat, f"/start {links['1']}", ELSE, user_id=OUTSIDER)  # the link, whoever taps


async def test_a_table_button_is_refused_at_a_desk(chat: Harness) -> None:
    await draw(chat)
    before = dump(chat.db)
    desk_message = messages(chat, DESK)[-1]
    for data in ("v1:tu:1:r1", "v1:ic:1"):
        doctored = dataclasses.replace(desk_message, buttons=((("x", data),),))
        tapped = await chat.tap(doctored, data, user_id=MANAGER)
        assert tapped.alert and "gilt hier nicht" in tapped.notice, tapped
    assert dump(chat.db) == before


def _tap(data: str) -> Command:
    return Command(place_id=1, chat_title="", user_id=1, user_name="A", update_id=0,
                   args=(data,), text=data)  # fmt: skip


def test_a_sign_button_is_read_from_its_data() -> None:
    assert parse_sign(_tap("v1:tu:5:r9:2")) == SignTap(5, 9, 2)
    assert parse_sign(_tap("v1:tu:5:r9")) == SignTap(5, 9, None)
    assert parse_sign(_tap("v1:tu:5:1")) == SignTap(5, None, 1)  # an older button
    for stale in ("v1:tu:x", "v1:tu:5:r9:2:3", "v1:tu:", "v1:tu:5:rx"):
        assert parse_sign(_tap(stale)) == StaleSign(), stale


def test_a_claim_button_is_read_from_its_data() -> None:
    assert parse_claim(_tap("v1:ic:12")) == ClaimAnswer(12, yes=True)
    assert parse_claim(_tap("v1:ic:12:n")) == ClaimAnswer(12, yes=False)
    for stale in ("v1:ic:12:x", "v1:ic:", "v1:ic:a", "v1:ic:" + "1" * 13):
        assert parse_claim(_tap(stale)) == StaleButton(), stale
