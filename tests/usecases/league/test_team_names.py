"""A name plays for one team, once: ``/mannschaft`` refuses a name twice in a team and across
the league's teams, ``/aufstellung`` and ``/wechsel`` a name that plays for another team on the
same match day. Each refusal names the duplicate, says how to fix it and changes nothing; a
team stored twice by an earlier version is not seated."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from skatbot.storage.league_models import LeaguePlayer, LeagueTeam, LineupEntry
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.league.test_league import LEADER, TEAMS
from tests.usecases.league.test_one_place import row_counts


async def test_a_team_refuses_a_name_twice(chat: Harness) -> None:
    await ok(chat, "/liga Kreisliga", **LEADER)
    before = row_counts(chat)
    await refused(chat, "/mannschaft Nord: Anna, Anna, Carla", "„Anna“", "zweimal", "👉", **LEADER)
    await refused(chat, "/mannschaft Nord: Anna, Bernd, Carla, Ersatz ANNA", "„ANNA“", **LEADER)
    await refused(
        chat, "/mannschaft Nord: Anna, Bernd, Carla\nSüd: Dora, Anna, Emil", "„Anna“", **LEADER
    )
    assert row_counts(chat) == before
    await ok(chat, TEAMS, **LEADER)
    await refused(chat, "/mannschaft Nord: Anna, Bernd, Bernd, Dora", "„Bernd“", **LEADER)
    await refused(chat, "/mannschaft Mitte: Ulla, Veit, Fritz", "„Fritz“", "„Süd“", **LEADER)


async def test_a_match_day_refuses_a_name_of_another_team(chat: Harness) -> None:
    await ok(chat, "/liga Kreisliga", **LEADER)
    await ok(chat, TEAMS, **LEADER)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    # Anna leaves Nord and joins Süd's squad; on day 1 she is in Nord's line-up already
    await ok(chat, "/mannschaft Nord: Bernd, Carla, Dora, Ersatz Erik", **LEADER)
    await ok(chat, "/mannschaft Süd: Fritz, Gabi, Hans, Inge, Ersatz Jens, Ersatz Anna", **LEADER)
    before = row_counts(chat)
    await refused(
        chat,
        "/aufstellung Süd: Anna, Gabi, Hans, Inge",
        "„Anna“",
        "„Nord“",
        "Spieltag 1",
        "👉",
        **LEADER,
    )
    assert row_counts(chat) == before
    await ok(chat, "/setzen", "Serie 1", **LEADER)
    await refused(chat, "/wechsel Süd Anna für Fritz", "„Anna“", "„Nord“", "👉", **LEADER)
    await refused(chat, "/wechsel Süd Anna für Fritz spiel 5", "„Anna“", "„Nord“", **LEADER)
    assert row_counts(chat) == before | {"league_tables": before["league_tables"] + 4}


async def test_a_team_stored_twice_before_is_not_seated(chat: Harness) -> None:
    await ok(chat, "/liga Kreisliga", **LEADER)
    await ok(chat, TEAMS, **LEADER)

    def double_anna(session: Any) -> None:
        nord = session.scalars(select(LeagueTeam).where(LeagueTeam.name == "Nord")).one()
        bernd = session.scalars(
            select(LeaguePlayer).where(
                LeaguePlayer.team_id == nord.id, LeaguePlayer.name == "Bernd"
            )
        ).one()
        bernd.name = "Anna"

    chat.db.run_write(double_anna)
    before = row_counts(chat)
    await refused(chat, "/spieltag 1 Reken", "„Anna“", "„Nord“", "/mannschaft Nord", **LEADER)
    assert row_counts(chat) == before


async def test_a_line_up_stored_twice_before_is_not_seated(chat: Harness) -> None:
    """ "Anna (Nord)" at two tables at once: a day an earlier version opened with a name twice
    is refused at /setzen, naming it."""
    await ok(chat, "/liga Kreisliga", **LEADER)
    await ok(chat, TEAMS, **LEADER)
    await ok(chat, "/spieltag 1 Reken", **LEADER)

    def double_anna(session: Any) -> None:
        bernd = session.scalars(select(LineupEntry).where(LineupEntry.name == "Bernd")).one()
        bernd.name = "Anna"

    chat.db.run_write(double_anna)
    before = row_counts(chat)
    await refused(chat, "/setzen", "„Anna“", "zweimal bei „Nord“", "/aufstellung Nord", **LEADER)
    assert row_counts(chat) == before
    await ok(chat, "/aufstellung Nord: Anna, Bernd, Carla, Dora", **LEADER)
    await ok(chat, "/setzen", "Serie 1", **LEADER)
