"""The Preisskat desk itself (docs/rules.md §7): ``/turnier NAME`` makes a place the desk of a
tournament's management ("Turnierleitung"), ``/turnier ende`` ends it; the words every desk
command shares (a participant named by a word, the table plan); and ``/export``.

The desk's commands live beside it, one module per group: the participants
(:mod:`roster`), the draw (:mod:`draw`), the results (:mod:`result_entry`), the rankings and
certificates (:mod:`ranking`), teams (:mod:`teams`), money (:mod:`cash`) and the
tournaments one after the other (:mod:`tournament_season`). Their routes declare the place (a
desk), the parser and the right (reading for all, a change for the tournament's management:
``access.manager``); the use cases only decide.
"""

from __future__ import annotations

import difflib
import json
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import ClassVar

from skatbot.rules import tournament as tr
from skatbot.rules.calendar import berlin_time
from skatbot.rules.errors import RuleError
from skatbot.storage import lists as lists_store
from skatbot.storage import tournament as trepo
from skatbot.storage.database import ensure_chat
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.names import match_words
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Document, Reply
from skatbot.usecases.tournament import cash, ending, tournament_season
from skatbot.usecases.tournament import teams as teams_uc
from skatbot.usecases.tournament.results import counting_of, ranking_of
from skatbot.usecases.tournament.results import names_line as _names_line

MAX_TOURNAMENT_NAME = 64
EXPORT_FORMAT = "skatbot-turnier/1"
EXPORT_FILENAME = "skatbot-turnier-v1.json"


# --- what the desk's commands share ----------------------------------------------------------


def latest(place: Place) -> Tournament:
    """The desk's latest tournament, running or ended (what reading shows)."""
    t = place.tournament
    assert t is not None  # the routes serve desks only
    return t


def collapse(text: str) -> str:
    return " ".join(text.split())


def match_participant(word: str, names: Sequence[str]) -> str | None:
    """The participant ``word`` names (all of it, as a list command reads a name:
    ``names.match_words``); None if nothing fits."""
    words = word.split()
    hits, used = match_words(words, names)
    if used < len(words) or not hits:
        return None
    if len(hits) > 1:
        raise RuleError(
            f"„{word}“ ist nicht eindeutig: {' oder '.join(names[i] for i in hits)}?",
            hint="Mehr Buchstaben angeben.",
        )
    return names[hits[0]]


def unknown_participant(word: str, names: Sequence[str], prefix: str = "") -> RuleError:
    close = difflib.get_close_matches(
        word.casefold(), [n.casefold() for n in names], n=1, cutoff=0.6
    )
    hint = ""
    if close:
        hint = f"Meintest du {names[[n.casefold() for n in names].index(close[0])]}? "
    shown = word if len(word) <= 32 else word[:32] + "…"
    return RuleError(
        f"{prefix}„{shown}“ ist kein Teilnehmer dieses Turniers.",
        hint=f"{hint}Die Liste zeigt /teilnehmer.",
    )


def table_plan(n: int) -> str:
    try:
        sizes = tr.table_sizes(n)
    except tr.TournamentError as err:
        return f"⚠️ {escape(err.message)}"
    fours, threes = sizes.count(4), sizes.count(3)
    parts = []
    if fours:
        parts.append(f"{fours} Vierertisch" + ("e" if fours > 1 else ""))
    if threes:
        parts.append(f"{threes} Dreiertisch" + ("e" if threes > 1 else ""))
    return "Tische: " + " + ".join(parts)


def tables_lines(tables: Sequence[Sequence[str]]) -> list[str]:
    return [f"Tisch {i}: {_names_line(table)}" for i, table in enumerate(tables, 1)]


# --- /turnier ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateTournament:
    name: str


@dataclass(frozen=True)
class EndTournament:
    confirmed: bool  # "/turnier ende ja"
    # what everyone may read, for the refusal of someone not managing the tournament
    readable: ClassVar[str] = tournament_season.READABLE


def parse(cmd: Command) -> CreateTournament | EndTournament:
    if tournament_season.is_end(cmd.args):
        return EndTournament(confirmed=len(cmd.args) == 2)
    name = collapse(cmd.rest)
    if not name:
        raise RuleError("Wie heißt das Turnier?", hint="Z. B. /turnier Preisskat Vereinsheim")
    if len(name) > MAX_TOURNAMENT_NAME:
        raise RuleError(
            "Der Turniername ist zu lang.", hint=f"Höchstens {MAX_TOURNAMENT_NAME} Zeichen."
        )
    if any(unicodedata.category(c) in ("Cc", "Cf") and c != "\u200d" for c in name):
        raise RuleError(
            "Der Turniername enthält Steuerzeichen.", hint="Nur sichtbare Zeichen verwenden."
        )
    return CreateTournament(name)


