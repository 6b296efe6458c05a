"""The Mini App's JSON API, served over a real socket, on the real bot and the strict stand-in."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import httpx
import pytest

from skatbot.handlers.app_auth import sign_init_data, sign_start, start_key
from skatbot.web.context import WebContext
from skatbot.web.server import build_web_app, serving
from tests.helpers import Bot, game_rows, ok, replies

CHAT = -1001
OTHER = -2002


def login(
    bot: Bot, user_id: int = 1, chat_id: int = CHAT, *, name: str = "Anna", **kw: object
) -> dict[str, str]:
    token = bot.app.bot.token
    start = sign_start(chat_id, 0, 0, start_key(token))
    when = kw.get("when", dt.datetime.now(dt.UTC))
    assert isinstance(when, dt.datetime)
    init = sign_init_data(token, user_id, name, when, start_param=start)
    return {"Authorization": f"tma {init}"}


@pytest.fixture
async def api(bot: Bot) -> AsyncIterator[httpx.AsyncClient]:
    async with (
        serving(build_web_app(WebContext(bot.app))) as url,
        httpx.AsyncClient(base_url=url) as client,
    ):
        yield client


async def new_list(bot: Bot, chat_id: int = CHAT) -> None:
    await ok(bot, "/neu Anna Bernd Carla", chat_id=chat_id)


async def test_list_as_a_paper_list(bot: Bot, api: httpx.AsyncClient) -> None:
    await new_list(bot)
    await ok(bot, "/spiel Bernd grand mit 1 hand gewonnen")
    await ok(bot, "/spiel Carla kreuz ohne 2 verloren")
    await ok(bot, "/storno 2 ja")
    answer = await api.get("/api/app/list", headers=login(bot))
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert got["ok"] and got["may_write"] and got["chat"]["title"]
    lst = got["list"]
    assert lst["players"] == ["Anna", "Bernd", "Carla"]
    first, second = lst["rows"][:2]
    assert (first["declarer"], first["value"], first["struck"]) == ("Bernd", 72, False)
    assert first["sums"]["Bernd"] == 72
    assert second["struck"] and second["sums"] == first["sums"]
    closing = {c["name"]: c for c in lst["closing"]}
    assert closing["Bernd"]["score"] == 72 + 50


async def test_forged_or_expired_is_401_and_writes_nothing(
    bot: Bot, api: httpx.AsyncClient
) -> None:
    await new_list(bot)
    before = game_rows(bot.db)
    good = login(bot)["Authorization"]
    forged = {"Authorization": good.replace("Anna", "Anne")}
    old = login(bot, when=dt.datetime.now(dt.UTC) - dt.timedelta(days=2))
    for headers in (forged, old, {}, {"Authorization": "Bearer x"}):
        for call in (
            api.get("/api/app/list", headers=headers),
            api.post(
                "/api/app/book",
                headers=headers,
                json={"text": "Anna grand mit 1 hand gewonnen", "key": "k" * 10},
            ),
        ):
            answer = await call
            assert answer.status_code == 401, answer.text
            assert answer.json()["ok"] is False and answer.json()["error"]
    assert game_rows(bot.db) == before


async def test_another_chat_is_403(bot: Bot, api: httpx.AsyncClient) -> None:
    await new_list(bot)
    await new_list(bot, OTHER)  # user 1 wrote there: a member of both
    # user 2 wrote only in OTHER: CHAT's list is not theirs
    await ok(bot, "/liste", chat_id=OTHER, user_id=2)
    stranger = login(bot, user_id=2)
    before = game_rows(bot.db)
    assert (await api.get("/api/app/list", headers=stranger)).status_code == 403
    answer = await api.post(
        "/api/app/book",
        headers=stranger,
        json={"text": "Anna grand mit 1 hand gewonnen", "key": "abcdefgh1"},
    )
    assert answer.status_code == 403
    assert game_rows(bot.db) == before
    # a member who left the group is refused too
    await ok(bot, "/liste", user_id=3)
    bot.api.remove_member(CHAT, 3)
    assert (await api.get("/api/app/list", headers=login(bot, user_id=3))).status_code == 403
    assert (await api.get("/api/app/list", headers=login(bot, chat_id=OTHER))).status_code == 200


async def test_a_forged_start_token_is_refused(bot: Bot, api: httpx.AsyncClient) -> None:
    await new_list(bot)
    token = bot.app.bot.token
    theirs = sign_start(OTHER, 0, 0, start_key(token))
    mine = sign_start(CHAT, 0, 0, start_key(token))
    forged = theirs[:12] + mine[12:]
    init = sign_init_data(token, 1, "Anna", dt.datetime.now(dt.UTC), start_param=forged)
    answer = await api.get("/api/app/list", headers={"Authorization": f"tma {init}"})
    assert answer.status_code == 400 and "Link" in answer.json()["error"]
    # the start token of ?start= serves when initData has none (a web_app button)
    bare = sign_init_data(token, 1, "Anna", dt.datetime.now(dt.UTC))
    answer = await api.get(f"/api/app/list?start={mine}", headers={"Authorization": f"tma {bare}"})
    assert answer.status_code == 200


async def test_preview_equals_spiel_and_writes_nothing(bot: Bot, api: httpx.AsyncClient) -> None:
    await new_list(bot)
    headers = login(bot)
    before = game_rows(bot.db)
    answer = await api.post(
        "/api/app/preview",
        headers=headers,
        json={"text": "Bernd pik ohne 3 hand schneider gewonnen"},
    )
    got = answer.json()
    assert answer.status_code == 200 and got["ok"], got
    assert game_rows(bot.db) == before
    text = await ok(bot, "/spiel Bernd pik ohne 3 hand schneider gewonnen")
    assert f"{got['value']}" in text
    listed = (await api.get("/api/app/list", headers=headers)).json()["list"]
    assert listed["rows"][-1]["value"] == got["value"]
    assert [c["score"] for c in listed["closing"]] == [c["score"] for c in got["closing"]]
    assert got["effect"]["Bernd"] == got["value"] + 50
    # a refusal with its fix, nothing written
    bad = (await api.post("/api/app/preview", headers=headers, json={"text": "Zora grand"})).json()
    assert bad["ok"] is False and bad["error"]
    assert (
        await api.post("/api/app/preview", headers=headers, json={"text": ""})
    ).status_code == 400
    big = {"text": "x" * 5000}
    assert (await api.post("/api/app/preview", headers=headers, json=big)).status_code == 413


async def test_book_is_announced_and_idempotent(bot: Bot, api: httpx.AsyncClient) -> None:
    await new_list(bot)
    headers = login(bot)
    before = len(bot.api.calls)
    body = {"text": "Bernd grand mit 1 hand gewonnen", "key": "booking-0001"}
    first = await api.post("/api/app/book", headers=headers, json=body)
    assert first.status_code == 200, first.text
    got = first.json()
    assert got["booked"] and got["nr"] == 1 and got["list"]["rows"][0]["value"] == 72
    await bot.delivered(CHAT)
    said = replies(bot.api.calls[before:], CHAT)
    assert len(said) == 1 and "Mini App" in said[0].text and "Spiel 1" in said[0].text
    again = (await api.post("/api/app/book", headers=headers, json=body)).json()
    assert again["ok"] and again["booked"] is False
    assert len(game_rows(bot.db)) == 1
    await bot.delivered(CHAT)
    assert len(replies(bot.api.calls[before:], CHAT)) == 1
    # a refused booking: 400 with the fix, nothing written or said
    bad = await api.post(
        "/api/app/book", headers=headers, json={"text": "Zora grand", "key": "booking-0002"}
    )
    assert bad.status_code == 400 and bad.json()["error"]
    assert len(game_rows(bot.db)) == 1
    no_key = await api.post("/api/app/book", headers=headers, json={"text": "Anna grand mit 1"})
    assert no_key.status_code == 400
    # counted once, like a /spiel: not the repeated key, not the refusals
    scraped = (await api.get("/metrics")).text
    assert "skatbot_bookings_total 1.0" in scraped.splitlines(), scraped


async def test_no_list_is_404_and_the_chart_is_a_png(bot: Bot, api: httpx.AsyncClient) -> None:
    await ok(bot, "/hilfe")
    headers = login(bot)
    assert (await api.get("/api/app/list", headers=headers)).status_code == 404
    await new_list(bot)
    await ok(bot, "/spiel Bernd grand mit 1 hand gewonnen")
    chart = await api.get("/api/app/chart.png", headers=headers)
    assert chart.status_code == 200 and chart.content.startswith(b"\x89PNG")
