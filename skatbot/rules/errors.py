"""Precise, user-facing rule errors.

Every error carries a German message that says what is wrong and how to fix it; handlers show
``str(error)`` unchanged. Subclasses let callers and tests tell the cases apart.
"""

from __future__ import annotations


class RuleError(ValueError):
    """A violation of the Skat rules or of the input grammar (German message)."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        self.message = message
        self.hint = hint
        super().__init__(f"{message} {hint}".strip())


class GrammarError(RuleError):
    """A word or number that the game grammar does not know."""


class InvalidBidError(RuleError):
    """A bid that is not one of the 63 real game values."""

    def __init__(self, bid: int, lower: int | None, upper: int | None) -> None:
        self.bid = bid
        self.lower = lower
        self.upper = upper
        options = " oder ".join(str(v) for v in (lower, upper) if v is not None)
        super().__init__(
            f"{bid} ist kein Reizwert – nächste gültige: {options}.",
            hint="Reizwerte: 18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50 … 264.",
        )


class ContradictionError(RuleError):
    """Two inputs that cannot both be true (e.g. ``gewonnen`` with ``augen 50``)."""


class TournamentError(RuleError):
    """A tournament input that cannot work (participants, seed, results); German, with the fix.

    A :class:`RuleError` like every refusal, so handlers let it through unchanged.  The text
    reads ``problem – fix`` on one line, as the tournament desk has always answered: ``problem``
    and ``fix`` are kept apart (``error.fix`` names what to do) and ``message`` joins them;
    ``hint`` stays empty so the reply keeps that one-line form.
    """

    def __init__(self, problem: str, fix: str = "") -> None:
        self.problem = problem
        self.fix = fix
        super().__init__(f"{problem} – {fix}" if fix else problem)


class GameNightError(RuleError):
    """A game night that cannot be planned as typed (its time, or too few votes); German.

    ``problem`` says what is wrong, ``fix`` what to type or do instead (``hint`` of
    :class:`RuleError`, so the reply reads ``problem fix``)."""

    def __init__(self, problem: str, fix: str) -> None:
        self.problem = problem
        self.fix = fix
        super().__init__(problem, hint=fix)
