"""The inline calculator: ``@bot grand ohne 1 hand`` answered with answerInlineQuery.

Asserted on the recorded call's parameters (``api.calls`` records every call, also one the
stand-in does not implement)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from skatbot.storage.lists_models import Chat, ProcessedUpdate, Row
from skatbot.usecases.sheet.calculator import calculate
from tests.helpers import Bot
from tests.standin.fake_telegram import BOT_USERNAME


async def inline(bot: Bot, query: str, *, user_id: int = 3) -> dict[str, Any]:
    """Push an inline query; the parameters of the bot's answerInlineQuery call."""
    update_id = bot.api.push_inline_query(query, user_id=user_id)
    await bot.api.wait_confirmed(update_id, timeout=15)
    calls = [c for c in bot.api.calls if c.method == "answerInlineQuery"]
    assert calls, "no answerInlineQuery call"
    params = dict(calls[-1].params)
    if isinstance(params.get("results"), str):
        params["results"] = json.loads(params["results"])
    return params


def only_article(params: dict[str, Any]) -> dict[str, Any]:
    results = params["results"]
    assert isinstance(results, list) and len(results) == 1, results
    article = results[0]
    assert article["type"] == "article"
    assert 1 <= len(article["id"].encode()) <= 64
    assert 0 <= int(params.get("cache_time", 300)) <= 10
    return article


def stored(bot: Bot) -> tuple[int, int, int]:
    def read(session):  # type: ignore[no-untyped-def]
        return tuple(
            session.scalar(select(func.count()).select_from(t))
            for t in (ProcessedUpdate, Row, Chat)
        )

    return bot.db.run_read(read)


def count_transactions(bot: Bot, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Observe the bot's Database: one entry per read or write unit started."""
    started: list[str] = []
    for kind in ("read", "write"):
        real = getattr(bot.db, kind)

        async def unit(fn: Any, *a: Any, _real: Any = real, _kind: str = kind, **kw: Any) -> Any:
            started.append(_kind)
            return await _real(fn, *a, **kw)

        monkeypatch.setattr(bot.db, kind, unit)
    return started


async def test_the_value_and_the_wert_breakdown(bot: Bot, monkeypatch: pytest.MonkeyPatch) -> None:
    units = count_transactions(bot, monkeypatch)
    params = await inline(bot, "grand ohne 1 hand")
    assert units == []  # no database transaction at all
    article = only_article(params)
    assert article["title"] == "Grand ohne 1 Hand → 72"
    assert article["description"] == "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72"
    content = article["input_message_content"]
    assert content["parse_mode"] == "HTML"
    # the message is exactly what /wert answers: without a result, both bookings
    wert = await bot.say("/wert grand ohne 1 hand", chat_id=-1005)
    assert content["message_text"] == wert[0].html
    assert "Buchung gewonnen: +72 · verloren: −2 × 72 = −144" in wert[0].html
    assert units  # the observer sees the units of a command
    assert str(params["inline_query_id"]).startswith("iq")
    assert stored(bot) == (0, 0, 0)  # nothing stored (/wert stores nothing either)


async def test_a_lost_game_shows_the_booking(bot: Bot) -> None:
    article = only_article(await inline(bot, "Grand ohne1 Hand verloren"))
    assert article["title"] == "Grand ohne 1 Hand, verloren → −144"
    assert "Buchung: −2 × 72 = −144" in article["input_message_content"]["message_text"]
    article = only_article(await inline(bot, "wert kreuz mit 2 reiz 30 augen 50"))
    assert article["title"] == "Kreuz mit 2, verloren → −72"


@pytest.mark.parametrize(
    ("query", "title", "description"),
    [
        ("grnad ohne 1", "⚠️ Unbekanntes Wort „grnad“.", "Meintest du „grand“?"),
        ("null mit 2", "⚠️ Null hat keine Spitzen.", "Lass „mit/ohne N“ weg."),
        (
            "ohne 1 hand",
            "⚠️ Die Spielart fehlt.",
            "Karo, Herz, Pik, Kreuz, Grand oder Null angeben.",
        ),
    ],
)
async def test_refusals_are_one_article_with_the_hint(
    bot: Bot, query: str, title: str, description: str
) -> None:
    article = only_article(await inline(bot, query))
    assert article["title"] == title
    assert article["description"] == description
    text = article["input_message_content"]["message_text"]
    assert title in text and description in text
    assert f"@{BOT_USERNAME} grand ohne 1 hand" in text  # an example that works
    assert stored(bot) == (0, 0, 0)


async def test_an_empty_query_gets_the_usage(bot: Bot) -> None:
    article = only_article(await inline(bot, "   "))
    assert article["title"] == "🧮 Skat-Rechner: Spiel eingeben"
    assert "grand ohne 1 hand" in article["description"]
    assert f"@{BOT_USERNAME} grand ohne 1 hand" in article["input_message_content"]["message_text"]
    # the usage's example really works
    example = only_article(await inline(bot, "grand ohne 1 hand"))
    assert example["title"].endswith("→ 72")


async def test_a_failing_answer_changes_nothing_and_the_bot_goes_on(bot: Bot) -> None:
    # (until the stand-in implements answerInlineQuery, every answer fails with 404 anyway)
    bot.api.fail_next("answerInlineQuery", status=400, description="Bad Request: query is too old")
    await inline(bot, "grand ohne 1 hand")
    errors = [c for c in bot.api.calls if c.method == "sendMessage"]
    assert errors == []  # no error notice anywhere
    assert "Neue Liste" in await bot.text("/neu Anna Bernd Carla")


def test_calculate_is_pure_and_complete() -> None:
    assert calculate("null ouvert hand").title == "Null ouvert Hand → 59"
    assert calculate("pik mit 1 schneider").title == "Pik mit 1 Schneider → 33"
    calc = calculate("kontra grand mit 1")  # house rules only, as /wert
    assert calc.title == "⚠️ Kontra und Re gibt es nur mit Hausregeln."
    too_long = calculate("grand " * 60)
    assert too_long.title.startswith("⚠️")
    assert calculate("").title == calculate("/wert").title == "🧮 Skat-Rechner: Spiel eingeben"
