"""What the bot stores under one Telegram account, across every chat (``/ich daten``), and
forgetting it (``/ich vergessen``).

Every column that can hold an account's id or name is in :data:`HELD`, with how forgetting
treats it (``tests/usecases/people/test_forgetting_everything.py`` fails when a column that
looks like one - ``*user_id``, ``*user_name``, ``*_by``, ``captain_*``, ``host_*``, ... - is
added without an entry here, and checks that nothing of a person in every such column is left
after ``/ich vergessen``). In short:

- a *name* of the account is cleared everywhere (also where it is quoted: the stored reply
  texts, a day's confirmations);
- an *id* that only records who did something (entered a row, a result, a draw, a line-up,
  approved a day) is cleared;
- an *id* that grants a role - the creator of a list, a tournament or a league, a team's
  captain, a day's host - is kept without any name: it is what lets that person go on
  deleting or managing it (without it only the admins could); ``/ich daten`` lists each;
- a table's signature stays a signature, without the account;
- a row that exists only for the account - a role code waiting for it, its claim of a name at
  a table - is deleted.

The names written in a chat's lists, a tournament's or a league's are that table's record and
are not the account's: they stay until the chat's admins rename them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from sqlalchemy import Table, delete, func, select, update
from sqlalchemy.orm import Session

from skatbot.storage.builders import GameBuilder
from skatbot.storage.league_models import League, LeagueTeam, MatchDay
from skatbot.storage.lists_models import ProcessedUpdate, Row, SheetList
from skatbot.storage.money import MoneySetting
from skatbot.storage.people import PersonName, PersonRow
from skatbot.storage.schema import metadata
from skatbot.storage.tournament_models import Result, Series, TableLink, Tournament

NO_ACCOUNT = 0  # a signature kept without the account that gave it
FORGOTTEN_CAPTAIN = "Kapitän"  # a day's confirmation kept without the captain's name
MIN_QUOTED = 3  # shorter account names are not searched for in stored texts


class Way(Enum):
    """How ``/ich vergessen`` treats a column."""

    CLEARED = "cleared"  # set to NULL ('' where the column must hold text)
    DELETED = "deleted"  # the row is the account's alone: deleted
    KEPT_ROLE = "kept"  # an id granting a role: kept, with no name beside it
    SIGNATURES = "signatures"  # JSON {name: account id}: the account becomes NO_ACCOUNT
    CONFIRMATIONS = "confirmations"  # JSON {team id: account name}: the name is replaced
    QUOTED = "quoted"  # text that may quote the account's name: cleared where it does
    TRANSIENT = "transient"  # deleted once Telegram accepted it
    NO_ACCOUNT = "none"  # looks like one by its name, holds no account


@dataclass(frozen=True)
class Held:
    """A column that can hold an account's id or name. ``whose``: for a name, the id column
    of the same row that says whose it is (None: the column holds the id itself)."""

    table: str
    column: str
    way: Way
    whose: str | None = None
    why: str = ""

    @property
    def key(self) -> str:
        return f"{self.table}.{self.column}"


C, K = Way.CLEARED, Way.KEPT_ROLE
HELD: tuple[Held, ...] = (
    Held("people", "user_id", C, why="the link of a name to the account (/ich NAME)"),
    Held("people", "user_name", C, "user_id"),
    Held("rows", "user_id", C, why="who entered a row of a list"),
    Held("rows", "user_name", C, "user_id"),
    Held("lists", "created_by", K, why="its creator may delete and reopen it"),
    Held("builders", "owner_id", C, why="an open game builder"),
    Held("builders", "owner_name", C, "owner_id"),
    Held("money_settings", "user_id", C, why="who set a stake"),
    Held("tournaments", "created_by", K, why="its creator manages it"),
    Held("tournaments", "created_by_name", C, "created_by"),
    Held("tournaments", "closed_by", C, why="who ended it"),
    Held("tournament_roster", "user_id", C, why="who added or removed a participant"),
    Held("tournament_roster", "user_name", C, "user_id"),
    Held("tournament_series", "user_id", C, why="who drew a series"),
    Held("tournament_results", "user_id", C, why="who entered a result"),
    Held("tournament_tables", "signed", Way.SIGNATURES, why="a table's signatures"),
    Held("leagues", "created_by", K, why="its creator manages it"),
    Held("leagues", "created_by_name", C, "created_by"),
    Held("league_teams", "captain_user_id", K, why="the captain changes the line-up"),
    Held("league_teams", "captain_name", C, "captain_user_id"),
    Held("league_teams", "captain_code", Way.NO_ACCOUNT, why="a one-time code, no account"),
    Held("league_days", "created_by", C, why="who opened the day"),
    Held("league_days", "approved_by", C, why="who approved the day"),
    Held("league_days", "host_user_id", K, why="the host runs the day on its date"),
    Held("league_days", "host_name", C, "host_user_id"),
    Held("league_days", "host_code", Way.NO_ACCOUNT, why="a one-time code, no account"),
    Held(
        "league_days",
        "host_chat_id",
        Way.NO_ACCOUNT,
        why="a place, not an account; a private chat's data goes with /loeschen there",
    ),
    Held("league_days", "confirmed", Way.CONFIRMATIONS, why="the captains who confirmed"),
    Held("league_lineups", "user_id", C, why="who changed a line-up"),
    Held("league_results", "user_id", C, why="who entered a result"),
    Held("role_codes", "for_user_id", Way.DELETED, why="a role code sent to the account"),
    Held("role_codes", "for_name", C, "for_user_id"),
    Held("role_codes", "created_by", C, why="who had a role code sent"),
    Held("name_claims", "user_id", Way.DELETED, why="a name claimed at a table"),
    Held("name_claims", "user_name", C, "user_id"),
    Held("pending_questions", "user_id", Way.DELETED, why="a question asked, not answered"),
    Held("game_nights", "user_id", K, why="who planned a game night may close it early"),
    Held("game_nights", "user_name", C, "user_id"),
    Held("game_night_votes", "user_id", Way.DELETED, why="a yes to a game night"),
    Held("processed_updates", "reply", Way.QUOTED, why="a stored reply may quote the name"),
    Held("outbox", "payload", Way.TRANSIENT, why="deleted once Telegram accepted it"),
    Held("outbox", "blob", Way.TRANSIENT, why="deleted once Telegram accepted it"),
)


def _table(name: str) -> Table:
    return metadata().tables[name]


def _mine(session: Session, held: Held, user_id: int, names: set[str]) -> int:
    """How many rows of ``held`` hold the account (by id, or its name by the row's id)."""
    table = _table(held.table)
    column = table.c[held.column]
    if held.way in (Way.CLEARED, Way.KEPT_ROLE, Way.DELETED):
        if held.whose is None:
            where = column == user_id
        else:
            where = (table.c[held.whose] == user_id) & column.is_not(None) & (column != "")
        return session.scalar(select(func.count()).select_from(table).where(where)) or 0
    if held.way is Way.SIGNATURES:
        return len(_signatures(session, user_id))
    if held.way is Way.CONFIRMATIONS:
        return len(_confirmed_days(session, names))
    if held.way is Way.QUOTED:
        quoted = [n for n in names if len(n) >= MIN_QUOTED]
        if not quoted:
            return 0
        return sum(
            session.scalar(
                select(func.count())
                .select_from(table)
                .where(column.contains(name, autoescape=True))
            )
            or 0
            for name in quoted
        )
    return 0


def _signatures(session: Session, user_id: int) -> list[dict[str, Any]]:
    out = []
    for link_id, signed in session.execute(select(TableLink.id, TableLink.signed)):
        for name, user in json.loads(signed).items():
            if int(user) == user_id:
                out.append({"table": link_id, "name": name})
    return out


def _confirmed_days(session: Session, names: Iterable[str]) -> list[MatchDay]:
    wanted = set(names)
    days = session.scalars(select(MatchDay).where(MatchDay.confirmed != "{}")).all()
    return [d for d in days if wanted & set(json.loads(d.confirmed or "{}").values())]


def _roles(session: Session, user_id: int) -> dict[str, Any]:
    """The roles the account holds, by name (the ids that are kept when forgetting)."""
    leagues = session.scalars(select(League.name).where(League.created_by == user_id)).all()
    captain = session.execute(
        select(League.name, LeagueTeam.name)
        .join(League, LeagueTeam.league_id == League.id)
        .where(LeagueTeam.captain_user_id == user_id)
    ).all()
    host = session.execute(
        select(League.name, MatchDay.number, MatchDay.play_date)
        .join(League, MatchDay.league_id == League.id)
        .where(MatchDay.host_user_id == user_id)
    ).all()
    return {
        "leagues_created": list(leagues),
        "captain_of": [{"league": lg, "team": team} for lg, team in captain],
        "host_of": [
            {"league": lg, "day": n, "date": d.isoformat() if d else None} for lg, n, d in host
        ],
    }


def collect(session: Session, user_id: int, current: Iterable[str] = ()) -> dict[str, Any]:
    """Everything stored under ``user_id``, as plain JSON-able data (``current``: the
    account's name now, besides the ones stored)."""
    names = account_names(session, user_id) | {n for n in current if n}
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
    return {
        "account": user_id,
        "account_names": sorted(names),
        "linked_names": links,
        "rows_entered": [
            {"place": place, "rows": count, "account_name": name} for place, count, name in rows
        ],
        "lists_created": len(lists),
        "tournaments_created": [{"name": n, "creator_name": c} for n, c in tournaments],
        **_roles(session, user_id),
        "signatures": _signatures(session, user_id),
        "confirmations": [
            {"league_day": d.number, "league": d.league_id} for d in _confirmed_days(session, names)
        ],
        "results_entered": _count(session, Result.user_id, user_id),
        "draws_made": _count(session, Series.user_id, user_id),
        "money_settings": _count(session, MoneySetting.user_id, user_id),
        "open_builders": _count(session, GameBuilder.owner_id, user_id),
        # every column that holds the account, and in how many rows (the list in HELD)
        "stored": {
            h.key: n
            for h in HELD
            if h.way not in (Way.TRANSIENT, Way.NO_ACCOUNT)
            and (n := _mine(session, h, user_id, names))
        },
    }


def _count(session: Session, column: Any, user_id: int) -> int:
    return session.scalar(select(func.count()).where(column == user_id)) or 0


def forget(session: Session, user_id: int, names: set[str]) -> dict[str, int]:
    """Remove the account's ids and names everywhere :data:`HELD` says; returns how many rows
    changed, by column (and the totals ``links``, ``rows``, ``signatures``, ``replies``).
    Names go first: a name column finds its rows by the id beside it."""
    out: dict[str, int] = {}

    def run(held: Held, stmt: Any) -> None:
        result = session.execute(stmt)
        out[held.key] = max(result.rowcount or 0, 0)  # type: ignore[attr-defined]

    cleared = [h for h in HELD if h.way is Way.CLEARED]
    for held in sorted(cleared, key=lambda h: h.whose is None):
        table = _table(held.table)
        column = table.c[held.column]
        blank = None if column.nullable else ""
        by = table.c[held.whose] if held.whose is not None else column
        run(held, update(table).where(by == user_id).values({held.column: blank}))
    for held in (h for h in HELD if h.way is Way.DELETED):
        table = _table(held.table)
        run(held, delete(table).where(table.c[held.column] == user_id))
    signed = 0
    for link in session.scalars(select(TableLink)):
        data = json.loads(link.signed)
        if any(int(u) == user_id for u in data.values()):
            data = {n: (NO_ACCOUNT if int(u) == user_id else int(u)) for n, u in data.items()}
            link.signed = json.dumps(data, ensure_ascii=False, sort_keys=True)
            signed += 1
    out["signatures"] = signed
    for day in _confirmed_days(session, names):
        data = json.loads(day.confirmed)
        data = {team: (FORGOTTEN_CAPTAIN if n in names else n) for team, n in data.items()}
        day.confirmed = json.dumps(data, ensure_ascii=False)
    replies = 0
    for name in sorted(n for n in names if len(n) >= MIN_QUOTED):
        result = session.execute(
            update(ProcessedUpdate)
            .where(ProcessedUpdate.reply.contains(name, autoescape=True))
            .values(reply=None)
        )
        replies += max(result.rowcount or 0, 0)  # type: ignore[attr-defined]
    out["replies"] = replies
    out["links"] = out["people.user_id"]
    out["rows"] = out["rows.user_id"]
    session.expire_all()
    return out


def account_names(session: Session, user_id: int) -> set[str]:
    """The names Telegram gave the account, as stored anywhere (every name column of
    :data:`HELD`, by the id beside it)."""
    names: set[str] = set()
    for held in HELD:
        if held.whose is None:
            continue
        table = _table(held.table)
        column = table.c[held.column]
        names |= set(
            session.scalars(
                select(column).where(table.c[held.whose] == user_id, column.is_not(None))
            )
        )
    return {n for n in names if n}
