"""Health, readiness and metrics of the web application, over a real socket.

The metrics are compared with what really happened: the updates the stand-in delivered, the
calls it received (and how it answered them), the documents it got; readiness with a
database that really goes away and comes back.
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text, update
from telegram.error import InvalidToken, TimedOut

from skatbot.app import build_application
from skatbot.storage import outbox
from skatbot.storage.database import Database
from skatbot.web.context import WebContext
from skatbot.web.server import build_web_app, serving
from tests.helpers import Bot, connected_to, ok, refused
from tests.standin.fake_telegram import FakeBotApi

CHAT = -1001
GAMES = [
    "/spiel Anna grand mit 1 gewonnen",
    "/spiel Bernd kreuz mit 1 gewonnen",
    "/spiel Carla null verloren",
    "/spiel Anna herz ohne 2 gewonnen",
]


def samples(exposition: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text exposition: (name, sorted labels) -> value."""
    out = {}
    for family in text_string_to_metric_families(exposition):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def by_label(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str) -> dict:
    return {dict(labels).popitem()[1]: v for (n, labels), v in found.items() if n == name and v}


async def test_the_metrics_of_an_evening_match_what_happened(bot: Bot) -> None:
    api = bot.api
    asgi = build_web_app(WebContext(bot.app))
    async with serving(asgi) as url, httpx.AsyncClient() as client:
        updates = 0
        await ok(bot, "/neu Anna Bernd Carla")
        updates += 1
        for game in GAMES:
            await ok(bot, game)
            updates += 1
        await refused(bot, "/spiel Xaver grand mit 1 gewonnen")  # no such player: no booking
        updates += 1
        # Telegram's flood control once: the reply waits and goes out after it.
        api.fail_next("sendMessage", status=429, retry_after=1)
        await ok(bot, "/stand", "Anna")
        updates += 1
        exported = await bot.say("/export")
        updates += 1
        assert [r.document for r in exported if r.document], exported
        assert "skatbot_" in (await client.get(url + "/metrics")).text  # served while running

        await bot.shutdown()  # every call answered and counted: the counts are final
        answer = await client.get(url + "/metrics")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain; version=")
        found = samples(answer.text)

    assert by_label(found, "skatbot_updates_total") == {"message": updates}
    assert found[("skatbot_update_handling_seconds_count", ())] == updates
    assert by_label(found, "skatbot_commands_total") == {
        "neu": 1,
        "spiel": len(GAMES) + 1,
        "stand": 1,
        "export": 1,
    }
    assert found[("skatbot_bookings_total", ())] == len(GAMES)

    calls = [c for c in api.calls if c.status]
    assert found[("skatbot_telegram_calls_total", ())] == len(calls)
    errors = collections.Counter(str(c.status) for c in calls if c.status != 200)
    assert errors["429"] == 1
    assert by_label(found, "skatbot_telegram_errors_total") == dict(errors)
    assert found[("skatbot_flood_waits_total", ())] == 1
    assert found[("skatbot_flood_wait_seconds_total", ())] == 1
    documents = collections.Counter(
        next(iter(c.files.values()))[0].rsplit(".", 1)[-1]
        for c in calls
        if c.method in ("sendDocument", "sendPhoto") and c.status == 200
    )
    assert documents and by_label(found, "skatbot_documents_total") == dict(documents)
    assert found[("skatbot_outbox_depth", ())] == 0
    assert found[("skatbot_outbox_oldest_age_seconds", ())] == 0
    assert found[("skatbot_database_up", ())] == 1
    assert found[("skatbot_telegram_up", ())] == 1
    # Bounded labels only: no chat id, no user, no text anywhere in the exposition.
    labels = {k for (_n, ls) in found for k, _v in ls}
    assert labels <= {"kind", "command", "code", "type", "le"}, labels
    assert str(CHAT) not in answer.text and "Anna" not in answer.text


