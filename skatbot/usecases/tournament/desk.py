"""Use cases of a Preisskat tournament desk (docs/rules.md §7). Each is ``op(session, cmd) -> Reply``.

A chat or topic becomes the desk of the tournament management ("Turnierleitung") with
``/turnier NAME``; its tournaments follow each other there (ending one, ``/turniere`` and a
tournament number on the read-only commands: :mod:`skatbot.usecases.tournament.tournament_season`). The
draw, the Setzliste, validation, scores, counting rules and rankings are the pure functions of
:mod:`skatbot.rules.tournament` and :mod:`skatbot.rules.ranking`; this module parses, stores
and words the replies.

Who may manage: the managing commands (``/teilnehmer`` with names, ``/entfernen``,
``/auslosen`` with its ``setzliste`` and ``zurück``, ``/serienlaenge``, ``/turnierregeln``,
``/ergebnis``, flagged ``admin`` in routes.py) are allowed for the person who created the
tournament and the chat's admins, and only while it runs. A sync use case cannot ask Telegram,
so the registry asks (getChatMember) before the transaction and passes ``Command.is_admin``;
everybody else gets a German refusal naming the creator. Reading (``/teilnehmer`` alone,
``/fehlend``, ``/rangliste``, ``/urkunden``, ``/export``) is open to everyone in the chat.

After the first draw the participant list changes only from the next series on: a late
arrival has ``from_series``, a departure ``left_from``, each change a row of the
tournament's log; a series is drawn from the participants present for it.

Results are append-only: entering a player's result again for the same series adds a row and
the latest one counts (``/ergebnis`` says "korrigiert"), so the audit trail stays complete.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import json
import re
import secrets
import unicodedata
from collections.abc import Callable, Sequence
from fractions import Fraction
from html import escape

from skatbot.rules import tournament as tr
from skatbot.rules.calendar import berlin_time
from skatbot.rules.errors import RuleError
from skatbot.rules.money import format_money
from skatbot.rules.numbers import is_number
from skatbot.rules.ranking import Ranked, lot_note
from skatbot.rules.scoring import minus_sign
from skatbot.storage import lists as lists_store
from skatbot.storage import questions
from skatbot.storage import tournament as trepo
from skatbot.storage.database import ensure_chat, lock_chat
from skatbot.storage.tournament_models import Participant, Series, Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm, rich, texts
from skatbot.usecases.common.confirm import Shown
from skatbot.usecases.common.names import check_unique, clean_name, full_stop, match_words
from skatbot.usecases.common.place_kinds import Becoming, refuse_other_kind
from skatbot.usecases.common.places import owns
from skatbot.usecases.common.reply import Answer, Command, Document, Reply
from skatbot.usecases.tournament import cash, ending, tournament_season
from skatbot.usecases.tournament import tables as tournament_tables
from skatbot.usecases.tournament import teams as teams_uc
from skatbot.usecases.tournament.access import require_manager
from skatbot.usecases.tournament.results import (
    counting_of,
    full_ranking,
    ranking_of,
    record_results,
    series_ranking,
    series_span,
)
from skatbot.usecases.tournament.results import games_of as _games
from skatbot.usecases.tournament.results import missing_text as _missing_text
from skatbot.usecases.tournament.results import names_line as _names_line
from skatbot.usecases.tournament.series_length import MAX_SERIES_GAMES

MAX_TOURNAMENT_NAME = 64
MAX_PARTICIPANTS = 1000
PDF_SUMMARY_PLACES = 3  # places named in the chat when the ranking comes as PDF
MAX_GAME_POINTS = 99_999
SEED_DIGITS = 6
EXPORT_FORMAT = "skatbot-turnier/1"
EXPORT_FILENAME = "skatbot-turnier-v1.json"
RESULT_EXAMPLE = "/ergebnis Anna 345 12 3 (Name, Spielpunkte, gewonnen, verloren)"


# --- helpers ----------------------------------------------------------------------------------


def is_tournament_chat(session: Session, chat_id: int) -> bool:
    return trepo.tournament_of(session, chat_id) is not None


def _require(session: Session, cmd: Command) -> Tournament:
    """The place's latest tournament, running or ended (what reading shows)."""
    t = trepo.tournament_of(session, cmd.place_id)
    if t is None:
        raise RuleError(
            f"In {cmd.here} läuft kein Turnier.", hint="Lege eins an mit /turnier NAME."
        )
    return t


def _running(session: Session, cmd: Command) -> Tournament:
    """The tournament the management changes: the latest, unless it has ended."""
    return tournament_season.running(session, cmd)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _match(word: str, names: Sequence[str]) -> str | None:
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


def _unknown(word: str, names: Sequence[str], prefix: str = "") -> RuleError:
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


def _table_plan(n: int) -> str:
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


def _tables_lines(tables: Sequence[Sequence[str]]) -> list[str]:
    return [f"Tisch {i}: {_names_line(table)}" for i, table in enumerate(tables, 1)]


# --- /turnier ---------------------------------------------------------------------------------


