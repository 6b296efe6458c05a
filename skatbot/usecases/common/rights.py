"""The rights a route declares (``handlers.routes``): checked once by ``serving`` before its
use case runs, never inside it. A right whose answer depends on the data at stake (an older
list's creator, a team's captain) is a feature's own check, named on the route like these.

A check is ``fn(session, place, request) -> None`` and raises a ``RuleError`` whose hint says
who may and what everyone may do instead."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from skatbot.rules.errors import RuleError
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place, PlaceKind, place_of
from skatbot.usecases.common.reply import PLACEHOLDER_IDS, Command

Check = Callable[[Session, Place, Any], None]


@dataclass(frozen=True)
class Right:
    """``name`` is the role it asks for (the rights matrix's words); ``checks`` the check per
    place kind as ``"module:function"`` of ``skatbot.usecases`` (imported at its first use),
    ``"*"`` for every kind; ``asks_admin``: Telegram is asked whether the sender is a chat
    admin before the transaction (getChatMember), else ``Asker.is_admin`` is False."""

    name: str
    checks: Mapping[PlaceKind | str, str] = field(default_factory=dict)
    asks_admin: bool = False

    def check(self, session: Session, place: Place, request: object) -> None:
        target = self.checks.get(place.kind) or self.checks.get("*")
        if target is not None:
            _resolve(target)(session, place, request)

    def held_by(self, session: Session, cmd: Command) -> bool:
        """Whether ``cmd``'s sender holds this right at ``cmd``'s place (no request: a
        right declared for the whole target), without a refusal."""
        try:
            self.check(session, place_of(session, cmd), None)
        except RuleError:
            return False
        return True


_RESOLVED: dict[str, Check] = {}


def _resolve(target: str) -> Check:
    found = _RESOLVED.get(target)
    if found is None:
        module, _, name = target.partition(":")
        found = getattr(importlib.import_module(f"skatbot.usecases.{module}"), name)
        _RESOLVED[target] = found
    return found


def is_person(user_id: int | None) -> bool:
    """A person's own account: never a chat identity (an anonymous admin posting as the group,
    a channel: negative ids) nor Telegram's placeholder users, who stand for many people."""
    return user_id is not None and user_id > 0 and user_id not in PLACEHOLDER_IDS


def owns(user_id: int | None, owner: int | None) -> bool:
    """Whether ``user_id`` owns what ``owner`` created. Only a person owns anything: a chat
    identity (an anonymous admin posting as the group, a channel: negative ids) and
    Telegram's placeholder users stand for many people and own nothing."""
    return (
        user_id is not None
        and owner is not None
        and user_id == owner
        and owner > 0
        and owner not in PLACEHOLDER_IDS
    )


def person(session: Session, place: Place, request: object) -> None:
    if not is_person(place.asker.user_id):
        raise RuleError(
            "Das geht nur mit deinem eigenen Konto.",
            hint="Bitte ohne „als Gruppe senden“ oder Kanal-Identität noch einmal schicken.",
        )


def admin(session: Session, place: Place, request: object) -> None:
    if not place.asker.is_admin:
        raise RuleError(
            "Das dürfen nur die Admins des Chats.",
            hint="Bitte einen Admin darum. Nichts wurde geändert.",
        )


# Every right a route may declare. A feature's check lives beside its use cases; its
# declaration here, so that the route table imports no use case.
ANYONE: Final = Right("anyone")
PERSON: Final = Right("person", {"*": "common.rights:person"})
ADMIN: Final = Right("admin", {"*": "common.rights:admin"}, asks_admin=True)
# A Preisskat desk's management: the tournament's creator and the chat's admins.
TOURNAMENT_MANAGER: Final = Right(
    "manager", {PlaceKind.TOURNAMENT_DESK: "tournament.access:manager"}, asks_admin=True
)


