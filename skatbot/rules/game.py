"""Value types of a Skat game as entered: game type and announcement."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class GameType(enum.Enum):
    """The six game types with their base value (ISkO 2.4.1); null has fixed values."""

    KARO = ("Karo", 9)
    HERZ = ("Herz", 10)
    PIK = ("Pik", 11)
    KREUZ = ("Kreuz", 12)
    GRAND = ("Grand", 24)
    NULL = ("Null", 0)

    def __init__(self, label: str, base: int) -> None:
        self.label = label
        self.base = base

    @property
    def is_null(self) -> bool:
        return self is GameType.NULL

    @property
    def is_suit(self) -> bool:
        return self in (GameType.KARO, GameType.HERZ, GameType.PIK, GameType.KREUZ)

    @property
    def max_matadors(self) -> int:
        """Suit games have at most 11 matadors, grand 4 (ISkO 2.3.3); null none."""
        if self is GameType.GRAND:
            return 4
        return 0 if self.is_null else 11


# Null's fixed values (ISkO 2.4.2), keyed by (ouvert, hand).
NULL_VALUE = {
    (False, False): 23,
    (False, True): 35,
    (True, False): 46,
    (True, True): 59,
}


@dataclass(frozen=True)
class Announcement:
    """A game as the players report it, normalised (implied announcements set).

    ``schneider``/``schwarz`` say that the level was reached by the party that made it (the
    declarer when won, the opponents when lost); ``card_points`` are the declarer's card points
    if given. ``won`` is the outcome typed by the players (None if only points were given).
    ``kontra``/``re`` only exist under house rules.
    """

    game: GameType
    matadors: int | None = None
    with_matadors: bool = True
    hand: bool = False
    schneider: bool = False
    schneider_announced: bool = False
    schwarz: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    bid: int | None = None
    won: bool | None = None
    card_points: int | None = None
    kontra: bool = False
    re: bool = False
