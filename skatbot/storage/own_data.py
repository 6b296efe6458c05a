"""What the bot stores under one Telegram account, across every chat (``/ich daten``), and
forgetting it (``/ich vergessen``).

An account appears as: links of a person to the account (``people.user_id``/``user_name``),
the account's id and name on the log rows it entered (who entered a row), the creator of
lists and tournaments (an id, plus the creator's name for tournaments), signatures of
tournament tables (``tournament_tables.signed``), results, draws and money settings it
entered, open game builders, and the stored reply texts of updates (which may quote its
name). The names written in a chat's lists are that table's record and are not the
account's: they stay until the chat's admins rename them.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from skatbot.storage.builders import GameBuilder
from skatbot.storage.lists_models import ProcessedUpdate, Row, SheetList
from skatbot.storage.money import MoneySetting
from skatbot.storage.people import PersonName, PersonRow
from skatbot.storage.tournament_models import Result, Series, TableLink, Tournament

NO_ACCOUNT = 0  # a signature kept without the account that gave it


def collect(session: Session, user_id: int) -> dict[str, Any]:
    """Everything stored under ``user_id``, as plain JSON-able data."""
    people = session.scalars(select(PersonRow).where(PersonRow.user_id == user_id)).all()
    links = []
    for p in people:
        spellings = session.scalars(
            select(PersonName.name).where(PersonName.person_id == p.id).order_by(PersonName.id)
        ).all()
        links.append(
            {"place": p.chat_id, "name": p.name, "spellings": list(spellings),
             "account_name": p.user_name}
        )  # fmt: skip
    rows = session.execute(
        select(SheetList.chat_id, func.count(Row.id), func.max(Row.user_name))
        .join(SheetList, Row.list_id == SheetList.id)
        .where(Row.user_id == user_id)
        .group_by(SheetList.chat_id)
    ).all()
    lists = session.scalars(select(SheetList.id).where(SheetList.created_by == user_id)).all()
    tournaments = session.execute(
        select(Tournament.name, Tournament.created_by_name).where(Tournament.created_by == user_id)
    ).all()
    signatures = []
    for link_id, signed in session.execute(select(TableLink.id, TableLink.signed)):
        for name, user in json.loads(signed).items():
            if int(user) == user_id:
                signatures.append({"table": link_id, "name": name})
    return {
        "account": user_id,
        "linked_names": links,
        "rows_entered": [
            {"place": place, "rows": count, "account_name": name} for place, count, name in rows
        ],
        "lists_created": len(lists),
        "tournaments_created": [{"name": n, "creator_name": c} for n, c in tournaments],
        "signatures": signatures,
        "results_entered": _count(session, Result.user_id, user_id),
        "draws_made": _count(session, Series.user_id, user_id),
        "money_settings": _count(session, MoneySetting.user_id, user_id),
        "open_builders": _count(session, GameBuilder.owner_id, user_id),
    }


def _count(session: Session, column: Any, user_id: int) -> int:
    return session.scalar(select(func.count()).where(column == user_id)) or 0


def forget(session: Session, user_id: int, account_names: set[str]) -> dict[str, int]:
    """Remove the account's links and names everywhere; returns how many rows changed.

    Kept: the creator id of lists and tournaments (it is what lets that person delete or
    manage them; without it only the admins could) - no name stays with it. A table's
    signature stays a signature, without the account.
    """
    out: dict[str, int] = {}

    def run(name: str, stmt: Any) -> None:
        result = session.execute(stmt)
        out[name] = max(result.rowcount or 0, 0)  # type: ignore[attr-defined]

    run(
        "links",
        update(PersonRow).where(PersonRow.user_id == user_id).values(user_id=None, user_name=None),
    )
    run("rows", update(Row).where(Row.user_id == user_id).values(user_id=None, user_name=None))
    run(
        "tournaments",
        update(Tournament).where(Tournament.created_by == user_id).values(created_by_name=None),
    )
    run("results", update(Result).where(Result.user_id == user_id).values(user_id=None))
    run("draws", update(Series).where(Series.user_id == user_id).values(user_id=None))
    run(
        "money",
        update(MoneySetting).where(MoneySetting.user_id == user_id).values(user_id=None),
    )
    run(
        "builders",
        update(GameBuilder)
        .where(GameBuilder.owner_id == user_id)
        .values(owner_id=None, owner_name=""),
    )
    signed = 0
    for link in session.scalars(select(TableLink)):
        data = json.loads(link.signed)
        if any(int(u) == user_id for u in data.values()):
            data = {n: (NO_ACCOUNT if int(u) == user_id else int(u)) for n, u in data.items()}
            link.signed = json.dumps(data, ensure_ascii=False, sort_keys=True)
            signed += 1
    out["signatures"] = signed
    replies = 0
    for name in sorted(n for n in account_names if len(n) >= 3):
        result = session.execute(
            update(ProcessedUpdate).where(ProcessedUpdate.reply.contains(name)).values(reply=None)
        )
        replies += max(result.rowcount or 0, 0)  # type: ignore[attr-defined]
    out["replies"] = replies
    session.expire_all()
    return out


def account_names(session: Session, user_id: int) -> set[str]:
    """The names Telegram gave the account, as stored anywhere."""
    names = set(
        session.scalars(
            select(PersonRow.user_name).where(
                PersonRow.user_id == user_id, PersonRow.user_name.is_not(None)
            )
        )
    )
    names |= set(
        session.scalars(
            select(Row.user_name).where(Row.user_id == user_id, Row.user_name.is_not(None))
        )
    )
    names |= set(
        session.scalars(
            select(Tournament.created_by_name).where(
                Tournament.created_by == user_id, Tournament.created_by_name.is_not(None)
            )
        )
    )
    return {n for n in names if n}
