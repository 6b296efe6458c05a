"""A place's tournaments one after the other: ``/turnier ende``, ``/turniere``, a tournament
number on the read-only commands, and ``/loeschen`` at the desk.

A place (chat or topic) where ``/turnier NAME`` was sent is the desk of the tournament
management ("Turnierleitung"). One tournament runs there at a time; the management (its
creator and the chat's admins) ends it with ``/turnier ende`` and a confirmation, and the next
``/turnier NAME`` starts at the same desk with the next number. An ended tournament is read
only: its ranking, certificates, cash report and export stay readable with ``turnier N``
(``/rangliste turnier 1``), its tables take no more games, and every managing command refuses.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.rules.ranking import Ranked
from skatbot.rules.scoring import minus_sign
from skatbot.storage import tournament as trepo
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.sheet import standings
from skatbot.usecases.tournament.results import ranking_of

END_WORDS = {"ende", "beenden"}
CONFIRM_WORDS = {"ja", "bestätigen", "bestaetigen"}
NUMBER_WORDS = {"turnier", "nr", "nr.", "nummer"}
READABLE = "/rangliste, /urkunden, /kasse, /export"


# --- naming a tournament ------------------------------------------------------------------------


def _day(moment: dt.datetime | None) -> dt.date:
    return berlin_date(moment)


def day_of(t: Tournament) -> dt.date:
    """The tournament's date: the day it was created (Germany)."""
    return _day(t.created_at)


def dates(t: Tournament) -> str:
    """``01.12.2026`` or ``01.12.2026–03.12.2026`` (created to ended)."""
    first = day_of(t)
    text = first.strftime("%d.%m.%Y")
    if t.closed_at is not None:
        last = _day(t.closed_at)
        if last != first:
            text += "–" + last.strftime("%d.%m.%Y")
    return text


def file_name(kind: str, t: Tournament) -> str:
    """``rangliste-winterskat-2026-12-01.pdf``: the document, the tournament, its date."""
    import re
    import unicodedata

    folded = t.name.casefold().replace("ß", "ss")
    for umlaut, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue")):
        folded = folded.replace(umlaut, plain)
    ascii_name = unicodedata.normalize("NFKD", folded).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:40].strip("-") or "turnier"
    return f"{kind}-{slug}-{day_of(t).isoformat()}.pdf"


def label(t: Tournament) -> str:
    """``Turnier 2 „Winterskat“`` (HTML-escaped)."""
    return f"Turnier {t.number} „{escape(t.name)}“"


def shown_line(session: Session, t: Tournament) -> str | None:
    """Which tournament a read-only answer shows, when it could be another one: the place
    has several, or this one has ended."""
    count = len(trepo.tournaments_of(session, t.chat_id))
    if count < 2 and t.closed_at is None:
        return None
    state = "beendet" if t.closed_at is not None else "läuft"
    other = " · ein anderes: turnier N anhängen, alle: /turniere" if count > 1 else ""
    return f"ℹ️ Gezeigt: {label(t)} vom {dates(t)} ({state}){other}"


def running_at(place: Place) -> Tournament:
    """The tournament a desk's management works on now (its latest); refused when it ended."""
    t = place.tournament
    assert t is not None  # the route serves desks only
    if t.closed_at is not None:
        raise RuleError(
            f"{label(t)} ist beendet – daran ändert sich nichts mehr.",
            hint=f"Lesen: {READABLE} · das nächste Turnier: /turnier NAME.",
        )
    return t


def pick(session: Session, cmd: Command, words: Sequence[str]) -> tuple[Tournament, list[str]]:
    """The tournament a read-only command shows: ``turnier N`` among ``words`` (anywhere),
    else the latest. Returns it and the other words."""
    number, rest = split_number(words)
    return chosen(session, cmd.place_id, cmd.here, number), rest


