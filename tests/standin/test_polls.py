"""Both stand-ins play native polls (sendPoll, stopPoll, the members' votes, a poll closing at
its time) and the other additions of Bot API 9.4-10.0 the bot is to use - button ``style``,
``date_time`` entities, ``allows_revoting`` and ``members_only`` - each with the behaviour of
a server that predates it (``api_version``): the field is ignored, as the server ignores what
it does not know. The console shows a poll with numbered options, votes with ``?N`` and
shows the result when the poll is stopped."""

from __future__ import annotations

import io
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from skatbot.standin.botapi import BotApi, parse_html
from skatbot.standin.console import _Console
from skatbot.standin.versions import API_9_4, API_9_5, API_9_6, API_10_0, API_10_3
from tests.standin.server import BotApiServer
from tests.standin.test_ephemeral import ANNA, BERND, GROUP, Clock, call, meet, refused
from tests.standin.test_ephemeral import client as client
from tests.standin.test_ephemeral import clock as clock
from tests.standin.test_ephemeral import stand_in as ephemeral_stand_in

QUESTION = "Spielabend Di 19:00?"
OPTIONS = [{"text": "Ja"}, {"text": "Nein"}]


def stand_in(kind: str, clock: Clock, version: tuple[int, int] = API_10_3) -> BotApiServer:
    return ephemeral_stand_in(kind, clock, version, rich_messages=False)


