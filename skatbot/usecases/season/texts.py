"""The season's words: each result of its use cases as the chat reads it."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from skatbot.rules.season import Counting, SeasonRules
from skatbot.usecases.common import wording
from skatbot.usecases.common.reply import Reply

RULES_HINT = "/saisonregeln summe|schnitt · mindestens N · beste N|alle · laterne an|aus · standard"


def rules_text(rules: SeasonRules) -> str:
    parts = [
        "Summe der Seeger-Fabian-Punkte"
        if rules.counting is Counting.SUM
        else "Schnitt je Serie, auf 48 Spiele umgerechnet (abgebrochene Serien zählen wie gespielt)"
    ]
    parts.append(
        "alle Serien zählen" if rules.best is None else f"die besten {rules.best} Serien zählen"
    )
    if rules.minimum > 1:
        parts.append(f"gewertet ab {rules.minimum} Serien")
    if rules.lantern:
        parts.append("mit Roter Laterne")
    return " · ".join(parts)


@dataclass(frozen=True)
class SeasonRulesShown:
    rules: SeasonRules
    changed: bool


@wording.reply_of.register
def _(result: SeasonRulesShown) -> Reply:
    text = escape(rules_text(result.rules))
    if result.changed:
        return Reply(f"📏 Saisonwertung: {text}. Tabelle: /saison")
    return Reply(f"📏 <b>Saisonwertung</b>: {text}.\nÄndern: {escape(RULES_HINT)}")
