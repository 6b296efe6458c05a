"""A person's own data: /ich daten (in the private chat with the bot) sends what is stored
under their account; /ich vergessen removes their account links and account names
everywhere, while the names written in the lists stay (the table's record)."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import func, select

from skatbot.storage.lists_models import Row
from skatbot.storage.people import PersonRow
from tests.helpers import PG_URL, Bot, Reply, ok, replies

ME, OTHER = 3, 4
ACCOUNT = "Kunigundewitz"
GROUP_A, GROUP_B = -1001, -2002


async def private(bot: Bot, text: str) -> list[Reply]:
    before = len(bot.api.calls)
    update_id = bot.api.push_message(
        text, chat_id=ME, user_id=ME, first_name=ACCOUNT, chat_type="private"
    )
    await bot.api.wait_confirmed(update_id, timeout=15)
    return replies(bot.api.calls[before:], ME, bot.refusals)


async def setup(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla", chat_id=GROUP_A, user_id=ME, name=ACCOUNT)
    await ok(bot, "/ich Anna", chat_id=GROUP_A, user_id=ME, name=ACCOUNT)
    await ok(
        bot, "/spiel Anna grand ohne 1 hand gewonnen", chat_id=GROUP_A, user_id=ME, name=ACCOUNT
    )
    await ok(bot, "/neu Dora Emil Fritz", chat_id=GROUP_B, user_id=OTHER, name="Otto")
    await ok(bot, "/ich Dora", chat_id=GROUP_B, user_id=ME, name=ACCOUNT)


def stored(bot: Bot) -> tuple[int, int, int]:
    def read(s):  # type: ignore[no-untyped-def]
        return (
            s.scalar(select(func.count()).where(PersonRow.user_id == ME)),
            s.scalar(select(func.count()).where(Row.user_id == ME)),
            s.scalar(select(func.count()).where(Row.user_name == ACCOUNT)),
        )

    return bot.db.run_read(read)  # type: ignore[no-any-return]


async def test_own_data_in_a_group_points_to_the_private_chat(bot: Bot) -> None:
    await setup(bot)
    text = await ok(bot, "/ich daten", "privat", "/ich daten", chat_id=GROUP_A, user_id=ME)
    assert "t.me/" in text
    sent = [c for c in bot.api.calls if c.method == "sendDocument"]
    assert not sent  # nothing about the person in the group


async def test_own_data_in_private_lists_everything_and_forgetting_removes_it(bot: Bot) -> None:
    await setup(bot)
    out = await private(bot, "/ich daten")
    docs = [r.document for r in out if r.document]
    assert docs and docs[0][0] == "skatbot-meine-daten.json", out
    data = json.loads(docs[0][1])
    assert data["account"] == ME
    assert sorted(x["name"] for x in data["linked_names"]) == ["Anna", "Dora"]
    assert {x["account_name"] for x in data["linked_names"]} == {ACCOUNT}
    assert sum(r["rows"] for r in data["rows_entered"]) >= 1
    assert data["lists_created"] == 1
    summary = "\n".join(r.text for r in out)
    assert "Anna, Dora" in summary and "/ich vergessen" in summary

    assert stored(bot)[0] == 2 and stored(bot)[1] >= 1
    out = await private(bot, "/ich vergessen")
    text = "\n".join(r.text for r in out)
    assert not any(r.refusal for r in out), text
    assert "/umbenennen" in text and "Admins" in text, text
    assert stored(bot) == (0, 0, 0)
    # the link is gone in both groups; the names on the lists stay
    for chat in (GROUP_A, GROUP_B):
        assert "keinem Namen verknüpft" in await ok(bot, "/ich", chat_id=chat, user_id=ME)
    assert "Anna" in await ok(bot, "/stand", chat_id=GROUP_A)
    again = await private(bot, "/ich daten")
    data = json.loads(next(r.document for r in again if r.document)[1])  # type: ignore[index]
    assert data["linked_names"] == [] and data["rows_entered"] == []
    if not PG_URL:  # and the account name is gone from the database files too
        path = Path(str(bot.db.url.database))
        files = [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]
        assert sum(p.read_bytes().count(ACCOUNT.encode()) for p in files) == 0


async def test_anonymous_senders_have_no_own_data(bot: Bot) -> None:
    await setup(bot)
    before = len(bot.api.calls)
    update_id = bot.api.push_message(
        "/ich vergessen",
        chat_id=GROUP_A,
        chat_type="supergroup",
        sender_chat={"id": GROUP_A, "type": "supergroup", "title": "Skatrunde"},
    )
    await bot.api.wait_confirmed(update_id, timeout=15)
    out = replies(bot.api.calls[before:], GROUP_A, bot.refusals)
    assert any(r.refusal for r in out) and "👉" in out[0].text
    assert stored(bot)[0] == 2


async def test_forgetting_one_row_says_one_row(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla", chat_id=GROUP_A, user_id=OTHER, name="Otto")
    await ok(
        bot, "/spiel Anna grand ohne 1 hand gewonnen", chat_id=GROUP_A, user_id=ME, name=ACCOUNT
    )
    assert stored(bot)[1] == 1
    text = "\n".join(r.text for r in await private(bot, "/ich vergessen"))
    assert "dein Telegram-Name an 1 Zeile, 0 Unterschriften" in text, text
