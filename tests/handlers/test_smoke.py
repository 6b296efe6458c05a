from __future__ import annotations

import json

from tests.helpers import Bot


async def test_first_game_books_72_and_122(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    reply = await bot.text("/spiel Anna grand ohne 1 hand gewonnen")
    assert "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72" in reply
    assert "Seeger-Fabian +122" in reply
    assert "Spiel 2/36 · Geber Bernd · Vorhand Carla" in reply
    stand = await bot.text("/stand")
    assert "Anna 122" in stand
    assert "72 + 50 × (1 − 0) + 40 × 0 = 122" in stand


async def test_export_is_a_json_document(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel an grand ohne 1 hand g")
    out = await bot.say("/export")
    docs = [r.document for r in out if r.document]
    assert docs and docs[0][0] == "skatbot-liste-v1.json"
    data = json.loads(docs[0][1])
    assert data["format"] == "skatbot-liste/1"
    expected = {
        "nr": 1,
        "dealer": "Anna",
        "declarer": "Anna",
        "announcement": "Grand ohne 1 Hand",
        "bid": None,
        "value": 72,
        "won": True,
        "overbid": False,
        "status": "valid",
        "points": {"Anna": 72},
    }
    assert {k: data["games"][0][k] for k in expected} == expected
    assert data["totals"]["Anna"] == {
        "game_points": 72,
        "won": 1,
        "lost": 0,
        "opponents_lost": 0,
        "score": 122,
    }


async def test_command_menu_is_registered_at_start(bot: Bot) -> None:
    await bot.say("/hilfe")
    calls = bot.api.sent("setMyCommands")
    assert len(calls) == 2  # group chats and private chats
    names = {c["command"] for c in calls[0].params["commands"]}
    assert {"spiel", "neu", "stand", "abschluss", "vordruck"} <= names


async def test_help_topics(bot: Bot) -> None:
    assert "schneider angesagt" in await bot.text("/hilfe spiel")
    assert "3B3R" in await bot.text("/hilfe haus")
    assert "/auslosen" in await bot.text("/hilfe turnier")
    assert "SHA-256" in await bot.text("/hilfe auslosung")
    assert "/neu Anna Bernd Carla" in await bot.text("/hilfe")
