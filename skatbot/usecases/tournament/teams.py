"""Teams of a Preisskat tournament: entry syntax, ``/team``, ``/teamwertung``,
the team-aware draw, the team ranking in ``/rangliste``, its PDF and ``/export``.

Syntax
======
``/teilnehmer Anna [Skatfreunde Nord], Bernd [Skatfreunde Nord], Carla``: a name may be
followed by its team in square brackets.  Entries are separated by commas or new lines (outside
the brackets); without either, every word is one entry and a ``[…]`` belongs to the word before
it (``/teilnehmer Anna [Nord] Bernd [Nord] Carla``), as does an initial (``Hans P.``); a name in
quotes is one entry (``"Otto Z."``), as in ``/neu``.  Team names are compared without regard to
case: the first spelling in the tournament is kept (``[nord]`` joins ``Nord``).

``/team`` lists the teams; ``/team NAME TEAM`` (or ``/team NAME [TEAM]``) sets or changes a
participant's team and ``/team NAME -`` removes it.  NAME is the longest run of leading words
that is a participant's name, else the first word as a (unique) beginning of one.  Teams may
change at any time; a change after a draw counts for the team ranking at once and for the next
draws, a drawn series keeps its tables (the export lists the teams each draw used).

``/teamwertung`` shows the mode, ``/teamwertung summe`` counts every member,
``/teamwertung beste 3`` the best 3 members of a team (by individual place).  Ties in the team
ranking: the team whose best member has the better individual place ranks first.

The routes declare the place (a desk) and the right: a change is the management's
(``access.manager``), reading is everyone's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from skatbot.rules import teams as tm
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.rules.ranking import Ranked
from skatbot.rules.scoring import minus_sign
from skatbot.storage import tournament as trepo
from skatbot.storage import tournament_teams
from skatbot.storage.tournament_models import Series, Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common.names import hide_quoted, join_initials, match_words, unquote
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.tournament import texts, tournament_season

if TYPE_CHECKING:
    from skatbot.pdf.ranking import TeamRow

MAX_TEAM_BEST = 99
TEAM_EXAMPLE = "/team Anna Skatfreunde Nord (entfernen: /team Anna -)"
ENTRY_EXAMPLE = "/teilnehmer Anna [Skatfreunde Nord], Bernd [Skatfreunde Nord], Carla"
TIE_RULE = "Gleichstand in der Teamwertung: der bessere Platz des besten Mitglieds entscheidet."
NO_TEAM = "-"


# --- entry syntax -----------------------------------------------------------------------------


def _split_outside_brackets(text: str, separators: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if depth == 0 and ch in separators:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


def _brackets_balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "[") - (ch == "]")
        if depth < 0 or depth > 1:
            return False
    return depth == 0


_ENTRY = re.compile(r"^(?P<name>[^\[\]]*?)\s*(?:\[(?P<team>[^\[\]]*)\])?$")


def split_entries(text: str) -> list[tuple[str, str | None]]:
    """The entries of ``/teilnehmer``: (name as typed, cleaned team or None), in order.

    Names are returned with whitespace collapsed but not validated (the caller does that).
    """
    if not _brackets_balanced(text):
        raise RuleError(
            "Die eckigen Klammern passen nicht zusammen.",
            hint=f"Das Team steht in [ ] hinter dem Namen, z. B. {ENTRY_EXAMPLE}",
        )
    text, quoted = hide_quoted(text)  # "Otto Z." is one name, as in /neu
    if re.search(r"[,\n]", re.sub(r"\[[^\]]*\]", "", text)):
        raw = _split_outside_brackets(text, ",\n")
    else:
        raw = []
        for word in _split_outside_brackets(text, " \t\r\f\v"):
            if word.startswith("[") and raw:
                raw[-1] += " " + word
            elif word.strip() and raw and not raw[-1].endswith("]"):
                raw[-1:] = join_initials([raw[-1], word])  # "Hans P." is one name
            elif word.strip():
                raw.append(word)
    entries: list[tuple[str, str | None]] = []
    for part in raw:
        entry = unquote(" ".join(part.split()), quoted)
        if not entry:
            continue
        m = _ENTRY.match(entry)
        if m is None:
            shown = entry if len(entry) <= 40 else entry[:40] + "…"
            raise RuleError(
                f"„{shown}“: das Team in [ ] gehört ans Ende des Eintrags.",
                hint=f"Z. B. {ENTRY_EXAMPLE}",
            )
        team = m.group("team")
        entries.append((m.group("name"), None if team is None else tm.clean_team(team)))
    return entries


def unify(teams: Sequence[str | None], known: Sequence[str]) -> list[str | None]:
    """Each team in the spelling first seen (``known`` first, then ``teams`` in order)."""
    spelling: dict[str, str] = {}
    for seen in known:
        spelling.setdefault(seen.casefold(), seen)
    out: list[str | None] = []
    for name in teams:
        out.append(None if name is None else spelling.setdefault(name.casefold(), name))
    return out


def known_teams(session: Session, t: Tournament) -> list[str]:
    """The tournament's team names, in the order of their first member."""
    return list(dict.fromkeys(tournament_teams.teams_of(session, t).values()))


