"""``/auslosen``: the tables of the next series, drawn (a seed, given or new), seated by the
ranking (``setzliste``) or the latest draw taken back (``zurück``, asked first); and the
one-tap button "Nächste Serie auslosen". The draw itself is :mod:`skatbot.rules.tournament`'s
(reproducible: ``/hilfe auslosung``)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.storage import questions
from skatbot.storage import tournament as trepo
from skatbot.storage.tournament_models import Series, Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm, texts
from skatbot.usecases.common.confirm import Shown
from skatbot.usecases.common.names import full_stop
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Answer, Command, Reply
from skatbot.usecases.common.rights import owns
from skatbot.usecases.tournament import tables as tournament_tables
from skatbot.usecases.tournament import teams as teams_uc
from skatbot.usecases.tournament import tournament_season
from skatbot.usecases.tournament.bridge import command_at
from skatbot.usecases.tournament.desk import tables_lines
from skatbot.usecases.tournament.result_entry import RESULT_EXAMPLE
from skatbot.usecases.tournament.results import full_ranking, games_of, names_line, series_span
from skatbot.usecases.tournament.roster import present

SEED_DIGITS = 6
UNDO_WORDS = {"zurück", "zurueck", "rückgängig", "rueckgaengig"}


@dataclass(frozen=True)
class Draw:
    seed: str | None  # given ("/auslosen 4711"); None: a new one
    seeding: bool = False  # "/auslosen setzliste": seated by the ranking


@dataclass(frozen=True)
class TakeBack:
    confirmed: bool  # "/auslosen zurück ja"


def parse(cmd: Command) -> Draw | TakeBack:
    words = list(cmd.args)
    if words and words[0].casefold() in UNDO_WORDS:
        rest = [w.casefold() for w in words[1:]]
        if rest not in ([], ["ja"]):
            raise RuleError(
                "Das kenne ich bei /auslosen zurück nicht.",
                hint="Erst /auslosen zurück, dann /auslosen zurück ja.",
            )
        return TakeBack(confirmed=rest == ["ja"])
    if len(words) > 1:
        raise RuleError(
            "Höchstens ein Startwert.",
            hint="Z. B. /auslosen 4711, nur /auslosen oder /auslosen setzliste",
        )
    if not words:
        return Draw(None)
    if words[0].casefold() == tr.SETZLISTE:
        return Draw(None, seeding=True)
    return Draw(tr.validate_seed(words[0]))


def auslosen(session: Session, place: Place, request: Draw | TakeBack) -> Reply:
    t = tournament_season.running_at(place)
    if isinstance(request, TakeBack):
        return _take_back(session, place, t, request.confirmed)
    return _draw(session, place, t, request)


# --- a draw -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Seated:
    tables: list[list[str]]
    apart: dict[str, str]  # the teams kept apart
    how: list[str]  # how the tables came about (seed or Setzliste), reproducibly


def _draw(session: Session, place: Place, t: Tournament, request: Draw) -> Reply:
    done = trepo.load_series(session, t)
    names = present(trepo.participants(session, t), len(done) + 1)
    tr.table_sizes(len(names))
    if request.seeding and not done:
        raise RuleError(
            "Für eine Setzliste braucht es eine Rangliste.",
            hint="Die erste Serie wird gelost: /auslosen (oder /auslosen STARTWERT).",
        )
    seed = tr.SETZLISTE if request.seeding else (request.seed or _new_seed())
    _refuse_missing(done, request.seeding)
    number = len(done) + 1
    if request.seeding:
        seated = _seed_by_ranking(session, t, done, names, number)
    else:
        tables, apart = teams_uc.draw(session, t, names, seed, number, [s.tables for s in done])
        how = f"Startwert {escape(seed)} · Serie {number} – nachrechenbar: /hilfe auslosung"
        seated = _Seated(tables, apart, [how])
    asker = place.asker
    row = trepo.add_series(
        session, t, number, seed, seated.tables, user_id=asker.user_id, update_id=asker.update_id
    )
    team_line = teams_uc.after_draw(row, seated.tables, seated.apart)
    table_lines, topics, posts, buttons = tournament_tables.after_draw(
        session, command_at(place, "/auslosen"), t, row, seated.tables
    )
    lines = [f"🎲 <b>Serie {number}</b> ausgelost – {escape(t.name)}"]
    lines.extend(tables_lines(seated.tables))
    lines.append(_lengths_line(t, seated.tables))
    lines.extend(_changes_lines(done, names, seated.tables))
    if team_line:
        lines.append(team_line)
    lines.extend(seated.how)
    lines.extend(table_lines)
    lines.append("Ergebnisse von Hand: " + RESULT_EXAMPLE + ", mehrere Zeilen pro Nachricht.")
    return Reply("\n".join(lines), topics=topics, posts=posts, buttons=buttons)


def _refuse_missing(done: Sequence[trepo.LoadedSeries], seeding: bool) -> None:
    """The next series is drawn once the last one is complete."""
    if not done:
        return
    current = done[-1]
    missing = tr.missing_results(current.tables, current.results)
    if missing:
        raise RuleError(
            f"In Serie {current.number} fehlen noch Ergebnisse von "
            + full_stop(", ".join(missing)),
            # the example names who is missing, with numbers a whole table can have
            hint=f"Erst alle eintragen: /ergebnis {missing[0]} 345 8 3 (Name, Spielpunkte, "
            "gewonnen, verloren) – dann " + ("/auslosen setzliste." if seeding else "/auslosen."),
        )


def _seed_by_ranking(
    session: Session,
    t: Tournament,
    done: Sequence[trepo.LoadedSeries],
    names: Sequence[str],
    number: int,
) -> _Seated:
    full = full_ranking(t, done)
    ranked = [r.standing.name for r in full.ranked]
    order = tr.seeding_order(ranked, names, t.seed)
    apart = teams_uc.apart(session, t, names)
    how = [
        f"Setzliste nach der Rangliste ({series_span(full.complete)}): Platz 1–4 an Tisch 1 "
        f"und so weiter · Serie {number} – nachrechenbar: /hilfe auslosung"
    ]
    unplaced = [n for n in order if n not in set(ranked)]
    if unplaced:
        how.append(f"Ohne Platz, nach dem Los dahinter: {names_line(unplaced)}")
    return _Seated(tr.seeded_tables(order, apart), apart, how)


def _lengths_line(t: Tournament, tables: Sequence[Sequence[str]]) -> str:
    games = games_of(t)
    lengths = sorted({len(table) for table in tables})
    return "Serienlänge: " + ", ".join(
        f"{texts.games(games[n])} am {'Dreier' if n == 3 else 'Vierer'}tisch" for n in lengths
    )


def _changes_lines(
    done: Sequence[trepo.LoadedSeries], names: Sequence[str], tables: Sequence[Sequence[str]]
) -> list[str]:
    """Repeated partners over all series, and who came and went since the last one."""
    if not done:
        return []
    lines = []
    repeats = tr.partner_repeats([*[s.tables for s in done], tables])
    if repeats:
        lines.append(f"Wiederholte Tischpartner (alle Serien): {repeats} Paare.")
    before = {n for table in done[-1].tables for n in table}
    came = [n for n in names if n not in before]
    went = sorted(before - set(names), key=tr.name_sort_key)
    if came:
        lines.append(f"Neu dabei: {names_line(came)}")
    if went:
        lines.append(f"Nicht mehr dabei: {names_line(went)}")
    return lines


def _new_seed() -> str:
    low = 10 ** (SEED_DIGITS - 1)
    return tr.seed_from_int(low + secrets.randbelow(9 * low))


# --- /auslosen zurück -------------------------------------------------------------------------


def _draw_shown(session: Session, t: Tournament, series: Series) -> Shown:
    """A draw as ``/auslosen zurück`` names it (the tournament's state: what goes with it)."""
    seed = "Setzliste" if series.seed == tr.SETZLISTE else f"Startwert {series.seed}"
    return Shown(
        f"draw:{series.id}",
        questions.thing_state(session, "tournaments", t.id),
        f"die Auslosung von Serie {series.number} ({seed}) im Turnier „{t.name}“",
    )


def _take_back(session: Session, place: Place, t: Tournament, confirmed: bool) -> Reply:
    """``/auslosen zurück`` (asks) and ``/auslosen zurück ja``: the latest draw taken back
    while nothing was played or entered for it."""
    done = trepo.load_series(session, t)
    if not done:
        raise RuleError(
            "Es ist noch keine Serie ausgelost – nichts zurückzunehmen.", hint="/auslosen"
        )
    last = done[-1]
    _refuse_booked(session, last)
    if not confirmed:
        return _ask_take_back(session, place, t, last)
    # the sender's own question, about this draw with the tournament as it was then
    confirm.answer(
        session,
        command_at(place),
        confirm.TAKE_BACK_DRAW,
        lambda _target: _draw_shown(session, t, last.row),
        again="/auslosen zurück",
        undone="nichts zurückgenommen",
    )
    gone, posts = tournament_tables.take_back(session, t, last.row)
    moved = _carry_roster_changes(session, t, last.number)
    lines = [
        f"↩️ <b>Auslosung von Serie {last.number} zurückgenommen</b> – {escape(t.name)}. "
        f"Die Tischcodes gelten nicht mehr.",
    ]
    if moved:
        lines.append("Gilt jetzt für die neue Auslosung: " + "; ".join(moved) + ".")
    lines.append(
        f"Neu auslosen: /auslosen (oder /auslosen STARTWERT) – wieder Serie {last.number}."
    )
    buttons: tuple[tuple[tuple[str, str], ...], ...] = ()
    if last.number > 1:  # the one-tap draw of the series again (the series before is complete)
        data = f"{tournament_tables.DRAW_PREFIX}{t.id}:{last.number - 1}"
        buttons = (((tournament_tables.DRAW_LABEL, data),),)
    return Reply("\n".join(lines), buttons=buttons, gone_topics=gone, posts=posts)


def _refuse_booked(session: Session, last: trepo.LoadedSeries) -> None:
    reason = tournament_tables.booked_reason(session, last.row)
    if last.results:
        count = len(last.results)
        reason = (
            f"für sie {'ist 1 Ergebnis' if count == 1 else f'sind {count} Ergebnisse'} eingetragen"
        )
    if reason:
        raise RuleError(
            f"Die Auslosung von Serie {last.number} lässt sich nicht mehr zurücknehmen: {reason}.",
            hint="Zurücknehmen geht nur, solange an ihren Tischen nichts gebucht ist; "
            "Ergebnisse korrigiert /ergebnis, Spiele /korrigieren am Tisch.",
        )


def _ask_take_back(
    session: Session, place: Place, t: Tournament, last: trepo.LoadedSeries
) -> Reply:
    confirm.ask(
        session, command_at(place), confirm.TAKE_BACK_DRAW, _draw_shown(session, t, last.row)
    )
    seed = "Setzliste" if last.row.seed == tr.SETZLISTE else f"Startwert {escape(last.row.seed)}"
    lines = [
        f"❓ <b>Auslosung von Serie {last.number} zurücknehmen?</b> ({seed})",
        "Ihre Tischlisten werden gelöscht, die Themen des Bots dafür entfernt, die "
        "Tischcodes gelten nicht mehr; danach neu auslosen mit /auslosen.",
        "👉 Zum Bestätigen: /auslosen zurück ja",
    ]
    return Reply("\n".join(lines))


def _carry_roster_changes(session: Session, t: Tournament, number: int) -> list[str]:
    """A change for "the next series" stays so: from series ``number + 1`` becomes from
    ``number`` again."""
    moved = []
    for p in trepo.participants(session, t):
        if p.from_series == number + 1:
            p.from_series = number
            moved.append(f"{escape(p.name)} ab Serie {number}")
        if p.left_from == number + 1:
            if number == 1:  # leaves before the first series: never played
                trepo.remove_participant(session, p)
                moved.append(f"{escape(p.name)} gestrichen (vor der ersten Serie abgemeldet)")
                continue
            p.left_from = number
            moved.append(f"{escape(p.name)} abgemeldet ab Serie {number}")
    return moved


# --- the button "Nächste Serie auslosen" ------------------------------------------------------


@dataclass(frozen=True)
class DrawTap:
    tournament_id: int
    drawn: int  # the series drawn when the button was made


@dataclass(frozen=True)
class StaleTap:
    pass


def parse_tap(cmd: Command) -> DrawTap | StaleTap:
    parts = cmd.text.removeprefix(tournament_tables.DRAW_PREFIX).split(":")
    if len(parts) != 2 or not all(is_number(p) for p in parts):
        return StaleTap()
    return DrawTap(int(parts[0]), int(parts[1]))


def draw_tap(session: Session, place: Place, request: DrawTap | StaleTap) -> Answer:
    """One tap = /auslosen with a fresh seed, by whoever created the tournament. (At a place
    with lists, its tournament deleted, the button is stale.)"""
    if isinstance(request, StaleTap):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    t = place.tournament
    if t is None or t.id != request.tournament_id or t.closed_at is not None:
        return Answer(notice="Dieser Knopf gilt nicht mehr.", buttons=())
    if not owns(place.asker.user_id, t.created_by):
        # a tap cannot ask Telegram whether the tapper is an admin: the admins use the command
        raise RuleError(
            f"Diesen Knopf tippt, wer das Turnier „{t.name}“ angelegt hat.",
            hint="Die Admins des Chats losen mit /auslosen aus.",
        )
    if trepo.series_count(session, t) != request.drawn:
        return Answer(notice="Die nächste Serie ist schon ausgelost.", buttons=())
    reply = _draw(session, place, t, Draw(None))
    return Answer(notice="Ausgelost.", buttons=(), send=reply)
