"""Money: stakes at a private table, tournament fees and prizes. Pure, exact.

Amounts are integer cents; a stake per point may be a fraction of a cent (``Decimal`` cents,
e.g. ``Decimal("0.5")`` for "0,5 ct"). Nothing here uses ``float``.

*Pairwise* ("paarweise", the classic table settlement): every player pays every better player
the difference of their scores times the stake. Player i's balance is therefore
``(n·sᵢ − Σs) × stake``; the balances add up to zero. With a stake in fractions of a cent the
exact balances are rounded to cents by the largest-remainder method, so they still add up to
zero and each is less than a cent from the exact value.

*Into the pot* ("kasse"): every player pays the stake per minus point of their score (a
positive score pays nothing), or ("verlustspiel") per lost game; each payment is rounded half
up to a cent. Nobody pays anybody else.

*Fewest transfers*: :func:`settle` pays the balances with the least number of transfers: the
players with a balance split into the largest number of groups that add up to zero (exact for
up to ``EXACT_LIMIT`` players, greedy beyond), each group settled by its largest debtor paying
its largest creditor until nothing is left, so a group of k needs at most k − 1 transfers and
all of them at most n − 1.

*Tournament fees* ("Verlustspielgeld" with tiers): the k-th lost game of a series costs the fee
of the last tier whose start is ≤ k, e.g. 0,50 € for the 1st to 3rd and 1,00 € from the 4th:
``lost_fee(5, (Tier(1, 50), Tier(4, 100))) == 3 × 50 + 2 × 100 == 350``. Each table size (3 or
4) has its own tiers and its own table fee ("Tischgeld", per participant and series).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal, InvalidOperation
from enum import Enum

from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number, refuse_foreign_digits

MINUS = "\u2212"
EXACT_LIMIT = 15  # players with a balance: exact fewest transfers up to here (2^15 subsets)
MAX_STAKE_CENTS = Decimal(1000)  # 10 € per point
MAX_AMOUNT_CENTS = 10_000_000  # 100.000 € for a fee or a prize
MAX_TIERS = 6
MAX_PRIZES = 100


class MoneyError(RuleError):
    """An amount, stake, fee or prize that cannot work (German, with the fix)."""


# --- amounts --------------------------------------------------------------------------------

_UNITS = {
    "ct": 1,
    "cent": 1,
    "cents": 1,
    "€": 100,
    "eur": 100,
    "euro": 100,
    "euros": 100,
}
_NUMBER = r"[+\-−]?[0-9][0-9.]*(?:,[0-9]*)?"
_AMOUNT = re.compile(rf"^({_NUMBER})\s*(ct|cents?|€|eur|euros?)?$", re.IGNORECASE)
_EURO_FIRST = re.compile(rf"^€\s*({_NUMBER})$")


def _number(text: str) -> Decimal:
    text = text.replace("−", "-")
    if "," in text:  # German: dots group thousands, the comma is the decimal point
        whole, _, frac = text.partition(",")
        if "." in whole and not re.fullmatch(r"[+\-]?[0-9]{1,3}(\.[0-9]{3})+", whole):
            raise InvalidOperation(text)
        text = whole.replace(".", "") + "." + (frac or "0")
    elif re.fullmatch(r"[+\-]?[0-9]{1,3}(\.[0-9]{3})+", text):  # "1.234": thousands
        text = text.replace(".", "")
    elif text.count(".") > 1:
        raise InvalidOperation(text)
    return Decimal(text)


def parse_amount(text: str, *, what: str = "Betrag", example: str = "0,50 €") -> Decimal:
    """An amount with its unit in cents (possibly fractional): "1 ct", "0,5ct", "0,50 €",
    "1.234,50 €", "2 euro", "€ 3". A number without unit is refused (cent or euro?)."""
    words = " ".join(text.split())
    m = _AMOUNT.match(words)
    euro_first = _EURO_FIRST.match(words)
    if m is None and euro_first is None:
        raise MoneyError(f"„{words[:30]}“ ist kein Betrag.", hint=f"Z. B. {example} oder 50 ct.")
    number, unit = (m.group(1), m.group(2)) if m else (euro_first.group(1), "€")  # type: ignore[union-attr]
    try:
        value = _number(number)
    except (InvalidOperation, ValueError):
        raise MoneyError(
            f"„{words[:30]}“ ist kein Betrag.", hint=f"Z. B. {example} oder 50 ct."
        ) from None
    if unit is None:
        raise MoneyError(
            f"{what} {number} – Cent oder Euro?",
            hint=f"Mit Einheit bitte, z. B. {number} ct oder {number} €.",
        )
    if value < 0:
        raise MoneyError(f"{what} kann nicht negativ sein.", hint=f"Z. B. {example}.")
    return value * _UNITS[unit.casefold()]


def whole_cents(amount: Decimal, *, what: str = "Betrag") -> int:
    """``amount`` (cents) as whole cents; fractions of a cent are refused."""
    if amount != amount.to_integral_value():
        raise MoneyError(f"{what} geht nur auf den Cent genau.", hint="Z. B. 0,50 € oder 1,25 €.")
    cents = int(amount)
    if cents > MAX_AMOUNT_CENTS:
        raise MoneyError(
            f"{what} {format_money(cents)} ist zu hoch.",
            hint=f"Höchstens {format_money(MAX_AMOUNT_CENTS)}.",
        )
    return cents


def format_money(cents: int, *, signed: bool = False) -> str:
    """German: "1.234,50 €", "−0,30 €" (real minus sign); ``signed``: "+1,20 €"."""
    euros, rest = divmod(abs(cents), 100)
    text = f"{euros:,}".replace(",", ".") + f",{rest:02d} €"
    if cents < 0:
        return MINUS + text
    return ("+" + text) if signed and cents > 0 else text


def _decimal_text(value: Decimal) -> str:
    """German decimal without trailing zeros: 0.5 → "0,5", 2 → "2"."""
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",")


def format_stake(per_point: Decimal) -> str:
    """A stake: below a euro in cents ("1 ct", "0,5 ct"), else in euros ("1,00 €")."""
    if per_point >= 100 and per_point == per_point.to_integral_value():
        return format_money(int(per_point))
    return f"{_decimal_text(per_point)} ct"


def format_percent(share: Decimal) -> str:
    return f"{_decimal_text(share)} %"


# --- stakes ---------------------------------------------------------------------------------


class Method(Enum):
    PAIRWISE = "paarweise"  # each pays every better player the difference × stake
    POT_POINTS = "kasse"  # each pays the stake per minus point into the pot
    POT_GAMES = "verlustspiel"  # each pays the stake per lost game into the pot

    @property
    def pot(self) -> bool:
        return self is not Method.PAIRWISE


_METHOD_WORDS = {
    "paarweise": Method.PAIRWISE,
    "paarw": Method.PAIRWISE,
    "untereinander": Method.PAIRWISE,
    "kasse": Method.POT_POINTS,
    "pott": Method.POT_POINTS,
    "topf": Method.POT_POINTS,
    "minuspunkt": Method.POT_POINTS,
    "minuspunkte": Method.POT_POINTS,
    "verlustspiel": Method.POT_GAMES,
    "verlustspiele": Method.POT_GAMES,
    "spiel": Method.POT_GAMES,
    "verloren": Method.POT_GAMES,
}
OFF_WORDS = {"aus", "keiner", "kein", "0", "null", "ohne"}


@dataclass(frozen=True)
class Stake:
    per_point: Decimal  # cents per point (or per lost game for ``POT_GAMES``), > 0
    method: Method = Method.PAIRWISE

    @property
    def label(self) -> str:
        amount = format_stake(self.per_point)
        if self.method is Method.PAIRWISE:
            return f"{amount} pro Punkt, paarweise"
        if self.method is Method.POT_POINTS:
            return f"{amount} pro Minuspunkt in die Kasse"
        return f"{amount} pro verlorenem Spiel in die Kasse"

    def to_json(self) -> dict[str, str]:
        return {"per_point": str(self.per_point), "method": self.method.value}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Stake | None:
        raw = data.get("per_point")
        if raw in (None, "", "0"):
            return None
        return cls(Decimal(str(raw)), Method(str(data.get("method", "paarweise"))))


STAKE_EXAMPLE = "/einsatz 1 ct (paarweise) · /einsatz 1 ct kasse · /einsatz 50 ct verlustspiel"


def parse_stake(words: Sequence[str]) -> Stake | None:
    """``/einsatz`` words: an amount with unit and optionally the method; None for "aus"."""
    folded = [w.casefold().strip(".,;:!") for w in words]
    if len(folded) == 1 and folded[0] in OFF_WORDS:
        return None
    method = Method.PAIRWISE
    rest: list[str] = []
    methods = [w for w in folded if w in _METHOD_WORDS]
    if len({_METHOD_WORDS[w] for w in methods}) > 1:
        raise MoneyError(
            "Paarweise oder in die Kasse – bitte nur eines.", hint="Z. B. " + STAKE_EXAMPLE
        )
    for original, word in zip(words, folded, strict=True):
        if word in _METHOD_WORDS:
            method = _METHOD_WORDS[word]
        elif word in ("pro", "je", "punkt", "ct/punkt", "in", "die", "a", "à"):
            continue
        else:
            rest.append(original)
    if not rest:
        raise MoneyError("Wie hoch ist der Einsatz?", hint="Z. B. " + STAKE_EXAMPLE)
    amount = parse_amount(" ".join(rest), what="Der Einsatz", example="1 ct")
    if amount == 0:
        return None
    if amount > MAX_STAKE_CENTS:
        raise MoneyError(
            f"{format_stake(amount)} ist als Einsatz zu hoch.",
            hint=f"Höchstens {format_stake(MAX_STAKE_CENTS)} pro Punkt.",
        )
    if amount * 100 != (amount * 100).to_integral_value():
        raise MoneyError(
            f"{format_stake(amount)} ist zu fein.",
            hint="Höchstens zwei Stellen hinter dem Komma in Cent, z. B. 0,25 ct.",
        )
    return Stake(amount, method)


def round_to_total(exact: Sequence[Decimal], total: int) -> list[int]:
    """Whole cents close to ``exact`` that add up to ``total`` (largest remainder).

    ``sum(exact)`` must equal ``total``. Every result is the floor or the ceiling of its exact
    value; the extra cents go to the largest fractional parts (ties: the lower index)."""
    floors = [int(x.to_integral_value(rounding=ROUND_FLOOR)) for x in exact]
    left = total - sum(floors)
    if sum(exact) != total or not 0 <= left <= len(exact):
        raise ValueError("the exact values do not add up to the total")
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:left]:
        floors[i] += 1
    return floors


def pairwise_balances(scores: Sequence[int], per_point: Decimal) -> list[int]:
    """Player i receives ``(n·sᵢ − Σs) × stake`` (negative: pays); the sum is zero."""
    n, total = len(scores), sum(scores)
    return round_to_total([(n * s - total) * per_point for s in scores], 0)


def half_up(value: Decimal) -> int:
    return int(value.to_integral_value(rounding=ROUND_HALF_UP))


def pot_payments(units: Sequence[int], per_unit: Decimal) -> list[int]:
    """What each player pays into the pot: ``units`` (minus points or lost games, ≥ 0) ×
    the stake, rounded half up to a cent."""
    if any(u < 0 for u in units):
        raise ValueError("pot units must not be negative")
    return [half_up(u * per_unit) for u in units]


@dataclass(frozen=True)
class Transfer:
    payer: int
    payee: int
    cents: int


def _zero_sum_groups(people: list[int], balances: Sequence[int]) -> list[list[int]]:
    """``people`` (all with a balance ≠ 0) split into the most groups that each add up to 0."""
    k = len(people)
    if k > EXACT_LIMIT:
        return [people]
    full = (1 << k) - 1
    sums = [0] * (1 << k)
    for mask in range(1, 1 << k):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[people[low]]
    best = [0] * (1 << k)
    for mask in range(1, 1 << k):
        top = 0
        m = mask
        while m:
            bit = m & -m
            top = max(top, best[mask ^ bit])
            m ^= bit
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk back along an optimal chain; the members removed between two zero-sum masks form
    # a group.
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        gain = 1 if sums[mask] == 0 else 0
        if gain and current:
            groups.append(current)
            current = []
        m = mask
        while m:
            bit = m & -m
            if best[mask ^ bit] + gain == best[mask]:
                current.append(people[bit.bit_length() - 1])
                mask ^= bit
                break
            m ^= bit
    if current:
        groups.append(current)
    return [sorted(g) for g in sorted(groups, key=min)]


def settle(balances: Sequence[int]) -> list[Transfer]:
    """The fewest transfers that pay ``balances`` (cents; positive receives, sum zero)."""
    if sum(balances) != 0:
        raise ValueError("balances must add up to zero")
    people = [i for i, b in enumerate(balances) if b != 0]
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(people, balances):
        left = {i: balances[i] for i in group}
        while any(left.values()):
            payer = min(left, key=lambda i: (left[i], i))  # the largest debt
            payee = max(left, key=lambda i: (left[i], -i))  # the largest claim
            cents = min(-left[payer], left[payee])
            transfers.append(Transfer(payer, payee, cents))
            left[payer] += cents
            left[payee] -= cents
    return sorted(transfers, key=lambda t: (t.payer, t.payee))


@dataclass(frozen=True)
class Settlement:
    """What a list (or an evening) costs under a stake."""

    names: tuple[str, ...]
    stake: Stake
    balances: tuple[int, ...]  # cents, + receives, − pays (pot: minus the payment)
    transfers: tuple[Transfer, ...]  # pairwise only
    pot: int  # pot only: the sum paid into the pot

    @property
    def is_pot(self) -> bool:
        return self.stake.method.pot


def settle_scores(
    names: Sequence[str], scores: Sequence[int], lost: Sequence[int], stake: Stake
) -> Settlement:
    """The settlement of one list: ``scores`` (Seeger-Fabian or house score) and ``lost``
    (lost games) per player, in seat order."""
    if stake.method is Method.PAIRWISE:
        balances = pairwise_balances(scores, stake.per_point)
        return Settlement(tuple(names), stake, tuple(balances), tuple(settle(balances)), pot=0)
    units = [max(0, -s) for s in scores] if stake.method is Method.POT_POINTS else list(lost)
    paid = pot_payments(units, stake.per_point)
    return Settlement(tuple(names), stake, tuple(-p for p in paid), (), pot=sum(paid))


def combine(names: Sequence[str], parts: Sequence[Mapping[str, int]], stake: Stake) -> Settlement:
    """Several series' balances added per name (an evening), settled anew."""
    totals = [sum(p.get(n, 0) for p in parts) for n in names]
    pot = -sum(totals)
    transfers = () if stake.method.pot else tuple(settle(totals))
    return Settlement(tuple(names), stake, tuple(totals), transfers, pot=pot)


