"""A Preisskat table chat deleted by its admin (/loeschen ja) takes the table's link to its
list along. The gone list's id is never another list's, so an unrelated group is not asked to
sign for the table and stores nothing as its result, and the table can be linked again."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from skatbot.storage.tournament_models import Result, TableLink
from tests.harness import Harness
from tests.usecases.tournament.test_table_lists import (
    ELSEWHERE,
    PLAIN,
    SEVEN,
    WON,
    messages,
    ok,
)

TABLE_ADMIN = 55
UNRELATED = -1009199
OUTSIDER = 77


def tournament_state(chat: Harness) -> tuple[int, list[int | None]]:
    def read(session: Any) -> tuple[int, list[int | None]]:
        results = session.scalar(select(func.count()).select_from(Result)) or 0
        links = list(session.scalars(select(TableLink.list_id).order_by(TableLink.id)))
        return results, links

    return chat.db.run_read(read)


async def test_a_deleted_table_chat_takes_its_link_along(chat: Harness) -> None:
    await ok(chat, "/turnier Vereinsmeisterschaft", PLAIN)
    await ok(chat, "/teilnehmer " + ", ".join(SEVEN), PLAIN)
    await ok(chat, "/serienlaenge 3 4", PLAIN)
    draw = await ok(chat, "/auslosen 99", PLAIN)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", draw))
    await ok(chat, f"/tisch {codes['1']}", ELSEWHERE)
    # the table chat's admin deletes everything stored there
    chat.set_admins(ELSEWHERE, TABLE_ADMIN)
    await ok(chat, "/loeschen", ELSEWHERE, user_id=TABLE_ADMIN)
    deleted = await ok(chat, "/loeschen ja", ELSEWHERE, user_id=TABLE_ADMIN)
    assert "Gelöscht" in deleted, deleted
    assert tournament_state(chat) == (0, [None, None])

    # an unrelated group plays and closes a list: no signing for the table, no results
    desk_before = len(messages(chat, PLAIN))
    await ok(chat, "/neu Ute Vera Wim", UNRELATED, user_id=OUTSIDER)
    await ok(chat, f"/spiel Vera {WON}", UNRELATED, user_id=OUTSIDER)
    closed = await ok(chat, "/abschluss ja", UNRELATED, user_id=OUTSIDER)
    assert "Tisch" not in closed and "nterschreib" not in closed, closed
    assert not any(m.text.startswith("✍️") for m in messages(chat, UNRELATED))
    assert len(messages(chat, PLAIN)) == desk_before
    assert tournament_state(chat)[0] == 0

    # the table can be linked to a new list
    opened = await ok(chat, f"/tisch {codes['1']}", ELSEWHERE)
    assert "Serie 1 · Tisch 1" in opened and "Neue Liste" in opened, opened
