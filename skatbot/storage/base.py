"""The declarative base of every model module, and the column helpers they share."""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import Enum, text
from sqlalchemy.orm import DeclarativeBase


def str_enum(kind: type[enum.StrEnum], length: int = 16) -> Enum:
    """A column of a string enum, stored as its values in a VARCHAR(``length``) (no native
    enum type, no check constraint): the same strings as a plain string column, so no data
    migration, and portable between SQLite and PostgreSQL."""
    return Enum(
        kind,
        native_enum=False,
        create_constraint=False,
        length=length,
        values_callable=lambda members: [m.value for m in members],
    )


class Base(DeclarativeBase):
    pass


# The table arguments of every table with an integer surrogate key: SQLite's AUTOINCREMENT, so
# the id of a deleted row is never handed out again (plain SQLite takes max(id) + 1, so the
# newest row's id came back with the next insert, and whatever still named it - a button, a
# link in another table - pointed at a stranger's row). PostgreSQL's sequences never reuse.
NEVER_REUSE_IDS = {"sqlite_autoincrement": True}


def only_where(condition: str) -> dict[str, Any]:
    """The keyword arguments of a partial index (``Index(..., **only_where("x IS NOT NULL"))``)
    on both databases."""
    return {"sqlite_where": text(condition), "postgresql_where": text(condition)}


def utc_now() -> dt.datetime:
    """Now, in UTC: the default of every stored time."""
    return dt.datetime.now(dt.UTC)
