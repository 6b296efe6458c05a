"""/serienlaenge: how many games a series has at a three- and at a four-table.

The route declares the place (a Preisskat desk), the parser and the right (reading for all,
a change for the management); this module only decides, ``texts`` words it."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.storage import tournament as trepo
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command
from skatbot.usecases.tournament import texts, tournament_season

MAX_SERIES_GAMES = 200


@dataclass(frozen=True)
class ShowLengths:
    pass


@dataclass(frozen=True)
class SetLengths:
    games_3: int
    games_4: int


def parse(cmd: Command) -> ShowLengths | SetLengths:
    words = cmd.args
    if not words:
        return ShowLengths()
    for word in words:
        refuse_foreign_digits(word, "die Zahl der Spiele", "/serienlaenge 36 48")
    if len(words) != 2 or not all(is_number(w) and len(w) <= 4 for w in words):
        raise RuleError(
            "Zwei Zahlen bitte: Spiele am Dreiertisch und am Vierertisch.",
            hint="Z. B. /serienlaenge 36 48",
        )
    g3, g4 = int(words[0]), int(words[1])
    if not (1 <= g3 <= MAX_SERIES_GAMES and 1 <= g4 <= MAX_SERIES_GAMES):
        raise RuleError(
            f"{g3} und {g4} Spiele gehen nicht.", hint=f"Erlaubt: 1 bis {MAX_SERIES_GAMES}."
        )
    return SetLengths(g3, g4)


def serienlaenge(
    session: Session, place: Place, request: ShowLengths | SetLengths
) -> texts.SeriesLengths:
    t = place.tournament
    assert t is not None  # the route serves desks only
    if isinstance(request, ShowLengths):
        return texts.SeriesLengths(t.games_3, t.games_4, changed=False)
    t = tournament_season.running_at(place)
    lengths = {3: request.games_3, 4: request.games_4}
    tr.check_series_lengths(trepo.load_series(session, t), lengths)
    trepo.set_series_lengths(t, request.games_3, request.games_4)
    return texts.SeriesLengths(request.games_3, request.games_4, changed=True)
