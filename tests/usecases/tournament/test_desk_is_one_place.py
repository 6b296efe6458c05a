"""A Preisskat desk and a league desk are different places: a table's code of either is
refused at the other's desk (each desk keeps no list), and works in a table's own chat."""

from __future__ import annotations

import re

from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.league.test_league import LEADER, TEAMS

TOURNAMENT_DESK, LEAGUE_DESK, TABLE_CHAT = -1002, -1003, -3001
MANAGER = {"user_id": 7, "name": "Petra"}


async def test_a_table_code_is_refused_at_the_other_kind_of_desk(chat: Harness) -> None:
    await ok(chat, "/turnier Preisskat", chat_id=TOURNAMENT_DESK, **MANAGER)
    await ok(chat, "/teilnehmer Anna, Bernd, Carla, Dora, Emil, Fritz", chat_id=TOURNAMENT_DESK,
             **MANAGER)  # fmt: skip
    draw = await ok(chat, "/auslosen", chat_id=TOURNAMENT_DESK, **MANAGER)
    tournament_code = re.search(r"/tisch ([A-Z0-9]{6})\b", draw).group(1)  # type: ignore[union-attr]
    await ok(chat, "/liga Kreisliga", chat_id=LEAGUE_DESK, **LEADER)
    await ok(chat, TEAMS, chat_id=LEAGUE_DESK, **LEADER)
    await ok(chat, "/spieltag 1 Reken", chat_id=LEAGUE_DESK, **LEADER)
    seating = await ok(chat, "/setzen", chat_id=LEAGUE_DESK, **LEADER)
    league_code = re.search(r"/tisch (L\w{6})", seating).group(1)  # type: ignore[union-attr]

    await refused(chat, f"/tisch {tournament_code}", "Ligaleitung", "👉", chat_id=LEAGUE_DESK,
                  **MANAGER)  # fmt: skip
    await refused(chat, f"/tisch {league_code}", "Turnierleitung", "👉", chat_id=TOURNAMENT_DESK,
                  **LEADER)  # fmt: skip
    await ok(chat, f"/tisch {tournament_code}", "Tisch", chat_id=TABLE_CHAT, **MANAGER)