# --- tournament fees ------------------------------------------------------------------------


@dataclass(frozen=True)
class Tier:
    from_game: int  # the first lost game of the series this fee applies to (1-based)
    cents: int


def lost_fee(lost: int, tiers: Sequence[Tier]) -> int:
    """The fee for ``lost`` lost games in one series under ``tiers`` (sorted by start)."""
    total = 0
    for i, tier in enumerate(tiers):
        end = tiers[i + 1].from_game - 1 if i + 1 < len(tiers) else lost
        count = max(0, min(lost, end) - tier.from_game + 1)
        total += count * tier.cents
    return total


def tiers_label(tiers: Sequence[Tier]) -> str:
    if not tiers:
        return "kein Verlustspielgeld"
    parts = []
    for i, tier in enumerate(tiers):
        if i == 0 and tier.from_game == 1:
            parts.append(f"{format_money(tier.cents)} je verlorenem Spiel")
        else:
            parts.append(f"ab dem {tier.from_game}. {format_money(tier.cents)}")
    return ", ".join(parts)


TIER_EXAMPLE = "/gebuehren verlust 0,50 € ab 4 1 €"
_FROM = re.compile(r"^ab([0-9]{1,3})?\.?$", re.IGNORECASE)


def parse_tiers(words: Sequence[str]) -> tuple[Tier, ...]:
    """ "0,50 € ab 4 1 €" → (Tier(1, 50), Tier(4, 100)); "ab 4 1 €" → (Tier(4, 100),)."""
    tiers: list[Tier] = []
    start = 1
    amount: list[str] = []
    pending: list[int] = []  # an "ab N" still waiting for its amount
    i = 0

    def flush() -> None:
        if not amount:
            raise MoneyError(f"Nach „ab {start}“ fehlt der Betrag.", hint="Z. B. " + TIER_EXAMPLE)
        cents = whole_cents(
            parse_amount(" ".join(amount), what="Das Verlustspielgeld"), what="Das Verlustspielgeld"
        )
        if tiers and start <= tiers[-1].from_game:
            raise MoneyError(
                f"Die Stufen müssen aufsteigen ({tiers[-1].from_game}, dann {start}).",
                hint="Z. B. " + TIER_EXAMPLE,
            )
        tiers.append(Tier(start, cents))
        amount.clear()
        pending.clear()

    words = [w for w in words if w.casefold() not in ("dem", "je", "pro", "spiel", "spiele")]
    while i < len(words):
        m = _FROM.match(words[i])
        if m is None:
            amount.append(words[i])
            i += 1
            continue
        if amount:
            flush()
        number = m.group(1)
        if number is None:
            if i + 1 < len(words):
                refuse_foreign_digits(words[i + 1], "die Nummer des Verlustspiels", TIER_EXAMPLE)
            if i + 1 >= len(words) or not is_number(words[i + 1].rstrip(".")):
                raise MoneyError("„ab“ braucht eine Zahl.", hint="Z. B. " + TIER_EXAMPLE)
            number = words[i + 1].rstrip(".")
            i += 1
        start = int(number)
        pending.append(start)
        if not 1 <= start <= 200:
            raise MoneyError(
                f"Ab dem {start}. verlorenen Spiel geht nicht.", hint="Erlaubt: ab 1 bis ab 200."
            )
        i += 1
    if amount or pending or not tiers:
        flush()
    if len(tiers) > MAX_TIERS:
        raise MoneyError(f"Höchstens {MAX_TIERS} Stufen.", hint="Z. B. " + TIER_EXAMPLE)
    return tuple(tiers)


