"""outbox: what runs after a reply is stored by key, not as "module:function"

Data only. A reply waiting in the outbox names what runs after it is sent (``on_sent``, an
edit's ``on_gone``/``render``, a topic's ``on_created``/``on_refused``) as ``[name, args]``.
Earlier versions wrote the name as a module path, some of them the paths of modules that
have moved since; this version names a stable key (``usecases.common.continuations``).
Every path an earlier version wrote is rewritten to its key:

* a booking's reply stored the link of the user's message as a call of
  ``message_links.set_reply`` (alone, or paired with the reply's own call by ``run_both``):
  that becomes the row's ``link`` (what this version records the same way) and the paired
  call its ``on_sent``;
* a name no version wrote is dropped with one logged line (an edit rendered by it and a
  topic created by it with it, as a reply stored with a closure is): the reply still goes out.

Downgrade writes the module paths of revision 0015 back (keys it does not know are dropped
the same way; ``link`` is understood there).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

log = logging.getLogger("skatbot.storage.migrations")

# Every continuation a version before this one stored, by the path it wrote (the flat
# ``usecases`` modules before the feature packages, then the packages), and its key. Frozen:
# a later move of a function changes ``continuations.DECLARED``, never this table.
KEYS = {
    "skatbot.usecases.standings:store": "standings.store",
    "skatbot.usecases.sheet.standings:store": "standings.store",
    "skatbot.usecases.standings:forget": "standings.forget",
    "skatbot.usecases.sheet.standings:forget": "standings.forget",
    "skatbot.storage.builders:bind_message": "builder.bind_message",
    "skatbot.usecases.table_lists:topic_created": "tournament.topic_created",
    "skatbot.usecases.tournament.tables:topic_created": "tournament.topic_created",
    "skatbot.usecases.table_lists:topic_refused": "tournament.topic_refused",
    "skatbot.usecases.tournament.tables:topic_refused": "tournament.topic_refused",
    "skatbot.usecases.table_lists:render_standings": "tournament.render_standings",
    "skatbot.usecases.tournament.tables:render_standings": "tournament.render_standings",
    "skatbot.usecases.league_tables:topic_created": "league.topic_created",
    "skatbot.usecases.league.tables:topic_created": "league.topic_created",
    "skatbot.usecases.league_tables:topic_refused": "league.topic_refused",
    "skatbot.usecases.league.tables:topic_refused": "league.topic_refused",
}
SET_REPLY = "skatbot.storage.message_links:set_reply"  # args: place, message id, update id
RUN_BOTH = {"skatbot.usecases.reply:run_both", "skatbot.usecases.common.reply:run_both"}

# Where revision 0015's code finds each key's function (for the downgrade).
PATHS_0015 = {
    "standings.store": "skatbot.usecases.sheet.standings:store",
    "standings.forget": "skatbot.usecases.sheet.standings:forget",
    "builder.bind_message": "skatbot.storage.builders:bind_message",
    "tournament.topic_created": "skatbot.usecases.tournament.tables:topic_created",
    "tournament.topic_refused": "skatbot.usecases.tournament.tables:topic_refused",
    "tournament.render_standings": "skatbot.usecases.tournament.tables:render_standings",
    "league.topic_created": "skatbot.usecases.league.tables:topic_created",
    "league.topic_refused": "skatbot.usecases.league.tables:topic_refused",
}

Call = list[Any]  # [name, [args...]] as stored
Rename = Callable[[Call, int], Call | None]


def _to_key(call: Call, row_id: int) -> Call | None:
    name = call[0]
    if name in PATHS_0015:  # a key already
        return call
    if name in KEYS:
        return [KEYS[name], call[1]]
    log.warning("outbox row %s: %r is no continuation any more; left out", row_id, name)
    return None


def _to_path(call: Call, row_id: int) -> Call | None:
    if call[0] in PATHS_0015:
        return [PATHS_0015[call[0]], call[1]]
    log.warning("outbox row %s: %r is unknown to revision 0015; left out", row_id, call[0])
    return None


def _on_sent(data: dict[str, Any], row_id: int) -> None:
    """``on_sent`` to a key; a message link in it becomes the row's ``link``."""
    call = data.get("on_sent")
    if not call:
        return
    parts = [list(part) for part in call[1]] if call[0] in RUN_BOTH else [call]
    own: list[Call] = []
    for part in parts:
        if part[0] == SET_REPLY:
            data.setdefault("link", [int(n) for n in part[1]])
        else:
            own.append(part)
    for extra in own[1:]:  # no version paired two calls of its own
        log.warning("outbox row %s: %r after %r left out", row_id, extra[0], own[0][0])
    data["on_sent"] = _to_key(own[0], row_id) if own else None
    if data["on_sent"] is None:
        del data["on_sent"]


def rewrite(payload: str, row_id: int, rename: Rename = _to_key) -> str:
    """A stored reply (``handlers.durable.encode``'s JSON) with its calls renamed; a payload
    that is not such JSON is kept as it is."""
    try:
        data = json.loads(payload)
    except ValueError:
        log.warning("outbox row %s is not JSON; left as it is", row_id)
        return payload
    if not isinstance(data, dict):
        return payload
    if rename is _to_key:
        _on_sent(data, row_id)
    elif data.get("on_sent"):
        data["on_sent"] = rename(data["on_sent"], row_id)
    edits = []
    for edit in data.get("edits", ()):
        if edit.get("on_gone"):
            edit["on_gone"] = rename(edit["on_gone"], row_id)
        if edit.get("render"):
            edit["render"] = rename(edit["render"], row_id)
            if edit["render"] is None:
                continue  # its text was to come from the call: not sent, as with a closure
        edits.append(edit)
    topics = []
    for topic in data.get("topics", ()):
        if topic.get("on_refused"):
            topic["on_refused"] = rename(topic["on_refused"], row_id)
        topic["on_created"] = (
            rename(topic["on_created"], row_id) if topic.get("on_created") else None
        )
        if topic["on_created"] is None:
            continue  # a topic without its opening is not created, as with a closure
        topics.append(topic)
    for key, kept in (("edits", edits), ("topics", topics)):
        if key in data:
            data[key] = kept
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _rewrite_all(rename: Rename) -> None:
    outbox = sa.table("outbox", sa.column("id", sa.Integer), sa.column("payload", sa.Text))
    conn = op.get_bind()
    for row_id, payload in conn.execute(sa.select(outbox.c.id, outbox.c.payload)).all():
        try:
            new = rewrite(payload, row_id, rename)
        except (TypeError, KeyError, IndexError, ValueError):  # not as any version wrote it
            log.warning("outbox row %s cannot be read; left as it is", row_id)
            continue
        if new != payload:
            conn.execute(sa.update(outbox).where(outbox.c.id == row_id).values(payload=new))


def upgrade() -> None:
    _rewrite_all(_to_key)


def downgrade() -> None:
    _rewrite_all(_to_path)
