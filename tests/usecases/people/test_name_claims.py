"""/ich NAME: in an ordinary chat it links at once, as always; in the chat of a league's or
tournament's table it is a claim the table confirms (the tournament's side, with signatures:
tests/usecases/tournament/test_name_claims.py)."""

from __future__ import annotations

import re

from tests.harness import Harness
from tests.helpers import ok, refused

LEADER = {"user_id": 1, "name": "Gerd"}
TABLE = -4004
TEAMS = "/mannschaft Nord: Anna, Bernd, Carla\nSüd: Fritz, Gabi, Hans\nOst: Karl, Lena, Max"


async def test_an_ordinary_chat_links_at_once(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/ich Anna", "Du bist Anna ✓", user_id=5)
    await refused(chat, "/ich Anna", "schon mit", user_id=6)


async def test_at_a_league_table_the_leader_or_a_linked_player_confirms(chat: Harness) -> None:
    await ok(chat, "/liga Bezirksliga", **LEADER)
    await ok(chat, TEAMS, **LEADER)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    seating = await ok(chat, "/setzen", "Serie 1", **LEADER)
    code = re.search(r"Tisch 1 \(.*?/tisch (L\w{6})\): (.+)", seating)
    assert code is not None, seating
    await ok(chat, f"/tisch {code[1]}", chat_id=TABLE, **LEADER)
    first, second = [re.sub(r" \(\w+\)$", "", n) for n in code[2].split(", ")][:2]
    # a stranger's claim waits; he is no one here
    text = await ok(chat, f"/ich {first}", chat_id=TABLE, user_id=99, name="Mallory")
    assert "Stimmt das?" in text and "Ligaleitung" in text, text
    stranger_claim = chat.last(TABLE, with_buttons=True)
    assert "keinem Namen" in await chat.text("/ich", chat_id=TABLE, user_id=99)
    # the real player claims, the league's leader confirms
    await ok(chat, f"/ich {first}", "Stimmt das?", chat_id=TABLE, user_id=11, name=first)
    tapped = await chat.tap(chat.last(TABLE, with_buttons=True), "Ja, stimmt", user_id=1)
    assert tapped.notice == "Bestätigt.", tapped
    assert f"Du bist {first}" in await chat.text("/ich", chat_id=TABLE, user_id=11)
    # a linked player confirms the next; the stranger's claim is void
    await ok(chat, f"/ich {second}", "Stimmt das?", chat_id=TABLE, user_id=12, name=second)
    tapped = await chat.tap(chat.last(TABLE, with_buttons=True), "Ja, stimmt", user_id=11)
    assert tapped.notice == "Bestätigt.", tapped
    tapped = await chat.tap(stranger_claim, "Ja, stimmt", user_id=1)
    assert "erledigt" in tapped.notice, tapped
    assert "keinem Namen" in await chat.text("/ich", chat_id=TABLE, user_id=99)
