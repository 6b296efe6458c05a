"""Statistics over a place's lists: per person and records of the chat.

Pure: the input is the replayed sheets (``Series``), each seat already attributed to a
person (a key; who is who is decided by the caller). Every figure is derived from the valid
plays of the sheets, in the order the lists were made and the games were played:

* *series* of a person: the lists they sat at; *games*: the valid plays (games, passed
  games, Ramsch) of those lists, also the ones they sat out as dealer at a 4-table;
* *declared*: the valid games they played as declarer, split into won and lost (an overbid
  game is lost), by type (Grand, Farbe = any suit, Null; across these: Hand and Ouvert);
* *Seeger-Fabian* figures (average, best and worst series) come from ISkO lists only; a
  house-rules list has no Seeger-Fabian score (its games count everywhere else);
* *best/worst game*: the highest and the lowest booking of a game they declared (under
  house rules with its Bock doubling); the first one played wins a tie;
* *streaks*: declared games won (lost) one after another, across lists;
* *nemesis* ("Angstgegner"): of the people they sat with, the one who finished a series
  ahead of them most often (the series' score: Seeger-Fabian, or the house-rules points);
  ties: the larger share of the series together, then the key.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from skatbot.rules.game import GameType
from skatbot.rules.scoring import WIN_BONUS, opponents_bonus
from skatbot.rules.sheet import Entry, RowKind, Sheet
from skatbot.rules.value import GameResult

GRAND, SUIT, NULL, HAND, OUVERT = "Grand", "Farbe", "Null", "Hand", "Ouvert"
KINDS = (GRAND, SUIT, NULL, HAND, OUVERT)  # the first three split every declared game


@dataclass(frozen=True)
class Series:
    """One list as the statistics see it."""

    list_id: int
    day: dt.date
    people: tuple[str, ...]  # the person key of each seat
    sheet: Sheet

    @property
    def isko(self) -> bool:
        return self.sheet.house is None


@dataclass(frozen=True)
class GameRef:
    """A game somebody declared: where and what."""

    key: str
    list_id: int
    day: dt.date
    nr: int
    result: GameResult
    score: int  # what was booked for the declarer


@dataclass(frozen=True)
class SeriesRef:
    """One person's result in one list."""

    key: str
    list_id: int
    day: dt.date
    score: int
    isko: bool


@dataclass
class KindCount:
    declared: int = 0
    won: int = 0


@dataclass
class Rival:
    together: int = 0  # series at one table
    ahead: int = 0  # of those, series the rival finished with more points


@dataclass
class PlayerStats:
    key: str
    series: int = 0
    games: int = 0
    declared: int = 0
    won: int = 0
    lost: int = 0
    overbids: int = 0
    kinds: dict[str, KindCount] = field(default_factory=lambda: {k: KindCount() for k in KINDS})
    results: list[SeriesRef] = field(default_factory=list)  # every series, in order
    best_game: GameRef | None = None
    worst_game: GameRef | None = None
    longest_won: int = 0
    longest_lost: int = 0
    current: int = 0  # the running streak: +n won, -n lost in a row (0: nothing declared)
    rivals: dict[str, Rival] = field(default_factory=dict)

    @property
    def sf_results(self) -> list[SeriesRef]:
        """The Seeger-Fabian results (ISkO lists)."""
        return [r for r in self.results if r.isko]

    @property
    def sf_total(self) -> int:
        return sum(r.score for r in self.sf_results)

    @property
    def sf_average(self) -> float | None:
        sf = self.sf_results
        return self.sf_total / len(sf) if sf else None

    @property
    def best_series(self) -> SeriesRef | None:
        return _first_extreme(self.sf_results, high=True)

    @property
    def worst_series(self) -> SeriesRef | None:
        return _first_extreme(self.sf_results, high=False)

    @property
    def nemesis(self) -> tuple[str, Rival] | None:
        """The rival who finished ahead most often (at least once)."""
        ranked = sorted(
            ((k, r) for k, r in self.rivals.items() if r.ahead),
            key=lambda kr: (-kr[1].ahead, -kr[1].ahead / kr[1].together, kr[0]),
        )
        return ranked[0] if ranked else None


@dataclass(frozen=True)
class Record:
    """A record of the chat: who holds it and with what. A player's count (series, games
    won, a streak) is held by every player who reached the best value: ``tied`` are the
    others, after ``key`` (first seen first)."""

    key: str
    value: int
    game: GameRef | None = None
    series: SeriesRef | None = None
    tied: tuple[str, ...] = ()

    @property
    def holders(self) -> tuple[str, ...]:
        return (self.key, *self.tied)


@dataclass
class ChatStats:
    series: int = 0
    isko_series: int = 0
    days: int = 0  # distinct days with a list
    games: int = 0  # valid plays
    passed: int = 0
    ramsch: int = 0
    declared: int = 0
    won: int = 0
    overbids: int = 0
    kinds: dict[str, KindCount] = field(default_factory=lambda: {k: KindCount() for k in KINDS})
    players: dict[str, PlayerStats] = field(default_factory=dict)  # by key, first seen first
    highest_game: Record | None = None
    costliest_game: Record | None = None
    best_series: Record | None = None
    worst_series: Record | None = None
    longest_won: Record | None = None
    longest_lost: Record | None = None
    most_series: Record | None = None
    most_won: Record | None = None


def _first_extreme(results: Iterable[SeriesRef], *, high: bool) -> SeriesRef | None:
    best: SeriesRef | None = None
    for r in results:
        if best is None or (r.score > best.score if high else r.score < best.score):
            best = r
    return best


