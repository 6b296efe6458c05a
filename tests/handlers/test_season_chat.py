"""/saison through Telegram: a long table is split into messages within Telegram's limit
(what /saison says is tested on the use cases: tests/usecases/season/test_season_chat.py)."""

from __future__ import annotations

from skatbot.storage import lists as lists_store
from skatbot.storage.database import ensure_chat
from skatbot.storage.unit import Session
from tests.helpers import Bot

CHAT = -1001


def closed_lists(session: Session, names: list[str]) -> None:
    """30 closed 3-player lists of ``names`` in seat order, each with one Grand the first
    player won (written through storage: only the delivery of /saison is tested here)."""
    ensure_chat(session, CHAT)
    for i in range(0, len(names), 3):
        lst = lists_store.create_list(
            session,
            CHAT,
            names[i : i + 3],
            first_dealer=0,
            series_length=36,
            rules="isko",
            seed="1234",
            user_id=1,
        )
        lists_store.append_row(
            session,
            lst,
            kind="game",
            dealer=0,
            declarer=0,
            announcement="Grand ohne 1 Hand gewonnen",
        )
        lists_store.close_list(session, lst)


async def test_a_long_table_is_split_within_telegrams_limit(bot: Bot) -> None:
    names = [f"Spielerin{i:02d}" for i in range(90)]
    await bot.db.write(lambda s: closed_lists(s, names))
    out = await bot.say("/saison")
    assert len(out) >= 2 and all(len(r.text) <= 4096 for r in out)
    lines = [x for r in out for x in r.text.splitlines() if x[:1].isdigit()]
    assert len(lines) == 90