def turnier(session: Session, place: Place, request: CreateTournament | EndTournament) -> Reply:
    """A place that keeps lists becomes a desk; at a desk the next tournament starts once
    the last has ended. (A league's desk or a host's chat: the route serves neither.)"""
    if isinstance(request, EndTournament):
        if place.tournament is None:  # a place with lists: no tournament to end
            raise RuleError(
                f"In {place.here} läuft kein Turnier.", hint="Lege eins an mit /turnier NAME."
            )
        return ending.ende(session, place, confirmed=request.confirmed)
    existing = place.tournament
    if existing is not None and existing.closed_at is None:
        raise RuleError(
            f"In {place.here} läuft schon das Turnier „{existing.name}“.",
            hint="Hier läuft ein Turnier zur Zeit: erst /turnier ende (Turnierleitung), "
            "dann /turnier NAME für das nächste.",
        )
    ensure_chat(session, place.id)
    if lists_store.open_list(session, place.id) is not None:
        raise RuleError(
            f"In {place.here} läuft noch eine Liste.",
            hint="Schließ sie zuerst mit /abschluss ab, dann /turnier NAME.",
        )
    asker = place.asker
    t = trepo.create_tournament(
        session, place.id, request.name, seed=secrets.token_hex(4), user_id=asker.user_id,
        user_name=asker.name,
    )  # fmt: skip
    desk = "dieses Thema" if place.thread_id else "dieser Chat"
    head = f"🏆 <b>Turnier „{escape(t.name)}“</b> angelegt – {desk} ist die Turnierleitung."
    if existing is not None:
        head += f" (Turnier {t.number} hier; die früheren: /turniere)"
    lines = [
        head,
        f"Verwaltet von {escape(asker.name or 'dir')}. "
        f"Serienlänge: {texts.games(t.games_3)} am Dreiertisch, {t.games_4} am Vierertisch "
        "(/serienlaenge 36 48).",
        "Weiter: /teilnehmer Anna, Bernd, Carla, … (Komma oder neue Zeile), dann /auslosen.",
    ]
    return Reply("\n".join(lines))


# --- /export ----------------------------------------------------------------------------------


def export_document(session: Session, t: Tournament) -> dict[str, object]:
    """The ``skatbot-turnier/1`` JSON of docs/rules.md §11."""
    done = trepo.load_series(session, t)
    people = trepo.participants(session, t)
    ranked, complete, _ = ranking_of(t, done)
    series = []
    for s in done:
        results = [
            {
                "table": i,
                "name": name,
                "game_points": s.results[name].game_points,
                "won": s.results[name].won,
                "lost": s.results[name].lost,
            }
            for i, table in enumerate(s.tables, 1)
            for name in table
            if name in s.results
        ]
        series.append(
            {
                "number": s.number,
                "seed": s.row.seed,
                "tables": s.tables,
                "participants": sorted(
                    (n for table in s.tables for n in table), key=tr.name_sort_key
                ),  # the draw's input: with seed and number it recomputes the tables
                "complete": s.number in complete,
                "missing": tr.missing_results(s.tables, s.results),
                "results": results,
            }
        )
    data: dict[str, object] = {
        "format": EXPORT_FORMAT,
        "name": t.name,
        "seed": t.seed,
        "series_games": {"3": t.games_3, "4": t.games_4},
        "number": t.number,
        "created": tournament_season.day_of(t).isoformat(),
        "closed": berlin_time(t.closed_at).date().isoformat() if t.closed_at else None,
        "counting": counting_of(t).code or "summe",
        "participants": [p.name for p in people],
        "late_or_left": [
            {
                "name": p.name,
                "from_series": p.from_series,
                "left_from": p.left_from,
                "refunded": p.refunded,
            }
            for p in people
            if p.from_series > 1 or p.left_from is not None
        ],
        "roster_log": [
            {
                "name": r.name,
                "action": r.action,
                "series": r.series,
                "by": r.user_name,
                "at": berlin_time(r.created_at).isoformat(timespec="seconds"),
            }
            for r in trepo.roster_log(session, t)
        ],
        "series": series,
        "ranked_series": complete,
        "ranking": [
            {
                "rank": r.place,
                "name": r.standing.name,
                "score": r.standing.score,
                "won": r.standing.won,
                "lost": r.standing.lost,
                "by_lot": r.by_lot,
            }
            for r in ranked
        ],
    }
    teams_uc.add_export_fields(session, t, data, series, [s.row for s in done], ranked)
    return data


def export(session: Session, cmd: Command) -> Reply:
    t, rest = tournament_season.pick(session, cmd, cmd.args)
    if rest:
        raise RuleError(
            f"„{rest[0][:20]}“ kenne ich bei /export nicht.",
            hint="/export oder /export turnier 1 (die Nummern zeigt /turniere)",
        )
    data = export_document(session, t)
    cash.add_tournament_export_money(session, t, data)
    raw = json.dumps(data, ensure_ascii=False, indent=2).encode()
    doc = Document(EXPORT_FILENAME, raw, f"Turnier als JSON ({EXPORT_FORMAT})")
    n = len(data["series"])  # type: ignore[arg-type]
    shown = tournament_season.shown_line(session, t)
    return Reply(
        f"📎 Export des Turniers „{escape(t.name)}“ ({texts.series_count(n)})."
        + (f"\n{shown}" if shown else ""),
        documents=(doc,),
    )
