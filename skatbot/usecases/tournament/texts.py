"""The Preisskat desk's words: each result of its use cases as the chat reads it."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.usecases.common import texts as common_texts
from skatbot.usecases.common import wording
from skatbot.usecases.common.reply import Reply


@dataclass(frozen=True)
class SeriesLengths:
    games_3: int
    games_4: int
    changed: bool


@wording.reply_of.register
def _(result: SeriesLengths) -> Reply:
    games = f"{common_texts.games(result.games_3)} am Dreiertisch, {result.games_4} am Vierertisch"
    if result.changed:
        return Reply(f"📏 Serienlänge jetzt: {games}.")
    return Reply(f"📏 Serienlänge: {games}.\nÄndern: /serienlaenge 36 48")
