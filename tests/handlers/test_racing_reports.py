"""The last two tables of a series report at the same moment (their last signatures in two
chats, handled concurrently on PostgreSQL): the desk gets "Serie komplett" and the next-draw
button exactly once. Without the lock on the series each report saw only its own result and
neither said the series was complete."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from skatbot.storage import tournament as trepo
from skatbot.usecases.tournament import tables as tournament_tables
from tests.handlers.test_table_lists import (
    ELSEWHERE,
    MANAGER,
    OTHER,
    PLAIN,
    PLAYERS,
    SIGN_LABEL,
    USER,
    data_of,
    ok,
    opening_players,
    play_at,
    sign_message,
    tap,
)
from tests.helpers import PG_URL, Bot

pytestmark = pytest.mark.skipif(not PG_URL, reason="concurrent transactions need PostgreSQL")

SIX = PLAYERS[:6]  # two Dreiertische


async def test_two_last_reports_at_once_complete_the_series_once(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ok(bot, "/turnier Vereinsmeisterschaft", PLAIN)
    await ok(bot, "/teilnehmer " + ", ".join(SIX), PLAIN)
    await ok(bot, "/serienlaenge 3 4", PLAIN)
    draw = await ok(bot, "/auslosen 7", PLAIN)
    codes = dict(__import__("re").findall(r"Tisch (\d) → /tisch (\w+)", draw))
    await ok(bot, f"/tisch {codes['1']}", ELSEWHERE)
    await ok(bot, f"/tisch {codes['2']}", OTHER)
    tables = {ELSEWHERE: opening_players(bot, ELSEWHERE), OTHER: opening_players(bot, OTHER)}
    for chat, players in tables.items():
        for name in players:  # a signature counts from the account linked to the name
            await ok(bot, f"/ich {name}", PLAIN, user_id=USER[name])  # at the desk
        await play_at(bot, chat, players)
        for seat, name in enumerate(players[:-1]):
            msg = sign_message(bot, chat, None)
            await tap(bot, msg, f"{data_of(msg, SIGN_LABEL)}:{seat}", USER[name])
    await bot.delivered()

    # Both reports read the series' results at the same time (each waits a moment after
    # reading, so the two transactions overlap whatever the scheduling).
    real = trepo.load_series
    readers: list[float] = []

    def slow_load(session: Any, t: Any) -> Any:
        loaded = real(session, t)
        readers.append(time.monotonic())
        time.sleep(0.4)
        return loaded

    monkeypatch.setattr(trepo, "load_series", slow_load)
    uids = []
    for chat, players in tables.items():
        msg = sign_message(bot, chat, None)
        uids.append(
            bot.api.push_callback(
                f"{data_of(msg, SIGN_LABEL)}:{len(players) - 1}",
                message_id=msg.message_id,
                chat_id=chat,
                user_id=USER[players[-1]],
            )
        )
    for uid in uids:
        await bot.api.wait_confirmed(uid, timeout=30)
    await bot.delivered()
    assert len(readers) >= 2

    desk = bot.api.messages(PLAIN)
    reported = [m for m in desk if "gemeldet – unterschrieben" in (m.text or "")]
    assert len(reported) == 2
    complete = [m for m in desk if "Serie 1 komplett" in (m.text or "")]
    assert len(complete) == 1, [m.text for m in desk[-4:]]
    draw_buttons = [
        m
        for m in desk
        for row in m.buttons
        for b in row
        if b["text"] == tournament_tables.DRAW_LABEL
    ]
    assert len(draw_buttons) == 1
    notice = await tap(
        bot, draw_buttons[0], data_of(draw_buttons[0], tournament_tables.DRAW_LABEL), MANAGER
    )
    assert "Ausgelost" in notice, notice
    await asyncio.sleep(0)
