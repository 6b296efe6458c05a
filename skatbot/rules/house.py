"""House rules (docs/rules.md §6): house scoring, Kontra/Re, Ramsch and the 3B3R machine.

Differences from the ISkO: no Seeger-Fabian; score = start points + bookings; a lost game
with skat pickup is doubled, a lost hand game is not; Kontra ×2, Re another ×2; during Bock
every booking ×2. 3B3R: a trigger starts 3 Bock games, then 3 Ramsch games; a trigger during an
active sequence is queued. The machine is pure and replayable: the sheet replay feeds it every
valid row in order, so corrections and cancellations replay it correctly.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from skatbot.rules.errors import RuleError
from skatbot.rules.value import GameResult

PHASE_GAMES = 3
TRIGGER_LIMIT = 100
TRIGGER_LIMIT_ACTIVE = 200
RAMSCH_MAX = 120


class Phase(enum.StrEnum):
    NONE = "none"
    BOCK = "bock"
    RAMSCH = "ramsch"


@dataclass(frozen=True)
class HouseRules:
    """Per-list options: a "Runde" is one game, or a full dealing round (one deal per seat)."""

    dealing_round: bool = False

    def phase_length(self, table_size: int) -> int:
        return PHASE_GAMES * (table_size if self.dealing_round else 1)

    @property
    def code(self) -> str:
        return "haus-geber" if self.dealing_round else "haus"


def rules_from_code(code: str) -> HouseRules | None:
    """``isko`` → None; ``haus`` / ``haus-geber`` → HouseRules."""
    if code == "haus":
        return HouseRules()
    if code == "haus-geber":
        return HouseRules(dealing_round=True)
    return None


@dataclass(frozen=True)
class HouseState:
    phase: Phase = Phase.NONE
    done: int = 0  # games done in the current phase
    length: int = PHASE_GAMES
    pending: int = 0  # queued triggers ("ausstehend")
    sick_used: frozenset[int] = frozenset()  # seats that were sick in this Ramsch phase
    sick_now: int | None = None  # seat that must play Grand Hand next

    @property
    def active(self) -> bool:
        return self.phase is not Phase.NONE

    @property
    def bock(self) -> bool:
        return self.phase is Phase.BOCK

    def label(self) -> str:
        """E.g. "Bock 2/3 · danach Ramsch · 1 ausstehend" (the game about to be played); with
        Geberrunden "Bock: Geberrunde 1/3, Spiel 2/3 · danach Ramsch"."""
        if self.phase is Phase.NONE:
            text = "kein Bock, kein Ramsch"
        else:
            name = "Bock" if self.phase is Phase.BOCK else "Ramsch"
            text = f"{name} {self.done + 1}/{self.length}"
            if self.length > PHASE_GAMES:  # Geberrunden: three rounds of one deal per seat
                per = self.length // PHASE_GAMES
                text = (
                    f"{name}: Geberrunde {self.done // per + 1}/{PHASE_GAMES}, "
                    f"Spiel {self.done % per + 1}/{per}"
                )
            if self.phase is Phase.BOCK:
                text += " · danach Ramsch"
        if self.pending:
            text += f" · {self.pending} ausstehend"
        return text


def _after_phase_game(state: HouseState) -> HouseState:
    done = state.done + 1
    if done < state.length:
        return dataclasses.replace(state, done=done)
    if state.phase is Phase.BOCK:
        return dataclasses.replace(
            state, phase=Phase.RAMSCH, done=0, sick_used=frozenset(), sick_now=None
        )
    if state.pending:
        return dataclasses.replace(
            state,
            phase=Phase.BOCK,
            done=0,
            pending=state.pending - 1,
            sick_used=frozenset(),
            sick_now=None,
        )
    return HouseState(length=state.length)


def advance(state: HouseState, *, counts: bool, trigger: bool) -> HouseState:
    """The state after one played row (a game, a passed game or a Ramsch).

    ``counts``: the row counts for the running phase (a sick player's game does not).
    ``trigger``: the row triggered 3B3R (at most one trigger per row).
    """
    if trigger and not state.active:
        return dataclasses.replace(state, phase=Phase.BOCK, done=0)  # starts with the next game
    if trigger:
        state = dataclasses.replace(state, pending=state.pending + 1)
    if state.active and counts:
        state = _after_phase_game(state)
    return state


def manual_bock(state: HouseState) -> HouseState:
    """`/bock`: a trigger by hand."""
    return advance(state, counts=False, trigger=True)


def house_booking(result: GameResult, *, bock: bool) -> int:
    """What the declarer books: lost with skat pickup doubled, Kontra/Re/Bock ×2 each."""
    a = result.announcement
    points = result.value
    if not result.won:
        points = -points if a.hand else -2 * points
    factor = (2 if a.kontra else 1) * (2 if a.re else 1) * (2 if bock else 1)
    return points * factor


def game_trigger(result: GameResult, booking: int, state: HouseState) -> str | None:
    """The 3B3R trigger of one game (German reason), at most one per game."""
    a = result.announcement
    limit = TRIGGER_LIMIT_ACTIVE if state.active else TRIGGER_LIMIT
    if not result.won and a.card_points == 60:
        return "60:60 verloren"
    if a.kontra and not a.re and not result.won:
        return "Kontra ohne Re verloren"
    if a.re:
        return "Re gespielt"
    if abs(booking) > limit:
        return f"über {limit} Punkte"
    return None


def check_sick_game(result: GameResult, name: str = "NAME") -> None:
    """A sick player must play Grand Hand: no Schneider, no Schwarz, no ouvert, no Kontra/Re.

    ``name``: the sick player, for the example in the hint.
    """
    a = result.announcement
    example = f"/spiel {name} grand mit 1 hand gewonnen"
    if result.schneider or result.schwarz:
        raise RuleError(
            "Beim Krankenspiel zählt kein Schneider.",
            hint=f"Statt der Augen nur „gewonnen“ oder „verloren“ angeben, z. B. {example}",
        )
    if not (a.game.name == "GRAND" and a.hand):
        raise RuleError("Wer krank ist, spielt Grand Hand.", hint=f"Z. B. {example}")
    if a.schneider or a.schneider_announced or a.schwarz or a.ouvert or a.kontra or a.re:
        raise RuleError(
            "Beim Krankenspiel gibt es kein Schneider, Schwarz, Ouvert, Kontra oder Re.",
            hint=f"Nur Grand Hand mit Spitzen und Ergebnis eintragen, z. B. {example}",
        )


# --- Ramsch ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ramsch:
    """One Ramsch game: the loser(s) book minus their card points; Durchmarsch books +120."""

    losers: tuple[int, ...] = ()  # seats; two on a tie, three at 40:40:40
    points: int = 0
    pushes: int = 0  # "geschoben": ×2 each
    virgins: int = 0  # "Jungfrau": ×2 each (not with Durchmarsch)
    durchmarsch: int | None = None  # seat

    @property
    def factor(self) -> int:
        return int(2 ** (self.pushes + self.counted_virgins))

    @property
    def counted_virgins(self) -> int:
        """Jungfrauen double a Ramsch, but not a Durchmarsch (all others are trickless anyway)."""
        return 0 if self.durchmarsch is not None else self.virgins

    @property
    def ignored_virgins(self) -> int:
        """Jungfrauen given with a Durchmarsch: entered, but they do not count."""
        return self.virgins - self.counted_virgins

    def bookings(self) -> dict[int, int]:
        if self.durchmarsch is not None:
            return {self.durchmarsch: RAMSCH_MAX * self.factor}
        return {seat: -self.points * self.factor for seat in self.losers}

    def text(self, names: Sequence[str] | None = None) -> str:
        """Canonical text, stored in the log: "Ramsch 0 1 55 geschoben 1 jungfrau 1" (seats).

        With ``names`` a German display text: "Ramsch: Anna, Bernd je −55 (geschoben 1)".
        """
        if names is None:
            if self.durchmarsch is not None:
                head = f"Ramsch durchmarsch {self.durchmarsch}"
            else:
                head = "Ramsch " + " ".join(str(s) for s in self.losers) + f" {self.points}"
            extras = [f"geschoben {self.pushes}"] if self.pushes else []
            if self.virgins:
                extras.append(f"jungfrau {self.virgins}")
            return " ".join([head, *extras])
        extras = []
        if self.pushes:
            extras.append(f"geschoben {self.pushes}")
        if self.virgins and self.durchmarsch is None:
            extras.append(f"Jungfrau {self.virgins}")
        tail = f" ({', '.join(extras)})" if extras else ""
        if self.durchmarsch is not None:
            return f"Ramsch: Durchmarsch {names[self.durchmarsch]}{tail}"
        shown = [names[s] for s in self.losers]
        who = " und ".join([", ".join(shown[:-1]), shown[-1]] if len(shown) > 2 else shown)
        return f"Ramsch: {who} {self.points} Augen{tail}"


_RAMSCH = re.compile(
    r"^Ramsch (?:durchmarsch (?P<dm>[0-9]+)|(?P<losers>[0-9]+(?: [0-9]+){0,2}) (?P<points>[0-9]+))"
    r"(?: geschoben (?P<pushes>[0-9]+))?(?: jungfrau (?P<virgins>[0-9]+))?$"
)


def parse_ramsch_text(text: str) -> Ramsch:
    m = _RAMSCH.match(text)
    if m is None:
        raise ValueError(f"not a stored Ramsch text: {text!r}")
    pushes = int(m["pushes"] or 0)
    virgins = int(m["virgins"] or 0)
    if m["dm"] is not None:
        return Ramsch(durchmarsch=int(m["dm"]), pushes=pushes, virgins=virgins)
    losers = tuple(int(s) for s in m["losers"].split())
    return Ramsch(losers=losers, points=int(m["points"]), pushes=pushes, virgins=virgins)


def validate_ramsch(r: Ramsch, players: int, sitting_out: int | None) -> None:
    """Plausibility of a Ramsch entry (German errors naming the fix)."""
    playing = players - (1 if sitting_out is not None else 0)
    seats = r.losers if r.durchmarsch is None else (r.durchmarsch,)
    if sitting_out is not None and sitting_out in seats:
        raise RuleError(
            "Der Geber setzt aus und spielt den Ramsch nicht mit.", hint="Anderen Namen angeben."
        )
    if not 0 <= r.pushes <= playing:
        raise RuleError(f"Geschoben höchstens {playing}-mal.", hint="Z. B. „geschoben 1“.")
    if r.durchmarsch is not None:
        return
    if len(r.losers) not in (1, 2, 3) or len(set(r.losers)) != len(r.losers):
        raise RuleError(
            "Ein Verlierer, bei Gleichstand zwei (bei 40:40:40 alle drei).",
            hint="Z. B. /ramsch Anna 55",
        )
    if len(r.losers) == 3:
        # 40:40:40: all three have the most points and lose them (the common house rule)
        if r.points != 40 or r.virgins:
            raise RuleError(
                "Drei Verlierer gibt es nur bei 40:40:40.",
                hint="Z. B. /ramsch Anna Bernd Carla 40 – sonst der mit den meisten Augen.",
            )
        return
    low = 41 if len(r.losers) == 1 else 40  # the most points: more than a third of 120
    high = RAMSCH_MAX if len(r.losers) == 1 else 60
    if not low <= r.points <= high:
        raise RuleError(
            f"{r.points} Augen passen nicht zum Verlierer.",
            hint=f"Der Verlierer hat die meisten Augen: {low} bis {high}.",
        )
    # Two Jungfrauen at a 3-player Ramsch mean the loser took every trick: a Durchmarsch.
    if not 0 <= r.virgins <= playing - 2:
        raise RuleError(
            "So viele Jungfrauen gibt es nicht.",
            hint="Jungfrau = ohne Stich, höchstens die anderen Spieler.",
        )
