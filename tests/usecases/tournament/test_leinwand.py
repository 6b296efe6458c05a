"""``/leinwand``: the hall's read-only link of a tournament, revoked by ``/leinwand aus``,
ended by the tournament; and what its page shows (``live_page.board``). The page itself, over
a real socket and in a browser: tests/web/test_live_page.py."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from skatbot.usecases.tournament import live_page
from tests.harness import Harness
from tests.usecases.tournament.test_tournament_chat import (
    ORGANISER,
    draw,
    results_message,
    setup_tournament,
)

URL = "https://skat.example.org"
LINK = re.compile(re.escape(URL) + r"/leinwand/([A-Za-z0-9_-]+)")
NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav"]  # a 4- and a 3-table
MEMBER = {"user_id": 5, "name": "Mia"}


async def link(chat: Harness) -> str:
    """The token of the link /leinwand gives the organiser."""
    reply = await chat.text("/leinwand", **ORGANISER)
    found = LINK.search(reply)
    assert found, reply
    return found.group(1)


async def board(chat: Harness, token: str, now: dt.datetime | None = None) -> Any:
    return await chat.db.read(lambda s: live_page.board(s, token, now))


async def test_the_link_stays_until_revoked_and_shows_names_and_points(chat: Harness) -> None:
    chat.public_url = URL
    await setup_tournament(chat, names=NAMES)
    token = await link(chat)
    assert len(token) >= 22  # token_urlsafe(16): 128 random bits
    assert await link(chat) == token  # asking again: the same link

    shown = await board(chat, token)
    assert shown["name"] == "Preisskat Vereinsheim" and not shown["over"]
    assert shown["series"] == [] and shown["ranking"] == [] and shown["tables"] == []

    tables = await draw(chat)
    four = next(t for t in tables if len(t) == 4)
    rows = {n: (100 + 10 * i, 2, i % 2) for i, n in enumerate(four)}
    assert "Es fehlen noch" in await chat.text(results_message(rows), **ORGANISER)
    shown = await board(chat, token)
    assert shown["series"] == [{"number": 1, "tables": 2, "reported": 1}]
    states = {t["table"]: (t["state"], t["played"], t["games"]) for t in shown["tables"]}
    assert sorted(states.values()) == [("reported", 48, 48), ("waiting", 0, 36)]
    ranking = shown["ranking"]
    assert sorted(r["name"] for r in ranking) == sorted(four)  # the reported table counts
    assert [r["place"] for r in ranking] == [1, 2, 3, 4]
    assert [r["points"] for r in ranking] == sorted((r["points"] for r in ranking), reverse=True)
    # names and points only, as on the wall: no ids, no games, no money
    assert {key for r in shown["ranking"] for key in r} == {"place", "name", "points"}
    assert "user" not in str(shown) and "chat" not in str(shown)

    reply = await chat.text("/leinwand aus", **ORGANISER)
    assert "gesperrt" in reply
    assert await board(chat, token) is None
    assert "keinen gültigen" in await chat.text("/leinwand aus", **ORGANISER)
    fresh = await link(chat)
    assert fresh != token and await board(chat, fresh) is not None


async def test_without_a_public_address_the_admin_is_told_how_to_set_it(chat: Harness) -> None:
    await setup_tournament(chat, names=NAMES)
    reply = await chat.text("/leinwand", **ORGANISER)
    assert "SKATBOT_PUBLIC_URL=" in reply and "/leinwand" in reply
    assert "leinwand/" not in reply


async def test_only_the_management_makes_or_revokes_the_link(chat: Harness) -> None:
    chat.public_url = URL
    await setup_tournament(chat, names=NAMES)
    for message in ("/leinwand", "/leinwand aus"):
        out = await chat.say(message, **MEMBER)
        assert out and all(r.refusal for r in out), message
        assert "verwalten Olga" in out[0].text
    assert LINK.search(await chat.text("/leinwand", **ORGANISER))


async def test_bad_words_get_the_usage(chat: Harness) -> None:
    chat.public_url = URL
    await setup_tournament(chat, names=NAMES)
    out = await chat.say("/leinwand an", **ORGANISER)
    assert out[0].refusal and "/leinwand aus" in out[0].text


async def test_the_link_ends_with_the_tournament(chat: Harness) -> None:
    chat.public_url = URL
    await setup_tournament(chat, names=NAMES)
    token = await link(chat)
    tables = await draw(chat)
    rows = {n: (50 * (i + 1), 1, 0) for i, n in enumerate([n for t in tables for n in t])}
    await chat.text(results_message(rows), **ORGANISER)
    await chat.text("/turnier ende", **ORGANISER)
    await chat.text("/turnier ende ja", **ORGANISER)

    # the hall sees the final ranking (as /rangliste) under "Turnier beendet" ...
    shown = await board(chat, token)
    assert shown["over"] and shown["final"] and shown["tables"] == []
    assert shown["ranking"][0] == {
        "place": 1,
        "name": [n for t in tables for n in t][-1],
        "points": 400,
    }
    # ... for a day, then the link is gone
    later = dt.datetime.now(dt.UTC) + live_page.SHOWN_AFTER_END + dt.timedelta(minutes=1)
    assert await board(chat, token, later) is None
    # an ended tournament gives no new link
    out = await chat.say("/leinwand", **ORGANISER)
    assert out[0].refusal and "beendet" in out[0].text
    # the next tournament at the desk has a link of its own
    await chat.text("/turnier Sommerskat", **ORGANISER)
    assert await link(chat) != token


async def test_deleting_the_tournament_takes_its_link(chat: Harness) -> None:
    chat.public_url = URL
    await setup_tournament(chat, names=NAMES)
    token = await link(chat)
    await chat.text("/loeschen turnier", **ORGANISER)
    assert "Gelöscht" in await chat.text("/loeschen turnier ja", **ORGANISER)
    assert await board(chat, token) is None