def assign_new(session: Session, t: Tournament, entries: Mapping[str, str | None]) -> None:
    """Give the participants just added by ``/teilnehmer`` their teams (spellings unified)."""
    names = [n for n, team in entries.items() if team is not None]
    teams = unify([entries[n] for n in names], known_teams(session, t))
    tournament_teams.set_teams(session, t, dict(zip(names, teams, strict=True)))


# --- /team ------------------------------------------------------------------------------------


def _resolve(words: Sequence[str], names: Sequence[str]) -> tuple[str, list[str]]:
    """(participant, remaining words): the longest leading run of words that is a name,
    else the first word as the unique beginning of a name."""
    found, used = match_words(words, names)
    hits = [names[i] for i in found]
    if len(hits) == 1:
        return hits[0], list(words[used:])
    shown = words[0] if len(words[0]) <= 32 else words[0][:32] + "…"
    if hits:
        raise RuleError(
            f"„{shown}“ ist nicht eindeutig: {' oder '.join(hits[:5])}?",
            hint="Mehr Buchstaben angeben.",
        )
    raise RuleError(
        f"„{shown}“ ist kein Teilnehmer dieses Turniers.",
        hint="Die Liste zeigt /teilnehmer. Z. B. " + TEAM_EXAMPLE,
    )


def _latest(place: Place) -> Tournament:
    t = place.tournament
    assert t is not None  # the routes serve desks only
    return t


@dataclass(frozen=True)
class ListTeams:
    pass


@dataclass(frozen=True)
class ShowTeam:
    rest: str  # a participant


@dataclass(frozen=True)
class SetTeam:
    rest: str  # a participant and a team, "NAME [TEAM]" or "NAME -"


def parse_team(cmd: Command) -> ListTeams | ShowTeam | SetTeam:
    """``/team`` (list), ``/team NAME`` (show), ``/team NAME TEAM``, ``/team NAME [TEAM]``,
    ``/team NAME -`` (a change: two words or more, or a team in brackets: ``/team Anna[Nord]``)."""
    if not cmd.rest.strip():
        return ListTeams()
    if len(cmd.args) >= 2 or "[" in cmd.rest or "]" in cmd.rest:
        return SetTeam(cmd.rest)
    return ShowTeam(cmd.rest)


def team(session: Session, place: Place, request: ListTeams | ShowTeam | SetTeam) -> Reply:
    t = tournament_season.running_at(place) if isinstance(request, SetTeam) else _latest(place)
    if isinstance(request, ListTeams):
        return Reply(team_listing(session, t))
    names = [p.name for p in trepo.participants(session, t)]
    if not names:
        raise RuleError("Noch keine Teilnehmer.", hint="Erst " + ENTRY_EXAMPLE)
    name, raw_team = _named(request.rest, names)
    if raw_team is None:
        current = tournament_teams.teams_of(session, t).get(name)
        where = f"im Team „{escape(current)}“" if current else "in keinem Team"
        return Reply(
            f"{escape(name)} ist {where}.\nÄndern: /team {escape(name)} TEAM · "
            f"entfernen: /team {escape(name)} -"
        )
    return _set_team(session, t, name, raw_team)


def _named(rest: str, names: Sequence[str]) -> tuple[str, str | None]:
    """The participant and the team as typed (None: only the participant was named)."""
    bracket = re.fullmatch(r"\s*(?P<name>[^\[\]]+?)\s*\[(?P<team>[^\[\]]*)\]\s*", rest)
    if bracket is not None:
        name, left = _resolve(bracket.group("name").split(), names)
        if left:
            raise RuleError(
                f"„{' '.join(bracket.group('name').split())}“ ist kein Teilnehmer.",
                hint="Die Liste zeigt /teilnehmer.",
            )
        return name, bracket.group("team")
    if "[" in rest or "]" in rest:
        raise RuleError("Die eckigen Klammern passen nicht.", hint="Z. B. " + TEAM_EXAMPLE)
    name, left = _resolve(rest.split(), names)
    return name, " ".join(left) if left else None


