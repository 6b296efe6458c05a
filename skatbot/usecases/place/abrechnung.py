"""``/abrechnung``: at a tournament desk what each participant owes (the tournament's cash),
at a table who pays whom for a list or (``/abrechnung abend``) for the evening (the stakes)."""

from __future__ import annotations

from skatbot.storage import tournament as trepo
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.money import stakes
from skatbot.usecases.tournament import cash


def abrechnung(session: Session, cmd: Command) -> Reply:
    if trepo.tournament_of(session, cmd.place_id) is not None:
        return cash.tournament_dues(session, cmd)
    if [w.casefold() for w in cmd.args] == ["abend"]:
        return stakes.evening_settlement(session, cmd)
    return stakes.list_settlement_reply(session, cmd)
