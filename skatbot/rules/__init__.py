"""Pure Skat rules: no I/O, no Telegram, no database."""

from skatbot.rules.bids import BID_VALUES, check_bid, is_bid_value, nearest_bids
from skatbot.rules.errors import ContradictionError, GrammarError, InvalidBidError, RuleError
from skatbot.rules.game import Announcement, GameType
from skatbot.rules.grammar import contract_text, format_announcement, parse_announcement
from skatbot.rules.scoring import Booking, Totals, seeger_fabian
from skatbot.rules.value import GameResult, evaluate

__all__ = [
    "BID_VALUES",
    "Announcement",
    "Booking",
    "ContradictionError",
    "GameResult",
    "GameType",
    "GrammarError",
    "InvalidBidError",
    "RuleError",
    "Totals",
    "check_bid",
    "contract_text",
    "evaluate",
    "format_announcement",
    "is_bid_value",
    "nearest_bids",
    "parse_announcement",
    "seeger_fabian",
]
