"""``/teilnehmer`` and ``/entfernen``: a tournament's participants.

After the first draw the participant list changes only from the next series on: a late
arrival has ``from_series``, a departure ``left_from``, each change a row of the
tournament's log; a series is drawn from the participants present for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from skatbot.rules.calendar import berlin_time
from skatbot.rules.errors import RuleError
from skatbot.rules.money import format_money
from skatbot.storage import tournament as trepo
from skatbot.storage.tournament_models import Participant, Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common.names import check_unique, clean_name, full_stop
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.tournament import cash, tournament_season
from skatbot.usecases.tournament import teams as teams_uc
from skatbot.usecases.tournament.desk import (
    collapse,
    latest,
    match_participant,
    table_plan,
    unknown_participant,
)
from skatbot.usecases.tournament.results import names_line

MAX_PARTICIPANTS = 1000
REFUND_WORDS = {"erstatten", "erstattet", "erstattung"}


# --- /teilnehmer ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShowParticipants:
    pass


@dataclass(frozen=True)
class AddParticipants:
    entries: tuple[tuple[str, str | None], ...]  # (name, team or None), in order

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.entries]


def parse_teilnehmer(cmd: Command) -> ShowParticipants | AddParticipants:
    if not cmd.rest.strip():
        return ShowParticipants()
    entries = tuple((clean_name(name), team) for name, team in teams_uc.split_entries(cmd.rest))
    check_unique([name for name, _ in entries])
    return AddParticipants(entries)


def teilnehmer(
    session: Session, place: Place, request: ShowParticipants | AddParticipants
) -> Reply:
    if isinstance(request, ShowParticipants):
        return Reply(participant_list(session, latest(place)))
    t = tournament_season.running_at(place)
    new = request.names
    existing = trepo.participants(session, t)
    _refuse_known(existing, new)
    if len(existing) + len(new) > MAX_PARTICIPANTS:
        raise RuleError(f"Höchstens {MAX_PARTICIPANTS} Teilnehmer.", hint="Bitte die Liste prüfen.")
    drawn = trepo.series_count(session, t)
    if drawn:  # a late arrival: from the next draw on, the drawn series stays as it is
        trepo.add_late(session, t, new, drawn + 1)
        for name in new:
            _log(session, place, t, name, "join", drawn + 1)
    else:
        trepo.add_participants(session, t, new)
    teams_uc.assign_new(session, t, dict(request.entries))
    if not drawn:
        added = "1 Teilnehmer" if len(new) == 1 else f"{len(new)} Teilnehmer"
        return Reply(
            f"✅ {added} eingetragen: {full_stop(names_line(new))}\n" + participant_list(session, t)
        )
    lines = [
        f"✅ Nachgemeldet: {names_line(new)} – ab Serie {drawn + 1} dabei. Die ausgeloste "
        f"Serie {drawn} bleibt, wie sie ist."
    ]
    entry = cash.fees_of(session, t).entry
    if entry:
        lines.append(f"Startgeld {format_money(entry)} je Nachmeldung (/abrechnung).")
    return Reply("\n".join([*lines, participant_list(session, t)]))


def _refuse_known(existing: Sequence[Participant], new: Sequence[str]) -> None:
    known = {p.name.casefold(): p for p in existing}
    for name in new:
        if name.casefold() in known:
            p = known[name.casefold()]
            nr = existing.index(p) + 1
            left = f", abgemeldet ab Serie {p.left_from}" if p.left_from else ""
            raise RuleError(
                f"„{name}“ steht schon in der Teilnehmerliste (Nr. {nr}: {p.name}{left}).",
                hint="Namen müssen sich unterscheiden (Groß-/Kleinschreibung zählt nicht).",
            )


def _log(
    session: Session, place: Place, t: Tournament, name: str, action: str, series: int
) -> None:
    asker = place.asker
    trepo.log_roster(
        session, t, name, action, series,
        user_id=asker.user_id, user_name=asker.name, update_id=asker.update_id,
    )  # fmt: skip


def present(people: Sequence[Participant], series: int) -> list[str]:
    """The names drawn for series number ``series``."""
    return [p.name for p in people if p.plays(series)]


def participant_list(session: Session, t: Tournament) -> str:
    people = trepo.participants(session, t)
    if not people:
        return (
            f"Noch keine Teilnehmer in „{escape(t.name)}“. "
            "Eintragen: /teilnehmer Anna, Bernd, Carla"
        )
    drawn = trepo.series_count(session, t)
    lines = [f"👥 <b>Teilnehmer ({len(people)})</b> – {escape(t.name)}"]
    lines.extend(_participant_line(i, p) for i, p in enumerate(people, 1))
    playing = present(people, drawn + 1)
    if drawn and len(playing) != len(people):
        lines.append(f"Serie {drawn + 1}: {len(playing)} dabei.")
    lines.append(table_plan(len(playing)))
    if drawn:
        lines.append(
            f"Nachmelden: /teilnehmer NAME · abmelden: /entfernen NAME – gilt ab Serie "
            f"{drawn + 1}; ausgeloste Serien bleiben, wie sie sind."
        )
        lines.extend(_log_lines(session, t))
    return "\n".join(lines)


def _participant_line(i: int, p: Participant) -> str:
    line = f"{i}. {escape(p.name)}" + (f" [{escape(p.team)}]" if p.team else "")
    if p.from_series > 1:
        line += f" (ab Serie {p.from_series})"
    if p.left_from is not None:
        line += f" (abgemeldet ab Serie {p.left_from}"
        line += ", Startgeld erstattet)" if p.refunded else ")"
    return line


_ACTIONS = {
    "join": "nachgemeldet ab Serie {}",
    "leave": "abgemeldet ab Serie {}",
    "unjoin": "Nachmeldung (ab Serie {}) zurückgenommen",
    "refund": "Startgeld erstattet (abgemeldet ab Serie {})",
}


def _log_lines(session: Session, t: Tournament) -> list[str]:
    rows = trepo.roster_log(session, t)
    if not rows:
        return []
    out = ["📝 <b>Änderungen nach der ersten Auslosung</b>"]
    for r in rows:
        when = berlin_time(r.created_at).strftime("%d.%m. %H:%M")
        who = f", von {escape(r.user_name)}" if r.user_name else ""
        out.append(f"{when} {escape(r.name)}: {_ACTIONS[r.action].format(r.series)}{who}")
    return out


# --- /entfernen -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RemoveParticipant:
    word: str  # the participant as typed
    refund: bool  # "/entfernen Anna erstatten": the entry fee goes back


def parse_entfernen(cmd: Command) -> RemoveParticipant:
    word = collapse(cmd.rest)
    if not word:
        raise RuleError("Wen soll ich entfernen?", hint="Z. B. /entfernen Anna")
    words = word.split()
    if len(words) > 1 and words[-1].casefold() in REFUND_WORDS:
        return RemoveParticipant(" ".join(words[:-1]), refund=True)
    return RemoveParticipant(word, refund=False)


def entfernen(session: Session, place: Place, request: RemoveParticipant) -> Reply:
    t = tournament_season.running_at(place)
    people = trepo.participants(session, t)
    names = [p.name for p in people]
    found = match_participant(request.word, names)
    if found is None:
        raise unknown_participant(request.word, names)
    p = next(p for p in people if p.name == found)
    drawn = trepo.series_count(session, t)
    if not drawn:
        return _strike(session, t, p, request.refund)
    if p.left_from is not None:
        return _refund_gone(session, place, t, p, request.refund)
    if p.from_series > drawn:
        return _take_back_arrival(session, place, t, p, request.refund)
    return _leave(session, place, t, p, request.refund, drawn)


def _strike(session: Session, t: Tournament, p: Participant, refund: bool) -> Reply:
    """Before the first draw a name goes altogether."""
    if refund:
        raise RuleError(
            "Vor der ersten Auslosung gibt es nichts zu erstatten.",
            hint=f"/entfernen {p.name} streicht den Namen ganz.",
        )
    name = p.name
    trepo.remove_participant(session, p)
    return Reply(f"🗑 {escape(name)} ist nicht mehr dabei.\n" + participant_list(session, t))


def _refund_gone(
    session: Session, place: Place, t: Tournament, p: Participant, refund: bool
) -> Reply:
    """Someone who left already: only the refund of the entry fee is left to do."""
    if not refund or p.refunded:
        raise RuleError(
            f"{p.name} ist schon abgemeldet (ab Serie {p.left_from}).",
            hint=f"Startgeld erstatten: /entfernen {p.name} erstatten"
            if not p.refunded
            else "Es ist auch schon erstattet.",
        )
    assert p.left_from is not None
    p.refunded = True
    _log(session, place, t, p.name, "refund", p.left_from)
    return Reply(
        f"💶 {escape(p.name)} bekommt das Startgeld erstattet.\n" + participant_list(session, t)
    )


def _take_back_arrival(
    session: Session, place: Place, t: Tournament, p: Participant, refund: bool
) -> Reply:
    """Arrived, not drawn yet: the arrival is taken back."""
    if refund:
        raise RuleError(
            f"{p.name} hat noch nicht gespielt – es gibt nichts zu erstatten.",
            hint=f"/entfernen {p.name} nimmt die Nachmeldung zurück.",
        )
    name = p.name
    _log(session, place, t, name, "unjoin", p.from_series)
    trepo.remove_participant(session, p)
    return Reply(
        f"🗑 Nachmeldung von {escape(name)} zurückgenommen.\n" + participant_list(session, t)
    )


def _leave(
    session: Session, place: Place, t: Tournament, p: Participant, refund: bool, drawn: int
) -> Reply:
    p.left_from, p.refunded = drawn + 1, refund
    _log(session, place, t, p.name, "leave", drawn + 1)
    played = "Serie 1" if drawn == 1 else f"Serien 1–{drawn}"
    fee = (
        "Das Startgeld wird erstattet."
        if refund
        else f"Das Startgeld bleibt (erstatten: /entfernen {escape(p.name)} erstatten)."
    )
    return Reply(
        f"🚪 {escape(p.name)} ist ab Serie {drawn + 1} nicht mehr dabei; {played} bleibt "
        f"gewertet. {fee}\n" + participant_list(session, t)
    )
