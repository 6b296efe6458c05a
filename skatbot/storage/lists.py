"""The queries of lists (their tables are in lists_models.py); each takes the unit of
work's Session.

The hot path (/spiel: read the list, append a row, store the update id) uses Core statements
into small value types instead of ORM objects: the ORM's identity map and unit of work cost
more than the whole replay of a 48-game list, and a log that is only appended to needs neither.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session

from skatbot.rules.house import rules_from_code
from skatbot.rules.sheet import LogRow, RowKind, Sheet, replay
from skatbot.storage.lists_models import Chat, ListStatus, Player, ProcessedUpdate, Row, SheetList
from skatbot.storage.prepared import Prepared
from skatbot.storage.settings import ChatSettings
from skatbot.storage.sheet_cache import SheetKey, after_commit, sheet_cache

LISTS = cast(Table, SheetList.__table__)
PLAYERS = cast(Table, Player.__table__)
ROWS = cast(Table, Row.__table__)
UPDATES = cast(Table, ProcessedUpdate.__table__)
CHATS = cast(Table, Chat.__table__)


@dataclass(frozen=True)
class ListInfo:
    """A stored list (series) without its rows."""

    id: int
    chat_id: int
    status: ListStatus
    rules: str
    first_dealer: int
    series_length: int
    seed: str
    created_by: int | None
    created_at: dt.datetime | None
    closed_at: dt.datetime | None


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    seat: int
    name: str
    start_points: int


@dataclass(frozen=True)
class Processed:
    update_id: int
    reply: str | None


@dataclass
class LoadedList:
    """A list with its players and log, and the replayed sheet."""

    lst: ListInfo
    players: list[PlayerInfo]
    rows: list[LogRow]
    sheet: Sheet
    chat_settings: ChatSettings | None = None  # the chat's settings, if read with the list

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]


_LIST_COLUMNS = (
    LISTS.c.id,
    LISTS.c.chat_id,
    LISTS.c.status,
    LISTS.c.rules,
    LISTS.c.first_dealer,
    LISTS.c.series_length,
    LISTS.c.seed,
    LISTS.c.created_by,
    LISTS.c.created_at,
    LISTS.c.closed_at,
)


# The hot path's statements are compiled once and run on the DB-API cursor (see prepared.py).
_OPEN_LIST = Prepared(
    select(*_LIST_COLUMNS).where(
        LISTS.c.chat_id == bindparam("chat_id"), LISTS.c.status == ListStatus.OPEN
    )
)
_LATEST_LIST = Prepared(
    select(*_LIST_COLUMNS)
    .where(LISTS.c.chat_id == bindparam("chat_id"))
    .order_by(LISTS.c.id.desc())
    .limit(1)
)
_GET_LIST = Prepared(select(*_LIST_COLUMNS).where(LISTS.c.id == bindparam("list_id")))
_PLAYERS = Prepared(
    select(PLAYERS.c.id, PLAYERS.c.seat, PLAYERS.c.name, PLAYERS.c.start_points)
    .where(PLAYERS.c.list_id == bindparam("list_id"))
    .order_by(PLAYERS.c.seat)
)
# The log is append-only: its row count and last id identify what a replay saw.
_ROW_STATS = Prepared(
    select(func.count(ROWS.c.id), func.max(ROWS.c.id)).where(ROWS.c.list_id == bindparam("list_id"))
)
# The open list's log stats, counted once: as scalar subqueries beside the players' columns
# they were counted once per player row, three scans of the log where one does (measured on
# PostgreSQL: 0.44 of the query's 0.57 ms for a 36-game list).
_OPEN = LISTS.alias("open_list")
_OPEN_ROW_STATS = (
    select(
        ROWS.c.list_id,
        func.count(ROWS.c.id).label("row_count"),
        func.max(ROWS.c.id).label("last_row_id"),
    )
    .join_from(ROWS, _OPEN, _OPEN.c.id == ROWS.c.list_id)
    .where(_OPEN.c.chat_id == bindparam("chat_id"), _OPEN.c.status == ListStatus.OPEN)
    .group_by(ROWS.c.list_id)
    .subquery("row_stats")
)
_OPEN_LIST_WITH_PLAYERS = Prepared(
    select(
        *_LIST_COLUMNS,
        PLAYERS.c.id,
        PLAYERS.c.seat,
        PLAYERS.c.name,
        PLAYERS.c.start_points,
        func.coalesce(_OPEN_ROW_STATS.c.row_count, 0),
        _OPEN_ROW_STATS.c.last_row_id,
        CHATS.c.settings,
    )
    .join_from(LISTS, PLAYERS, PLAYERS.c.list_id == LISTS.c.id)
    .join(CHATS, CHATS.c.id == LISTS.c.chat_id)
    .outerjoin(_OPEN_ROW_STATS, _OPEN_ROW_STATS.c.list_id == LISTS.c.id)
    .where(LISTS.c.chat_id == bindparam("chat_id"), LISTS.c.status == ListStatus.OPEN)
    .order_by(PLAYERS.c.seat)
)
_ROWS = Prepared(
    select(
        ROWS.c.id,
        ROWS.c.kind,
        ROWS.c.dealer,
        ROWS.c.declarer,
        ROWS.c.announcement,
        ROWS.c.target,
        ROWS.c.seat,
    )
    .where(ROWS.c.list_id == bindparam("list_id"))
    .order_by(ROWS.c.id)
)
_ROW_FIELDS = (
    "list_id",
    "kind",
    "dealer",
    "declarer",
    "announcement",
    "target",
    "seat",
    "user_id",
    "user_name",
    "update_id",
    "created_at",
)
_INSERT_ROW = Prepared(
    insert(ROWS).values({f: bindparam(f) for f in _ROW_FIELDS}).returning(ROWS.c.id)
)
_PROCESSED = Prepared(
    select(UPDATES.c.update_id, UPDATES.c.reply).where(
        UPDATES.c.update_id == bindparam("update_id")
    )
)
_MARK_PROCESSED = Prepared(
    insert(UPDATES).values(
        {f: bindparam(f) for f in ("update_id", "chat_id", "reply", "processed_at")}
    )
)
_CHAT_SETTINGS = Prepared(select(CHATS.c.settings).where(CHATS.c.id == bindparam("chat_id")))


def chat_settings(session: Session, chat_id: int) -> str | None:
    """The chat's settings JSON text (None if the chat has no row yet)."""
    value = _CHAT_SETTINGS.scalar(session, {"chat_id": chat_id})
    return value if isinstance(value, str) else None