def turnier(session: Session, cmd: Command) -> Reply:
    if tournament_season.is_end(cmd.args):
        return ending.ende(session, cmd)
    name = _collapse(cmd.rest)
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
    ensure_chat(session, cmd.place_id, lock=True)
    refuse_other_kind(session, cmd, Becoming.TOURNAMENT_DESK)
    existing = trepo.tournament_of(session, cmd.place_id)
    if existing is not None and existing.closed_at is None:
        raise RuleError(
            f"In {cmd.here} läuft schon das Turnier „{existing.name}“.",
            hint="Hier läuft ein Turnier zur Zeit: erst /turnier ende (Turnierleitung), "
            "dann /turnier NAME für das nächste.",
        )
    if lists_store.open_list(session, cmd.place_id) is not None:
        raise RuleError(
            f"In {cmd.here} läuft noch eine Liste.",
            hint="Schließ sie zuerst mit /abschluss ab, dann /turnier NAME.",
        )
    t = trepo.create_tournament(
        session,
        cmd.place_id,
        name,
        seed=secrets.token_hex(4),
        user_id=cmd.user_id,
        user_name=cmd.user_name,
    )
    desk = "dieses Thema" if cmd.thread_id else "dieser Chat"
    head = f"🏆 <b>Turnier „{escape(t.name)}“</b> angelegt – {desk} ist die Turnierleitung."
    if existing is not None:
        head += f" (Turnier {t.number} hier; die früheren: /turniere)"
    lines = [
        head,
        f"Verwaltet von {escape(cmd.user_name or 'dir')}. "
        f"Serienlänge: {texts.games(t.games_3)} am Dreiertisch, {t.games_4} am Vierertisch "
        "(/serienlaenge 36 48).",
        "Weiter: /teilnehmer Anna, Bernd, Carla, … (Komma oder neue Zeile), dann /auslosen.",
    ]
    return Reply("\n".join(lines))


# --- /teilnehmer, /entfernen ------------------------------------------------------------------


REFUND_WORDS = {"erstatten", "erstattet", "erstattung"}


def teilnehmer(session: Session, cmd: Command) -> Reply:
    rest = cmd.rest
    if not rest.strip():
        t = _require(session, cmd)
        return Reply(_participant_list(session, t))
    lock_chat(session, cmd.place_id)
    t = _running(session, cmd)
    require_manager(t, cmd)
    entries = [(clean_name(name), team) for name, team in teams_uc.split_entries(rest)]
    new = [name for name, _ in entries]
    check_unique(new)
    existing = trepo.participants(session, t)
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
    if len(existing) + len(new) > MAX_PARTICIPANTS:
        raise RuleError(f"Höchstens {MAX_PARTICIPANTS} Teilnehmer.", hint="Bitte die Liste prüfen.")
    drawn = trepo.series_count(session, t)
    if drawn:  # a late arrival: from the next draw on, the drawn series stays as it is
        trepo.add_late(session, t, new, drawn + 1)
        for name in new:
            trepo.log_roster(
                session, t, name, "join", drawn + 1,
                user_id=cmd.user_id, user_name=cmd.user_name, update_id=cmd.update_id,
            )  # fmt: skip
    else:
        trepo.add_participants(session, t, new)
    teams_uc.assign_new(session, t, dict(entries))
    added = "1 Teilnehmer" if len(new) == 1 else f"{len(new)} Teilnehmer"
    if not drawn:
        return Reply(
            f"✅ {added} eingetragen: {full_stop(_names_line(new))}\n"
            + _participant_list(session, t)
        )
    lines = [
        f"✅ Nachgemeldet: {_names_line(new)} – ab Serie {drawn + 1} dabei. Die ausgeloste "
        f"Serie {drawn} bleibt, wie sie ist."
    ]
    entry = cash.fees_of(session, t).entry
    if entry:
        lines.append(f"Startgeld {format_money(entry)} je Nachmeldung (/abrechnung).")
    return Reply("\n".join([*lines, _participant_list(session, t)]))


def present(people: Sequence[Participant], series: int) -> list[str]:
    """The names drawn for series number ``series``."""
    return [p.name for p in people if p.plays(series)]


def _participant_list(session: Session, t: Tournament) -> str:
    people = trepo.participants(session, t)
    if not people:
        return (
            f"Noch keine Teilnehmer in „{escape(t.name)}“. "
            "Eintragen: /teilnehmer Anna, Bernd, Carla"
        )
    drawn = trepo.series_count(session, t)
    lines = [f"👥 <b>Teilnehmer ({len(people)})</b> – {escape(t.name)}"]
    for i, p in enumerate(people, 1):
        line = f"{i}. {escape(p.name)}" + (f" [{escape(p.team)}]" if p.team else "")
        if p.from_series > 1:
            line += f" (ab Serie {p.from_series})"
        if p.left_from is not None:
            line += f" (abgemeldet ab Serie {p.left_from}"
            line += ", Startgeld erstattet)" if p.refunded else ")"
        lines.append(line)
    playing = present(people, drawn + 1)
    if drawn and len(playing) != len(people):
        lines.append(f"Serie {drawn + 1}: {len(playing)} dabei.")
    lines.append(_table_plan(len(playing)))
    if drawn:
        lines.append(
            f"Nachmelden: /teilnehmer NAME · abmelden: /entfernen NAME – gilt ab Serie "
            f"{drawn + 1}; ausgeloste Serien bleiben, wie sie sind."
        )
        lines.extend(_log_lines(session, t))
    return "\n".join(lines)


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


