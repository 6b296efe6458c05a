"""The one way a number is read from what people type: counts, points, amounts' digits, years.

Only ASCII digits count. Python's ``str.isdigit`` and ``re``'s ``\\d`` accept digits of every
script ("٣٦", "３６") and ``isdigit`` even superscripts ("²"), which ``int`` then reads as 36
or refuses with a ValueError. Here a word is a number when it is ``[+-]?[0-9]+`` and nothing
else; anything else is a ``NumberError`` (a RuleError) that names the form expected.
"""

from __future__ import annotations

import re

from skatbot.rules.errors import RuleError

ASCII_DIGITS = re.compile(r"[0-9]+")
ASCII_INT = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 12  # nothing the bot counts needs more; a longer run is a typo or an attack


class NumberError(RuleError):
    """A word that should be a number and is not one (in ASCII digits)."""


def is_number(word: str) -> bool:
    """Whether ``word`` is a whole non-negative number in ASCII digits (``"36"``, not
    ``"٣٦"``, ``"²"`` or ``"３６"``), of any length (callers bound it)."""
    return ASCII_DIGITS.fullmatch(word) is not None


def has_foreign_digit(word: str) -> bool:
    """Whether ``word`` holds a digit that is not ASCII (other scripts, superscripts, …)."""
    return any(ch.isdigit() and not "0" <= ch <= "9" for ch in word)


def refuse_foreign_digits(word: str, what: str, example: str) -> None:
    """Refuse a word with a digit that is not ASCII ("²", "٣٦") where ``what`` is expected,
    naming the form, rather than calling it unknown or reading it as a number."""
    if has_foreign_digit(word):
        raise NumberError(
            f"„{_shown(word)}“ ist keine Zahl aus den Ziffern 0–9 – hier gehört {what} hin.",
            hint=f"Mit Ziffern 0–9 schreiben, z. B. {example}.",
        )


def _shown(word: str) -> str:
    return word[:16] + ("…" if len(word) > 16 else "")


def parse_int(
    word: str,
    what: str,
    *,
    low: int | None = None,
    high: int | None = None,
    signed: bool = False,
    example: str = "",
) -> int:
    """``word`` as an int (ASCII digits, a sign only if ``signed``), within ``low``..``high``;
    else a NumberError naming ``what`` and the form (``example``)."""
    pattern = ASCII_INT if signed else ASCII_DIGITS
    digits = word.lstrip("+-") if signed else word
    sample = example or (f"{low}" if low is not None else "12")
    if pattern.fullmatch(word) is None or len(digits) > MAX_DIGITS:
        foreign = " (nur die Ziffern 0–9)" if has_foreign_digit(word) else ""
        raise NumberError(
            f"„{_shown(word)}“ ist keine Zahl{foreign} – hier gehört {what} hin.",
            hint=f"Mit Ziffern 0–9 schreiben, z. B. {sample}.",
        )
    value = int(word)
    if (low is not None and value < low) or (high is not None and value > high):
        span = (
            f"von {low} bis {high}"
            if low is not None and high is not None
            else (f"ab {low}" if low is not None else f"bis {high}")
        )
        raise NumberError(
            f"{value} passt nicht als {what}.", hint=f"Erlaubt ist {span}, z. B. {sample}."
        )
    return value


def parse_count(word: str, what: str, *, low: int = 1, high: int | None = None) -> int:
    """A count (a table number, a series length, ...): a whole number from ``low``."""
    return parse_int(word, what, low=low, high=high)
