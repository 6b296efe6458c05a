"""The 63 real bid values (ISkO 3.3.1): every value a game can have, from 18 to 264."""

from __future__ import annotations

import bisect

from skatbot.rules.errors import InvalidBidError

SUIT_BASES = (9, 10, 11, 12, 24)
NULL_VALUES = (23, 35, 46, 59)
MIN_BID = 18
MAX_BID = 264


def _all_bid_values() -> tuple[int, ...]:
    values: set[int] = set(NULL_VALUES)
    # Suit games reach multiplier 2..18 (mit/ohne 11 + all 7 levels), grand 2..11.
    for base in SUIT_BASES:
        top = 11 if base == 24 else 18
        values.update(base * m for m in range(2, top + 1))
    return tuple(sorted(v for v in values if MIN_BID <= v <= MAX_BID))


BID_VALUES: tuple[int, ...] = _all_bid_values()


def is_bid_value(bid: int) -> bool:
    i = bisect.bisect_left(BID_VALUES, bid)
    return i < len(BID_VALUES) and BID_VALUES[i] == bid


def nearest_bids(bid: int) -> tuple[int | None, int | None]:
    """The valid bid values just below and just above ``bid`` (None past either end)."""
    i = bisect.bisect_left(BID_VALUES, bid)
    lower = BID_VALUES[i - 1] if i > 0 else None
    j = bisect.bisect_right(BID_VALUES, bid)
    upper = BID_VALUES[j] if j < len(BID_VALUES) else None
    return lower, upper


def check_bid(bid: int) -> int:
    """Return ``bid`` if it is a real bid value, else raise with the two nearest valid ones."""
    if not is_bid_value(bid):
        lower, upper = nearest_bids(bid)
        raise InvalidBidError(bid, lower, upper)
    return bid
