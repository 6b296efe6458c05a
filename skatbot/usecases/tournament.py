"""Use cases of a Preisskat tournament desk (SPEC §6). Each is ``op(session, cmd) -> Reply``.

A chat becomes the tournament desk with ``/turnier NAME``. The draw, validation, scores and
ranking are the pure functions of :mod:`skatbot.rules.tournament` and
:mod:`skatbot.rules.ranking`; this module parses, stores and words the replies.

Who may manage: the managing commands (``/teilnehmer`` with names, ``/entfernen``,
``/auslosen``, ``/serienlaenge``, ``/ergebnis``, flagged ``admin`` in routes.py) are allowed for
the person who created the tournament and the chat's admins. A sync use case cannot ask
Telegram, so the registry asks (getChatMember) before the transaction and passes
``Command.is_admin``; everybody else gets a German refusal naming the creator. Reading (``/teilnehmer`` alone, ``/fehlend``, ``/rangliste``,
``/urkunden``, ``/export``) is open to everyone in the chat.

Results are append-only: entering a player's result again for the same series adds a row and
the latest one counts (``/ergebnis`` says "korrigiert"), so the audit trail stays complete.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from html import escape

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.ranking import Ranked, lot_note
from skatbot.rules.scoring import minus_sign
from skatbot.storage import repo
from skatbot.storage import tournament_repo as trepo
from skatbot.storage.database import ensure_chat, lock_chat
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases import money, table_lists, texts
from skatbot.usecases import teams as teams_uc
from skatbot.usecases.names import check_unique, clean_name, match_words
from skatbot.usecases.reply import Command, Document, Reply

MAX_TOURNAMENT_NAME = 64
MAX_PARTICIPANTS = 1000
PDF_SUMMARY_PLACES = 3  # places named in the chat when the ranking comes as PDF
MAX_SERIES_GAMES = 200
MAX_GAME_POINTS = 99_999
SEED_DIGITS = 6
EXPORT_FORMAT = "skatbot-turnier/1"
EXPORT_FILENAME = "skatbot-turnier-v1.json"
RESULT_EXAMPLE = "/ergebnis Anna 345 12 3 (Name, Spielpunkte, gewonnen, verloren)"


# --- helpers ----------------------------------------------------------------------------------


def _rest(cmd: Command) -> str:
    """The message text after the command word (may span several lines)."""
    parts = cmd.text.split(None, 1)
    return parts[1] if len(parts) > 1 else ""


def is_tournament_chat(session: Session, chat_id: int) -> bool:
    return trepo.tournament_of(session, chat_id) is not None


def _require(session: Session, cmd: Command) -> Tournament:
    t = trepo.tournament_of(session, cmd.chat_id)
    if t is None:
        raise RuleError(
            f"In {cmd.here} läuft kein Turnier.", hint="Lege eins an mit /turnier NAME."
        )
    return t


def require_manager(
    t: Tournament,
    cmd: Command,
    readable: str = "/teilnehmer, /fehlend, /rangliste, /urkunden, /export",
) -> None:
    """Managing commands: the tournament's creator and the chat's admins; the refusal names
    what everyone may read (``readable``)."""
    if t.created_by is None or cmd.user_id == t.created_by or cmd.is_admin:
        return
    who = t.created_by_name or "die Person, die es angelegt hat"
    raise RuleError(
        f"Das Turnier „{t.name}“ verwalten {who} (hat /turnier aufgerufen) und die Admins des Chats.",
        hint=f"Lesen geht für alle: {readable}.",
    )


def _games(t: Tournament) -> dict[int, int]:
    return {3: t.games_3, 4: t.games_4}


def _names_line(names: Sequence[str]) -> str:
    return ", ".join(escape(n) for n in names)


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
    name = _collapse(_rest(cmd))
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
    ensure_chat(session, cmd.chat_id, lock=True)
    existing = trepo.tournament_of(session, cmd.chat_id)
    if existing is not None:
        raise RuleError(
            f"In {cmd.here} gibt es schon das Turnier „{existing.name}“.",
            hint="Ein Chat ist der Turniertisch für ein Turnier – für ein neues Turnier "
            "einen neuen Gruppenchat oder ein neues Thema nehmen.",
        )
    if repo.open_list(session, cmd.chat_id) is not None:
        raise RuleError(
            f"In {cmd.here} läuft noch eine Liste.",
            hint="Schließ sie zuerst mit /abschluss ab, dann /turnier NAME.",
        )
    t = trepo.create_tournament(
        session,
        cmd.chat_id,
        name,
        seed=secrets.token_hex(4),
        user_id=cmd.user_id,
        user_name=cmd.user_name,
    )
    desk = "dieses Thema" if cmd.thread_id else "dieser Chat"
    lines = [
        f"🏆 <b>Turnier „{escape(t.name)}“</b> angelegt – {desk} ist der Turniertisch.",
        f"Verwaltet von {escape(cmd.user_name or 'dir')}. "
        f"Serienlänge: {texts.games(t.games_3)} am Dreiertisch, {t.games_4} am Vierertisch "
        "(/serienlaenge 36 48).",
        "Weiter: /teilnehmer Anna, Bernd, Carla, … (Komma oder neue Zeile), dann /auslosen.",
    ]
    return Reply("\n".join(lines))


# --- /teilnehmer, /entfernen ------------------------------------------------------------------


def _locked(session: Session, t: Tournament) -> None:
    if trepo.series_count(session, t):
        raise RuleError(
            "Die Teilnehmerliste ist seit der ersten Auslosung gesperrt.",
            hint="Teilnehmer ändern geht nur vor dem ersten /auslosen.",
        )


def teilnehmer(session: Session, cmd: Command) -> Reply:
    rest = _rest(cmd)
    if not rest.strip():
        t = _require(session, cmd)
        return Reply(_participant_list(session, t))
    lock_chat(session, cmd.chat_id)
    t = _require(session, cmd)
    require_manager(t, cmd)
    _locked(session, t)
    entries = [(clean_name(name), team) for name, team in teams_uc.split_entries(rest)]
    new = [name for name, _ in entries]
    check_unique(new)
    existing = trepo.participants(session, t)
    known = {p.name.casefold(): p for p in existing}
    for name in new:
        if name.casefold() in known:
            p = known[name.casefold()]
            nr = existing.index(p) + 1
            raise RuleError(
                f"„{name}“ steht schon in der Teilnehmerliste (Nr. {nr}: {p.name}).",
                hint="Namen müssen sich unterscheiden (Groß-/Kleinschreibung zählt nicht).",
            )
    if len(existing) + len(new) > MAX_PARTICIPANTS:
        raise RuleError(f"Höchstens {MAX_PARTICIPANTS} Teilnehmer.", hint="Bitte die Liste prüfen.")
    trepo.add_participants(session, t, new)
    teams_uc.assign_new(session, t, dict(entries))
    added = "1 Teilnehmer" if len(new) == 1 else f"{len(new)} Teilnehmer"
    return Reply(f"✅ {added} eingetragen: {_names_line(new)}.\n" + _participant_list(session, t))


def _participant_list(session: Session, t: Tournament) -> str:
    people = trepo.participants(session, t)
    if not people:
        return (
            f"Noch keine Teilnehmer in „{escape(t.name)}“. "
            "Eintragen: /teilnehmer Anna, Bernd, Carla"
        )
    lines = [f"👥 <b>Teilnehmer ({len(people)})</b> – {escape(t.name)}"]
    lines.extend(
        f"{i}. {escape(p.name)}" + (f" [{escape(p.team)}]" if p.team else "")
        for i, p in enumerate(people, 1)
    )
    lines.append(_table_plan(len(people)))
    if trepo.series_count(session, t):
        lines.append("🔒 Die Liste ist seit der ersten Auslosung gesperrt.")
    return "\n".join(lines)


def entfernen(session: Session, cmd: Command) -> Reply:
    word = _collapse(_rest(cmd))
    if not word:
        raise RuleError("Wen soll ich entfernen?", hint="Z. B. /entfernen Anna")
    lock_chat(session, cmd.chat_id)
    t = _require(session, cmd)
    require_manager(t, cmd)
    _locked(session, t)
    people = trepo.participants(session, t)
    names = [p.name for p in people]
    found = _match(word, names)
    if found is None:
        raise _unknown(word, names)
    trepo.remove_participant(session, next(p for p in people if p.name == found))
    return Reply(f"🗑 {escape(found)} ist nicht mehr dabei.\n" + _participant_list(session, t))


# --- /serienlaenge ----------------------------------------------------------------------------


def serienlaenge(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    lock_chat(session, cmd.chat_id)
    t = _require(session, cmd)
    if not words:
        return Reply(
            f"📏 Serienlänge: {texts.games(t.games_3)} am Dreiertisch, {t.games_4} am Vierertisch.\n"
            "Ändern: /serienlaenge 36 48"
        )
    require_manager(t, cmd)
    if len(words) != 2 or not all(w.isdigit() and len(w) <= 4 for w in words):
        raise RuleError(
            "Zwei Zahlen bitte: Spiele am Dreiertisch und am Vierertisch.",
            hint="Z. B. /serienlaenge 36 48",
        )
    g3, g4 = int(words[0]), int(words[1])
    if not (1 <= g3 <= MAX_SERIES_GAMES and 1 <= g4 <= MAX_SERIES_GAMES):
        raise RuleError(
            f"{g3} und {g4} Spiele gehen nicht.", hint=f"Erlaubt: 1 bis {MAX_SERIES_GAMES}."
        )
    tr.check_series_lengths(trepo.load_series(session, t), {3: g3, 4: g4})
    trepo.set_series_lengths(t, g3, g4)
    return Reply(f"📏 Serienlänge jetzt: {texts.games(g3)} am Dreiertisch, {g4} am Vierertisch.")


# --- /auslosen --------------------------------------------------------------------------------


def auslosen(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    lock_chat(session, cmd.chat_id)
    t = _require(session, cmd)
    require_manager(t, cmd)
    if len(words) > 1:
        raise RuleError("Höchstens ein Startwert.", hint="Z. B. /auslosen 4711 oder nur /auslosen")
    names = [p.name for p in trepo.participants(session, t)]
    tr.table_sizes(len(names))
    seed = tr.validate_seed(words[0]) if words else _new_seed()
    done = trepo.load_series(session, t)
    if done:
        current = done[-1]
        missing = tr.missing_results(current.tables, current.results)
        if missing:
            raise RuleError(
                f"In Serie {current.number} fehlen noch Ergebnisse von {', '.join(missing)}.",
                hint="Erst alle eintragen: " + RESULT_EXAMPLE + " – dann /auslosen.",
            )
    number = len(done) + 1
    tables, apart = teams_uc.draw(session, t, names, seed, number, [s.tables for s in done])
    row = trepo.add_series(
        session, t, number, seed, tables, user_id=cmd.user_id, update_id=cmd.update_id
    )
    team_line = teams_uc.after_draw(row, tables, apart)
    table_lines, topics, posts = table_lists.after_draw(session, cmd, t, row, tables)
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
    if team_line:
        lines.append(team_line)
    lines.append(f"Startwert {escape(seed)} · Serie {number} – nachrechenbar: /hilfe auslosung")
    lines.extend(table_lines)
    lines.append("Ergebnisse von Hand: " + RESULT_EXAMPLE + ", mehrere Zeilen pro Nachricht.")
    return Reply("\n".join(lines), topics=topics, posts=posts)


def _new_seed() -> str:
    low = 10 ** (SEED_DIGITS - 1)
    return tr.seed_from_int(low + secrets.randbelow(9 * low))


# --- /ergebnis, /fehlend ----------------------------------------------------------------------

_INT = re.compile(r"[+\-]?\d{1,6}")
_COMMAND_WORD = re.compile(r"^/ergebnis(@\w+)?$", re.IGNORECASE)
_SERIES_LINE = re.compile(r"^serie\s+(\d{1,4})$", re.IGNORECASE)


def _to_int(word: str) -> int | None:
    word = word.replace("−", "-").replace("–", "-")
    return int(word) if _INT.fullmatch(word) else None


def _parse_result_line(nr: int, line: str, names: Sequence[str]) -> tr.SeriesResult:
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


def ergebnis(session: Session, cmd: Command) -> Reply:
    lines = [_collapse(line) for line in _rest(cmd).splitlines()]
    lines = [
        " ".join(line.split()[1:]) if line and _COMMAND_WORD.match(line.split()[0]) else line
        for line in lines
    ]
    lines = [line for line in lines if line]
    if not lines:
        raise RuleError(
            "Welches Ergebnis?",
            hint="Z. B. " + RESULT_EXAMPLE + " – eine Zeile pro Person.",
        )
    lock_chat(session, cmd.chat_id)
    t = _require(session, cmd)
    require_manager(t, cmd)
    done = trepo.load_series(session, t)
    if not done:
        raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
    target = done[-1]
    offset = 0
    chosen = _SERIES_LINE.match(lines[0])
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
    entered: list[tr.SeriesResult] = []
    line_of: dict[str, int] = {}
    for i, line in enumerate(lines, 1 + offset):
        r = _parse_result_line(i, line, seated)
        if r.name in line_of:
            raise RuleError(
                f"Zeile {i}: {r.name} steht in dieser Nachricht schon in Zeile {line_of[r.name]}.",
                hint="Pro Person nur eine Zeile. Nichts wurde gespeichert.",
            )
        line_of[r.name] = i
        entered.append(r)
    out = record_results(
        session, t, target, entered, user_id=cmd.user_id, update_id=cmd.update_id, line_of=line_of
    )
    return Reply("\n".join(out))


def record_results(
    session: Session,
    t: Tournament,
    target: trepo.LoadedSeries,
    entered: Sequence[tr.SeriesResult],
    *,
    user_id: int | None,
    update_id: int | None,
    line_of: Mapping[str, int] | None = None,
) -> list[str]:
    """Check ``entered`` against the series' tables (with what is entered already) and store
    it: the one path of every result, typed with /ergebnis (``line_of``: the message line of
    each name, for the refusal) or reported by a table's list (table_lists.py). Returns the
    lines of the German answer; a RuleError changes nothing."""
    merged = dict(target.results)
    merged.update((r.name, r) for r in entered)
    games = _games(t)
    names = {r.name for r in entered}
    for number, table in enumerate(target.tables, 1):
        if not names.intersection(table):
            continue
        try:
            tr.validate_table_results(
                table, [merged[n] for n in table if n in merged], games[len(table)]
            )
        except tr.TournamentError as err:  # not a conversion: names where it came from
            if line_of is not None:
                mine = [line_of[n] for n in table if n in line_of]
                which = "Zeile" if len(mine) == 1 else "Zeilen"
                where = f"{which} {', '.join(map(str, mine))}"
            else:
                where = f"Tisch {number}"
            raise RuleError(f"{where}: {err.message}", hint="Nichts wurde gespeichert.") from None
    trepo.add_results(session, target.row, list(entered), user_id=user_id, update_id=update_id)
    count = "1 Ergebnis" if len(entered) == 1 else f"{len(entered)} Ergebnisse"
    out = [f"✅ <b>Serie {target.number}</b>: {count} eingetragen."]
    for r in entered:
        line = (
            f"{escape(r.name)}: {minus_sign(r.game_points)} Spielpunkte, {r.won} gewonnen, "
            f"{r.lost} verloren"
        )
        old = target.results.get(r.name)
        if old == r:
            line += " (unverändert)"
        elif old is not None:
            line += f" (korrigiert, vorher {minus_sign(old.game_points)}/{old.won}/{old.lost})"
        out.append(line)
    target.results.update(merged)
    out.append(_missing_text(target.number, target.tables, merged))
    return out


def _missing_text(
    number: int, tables: Sequence[Sequence[str]], results: Mapping[str, object]
) -> str:
    missing = tr.missing_results(tables, results)
    if not missing:
        return f"Serie {number} ist komplett. → /rangliste · nächste Serie: /auslosen"
    per_table = []
    for i, table in enumerate(tables, 1):
        absent = [n for n in table if n not in results]
        if absent:
            per_table.append(f"Tisch {i}: {_names_line(absent)}")
    count = (
        "fehlt noch 1 Ergebnis" if len(missing) == 1 else f"fehlen noch {len(missing)} Ergebnisse"
    )
    return f"Es {count} in Serie {number} – " + "; ".join(per_table)


def fehlend(session: Session, cmd: Command) -> Reply:
    t = _require(session, cmd)
    done = trepo.load_series(session, t)
    if not done:
        return Reply("Es ist noch keine Serie ausgelost. → /auslosen")
    out: list[str] = []
    for s in done:
        if tr.missing_results(s.tables, s.results):
            out.append(_missing_text(s.number, s.tables, s.results))
            out.extend(table_lists.progress_lines(session, t, s.row, s.results))
    if not out:
        return Reply(_missing_text(done[-1].number, done[-1].tables, done[-1].results))
    return Reply("\n".join(out))


# --- ranking, /rangliste, /urkunden -----------------------------------------------------------


def _ranking(
    t: Tournament, done: Sequence[trepo.LoadedSeries]
) -> tuple[list[Ranked], list[int], list[int]]:
    """(ranking over the complete series, their numbers, numbers of incomplete series)."""
    r = tr.rank_series(done, _games(t), t.seed)
    return r.ranked, r.complete, r.incomplete


def _series_span(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"Serie {numbers[0]}"
    return "Serien " + ", ".join(map(str, numbers))


def _require_ranking(
    t: Tournament, done: Sequence[trepo.LoadedSeries]
) -> tuple[list[Ranked], list[int], list[int]]:
    ranked, complete, incomplete = _ranking(t, done)
    if not complete:
        if not done:
            raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
        raise RuleError(
            "Noch keine Serie ist vollständig eingetragen.",
            hint="Was fehlt, zeigt /fehlend.",
        )
    return ranked, complete, incomplete


def rangliste(session: Session, cmd: Command) -> Reply:
    t = _require(session, cmd)
    words = [w.lower() for w in cmd.args]
    if words not in ([], ["pdf"]):
        raise RuleError(
            "Das kenne ich bei /rangliste nicht.", hint="/rangliste oder /rangliste pdf"
        )
    as_pdf = words == ["pdf"]
    ranked, complete, incomplete = _require_ranking(t, trepo.load_series(session, t))
    lines = [f"🏆 <b>Rangliste – {escape(t.name)}</b> ({_series_span(complete)})"]
    for r in ranked:
        s = r.standing
        lines.append(
            f"{r.place}. {escape(s.name)} – {minus_sign(s.score)} Punkte · {s.won} gewonnen, "
            f"{s.lost} verloren"
        )
    if incomplete:
        verb = "ist" if len(incomplete) == 1 else "sind"
        lines.append(
            f"ℹ️ {_series_span(incomplete)} {verb} noch unvollständig und nicht gewertet (/fehlend)."
        )
    note = lot_note(ranked, t.seed)
    if note:
        lines.append(f"🎲 {escape(note)}")
    lines.append("Gleichstand: mehr gewonnene Spiele, dann weniger verlorene, dann das Los.")
    team_ranking = teams_uc.ranking(session, t, ranked)
    lines.extend(teams_uc.ranking_lines(t, team_ranking))
    if not as_pdf:
        lines.append("Als PDF: /rangliste pdf")
        return Reply("\n".join(lines))

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
    )
    # The PDF is what was asked for: the chat gets a short summary as its caption (the whole
    # ranking of a large field would be a dozen messages), the PDF has every place and note.
    summary = [lines[0], *lines[1 : 1 + PDF_SUMMARY_PLACES]]
    if len(ranked) > PDF_SUMMARY_PLACES:
        summary.append(f"… alle {len(ranked)} Plätze stehen im PDF.")
    if incomplete:
        summary.append(f"ℹ️ {_series_span(incomplete)} noch unvollständig (/fehlend).")
    summary.extend(teams_uc.pdf_summary(team_ranking))
    if lost:
        summary.append(texts.lossy_names_note(lost))
    doc = Document("rangliste.pdf", pdf, f"Rangliste {t.name}"[:200])
    return Reply("\n".join(summary), documents=(doc,))


def urkunden(session: Session, cmd: Command) -> Reply:
    from skatbot.pdf.certificates import render_certificates

    words = list(cmd.args)
    t = _require(session, cmd)
    ranked, complete, incomplete = _require_ranking(t, trepo.load_series(session, t))
    n = 3
    if words:
        if len(words) != 1 or not words[0].isdigit() or len(words[0]) > 4 or int(words[0]) < 1:
            raise RuleError("Für wie viele Plätze?", hint="Z. B. /urkunden 3")
        n = int(words[0])
    if n > len(ranked):
        raise RuleError(
            f"Die Rangliste hat nur {len(ranked)} Plätze.", hint=f"Z. B. /urkunden {len(ranked)}"
        )
    top = ranked[:n]
    places = [(r.place, r.standing.name, r.standing.score) for r in top]
    prizes = money.certificate_prizes(session, t)  # issue 18: the prize on each certificate
    pdf, lost = render_certificates(t.name, dt.date.today(), places, prizes)
    span = "Platz 1" if n == 1 else f"Platz 1–{n}"
    lines = [f"📜 Urkunden für {span} – {escape(t.name)} ({_series_span(complete)})."]
    if incomplete:
        lines.append(f"ℹ️ {_series_span(incomplete)} noch unvollständig, nicht gewertet.")
    if lost:
        lines.append(texts.lossy_names_note(lost))
    doc = Document("skatbot-urkunden.pdf", pdf, f"Urkunden {t.name}"[:200])
    return Reply("\n".join(lines), documents=(doc,))


# --- /export ----------------------------------------------------------------------------------


def export_document(session: Session, t: Tournament) -> dict[str, object]:
    """The ``skatbot-turnier/1`` JSON of SPEC §7."""
    done = trepo.load_series(session, t)
    ranked, complete, _ = _ranking(t, done)
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
        "participants": [p.name for p in trepo.participants(session, t)],
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
    t = _require(session, cmd)
    data = export_document(session, t)
    money.add_tournament_export_money(session, t, data)  # issue 18
    raw = json.dumps(data, ensure_ascii=False, indent=2).encode()
    doc = Document(EXPORT_FILENAME, raw, f"Turnier als JSON ({EXPORT_FORMAT})")
    n = len(data["series"])  # type: ignore[arg-type]
    return Reply(
        f"📎 Export des Turniers „{escape(t.name)}“ ({texts.series_count(n)}).",
        documents=(doc,),
    )


# --- /team, /teamwertung (use cases in usecases/teams.py) -------------------------------------


def team(session: Session, cmd: Command) -> Reply:
    # "/team" lists and "/team NAME" shows; "/team NAME TEAM" and "/team NAME -" change
    return teams_uc.team(session, cmd, _require_for_teams(session, cmd, len(cmd.args) >= 2))


def teamwertung(session: Session, cmd: Command) -> Reply:
    return teams_uc.teamwertung(session, cmd, _require_for_teams(session, cmd, bool(cmd.args)))


def _require_for_teams(session: Session, cmd: Command, change: bool) -> Tournament:
    """The tournament; for a change locked and for managers only."""
    if change:
        lock_chat(session, cmd.chat_id)
    t = _require(session, cmd)
    if change:
        require_manager(t, cmd)
    return t
