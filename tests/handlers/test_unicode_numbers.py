"""Digits that are not ASCII, where Telegram glue reads them: the inline query and /anheften
(which sends and pins before it writes), through the real bot on the stand-in. Every other
command: tests/usecases/place/test_unicode_numbers.py."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from skatbot.handlers.registry import ERROR_NOTICE
from skatbot.handlers.routes import commands
from skatbot.storage.schema import metadata
from tests.helpers import Bot, html_to_text, ok

ADMIN = 7
GLUE = sorted(r.name for r in commands() if not r.is_use_case)
HOSTILE = ("²", "٣٦", "½")


def dump(bot: Bot) -> dict[str, list[tuple[Any, ...]]]:
    def read(session: Any) -> dict[str, list[tuple[Any, ...]]]:
        return {
            t.name: sorted((tuple(r) for r in session.execute(select(t)).all()), key=repr)
            for t in metadata().sorted_tables
            # bookkeeping of the message itself: an edit of a refused /spiel may still book
            if t.name not in ("processed_updates", "message_links")
        }

    return bot.db.run_read(read)  # type: ignore[no-any-return]


async def test_the_inline_query_is_answered(bot: Bot) -> None:
    update_id = bot.api.push_inline_query("grand mit ²", user_id=3)
    await bot.api.wait_confirmed(update_id, timeout=15)
    calls = [c for c in bot.api.calls if c.method == "answerInlineQuery"]
    assert calls and "0–9" in json.dumps(calls[-1].params, ensure_ascii=False)


async def test_the_glue_commands_answer_every_hostile_word(bot: Bot) -> None:
    """The sweep of the use cases' test for the commands that are glue: each hostile word
    alone and after a word that commands read numbers behind. None reaches the internal
    error; a refusal changes nothing."""
    assert GLUE == ["anheften"]  # a new glue command belongs here, and in no harness test
    await ok(bot, "/neu Anna Bernd Carla", user_id=ADMIN)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", user_id=ADMIN)
    for command in GLUE:
        for word in HOSTILE:
            for words in (word, f"Anna {word} 1"):
                message = f"/{command} {words}"
                before = dump(bot)
                out = await bot.say(message, user_id=ADMIN)
                text = "\n".join(r.text for r in out)
                assert html_to_text(ERROR_NOTICE) not in text, (message, text)
                if any(r.refusal for r in out):
                    assert dump(bot) == before, message