@dataclass(frozen=True)
class Fees:
    entry: int = 0  # Startgeld, once per participant
    lost: Mapping[int, tuple[Tier, ...]] = field(default_factory=dict)  # by table size 3/4
    table: Mapping[int, int] = field(default_factory=dict)  # Tischgeld per series, by size

    @property
    def any(self) -> bool:
        return bool(self.entry or any(self.lost.get(s) for s in (3, 4)) or any(self.table.values()))

    def to_json(self) -> dict[str, object]:
        return {
            "entry": self.entry,
            "lost": {
                str(s): [[t.from_game, t.cents] for t in self.lost.get(s, ())] for s in (3, 4)
            },
            "table": {str(s): self.table.get(s, 0) for s in (3, 4)},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Fees:
        lost_raw = data.get("lost") or {}
        table_raw = data.get("table") or {}
        assert isinstance(lost_raw, dict) and isinstance(table_raw, dict)
        return cls(
            entry=int(str(data.get("entry", 0))),
            lost={
                int(s): tuple(Tier(int(a), int(b)) for a, b in tiers)
                for s, tiers in lost_raw.items()
            },
            table={int(s): int(v) for s, v in table_raw.items()},
        )


@dataclass(frozen=True)
class Prizes:
    """Place prizes as amounts (cents) or as shares (percent of the pot, adding up to 100);
    series prizes as amounts for places 1, 2, … of each complete series."""

    amounts: tuple[int, ...] = ()
    shares: tuple[Decimal, ...] = ()
    series: tuple[int, ...] = ()

    @property
    def places(self) -> int:
        return len(self.amounts) or len(self.shares)

    def to_json(self) -> dict[str, object]:
        return {
            "amounts": list(self.amounts),
            "shares": [str(s) for s in self.shares],
            "series": list(self.series),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Prizes:
        def items(key: str) -> list[object]:
            raw = data.get(key) or []
            assert isinstance(raw, list)
            return raw

        return cls(
            amounts=tuple(int(str(a)) for a in items("amounts")),
            shares=tuple(Decimal(str(s)) for s in items("shares")),
            series=tuple(int(str(a)) for a in items("series")),
        )


PRIZE_EXAMPLE = "/preise 100 € 60 € 40 € · /preise 50 % 30 % 20 % · /preise serie 20 € 10 €"
_PERCENT = re.compile(r"^([0-9]{1,3}(?:[.,][0-9]{1,2})?)\s*%$")


def _split_amounts(text: str) -> list[str]:
    """ "100 € 60€ 40 €" → ["100 €", "60€", "40 €"]; "50 % 30%" → ["50 %", "30%"]."""
    items = re.findall(
        r"[+\-−]?[0-9][0-9.,]*\s*(?:%|ct\b|cents?\b|€|eur\b|euros?\b)?", text, re.IGNORECASE
    )
    rest = re.sub(
        r"[+\-−]?[0-9][0-9.,]*\s*(?:%|ct\b|cents?\b|€|eur\b|euros?\b)?", " ", text, flags=re.I
    )
    leftover = [w for w in rest.replace(",", " ").replace(";", " ").split() if w not in ("·",)]
    if leftover:
        raise MoneyError(f"„{leftover[0][:20]}“ verstehe ich hier nicht.", hint=PRIZE_EXAMPLE)
    return [" ".join(i.split()) for i in items]


def parse_place_prizes(text: str) -> tuple[tuple[int, ...], tuple[Decimal, ...]]:
    """Amounts ("100 € 60 € 40 €") or shares ("50 % 30 % 20 %", adding up to 100)."""
    items = _split_amounts(text)
    if not items:
        raise MoneyError("Welche Preise?", hint=PRIZE_EXAMPLE)
    if len(items) > MAX_PRIZES:
        raise MoneyError(f"Höchstens {MAX_PRIZES} Preise.", hint=PRIZE_EXAMPLE)
    percents = [_PERCENT.match(i) for i in items]
    if any(percents):
        if not all(percents):
            raise MoneyError(
                "Bitte entweder Beträge oder Anteile in Prozent, nicht gemischt.",
                hint=PRIZE_EXAMPLE,
            )
        shares = tuple(Decimal(m.group(1).replace(",", ".")) for m in percents if m)
        if any(s <= 0 for s in shares):
            raise MoneyError("Ein Anteil von 0 % ist kein Preis.", hint=PRIZE_EXAMPLE)
        total = sum(shares, Decimal(0))
        if total != 100:
            raise MoneyError(
                f"Die Anteile ergeben {format_percent(total)}, nicht 100 %.",
                hint="Die Anteile müssen zusammen 100 % ergeben, z. B. /preise 50 % 30 % 20 %.",
            )
        return (), shares
    amounts = tuple(whole_cents(parse_amount(i, what="Ein Preis"), what="Ein Preis") for i in items)
    if any(a == 0 for a in amounts):
        raise MoneyError("Ein Preis von 0,00 € ist kein Preis.", hint=PRIZE_EXAMPLE)
    return amounts, ()


def parse_series_prizes(text: str) -> tuple[int, ...]:
    items = _split_amounts(text)
    if not items:
        raise MoneyError("Welche Serienpreise?", hint="Z. B. /preise serie 20 € 10 €")
    if any(_PERCENT.match(i) for i in items):
        raise MoneyError("Serienpreise bitte als Beträge.", hint="Z. B. /preise serie 20 € 10 €")
    if len(items) > MAX_PRIZES:
        raise MoneyError(f"Höchstens {MAX_PRIZES} Serienpreise.", hint=PRIZE_EXAMPLE)
    amounts = tuple(
        whole_cents(parse_amount(i, what="Ein Serienpreis"), what="Ein Serienpreis") for i in items
    )
    if any(a == 0 for a in amounts):
        raise MoneyError("Ein Preis von 0,00 € ist kein Preis.", hint=PRIZE_EXAMPLE)
    return amounts


def split_shares(pot: int, shares: Sequence[Decimal]) -> list[int]:
    """``pot`` cents split by ``shares`` (percent, adding up to 100); the parts add up to the
    pot exactly (largest remainder). A pot below zero gives nothing."""
    if not shares:
        return []
    if sum(shares, Decimal(0)) != 100:
        raise ValueError("shares must add up to 100")
    if pot <= 0:
        return [0] * len(shares)
    return round_to_total([pot * s / 100 for s in shares], pot)


# --- a tournament's cash report -------------------------------------------------------------


@dataclass(frozen=True)
class SeriesPlay:
    """One participant's series: the table size and the lost games."""

    series: int
    table_size: int
    lost: int


@dataclass(frozen=True)
class Dues:
    """What one participant owes and wins."""

    name: str
    entry: int
    lost_fee: int
    table_fee: int
    lost_games: int
    prize: int = 0  # place prize
    series_prizes: int = 0

    @property
    def owed(self) -> int:
        return self.entry + self.lost_fee + self.table_fee

    @property
    def won(self) -> int:
        return self.prize + self.series_prizes

    @property
    def net(self) -> int:
        """Positive: the participant gets money from the desk; negative: pays."""
        return self.won - self.owed


@dataclass(frozen=True)
class Payout:
    place: int
    name: str
    cents: int
    series: int | None = None  # a series prize; None: a place prize of the final ranking


@dataclass(frozen=True)
class CashReport:
    dues: tuple[Dues, ...]  # in the order of the participants
    entry: int
    lost_fees: Mapping[int, int]  # by series
    table_fees: Mapping[int, int]  # by series
    payouts: tuple[Payout, ...]  # place prizes first, then series prizes
    pot: int  # what the shares are taken of: income − series prizes

    @property
    def income(self) -> int:
        return self.entry + sum(self.lost_fees.values()) + sum(self.table_fees.values())

    @property
    def paid_out(self) -> int:
        return sum(p.cents for p in self.payouts)

    @property
    def balance(self) -> int:
        return self.income - self.paid_out


def dues_of(name: str, plays: Sequence[SeriesPlay], fees: Fees) -> Dues:
    return Dues(
        name=name,
        entry=fees.entry,
        lost_fee=sum(lost_fee(p.lost, fees.lost.get(p.table_size, ())) for p in plays),
        table_fee=sum(fees.table.get(p.table_size, 0) for p in plays),
        lost_games=sum(p.lost for p in plays),
    )


def cash_report(
    participants: Sequence[str],
    plays: Mapping[str, Sequence[SeriesPlay]],
    ranking: Sequence[str],
    series_rankings: Mapping[int, Sequence[str]],
    fees: Fees,
    prizes: Prizes,
    refunded: Collection[str] = (),
) -> CashReport:
    """Income (entry fee per participant, lost-game and table fees per series played),
    payouts (series prizes to the best of each ranked series, place prizes by ``ranking``:
    amounts, or shares of the pot = income − series prizes), and every participant's dues.
    A participant in ``refunded`` (left, the organiser gave the entry fee back) pays none."""
    base = [dues_of(n, plays.get(n, ()), fees) for n in participants]
    base = [dataclasses.replace(d, entry=0) if d.name in refunded else d for d in base]
    lost_by_series: dict[int, int] = {}
    table_by_series: dict[int, int] = {}
    for n in participants:
        for play in plays.get(n, ()):
            fee = lost_fee(play.lost, fees.lost.get(play.table_size, ()))
            lost_by_series[play.series] = lost_by_series.get(play.series, 0) + fee
            table_fee = fees.table.get(play.table_size, 0)
            table_by_series[play.series] = table_by_series.get(play.series, 0) + table_fee
    series_payouts = [
        Payout(place, name, cents, series=number)
        for number, order in sorted(series_rankings.items())
        for place, (name, cents) in enumerate(zip(order, prizes.series, strict=False), 1)
    ]
    entry = sum(d.entry for d in base)
    income = entry + sum(lost_by_series.values()) + sum(table_by_series.values())
    pot = income - sum(p.cents for p in series_payouts)
    amounts = list(prizes.amounts) if prizes.amounts else split_shares(pot, prizes.shares)
    place_payouts = [
        Payout(place, name, cents)
        for place, (name, cents) in enumerate(zip(ranking, amounts, strict=False), 1)
    ]
    prize_of = {p.name: p.cents for p in place_payouts}
    series_of: dict[str, int] = {}
    for p in series_payouts:
        series_of[p.name] = series_of.get(p.name, 0) + p.cents
    dues = tuple(
        Dues(
            d.name,
            d.entry,
            d.lost_fee,
            d.table_fee,
            d.lost_games,
            prize=prize_of.get(d.name, 0),
            series_prizes=series_of.get(d.name, 0),
        )
        for d in base
    )
    return CashReport(
        dues=dues,
        entry=entry,
        lost_fees=lost_by_series,
        table_fees=table_by_series,
        payouts=(*place_payouts, *series_payouts),
        pot=pot,
    )
