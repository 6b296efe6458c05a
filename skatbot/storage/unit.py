"""The unit of work's session, for the code above storage that only passes it on to the
repository functions (use cases, the runtime): no SQLAlchemy import outside storage."""

from __future__ import annotations

from sqlalchemy.orm import Session

__all__ = ["Session"]