def _list_info(row: Any) -> ListInfo | None:
    return None if row is None else ListInfo(*row)  # status: a ListStatus (the column type)


def open_list(session: Session, chat_id: int) -> ListInfo | None:
    return _list_info(_OPEN_LIST.first(session, {"chat_id": chat_id}))


def latest_list(session: Session, chat_id: int) -> ListInfo | None:
    return _list_info(_LATEST_LIST.first(session, {"chat_id": chat_id}))


def get_list(session: Session, list_id: int) -> ListInfo | None:
    return _list_info(_GET_LIST.first(session, {"list_id": list_id}))


def continued_list(session: Session, lst: ListInfo) -> ListInfo | None:
    """The list ``lst`` continues (it was started with /weiter after it), if it still exists."""
    previous = select(LISTS.c.continues).where(LISTS.c.id == lst.id).scalar_subquery()
    row = session.execute(
        select(*_LIST_COLUMNS).where(LISTS.c.id == previous, LISTS.c.chat_id == lst.chat_id)
    ).first()
    return _list_info(row)


def load(session: Session, lst: ListInfo) -> LoadedList:
    """The list with its players, log and replayed sheet (see ``_loaded`` on the cache)."""
    params = {"list_id": lst.id}
    players = tuple(PlayerInfo(*r) for r in _PLAYERS.all(session, params))
    count, last = _ROW_STATS.first(session, params) or (0, None)
    return _loaded(session, lst, players, count, last)


def last_row_id(session: Session, lst: ListInfo) -> int:
    """The id of the list's newest log row (0: none): every change of a list appends a row
    and ids are never reused, so it names the list's state."""
    _count, last = _ROW_STATS.first(session, {"list_id": lst.id}) or (0, None)
    return int(last or 0)


def open_list_loaded(session: Session, chat_id: int) -> LoadedList | None:
    """The chat's open list, loaded: list, players, log stats and the chat's settings in one
    query (one round trip on PostgreSQL instead of four; the log only when the cache misses)."""
    found = _OPEN_LIST_WITH_PLAYERS.all(session, {"chat_id": chat_id})
    if not found:
        return None
    width = len(_LIST_COLUMNS)
    first = found[0]
    players = tuple(PlayerInfo(*r[width : width + 4]) for r in found)
    loaded = _loaded(session, ListInfo(*first[:width]), players, first[-3], first[-2])
    loaded.chat_settings = ChatSettings.parse(first[-1])
    return loaded


