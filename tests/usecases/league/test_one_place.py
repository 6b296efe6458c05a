"""A place is one thing: a league desk is no Preisskat desk, no table and no host's chat, and
the other way round. Each refusal says what the place is and where the command works (👉),
and changes nothing; the league's own commands keep working. A place that holds both from an
earlier version gives its /ergebnis to what it was first."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from sqlalchemy import func, select

from skatbot.storage.schema import metadata
from skatbot.storage.tournament_models import Tournament
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.league.test_league import LEADER, STRANGER, TEAMS, host_code

DESK = -1001
TOURNAMENT_DESK = -1002
TABLE_CHAT = -3001


def row_counts(chat: Harness) -> dict[str, int]:
    def read(session: Any) -> dict[str, int]:
        return {
            t.name: session.scalar(select(func.count()).select_from(t))
            for t in metadata().sorted_tables
            if t.name not in ("processed_updates", "outbox", "message_links")
        }

    return chat.db.run_read(read)  # type: ignore[no-any-return]


async def league(chat: Harness) -> None:
    await ok(chat, "/liga Kreisliga", "angelegt", **LEADER)
    await ok(chat, TEAMS, **LEADER)


async def test_a_member_cannot_make_the_league_desk_a_tournament(chat: Harness) -> None:
    await league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    await ok(chat, "/setzen", "Serie 1", **LEADER)
    before = row_counts(chat)
    text = await refused(
        chat, "/turnier Störung", "gilt hier nicht", "Ligaleitung", "👉", **STRANGER
    )
    assert "/turnier" in text.split("👉", 1)[1], text
    # not even the league's own management turns its desk into a tournament desk
    await refused(chat, "/turnier Pokal", "Ligaleitung", "👉", **LEADER)
    assert row_counts(chat) == before
    # the leader's results still go to the league
    await ok(chat, "/ergebnis Anna 100 1 0", "Anna", "eingetragen", **LEADER)


async def test_a_tournament_desk_refuses_a_league_and_a_host(chat: Harness) -> None:
    await ok(chat, "/turnier Preisskat", "angelegt", chat_id=TOURNAMENT_DESK, **STRANGER)
    before = row_counts(chat)
    await refused(
        chat, "/liga Kreisliga", "Turnierleitung", "👉", chat_id=TOURNAMENT_DESK, **LEADER
    )
    # a day's host code is refused there too: its /ergebnis would meet the tournament's
    await league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    code = await host_code(chat, STRANGER)
    before = row_counts(chat)
    await refused(
        chat, f"/ausrichter {code}", "Turnierleitung", "👉", chat_id=TOURNAMENT_DESK, **STRANGER
    )
    assert row_counts(chat) == before


async def test_a_league_desk_keeps_no_list_and_no_table(chat: Harness) -> None:
    await league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    seating = await ok(chat, "/setzen", **LEADER)
    code = re.search(r"/tisch (L\w{6})", seating).group(1)  # type: ignore[union-attr]
    before = row_counts(chat)
    await refused(chat, "/neu Ute Vera Wim", "Ligaleitung", "👉", **STRANGER)
    await refused(chat, "/weiter", "Ligaleitung", "👉", **STRANGER)
    # what needs a list says where lists are kept, not "start one with /neu" here
    text = await refused(chat, "/spiel Ute grand ohne 1 gewonnen", "Ligaleitung", **STRANGER)
    assert "anderen Chat" in text, text
    await refused(chat, f"/tisch {code}", "Ligaleitung", "👉", **LEADER)
    assert row_counts(chat) == before
    # in the table's own chat the code works
    await ok(chat, f"/tisch {code}", "Serie 1 · Tisch 1", chat_id=TABLE_CHAT, **LEADER)


async def test_a_league_needs_a_place_without_a_running_list(chat: Harness) -> None:
    await ok(chat, "/neu Ute Vera Wim", **STRANGER)
    before = row_counts(chat)
    await refused(chat, "/liga Kreisliga", "Liste", "/abschluss", **LEADER)
    assert row_counts(chat) == before


async def test_a_host_chat_is_no_tournament_desk_on_its_day(chat: Harness) -> None:
    await league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    code = await host_code(chat, {"user_id": 20, "name": "Hugo"})
    host = {"chat_id": -2002, "user_id": 20, "name": "Hugo"}
    await ok(chat, f"/ausrichter {code}", "richtet hier Spieltag 1", **host)
    before = row_counts(chat)
    await refused(chat, "/turnier Preisskat", "Chat des Ausrichters", "👉", **host)
    await refused(chat, "/liga Kreisliga Süd", "ausgerichtet", "👉", **host)
    assert row_counts(chat) == before
    await ok(chat, "/setzen", "Serie 1", **host)


# The place's kind is decided once (common.place_kinds.kind_of): of two desks from before
# that rule, the first one keeps the place's commands.
async def test_a_place_holding_both_from_before_gives_results_to_the_first(chat: Harness) -> None:
    """A tournament put on a league desk before this check existed blocks nothing."""
    await league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    await ok(chat, "/setzen", **LEADER)

    def squat(session: Any) -> None:
        session.add(
            Tournament(
                chat_id=DESK,
                name="Störung",
                seed="00",
                created_by=STRANGER["user_id"],
                created_by_name=STRANGER["name"],
                created_at=dt.datetime.now(dt.UTC) + dt.timedelta(minutes=1),
            )
        )

    chat.db.run_write(squat)
    await ok(chat, "/ergebnis Anna 100 1 0", "Anna", "eingetragen", **LEADER)
