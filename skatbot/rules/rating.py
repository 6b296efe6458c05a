"""The "Skatzahl": a multiplayer skill rating from series rankings (openskill, Plackett-Luce).

**Computed by replay, never stored.** The ratings are the result of replaying every series of
the place in chronological order (closed lists and complete tournament series, the same
``season.Series`` as the season table), so a correction, a merge of two spellings
(/spieler zusammen) or a deleted list changes the rating as if it had always been so, and
anyone with the export can recompute it.

Model and choices:

- every series is one match of its 3 or 4 players (a tournament: every table of a series);
  the order is the series' ranking (Seeger-Fabian score, then more games won, then fewer lost;
  a full tie is a shared rank). openskill's ``PlackettLuce`` model with its defaults
  (μ = 25, σ = 25/3, τ = 25/300);
- **starting uncertain**: a new person has σ = 25/3; every series makes σ smaller;
- **decay for long absence**: before a person's next series (and at the day the table is
  shown), σ² grows by σ₀²/365 per day away beyond ``GRACE_DAYS`` (60), capped at σ₀ - after
  about 14 months away a person is as uncertain as a new one; μ is kept;
- the Skatzahl shown is the conservative estimate ``1000 + 40 × (μ − 3σ)`` rounded: a new
  person has 1000; it rises as σ settles and μ grows, falls with losses and, through σ, with
  a long absence. Ratings are rounded only for display.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from dataclasses import dataclass

from skatbot.rules.season import Series, chronological, series_ranks

__all__ = ["GRACE_DAYS", "MU0", "SIGMA0", "Rating", "decayed", "replay", "skatzahl"]

MU0 = 25.0
SIGMA0 = 25.0 / 3.0
GRACE_DAYS = 60
BASE, SCALE = 1000, 40


@dataclass(frozen=True)
class Rating:
    mu: float = MU0
    sigma: float = SIGMA0
    series: int = 0
    last: dt.date | None = None  # the day of the person's latest series


def decayed(rating: Rating, day: dt.date) -> Rating:
    """``rating`` as of ``day``: σ grown for the days away beyond the grace period."""
    if rating.last is None:
        return rating
    away = (day - rating.last).days - GRACE_DAYS
    if away <= 0 or rating.sigma >= SIGMA0:
        return rating
    sigma = min(SIGMA0, math.sqrt(rating.sigma**2 + away * SIGMA0**2 / 365))
    return Rating(rating.mu, sigma, rating.series, rating.last)


def skatzahl(rating: Rating) -> int:
    """The number shown: 1000 + 40 × (μ − 3σ), rounded half up."""
    return math.floor(BASE + SCALE * (rating.mu - 3 * rating.sigma) + 0.5)


def replay(series: Iterable[Series], until: dt.date | None = None) -> dict[str, Rating]:
    """The rating of every person after the series up to ``until`` (all if None), decayed to
    ``until``. Keys are the persons' keys of the series' results."""
    from openskill.models import PlackettLuce  # ~20 ms to import: only when a table is shown

    model = PlackettLuce()
    ratings: dict[str, Rating] = {}
    for s in chronological(series):
        if until is not None and s.day > until:
            break
        ranked = series_ranks(s.results)
        if len(ranked) < 2:
            continue
        before = [decayed(ratings.get(r.key, Rating()), s.day) for r, _ in ranked]
        teams = [[model.rating(mu=b.mu, sigma=b.sigma)] for b in before]
        after = model.rate(teams, ranks=[rank for _, rank in ranked])
        for (r, _), b, team in zip(ranked, before, after, strict=True):
            ratings[r.key] = Rating(float(team[0].mu), float(team[0].sigma), b.series + 1, s.day)
    if until is not None:
        ratings = {k: decayed(v, until) for k, v in ratings.items()}
    return ratings