def _loaded(
    session: Session, lst: ListInfo, players: tuple[PlayerInfo, ...], count: int, last: int | None
) -> LoadedList:
    """The loaded list; the replay comes from the sheet cache when nothing it was computed
    from has changed: the list row, the players and the log (append-only, so its row count
    and last row id identify it). That key is read in this transaction, so a hit is never
    stale - not after a write by another process, a rolled-back booking or a list re-created
    under an old id (the list's seed and creation time differ).
    """
    key = SheetKey(lst, players, count, last)
    cache = sheet_cache(session)
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        return LoadedList(lst, list(players), list(hit[0]), hit[1])
    rows = [
        LogRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6])  # kind: a RowKind (the column type)
        for r in _ROWS.all(session, {"list_id": lst.id})
    ]
    sheet = replay(
        [p.name for p in players],
        rows,
        first_dealer=lst.first_dealer,
        series_length=lst.series_length,
        house=rules_from_code(lst.rules),
        start=[p.start_points for p in players],
    )
    loaded = LoadedList(lst, list(players), rows, sheet)
    if cache is not None:
        # Keyed by the rows actually read: on PostgreSQL (read committed) another writer's row
        # may have arrived between the count above and this read.
        seen = SheetKey(lst, players, len(rows), rows[-1].id if rows else None)
        after_commit(session, lambda: cache.put(seen, (tuple(rows), sheet)))
    return loaded


def remember(
    session: Session, loaded: LoadedList, new: LogRow, sheet: Sheet, also: tuple[LogRow, ...] = ()
) -> None:
    """Offer the cache the sheet after ``new`` (and the rows ``also`` appended with it) was
    appended (kept only if the unit commits)."""
    cache = sheet_cache(session)
    if cache is None:
        return
    rows = (*loaded.rows, new, *also)
    key = SheetKey(loaded.lst, tuple(loaded.players), len(rows), rows[-1].id)
    after_commit(session, lambda: cache.put(key, (rows, sheet)))


def create_list(
    session: Session,
    chat_id: int,
    names: list[str],
    *,
    first_dealer: int,
    series_length: int,
    rules: str,
    seed: str,
    user_id: int | None,
    continues: int | None = None,
) -> ListInfo:
    """A new open list; ``continues`` is the list it follows at the same table (/weiter)."""
    now = dt.datetime.now(dt.UTC)
    list_id: int = session.execute(
        insert(LISTS).values(
            chat_id=chat_id,
            status=ListStatus.OPEN,
            rules=rules,
            first_dealer=first_dealer,
            series_length=series_length,
            seed=seed,
            created_by=user_id,
            created_at=now,
            continues=continues,
        )
    ).inserted_primary_key[0]  # type: ignore[attr-defined]
    session.execute(
        insert(PLAYERS),
        [
            {"list_id": list_id, "seat": seat, "name": name, "start_points": 0}
            for seat, name in enumerate(names)
        ],
    )
    return ListInfo(
        list_id,
        chat_id,
        ListStatus.OPEN,
        rules,
        first_dealer,
        series_length,
        seed,
        user_id,
        now,
        None,
    )


_ROW_DEFAULTS: dict[str, Any] = {
    "dealer": None,
    "declarer": None,
    "announcement": None,
    "target": None,
    "seat": None,
    "user_id": None,
    "user_name": None,
    "update_id": None,
}


_CHANGED_KEY = "skatbot.lists.changed"


def changed_in(session: Session) -> bool:
    """Whether this transaction appended a log row to a list (what a list shows changed)."""
    return bool(session.info.get(_CHANGED_KEY, False))


def append_row(session: Session, lst: ListInfo, *, kind: RowKind, **fields: Any) -> LogRow:
    """Append one log row of ``kind`` (never updated, never deleted) and return it."""
    kind = RowKind(kind)
    fields["kind"] = kind
    fields.setdefault("created_at", dt.datetime.now(dt.UTC))
    row_id: int = _INSERT_ROW.scalar(session, {"list_id": lst.id, **_ROW_DEFAULTS, **fields})
    session.info[_CHANGED_KEY] = True  # a session is one unit (one transaction)
    return LogRow(
        id=row_id,
        kind=kind,
        dealer=fields.get("dealer"),
        declarer=fields.get("declarer"),
        announcement=fields.get("announcement"),
        target=fields.get("target"),
        seat=fields.get("seat"),
    )


@dataclass(frozen=True)
class Author:
    """Who wrote a log row (as the row records them)."""

    user_id: int | None
    name: str


def row_author(session: Session, lst: ListInfo, row_id: int) -> Author | None:
    """Who wrote row ``row_id`` of list ``lst`` (None: no such row of that list)."""
    found = session.execute(
        select(ROWS.c.user_id, ROWS.c.user_name).where(
            ROWS.c.id == row_id, ROWS.c.list_id == lst.id
        )
    ).first()
    if found is None:
        return None
    return Author(found[0], found[1] or "")


