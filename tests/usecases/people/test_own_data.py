"""A person's own data: /ich daten (in the private chat with the bot) sends what is stored
under their account; /ich vergessen removes their account links and account names
everywhere, while the names written in the lists stay (the table's record). On the use cases
(the ``chat`` harness): a positive chat id is the private chat with the bot."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import func, select

from skatbot.storage.lists_models import Row
from skatbot.storage.people import PersonRow
from tests.harness import Harness
from tests.helpers import PG_URL, Reply, ok

ME, OTHER = 3, 4
ACCOUNT = "Kunigundewitz"
GROUP_A, GROUP_B = -1001, -2002


async def private(chat: Harness, text: str) -> list[Reply]:
    return await chat.say(text, chat_id=ME, user_id=ME, name=ACCOUNT)


async def setup(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla", chat_id=GROUP_A, user_id=ME, name=ACCOUNT)
    await ok(chat, "/ich Anna", chat_id=GROUP_A, user_id=ME, name=ACCOUNT)
    await ok(
        chat, "/spiel Anna grand ohne 1 hand gewonnen", chat_id=GROUP_A, user_id=ME, name=ACCOUNT
    )
    await ok(chat, "/neu Dora Emil Fritz", chat_id=GROUP_B, user_id=OTHER, name="Otto")
    await ok(chat, "/ich Dora", chat_id=GROUP_B, user_id=ME, name=ACCOUNT)


def stored(chat: Harness) -> tuple[int, int, int]:
    def read(s):  # type: ignore[no-untyped-def]
        return (
            s.scalar(select(func.count()).where(PersonRow.user_id == ME)),
            s.scalar(select(func.count()).where(Row.user_id == ME)),
            s.scalar(select(func.count()).where(Row.user_name == ACCOUNT)),
        )

    return chat.db.run_read(read)  # type: ignore[no-any-return]


async def test_own_data_in_a_group_points_to_the_private_chat(chat: Harness) -> None:
    await setup(chat)
    text = await ok(chat, "/ich daten", "privat", "/ich daten", chat_id=GROUP_A, user_id=ME)
    assert "t.me/" in text
    sent = [m for m in chat.messages.values() if m.document]
    assert not sent  # nothing about the person in the group


async def test_own_data_in_private_lists_everything_and_forgetting_removes_it(
    chat: Harness,
) -> None:
    await setup(chat)
    out = await private(chat, "/ich daten")
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

    assert stored(chat)[0] == 2 and stored(chat)[1] >= 1
    out = await private(chat, "/ich vergessen")
    text = "\n".join(r.text for r in out)
    assert not any(r.refusal for r in out), text
    assert "/umbenennen" in text and "Admins" in text, text
    assert stored(chat) == (0, 0, 0)
    # the link is gone in both groups; the names on the lists stay
    for group in (GROUP_A, GROUP_B):
        assert "keinem Namen verknüpft" in await ok(chat, "/ich", chat_id=group, user_id=ME)
    assert "Anna" in await ok(chat, "/stand", chat_id=GROUP_A)
    again = await private(chat, "/ich daten")
    data = json.loads(next(r.document for r in again if r.document)[1])  # type: ignore[index]
    assert data["linked_names"] == [] and data["rows_entered"] == []
    if not PG_URL:  # and the account name is gone from the database files too
        path = Path(str(chat.db.url.database))
        files = [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]
        assert sum(p.read_bytes().count(ACCOUNT.encode()) for p in files) == 0


async def test_anonymous_senders_have_no_own_data(chat: Harness) -> None:
    await setup(chat)
    out = await chat.say("/ich vergessen", chat_id=GROUP_A, sender_chat=(GROUP_A, "Skatrunde"))
    assert any(r.refusal for r in out) and "👉" in out[0].text
    assert stored(chat)[0] == 2


async def test_forgetting_one_row_says_one_row(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla", chat_id=GROUP_A, user_id=OTHER, name="Otto")
    await ok(
        chat, "/spiel Anna grand ohne 1 hand gewonnen", chat_id=GROUP_A, user_id=ME, name=ACCOUNT
    )
    assert stored(chat)[1] == 1
    text = "\n".join(r.text for r in await private(chat, "/ich vergessen"))
    assert "dein Telegram-Name an 1 Zeile, 0 Unterschriften" in text, text
