"""Game value, outcome and booking of one game by the ISkO (2.4-2.5, 3.6, 5.x).

``RULES`` states each inference between the announced levels once (ouvert implies hand and
announcements, Schwarz announced implies Schneider announced, an announcement implies hand ...); ``implied`` applies them
without raising, for ``normalize`` and for the button builder alike. ``normalize`` applies the
inferences and refuses impossible games; ``evaluate`` decides won/lost, Schneider/Schwarz,
overbid and the value, and explains the computation in German.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from skatbot.rules.bids import check_bid
from skatbot.rules.errors import ContradictionError, RuleError
from skatbot.rules.game import NULL_VALUE, Announcement, GameType

SCHNEIDER_MAX = 30  # a party with at most 30 card points is Schneider (30 is, 31 is not)
WIN_MIN = 61
NULL_MAX_BID = max(NULL_VALUE.values())  # no null game reaches a higher bid

# --- the levels of an announcement and the rules between them ----------------------------------

Level = Literal[
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
    "kontra",
    "re",
]
LEVELS: tuple[Level, ...] = (
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
    "kontra",
    "re",
)
# Null knows only these (ISkO 2.4.2); Kontra/Re are house rules for every game.
NULL_LEVELS: frozenset[Level] = frozenset({"hand", "ouvert", "kontra", "re"})
HOUSE_LEVELS: frozenset[Level] = frozenset({"kontra", "re"})  # only under house rules


@dataclass(frozen=True)
class Rule:
    """``premise`` needs ``consequence``. An automatic rule sets the consequence (with ``note``
    if the players should be told); any other refuses the premise without it (``refusal``:
    the German message and hint)."""

    premise: Level
    consequence: Level
    trump_only: bool = False
    automatic: bool = True
    note: str | None = None
    refusal: tuple[str, str] | None = None


_OUVERT_NOTE = "Ouvert ist immer Hand mit Schneider und Schwarz angesagt – automatisch gesetzt."
# In this order: ouvert explains what it sets before Schwarz angesagt would.
RULES: tuple[Rule, ...] = (
    Rule("ouvert", "hand", trump_only=True, note=_OUVERT_NOTE),
    Rule("ouvert", "schneider_announced", trump_only=True, note=_OUVERT_NOTE),
    Rule("ouvert", "schwarz_announced", trump_only=True, note=_OUVERT_NOTE),
    Rule(
        "schwarz_announced",
        "schneider_announced",
        note="Schwarz angesagt schließt Schneider angesagt ein.",
    ),
    Rule("schwarz", "schneider"),
    # Only a Hand game can announce (ISkO 2.4.3): an announcement without "hand" is one.
    Rule(
        "schneider_announced",
        "hand",
        note="Angesagt wird nur beim Handspiel – Hand automatisch gesetzt.",
    ),
    Rule(
        "re",
        "kontra",
        automatic=False,
        refusal=("Re gibt es nur nach Kontra.", "Schreib „kontra re“."),
    ),
)


class HasLevels(Protocol):
    """Anything with an announcement's level fields (an Announcement, the builder's state)."""

    @property
    def hand(self) -> bool: ...
    @property
    def schneider(self) -> bool: ...
    @property
    def schneider_announced(self) -> bool: ...
    @property
    def schwarz(self) -> bool: ...
    @property
    def schwarz_announced(self) -> bool: ...
    @property
    def ouvert(self) -> bool: ...
    @property
    def kontra(self) -> bool: ...
    @property
    def re(self) -> bool: ...


def levels_of(a: HasLevels) -> frozenset[Level]:
    """The levels set in ``a``."""
    return frozenset(level for level in LEVELS if getattr(a, level))


def _applies(rule: Rule, game: GameType | None) -> bool:
    return not rule.trump_only or (game is not None and not game.is_null)


def inferences(game: GameType | None, levels: Iterable[Level]) -> tuple[Rule, ...]:
    """The automatic rules that fire for ``levels`` in ``game`` (in ``RULES`` order, each
    adding its consequence), until nothing more follows. Never raises."""
    on = set(levels)
    fired: list[Rule] = []
    changed = True
    while changed:
        changed = False
        for rule in RULES:
            if (
                rule.automatic
                and _applies(rule, game)
                and rule.premise in on
                and rule.consequence not in on
            ):
                on.add(rule.consequence)
                fired.append(rule)
                changed = True
    return tuple(fired)


def implied(game: GameType | None, levels: Iterable[Level]) -> frozenset[Level]:
    """The levels that ``levels`` imply in ``game`` and that are not among them (ouvert in a
    suit game or grand: Hand, Schneider and Schwarz angesagt). Never raises; ``game`` None
    (not chosen yet) applies only the rules of every game."""
    return frozenset(rule.consequence for rule in inferences(game, levels))


def required(game: GameType | None, level: Level) -> frozenset[Level]:
    """The levels that must be set before ``level`` can be: what it or what it implies
    cannot be announced without, and it does not set itself. Re needs Kontra; ouvert,
    Schneider angesagt and Schwarz angesagt need nothing (they set Hand)."""
    closure = {level} | implied(game, {level})
    needs = {
        r.consequence
        for r in RULES
        if not r.automatic and r.premise in closure and _applies(r, game)
    }
    return frozenset(needs - closure)


def dependents(game: GameType | None, level: Level) -> frozenset[Level]:
    """The levels that cannot stand without ``level`` (directly or through others): what
    goes when ``level`` is taken back. Hand in a suit game takes Schneider angesagt, Schwarz
    angesagt and ouvert with it."""
    gone = {level}
    changed = True
    while changed:
        changed = False
        for rule in RULES:
            if _applies(rule, game) and rule.consequence in gone and rule.premise not in gone:
                gone.add(rule.premise)
                changed = True
    return frozenset(gone - {level})


def allowed_levels(game: GameType | None) -> frozenset[Level]:
    """The levels ``game`` knows (Null: only Hand and ouvert, and the house's Kontra/Re)."""
    return NULL_LEVELS if game is not None and game.is_null else frozenset(LEVELS)


def _refuse_without(a: Announcement, premise: Level) -> None:
    """Refuse ``a`` if ``premise`` is set without what it requires (a non-automatic rule)."""
    if not getattr(a, premise):
        return
    for rule in RULES:
        if rule.premise != premise or rule.automatic or not _applies(rule, a.game):
            continue
        if not getattr(a, rule.consequence):
            assert rule.refusal is not None
            message, hint = rule.refusal
            raise RuleError(message, hint=hint)


def _infer(a: Announcement) -> tuple[Announcement, list[str]]:
    """``a`` with its implied levels set, and the notes on what was set."""
    fired = inferences(a.game, levels_of(a))
    if not fired:
        return a, []
    changes: dict[str, Any] = {rule.consequence: True for rule in fired}
    a = dataclasses.replace(a, **changes)
    notes: list[str] = []
    for rule in fired:
        if rule.note is not None and rule.note not in notes:
            notes.append(rule.note)
    return a, notes


class LossReason(enum.Enum):
    """Why a game is lost, decided in one place per rule (the German wording is the handlers').

    ``TYPED``: "verloren" was typed and nothing else says why. With card points the rule that
    decided wins over the typed word; overbidding is the reason only when play alone would
    have won (or nothing else is known).
    """

    TYPED = "typed"
    POINTS = "points"  # fewer than 61 card points
    SCHNEIDER_MISSED = "schneider"  # Schneider announced, the opponents made more than 30
    SCHWARZ_MISSED = "schwarz"  # Schwarz announced, not every trick
    OUVERT_NOT_SCHWARZ = "ouvert"  # suit/grand ouvert (= Schwarz announced), not every trick
    OVERBID = "overbid"  # the game's value does not reach the bid


@dataclass(frozen=True)
class GameResult:
    """The evaluated game: what is written on the list."""

    announcement: Announcement
    won: bool
    overbid: bool
    value: int  # the value written (after the overbid rule)
    played_value: int  # the value before the overbid rule
    multiplier: int = 0  # 0 for null
    levels: tuple[tuple[str, int], ...] = ()  # ("ohne 1", 1), ("Spiel", 2), ... cumulative
    schneider: bool = False  # Schneider level counted (reached or announced)
    schwarz: bool = False
    notes: tuple[str, ...] = ()
    loss_reason: LossReason | None = None  # None when won

    @property
    def score(self) -> int:
        """What the declarer books: +value won, −2 × value lost (ISkO 5.x)."""
        return self.value if self.won else -2 * self.value

    @property
    def breakdown(self) -> str:
        """E.g. "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72"."""
        game = self.announcement.game
        if game.is_null:
            text = f"{null_label(self.announcement)} = {self.played_value}"
            if self.overbid:
                text += f"; überreizt (Reiz {self.announcement.bid}) → {self.value}"
            return text
        (matadors, _), *rest = self.levels
        steps = ", ".join([f"{game.label} {matadors}"] + [f"{n} {c}" for n, c in rest])
        text = f"{steps} → {self.multiplier} × {game.base} = {self.played_value}"
        if self.overbid:
            times = self.value // game.base
            text += (
                f"; überreizt (Reiz {self.announcement.bid}) → {times} × {game.base} = {self.value}"
            )
        return text

    @property
    def booking(self) -> str:
        """E.g. "+72" or "−2 × 36 = −72"."""
        if self.won:
            return f"+{self.value}"
        return f"−2 × {self.value} = −{2 * self.value}"


def null_label(a: Announcement) -> str:
    return "Null" + (" ouvert" if a.ouvert else "") + (" Hand" if a.hand else "")


def normalize(a: Announcement) -> tuple[Announcement, tuple[str, ...]]:
    """Apply the rule inferences and refuse impossible games.

    Returns the normalised announcement and German notes on what was set automatically.
    """
    notes: list[str] = []
    if a.game.is_null:
        _check_null(a)
    else:
        a, notes = _check_trump_game(a, notes)
    if a.bid is not None:
        check_bid(a.bid)
    if a.card_points is not None and not 0 <= a.card_points <= 120:
        raise RuleError(
            f"{a.card_points} Augen gibt es nicht.", hint="Augen liegen zwischen 0 und 120."
        )
    _refuse_without(a, "re")
    if a.won is None and a.card_points is None:
        raise RuleError(
            "Das Ergebnis fehlt.", hint="Schreib „gewonnen“, „verloren“ oder „augen N“."
        )
    return a, tuple(notes)


def _check_null(a: Announcement) -> None:
    if a.matadors is not None:
        raise RuleError("Null hat keine Spitzen.", hint="Lass „mit/ohne N“ weg.")
    if a.schneider or a.schwarz or a.schneider_announced or a.schwarz_announced:
        raise RuleError(
            "Null kennt kein Schneider oder Schwarz.",
            hint="Beim Null gibt es nur „hand“ und „ouvert“.",
        )
    if a.card_points is not None:
        raise RuleError(
            "Beim Null zählen Stiche, nicht Augen.",
            hint="Schreib „gewonnen“ oder „verloren“.",
        )


def _check_trump_game(a: Announcement, notes: list[str]) -> tuple[Announcement, list[str]]:
    game = a.game
    if a.matadors is None:
        raise RuleError(
            f"Bei {game.label} fehlen die Spitzen.",
            hint=f"Schreib z. B. „mit 1“ oder „ohne 2“ ({_matador_range(game)}).",
        )
    if not 1 <= a.matadors <= game.max_matadors:
        word = "mit" if a.with_matadors else "ohne"
        raise RuleError(
            f"{game.label} {word} {a.matadors} gibt es nicht.",
            hint=f"Erlaubt: {_matador_range(game)}.",
        )
    a, inferred = _infer(a)
    return a, notes + inferred


def _matador_range(game: GameType) -> str:
    if game is GameType.GRAND:
        return "im Grand 1 bis 4 Spitzen"
    return "im Farbspiel 1 bis 11 Spitzen"


def evaluate(announcement: Announcement) -> GameResult:
    """Evaluate one game; raises ``RuleError`` for impossible or contradictory input."""
    a, notes = normalize(announcement)  # idempotent: cheap for parsed input, needed for raw
    if a.game.is_null:
        return _evaluate_null(a, notes)
    return _evaluate_trump(a, notes)


def _evaluate_null(a: Announcement, notes: tuple[str, ...]) -> GameResult:
    played = NULL_VALUE[(a.ouvert, a.hand)]
    won = bool(a.won)
    value, overbid = played, False
    if a.bid is not None and played < a.bid:
        reaching = [v for v in sorted(NULL_VALUE.values()) if v >= a.bid]
        if not reaching:
            raise RuleError(
                f"Kein Nullspiel erreicht Reiz {a.bid} (höchstens {NULL_MAX_BID}).",
                hint="Prüf den Reizwert oder die Spielart.",
            )
        value, overbid, won = reaching[0], True, False
    reason = None if won else (LossReason.OVERBID if overbid else LossReason.TYPED)
    return GameResult(a, won, overbid, value, played, notes=notes, loss_reason=reason)


def _evaluate_trump(a: Announcement, notes: tuple[str, ...]) -> GameResult:
    schneider_reached, schwarz_reached, won_by_play, reason = _play_facts(a)
    schneider = schneider_reached or a.schneider_announced
    schwarz = schwarz_reached or a.schwarz_announced
    assert a.matadors is not None  # normalize guarantees it
    levels: list[tuple[str, int]] = []
    count = a.matadors
    levels.append((f"{'mit' if a.with_matadors else 'ohne'} {a.matadors}", count))
    for name, present in (
        ("Spiel", True),
        ("Hand", a.hand),
        ("Schneider", schneider),
        ("Schneider angesagt", a.schneider_announced),
        ("Schwarz", schwarz),
        ("Schwarz angesagt", a.schwarz_announced),
        ("Ouvert", a.ouvert),
    ):
        if present:
            count += 1
            levels.append((name, count))
    base = a.game.base
    played = count * base
    value, won, overbid = played, won_by_play, False
    if a.bid is not None and played < a.bid:
        value = -(-a.bid // base) * base  # the smallest multiple of the base reaching the bid
        won, overbid = False, True
    if a.won is False and won_by_play and not overbid:
        raise ContradictionError(
            f"„verloren“ passt nicht zu {a.card_points} Augen.",
            hint="Prüf Augen, Reizwert und Ansagen.",
        )
    if overbid and reason in (None, LossReason.TYPED):
        reason = LossReason.OVERBID
    return GameResult(
        a,
        won,
        overbid,
        value,
        played,
        count,
        tuple(levels),
        schneider,
        schwarz,
        notes,
        None if won else reason,
    )


def _play_facts(a: Announcement) -> tuple[bool, bool, bool, LossReason | None]:
    """(Schneider reached, Schwarz reached, won by play, why lost) before the overbid rule."""
    points = a.card_points
    if points is None:
        won = bool(a.won)
        # A won game with an announcement reached the announced level.
        schneider = a.schneider or (won and a.schneider_announced)
        schwarz = a.schwarz or (won and a.schwarz_announced)
        return schneider, schwarz, won, None if won else LossReason.TYPED
    won_points = points >= WIN_MIN
    schneider_points = points > 120 - SCHNEIDER_MAX - 1 or points <= SCHNEIDER_MAX
    if a.schneider and not schneider_points:
        raise ContradictionError(
            f"Schneider passt nicht zu {points} Augen.",
            hint="Schneider heißt: ab 90 Augen gewonnen oder höchstens 30 Augen verloren.",
        )
    if a.schwarz and points not in (0, 120):
        raise ContradictionError(
            f"Schwarz passt nicht zu {points} Augen.",
            hint="Schwarz heißt keinen Stich: gewonnen mit 120 Augen, verloren mit 0.",
        )
    schneider = schneider_points
    # Schwarz is about tricks: it needs the token, or a won game announcing it (docs/rules.md §3).
    schwarz = a.schwarz or (a.won is True and a.schwarz_announced and points == 120)
    reason = _missed(a, won_points, schneider_points, schwarz)
    won = reason is None
    if a.won is True and not won:
        why = "die Ansage wurde nicht erfüllt" if won_points else "unter 61 Augen"
        raise ContradictionError(
            f"„gewonnen“ passt nicht zu {points} Augen ({why}).",
            hint="Prüf die Augen oder schreib „verloren“.",
        )
    return schneider, schwarz, won, reason


def _missed(
    a: Announcement, won_points: bool, schneider_points: bool, schwarz: bool
) -> LossReason | None:
    """Why a game with card points is lost by play (None: won by play)."""
    if not won_points:
        return LossReason.POINTS
    if a.schwarz_announced and not schwarz:
        return LossReason.OUVERT_NOT_SCHWARZ if a.ouvert else LossReason.SCHWARZ_MISSED
    if a.schneider_announced and not schneider_points:
        return LossReason.SCHNEIDER_MISSED
    return None