def _set_team(session: Session, t: Tournament, name: str, raw_team: str) -> Reply:
    before = tournament_teams.teams_of(session, t).get(name)
    if raw_team.strip() == NO_TEAM:
        if before is None:
            return Reply(f"{escape(name)} ist in keinem Team – nichts geändert.")
        tournament_teams.set_teams(session, t, {name: None})
        out = f"👥 {escape(name)} ist nicht mehr im Team „{escape(before)}“."
    else:
        new = unify([tm.clean_team(raw_team)], known_teams(session, t))[0]
        assert new is not None
        if new == before:
            return Reply(f"{escape(name)} ist schon im Team „{escape(new)}“ – nichts geändert.")
        tournament_teams.set_teams(session, t, {name: new})
        was = f" (vorher „{escape(before)}“)" if before else ""
        out = f"👥 {escape(name)} ist jetzt im Team „{escape(new)}“{was}."
    if trepo.series_count(session, t):
        out += (
            "\nGilt ab sofort für die Teamwertung und für die nächsten Auslosungen; "
            "ausgeloste Serien behalten ihre Tische."
        )
    return Reply(out + "\n" + team_listing(session, t))


def team_listing(session: Session, t: Tournament) -> str:
    teams = tournament_teams.teams_of(session, t)
    if not teams:
        return (
            f"Noch keine Teams in „{escape(t.name)}“. Eintragen: {ENTRY_EXAMPLE} "
            f"oder {TEAM_EXAMPLE}"
        )
    members: dict[str, list[str]] = {}
    for name, team_name in teams.items():
        members.setdefault(team_name, []).append(name)
    lines = [f"👥 <b>Teams ({len(members)})</b> – {escape(t.name)}"]
    for team_name, people in members.items():
        lines.append(f"{escape(team_name)}: {', '.join(escape(n) for n in people)}")
    total = len(trepo.participants(session, t))
    without = total - len(teams)
    if without:
        lines.append(f"Ohne Team: {without}")
    lines.append(scoring_text(t) + " (ändern: /teamwertung summe · /teamwertung beste 3)")
    return "\n".join(lines)


# --- /teamwertung -----------------------------------------------------------------------------


def scoring_text(t: Tournament) -> str:
    return texts.team_scoring(t.team_best)


@dataclass(frozen=True)
class ShowTeamScoring:
    pass


@dataclass(frozen=True)
class SetTeamScoring:
    best: int | None  # the best N members of a team count; None: all of them


def parse_teamwertung(cmd: Command) -> ShowTeamScoring | SetTeamScoring:
    """``/teamwertung`` (show), ``/teamwertung summe``, ``/teamwertung beste N``."""
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ShowTeamScoring()
    for word in words[1:]:
        refuse_foreign_digits(word, "die Zahl der besten Mitglieder", "/teamwertung beste 3")
    if words == ["summe"]:
        return SetTeamScoring(None)
    if len(words) == 2 and words[0] == "beste" and is_number(words[1]) and len(words[1]) <= 3:
        best = int(words[1])
        if not 1 <= best <= MAX_TEAM_BEST:
            raise RuleError(
                f"„beste {best}“ geht nicht.", hint=f"Erlaubt: beste 1 bis beste {MAX_TEAM_BEST}."
            )
        return SetTeamScoring(best)
    raise RuleError(
        "Das kenne ich bei /teamwertung nicht.",
        hint="/teamwertung summe (alle Mitglieder) oder /teamwertung beste 3",
    )


def teamwertung(
    session: Session, place: Place, request: ShowTeamScoring | SetTeamScoring
) -> texts.TeamScoring:
    if isinstance(request, ShowTeamScoring):
        return texts.TeamScoring(_latest(place).team_best, texts.Change.NONE)
    t = tournament_season.running_at(place)
    if request.best == t.team_best:
        return texts.TeamScoring(t.team_best, texts.Change.SAME)
    tournament_teams.set_team_best(session, t, request.best)
    return texts.TeamScoring(request.best, texts.Change.DONE)


# --- draw -------------------------------------------------------------------------------------


def draw(
    session: Session,
    t: Tournament,
    names: Sequence[str],
    seed: str,
    number: int,
    previous: Sequence[Sequence[Sequence[str]]],
) -> tuple[list[list[str]], dict[str, str]]:
    """The tables of series ``number`` with the current teams; (tables, teams kept apart)."""
    apart = tm.real_teams(names, tournament_teams.teams_of(session, t))
    return tm.draw(names, seed, number, previous, apart), apart


