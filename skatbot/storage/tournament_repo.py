"""Repository functions for tournaments; each takes the unit of work's Session."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from skatbot.rules.tournament import SeriesResult
from skatbot.storage.tournament_models import Participant, Result, Series, Tournament


@dataclass
class LoadedSeries:
    """A drawn series with its tables and the results that count (latest row per name)."""

    row: Series
    tables: list[list[str]]
    results: dict[str, SeriesResult] = field(default_factory=dict)

    @property
    def number(self) -> int:
        return self.row.number


def tournament_of(session: Session, chat_id: int) -> Tournament | None:
    return session.scalars(select(Tournament).where(Tournament.chat_id == chat_id)).first()


def create_tournament(
    session: Session,
    chat_id: int,
    name: str,
    *,
    seed: str,
    user_id: int | None,
    user_name: str,
) -> Tournament:
    t = Tournament(
        chat_id=chat_id,
        name=name,
        seed=seed,
        games_3=36,
        games_4=48,
        created_by=user_id,
        created_by_name=user_name[:128] or None,
    )
    session.add(t)
    session.flush()
    return t


def participants(session: Session, t: Tournament) -> list[Participant]:
    return list(
        session.scalars(
            select(Participant)
            .where(Participant.tournament_id == t.id)
            .order_by(Participant.position)
        )
    )


def add_participants(session: Session, t: Tournament, names: list[str]) -> None:
    last = session.scalar(
        select(func.max(Participant.position)).where(Participant.tournament_id == t.id)
    )
    position = (last or 0) + 1
    for name in names:
        session.add(Participant(tournament_id=t.id, position=position, name=name))
        position += 1
    session.flush()


def remove_participant(session: Session, p: Participant) -> None:
    session.delete(p)
    session.flush()


def set_series_lengths(t: Tournament, games_3: int, games_4: int) -> None:
    """The games per series at a 3-table and a 4-table (``/serienlaenge``)."""
    t.games_3, t.games_4 = games_3, games_4


def series_rows(session: Session, t: Tournament) -> list[Series]:
    return list(
        session.scalars(select(Series).where(Series.tournament_id == t.id).order_by(Series.number))
    )


def series_count(session: Session, t: Tournament) -> int:
    return session.scalar(select(func.count(Series.id)).where(Series.tournament_id == t.id)) or 0


def load_series(session: Session, t: Tournament) -> list[LoadedSeries]:
    """All series in order, each with the results that count (latest row per name)."""
    rows = series_rows(session, t)
    loaded = {s.id: LoadedSeries(s, json.loads(s.tables)) for s in rows}
    if loaded:
        result = session.execute(
            select(Result.series_id, Result.name, Result.game_points, Result.won, Result.lost)
            .where(Result.series_id.in_(list(loaded)))
            .order_by(Result.id)
        )
        for series_id, name, points, won, lost in result:
            loaded[series_id].results[name] = SeriesResult(name, points, won, lost)
    return [loaded[s.id] for s in rows]


def add_series(
    session: Session,
    t: Tournament,
    number: int,
    seed: str,
    tables: list[list[str]],
    *,
    user_id: int | None,
    update_id: int | None,
) -> Series:
    s = Series(
        tournament_id=t.id,
        number=number,
        seed=seed,
        tables=json.dumps(tables, ensure_ascii=False),
        user_id=user_id,
        update_id=update_id,
    )
    session.add(s)
    session.flush()
    return s


def add_results(
    session: Session,
    series: Series,
    results: list[SeriesResult],
    *,
    user_id: int | None,
    update_id: int | None,
) -> None:
    """Append result rows (never updates: a correction is a newer row for the same name)."""
    for r in results:
        session.add(
            Result(
                series_id=series.id,
                name=r.name,
                game_points=r.game_points,
                won=r.won,
                lost=r.lost,
                user_id=user_id,
                update_id=update_id,
            )
        )
    session.flush()
