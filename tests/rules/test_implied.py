"""The inferences between announced levels, stated once in ``rules.value.RULES`` and applied by
``implied`` (non-raising) for ``normalize`` and the button builder alike."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skatbot.rules.errors import RuleError
from skatbot.rules.game import Announcement, GameType
from skatbot.rules.value import (
    LEVELS,
    Level,
    allowed_levels,
    dependents,
    implied,
    levels_of,
    normalize,
    required,
)

games = st.sampled_from(list(GameType))
level_sets = st.frozensets(st.sampled_from(LEVELS))


def test_examples() -> None:
    assert implied(GameType.GRAND, {"ouvert"}) == {
        "hand",
        "schneider_announced",
        "schwarz_announced",
    }
    assert implied(GameType.NULL, {"ouvert"}) == frozenset()  # Null ouvert is no Hand game
    # An announcement is only made in a Hand game: it sets Hand, as ouvert does.
    assert implied(GameType.KREUZ, {"schwarz_announced"}) == {"schneider_announced", "hand"}
    assert implied(GameType.KREUZ, {"schneider_announced"}) == {"hand"}
    assert implied(GameType.KREUZ, {"schwarz"}) == {"schneider"}
    assert implied(None, {"ouvert"}) == frozenset()  # no game chosen: ouvert may still be Null
    assert implied(GameType.PIK, {"hand", "kontra"}) == frozenset()
    assert required(GameType.HERZ, "schneider_announced") == frozenset()  # it sets Hand
    assert required(GameType.HERZ, "schwarz_announced") == frozenset()
    assert required(GameType.HERZ, "ouvert") == frozenset()  # it sets Hand itself
    assert required(GameType.HERZ, "re") == {"kontra"}
    assert dependents(GameType.HERZ, "hand") == {
        "schneider_announced",
        "schwarz_announced",
        "ouvert",
    }
    assert "ouvert" not in dependents(GameType.NULL, "hand")
    assert dependents(GameType.KARO, "schneider") == {"schwarz"}
    assert dependents(GameType.KARO, "kontra") == {"re"}


@given(games, level_sets)
def test_implied_never_raises_and_closes(game: GameType, levels: frozenset[Level]) -> None:
    more = implied(game, levels)
    assert not more & levels
    assert implied(game, levels | more) == frozenset()  # nothing more follows


@given(games, level_sets)
def test_taking_a_level_back_with_its_dependents_stays_legal(
    game: GameType, levels: frozenset[Level]
) -> None:
    closed = levels | implied(game, levels)
    for level in closed:
        rest = closed - {level} - dependents(game, level)
        assert implied(game, rest) == frozenset()
        if _legal(game, closed):
            assert _legal(game, rest)


def _legal(game: GameType, closed: frozenset[Level]) -> bool:
    return closed <= allowed_levels(game) and all(required(game, x) <= closed for x in closed)


@given(games, level_sets)
def test_normalize_sets_exactly_the_implied_levels(
    game: GameType, levels: frozenset[Level]
) -> None:
    """normalize = the given levels plus ``implied``, or a refusal exactly when the closed
    levels are illegal; never anything else."""
    a = Announcement(
        game=game,
        matadors=None if game.is_null else 1,
        won=True,
        **{level: True for level in levels},
    )
    closed = levels | implied(game, levels)
    try:
        b, _ = normalize(a)
    except RuleError:
        assert not _legal(game, closed)
        return
    assert _legal(game, closed)
    assert levels_of(b) == closed
    assert normalize(b)[0] == b  # normalising again changes nothing