def split_number(words: Sequence[str]) -> tuple[int | None, list[str]]:
    """``turnier N`` among a read-only command's words (anywhere): N (None: none) and the
    other words."""
    rest = list(words)
    for i, word in enumerate(rest):
        if word.casefold() in NUMBER_WORDS and i + 1 < len(rest):
            raw = rest[i + 1]
            if not is_number(raw) or len(raw) > 6:
                raise RuleError(
                    f"„{raw[:20]}“ ist keine Turniernummer.",
                    hint="Z. B. turnier 1 – die Nummern zeigt /turniere.",
                )
            del rest[i : i + 2]
            return int(raw), rest
    return None, rest


def chosen(session: Session, place_id: int, here: str, number: int | None) -> Tournament:
    """Tournament ``number`` of the place (None: its latest)."""
    every = trepo.tournaments_of(session, place_id)
    if not every:
        raise RuleError(f"In {here} gibt es kein Turnier.", hint="Lege eins an mit /turnier NAME.")
    if number is None:
        return every[-1]
    found = [t for t in every if t.number == number]
    if not found:
        span = "Turnier 1" if len(every) == 1 else f"Turnier 1 bis {every[-1].number}"
        raise RuleError(
            f"Turnier {number} gibt es in {here} nicht.",
            hint=f"Hier: {span} (/turniere).",
        )
    return found[-1]


def chosen_at(session: Session, place: Place, number: int | None) -> Tournament:
    """Tournament ``number`` of a desk (None: its latest)."""
    return chosen(session, place.id, place.here, number)


# --- /turnier ende ------------------------------------------------------------------------------


def is_end(words: Sequence[str]) -> bool:
    """``/turnier ende`` and ``/turnier ende ja`` (a tournament named "Ende …" is not)."""
    return (
        bool(words)
        and words[0].casefold() in END_WORDS
        and (len(words) == 1 or (len(words) == 2 and words[1].casefold() in CONFIRM_WORDS))
    )


def winners(ranked: Sequence[object]) -> str:
    first = [r for r in ranked if isinstance(r, Ranked) and r.place == 1]
    return " und ".join(
        f"{escape(r.standing.name)} ({minus_sign(r.standing.score)} Punkte)" for r in first
    )


def forget_pinned(session: Session, t: Tournament) -> None:
    """The pinned standings stay as they are (the final state); the next tournament pins
    its own."""
    mid = standings.pinned_id(session, t.chat_id)
    if mid is not None:
        standings.forget(session, t.chat_id, mid)


# --- /turniere ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListTournaments:
    pass


def parse_turniere(cmd: Command) -> ListTournaments:
    if cmd.args:
        raise RuleError(
            f"„{cmd.args[0][:20]}“ kenne ich bei /turniere nicht.",
            hint="Einfach /turniere; ein Turnier zeigen: /rangliste turnier 1",
        )
    return ListTournaments()


def turniere(session: Session, place: Place, request: ListTournaments) -> Reply:
    """At a desk its tournaments; at a place with lists (never a desk, or its tournaments
    deleted) that there were none."""
    every = trepo.tournaments_of(session, place.id)
    if not every:
        return Reply(f"ℹ️ In {place.here} gab es noch kein Turnier. Eins anlegen: /turnier NAME")
    lines = [f"🗂 <b>Turniere in {escape(place.here)}</b> ({len(every)})"]
    for t in every:
        done = trepo.load_series(session, t)
        ranked, _, _ = ranking_of(t, done)
        state = "beendet" if t.closed_at is not None else "läuft"
        line = (
            f"{t.number}. {escape(t.name)} – {dates(t)}, {state}, {texts.series_count(len(done))}"
        )
        if ranked:
            line += f" · {'Sieg' if t.closed_at else 'vorn'}: {winners(ranked)}"
        lines.append(line)
    lines.append(f"Ein Turnier lesen: {READABLE} mit turnier N, z. B. /rangliste turnier 1")
    return Reply("\n".join(lines))


# --- /loeschen at the desk ----------------------------------------------------------------------


def contents(session: Session, t: Tournament) -> str:
    done = trepo.load_series(session, t)
    people = len(trepo.participants(session, t))
    results = sum(len(s.results) for s in done)
    return (
        f"{label(t)} ({dates(t)}) mit {people} Teilnehmer{'n' if people != 1 else ''}, "
        f"{texts.series_count(len(done))} und {results} Ergebnis{'sen' if results != 1 else ''}"
    )
