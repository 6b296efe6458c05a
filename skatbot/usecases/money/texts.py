"""The words of table stakes: each result of ``/einsatz`` as the chat reads it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from html import escape

from skatbot.rules import money as m
from skatbot.usecases.common import wording
from skatbot.usecases.common.reply import Reply


@dataclass(frozen=True)
class StakeShown:
    """``/einsatz``: the place's stake, and the running (or latest) list's when it differs."""

    stake: m.Stake | None
    list_stake: m.Stake | None
    differs: bool  # the list has another stake than the place (then it is said)
    running: bool  # the list is the running one (else the latest)


class Scope(Enum):
    """From which list a new stake of the place holds."""

    RUNNING = "für die laufende Liste und alle folgenden"
    LATEST = "für die zuletzt gespielte Liste und alle folgenden"
    NEXT = "ab der nächsten Liste"
    ALL = "für alle Listen"


@dataclass(frozen=True)
class StakeChanged:
    """The table is told when the money of the list it plays changes under its games."""

    who: str  # the asker's name, "" if none
    before: m.Stake | None
    after: m.Stake | None
    played: int  # the games already played, which count with the new stake


@dataclass(frozen=True)
class StakeSet:
    """``/einsatz BETRAG …`` or ``/einsatz aus`` (``stake`` None)."""

    stake: m.Stake | None
    scope: Scope
    here: str  # "diesem Chat", "diesem Thema"
    carries_start: bool
    changed: StakeChanged | None  # the running list's money changed under its games


@dataclass(frozen=True)
class ListStakeSet:
    """``/einsatz BETRAG liste N``: list N alone."""

    number: int
    stake: m.Stake | None
    in_evening: bool  # /abrechnung abend settles it with other series


def stake_command(stake: m.Stake | None) -> str:
    """The /einsatz line that sets ``stake`` again (parse_stake reads it back)."""
    if stake is None:
        return "/einsatz aus"
    return f"/einsatz {m.format_stake(stake.per_point)} {stake.method.value}"


def _label(stake: m.Stake | None) -> str:
    return escape(stake.label) if stake else "keiner"


@wording.reply_of.register
def _(result: StakeShown) -> Reply:
    lines = [f"💶 Einsatz: {_label(result.stake)} (gilt, bis er mit /einsatz geändert wird)."]
    if result.differs:
        which = "laufende" if result.running else "letzte"
        lines.append(f"Für die {which} Liste: {_label(result.list_stake)}.")
    lines.append("Setzen: " + m.STAKE_EXAMPLE + " · ohne Geld: /einsatz aus")
    return Reply("\n".join(lines))


def _changed(notice: StakeChanged | None) -> str:
    if notice is None:
        return ""
    who = escape(notice.who) if notice.who else "jemand"
    played = notice.played
    games = (
        "das Spiel, das schon gespielt ist"
        if played == 1
        else f"die {played} Spiele, die schon gespielt sind"
    )
    return (
        f"📣 <b>An alle am Tisch:</b> {who} hat den Einsatz der laufenden Liste geändert – "
        f"{_label(notice.before)} → {_label(notice.after)}; die Änderung gilt auch für {games}. "
        f"Zurück: {stake_command(notice.before)}\n"
    )


@wording.reply_of.register
def _(result: StakeSet) -> Reply:
    notice, scope, here = _changed(result.changed), result.scope.value, result.here
    if result.stake is None:
        return Reply(
            notice + f"💶 Ohne Einsatz – {scope} in {here}. Wieder mit Geld: /einsatz 1 ct"
        )
    start = "Startpunkte zählen beim Geld mit.\n" if result.carries_start else ""
    return Reply(
        notice + f"💶 Einsatz: <b>{escape(result.stake.label)}</b> – gilt {scope} in {here}, "
        "bis ihr ihn mit /einsatz ändert (ohne Geld: /einsatz aus).\n"
        f"{start}Wer wem was zahlt: /abrechnung"
    )


@wording.reply_of.register
def _(result: ListStakeSet) -> Reply:
    label = f"<b>{escape(result.stake.label)}</b>" if result.stake else "ohne Einsatz"
    settle = f"Abrechnen: /abrechnung {result.number}"
    if result.in_evening:
        settle += " · den ganzen Abend: /abrechnung abend"
    return Reply(
        f"💶 Liste {result.number}: {label} – nur diese Liste; die anderen behalten ihren "
        "Einsatz.\n" + settle
    )
