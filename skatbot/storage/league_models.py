"""SQLAlchemy 2 models of league play: a league with its teams and players, match days, the
line-up log of a day and the results (append-only, the latest row per series and name
counts). Nothing derived (seating, sums, match points, tables) is stored: the seating is
recomputed from the day's seed and its series-1 line-up sizes (``rules/league.py``).

Every table below ``leagues`` hangs on it with ON DELETE CASCADE, so /loeschen, which deletes
the rows of the place's ``chat_id``, takes a league along.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now


class League(Base):
    """A league's group, run from the group leader's place (``chat_id``)."""

    __tablename__ = "leagues"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_by_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # The settings (DSkV defaults): series per match day, games per series at a 3- and a
    # 4-table, the individual ranking's minimum share of games (percent of the most games
    # anyone played), the lost-game fee in cents (0: none).
    series_per_day: Mapped[int] = mapped_column(Integer, default=3)
    games_3: Mapped[int] = mapped_column(Integer, default=36)
    games_4: Mapped[int] = mapped_column(Integer, default=48)
    min_share: Mapped[int] = mapped_column(Integer, default=50)
    lost_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    # How the tables rank: "matchpunkte" (then game points) or "spielpunkte" (then match points).
    ranking_order: Mapped[str] = mapped_column(String(16), default="matchpunkte")
    # When a player may be replaced: "immer" (between series and, recorded with the game
    # number, during one: ISPA) or "zwischen" (only between series).
    substitutions: Mapped[str] = mapped_column(String(16), default="immer")
    # Match points for each team beaten in a series (DSkV: 1; half of it for an equal sum).
    match_points_per_team: Mapped[int] = mapped_column(Integer, default=1)


class LeagueTeam(Base):
    __tablename__ = "league_teams"
    __table_args__ = (UniqueConstraint("league_id", "position"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)  # order of registration
    name: Mapped[str] = mapped_column(String(64))
    # The captain: the Telegram user who redeemed a captain's code (``RoleCode``).
    captain_user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    captain_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # Never written any more (always NULL): codes that grant a role live in ``role_codes``,
    # bound to one person. Kept so that the table need not be rebuilt.
    captain_code: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True)


class LeaguePlayer(Base):
    __tablename__ = "league_players"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_id: Mapped[int] = mapped_column(
        ForeignKey("league_teams.id", ondelete="CASCADE"), index=True
    )
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    substitute: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MatchDay(Base):
    """A match day; ``seated`` series have been started (their seating shown)."""

    __tablename__ = "league_days"
    __table_args__ = (UniqueConstraint("league_id", "number"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    venue: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seed: Mapped[str] = mapped_column(String(64))
    seated: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # Approved by the group leader (/freigeben): locked from then on.
    approved_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    approved_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # A decentral day: the date it is played (Germany's calendar) and its host, who links
    # their own chat with /ausrichter CODE (a ``RoleCode`` sent to them alone) and runs the
    # day from there on that date only.
    play_date: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    # Never written any more (always NULL), as ``LeagueTeam.captain_code``.
    host_code: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True)
    host_chat_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    host_user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    host_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # JSON {team id: captain's name}: the captains who confirmed the day's results.
    confirmed: Mapped[str] = mapped_column(Text, default="{}")


class DayTeam(Base):
    """A team on a match day: whether it appeared."""

    __tablename__ = "league_day_teams"
    __table_args__ = (UniqueConstraint("day_id", "team_id"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day_id: Mapped[int] = mapped_column(
        ForeignKey("league_days.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int] = mapped_column(
        ForeignKey("league_teams.id", ondelete="CASCADE"), index=True
    )
    appeared: Mapped[bool] = mapped_column(Boolean, default=True)


class LineupEntry(Base):
    """A row of a day's line-up log: ``name`` plays seat ``slot`` of the team from series
    ``from_series`` on (with ``from_game``: from that game of it, a substitution during the
    series). The latest row per seat and moment counts; before series 1 is seated the
    line-up may be replaced, then each row adds to the log."""

    __tablename__ = "league_lineups"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day_id: Mapped[int] = mapped_column(
        ForeignKey("league_days.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int] = mapped_column(
        ForeignKey("league_teams.id", ondelete="CASCADE"), index=True
    )
    slot: Mapped[int] = mapped_column(Integer)  # 1-based
    name: Mapped[str] = mapped_column(String(64))
    from_series: Mapped[int] = mapped_column(Integer, default=1)
    from_game: Mapped[int | None] = mapped_column(Integer, nullable=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class DayResult(Base):
    """A player's list totals for one series of a day. Append-only; the latest row counts."""

    __tablename__ = "league_results"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day_id: Mapped[int] = mapped_column(
        ForeignKey("league_days.id", ondelete="CASCADE"), index=True
    )
    series: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    game_points: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    update_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class LeagueTable(Base):
    """A table of a seated series and the list it plays on: ``/tisch CODE`` in the table's
    chat opens the list; closing it reports the table's results (``list_id`` finds it)."""

    __tablename__ = "league_tables"
    __table_args__ = (UniqueConstraint("day_id", "series", "table_no"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day_id: Mapped[int] = mapped_column(
        ForeignKey("league_days.id", ondelete="CASCADE"), index=True
    )
    series: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)  # 1-based, as the seating names it
    code: Mapped[str] = mapped_column(String(16), unique=True)
    # A deleted list frees the table (SET NULL): /tisch CODE links a new one.
    list_id: Mapped[int | None] = mapped_column(
        ForeignKey("lists.id", ondelete="SET NULL"), nullable=True, unique=True
    )


class RoleCode(Base):
    """A one-time code that grants a role (a team's captain, a match day's host) to one
    person: the one the management named. It is sent to that person privately (or fetched
    through the deep link ``t.me/<bot>?start=code_<token>``, which only that person can
    redeem), never shown in a group. Redeemed once (``used_at``), by ``for_user_id`` only,
    until ``expires_at``; a new code for the same role voids the older ones."""

    __tablename__ = "role_codes"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)  # typed: /kapitaen K7F3Q2X9
    token: Mapped[str] = mapped_column(String(32), unique=True)  # the deep link's payload
    role: Mapped[str] = mapped_column(String(16))  # "captain" or "host"
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int | None] = mapped_column(
        ForeignKey("league_teams.id", ondelete="CASCADE"), nullable=True, index=True
    )
    day_id: Mapped[int | None] = mapped_column(
        ForeignKey("league_days.id", ondelete="CASCADE"), nullable=True, index=True
    )
    for_user_id: Mapped[int] = mapped_column(BigInteger)
    for_name: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_by: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