def entfernen(session: Session, cmd: Command) -> Reply:
    word = _collapse(cmd.rest)
    if not word:
        raise RuleError("Wen soll ich entfernen?", hint="Z. B. /entfernen Anna")
    refund = False
    if len(word.split()) > 1 and word.split()[-1].casefold() in REFUND_WORDS:
        refund, word = True, " ".join(word.split()[:-1])
    lock_chat(session, cmd.place_id)
    t = _running(session, cmd)
    require_manager(t, cmd)
    people = trepo.participants(session, t)
    names = [p.name for p in people]
    found = _match(word, names)
    if found is None:
        raise _unknown(word, names)
    p = next(p for p in people if p.name == found)
    drawn = trepo.series_count(session, t)
    if not drawn:
        if refund:
            raise RuleError(
                "Vor der ersten Auslosung gibt es nichts zu erstatten.",
                hint=f"/entfernen {found} streicht den Namen ganz.",
            )
        trepo.remove_participant(session, p)
        return Reply(f"🗑 {escape(found)} ist nicht mehr dabei.\n" + _participant_list(session, t))
    log = dict(user_id=cmd.user_id, user_name=cmd.user_name, update_id=cmd.update_id)
    if p.left_from is not None:
        if not refund or p.refunded:
            raise RuleError(
                f"{found} ist schon abgemeldet (ab Serie {p.left_from}).",
                hint=f"Startgeld erstatten: /entfernen {found} erstatten"
                if not p.refunded
                else "Es ist auch schon erstattet.",
            )
        p.refunded = True
        trepo.log_roster(session, t, found, "refund", p.left_from, **log)  # type: ignore[arg-type]
        return Reply(
            f"💶 {escape(found)} bekommt das Startgeld erstattet.\n" + _participant_list(session, t)
        )
    if p.from_series > drawn:  # arrived, not drawn yet: the arrival is taken back
        if refund:
            raise RuleError(
                f"{found} hat noch nicht gespielt – es gibt nichts zu erstatten.",
                hint=f"/entfernen {found} nimmt die Nachmeldung zurück.",
            )
        trepo.log_roster(session, t, found, "unjoin", p.from_series, **log)  # type: ignore[arg-type]
        trepo.remove_participant(session, p)
        return Reply(
            f"🗑 Nachmeldung von {escape(found)} zurückgenommen.\n" + _participant_list(session, t)
        )
    p.left_from, p.refunded = drawn + 1, refund
    trepo.log_roster(session, t, found, "leave", drawn + 1, **log)  # type: ignore[arg-type]
    played = "Serie 1" if drawn == 1 else f"Serien 1–{drawn}"
    fee = (
        "Das Startgeld wird erstattet."
        if refund
        else f"Das Startgeld bleibt (erstatten: /entfernen {escape(found)} erstatten)."
    )
    return Reply(
        f"🚪 {escape(found)} ist ab Serie {drawn + 1} nicht mehr dabei; {played} bleibt "
        f"gewertet. {fee}\n" + _participant_list(session, t)
    )


# --- /serienlaenge ----------------------------------------------------------------------------


# --- /auslosen --------------------------------------------------------------------------------


UNDO_WORDS = {"zurück", "zurueck", "rückgängig", "rueckgaengig"}


