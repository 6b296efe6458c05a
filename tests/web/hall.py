"""A Preisskat in a hall, played through the real bot on the strict stand-in, for the live
page's tests and its screenshot (bench/leinwand_screenshot.py): the desk, its draw, results
typed at the desk, tables that play on their own lists, and the page's link."""

from __future__ import annotations

import dataclasses
import re

from skatbot.web.context import WebContext
from tests.helpers import Bot, ok

DESK = -1001
ORGANISER = {"user_id": 1, "name": "Olga"}
PUBLIC_URL = "https://skat.example.org"
LINK = re.compile(re.escape(PUBLIC_URL) + r"/leinwand/([A-Za-z0-9_-]+)")


async def desk(bot: Bot, name: str, names: list[str]) -> str:
    """A tournament of ``names`` at the desk; the token of its live page's link."""
    bot.app.bot_data.public_url = PUBLIC_URL
    await ok(bot, f"/turnier {name}", chat_id=DESK, **ORGANISER)
    await ok(bot, "/teilnehmer " + ", ".join(names), chat_id=DESK, **ORGANISER)
    found = LINK.search(await ok(bot, "/leinwand", chat_id=DESK, **ORGANISER))
    assert found
    return found.group(1)


async def draw(bot: Bot, seed: int) -> tuple[list[list[str]], dict[int, str]]:
    """The next series drawn: its tables (names in seat order) and their /tisch codes."""
    reply = await ok(bot, f"/auslosen {seed}", chat_id=DESK, **ORGANISER)
    tables = [m.group(1).split(", ") for m in re.finditer(r"^Tisch \d+: (.+)$", reply, re.M)]
    codes = {int(n): code for n, code in re.findall(r"Tisch (\d+) → /tisch (\w+)", reply)}
    assert tables and codes, reply
    return tables, codes


async def report(bot: Bot, rows: dict[str, tuple[int, int, int]]) -> None:
    """Results typed at the desk: name -> (Spielpunkte, won, lost)."""
    lines = "\n".join(f"{n} {p} {w} {v}" for n, (p, w, v) in rows.items())
    await ok(bot, "/ergebnis " + lines, chat_id=DESK, **ORGANISER)


async def open_table(bot: Bot, code: str, chat_id: int) -> None:
    """The table's list opened in the group ``chat_id`` (by the management)."""
    await ok(bot, f"/tisch {code}", chat_id=chat_id, **ORGANISER)


async def book(bot: Bot, chat_id: int, declarer: str, won: bool = True) -> None:
    """A grand ohne 1 booked at the table playing in ``chat_id``."""
    game = "gewonnen" if won else "verloren"
    await ok(bot, f"/spiel {declarer} grand ohne 1 {game}", chat_id=chat_id, user_id=50)


def quick_web(bot: Bot) -> WebContext:
    """The bot's web context with a live page that asks every 0.2 s instead of every 3 s, so a
    browser test sees a change soon (what it sees is the same)."""
    return dataclasses.replace(WebContext.of(bot.app), live_poll_seconds=0.2)
