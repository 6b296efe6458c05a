"""A question and its answer, tied together: a confirmation does exactly what its question
showed, or nothing.

Every command that asks before acting (``/loeschen`` in all its forms, ``/abschluss``,
``/turnier ende``, ``/auslosen zurück``; "Stornieren" under a booking: sealed, below) asks through
:func:`ask`: it names the thing it would act on (:class:`Shown`: its identity, a fingerprint
of its state, and how the question named it) and stores that as the asker's open question of
its kind (``storage.questions``); the question's button carries the identity and a random
nonce. The answer goes through :func:`answer`:

- a button confirms the question it is under (whoever taps it; the command still checks
  the tapper's rights);
- a typed ``… ja`` confirms the question its *sender* was asked - never someone else's. A
  ``ja`` of someone with no question of their own while another person's is open is
  refused: it would guess which question it means. Where a command is also a one-step
  order that names what it does (``/loeschen liste ja``, ``/abschluss ja``), it stays one
  when nobody has asked (or the sender's own question is older than :data:`VALID`);
- before acting, the thing is looked at again: gone, replaced by another (the newest list
  is now a different one) or changed in any stored row (a game booked, a result entered),
  the answer says what changed and how to ask again, and nothing is done.

An answered question is used up; a refused answer leaves it (the transaction rolls back),
so a second ``ja`` gets the same explanation until the question is asked again.

A question that only a button answers and that must store nothing ("Stornieren" changes
nothing until "Ja") is *sealed* instead: its button carries a digest of what it showed
(:func:`seal`), and :func:`answer_sealed` compares it with the thing as it is now.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from skatbot.rules.errors import RuleError
from skatbot.storage import questions
from skatbot.storage.base import utc_now
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Command

# A question is answered while the people who saw it are still at it; one from an earlier
# evening is asked again rather than confirmed.
VALID = dt.timedelta(hours=12)

# the kinds: the command family whose "ja" (or button) answers the question
DELETE = "loeschen"
DELETE_LIST = "loeschen liste"
CLOSE = "abschluss"
END_TOURNAMENT = "turnier ende"
TAKE_BACK_DRAW = "auslosen zurück"


@dataclass(frozen=True)
class Shown:
    """What a question names: the thing's identity (``target``, e.g. ``list:17``), a
    fingerprint of its state, and how the question words it (plain text, German)."""

    target: str
    state: str
    what: str


class NotConfirmed(RuleError):
    """An answer that confirms nothing (not asked, stale, or the thing changed): nothing
    was done."""


def asker(cmd: Command) -> int:
    """Who asks: the sender (a placeholder user, who is nobody in particular, is 0)."""
    return cmd.user_id if cmd.user_id is not None else 0


def ask(session: Session, cmd: Command, kind: str, shown: Shown) -> str:
    """Store ``shown`` as the sender's open question of ``kind`` (replacing their earlier
    one); returns the nonce for the question's button."""
    nonce = secrets.token_hex(8)
    questions.put(
        session,
        cmd.place_id,
        asker(cmd),
        kind,
        target=shown.target,
        state=shown.state,
        what=shown.what,
        nonce=nonce,
    )
    return nonce


def answer(
    session: Session,
    cmd: Command,
    kind: str,
    now: Callable[[str], Shown | None],
    *,
    again: str | Callable[[str], str],
    nonce: str | None = None,
    one_step: bool = False,
    button: bool = False,
    undone: str = "nichts gelöscht",
) -> Shown | None:
    """The question this answer confirms, checked against what is there now, and used up.

    ``now(target)``: the thing as the command would act on it now (None: gone) - for the
    question's target, or what the command would take instead (the newest list). ``nonce``:
    the button's; without, the sender's own question. ``again``: the command that asks
    anew (or a function of the question's target giving it); ``button``: the question has one (the way forward for someone not asked).
    Returns None only for ``one_step`` when nobody has asked: the message itself is the
    order. Raises :class:`NotConfirmed` otherwise.
    """

    def ask_again(target: str) -> str:
        return again if isinstance(again, str) else again(target)

    if nonce is not None:
        found = questions.by_nonce(session, cmd.place_id, kind, nonce)
        if found is None:
            raise NotConfirmed(
                "Dieser Knopf gilt nicht mehr – die Frage ist schon beantwortet oder neu "
                f"gestellt; {undone}.",
                hint=f"Neu fragen: {ask_again('')}",
            )
    else:
        found = questions.of_asker(session, cmd.place_id, asker(cmd), kind)
        if found is not None and one_step and utc_now() - found.asked_at > VALID:
            # long past: this message answers no question, it is the one-step order
            questions.drop(session, found.id)
            found = None
        if found is None:
            _not_asked(session, cmd, kind, ask_again(""), one_step=one_step, button=button)
            return None
    if utc_now() - found.asked_at > VALID:
        raise NotConfirmed(
            f"Die Frage ist älter als {int(VALID.total_seconds()) // 3600} Stunden – sie gilt "
            f"nicht mehr, {undone}.",
            hint=f"Neu fragen: {ask_again(found.target)}",
        )
    then = Shown(found.target, found.state, found.what)
    current = now(found.target)
    if current != then:
        raise NotConfirmed(
            f"Inzwischen hat sich etwas geändert, darum {undone}. {changed(then, current)}",
            hint=f"Neu fragen: {ask_again(found.target)}",
        )
    questions.drop(session, found.id)
    return then


def _not_asked(
    session: Session, cmd: Command, kind: str, again: str, *, one_step: bool, button: bool
) -> None:
    since = utc_now() - VALID
    if questions.asked_by_others(session, cmd.place_id, asker(cmd), kind, since):
        tap = " – oder auf den Knopf unter der Frage tippen" if button else ""
        raise NotConfirmed(
            "Die offene Frage hat jemand anderes bekommen – ein „ja“ bestätigt nur die "
            "eigene Frage; nichts geändert.",
            hint=f"Selbst fragen: {again}{tap}.",
        )
    if not one_step:
        raise NotConfirmed(
            "Du wurdest noch nicht gefragt – nichts geändert.",
            hint=f"Erst {again}, dann {again} ja.",
        )


def seal(shown: Shown) -> str:
    """The digest a sealed question's button carries (16 hex digits)."""
    text = f"{shown.target}\0{shown.state}\0{shown.what}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def answer_sealed(sealed: str, now: Shown | None, *, asked: str, again: str, undone: str) -> None:
    """A sealed question's button: the thing as it is ``now`` must be what the question
    showed (``asked`` names it), else :class:`NotConfirmed` says so."""
    if now is None:
        raise NotConfirmed(f"{asked} gibt es so nicht mehr, darum {undone}.", hint=again)
    if not hmac.compare_digest(seal(now), sealed):
        raise NotConfirmed(
            f"Inzwischen hat sich etwas geändert, darum {undone}. Gefragt war: {asked}. "
            f"Jetzt: {now.what}.",
            hint=again,
        )


def changed(then: Shown, now: Shown | None) -> str:
    """What changed between the question and its answer, in German."""
    if now is None:
        return f"Gefragt war: {then.what} – das gibt es nicht mehr."
    if now.target != then.target:
        return f"Gefragt war: {then.what}. Jetzt wäre es: {now.what}."
    if now.what != then.what:
        return f"Gefragt war: {then.what}. Jetzt: {now.what}."
    return f"Gefragt war: {then.what} – daran wurde inzwischen etwas geändert."


def forget(session: Session, cmd: Command, target: str) -> None:
    """``target`` is gone: every open question about it goes too (they quote its names)."""
    questions.drop_target(session, cmd.place_id, target)