def auslosen(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    lock_chat(session, cmd.place_id)
    t = _running(session, cmd)
    require_manager(t, cmd)
    if words and words[0].casefold() in UNDO_WORDS:
        return _take_back(session, cmd, t, [w.casefold() for w in words[1:]])
    seeding = bool(words) and words[0].casefold() == tr.SETZLISTE
    if len(words) > 1:
        raise RuleError(
            "Höchstens ein Startwert.",
            hint="Z. B. /auslosen 4711, nur /auslosen oder /auslosen setzliste",
        )
    done = trepo.load_series(session, t)
    people = trepo.participants(session, t)
    names = present(people, len(done) + 1)
    tr.table_sizes(len(names))
    if seeding:
        seed = tr.SETZLISTE
        if not done:
            raise RuleError(
                "Für eine Setzliste braucht es eine Rangliste.",
                hint="Die erste Serie wird gelost: /auslosen (oder /auslosen STARTWERT).",
            )
    else:
        seed = tr.validate_seed(words[0]) if words else _new_seed()
    if done:
        current = done[-1]
        missing = tr.missing_results(current.tables, current.results)
        if missing:
            raise RuleError(
                f"In Serie {current.number} fehlen noch Ergebnisse von "
                + full_stop(", ".join(missing)),
                hint=f"Erst alle eintragen: {RESULT_EXAMPLE} – dann "
                + ("/auslosen setzliste." if seeding else "/auslosen."),
            )
    number = len(done) + 1
    if seeding:
        full = full_ranking(t, done)
        order = tr.seeding_order([r.standing.name for r in full.ranked], names, t.seed)
        apart = teams_uc.apart(session, t, names)
        tables = tr.seeded_tables(order, apart)
    else:
        tables, apart = teams_uc.draw(session, t, names, seed, number, [s.tables for s in done])
    row = trepo.add_series(
        session, t, number, seed, tables, user_id=cmd.user_id, update_id=cmd.update_id
    )
    team_line = teams_uc.after_draw(row, tables, apart)
    table_lines, topics, posts, buttons = tournament_tables.after_draw(session, cmd, t, row, tables)
    lines = [f"🎲 <b>Serie {number}</b> ausgelost – {escape(t.name)}"]
    lines.extend(_tables_lines(tables))
    games = _games(t)
    lengths = sorted({len(table) for table in tables})
    lines.append(
        "Serienlänge: "
        + ", ".join(
            f"{texts.games(games[n])} am {'Dreier' if n == 3 else 'Vierer'}tisch" for n in lengths
        )
    )
    if number > 1:
        repeats = tr.partner_repeats([*[s.tables for s in done], tables])
        if repeats:
            lines.append(f"Wiederholte Tischpartner (alle Serien): {repeats} Paare.")
    if done:
        before = {n for table in done[-1].tables for n in table}
        came = [n for n in names if n not in before]
        went = sorted(before - set(names), key=tr.name_sort_key)
        if came:
            lines.append(f"Neu dabei: {_names_line(came)}")
        if went:
            lines.append(f"Nicht mehr dabei: {_names_line(went)}")
    if team_line:
        lines.append(team_line)
    if seeding:
        unplaced = [n for n in order if n not in {r.standing.name for r in full.ranked}]
        lines.append(
            f"Setzliste nach der Rangliste ({series_span(full.complete)}): Platz 1–4 an Tisch 1 "
            f"und so weiter · Serie {number} – nachrechenbar: /hilfe auslosung"
        )
        if unplaced:
            lines.append(f"Ohne Platz, nach dem Los dahinter: {_names_line(unplaced)}")
    else:
        lines.append(f"Startwert {escape(seed)} · Serie {number} – nachrechenbar: /hilfe auslosung")
    lines.extend(table_lines)
    lines.append("Ergebnisse von Hand: " + RESULT_EXAMPLE + ", mehrere Zeilen pro Nachricht.")
    return Reply("\n".join(lines), topics=topics, posts=posts, buttons=buttons)


def _draw_shown(session: Session, t: Tournament, series: Series) -> Shown:
    """A draw as ``/auslosen zurück`` names it (the tournament's state: what goes with it)."""
    seed = "Setzliste" if series.seed == tr.SETZLISTE else f"Startwert {series.seed}"
    return Shown(
        f"draw:{series.id}",
        questions.thing_state(session, "tournaments", t.id),
        f"die Auslosung von Serie {series.number} ({seed}) im Turnier „{t.name}“",
    )


def _take_back(session: Session, cmd: Command, t: Tournament, rest: list[str]) -> Reply:
    """``/auslosen zurück`` (asks) and ``/auslosen zurück ja``: the latest draw taken back
    while nothing was played or entered for it."""
    if rest not in ([], ["ja"]):
        raise RuleError(
            "Das kenne ich bei /auslosen zurück nicht.",
            hint="Erst /auslosen zurück, dann /auslosen zurück ja.",
        )
    done = trepo.load_series(session, t)
    if not done:
        raise RuleError(
            "Es ist noch keine Serie ausgelost – nichts zurückzunehmen.", hint="/auslosen"
        )
    last = done[-1]
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
    if not rest:
        confirm.ask(session, cmd, confirm.TAKE_BACK_DRAW, _draw_shown(session, t, last.row))
        lines = [
            f"❓ <b>Auslosung von Serie {last.number} zurücknehmen?</b> ("
            + (
                "Setzliste"
                if last.row.seed == tr.SETZLISTE
                else f"Startwert {escape(last.row.seed)}"
            )
            + ")",
            "Ihre Tischlisten werden gelöscht, die Themen des Bots dafür entfernt, die "
            "Tischcodes gelten nicht mehr; danach neu auslosen mit /auslosen.",
            "👉 Zum Bestätigen: /auslosen zurück ja",
        ]
        return Reply("\n".join(lines))
    # the sender's own question, about this draw with the tournament as it was then
    confirm.answer(
        session,
        cmd,
        confirm.TAKE_BACK_DRAW,
        lambda _target: _draw_shown(session, t, last.row),
        again="/auslosen zurück",
        undone="nichts zurückgenommen",
    )
    gone, posts = tournament_tables.take_back(session, t, last.row)
    moved = []
    for p in trepo.participants(session, t):  # a change for "the next series" stays so
        if p.from_series == last.number + 1:
            p.from_series = last.number
            moved.append(f"{escape(p.name)} ab Serie {last.number}")
        if p.left_from == last.number + 1:
            if last.number == 1:  # leaves before the first series: never played
                trepo.remove_participant(session, p)
                moved.append(f"{escape(p.name)} gestrichen (vor der ersten Serie abgemeldet)")
                continue
            p.left_from = last.number
            moved.append(f"{escape(p.name)} abgemeldet ab Serie {last.number}")
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


def _new_seed() -> str:
    low = 10 ** (SEED_DIGITS - 1)
    return tr.seed_from_int(low + secrets.randbelow(9 * low))


# --- /ergebnis, /fehlend ----------------------------------------------------------------------

_INT = re.compile(r"[+\-]?[0-9]{1,6}")
RESULT_COMMAND = re.compile(r"^/ergebnis(@\w+)?$", re.IGNORECASE)
RESULT_SERIES_LINE = re.compile(r"^serie\s+([0-9]{1,4})$", re.IGNORECASE)


def _to_int(word: str) -> int | None:
    word = word.replace("−", "-").replace("–", "-")
    return int(word) if _INT.fullmatch(word) else None


def parse_result_line(nr: int, line: str, names: Sequence[str]) -> tr.SeriesResult:
    shown = line if len(line) <= 60 else line[:60] + "…"
    where = f"Zeile {nr} („{shown}“): "
    words = line.split()
    numbers = [_to_int(w) for w in words[-3:]]
    trailing = len(words) - next(
        (i + 1 for i in range(len(words) - 1, -1, -1) if _to_int(words[i]) is None), 0
    )
    if trailing > 3 and trailing < len(words):
        typed = " ".join(words[: len(words) - trailing])
        first = " ".join(words[len(words) - trailing :][:3])
        raise RuleError(
            f"{where}{trailing} Zahlen – erwartet sind drei: SPIELPUNKTE GEWONNEN VERLOREN.",
            hint=f"Z. B. /ergebnis {typed} {first} (Name, Spielpunkte, gewonnen, verloren). "
            "Nichts wurde gespeichert.",
        )
    if len(words) < 4 or any(n is None for n in numbers):
        raise RuleError(
            f"{where}erwartet NAME SPIELPUNKTE GEWONNEN VERLOREN.",
            hint="Z. B. " + RESULT_EXAMPLE + ". Nichts wurde gespeichert.",
        )
    points, won, lost = (n for n in numbers if n is not None)
    word = " ".join(words[:-3])
    try:
        name = _match(word, names)
    except RuleError as err:
        raise RuleError(where + err.message, hint=err.hint + " Nichts wurde gespeichert.") from None
    if name is None:
        unknown = _unknown(word, names, where)
        raise RuleError(unknown.message, hint=unknown.hint + " Nichts wurde gespeichert.")
    if won < 0 or lost < 0:
        raise RuleError(
            f"{where}gewonnene und verlorene Spiele können nicht negativ sein.",
            hint="Nichts wurde gespeichert.",
        )
    if abs(points) > MAX_GAME_POINTS:
        raise RuleError(
            f"{where}{minus_sign(points)} Spielpunkte sind unmöglich viele.",
            hint="Bitte die Zahl prüfen. Nichts wurde gespeichert.",
        )
    return tr.SeriesResult(name, points, won, lost)


def parse_result_lines(
    lines: Sequence[str], first: int, names: Sequence[str]
) -> tuple[list[tr.SeriesResult], dict[str, int]]:
    """The result lines of one message (numbered from ``first``) for the players ``names``,
    and the line each name stood in; a name twice is refused, nothing is stored."""
    entered: list[tr.SeriesResult] = []
    line_of: dict[str, int] = {}
    for i, line in enumerate(lines, first):
        r = parse_result_line(i, line, names)
        if r.name in line_of:
            raise RuleError(
                f"Zeile {i}: {escape(r.name)} steht in dieser Nachricht schon in Zeile {line_of[r.name]}.",
                hint="Pro Person nur eine Zeile. Nichts wurde gespeichert.",
            )
        line_of[r.name] = i
        entered.append(r)
    return entered, line_of


def result_lines(text: str) -> list[str]:
    """The result lines of an /ergebnis message: spaces collapsed, a repeated "/ergebnis" at
    the start of a line dropped, empty lines left out."""
    lines = [_collapse(line) for line in text.splitlines()]
    lines = [
        " ".join(line.split()[1:]) if line and RESULT_COMMAND.match(line.split()[0]) else line
        for line in lines
    ]
    return [line for line in lines if line]


def ergebnis(session: Session, cmd: Command) -> Reply:
    lines = result_lines(cmd.rest)
    if not lines:
        raise RuleError(
            "Welches Ergebnis?",
            hint="Z. B. " + RESULT_EXAMPLE + " – eine Zeile pro Person.",
        )
    lock_chat(session, cmd.place_id)
    t = _running(session, cmd)
    require_manager(t, cmd)
    done = trepo.load_series(session, t)
    if not done:
        raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
    target = done[-1]
    offset = 0
    chosen = RESULT_SERIES_LINE.match(lines[0])
    if chosen:
        number = int(chosen.group(1))
        if not 1 <= number <= len(done):
            raise RuleError(
                f"Serie {number} gibt es nicht.", hint=f"Ausgelost: Serie 1 bis {len(done)}."
            )
        target = done[number - 1]
        lines = lines[1:]
        offset = 1
        if not lines:
            raise RuleError("Nach „serie N“ fehlen die Ergebnisse.", hint=RESULT_EXAMPLE)
    seated = [n for table in target.tables for n in table]
    entered, line_of = parse_result_lines(lines, 1 + offset, seated)
    out = record_results(
        session, t, target, entered, user_id=cmd.user_id, update_id=cmd.update_id, line_of=line_of
    )
    return Reply("\n".join(out))


def ergebnis_at_desk(session: Session, place: object, cmd: Command) -> Reply:
    """/ergebnis as a route's target at a Preisskat desk (``parse=None``: the Command)."""
    return ergebnis(session, cmd)


def fehlend(session: Session, cmd: Command) -> Reply:
    t = _require(session, cmd)
    done = trepo.load_series(session, t)
    if not done:
        return Reply("Es ist noch keine Serie ausgelost. → /auslosen")
    out: list[str] = []
    for s in done:
        if tr.missing_results(s.tables, s.results):
            out.append(_missing_text(s.number, s.tables, s.results))
            out.extend(tournament_tables.progress_lines(session, t, s.row, s.results))
    if not out:
        return Reply(_missing_text(done[-1].number, done[-1].tables, done[-1].results))
    return Reply("\n".join(out))


# --- ranking, /rangliste, /urkunden -----------------------------------------------------------


def _require_ranking(
    t: Tournament, done: Sequence[trepo.LoadedSeries]
) -> tuple[list[Ranked], list[int], list[int]]:
    ranked, complete, incomplete = ranking_of(t, done)
    if not complete:
        if not done:
            raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
        raise RuleError(
            "Noch keine Serie ist vollständig eingetragen.",
            hint="Was fehlt, zeigt /fehlend.",
        )
    return ranked, complete, incomplete


def rangliste(session: Session, cmd: Command) -> Reply:
    t, rest = tournament_season.pick(session, cmd, cmd.args)
    words = [w.lower() for w in rest]
    if words[:1] == ["serie"]:
        return _series_rangliste(session, t, words[1:])
    if words not in ([], ["pdf"]):
        raise RuleError(
            "Das kenne ich bei /rangliste nicht.",
            hint="/rangliste, /rangliste pdf, /rangliste serie 2 oder /rangliste turnier 1",
        )
    as_pdf = words == ["pdf"]
    done = trepo.load_series(session, t)
    _require_ranking(t, done)
    full = full_ranking(t, done)
    ranked, complete, incomplete = full.ranked, full.complete, full.incomplete
    counting = counting_of(t)
    lines = [f"🏆 <b>Rangliste – {escape(t.name)}</b> ({series_span(complete)})"]
    shown = tournament_season.shown_line(session, t)
    if shown:
        lines.append(shown)
    first = len(lines)
    ranking_lines, columns = _ranking_lines(full, counting)
    lines.extend(ranking_lines)
    if full.unranked:
        lines.append(
            f"Nicht gewertet (weniger als {texts.series_count(counting.minimum)}): "
            + _names_line(full.unranked)
        )
    if columns:
        lines.append(_counting_line(counting))  # only where absences matter
    if incomplete:
        verb = "ist" if len(incomplete) == 1 else "sind"
        lines.append(
            f"ℹ️ {series_span(incomplete)} {verb} noch unvollständig und nicht gewertet (/fehlend)."
        )
    note = lot_note(ranked, t.seed, _average_tie(full) if counting.average else None)
    if note:
        lines.append(f"🎲 {escape(note)}")
    lines.append(TIE_LINE)
    team_ranking = teams_uc.ranking(session, t, ranked)
    lines.extend(teams_uc.ranking_lines(t, team_ranking))
    if not as_pdf:
        which = f" turnier {t.number}" if shown else ""
        lines.append(f"Als PDF: /rangliste{which} pdf")
        table = rich.ranking_doc(
            lines[0],
            ranked,
            lines[first + len(ranked) :],
            notes=lines[1:first],
            columns=columns,
        )
        settings = rich.settings_of(session, cmd.place_id, None)
        return Reply(rich.maybe("\n".join(lines), table, settings))

    from skatbot.pdf.ranking import RankingRow, render_ranking

    rows = [
        RankingRow(
            r.place, r.standing.name, r.standing.score, r.standing.won, r.standing.lost, r.by_lot
        )
        for r in ranked
    ]
    pdf, lost = render_ranking(
        t.name,
        dt.date.today(),
        rows,
        note,
        complete,
        incomplete,
        *teams_uc.pdf_rows(t, team_ranking),
        held=tournament_season.day_of(t),
        scoring=_pdf_scoring(counting),
    )
    # The PDF is what was asked for: the chat gets a short summary as its caption (the whole
    # ranking of a large field would be a dozen messages), the PDF has every place and note.
    head = 2 if shown else 1
    summary = [*lines[:head], *lines[head : head + PDF_SUMMARY_PLACES]]
    if len(ranked) > PDF_SUMMARY_PLACES:
        summary.append(f"… alle {len(ranked)} Plätze stehen im PDF.")
    if incomplete:
        summary.append(f"ℹ️ {series_span(incomplete)} noch unvollständig (/fehlend).")
    summary.extend(teams_uc.pdf_summary(team_ranking))
    if lost:
        summary.append(texts.lossy_names_note(lost))
    doc = Document(tournament_season.file_name("rangliste", t), pdf, f"Rangliste {t.name}"[:200])
    return Reply("\n".join(summary), documents=(doc,))


def urkunden(session: Session, cmd: Command) -> Reply:
    from skatbot.pdf.certificates import render_certificates

    t, words = tournament_season.pick(session, cmd, cmd.args)
    ranked, complete, incomplete = _require_ranking(t, trepo.load_series(session, t))
    n = 3
    if words:
        if len(words) != 1 or not is_number(words[0]) or len(words[0]) > 4 or int(words[0]) < 1:
            raise RuleError("Für wie viele Plätze?", hint="Z. B. /urkunden 3")
        n = int(words[0])
    if n > len(ranked):
        raise RuleError(
            f"Die Rangliste hat nur {len(ranked)} Plätze.", hint=f"Z. B. /urkunden {len(ranked)}"
        )
    top = ranked[:n]
    places = [(r.place, r.standing.name, r.standing.score) for r in top]
    prizes = cash.certificate_prizes(session, t)  # the prize on each certificate
    pdf, lost = render_certificates(t.name, tournament_season.day_of(t), places, prizes)  # its day
    span = "Platz 1" if n == 1 else f"Platz 1–{n}"
    lines = [f"📜 Urkunden für {span} – {escape(t.name)} ({series_span(complete)})."]
    shown = tournament_season.shown_line(session, t)
    if shown:
        lines.append(shown)
    if incomplete:
        lines.append(f"ℹ️ {series_span(incomplete)} noch unvollständig, nicht gewertet.")
    if lost:
        lines.append(texts.lossy_names_note(lost))
    doc = Document(tournament_season.file_name("urkunden", t), pdf, f"Urkunden {t.name}"[:200])
    return Reply("\n".join(lines), documents=(doc,))


TIE_LINE = "Gleichstand: mehr gewonnene Spiele, dann weniger verlorene, dann das Los."


def _average_tie(full: tr.SeriesRanking) -> Callable[[Ranked], object]:
    """What makes two entries of the average ranking equal (for the lot's note)."""

    def tie(r: Ranked) -> object:
        n = full.played.get(r.standing.name, 1)
        s = r.standing
        return (Fraction(s.score, n), Fraction(s.won, n), Fraction(s.lost, n))

    return tie


def _ranking_lines(
    full: tr.SeriesRanking, counting: tr.Counting
) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """A line per ranked player, and what the lines add to score and games as the table's
    columns: the average and the series played under "Schnitt", the series played where
    someone missed one (none: everyone played every series, counted as a sum)."""
    complete = len(full.complete)
    lines, averages, series = [], [], []
    for r in full.ranked:
        s = r.standing
        line = (
            f"{r.place}. {escape(s.name)} – {minus_sign(s.score)} Punkte · {s.won} gewonnen, "
            f"{s.lost} verloren"
        )
        played = full.played.get(s.name, 0)
        if counting.average:
            line += f" · Schnitt {_average(s.score, played)} aus {texts.series_count(played)}"
        elif played < complete:
            line += f" · {played} von {complete} Serien"
        lines.append(line)
        averages.append(_average(s.score, played))
        series.append(str(played) if played == complete else f"{played} von {complete}")
    columns = [("Schnitt", averages)] if counting.average else []
    if counting.average or any(full.played.get(r.standing.name, 0) < complete for r in full.ranked):
        columns.append(("Serien", series))
    return lines, columns


def _average(score: int, played: int) -> str:
    value = round(score / played, 1) if played else 0.0
    return minus_sign(int(value)) if value == int(value) else f"{value:.1f}".replace(".", ",")


def _pdf_scoring(counting: tr.Counting) -> str:
    if counting.average:
        return (
            "Wertung: Schnitt der Seeger-Fabian-Wertungen je gespielter Serie, gewertet ab "
            f"{texts.series_count(counting.minimum)}."
        )
    return ""  # the PDF's default: the sum


def _counting_line(counting: tr.Counting) -> str:
    if counting.average:
        return (
            f"Gezählt: Schnitt je gespielter Serie, gewertet ab "
            f"{texts.series_count(counting.minimum)} (/turnierregeln)."
        )
    return "Gezählt: Summe aller Serien, eine fehlende Serie zählt 0 (/turnierregeln)."


def _series_rangliste(session: Session, t: Tournament, words: Sequence[str]) -> Reply:
    done = trepo.load_series(session, t)
    if len(words) != 1 or not is_number(words[0]) or len(words[0]) > 4:
        raise RuleError("Welche Serie?", hint="Z. B. /rangliste serie 2")
    number = int(words[0])
    if not done:
        raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
    if not 1 <= number <= len(done):
        raise RuleError(
            f"Serie {number} gibt es nicht.", hint=f"Ausgelost: Serie 1 bis {len(done)}."
        )
    target = done[number - 1]
    if tr.missing_results(target.tables, target.results):
        raise RuleError(
            f"Serie {number} ist noch unvollständig.", hint="Was fehlt, zeigt /fehlend."
        )
    ranked = series_ranking(t, target)
    lines = [f"🏅 <b>Serie {number} – {escape(t.name)}</b>"]
    shown = tournament_season.shown_line(session, t)
    if shown:
        lines.append(shown)
    for r in ranked:
        x = r.standing
        lines.append(
            f"{r.place}. {escape(x.name)} – {minus_sign(x.score)} Punkte · {x.won} gewonnen, "
            f"{x.lost} verloren"
        )
    note = lot_note(ranked, t.seed)
    if note:
        lines.append(f"🎲 {escape(note)}")
    lines.append(TIE_LINE)
    lines.append("Serienpreise (/preise serie …) gehen nach dieser Rangliste.")
    return Reply("\n".join(lines))


# --- /turnierregeln ---------------------------------------------------------------------------


def turnierregeln(session: Session, cmd: Command) -> Reply:
    """``/turnierregeln``: show; ``summe``; ``schnitt [mindestens N]`` (management)."""
    words = [w.casefold() for w in cmd.args]
    if not words:
        t = _require(session, cmd)
        return Reply(
            f"📐 <b>Zählweise – {escape(t.name)}</b>\n{_counting_line(counting_of(t))}\n"
            "Ändern: /turnierregeln summe oder /turnierregeln schnitt mindestens 2"
        )
    lock_chat(session, cmd.place_id)
    t = _running(session, cmd)
    require_manager(t, cmd)
    if words == ["summe"]:
        counting = tr.Counting()
    elif (
        words[0] == "schnitt"
        and len(words) in (1, 3)
        and (len(words) == 1 or (words[1] in ("mindestens", "min", "ab") and is_number(words[2])))
    ):
        minimum = int(words[2]) if len(words) == 3 and len(words[2]) <= 4 else 1
        if len(words) == 3 and not 1 <= minimum <= MAX_SERIES_GAMES:
            raise RuleError(
                f"Mindestens {words[2][:6]} Serien gehen nicht.",
                hint="Z. B. /turnierregeln schnitt mindestens 2",
            )
        counting = tr.Counting(True, minimum)
    else:
        raise RuleError(
            "Das kenne ich bei /turnierregeln nicht.",
            hint="/turnierregeln summe oder /turnierregeln schnitt mindestens 2",
        )
    t.counting = counting.code
    return Reply(f"✅ {_counting_line(counting)}\nDie Rangliste folgt sofort: /rangliste")


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


# --- /team, /teamwertung (use cases in usecases/tournament/teams.py) -------------------------------------


def team(session: Session, cmd: Command) -> Reply:
    # "/team" lists and "/team NAME" shows; "/team NAME TEAM" and "/team NAME -" change
    return teams_uc.team(session, cmd, _require_for_teams(session, cmd, len(cmd.args) >= 2))


def teamwertung(session: Session, cmd: Command) -> Reply:
    return teams_uc.teamwertung(session, cmd, _require_for_teams(session, cmd, bool(cmd.args)))


def _require_for_teams(session: Session, cmd: Command, change: bool) -> Tournament:
    """The tournament; for a change locked and for managers only."""
    if change:
        lock_chat(session, cmd.place_id)
    t = _running(session, cmd) if change else _require(session, cmd)
    if change:
        require_manager(t, cmd)
    return t


def draw_tap(session: Session, cmd: Command) -> Answer:
    """One tap = /auslosen with a fresh seed (managers only)."""
    parts = cmd.text.removeprefix(tournament_tables.DRAW_PREFIX).split(":")
    if len(parts) != 2 or not all(is_number(p) for p in parts):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    lock_chat(session, cmd.place_id)
    t = trepo.tournament_of(session, cmd.place_id)
    if t is None or t.id != int(parts[0]) or t.closed_at is not None:
        return Answer(notice="Dieser Knopf gilt nicht mehr.", buttons=())
    if not owns(cmd.user_id, t.created_by):
        # a tap cannot ask Telegram whether the tapper is an admin: the admins use the command
        raise RuleError(
            f"Diesen Knopf tippt, wer das Turnier „{t.name}“ angelegt hat.",
            hint="Die Admins des Chats losen mit /auslosen aus.",
        )
    if trepo.series_count(session, t) != int(parts[1]):
        return Answer(notice="Die nächste Serie ist schon ausgelost.", buttons=())
    reply = auslosen(session, dataclasses.replace(cmd, args=(), text="/auslosen"))
    return Answer(notice="Ausgelost.", buttons=(), send=reply)
