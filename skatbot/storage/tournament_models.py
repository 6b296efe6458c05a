"""SQLAlchemy 2 models of a Preisskat tournament (docs/rules.md §7).

A place (chat or topic) is the tournament management's desk; its tournaments follow each
other there, one running at a time. Results are an append-only log: entering a
player's result again adds a row, and the latest row per (series, name) counts, so every
correction keeps its audit trail. Nothing derived (scores, ranking) is stored.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now


class Tournament(Base):
    __tablename__ = "tournaments"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The place (chat or topic); its tournaments follow each other there.
    chat_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(64))  # the lot of the ranking (docs/rules.md §5)
    games_3: Mapped[int] = mapped_column(Integer, default=36)  # series length at a 3-table
    games_4: Mapped[int] = mapped_column(Integer, default=48)  # series length at a 4-table
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_by_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # The team ranking counts the best N members of a team; None: all of them (/teamwertung).
    team_best: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Its place among the tournaments of the place, from 1 (/turniere, "turnier N").
    number: Mapped[int] = mapped_column(Integer, default=1, server_default=text("1"))
    # Ended by the management (/turnier ende): read-only from then on; None while it runs.
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    closed_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # How absences count (/turnierregeln): None: the sum (a missing series counts 0);
    # "schnitt:N": the average over the series played, ranked from N series on.
    counting: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Participant(Base):
    __tablename__ = "tournament_participants"
    __table_args__ = (UniqueConstraint("tournament_id", "position"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer)  # order of registration
    name: Mapped[str] = mapped_column(String(64))
    team: Mapped[str | None] = mapped_column(String(64), nullable=True)  # /team, None: none
    # Plays the series from_series <= N < left_from: a late arrival starts after the series
    # drawn so far, a departure leaves from the next one (the drawn series never changes).
    from_series: Mapped[int] = mapped_column(Integer, default=1, server_default=text("1"))
    left_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    refunded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    def plays(self, series: int) -> bool:
        """Whether this participant is drawn for series number ``series``."""
        return self.from_series <= series and (self.left_from is None or series < self.left_from)


class RosterChange(Base):
    """A row of the tournament's log: a participant arrived or left after the first draw."""

    __tablename__ = "tournament_roster"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(16))  # join | leave | unjoin (arrival taken back)
    series: Mapped[int] = mapped_column(Integer)  # the first series it applies to
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    user_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class Series(Base):
    """One drawn series: its seed and tables (JSON list of lists of names, seat order)."""

    __tablename__ = "tournament_series"
    __table_args__ = (UniqueConstraint("tournament_id", "number"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)  # 1-based
    seed: Mapped[str] = mapped_column(String(64))
    tables: Mapped[str] = mapped_column(Text)  # JSON: [["Anna", "Bernd", ...], ...]
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # JSON {name: team} the draw kept apart (teams may change later); None: drawn without.
    teams: Mapped[str | None] = mapped_column(Text, nullable=True)


class Result(Base):
    """A player's table-list totals for one series. Append-only; the latest row counts."""

    __tablename__ = "tournament_results"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    series_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_series.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    game_points: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # A table's report withdrawn (its list opened again): this row takes the
    # player's result away again; the latest row still counts.
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class TableLink(Base):
    """A table of a drawn series and the list it plays on.

    ``chat_id`` is the desk's place (so /loeschen at the desk and a group's move take it
    along). The table is linked to a list when its list is opened: in a forum topic the bot
    created, or wherever ``/tisch CODE`` was sent; ``list_id`` finds the table from the list
    (a list's place may move, its id stays; a deleted list sets it to NULL). ``signed`` is the JSON ``{name: user id}`` of
    the signatures of the latest closing; ``reported`` whether those results count now.
    """

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("series_id", "table_no"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), index=True
    )
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    series_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_series.id", ondelete="CASCADE"), index=True
    )
    table_no: Mapped[int] = mapped_column(Integer)  # 1-based, as the draw names it
    code: Mapped[str] = mapped_column(String(16), unique=True)  # /tisch CODE
    # A deleted list frees the table (SET NULL): /tisch CODE links a new one.
    list_id: Mapped[int | None] = mapped_column(
        ForeignKey("lists.id", ondelete="SET NULL"), nullable=True, unique=True
    )
    signed: Mapped[str] = mapped_column(Text, default="{}")
    reported: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # The long single-use code of the draw's deep link (t.me/<bot>?startgroup=...): at
    # least 96 random bits, void once used, released or after the next draw.
    invite: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True, index=True)
    # The list plays in a forum topic the bot created for it (a draw taken back deletes it).
    bot_topic: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
