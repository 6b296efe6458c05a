"""A reply an earlier version left in the durable outbox names what runs after it by module
path: paths of the flat ``usecases`` modules, of modules moved since, a booking message's link
as a call of its own and two calls paired by ``run_both``. Migration 0016 rewrites each to a
key (``usecases.common.continuations``); after the upgrade the replies go out and what they
name runs, as it would have in the version that stored them."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import logging
import re
from types import ModuleType
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from skatbot.storage import builders, chats, message_links, outbox, table_lists
from skatbot.storage import lists as lists_store
from skatbot.storage.database import Database
from skatbot.storage.migrate import HEAD, MIGRATIONS, alembic_config, upgrade
from skatbot.storage.unit import Session
from skatbot.usecases.common.continuations import DECLARED, resolve
from skatbot.usecases.sheet.builder.state import State
from tests.helpers import GROUP_WINDOW, Bot
from tests.standin.fake_telegram import FakeBotApi

# Every name a version before the keys stored (git history of every Call(...) in skatbot/).
OLD_PATHS = [
    "skatbot.usecases.standings:forget",
    "skatbot.usecases.standings:store",
    "skatbot.usecases.sheet.standings:forget",
    "skatbot.usecases.sheet.standings:store",
    "skatbot.storage.builders:bind_message",
    "skatbot.usecases.table_lists:topic_created",
    "skatbot.usecases.table_lists:topic_refused",
    "skatbot.usecases.table_lists:render_standings",
    "skatbot.usecases.tournament.tables:topic_created",
    "skatbot.usecases.tournament.tables:topic_refused",
    "skatbot.usecases.tournament.tables:render_standings",
    "skatbot.usecases.league_tables:topic_created",
    "skatbot.usecases.league_tables:topic_refused",
    "skatbot.usecases.league.tables:topic_created",
    "skatbot.usecases.league.tables:topic_refused",
]
SET_REPLY = "skatbot.storage.message_links:set_reply"
RUN_BOTH = ["skatbot.usecases.reply:run_both", "skatbot.usecases.common.reply:run_both"]


def migration() -> ModuleType:
    (path,) = (MIGRATIONS / "versions").glob("*_continuation_keys.py")
    spec = importlib.util.spec_from_file_location("continuation_keys", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rewritten(payload: dict[str, Any], *, down: bool = False) -> dict[str, Any]:
    m = migration()
    rename = m._to_path if down else m._to_key
    return json.loads(m.rewrite(json.dumps(payload), 1, rename))  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", OLD_PATHS)
def test_every_path_an_earlier_version_stored_becomes_its_key(path: str) -> None:
    key, args = rewritten({"text": "x", "on_sent": [path, [1, "a"]]})["on_sent"]
    assert key in DECLARED and args == [1, "a"]
    assert resolve(key).__name__ == path.split(":")[1]  # the same function, found by key


@pytest.mark.parametrize("run_both", RUN_BOTH)
def test_a_booking_messages_link_becomes_the_rows_link(run_both: str) -> None:
    bind = ["skatbot.storage.builders:bind_message", [5]]
    link = [SET_REPLY, [-1001, 17, 4242]]
    assert rewritten({"text": "x", "on_sent": [run_both, [bind, link]]}) == {
        "text": "x",
        "on_sent": ["builder.bind_message", [5]],
        "link": [-1001, 17, 4242],
    }
    # the link alone (an edited booking's new answer)
    assert rewritten({"text": "x", "on_sent": link}) == {"text": "x", "link": [-1001, 17, 4242]}


def test_a_name_no_version_wrote_is_left_out_with_one_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    unknown = ["skatbot.usecases.nowhere:nothing", [1]]
    forget = ["skatbot.usecases.standings:forget", [-1001, 9]]
    payload = {
        "text": "Stand",
        "on_sent": unknown,
        "edits": [
            {"message_id": 9, "text": "a", "on_gone": unknown, "render": None},
            {"message_id": 10, "text": None, "on_gone": forget, "render": unknown},
        ],
        "topics": [
            {"chat_id": -1001, "name": "T", "on_created": unknown, "on_refused": forget},
            {"chat_id": -1001, "name": "U", "on_created": forget, "on_refused": unknown},
        ],
    }
    with caplog.at_level(logging.WARNING):
        out = rewritten(payload)
    assert out == {
        "text": "Stand",
        # the edit keeps its text, without the call; the edit that was to be rendered goes
        "edits": [{"message_id": 9, "text": "a", "on_gone": None, "render": None}],
        # the topic that was to open with the unknown call goes
        "topics": [
            {
                "chat_id": -1001,
                "name": "U",
                "on_created": ["standings.forget", [-1001, 9]],
                "on_refused": None,
            }
        ],
    }
    lines = [r.getMessage() for r in caplog.records if "nowhere" in r.getMessage()]
    assert len(lines) == 5, lines  # one per call left out
    # not a reply at all: kept as it is
    m = migration()
    assert m.rewrite("{}", 1) == "{}"
    assert m.rewrite("not json", 1) == "not json"


def test_downgrade_writes_back_the_paths_of_the_version_before() -> None:
    keyed = {"text": "x", "on_sent": ["standings.store", [-1001]], "link": [-1001, 1, 2]}
    assert rewritten(keyed, down=True) == {
        "text": "x",
        "on_sent": ["skatbot.usecases.sheet.standings:store", [-1001]],
        "link": [-1001, 1, 2],
    }
    # down and up again is the same key, for every key of that version (a key declared
    # since has no path before it: its reply is dropped on the way down, with a warning)
    for key in set(migration().KEYS.values()):
        path = rewritten({"on_sent": [key, []]}, down=True)["on_sent"][0]
        assert rewritten({"on_sent": [path, []]})["on_sent"] == [key, []]


# --- through the bot: replies left by an earlier version run after the upgrade --------------

DESK = -1002  # a league's desk (no forum: Telegram refuses a topic there)
PINNED_GONE = 999_999  # the pinned standings' message, deleted meanwhile


def _add(session: Session, chat_id: int, payload: dict[str, Any], kind: str = "reply") -> None:
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    outbox.add(
        session, chat_id=chat_id, thread_id=None, update_id=None, kind=kind, payload=body, blob=None
    )


def _migrate_keys(db: Database) -> None:
    """Run the keys' migration alone over rows as the version before it left them: the schema
    stays at the head (later migrations change tables, not the outbox's payloads), the
    revision is set back to the one before the keys, upgraded to the keys' and stamped at the
    head again."""
    script = ScriptDirectory.from_config(alembic_config())
    (rev,) = [r for r in script.walk_revisions() if r.path.endswith("_continuation_keys.py")]

    def stamp(version: str) -> None:
        with db.write_engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": version})

    stamp(str(rev.down_revision))
    upgrade(db.write_engine, rev.revision)
    stamp(HEAD)


async def test_replies_an_earlier_version_left_run_after_the_upgrade(db: Database) -> None:
    async with FakeBotApi(group_window=GROUP_WINDOW) as api:
        bot = Bot(api, db)
        await bot.start()
        try:
            await bot.say("/neu Anna Bernd Carla")
            await bot.say("/hilfe", chat_id=-1003)  # a chat the bot is in
            await bot.say("/liga Kreisliga", chat_id=DESK)
            await bot.say(
                "/mannschaft Nord: Anna, Bernd, Carla, Dora\nSüd: Fritz, Gabi, Hans, Inge\n"
                "Ost: Karl, Lena, Max, Nina",
                chat_id=DESK,
            )
            await bot.say("/spieltag 1 Reken", chat_id=DESK)
            seating = await bot.text("/setzen", chat_id=DESK)
            found = re.search(r"Tisch 1 \(.*?/tisch (L\w{6})\)", seating)
            assert found is not None, seating
            code = found.group(1)
        finally:
            await bot.shutdown()

        def left_behind(session: Session) -> int:
            chats.update_settings(
                session, -1001, lambda s: dataclasses.replace(s, pinned_standings=PINNED_GONE)
            )
            opened = lists_store.open_list(session, -1001)
            assert opened is not None
            builder = builders.create(
                session,
                chat_id=-1001,
                list_id=opened.id,
                owner_id=1,
                owner_name="Spieler",
                rows_seen=0,
                state=State().dump(),
            )
            message_links.remember(session, -1001, 17, 4242)
            table = table_lists.by_code(session, code)
            assert table is not None and table.table_no == 1
            # a booking's answer: the builder learns its message, the booking message its
            # answer (run_both of the flat module); the deleted pinned standings are forgotten
            _add(
                session,
                -1001,
                {
                    "text": "✅ Spiel 1",
                    "edits": [
                        {
                            "message_id": PINNED_GONE,
                            "text": "Stand",
                            "buttons": [],
                            "on_gone": ["skatbot.usecases.standings:forget", [-1001, PINNED_GONE]],
                            "render": None,
                            "every": 0.0,
                        }
                    ],
                    "on_sent": [
                        "skatbot.usecases.reply:run_both",
                        [
                            ["skatbot.storage.builders:bind_message", [builder.id]],
                            [SET_REPLY, [-1001, 17, 4242]],
                        ],
                    ],
                },
            )
            # standings pinned at another place remember their message
            _add(
                session,
                -1003,
                {
                    "text": "📌 Stand",
                    "pin": True,
                    "on_sent": ["skatbot.usecases.sheet.standings:store", [-1003]],
                },
                kind="post",
            )
            # a league table's topic (no forum here: refused, the desk is told), named by
            # the league's module before it became a package
            _add(
                session,
                DESK,
                {
                    "text": "",
                    "topics": [
                        {
                            "chat_id": DESK,
                            "name": "Kreisliga · Tag 1 S1 Tisch 1",
                            "on_created": [
                                "skatbot.usecases.league_tables:topic_created",
                                [table.id, 1, "Spieler", DESK, "Kreisliga · Tag 1 S1 Tisch 1"],
                            ],
                            "on_refused": [
                                "skatbot.usecases.league_tables:topic_refused",
                                [table.id],
                            ],
                        }
                    ],
                },
            )
            return builder.id

        builder_id = db.run_write(left_behind)
        _migrate_keys(db)

        stored = [json.loads(row.payload) for row in db.run_read(outbox.pending)]
        assert "skatbot." not in json.dumps(stored), stored  # keys only
        assert stored[0]["link"] == [-1001, 17, 4242]

        before = len(api.calls)
        again = Bot(api, db)
        await again.start()
        try:
            await again.delivered()
        finally:
            await again.shutdown()
        answer = next(m for m in api.messages(-1001) if m.text == "✅ Spiel 1")
        pinned = next(m for m in api.messages(-1003) if m.text == "📌 Stand")

        def after(session: Session) -> tuple[Any, ...]:
            link = message_links.find(session, -1001, 17)
            b = builders.get(session, builder_id)
            return (
                b.message_id if b else None,
                link.reply_message_id if link else None,
                chats.settings_of(session, -1001).pinned_standings,
                chats.settings_of(session, -1003).pinned_standings,
                outbox.count(session),
            )

        assert db.run_read(after) == (
            answer.message_id,
            answer.message_id,
            None,
            pinned.message_id,
            0,
        )
        assert pinned.pinned
        desk = [
            c.params.get("text", "") for c in api.calls[before:] if c.params.get("chat_id") == DESK
        ]
        assert any("Themen für die Tische darf ich hier nicht anlegen" in t for t in desk), desk


def test_a_stored_key_this_version_does_not_know_is_left_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A row stored by a version with a key this one lacks (a newer one, rolled back): the
    reply is read without it, as one stored with a closure, and the start goes on."""
    from skatbot.handlers import durable

    gone = ["tables.gone", [1]]
    payload = {
        "text": "✅ Spiel 1",
        "on_sent": gone,
        "edits": [
            {"message_id": 5, "text": None, "on_gone": None, "render": gone},
            {"message_id": 6, "text": "Stand", "on_gone": gone, "render": None},
        ],
        "topics": [{"chat_id": -1001, "name": "T", "on_created": gone, "on_refused": None}],
    }
    with caplog.at_level(logging.WARNING):
        reply, _, _ = durable.decode(json.dumps(payload), None)
    assert (reply.text, reply.on_sent, reply.topics) == ("✅ Spiel 1", None, ())
    assert [(e.message_id, e.text, e.on_gone) for e in reply.edits] == [(6, "Stand", None)]
    assert sum("tables.gone" in r.getMessage() for r in caplog.records) == 4  # one per call


def test_a_row_no_version_wrote_stops_no_upgrade(db: Database) -> None:
    """Whatever the outbox holds, the upgrade goes through (a row it cannot read is kept)."""

    def odd(session: Session) -> None:
        _add(session, -1001, {"text": "x", "on_sent": ["skatbot.usecases.reply:run_both", 5]})
        _add(session, -1001, {"text": "y", "edits": [{"message_id": 1, "render": [7]}]})

    db.run_write(odd)
    before = [row.payload for row in db.run_read(outbox.pending)]
    _migrate_keys(db)
    assert [row.payload for row in db.run_read(outbox.pending)] == [
        before[0],
        '{"text":"y","edits":[]}',
    ]
