"""Ranking of a list or tournament (docs/rules.md §5).

Order, best first:

1. higher score (Seeger-Fabian total, or the house score),
2. more games won,
3. fewer games lost,
4. the lot: lower ``lot_key(seed, name)`` wins, where
   ``lot_key(seed, name) = sha256(f"{seed}\\n{name}".encode("utf-8")).hexdigest()``.

The lot is deterministic: the same seed and the same names always give the same order, so
anyone can recompute it, and it is independent of the order in which the standings are given.
Whenever the lot decided between entries, :func:`lot_note` produces a German note saying so.

Names must be unique (exact string comparison); the caller normalises names if it wants to.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Ranked", "Standing", "lot_key", "lot_note", "rank_standings"]


@dataclass(frozen=True)
class Standing:
    """One player's totals."""

    name: str
    score: int  # Seeger-Fabian total (or house score)
    won: int
    lost: int


@dataclass(frozen=True)
class Ranked:
    """One line of the ranking."""

    place: int  # 1-based, distinct (a full tie is broken by lot)
    standing: Standing
    by_lot: bool  # the lot decided between this entry and a neighbour with equal score/won/lost


@functools.lru_cache(maxsize=4096)  # pure; a list ranks the same names after every booking
def lot_key(seed: str, name: str) -> str:
    """The lot value of ``name`` under ``seed``; the lower value wins the lot."""
    return hashlib.sha256(f"{seed}\n{name}".encode()).hexdigest()


def _tie_key(standing: Standing) -> tuple[int, int, int]:
    return (-standing.score, -standing.won, standing.lost)


def rank_standings(standings: Iterable[Standing], seed: str) -> list[Ranked]:
    """Rank ``standings`` (score desc, won desc, lost asc, lot); places are 1..n, distinct.

    Raises :class:`ValueError` when a name occurs twice.
    """
    items = list(standings)
    seen: set[str] = set()
    for s in items:
        if s.name in seen:
            raise ValueError(f"„{s.name}“ steht doppelt in der Rangliste.")
        seen.add(s.name)
    items.sort(key=lambda s: (*_tie_key(s), lot_key(seed, s.name)))
    keys = [_tie_key(s) for s in items]
    ranked: list[Ranked] = []
    for i, s in enumerate(items):
        by_lot = (i > 0 and keys[i - 1] == keys[i]) or (
            i + 1 < len(items) and keys[i + 1] == keys[i]
        )
        ranked.append(Ranked(place=i + 1, standing=s, by_lot=by_lot))
    return ranked


def _join_names(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " und " + names[-1]


def lot_note(
    ranked: Sequence[Ranked],
    seed: str | None = None,
    tie: Callable[[Ranked], object] | None = None,
) -> str:
    """German note on every tie the lot decided; ``""`` when no lot was needed.

    One sentence per group of fully tied entries (in ranking order), e.g.
    ``"Gleichstand bei Anna und Bernd: Platz durch Los (Startwert 1234) entschieden."``
    Without ``seed`` the parenthesis is left out. ``tie`` is what made the entries equal
    (default: score, won, lost), for rankings by another key.
    """
    same = tie if tie is not None else (lambda r: _tie_key(r.standing))
    groups: list[list[Ranked]] = []
    for r in ranked:
        if not r.by_lot:
            continue
        if groups and same(groups[-1][-1]) == same(r):
            groups[-1].append(r)
        else:
            groups.append([r])
    sentences: list[str] = []
    seed_part = f" (Startwert {seed})" if seed is not None else ""
    for group in groups:
        names = [r.standing.name for r in group]
        what = "Platz" if len(group) == 2 else "Plätze"
        sentences.append(
            f"Gleichstand bei {_join_names(names)}: {what} durch Los{seed_part} entschieden."
        )
    return " ".join(sentences)