# Who runs a place, and so is not held to a member's limit of documents (handlers.fairness):
# a Preisskat desk's or a league desk's management, elsewhere the chat's admins.
PLACE_MANAGEMENT: Final = Right(
    "management",
    {
        PlaceKind.TOURNAMENT_DESK: "tournament.access:manager",
        PlaceKind.LEAGUE_DESK: "league.access:manager",
        "*": "common.rights:admin",
    },
    asks_admin=True,
)


# --- the league (league desk, host, captains) ---------------------------------------------------
# A league's management at its desk: the league's creator and the chat's admins.
LEAGUE_MANAGER: Final = Right(
    "league manager", {PlaceKind.LEAGUE_DESK: "league.access:manager"}, asks_admin=True
)
# Who runs a match day: the management at the desk; at a host's chat the host and its admins.
DAY_RUNNER: Final = Right(
    "day runner",
    {PlaceKind.LEAGUE_DESK: "league.access:manager", PlaceKind.HOST: "league.access:host"},
    asks_admin=True,
)
# A team's line-up: whoever runs the day, and the captain of the team the request names.
TEAM_CAPTAIN: Final = Right(
    "captain",
    {PlaceKind.LEAGUE_DESK: "league.access:captain", PlaceKind.HOST: "league.access:captain"},
    asks_admin=True,
)


# --- tournament and league tables (/tisch, signing, name claims) --------------------------------
# Who links a table's list with its code (read from the request's code): a Preisskat's
# management or a player of that table the bot knows; a league's captains, the day's host
# and its creator. The draw's deep link (/start tisch_…) needs none: it cannot be guessed.
# Signing and confirming a claimed name stay with their use cases: who may is who the
# tapper is at that table.
TABLE_LINKER: Final = Right("a player of that table", {"*": "tables.lifecycle:may_link"})


# --- the sheet (lists, games, corrections) -----------------------------------------------------
# /rueckgaengig and "↩️ Rückgängig": taking back a change is for whoever made it and the
# chat's admins (entering and correcting stay everyone's: a correction keeps the old row).
CHANGE_MAKER: Final = Right("who made the change", {"*": "sheet.undo:may_undo"}, asks_admin=True)


# --- the place: documents, deletion, money, people ---------------------------------------------
# A list as a whole (/oeffnen): the latest list's creator and the chat's admins.
LIST_MANAGER: Final = Right("list manager", {"*": "place.documents:list_manager"}, asks_admin=True)
# /loeschen liste: the latest list alone, for its creator and the chat's admins.
LIST_DELETER: Final = Right("list manager", {"*": "place.admin:list_deleter"}, asks_admin=True)
# /loeschen (away from a desk; at a desk /loeschen alles): everything of the place, for the
# chat's admins alone (the refusal names what the sender may delete instead).
PLACE_DELETER: Final = Right("admin", {"*": "place.admin:whole_deleter"}, asks_admin=True)
# /einsatz … liste N: a closed list's money is changed like the list itself, by its creator
# and the chat's admins; an open list's by anyone at the table.
CLOSED_LIST_STAKE: Final = Right(
    "list manager", {"*": "money.stakes:closed_list_manager"}, asks_admin=True
)
# /spieler zusammen|trennen: who is who is the table's own knowledge, open to anyone at the
# place (a merge is undone the same way, and never joins two names of one list).
WHO_IS_WHO: Final = Right("anyone")


# --- game nights (/spielabend) ------------------------------------------------------------------
# Anyone may plan one (a poll asks, nothing is decided); closing it early ends the vote for
# all: for who planned it and the chat's admins (at its start it closes by itself).
GAME_NIGHT_CLOSER: Final = Right(
    "who planned it", {"*": "gamenight.nights:may_close"}, asks_admin=True
)


# --- house rules, seasons, evenings, display ---------------------------------------------------
# The season's counting (/saisonregeln) belongs to the place's players, like its lists: everyone
# at the place may change it, no admin is asked.
SEASON_COUNTING: Final = Right("anyone")