@pytest.fixture(params=["console", "strict"])
async def api(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[BotApiServer]:
    async with stand_in(request.param, clock) as server:
        meet(server)
        yield server


async def poll(
    client: httpx.AsyncClient, api: BotApiServer, **more: Any
) -> tuple[int, dict[str, Any]]:
    return await call(
        client,
        api,
        "sendPoll",
        chat_id=GROUP,
        question=QUESTION,
        options=OPTIONS,
        is_anonymous=False,
        **more,
    )


async def test_a_poll_its_votes_and_its_end(api: BotApiServer, client: httpx.AsyncClient) -> None:
    status, answer = await poll(client, api, allows_revoting=True)
    assert status == 200
    sent = answer["result"]["poll"]
    assert (sent["question"], sent["allows_revoting"], sent["members_only"]) == (
        QUESTION,
        True,
        False,
    )
    update_id = api.push_poll_answer(sent["id"], [0], user_id=ANNA, first_name="Anna")
    vote = next(u for u in api.pending_updates if u["update_id"] == update_id)["poll_answer"]
    assert (vote["user"]["id"], vote["option_ids"]) == (ANNA, [0])
    api.push_poll_answer(sent["id"], [1], user_id=BERND, first_name="Bernd")
    api.push_poll_answer(sent["id"], [0], user_id=BERND, first_name="Bernd")  # changed his mind
    status, stopped = await call(
        client, api, "stopPoll", chat_id=GROUP, message_id=answer["result"]["message_id"]
    )
    assert status == 200 and stopped["result"]["is_closed"] is True
    assert [o["voter_count"] for o in stopped["result"]["options"]] == [2, 0]
    with pytest.raises(RuntimeError, match="closed"):
        api.push_poll_answer(sent["id"], [1], user_id=ANNA)
    assert await refused(
        client, api, "stopPoll", chat_id=GROUP, message_id=answer["result"]["message_id"]
    ) == ("Bad Request: poll has already been closed")


async def test_no_second_vote_without_revoting(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    _, answer = await poll(client, api, allows_revoting=False)
    poll_id = answer["result"]["poll"]["id"]
    api.push_poll_answer(poll_id, [0], user_id=ANNA)
    with pytest.raises(RuntimeError, match="no change"):
        api.push_poll_answer(poll_id, [1], user_id=ANNA)


async def test_closes_at_its_time(
    api: BotApiServer, client: httpx.AsyncClient, clock: Clock
) -> None:
    _, answer = await poll(client, api, open_period=3600)
    poll_id = answer["result"]["poll"]["id"]
    clock.now += 3599
    assert api.close_due_polls() == []
    clock.now += 1
    assert api.close_due_polls() == [poll_id]
    closed = api.pending_updates[-1]["poll"]
    assert closed["id"] == poll_id and closed["is_closed"] is True


async def test_what_sendpoll_refuses(api: BotApiServer, client: httpx.AsyncClient) -> None:
    assert await refused(client, api, "sendPoll", chat_id=GROUP, question="", options=OPTIONS) == (
        "Bad Request: poll question must be non-empty"
    )
    assert await refused(
        client, api, "sendPoll", chat_id=GROUP, question="?", options=[{"text": "x"}] * 13
    ) == ("Bad Request: poll must have 1-12 options")
    assert await refused(
        client,
        api,
        "sendPoll",
        chat_id=GROUP,
        question="?",
        options=OPTIONS,
        open_period=60,
        close_date=int(time.time()) + 60,
    ) == ("Bad Request: can't use open_period together with close_date")
    assert await refused(
        client,
        api,
        "sendPoll",
        chat_id=GROUP,
        question="?",
        options=OPTIONS,
        open_period=2_628_001,
    ) == ("Bad Request: wrong open period specified")


async def test_members_only_is_for_channels(api: BotApiServer, client: httpx.AsyncClient) -> None:
    # "for channel chats only": in a group the stand-in ignores it (and says so)
    status, answer = await poll(client, api, members_only=True)
    assert status == 200 and answer["result"]["poll"]["members_only"] is False
    assert api.ignored_params == [("sendPoll", "members_only")]


@pytest.mark.parametrize(
    ("version", "revoting", "members", "fewest"),
    [(API_9_5, False, False, 2), (API_9_6, True, False, 2), (API_10_0, True, True, 1)],
)
async def test_older_servers_know_less(
    version: tuple[int, int],
    revoting: bool,
    members: bool,
    fewest: int,
    clock: Clock,
    client: httpx.AsyncClient,
) -> None:
    async with stand_in("strict", clock, version) as api:
        meet(api)
        _, answer = await poll(client, api, allows_revoting=False)
        sent = answer["result"]["poll"]
        assert ("allows_revoting" in sent) is revoting
        assert ("members_only" in sent) is members
        if not revoting:  # ignored: the server's default, which lets a vote be changed
            assert ("sendPoll", "allows_revoting") in api.ignored_params
        status, _ = await call(
            client, api, "sendPoll", chat_id=GROUP, question="?", options=[{"text": "Ja"}]
        )
        assert (status == 200) is (fewest == 1)


# -- button style, date_time entities --------------------------------------------------------------


@pytest.mark.parametrize("version", [(9, 3), API_9_4])
async def test_button_style_from_9_4(
    version: tuple[int, int], clock: Clock, client: httpx.AsyncClient
) -> None:
    button = {"text": "Löschen", "callback_data": "del", "style": "danger"}
    async with stand_in("strict", clock, version) as api:
        meet(api)
        markup = {"inline_keyboard": [[button]]}
        assert (
            await call(client, api, "sendMessage", chat_id=GROUP, text="?", reply_markup=markup)
        )[0] == 200
        stored = api.messages(GROUP)[-1].buttons[0][0]
        assert ("style" in stored) is (version >= API_9_4)
        wrong = {"inline_keyboard": [[{**button, "style": "red"}]]}
        status, _ = await call(
            client, api, "sendMessage", chat_id=GROUP, text="?", reply_markup=wrong
        )
        assert status == (400 if version >= API_9_4 else 200)


def test_date_time_entities_from_9_5() -> None:
    html = 'Spielabend <tg-time unix="1767726000" format="wDt">Di 6.1. 19:00</tg-time>'
    text, entities = parse_html(html)
    assert text == "Spielabend Di 6.1. 19:00"
    assert entities == [
        {
            "type": "date_time",
            "offset": 11,
            "length": 13,
            "unix_time": 1767726000,
            "date_time_format": "wDt",
        }
    ]
    with pytest.raises(ValueError, match='Unsupported start tag "tg-time"'):
        parse_html(html, API_9_4)
    with pytest.raises(ValueError, match="Invalid date-time format"):
        parse_html('<tg-time unix="1" format="x">jetzt</tg-time>')
    with pytest.raises(ValueError, match='attribute "unix"'):
        parse_html("<tg-time>jetzt</tg-time>")


async def test_a_date_time_through_sendmessage(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    status, answer = await call(
        client,
        api,
        "sendMessage",
        chat_id=GROUP,
        text='Am <tg-time unix="1767726000" format="r">Dienstag</tg-time>',
        parse_mode="HTML",
    )
    assert status == 200
    assert answer["result"]["entities"][0]["type"] == "date_time"


# -- the console ---------------------------------------------------------------------------------


async def test_the_console_shows_a_poll_and_votes(tmp_path: Path) -> None:
    api = BotApi()
    meet(api)
    out = io.StringIO()
    console = _Console(api, out, tmp_path)
    bot = f"/bot{api.token}"
    status, _body, _ = await api.answer(
        f"{bot}/sendPoll",
        {"chat_id": GROUP, "question": QUESTION, "options": OPTIONS, "is_anonymous": False},
        {},
    )
    assert status == 200
    console.flush_calls()
    assert console.push_line("Anna> ?1") is not None
    assert console.push_line("Bernd> ?2") is not None
    assert console.push_line("Bernd> ?7") is None
    message_id = api.messages(GROUP)[-1].message_id
    await api.answer(f"{bot}/stopPoll", {"chat_id": GROUP, "message_id": message_id}, {})
    console.flush_calls()
    printed = out.getvalue().splitlines()
    assert printed[:4] == [f"📊 {QUESTION}", "  (1) Ja", "  (2) Nein", "  (abstimmen: ?1, ?2 …)"]
    assert "(Anna stimmt ab: Ja)" in printed
    assert "⚠ Geht nicht: no such option" in printed
    assert printed[-1] == f"📊 Umfrage beendet: {QUESTION} – Ja 1, Nein 1"