def close_list(session: Session, lst: ListInfo) -> ListInfo:
    """Close the list; returns it as it is now (status "closed", ``closed_at`` set)."""
    now = dt.datetime.now(dt.UTC)
    session.execute(
        update(LISTS).where(LISTS.c.id == lst.id).values(status=ListStatus.CLOSED, closed_at=now)
    )
    return dataclasses.replace(lst, status=ListStatus.CLOSED, closed_at=now)


def discard_list(session: Session, lst: ListInfo) -> None:
    """Delete a list that has no game (the schema takes its players, rows and builders along
    and frees a table linked to it): an empty list replaced by a new one is no series and
    leaves no trace in numbers or statistics."""
    session.execute(delete(LISTS).where(LISTS.c.id == lst.id))


def reopen_list(session: Session, lst: ListInfo) -> ListInfo:
    """Open a closed list again (``/oeffnen``); returns it as it is now."""
    session.execute(
        update(LISTS).where(LISTS.c.id == lst.id).values(status=ListStatus.OPEN, closed_at=None)
    )
    return dataclasses.replace(lst, status=ListStatus.OPEN, closed_at=None)


def list_number(session: Session, lst: ListInfo) -> int:
    """The list's number in its place: 1 for the first list of a chat (or topic), 2, ...
    (the ids are shared by all chats and mean nothing to a player)."""
    count = session.scalar(
        select(func.count())
        .select_from(LISTS)
        .where(LISTS.c.chat_id == lst.chat_id, LISTS.c.id <= lst.id)
    )
    return int(count or 1)


def numbered_list(session: Session, chat_id: int, number: int) -> ListInfo | None:
    """List ``number`` of the place (as :func:`list_number` counts), if there is one."""
    if number < 1:
        return None
    row = session.execute(
        select(*_LIST_COLUMNS)
        .where(LISTS.c.chat_id == chat_id)
        .order_by(LISTS.c.id)
        .offset(number - 1)
        .limit(1)
    ).first()
    return _list_info(row)


def place_lists(session: Session, chat_id: int, *, last: int) -> list[tuple[int, ListInfo]]:
    """The ``last`` newest lists of the place with their numbers, oldest first."""
    total = int(
        session.scalar(select(func.count()).select_from(LISTS).where(LISTS.c.chat_id == chat_id))
        or 0
    )
    rows = session.execute(
        select(*_LIST_COLUMNS)
        .where(LISTS.c.chat_id == chat_id)
        .order_by(LISTS.c.id.desc())
        .limit(last)
    ).all()
    found = [lst for r in rows if (lst := _list_info(r)) is not None]
    return [(total - i, lst) for i, lst in enumerate(found)][::-1]


def set_series_length(session: Session, lst: ListInfo, n: int) -> None:
    session.execute(update(LISTS).where(LISTS.c.id == lst.id).values(series_length=n))


def set_list_rules(session: Session, lst: ListInfo, code: str) -> None:
    session.execute(update(LISTS).where(LISTS.c.id == lst.id).values(rules=code))


def rename_player(session: Session, player: PlayerInfo, name: str) -> None:
    session.execute(update(PLAYERS).where(PLAYERS.c.id == player.id).values(name=name))


def set_start_points(session: Session, player: PlayerInfo, points: int) -> None:
    session.execute(update(PLAYERS).where(PLAYERS.c.id == player.id).values(start_points=points))


def processed(session: Session, update_id: int) -> Processed | None:
    row = _PROCESSED.first(session, {"update_id": update_id})
    return None if row is None else Processed(row[0], row[1])


# Telegram keeps an update for 24 hours; one not confirmed by then is gone, so its id can no
# longer come back and need not be remembered. Twice that, for clocks and long outages.
PROCESSED_KEPT = dt.timedelta(hours=48)


def prune_processed(session: Session, now: dt.datetime | None = None) -> int:
    """Forget the update ids (and stored reply texts) Telegram can no longer deliver again;
    returns how many."""
    from sqlalchemy import delete

    cutoff = (now or dt.datetime.now(dt.UTC)) - PROCESSED_KEPT
    result = session.execute(delete(UPDATES).where(UPDATES.c.processed_at < cutoff))
    return int(getattr(result, "rowcount", 0) or 0)


def mark_processed(session: Session, update_id: int, chat_id: int | None, reply: str) -> None:
    _MARK_PROCESSED.execute(
        session,
        {
            "update_id": update_id,
            "chat_id": chat_id,
            "reply": reply,
            "processed_at": dt.datetime.now(dt.UTC),
        },
    )
