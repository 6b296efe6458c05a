"""``/abrechnung``: at a tournament desk what each participant owes (the tournament's cash),
at a table who pays whom for a list or (``/abrechnung abend``) for the evening (the stakes)."""

from __future__ import annotations

from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Reply
from skatbot.usecases.money import stakes
from skatbot.usecases.place.words import Words, command_at
from skatbot.usecases.tournament import cash


def dues(session: Session, place: Place, request: Words) -> Reply:
    """At a Preisskat desk: what each participant pays (``/abrechnung turnier N``)."""
    return cash.tournament_dues(session, command_at(place, "abrechnung", request.words))


def abrechnung(session: Session, place: Place, request: Words) -> Reply:
    """Away from a desk: a list's settlement, or the evening's (``/abrechnung abend``)."""
    if [w.casefold() for w in request.words] == ["abend"]:
        return stakes.evening_settlement(session, place)
    return stakes.list_settlement_reply(session, command_at(place, "abrechnung", request.words))
