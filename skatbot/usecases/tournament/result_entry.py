"""``/ergebnis`` at a Preisskat desk: results typed by the management, one line per
player; and ``/fehlend``: what is missing and how far the tables are.

Results are append-only: entering a player's result again for the same series adds a row and
the latest one counts (``/ergebnis`` says "korrigiert"), so the audit trail stays complete.
The result lines are read here for the league's desk too."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.scoring import minus_sign
from skatbot.storage import tournament as trepo
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.tournament import tables as tournament_tables
from skatbot.usecases.tournament import tournament_season
from skatbot.usecases.tournament.desk import (
    collapse,
    latest,
    match_participant,
    unknown_participant,
)
from skatbot.usecases.tournament.results import missing_text, record_results

MAX_GAME_POINTS = 99_999
RESULT_EXAMPLE = "/ergebnis Anna 345 12 3 (Name, Spielpunkte, gewonnen, verloren)"
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
        name = match_participant(word, names)
    except RuleError as err:
        raise RuleError(where + err.message, hint=err.hint + " Nichts wurde gespeichert.") from None
    if name is None:
        unknown = unknown_participant(word, names, where)
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
    lines = [collapse(line) for line in text.splitlines()]
    lines = [
        " ".join(line.split()[1:]) if line and RESULT_COMMAND.match(line.split()[0]) else line
        for line in lines
    ]
    return [line for line in lines if line]


@dataclass(frozen=True)
class EnterResults:
    lines: tuple[str, ...]  # NAME SPIELPUNKTE GEWONNEN VERLOREN each
    series: int | None  # "serie N" as the first line; None: the latest series
    first: int  # the message line number of ``lines[0]`` (for the refusals)


def parse_ergebnis(cmd: Command) -> EnterResults:
    lines = result_lines(cmd.rest)
    if not lines:
        raise RuleError(
            "Welches Ergebnis?",
            hint="Z. B. " + RESULT_EXAMPLE + " – eine Zeile pro Person.",
        )
    chosen = RESULT_SERIES_LINE.match(lines[0])
    if chosen is None:
        return EnterResults(tuple(lines), None, 1)
    if len(lines) == 1:
        raise RuleError("Nach „serie N“ fehlen die Ergebnisse.", hint=RESULT_EXAMPLE)
    return EnterResults(tuple(lines[1:]), int(chosen.group(1)), 2)


def ergebnis(session: Session, place: Place, request: EnterResults) -> Reply:
    t = tournament_season.running_at(place)
    done = trepo.load_series(session, t)
    if not done:
        raise RuleError("Es ist noch keine Serie ausgelost.", hint="Erst /auslosen.")
    target = done[-1]
    if request.series is not None:
        if not 1 <= request.series <= len(done):
            raise RuleError(
                f"Serie {request.series} gibt es nicht.",
                hint=f"Ausgelost: Serie 1 bis {len(done)}.",
            )
        target = done[request.series - 1]
    seated = [n for table in target.tables for n in table]
    entered, line_of = parse_result_lines(request.lines, request.first, seated)
    asker = place.asker
    out = record_results(
        session, t, target, entered, user_id=asker.user_id, update_id=asker.update_id,
        line_of=line_of,
    )  # fmt: skip
    return Reply("\n".join(out))


@dataclass(frozen=True)
class ShowMissing:
    pass


def parse_fehlend(cmd: Command) -> ShowMissing:
    return ShowMissing()  # words after it were always passed over


def fehlend(session: Session, place: Place, request: ShowMissing) -> Reply:
    t = latest(place)
    done = trepo.load_series(session, t)
    if not done:
        return Reply("Es ist noch keine Serie ausgelost. → /auslosen")
    out: list[str] = []
    for s in done:
        if tr.missing_results(s.tables, s.results):
            out.append(missing_text(s.number, s.tables, s.results))
            out.extend(tournament_tables.progress_lines(session, t, s.row, s.results))
    if not out:
        return Reply(missing_text(done[-1].number, done[-1].tables, done[-1].results))
    return Reply("\n".join(out))
