"""The house rules' words: each result of their use cases as the chat reads it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from skatbot.usecases.common import wording
from skatbot.usecases.common.reply import Reply

LABELS = {
    "isko": "ISkO mit Seeger-Fabian",
    "haus": "Hausregeln (3B3R, Runde = 1 Spiel)",
    "haus-geber": "Hausregeln (3B3R, Runde = Geberrunde)",
}


@dataclass(frozen=True)
class RulesShown:
    house: bool
    here: str  # "diesem Chat", "diesem Thema"


class From(Enum):
    """Which list a rules change applies to first."""

    NOW = "now"  # the running list, it has no game yet
    NEXT_LIST = "next list"  # the running list has games: it keeps its rules
    NEW_LIST = "new list"  # no list runs
    AT_TABLE = "at table"  # no list runs where a table played: its next list is the next draw's


@dataclass(frozen=True)
class RulesSet:
    code: str
    applies: From


@wording.reply_of.register
def _(result: RulesShown) -> Reply:
    current = "Hausregeln (3B3R)" if result.house else "ISkO mit Seeger-Fabian"
    return Reply(
        f"Regeln in {result.here}: {current}.\n"
        "Ändern: /regeln haus [runde=spiel|geberrunde] oder /regeln isko"
    )


_APPLIES = {
    From.NOW: "gilt ab sofort für diese Liste.",
    From.NEXT_LIST: "gilt ab der nächsten Liste; die laufende bleibt, wie sie ist.",
    From.NEW_LIST: "gilt ab der nächsten Liste (/neu …).",
    From.AT_TABLE: "gilt ab der nächsten Liste.",
}


@wording.reply_of.register
def _(result: RulesSet) -> Reply:
    return Reply(f"📜 Regeln: {LABELS[result.code]} – {_APPLIES[result.applies]}")