def apart(session: Session, t: Tournament, names: Sequence[str]) -> dict[str, str]:
    """The teams a draw keeps apart among ``names`` (empty without teams)."""
    return tm.real_teams(names, tournament_teams.teams_of(session, t))


def after_draw(series: Series, tables: Sequence[Sequence[str]], apart: Mapping[str, str]) -> str:
    """Record the teams the draw used; the reply's line about them ("" without teams)."""
    tournament_teams.record_series_teams(series, apart)
    if not apart:
        return ""
    pairs = tm.team_pairs(tables, apart)
    if pairs == 0:
        return "Teams: kein Tisch mit zwei Mitgliedern desselben Teams."
    sizes: dict[str, int] = {}
    for team_name in apart.values():
        sizes[team_name] = sizes.get(team_name, 0) + 1
    big = [n for n, s in sizes.items() if s > len(tables)]
    return (
        f"Teams: {pairs} Paar{'e' if pairs != 1 else ''} aus demselben Team an einem Tisch – "
        f"weniger geht nicht ({', '.join(escape(b) for b in big)}: mehr Mitglieder als Tische)."
    )


# --- ranking ----------------------------------------------------------------------------------


def ranking(session: Session, t: Tournament, ranked: Sequence[Ranked]) -> list[tm.TeamRanked]:
    return tm.rank_teams(ranked, tournament_teams.teams_of(session, t), t.team_best)


def _member(r: Ranked) -> str:
    return f"{escape(r.standing.name)} {minus_sign(r.standing.score)}"


def ranking_lines(t: Tournament, teams: Sequence[tm.TeamRanked]) -> list[str]:
    """The team ranking for ``/rangliste`` ([] without teams)."""
    if not teams:
        return []
    lines = [f"👥 <b>Teamwertung</b> ({scoring_text(t).split(': ', 1)[1]})"]
    for line in teams:
        counted = ", ".join(_member(r) for r in line.counted)
        rest = ""
        if line.uncounted:
            rest = "; nicht gewertet: " + ", ".join(_member(r) for r in line.uncounted)
        lines.append(
            f"{line.place}. {escape(line.team)} – {minus_sign(line.score)} Punkte ({counted}{rest})"
        )
    if tm.tie_decided_by_best_member(teams):
        lines.append(TIE_RULE)
    return lines


def pdf_rows(t: Tournament, teams: Sequence[tm.TeamRanked]) -> tuple[list[TeamRow], str]:
    """The team rows and mode line for :func:`skatbot.pdf.ranking.render_ranking`."""
    from skatbot.pdf.base import format_number  # fpdf loads only when a PDF is made
    from skatbot.pdf.ranking import TeamRow

    rows = [
        TeamRow(
            line.place,
            line.team,
            line.score,
            " · ".join(
                f"{r.standing.name} {format_number(r.standing.score)}" for r in line.counted
            ),
            " · ".join(
                f"{r.standing.name} {format_number(r.standing.score)}" for r in line.uncounted
            ),
        )
        for line in teams
    ]
    return rows, scoring_text(t)


def pdf_summary(teams: Sequence[tm.TeamRanked]) -> list[str]:
    """The chat line beside the ranking PDF: the best team ([] without teams)."""
    if not teams:
        return []
    top = teams[0]
    return [
        f"👥 Bestes Team: {escape(top.team)} – {minus_sign(top.score)} Punkte (Teamwertung im PDF)."
    ]


def add_export_fields(
    session: Session,
    t: Tournament,
    data: dict[str, object],
    entries: Sequence[dict[str, object]],
    series: Sequence[Series],
    ranked: Sequence[Ranked],
) -> None:
    """Add the team fields to a ``skatbot-turnier/1`` document ``data`` (additive, so the
    format stays version 1), only if the tournament has or had teams: a tournament without
    exports exactly what it did before.  ``entries`` are ``data["series"]``, ``series``
    their rows."""
    current = tournament_teams.teams_of(session, t)
    drawn = [tournament_teams.series_teams(s) for s in series]
    if not current and not any(drawn):
        return
    for entry, apart in zip(entries, drawn, strict=True):
        entry["teams"] = apart
    scoring: dict[str, object] = (
        {"mode": "sum"} if t.team_best is None else {"mode": "best", "best": t.team_best}
    )
    data["teams"] = current
    data["team_scoring"] = scoring
    data["team_ranking"] = [
        {
            "rank": line.place,
            "team": line.team,
            "score": line.score,
            "won": line.won,
            "lost": line.lost,
            "counted": [r.standing.name for r in line.counted],
            "not_counted": [r.standing.name for r in line.uncounted],
        }
        for line in tm.rank_teams(ranked, current, t.team_best)
    ]
