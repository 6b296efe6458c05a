"""The queries of the teams of a tournament; each takes the unit of
work's Session. The columns live in tournament_models.py (migration 0010)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session

from skatbot.storage.tournament_models import Participant, Series, Tournament


def teams_of(session: Session, t: Tournament) -> dict[str, str]:
    """Participant name → team, for the participants with a team (registration order)."""
    rows = session.execute(
        select(Participant.name, Participant.team)
        .where(Participant.tournament_id == t.id, Participant.team.is_not(None))
        .order_by(Participant.position)
    )
    return {name: team for name, team in rows if team is not None}


def set_teams(session: Session, t: Tournament, assignments: Mapping[str, str | None]) -> None:
    """Set (or with None remove) the team of the named participants."""
    if not assignments:
        return
    people = session.scalars(
        select(Participant).where(
            Participant.tournament_id == t.id, Participant.name.in_(list(assignments))
        )
    )
    for p in people:
        p.team = assignments[p.name]
    session.flush()


def set_team_best(session: Session, t: Tournament, best: int | None) -> None:
    """How the team ranking counts: the best ``best`` members, or all (None)."""
    t.team_best = best
    session.flush()


def record_series_teams(series: Series, teams: Mapping[str, str]) -> None:
    """Remember the teams the draw of ``series`` kept apart (None when it had none)."""
    series.teams = json.dumps(dict(teams), ensure_ascii=False) if teams else None


def series_teams(series: Series) -> dict[str, str]:
    """The teams the draw of ``series`` kept apart ({} when drawn without teams)."""
    if not series.teams:
        return {}
    data = json.loads(series.teams)
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