async def test_two_applications_count_apart(bot: Bot, db: Database) -> None:
    async with FakeBotApi() as api:
        other = build_application(api.token, db, **connected_to(api))
        await ok(bot, "/neu Anna Bernd Carla")
        async with serving(build_web_app(WebContext(other))) as url, httpx.AsyncClient() as c:
            found = samples((await c.get(url + "/metrics")).text)
        assert by_label(found, "skatbot_commands_total") == {}
        assert by_label(_scrape(bot), "skatbot_commands_total") == {"neu": 1}


def _scrape(bot: Bot) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return _scrape_app(bot.app)


def _scrape_app(app: object) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    from prometheus_client import generate_latest

    return samples(generate_latest(app.bot_data.metrics.registry).decode())  # type: ignore[attr-defined]


# -- readiness ---------------------------------------------------------------------------------


@contextlib.contextmanager
def database_away(db: Database) -> Iterator[None]:
    """The bot's database gone for a while: a SQLite file moved away, a PostgreSQL database
    renamed (its connections ended first, as a server restart would)."""
    url = db.url
    if url.get_backend_name() == "sqlite":
        path = Path(str(url.database))
        away = path.with_name(path.name + ".away")
        path.rename(away)
        try:
            yield
        finally:
            away.rename(path)
        return
    name = str(url.database)
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            rename(conn, name, name + "_away")
        try:
            yield
        finally:
            with admin.connect() as conn:
                rename(conn, name + "_away", name)
    finally:
        admin.dispose()


def rename(conn, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(50):  # a pool may connect again between the two statements
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = :db AND pid <> pg_backend_pid()"
            ),
            {"db": old},
        )
        try:
            conn.execute(text(f'ALTER DATABASE "{old}" RENAME TO "{new}"'))
            return
        except Exception as err:
            if "being accessed by other users" not in str(err):
                raise
    raise AssertionError(f"could not rename {old}")