def kinds_of(result: GameResult) -> tuple[str, ...]:
    """The kinds a declared game counts for: its type, and Hand/Ouvert if played so."""
    game = result.announcement.game
    kinds = [GRAND if game is GameType.GRAND else NULL if game.is_null else SUIT]
    if result.announcement.hand:
        kinds.append(HAND)
    if result.announcement.ouvert:
        kinds.append(OUVERT)
    return tuple(kinds)


def series_scores(sheet: Sheet) -> list[int]:
    """Each seat's score of the list: Seeger-Fabian (ISkO) or start + points (house)."""
    return [s.score for s in sheet.standings()]


def running_scores(sheet: Sheet) -> list[tuple[int, ...]]:
    """Each seat's score before the first valid play and after each one: what ``/stand``
    would have shown then (Seeger-Fabian for ISkO, start points + bookings for house
    rules). The last one equals ``series_scores``."""
    size = sheet.table_size
    now = list(sheet.start or (0,) * size) if sheet.house is not None else [0] * size
    out = [tuple(now)]
    bonus = opponents_bonus(size) if sheet.house is None else 0
    for e in sheet.valid:
        for seat, points in e.points.items():
            now[seat] += points
        if sheet.house is None and e.result is not None and e.row.declarer is not None:
            declarer = e.row.declarer
            if e.result.won:
                now[declarer] += WIN_BONUS
            else:
                now[declarer] -= WIN_BONUS
                for seat in range(size):
                    if seat != declarer:
                        now[seat] += bonus
        out.append(tuple(now))
    return out


def _declared(e: Entry) -> bool:
    return e.row.kind is RowKind.GAME and e.result is not None and e.row.declarer is not None


def compute(series: Sequence[Series]) -> ChatStats:
    """The statistics of ``series`` (taken in list order: by ``list_id``)."""
    chat = ChatStats()
    ordered = sorted(series, key=lambda s: s.list_id)
    chat.series = len(ordered)
    chat.isko_series = sum(1 for s in ordered if s.isko)
    chat.days = len({s.day for s in ordered})
    players = chat.players

    def player(key: str) -> PlayerStats:
        found = players.get(key)
        if found is None:
            found = players[key] = PlayerStats(key)
        return found

    for s in ordered:
        sheet = s.sheet
        valid = sheet.valid
        chat.games += len(valid)
        scores = series_scores(sheet)
        seen: set[str] = set()
        for seat, key in enumerate(s.people):
            p = player(key)
            if key in seen:
                continue  # one person on two seats (merged spellings): one series
            seen.add(key)
            p.series += 1
            p.games += len(valid)
            ref = SeriesRef(key, s.list_id, s.day, scores[seat], s.isko)
            p.results.append(ref)
            if s.isko:
                chat.best_series = _better(chat.best_series, Record(key, ref.score, series=ref))
                chat.worst_series = _better(
                    chat.worst_series, Record(key, ref.score, series=ref), high=False
                )
            for other_seat, other in enumerate(s.people):
                if other == key:
                    continue
                rival = p.rivals.setdefault(other, Rival())
                rival.together += 1
                if scores[other_seat] > scores[seat]:
                    rival.ahead += 1
        for e in valid:
            if e.row.kind is RowKind.PASS:
                chat.passed += 1
            elif e.row.kind is RowKind.RAMSCH:
                chat.ramsch += 1
            if not _declared(e):
                continue
            assert e.result is not None and e.row.declarer is not None and e.nr is not None
            key = s.people[e.row.declarer]
            p = player(key)
            result = e.result
            booked = e.points.get(e.row.declarer, result.score)
            game = GameRef(key, s.list_id, s.day, e.nr, result, booked)
            p.declared += 1
            chat.declared += 1
            for kind in kinds_of(result):
                for counts in (p.kinds[kind], chat.kinds[kind]):
                    counts.declared += 1
                    counts.won += result.won
            if result.overbid:
                p.overbids += 1
                chat.overbids += 1
            if result.won:
                p.won += 1
                chat.won += 1
                p.current = p.current + 1 if p.current > 0 else 1
                p.longest_won = max(p.longest_won, p.current)
            else:
                p.lost += 1
                p.current = p.current - 1 if p.current < 0 else -1
                p.longest_lost = max(p.longest_lost, -p.current)
            if p.best_game is None or booked > p.best_game.score:
                p.best_game = game
            if p.worst_game is None or booked < p.worst_game.score:
                p.worst_game = game
            chat.highest_game = _better(chat.highest_game, Record(key, booked, game=game))
            chat.costliest_game = _better(
                chat.costliest_game, Record(key, booked, game=game), high=False
            )
    everyone = list(players.values())
    chat.longest_won = _leaders(everyone, lambda p: p.longest_won)
    chat.longest_lost = _leaders(everyone, lambda p: p.longest_lost)
    chat.most_series = _leaders(everyone, lambda p: p.series)
    chat.most_won = _leaders(everyone, lambda p: p.won)
    return chat


def _leaders(players: Sequence[PlayerStats], value: Callable[[PlayerStats], int]) -> Record | None:
    """The record of a player's count: everyone with the best ``value``, in the order the
    players were first seen (a count of 0 is no record)."""
    best = max((value(p) for p in players), default=0)
    if best <= 0:
        return None
    keys = [p.key for p in players if value(p) == best]
    return Record(keys[0], best, tied=tuple(keys[1:]))


def _better(held: Record | None, new: Record, *, high: bool = True) -> Record | None:
    """The record after ``new``: it takes the record only by beating it (the first one to
    reach a value keeps it); a streak or count of 0 is no record."""
    if held is None:
        return new if (new.game or new.series or new.value) else None
    if high:
        return new if new.value > held.value else held
    return new if new.value < held.value else held
