"""A league table's list deleted at the table: the table's link goes with it. The id of the
gone list is never another list's, so an unrelated group's list reports nothing to the
league desk, and the table can be linked to a new list."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from skatbot.storage.league_models import DayResult, LeagueTable
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.league.test_league import LEADER, NORD_CAPTAIN, setup_league

DESK = -1001
TABLE_CHAT = -3001
UNRELATED = -4001
OUTSIDER = {"user_id": 77, "name": "Ute"}


def league_state(chat: Harness) -> tuple[int, list[int | None]]:
    def read(session: Any) -> tuple[int, list[int | None]]:
        results = session.scalar(select(func.count()).select_from(DayResult)) or 0
        links = list(session.scalars(select(LeagueTable.list_id).order_by(LeagueTable.id)))
        return results, links

    return chat.db.run_read(read)


async def test_a_deleted_table_list_takes_its_link_along(chat: Harness) -> None:
    await setup_league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    seating = await ok(chat, "/setzen", "/tisch L", **LEADER)
    code = re.search(r"Tisch 1 \(4er, 48 Spiele, /tisch (L\w{6})\)", seating).group(1)  # type: ignore[union-attr]
    table = {"chat_id": TABLE_CHAT, **NORD_CAPTAIN}
    await ok(chat, f"/tisch {code}", "Serie 1 · Tisch 1", **table)
    # the opener of the table's list deletes it
    await ok(chat, "/loeschen liste", **table)
    await ok(chat, "/loeschen liste ja", "Gelöscht", **table)
    assert league_state(chat) == (0, [None] * len(league_state(chat)[1]))

    # an unrelated group starts and closes a list: nothing reaches the league desk
    desk_before = chat.last(DESK).text
    unrelated = {"chat_id": UNRELATED, **OUTSIDER}
    await ok(chat, "/neu Ute Vera Wim", **unrelated)
    await ok(chat, "/spiel Vera grand mit 1 gewonnen", **unrelated)
    closed = await ok(chat, "/abschluss ja", **unrelated)
    assert "Ligaleitung" not in closed, closed
    assert chat.last(DESK).text == desk_before
    assert league_state(chat)[0] == 0

    # the table itself can be linked to a new list
    await ok(chat, f"/tisch {code}", "Serie 1 · Tisch 1", **table)


async def test_neu_at_an_empty_table_list_says_what_to_do(chat: Harness) -> None:
    """/neu at a table, even with its list still empty, starts no list of the group's own:
    the table's next list is the next seating's, and the refusal says what to do (a list of
    one's own: in another chat or topic; a table linked by mistake: /loeschen liste, above)."""
    await setup_league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    seating = await ok(chat, "/setzen", "/tisch L", **LEADER)
    code = re.search(r"Tisch 1 \(4er, 48 Spiele, /tisch (L\w{6})\)", seating).group(1)  # type: ignore[union-attr]
    table = {"chat_id": TABLE_CHAT, **NORD_CAPTAIN}
    await ok(chat, f"/tisch {code}", "Serie 1 · Tisch 1", **table)
    before = league_state(chat)
    text = await refused(chat, "/neu Ute Vera Wim", "Hier spielt Serie 1 · Tisch 1", **table)
    assert "/abschluss" in text and "anderen Chat oder Thema" in text, text
    assert league_state(chat) == before
