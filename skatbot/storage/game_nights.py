"""Game nights planned in the chat (``/spielabend``): the night, its poll, and the yes-votes.

A night is ``open`` from ``/spielabend Di 19:00`` until it closes (at its start, or by
``/spielabend schliessen``); then ``closed``. Its poll's id and message id are stored once the
poll is out, so that a vote (a ``poll_answer`` update, which names the poll only) finds its
night, and a restart loses no night: what is due is found again from here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, delete, select
from sqlalchemy.orm import Mapped, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now
from skatbot.storage.unit import Session

OPEN = "open"
CLOSED = "closed"


class GameNightRow(Base):
    __tablename__ = "game_nights"
    __table_args__ = (
        Index("ix_game_nights_chat", "chat_id", "state"),
        Index("ix_game_nights_poll", "poll"),
        Index("ix_game_nights_due", "state", "starts_at"),
        NEVER_REUSE_IDS,
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The place (a chat, or a forum topic's place). Named chat_id so that /loeschen and a group
    # becoming a supergroup (chats.chat_tables) cover this table too.
    chat_id: Mapped[int] = mapped_column(BigInteger)
    telegram_chat_id: Mapped[int] = mapped_column(BigInteger)
    thread_id: Mapped[int] = mapped_column(Integer, default=0)
    is_forum: Mapped[int] = mapped_column(Integer, default=0)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # who proposed it
    user_name: Mapped[str] = mapped_column(String(64), default="")
    starts_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    seed: Mapped[str] = mapped_column(String(32))
    # Telegram's poll id (a string; not "…_id": no reference to a table of ours)
    poll: Mapped[str | None] = mapped_column(String(64), nullable=True)
    message_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    state: Mapped[str] = mapped_column(String(16), default=OPEN)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class GameNightVote(Base):
    """A yes-vote; its id is the order of the votes (first come, first seated)."""

    __tablename__ = "game_night_votes"
    __table_args__ = (Index("ix_game_night_votes_night", "night_id", "user_id"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)  # the night's place (see GameNightRow)
    night_id: Mapped[int] = mapped_column(ForeignKey("game_nights.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(64))


@dataclass(frozen=True)
class GameNight:
    id: int
    place: int
    telegram_chat_id: int
    thread_id: int
    is_forum: bool
    user_id: int | None
    user_name: str
    starts_at: dt.datetime
    seed: str
    poll_id: str | None
    message_id: int | None
    state: str


def _night(row: GameNightRow) -> GameNight:
    starts = row.starts_at if row.starts_at.tzinfo else row.starts_at.replace(tzinfo=dt.UTC)
    return GameNight(
        row.id,
        row.chat_id,
        row.telegram_chat_id,
        row.thread_id,
        bool(row.is_forum),
        row.user_id,
        row.user_name,
        starts,
        row.seed,
        row.poll,
        row.message_id,
        row.state,
    )


def create(
    session: Session,
    place: int,
    *,
    telegram_chat_id: int,
    thread_id: int,
    is_forum: bool,
    user_id: int | None,
    user_name: str,
    starts_at: dt.datetime,
    seed: str,
) -> GameNight:
    row = GameNightRow(
        chat_id=place,
        telegram_chat_id=telegram_chat_id,
        thread_id=thread_id,
        is_forum=int(is_forum),
        user_id=user_id,
        user_name=user_name[:64],
        starts_at=starts_at,
        seed=seed,
        state=OPEN,
    )
    session.add(row)
    session.flush()
    return _night(row)


def open_night(session: Session, place: int) -> GameNight | None:
    """The place's open game night (there is at most one)."""
    row = session.scalar(
        select(GameNightRow)
        .where(GameNightRow.chat_id == place, GameNightRow.state == OPEN)
        .order_by(GameNightRow.id.desc())
        .limit(1)
    )
    return _night(row) if row is not None else None


def by_id(session: Session, night_id: int) -> GameNight | None:
    row = session.get(GameNightRow, night_id)
    return _night(row) if row is not None else None


def by_poll(session: Session, poll_id: str) -> GameNight | None:
    row = session.scalar(select(GameNightRow).where(GameNightRow.poll == poll_id).limit(1))
    return _night(row) if row is not None else None


def set_poll(session: Session, night_id: int, message_id: int, poll_id: str) -> None:
    row = session.get(GameNightRow, night_id)
    if row is not None:
        row.message_id, row.poll = message_id, poll_id


def due(session: Session, now: dt.datetime) -> list[GameNight]:
    """The open nights whose start has come, oldest first."""
    rows = session.scalars(
        select(GameNightRow)
        .where(GameNightRow.state == OPEN, GameNightRow.starts_at <= now)
        .order_by(GameNightRow.id)
    )
    return [_night(r) for r in rows]


def close(session: Session, night_id: int) -> bool:
    """Close the night; ``False`` if it was closed already (by another instance or update)."""
    row = session.get(GameNightRow, night_id)
    if row is None or row.state != OPEN:
        return False
    row.state, row.closed_at = CLOSED, utc_now()
    session.flush()
    return True


def set_vote(session: Session, night: GameNight, user_id: int, name: str | None) -> None:
    """``user_id`` says yes as ``name``, or (``None``) no or nothing. A yes after a no goes to
    the back (first come, first seated counts from the latest yes); a yes again (a
    redelivered update) keeps its place."""
    if name is not None:
        kept = session.scalar(
            select(GameNightVote).where(
                GameNightVote.night_id == night.id, GameNightVote.user_id == user_id
            )
        )
        if kept is not None:
            kept.name = name[:64]
            session.flush()
            return
    session.execute(
        delete(GameNightVote).where(
            GameNightVote.night_id == night.id, GameNightVote.user_id == user_id
        )
    )
    if name is not None:
        session.add(
            GameNightVote(chat_id=night.place, night_id=night.id, user_id=user_id, name=name[:64])
        )
    session.flush()


def yes_votes(session: Session, night_id: int) -> list[tuple[int, str]]:
    """(user id, name) of the yes-votes in the order they came."""
    rows = session.execute(
        select(GameNightVote.user_id, GameNightVote.name)
        .where(GameNightVote.night_id == night_id)
        .order_by(GameNightVote.id)
    )
    return [(int(u), str(n)) for u, n in rows]
