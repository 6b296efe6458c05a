"""The queries of league play (its tables are in league_models.py); each takes the unit of
work's Session."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from skatbot.storage.league_models import (
    DayResult,
    DayTeam,
    League,
    LeaguePlayer,
    LeagueTable,
    LeagueTeam,
    LineupEntry,
    MatchDay,
    RoleCode,
)


def league_of(session: Session, chat_id: int) -> League | None:
    """The place's league (None: the place runs none)."""
    return session.scalars(
        select(League).where(League.chat_id == chat_id).order_by(League.id.desc())
    ).first()


def league_by_id(session: Session, league_id: int) -> League:
    league = session.get(League, league_id)
    assert league is not None
    return league


def hosted_day(session: Session, chat_id: int) -> MatchDay | None:
    """The latest match day a host runs from this place (/ausrichter)."""
    return session.scalars(
        select(MatchDay).where(MatchDay.host_chat_id == chat_id).order_by(MatchDay.id.desc())
    ).first()


def add_league(session: Session, **values: object) -> League:
    league = League(**values)
    session.add(league)
    session.flush()
    return league


def teams(session: Session, league: League) -> list[LeagueTeam]:
    return list(
        session.scalars(
            select(LeagueTeam)
            .where(LeagueTeam.league_id == league.id)
            .order_by(LeagueTeam.position)
        )
    )


def players(session: Session, league: League) -> dict[int, list[LeaguePlayer]]:
    """Team id → its players (regulars first, in the order given, then substitutes)."""
    rows = session.scalars(
        select(LeaguePlayer)
        .join(LeagueTeam, LeagueTeam.id == LeaguePlayer.team_id)
        .where(LeagueTeam.league_id == league.id)
        .order_by(LeaguePlayer.team_id, LeaguePlayer.position)
    )
    out: dict[int, list[LeaguePlayer]] = {}
    for p in rows:
        out.setdefault(p.team_id, []).append(p)
    return out


def add_team(session: Session, league: League, name: str) -> LeagueTeam:
    last = teams(session, league)
    team = LeagueTeam(
        league_id=league.id,
        name=name,
        position=(last[-1].position + 1) if last else 1,
    )
    session.add(team)
    session.flush()
    return team


def set_players(
    session: Session, team: LeagueTeam, regulars: Sequence[str], substitutes: Sequence[str]
) -> None:
    session.execute(delete(LeaguePlayer).where(LeaguePlayer.team_id == team.id))
    names = [(n, False) for n in regulars] + [(n, True) for n in substitutes]
    for i, (name, sub) in enumerate(names, 1):
        session.add(LeaguePlayer(team_id=team.id, position=i, name=name, substitute=sub))
    session.flush()


def days(session: Session, league: League) -> list[MatchDay]:
    return list(
        session.scalars(
            select(MatchDay).where(MatchDay.league_id == league.id).order_by(MatchDay.number)
        )
    )


def add_day(session: Session, league: League, **values: object) -> MatchDay:
    day = MatchDay(league_id=league.id, **values)
    session.add(day)
    session.flush()
    return day


def day_teams(session: Session, day: MatchDay) -> list[DayTeam]:
    return list(
        session.scalars(select(DayTeam).where(DayTeam.day_id == day.id).order_by(DayTeam.id))
    )


def add_day_team(
    session: Session, day: MatchDay, team: LeagueTeam, *, appeared: bool = True
) -> DayTeam:
    row = DayTeam(day_id=day.id, team_id=team.id, appeared=appeared)
    session.add(row)
    session.flush()
    return row


def lineup(session: Session, day: MatchDay) -> list[LineupEntry]:
    """The day's line-up log, oldest first."""
    return list(
        session.scalars(
            select(LineupEntry).where(LineupEntry.day_id == day.id).order_by(LineupEntry.id)
        )
    )


