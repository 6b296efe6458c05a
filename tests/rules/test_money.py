"""Money: hand-computed settlements, tiered fees, prizes, and their properties."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatbot.rules import money as m
from skatbot.rules.money import Method, Stake, Tier, Transfer

# --- amounts and formatting -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("1 ct", Decimal(1)),
        ("1ct", Decimal(1)),
        ("0,5 ct", Decimal("0.5")),
        ("2 Cent", Decimal(2)),
        ("0,50 €", Decimal(50)),
        ("0,50€", Decimal(50)),
        ("0.50 €", Decimal(50)),
        ("1.234,50 €", Decimal(123450)),
        ("1.234 €", Decimal(123400)),
        ("2 Euro", Decimal(200)),
        ("€ 3", Decimal(300)),
        ("10 EUR", Decimal(1000)),
    ],
)
def test_amounts_with_their_unit(text: str, cents: Decimal) -> None:
    assert m.parse_amount(text) == cents


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1", "Cent oder Euro?"),
        ("-1 ct", "nicht negativ"),
        ("−0,50 €", "nicht negativ"),
        ("viel", "kein Betrag"),
        ("1,2,3 €", "kein Betrag"),
        ("12.34.5 €", "kein Betrag"),
    ],
)
def test_bad_amounts_are_refused_in_german(text: str, says: str) -> None:
    with pytest.raises(m.MoneyError) as err:
        m.parse_amount(text)
    assert says in str(err.value)


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "0,00 €"),
        (5, "0,05 €"),
        (123450, "1.234,50 €"),
        (-30, "−0,30 €"),
        (100_000_00, "100.000,00 €"),
    ],
)
def test_german_money_format(cents: int, text: str) -> None:
    assert m.format_money(cents) == text


def test_signed_money_and_stakes() -> None:
    assert m.format_money(406, signed=True) == "+4,06 €"
    assert m.format_money(-446, signed=True) == "−4,46 €"
    assert m.format_stake(Decimal(1)) == "1 ct"
    assert m.format_stake(Decimal("0.5")) == "0,5 ct"
    assert m.format_stake(Decimal(100)) == "1,00 €"


def test_fees_are_whole_cents() -> None:
    assert m.whole_cents(Decimal(50)) == 50
    with pytest.raises(m.MoneyError, match="auf den Cent genau"):
        m.whole_cents(Decimal("50.5"))


# --- stakes -----------------------------------------------------------------------------------


def test_stake_words() -> None:
    assert m.parse_stake(["1", "ct"]) == Stake(Decimal(1), Method.PAIRWISE)
    assert m.parse_stake(["1ct", "paarweise"]) == Stake(Decimal(1), Method.PAIRWISE)
    assert m.parse_stake(["0,5", "ct", "pro", "punkt", "kasse"]) == Stake(
        Decimal("0.5"), Method.POT_POINTS
    )
    assert m.parse_stake(["50", "ct", "verlustspiel"]) == Stake(Decimal(50), Method.POT_GAMES)
    assert m.parse_stake(["aus"]) is None
    assert m.parse_stake(["0", "ct"]) is None


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["-1", "ct"], "nicht negativ"),
        (["1"], "Cent oder Euro?"),
        (["kasse"], "Wie hoch"),
        (["1", "ct", "kasse", "paarweise"], "nur eines"),
        (["20", "€"], "zu hoch"),
        (["0,001", "ct"], "zu fein"),
    ],
)
def test_bad_stakes_are_refused(words: list[str], says: str) -> None:
    with pytest.raises(m.MoneyError) as err:
        m.parse_stake(words)
    assert says in str(err.value)


# --- hand-computed settlements ----------------------------------------------------------------


def test_three_table_pairwise_by_hand() -> None:
    # Seeger-Fabian 162, −122, 40 at 1 ct. Anna beats Bernd by 284 and Carla by 122: +406 ct.
    # Carla beats Bernd by 162 and loses 122 to Anna: +40 ct. Bernd pays 284 + 162 = 446 ct.
    s = m.settle_scores(["Anna", "Bernd", "Carla"], [162, -122, 40], [0, 1, 0], Stake(Decimal(1)))
    assert s.balances == (406, -446, 40)
    assert s.transfers == (Transfer(1, 0, 406), Transfer(1, 2, 40))  # n − 1 = 2
    assert s.pot == 0


def test_four_table_pairwise_by_hand() -> None:
    # 1067, 500, −100, 333 at 0,5 ct; Σ = 1800, n = 4.
    # Anna: (4 × 1067 − 1800) × 0,5 = 2468 × 0,5 = 1234 ct (567 + 1167 + 734 = 2468 points)
    # Bernd: (2000 − 1800) × 0,5 = 100; Carla: (−400 − 1800) × 0,5 = −1100;
    # Dora: (1332 − 1800) × 0,5 = −234.
    s = m.settle_scores(
        ["Anna", "Bernd", "Carla", "Dora"],
        [1067, 500, -100, 333],
        [3, 2, 6, 4],
        Stake(Decimal("0.5")),
    )
    assert s.balances == (1234, 100, -1100, -234)
    assert m.format_money(s.balances[0]) == "12,34 €"
    # Carla pays Anna 1100; Dora pays Anna the remaining 134 and Bernd 100: 3 = n − 1.
    assert s.transfers == (Transfer(2, 0, 1100), Transfer(3, 0, 134), Transfer(3, 1, 100))


def test_three_table_pot_by_minus_points() -> None:
    # 1 ct per minus point: only Bernd (−122) pays, 1,22 € into the pot; nobody pays anybody.
    s = m.settle_scores(
        ["Anna", "Bernd", "Carla"], [162, -122, 40], [0, 1, 0], Stake(Decimal(1), Method.POT_POINTS)
    )
    assert s.balances == (0, -122, 0)
    assert s.pot == 122 and s.transfers == ()


def test_four_table_pot_by_lost_games() -> None:
    # 50 ct per lost game; lost 2, 0, 3, 1 → 1,00 + 0 + 1,50 + 0,50 = 3,00 €.
    s = m.settle_scores(
        ["A", "B", "C", "D"], [10, 20, 30, 40], [2, 0, 3, 1], Stake(Decimal(50), Method.POT_GAMES)
    )
    assert s.balances == (-100, 0, -150, -50)
    assert s.pot == 300


def test_fewest_transfers_beats_the_greedy_way() -> None:
    # +4, +3, +2, −5, −4: {+4, −4} and {+3, +2, −5} → 1 + 2 = 3 transfers. Largest-pays-largest
    # from the start would need 4 (−5 → +4, −4 → +3, then −1 and −1 to +2).
    transfers = m.settle([4, 3, 2, -5, -4])
    assert len(transfers) == 3
    assert Transfer(4, 0, 4) in transfers


def test_an_evening_adds_the_series_balances_and_settles_once() -> None:
    # Series 1: Anna +406, Bernd −446, Carla +40; series 2: Anna −300, Bernd +350, Carla −50.
    s = m.combine(
        ["Anna", "Bernd", "Carla"],
        [{"Anna": 406, "Bernd": -446, "Carla": 40}, {"Anna": -300, "Bernd": 350, "Carla": -50}],
        Stake(Decimal(1)),
    )
    assert s.balances == (106, -96, -10)
    assert s.transfers == (Transfer(1, 0, 96), Transfer(2, 0, 10))


def test_fractional_stake_rounds_to_cents_and_still_adds_up() -> None:
    # 0,1 ct: exact +0,2 / −0,1 / −0,1 ct → whole cents adding up to zero.
    balances = m.pairwise_balances([1, 0, 0], Decimal("0.1"))
    assert sum(balances) == 0 and all(abs(b) <= 1 for b in balances)


# --- tiered lost-game fees ----------------------------------------------------------------------


def test_tiered_fee_by_hand() -> None:
    three = (Tier(1, 50), Tier(4, 100))  # 0,50 €, from the 4th lost game 1,00 €
    assert m.lost_fee(0, three) == 0
    assert m.lost_fee(3, three) == 150
    assert m.lost_fee(5, three) == 3 * 50 + 2 * 100  # 3,50 €
    four = (Tier(1, 50), Tier(5, 100))  # the 4-table: 1,00 € only from the 5th
    assert m.lost_fee(5, four) == 4 * 50 + 100  # 3,00 €
    assert m.lost_fee(6, four) == 400
    assert m.lost_fee(5, (Tier(4, 100),)) == 200  # 1st to 3rd free
    assert m.lost_fee(5, ()) == 0


def tiers(text: str) -> tuple[Tier, ...]:
    return m.parse_tiers(text.split())


def test_tier_words() -> None:
    assert tiers("0,50 € ab 4 1 €") == (Tier(1, 50), Tier(4, 100))
    assert tiers("0,50€ ab dem 4. 1€") == (Tier(1, 50), Tier(4, 100))
    assert tiers("50 ct ab4 1 € ab 7 1,50 €") == (
        Tier(1, 50),
        Tier(4, 100),
        Tier(7, 150),
    )
    assert tiers("ab 4 1 €") == (Tier(4, 100),)
    for bad, says in (
        ("0,50 € ab 4", "fehlt der Betrag"),
        ("0,50 € ab 4 1 € ab 3 2 €", "aufsteigen"),
        ("0,505 €", "auf den Cent"),
        ("0,50 € ab x 1 €", "braucht eine Zahl"),
    ):
        with pytest.raises(m.MoneyError, match=says):
            m.parse_tiers(bad.split())
    assert "ab dem 4. 1,00 €" in m.tiers_label((Tier(1, 50), Tier(4, 100)))


# --- prizes -------------------------------------------------------------------------------------


def test_prizes_amounts_or_shares_adding_to_100() -> None:
    assert m.parse_place_prizes("100 € 60 € 40 €") == ((10000, 6000, 4000), ())
    assert m.parse_place_prizes("50 % 30% 20 %") == ((), (Decimal(50), Decimal(30), Decimal(20)))
    with pytest.raises(m.MoneyError, match="ergeben 90 %, nicht 100 %"):
        m.parse_place_prizes("50 % 30 % 10 %")
    with pytest.raises(m.MoneyError, match="nicht gemischt"):
        m.parse_place_prizes("100 € 50 %")
    with pytest.raises(m.MoneyError, match="nicht negativ"):
        m.parse_place_prizes("-5 €")
    assert m.parse_series_prizes("20 € 10 €") == (2000, 1000)


def test_shares_of_the_pot_add_up_exactly() -> None:
    assert m.split_shares(8550, [Decimal(50), Decimal(30), Decimal(20)]) == [4275, 2565, 1710]
    # 100,00 € in thirds: 33,34 + 33,33 + 33,33
    third = Decimal("33.33")
    parts = m.split_shares(10000, [third, third, Decimal("33.34")])
    assert sum(parts) == 10000 and max(parts) - min(parts) <= 1


def test_cash_report_of_a_seven_player_tournament_by_hand() -> None:
    # 7 participants, 10 € entry; 3-table tiers 0,50 € / from the 4th 1 €; 4-table 0,50 € /
    # from the 5th 1 €; 1 € table fee at the 4-table only. Series 1: 4-table Frieda 2 lost,
    # Gustav 6, Dora 4, Anna 5; 3-table Emil 3, Carla 5, Bernd 3.
    fees = m.Fees(
        entry=1000,
        lost={3: (Tier(1, 50), Tier(4, 100)), 4: (Tier(1, 50), Tier(5, 100))},
        table={3: 0, 4: 100},
    )
    plays = {
        name: [m.SeriesPlay(1, size, lost)]
        for name, size, lost in [
            ("Frieda", 4, 2),
            ("Gustav", 4, 6),
            ("Dora", 4, 4),
            ("Anna", 4, 5),
            ("Emil", 3, 3),
            ("Carla", 3, 5),
            ("Bernd", 3, 3),
        ]
    }
    names = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav"]
    ranking = ["Frieda", "Emil", "Gustav", "Carla", "Dora", "Bernd", "Anna"]
    prizes = m.Prizes(shares=(Decimal(50), Decimal(30), Decimal(20)), series=(500,))
    report = m.cash_report(names, plays, ranking, {1: ranking}, fees, prizes)
    # lost-game fees: Frieda 1,00, Gustav 4 × 0,50 + 2 × 1 = 4,00, Dora 2,00, Anna 3,00,
    # Emil 1,50, Carla 3 × 0,50 + 2 × 1 = 3,50, Bernd 1,50 → 16,50 €
    assert report.entry == 7000 and report.lost_fees == {1: 1650} and report.table_fees == {1: 400}
    assert report.income == 9050
    # pot = 90,50 − 5,00 series prize = 85,50 → 42,75 / 25,65 / 17,10
    assert report.pot == 8550
    assert [(p.name, p.cents, p.series) for p in report.payouts] == [
        ("Frieda", 4275, None),
        ("Emil", 2565, None),
        ("Gustav", 1710, None),
        ("Frieda", 500, 1),
    ]
    assert report.balance == 0
    gustav = next(d for d in report.dues if d.name == "Gustav")
    assert (gustav.owed, gustav.won, gustav.net) == (1500, 1710, 210)


# --- properties ---------------------------------------------------------------------------------

scores_st = st.lists(st.integers(-3000, 3000), min_size=2, max_size=8)
stakes_st = st.sampled_from(
    [Decimal(1), Decimal("0.5"), Decimal("0.1"), Decimal("0.25"), Decimal(2)]
)


def _net(transfers: Sequence[Transfer], n: int) -> list[int]:
    net = [0] * n
    for t in transfers:
        net[t.payer] -= t.cents
        net[t.payee] += t.cents
    return net


def _fewest_by_brute_force(balances: Sequence[int]) -> int:
    """n − (the most groups adding up to zero), over every set partition of the debtors and
    creditors (small n only)."""
    people = [b for b in balances if b]

    def best(items: tuple[int, ...]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        top = 0
        for r in range(len(rest) + 1):
            for combo in itertools.combinations(range(len(rest)), r):
                if first + sum(rest[i] for i in combo) == 0:
                    left = tuple(x for i, x in enumerate(rest) if i not in combo)
                    top = max(top, 1 + best(left))
        return top

    return len(people) - best(tuple(people))


@given(scores_st, stakes_st)
def test_pairwise_balances_sum_to_zero_and_match_the_pairs(
    scores: list[int], stake: Decimal
) -> None:
    balances = m.pairwise_balances(scores, stake)
    assert sum(balances) == 0
    for i, b in enumerate(balances):
        pairs = sum((scores[i] - scores[j]) * stake for j in range(len(scores)))
        assert abs(b - pairs) < 1  # exact, or less than a cent away for fractions of a cent
        if stake == stake.to_integral_value():
            assert b == pairs


@given(scores_st, stakes_st)
def test_every_debt_is_settled_with_at_most_n_minus_1_transfers(
    scores: list[int], stake: Decimal
) -> None:
    balances = m.pairwise_balances(scores, stake)
    transfers = m.settle(balances)
    assert _net(transfers, len(balances)) == balances
    assert len(transfers) <= len(balances) - 1
    assert all(t.cents > 0 and t.payer != t.payee for t in transfers)
    for t in transfers:  # only debtors pay, only creditors receive
        assert balances[t.payer] < 0 < balances[t.payee]


@settings(max_examples=150)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=7))
def test_settle_finds_the_fewest_transfers(raw: list[int]) -> None:
    balances = [*raw, -sum(raw)]
    transfers = m.settle(balances)
    assert _net(transfers, len(balances)) == balances
    assert len(transfers) == _fewest_by_brute_force(balances)


@given(st.lists(st.integers(-(10**6), 10**6), min_size=17, max_size=25))
def test_many_players_are_settled_too(raw: list[int]) -> None:
    balances = [*raw, -sum(raw)]
    transfers = m.settle(balances)
    assert _net(transfers, len(balances)) == balances
    assert len(transfers) <= len(balances) - 1


@given(scores_st, stakes_st, st.sampled_from([Method.POT_POINTS, Method.POT_GAMES]))
def test_the_pot_is_what_the_players_pay(scores: list[int], stake: Decimal, method: Method) -> None:
    lost = [abs(s) % 9 for s in scores]
    s = m.settle_scores([f"P{i}" for i in range(len(scores))], scores, lost, Stake(stake, method))
    assert s.pot == -sum(s.balances) >= 0
    assert all(b <= 0 for b in s.balances) and s.transfers == ()


@given(
    st.integers(0, 40),
    st.lists(
        st.tuples(st.integers(1, 30), st.integers(0, 500)), max_size=4, unique_by=lambda t: t[0]
    ),
)
def test_tier_fee_is_the_sum_of_each_lost_games_fee(lost: int, raw: list[tuple[int, int]]) -> None:
    tiers = tuple(Tier(a, c) for a, c in sorted(raw))

    def fee_of_game(k: int) -> int:
        current = [t.cents for t in tiers if t.from_game <= k]
        return current[-1] if current else 0

    assert m.lost_fee(lost, tiers) == sum(fee_of_game(k) for k in range(1, lost + 1))


@given(
    st.integers(-1000, 10**7),
    st.lists(st.integers(1, 100), min_size=1, max_size=6).filter(lambda xs: sum(xs) <= 100),
)
def test_shares_split_the_whole_pot(pot: int, raw: list[int]) -> None:
    shares = [Decimal(x) for x in raw]
    shares[-1] += 100 - sum(shares)
    parts = m.split_shares(pot, shares)
    assert sum(parts) == max(pot, 0)
    for part, share in zip(parts, shares, strict=True):
        assert abs(part - max(pot, 0) * share / 100) < 1


@given(
    st.lists(st.tuples(st.sampled_from([3, 4]), st.integers(0, 12)), min_size=3, max_size=12),
    st.integers(0, 5000),
    st.integers(0, 300),
)
def test_cash_report_adds_up(rows: list[tuple[int, int]], entry: int, table: int) -> None:
    names = [f"P{i}" for i in range(len(rows))]
    plays = {n: [m.SeriesPlay(1, size, lost)] for n, (size, lost) in zip(names, rows, strict=True)}
    fees = m.Fees(entry, {3: (Tier(1, 50), Tier(4, 100)), 4: (Tier(1, 50),)}, {3: 0, 4: table})
    prizes = m.Prizes(shares=(Decimal(60), Decimal(40)), series=(100,))
    report = m.cash_report(names, plays, names, {1: names}, fees, prizes)
    assert sum(d.owed for d in report.dues) == report.income
    assert sum(d.won for d in report.dues) == report.paid_out
    assert report.income - report.paid_out == report.balance
    if report.pot >= 0:
        assert report.balance == 0  # shares distribute the whole pot