async def test_readiness_follows_the_database(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    async with serving(build_web_app(WebContext(bot.app))) as url, httpx.AsyncClient() as client:
        ready = await client.get(url + "/readyz")
        assert (ready.status_code, ready.text) == (200, "ready\n")
        with database_away(bot.db):
            away = await client.get(url + "/readyz")
            assert away.status_code == 503
            assert away.text.startswith("database: the database cannot be reached"), away.text
            as_json = await client.get(url + "/readyz", headers={"Accept": "application/json"})
            assert as_json.status_code == 503
            assert as_json.json()["ready"] is False
            assert as_json.json()["problems"][0].startswith("database:")
            assert (await client.get(url + "/healthz")).status_code == 200  # alive all along
            found = samples((await client.get(url + "/metrics")).text)
            assert found[("skatbot_database_up", ())] == 0
        back = await client.get(url + "/readyz")
        assert (back.status_code, back.text) == (200, "ready\n")
        assert samples((await client.get(url + "/metrics")).text)[("skatbot_database_up", ())] == 1
    await ok(bot, "/spiel Anna grand mit 1 gewonnen")  # and the bot books again


async def test_an_outbox_that_does_not_drain_is_unready(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKATBOT_READY_OUTBOX_AGE", "120")
    async with FakeBotApi() as api:
        app = build_application(api.token, db, **connected_to(api))  # not started: no delivery

        def stuck(session):  # type: ignore[no-untyped-def]
            row = outbox.add(
                session,
                chat_id=CHAT,
                thread_id=None,
                update_id=None,
                kind="reply",
                payload="{}",
                blob=None,
            )
            old = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=600)
            session.execute(
                update(outbox.OutboxRow).where(outbox.OutboxRow.id == row).values(created_at=old)
            )
            return row

        async with serving(build_web_app(WebContext(app))) as url, httpx.AsyncClient() as client:
            assert (await client.get(url + "/readyz")).status_code == 200
            row = await db.write(stuck)
            answer = await client.get(url + "/readyz", headers={"Accept": "application/json"})
            assert answer.status_code == 503
            body = answer.json()
            assert body["outbox_depth"] == 1 and body["outbox_oldest_age_seconds"] >= 600
            assert body["problems"] == [
                "outbox: the oldest of 1 replies waits 600 s (more than 120 s)"
            ]
            found = samples((await client.get(url + "/metrics")).text)
            assert found[("skatbot_outbox_depth", ())] == 1
            assert found[("skatbot_outbox_oldest_age_seconds", ())] >= 600
            await db.write(lambda s: outbox.done(s, row))
            assert (await client.get(url + "/readyz")).status_code == 200


async def test_readiness_follows_telegrams_last_answer(db: Database) -> None:
    async with FakeBotApi() as api:
        app = build_application(api.token, db, request_timeout=0.5, **connected_to(api))
        await app.bot.initialize()
        try:
            async with (
                serving(build_web_app(WebContext(app))) as url,
                httpx.AsyncClient() as client,
            ):
                api.fail_next("getMe", status=401, description="Unauthorized")
                with pytest.raises(InvalidToken):
                    await app.bot.get_me()
                answer = await client.get(url + "/readyz")
                assert answer.status_code == 503
                assert answer.text == "telegram: the last Bot API call failed (401)\n"
                # A refusal about one chat is an answer: Telegram is there.
                api.fail_next("sendMessage", status=403, description="Forbidden: bot was kicked")
                with contextlib.suppress(Exception):
                    await app.bot.send_message(CHAT, "x")
                assert (await client.get(url + "/readyz")).status_code == 200
                api.fail_next("getMe", status=502)
                with contextlib.suppress(Exception):
                    await app.bot.get_me()
                assert (await client.get(url + "/readyz")).text.startswith("telegram:")
                await app.bot.get_me()
                assert (await client.get(url + "/readyz")).status_code == 200
                api.fail_next("getMe", status=200, delay=2.0)  # answered after we gave up
                with pytest.raises(TimedOut):
                    await app.bot.get_me()
                answer = await client.get(url + "/readyz")
                assert answer.text == "telegram: the last Bot API call failed (timeout)\n"
                errors = by_label(_scrape_app(app), "skatbot_telegram_errors_total")
                assert errors == {"401": 1, "403": 1, "502": 1, "timeout": 1}
        finally:
            await app.bot.shutdown()


def test_the_outbox_bound_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from skatbot.web.health import DEFAULT_OUTBOX_AGE, outbox_age_from_env

    for raw, expected in (("", DEFAULT_OUTBOX_AGE), ("60", 60.0), ("x", 300.0), ("-1", 300.0)):
        monkeypatch.setenv("SKATBOT_READY_OUTBOX_AGE", raw)
        assert outbox_age_from_env() == expected


def test_the_documented_metrics_and_alerts_name_real_metrics(db: Database) -> None:
    from prometheus_client import generate_latest

    app = build_application("1:X", db, base_url="http://127.0.0.1:9")
    exposition = generate_latest(app.bot_data.metrics.registry).decode()
    root = Path(__file__).resolve().parents[2]
    rules = (root / "contrib" / "prometheus-rules.yml").read_text()
    operations = (root / "docs" / "operations.md").read_text()
    documented = operations.split("## Health and metrics", 1)[1].split("\n## ", 1)[0]
    names = set(re.findall(r"\bskatbot_[a-z_]+", rules + documented))
    assert len(names) >= 12, names
    for name in names:
        family = re.sub(r"_(bucket|count|sum)$", "", name)
        assert f"# HELP {family} " in exposition, name
    # and every metric the bot has is documented
    for family in re.findall(r"^# HELP (skatbot_[a-z_]+) ", exposition, re.M):
        if family.endswith("_created"):
            continue  # prometheus_client's start time of each counter
        assert f"`{family}`" in documented, family