def replace_lineup(
    session: Session, day: MatchDay, team: LeagueTeam, names: Sequence[str], user_id: int | None
) -> None:
    """The series-1 line-up of a team (before series 1 is seated it may be replaced)."""
    session.execute(
        delete(LineupEntry).where(LineupEntry.day_id == day.id, LineupEntry.team_id == team.id)
    )
    for slot, name in enumerate(names, 1):
        session.add(
            LineupEntry(day_id=day.id, team_id=team.id, slot=slot, name=name, user_id=user_id)
        )
    session.flush()


def add_substitution(
    session: Session,
    day: MatchDay,
    team: LeagueTeam,
    slot: int,
    name: str,
    series: int,
    game: int | None,
    user_id: int | None,
) -> None:
    session.add(
        LineupEntry(
            day_id=day.id,
            team_id=team.id,
            slot=slot,
            name=name,
            from_series=series,
            from_game=game,
            user_id=user_id,
        )
    )
    session.flush()


def results(session: Session, day: MatchDay) -> dict[int, dict[str, DayResult]]:
    """Series → name → the result that counts (the latest row)."""
    out: dict[int, dict[str, DayResult]] = {}
    for r in session.scalars(
        select(DayResult).where(DayResult.day_id == day.id).order_by(DayResult.id)
    ):
        out.setdefault(r.series, {})[r.name] = r
    return out


def add_result(session: Session, day: MatchDay, **values: object) -> None:
    session.add(DayResult(day_id=day.id, **values))
    session.flush()


def approve(day: MatchDay, user_id: int | None) -> None:
    day.approved_at = dt.datetime.now(dt.UTC)
    day.approved_by = user_id


def add_tables(session: Session, day: MatchDay, series: int, codes: Sequence[str]) -> None:
    for number, code in enumerate(codes, 1):
        session.add(LeagueTable(day_id=day.id, series=series, table_no=number, code=code))
    session.flush()


def tables(session: Session, day: MatchDay, series: int) -> list[LeagueTable]:
    return list(
        session.scalars(
            select(LeagueTable)
            .where(LeagueTable.day_id == day.id, LeagueTable.series == series)
            .order_by(LeagueTable.table_no)
        )
    )


def day_by_id(session: Session, day_id: int) -> MatchDay:
    day = session.get(MatchDay, day_id)
    assert day is not None
    return day


def codes_taken(session: Session, codes: Sequence[str]) -> set[str]:
    return set(session.scalars(select(LeagueTable.code).where(LeagueTable.code.in_(codes))))


# --- codes that grant a role (RoleCode) ---------------------------------------------------------


def add_role_code(session: Session, **values: object) -> RoleCode:
    """A new code; the unused codes for the same role (team, day) are void from now on."""
    same = select(RoleCode).where(
        RoleCode.league_id == values["league_id"],
        RoleCode.role == values["role"],
        RoleCode.team_id == values.get("team_id")
        if values.get("team_id") is not None
        else RoleCode.day_id == values.get("day_id"),
        RoleCode.used_at.is_(None),
    )
    now = values["created_at"]
    for old in session.scalars(same):
        old.expires_at = now  # type: ignore[assignment]
    code = RoleCode(**values)
    session.add(code)
    session.flush()
    return code


def role_code(session: Session, code: str) -> RoleCode | None:
    """The role code typed as ``code``, its row locked (redeemed once)."""
    return session.scalars(select(RoleCode).where(RoleCode.code == code).with_for_update()).first()


def role_code_by_token(session: Session, token: str) -> RoleCode | None:
    return session.scalars(select(RoleCode).where(RoleCode.token == token)).first()


def role_codes_taken(session: Session, code: str, token: str) -> bool:
    return (
        session.scalars(
            select(RoleCode.id).where((RoleCode.code == code) | (RoleCode.token == token))
        ).first()
        is not None
    )


def team_by_id(session: Session, team_id: int) -> LeagueTeam | None:
    return session.get(LeagueTeam, team_id)
