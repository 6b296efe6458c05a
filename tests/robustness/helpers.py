"""Helpers shared by the robustness tests."""

from __future__ import annotations

from sqlalchemy import select

from skatbot.storage.database import Database
from skatbot.storage.models import Row, SheetList
from tests.conftest import Bot


async def export_raw(bot: Bot, chat_id: int = -1001) -> bytes:
    """The /export document of the chat (or the refusal text when there is no list)."""
    out = await bot.say("/export", chat_id=chat_id)
    docs = [r.document for r in out if r.document]
    if docs:
        return docs[0][1]
    return "\n".join(r.text for r in out).encode()


async def ok(bot: Bot, message: str, **kw: int | str) -> str:
    text = await bot.text(message, **kw)
    assert "⚠️" not in text, (message, text)
    return text


def game_rows(db: Database, chat_id: int | None = None) -> list[tuple[int, str, int | None]]:
    """(row id, announcement, update id) of all game rows, optionally of one chat, by row id."""

    def read(session):  # type: ignore[no-untyped-def]
        query = (
            select(Row.id, Row.announcement, Row.update_id)
            .join(SheetList, Row.list_id == SheetList.id)
            .where(Row.kind == "game")
            .order_by(Row.id)
        )
        if chat_id is not None:
            query = query.where(SheetList.chat_id == chat_id)
        return [tuple(r) for r in session.execute(query)]

    return db.run_read(read)
