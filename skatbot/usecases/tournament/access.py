"""Who manages a tournament: its creator and the chat's admins (everyone may read)."""

from __future__ import annotations

from skatbot.rules.errors import RuleError
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command
from skatbot.usecases.common.rights import owns

READABLE = "/teilnehmer, /fehlend, /rangliste, /urkunden, /export"


def require_manager(t: Tournament, cmd: Command, readable: str = READABLE) -> None:
    """Managing commands: the tournament's creator and the chat's admins; the refusal names
    what everyone may read (``readable``)."""
    if cmd.is_admin or owns(cmd.user_id, t.created_by):
        return
    _refuse(t, readable)


def _refuse(t: Tournament, readable: str) -> None:
    if not owns(t.created_by, t.created_by):
        # started by a chat identity (an anonymous admin, a channel): it owns nothing
        raise RuleError(
            f"Das Turnier „{t.name}“ verwalten die Admins des Chats.",
            hint=f"Bitte einen Admin darum. Lesen geht für alle: {readable}.",
        )
    who = t.created_by_name or "die Person, die es angelegt hat"
    raise RuleError(
        f"Das Turnier „{t.name}“ verwalten {who} (hat /turnier aufgerufen) und die Admins des Chats.",
        hint=f"Lesen geht für alle: {readable}.",
    )


def manager(session: Session, place: Place, request: object) -> None:
    """The right ``rights.TOURNAMENT_MANAGER`` at a Preisskat desk: the tournament's creator and the chat's
    admins (checked on the place's latest tournament). The refusal names what everyone may
    read: the request's ``readable`` where its command group has its own (money, ending)."""
    t = place.tournament
    assert t is not None  # a desk has one
    asker = place.asker
    if asker.is_admin or owns(asker.user_id, t.created_by):
        return
    _refuse(t, getattr(request, "readable", READABLE))
