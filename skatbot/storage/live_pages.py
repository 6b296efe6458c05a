"""The hall's live page of a tournament (``/leinwand``): one read-only link per tournament.

A link is its token (``secrets.token_urlsafe(16)``: 128 random bits), stored as issued so that
asking again shows the same link. Revoking (``/leinwand aus``) stamps ``revoked_at``; the row
stays (who had which link when), and the next ``/leinwand`` issues a new token. Deleting the
tournament deletes its links (ON DELETE CASCADE).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, select, update
from sqlalchemy.orm import Mapped, mapped_column

from skatbot.storage.base import NEVER_REUSE_IDS, Base, utc_now
from skatbot.storage.unit import Session


class LivePage(Base):
    __tablename__ = "live_pages"
    __table_args__ = (
        Index("ix_live_pages_token", "token", unique=True),
        Index("ix_live_pages_tournament", "tournament_id", "revoked_at"),
        NEVER_REUSE_IDS,
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # Revoked by /leinwand aus: the link answers 404 from then on.
    revoked_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


def current(session: Session, tournament_id: int) -> LivePage | None:
    """The tournament's link that is not revoked, if any."""
    return session.scalar(
        select(LivePage)
        .where(LivePage.tournament_id == tournament_id, LivePage.revoked_at.is_(None))
        .order_by(LivePage.id.desc())
        .limit(1)
    )


def issue(session: Session, tournament_id: int, token: str) -> LivePage:
    page = LivePage(tournament_id=tournament_id, token=token)
    session.add(page)
    session.flush()
    return page


def revoke(session: Session, tournament_id: int) -> int:
    """Revoke the tournament's links; how many were valid."""
    done = session.execute(
        update(LivePage)
        .where(LivePage.tournament_id == tournament_id, LivePage.revoked_at.is_(None))
        .values(revoked_at=utc_now())
    )
    return int(getattr(done, "rowcount", 0) or 0)


def by_token(session: Session, token: str) -> LivePage | None:
    """The link ``token`` names, unless it was revoked."""
    return session.scalar(
        select(LivePage).where(LivePage.token == token, LivePage.revoked_at.is_(None))
    )
