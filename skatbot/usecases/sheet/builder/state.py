"""The game builder's pure state machine: a state and a tap give a new state or a refusal.

No Telegram, no SQL: ``usecases/sheet/builder/flow.py`` loads the state from the ``builders`` row, asks ``tap``
and stores or books what comes back. The state speaks ``Announcement``'s field names, and the
rule inferences (ouvert ⇒ Hand and both announcements, …) come from ``rules.value``
(``implied``/``dependents``/``required``), never from here.

Ops (the part of the callback data after ``v1:b:<builder id>:``): ``p:<seat>`` (declarer),
``g:<game>``, ``m:+N``/``m:-N`` (mit/ohne N), ``t:<flag>`` (toggle), ``r:<bid>``/``r:0``/``r:?``
(bid, none, other by text; ``v:r2`` the other bids as buttons where no text can answer the
builder), ``e:1``/``e:0`` (gewonnen/verloren), ``v:<view>`` (navigation),
``ok`` (Eintragen), ``x`` (Abbrechen). A tap is taken only if its op is on the keyboard that
the current state renders (``layout``).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from html import escape
from typing import Any

from skatbot.rules.bids import BID_VALUES, check_bid
from skatbot.rules.errors import RuleError
from skatbot.rules.game import Announcement, GameType
from skatbot.rules.grammar import contract_text, doubling_words
from skatbot.rules.value import (
    HOUSE_LEVELS,
    LEVELS,
    NULL_MAX_BID,
    GameResult,
    Level,
    allowed_levels,
    dependents,
    evaluate,
    implied,
    levels_of,
    normalize,
    required,
)
from skatbot.usecases.common.reply import Button, confirm_button

GAMES: dict[str, GameType] = {
    "ka": GameType.KARO,
    "he": GameType.HERZ,
    "pi": GameType.PIK,
    "kr": GameType.KREUZ,
    "gr": GameType.GRAND,
    "nu": GameType.NULL,
}
GAME_CODE = {v: k for k, v in GAMES.items()}
GAME_LABEL = {
    GameType.KARO: "♦ Karo",
    GameType.HERZ: "♥ Herz",
    GameType.PIK: "♠ Pik",
    GameType.KREUZ: "♣ Kreuz",
    GameType.GRAND: "Grand",
    GameType.NULL: "Null",
}
# toggle code (callback data, unchanged) -> (the Announcement level, label: the grammar's words)
FLAGS: dict[str, tuple[Level, str]] = {
    "h": ("hand", "Hand"),
    "s": ("schneider", "Schneider"),
    "w": ("schwarz", "Schwarz"),
    "sa": ("schneider_announced", "Schneider angesagt"),
    "wa": ("schwarz_announced", "Schwarz angesagt"),
    "o": ("ouvert", "Ouvert"),
    "k": ("kontra", "Kontra"),
    "re": ("re", "Re"),
}
COMMON_BIDS = (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 55, 59, 60, 72)
VIEWS = {"p", "g", "m", "m2", "main", "r", "r2", "r?"}
CHECK = "✓ "
STALE = "Dieser Knopf gilt nicht mehr."

Layout = tuple[tuple[tuple[str, str], ...], ...]  # rows of (label, op)


@dataclass(frozen=True)
class State:
    """What has been chosen so far (``Announcement``'s fields); ``view`` is the keyboard shown.

    ``card_points`` is only set when a corrected game was entered with "augen N".
    """

    view: str = "p"
    declarer: int | None = None
    game: GameType | None = None
    with_matadors: bool = True
    matadors: int | None = None
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    kontra: bool = False
    re: bool = False
    bid: int | None = None
    won: bool | None = None
    card_points: int | None = None

    def dump(self) -> str:
        data = dataclasses.asdict(self)
        data["game"] = self.game.name if self.game is not None else None
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def load(cls, raw: str) -> State:
        """Read a stored state; also the format before the builder spoke the rules' field
        names (``sa``, ``swa``, ``mat``, ``with_m``, ``augen``, games as ``gr``), so that
        builders opened before an update keep working. Unknown keys and values of the
        wrong type are dropped."""
        try:
            data = json.loads(raw or "{}")
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        clean: dict[str, Any] = {}
        for key, value in data.items():
            name = OLD_FIELDS.get(key, key)
            if name == "game":
                value = _game(value)
            if _typed(name, value):
                clean[name] = value
        if clean.get("view", "p") not in VIEWS:
            clean["view"] = "p"
        return cls(**clean)

    @property
    def levels(self) -> frozenset[Level]:
        return levels_of(self)

    @property
    def trump(self) -> bool:
        return self.game is not None and not self.game.is_null

    @property
    def complete(self) -> bool:
        """Game and matadors chosen: the value can be computed."""
        gt = self.game
        return gt is not None and (gt.is_null or self.matadors is not None)

    @property
    def has_outcome(self) -> bool:
        return self.won is not None or self.card_points is not None

    def with_levels(self, levels: frozenset[Level]) -> State:
        changes: dict[str, Any] = {level: level in levels for level in LEVELS}
        return dataclasses.replace(self, **changes)


# The stored state before it spoke Announcement's names -> today's field.
OLD_FIELDS = {
    "with_m": "with_matadors",
    "mat": "matadors",
    "sa": "schneider_announced",
    "swa": "schwarz_announced",
    "augen": "card_points",
}
_INT = (int, type(None))
_TYPES: dict[str, tuple[type, ...]] = {
    "view": (str,),
    "declarer": _INT,
    "game": (GameType, type(None)),
    "with_matadors": (bool,),
    "matadors": _INT,
    **{level: (bool,) for level in LEVELS},
    "bid": _INT,
    "won": (bool, type(None)),
    "card_points": _INT,
}


def _typed(name: str, value: object) -> bool:
    if name not in _TYPES:
        return False
    if isinstance(value, bool) and _TYPES[name] is _INT:  # a bool is no number here
        return False
    return isinstance(value, _TYPES[name])


def _game(value: object) -> object:
    if isinstance(value, str):
        if value in GAMES:  # the old format: the callback code
            return GAMES[value]
        if value in GameType.__members__:
            return GameType[value]
    return value  # None, or the wrong type (dropped by load)


@dataclass(frozen=True)
class Table:
    """What the machine needs to know about the list: the players' names, who may declare
    (not the dealer who sits out at a table of four) and whether house rules apply."""

    names: tuple[str, ...]
    declarers: tuple[int, ...]
    house: bool
    # A bid can be typed as a reply to the builder's message ("anderer …"); not to an
    # ephemeral message, which nobody can reply to: there "anderer …" shows the rarer bids.
    typed_bid: bool = True


@dataclass(frozen=True)
class Refusal:
    """A tap that changes nothing: ``notice`` answers it, or ``error`` (a combination the rules
    refuse) is raised so that the transaction rolls back."""

    notice: str = STALE
    error: RuleError | None = None


@dataclass(frozen=True)
class Cancel:
    """Abbrechen."""


@dataclass(frozen=True)
class Book:
    """Eintragen: book ``announcement`` (normalised) for ``declarer``."""

    declarer: int
    announcement: Announcement
    notes: tuple[str, ...]


Outcome = State | Refusal | Cancel | Book


def announcement(st: State, *, assume_won: bool = True) -> Announcement:
    gt = st.game
    assert gt is not None
    won = st.won
    if won is None and st.card_points is None and assume_won:
        won = True
    return Announcement(
        game=gt,
        matadors=None if gt.is_null else st.matadors,
        with_matadors=st.with_matadors,
        hand=st.hand,
        schneider=st.schneider,
        schneider_announced=st.schneider_announced,
        schwarz=st.schwarz,
        schwarz_announced=st.schwarz_announced,
        ouvert=st.ouvert,
        bid=st.bid,
        won=won,
        card_points=st.card_points,
        kontra=st.kontra,
        re=st.re,
    )


def from_announcement(a: Announcement, declarer: int | None) -> State:
    fields = {f.name: getattr(a, f.name) for f in dataclasses.fields(Announcement)}
    return State(view="main", declarer=declarer, **fields)


def check_state(st: State) -> GameResult | None:
    """Evaluate a complete state; a RuleError means the combination is illegal."""
    if not st.complete:
        return None
    return evaluate(announcement(st))


# --- what the player sees -----------------------------------------------------------------------


def _chunks(items: list[tuple[str, str]], size: int) -> list[tuple[tuple[str, str], ...]]:
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)]


def _mark(label: str, on: bool) -> str:
    return CHECK + label if on else label


def _mat_label(st: State) -> str:
    return f"{'mit' if st.with_matadors else 'ohne'} {st.matadors}"


def summary(st: State, table: Table) -> tuple[str, str]:
    """The announcement so far and its value ("Anna: Grand ohne 1 Hand → 72"), and the
    breakdown line (empty until the value is known)."""
    who = escape(table.names[st.declarer]) if st.declarer is not None else "?"
    gt = st.game
    if gt is None:
        return (f"{who}: …" if st.declarer is not None else ""), ""
    if not st.complete:
        return f"{who}: {gt.label} …", ""
    try:
        r = evaluate(announcement(st))
    except RuleError as err:
        return f"{who}: ⚠️ {escape(err.message)}", ""
    a = r.announcement
    words = [contract_text(a), *doubling_words(a)]
    if a.bid is not None:
        words.append(f"Reiz {a.bid}")
    if st.card_points is not None:
        words.append(f"Augen {st.card_points}")
    if not st.has_outcome:
        value = str(r.value)
    else:
        words.append("gewonnen" if r.won else ("verloren, überreizt" if r.overbid else "verloren"))
        value = f"+{r.value}" if r.won else f"−{2 * r.value}"
    return f"{who}: {escape(' '.join(words))} → {value}", r.breakdown


PROMPTS = {
    "p": "Wer spielt?",
    "g": "Welches Spiel?",
    "m": "Mit oder ohne wie viele?",
    "m2": "Mit oder ohne wie viele?",
    "r": "Bis wohin wurde gereizt?",
    "r2": "Bis wohin wurde gereizt?",
    "r?": "Antworte auf diese Nachricht mit dem Reizwert, z. B. 27.",
}


def prompt(st: State) -> str:
    if st.view == "main":
        return "Stimmt alles? Dann Eintragen." if st.has_outcome else "Gewonnen oder verloren?"
    return PROMPTS.get(st.view, "")


Rows = list[tuple[tuple[str, str], ...]]


def layout(st: State, table: Table) -> Layout:
    """The keyboard of ``st``: rows of (label, op). The overview of a chosen game has its own
    last row; every other view ends with Abbrechen (and zurück where there is a way back)."""
    if st.view == "main" and st.game is not None:
        return _overview_keyboard(st, table)
    view = _VIEW_ROWS.get(st.view)
    rows = view(st, table) if view is not None else []
    if st.view == "p" and _back_view(st) == "p":
        return (*rows, (CANCEL,))
    return (*rows, (CANCEL, ("↩ zurück", "v:" + _back_view(st))))


CANCEL = ("Abbrechen", "x")
SAVE = confirm_button("✅ Eintragen", "ok")
NO_OUTCOME = "Erst „gewonnen“ oder „verloren“ tippen, dann Eintragen."
# Shown before the outcome is chosen: greyed out where Telegram can, else its tap says why
# (the reason in short in the label: a builder label fits 24 characters).
SAVE_LATER = Button("Eintragen: erst Ergebnis", "ok", disabled=NO_OUTCOME)


def _declarer_rows(st: State, table: Table) -> Rows:
    """The players who may declare, as many in a row as their names allow."""
    names = table.names
    items = [(_mark(names[s], s == st.declarer), f"p:{s}") for s in table.declarers]
    longest = max(len(label) for label, _ in items)
    return _chunks(items, 3 if longest <= 10 else 2 if longest <= 16 else 1)


def _game_rows(st: State, table: Table) -> Rows:
    """The four suits, then Grand and Null."""
    items = [(_mark(GAME_LABEL[g], g is st.game), f"g:{GAME_CODE[g]}") for g in GAMES.values()]
    return [tuple(items[:4]), tuple(items[4:])]


def _matador_rows(st: State, table: Table) -> Rows:
    """mit/ohne 1-4 ("m"), or 5 up to the game's most ("m2"); none for Null."""
    gt = st.game
    if gt is None or gt.is_null:
        return []
    lo, hi = (1, min(4, gt.max_matadors)) if st.view == "m" else (5, gt.max_matadors)
    rows: Rows = []
    for with_m, word, sign in ((True, "mit", "+"), (False, "ohne", "-")):
        items = [
            (_mark(f"{word} {n}", st.matadors == n and st.with_matadors == with_m), f"m:{sign}{n}")
            for n in range(lo, hi + 1)
        ]
        rows.extend(_chunks(items, 4))
    if st.view == "m" and gt.max_matadors > 4:
        rows.append((("mehr …", "v:m2"),))
    return rows


def _bid_rows(st: State, table: Table) -> Rows:
    """The common bids up to what the game can reach, another one typed, or none."""
    gt = st.game
    if gt is None:
        return []
    top = NULL_MAX_BID if gt.is_null else max(COMMON_BIDS)
    items = [(_mark(str(v), v == st.bid), f"r:{v}") for v in COMMON_BIDS if v <= top]
    other = ("anderer …", "r:?" if table.typed_bid else "v:r2")
    return [*_chunks(items, 4), (other, (_mark("ohne Reiz", st.bid is None), "r:0"))]


def _rare_bid_rows(st: State, table: Table) -> Rows:
    """Every other bid value (up to what a Null game can reach for Null): where no bid can
    be typed (an ephemeral builder), "anderer …" offers them as buttons."""
    gt = st.game
    if gt is None:
        return []
    rare = [v for v in BID_VALUES if v not in COMMON_BIDS and (not gt.is_null or v <= NULL_MAX_BID)]
    return _chunks([(_mark(str(v), v == st.bid), f"r:{v}") for v in rare], 4)


_VIEW_ROWS = {
    "p": _declarer_rows,
    "g": _game_rows,
    "m": _matador_rows,
    "m2": _matador_rows,
    "r": _bid_rows,
    "r2": _rare_bid_rows,
}


def _overview_keyboard(st: State, table: Table) -> Layout:
    """The overview: levels, bid and outcome, the parts to change, Abbrechen and Eintragen."""
    gt = st.game
    assert gt is not None
    edit = [("✎ " + table.names[st.declarer or 0], "v:p"), ("✎ " + gt.label, "v:g")]
    if not gt.is_null:
        edit.append(("✎ " + _mat_label(st), "v:m"))
    last = [CANCEL, SAVE if st.has_outcome else SAVE_LATER]
    return (*_main_rows(st, table), tuple(edit), tuple(last))


def _offerable(st: State, code: str, table: Table) -> bool:
    """A toggle is shown when its game knows the level, the house rules allow it and what
    the level requires (``rules.value.required``) is set."""
    level = FLAGS[code][0]
    if level not in allowed_levels(st.game):
        return False
    if level in HOUSE_LEVELS and not table.house:
        return False
    return required(st.game, level) <= st.levels


def _main_rows(st: State, table: Table) -> Rows:
    def t(code: str) -> tuple[str, str]:
        level, label = FLAGS[code]
        return (_mark(label, bool(getattr(st, level))), f"t:{code}")

    def shown(*codes: str) -> tuple[tuple[str, str], ...]:
        return tuple(t(c) for c in codes if _offerable(st, c, table))

    rows: Rows = []
    gt = st.game
    assert gt is not None
    if gt.is_null:
        rows.append(shown("h", "o"))
    else:
        rows.append(shown("h", "s", "w"))
        announced = shown("sa", "wa")
        if announced:
            rows.append(announced)
    bid = ("Reiz " + (str(st.bid) if st.bid is not None else "…"), "v:r")
    extra = (*([] if gt.is_null else shown("o")), bid, *shown("k", "re"))
    rows.append(extra)
    outcome = [
        (_mark("gewonnen", st.won is True and st.card_points is None), "e:1"),
        (_mark("verloren", st.won is False and st.card_points is None), "e:0"),
    ]
    rows.append(tuple(outcome))
    return rows


def _back_view(st: State) -> str:
    """Where "zurück" leads: the overview if the game is complete, else the step before."""
    if st.view in ("m2", "r2", "r?"):
        return {"m2": "m", "r2": "r", "r?": "r"}[st.view]
    if st.declarer is not None and st.complete:
        return "main"
    return {"g": "p", "m": "g", "r": "main"}.get(st.view, "p")


def next_view(st: State) -> str:
    if st.declarer is None:
        return "p"
    if st.game is None:
        return "g"
    if not st.complete:
        return "m"
    return "main"


def offered(st: State, table: Table) -> set[str]:
    """The ops on the keyboard of ``st``: the only taps it takes."""
    return {op for row in layout(st, table) for _, op in row}


# --- a tap ----------------------------------------------------------------------------------


def tap(st: State, op: str, table: Table) -> Outcome:
    """What ``op`` does to ``st``: a new state (legal by the rules), the end of the builder,
    or a refusal that changes nothing."""
    if op not in offered(st, table):
        return Refusal()
    if op == "x":
        return Cancel()
    if op == "ok":
        if st.declarer is None or not st.complete:
            return Refusal()
        if not st.has_outcome:  # the greyed-out Eintragen, tapped where it is not grey
            return Refusal(NO_OUTCOME)
        try:
            a, notes = normalize(announcement(st, assume_won=False))
        except RuleError as err:
            return Refusal(error=err)
        return Book(st.declarer, a, notes)
    return checked(apply(st, op))


def typed_bid(st: State, bid: int) -> State | Refusal:
    """A bid typed as a reply to "anderer …" (only while the builder asks for it)."""
    if st.view != "r?":
        return Refusal()
    try:
        check_bid(bid)
    except RuleError as err:
        return Refusal(error=err)
    return checked(dataclasses.replace(st, bid=bid, view="main"))


def checked(st: State) -> State | Refusal:
    """``st`` if the rules accept it (as far as it is complete), else the refusal."""
    try:
        check_state(st)
    except RuleError as err:
        return Refusal(error=err)
    return st


def apply(st: State, op: str) -> State:
    """The state after ``op`` (one of the offered ops); implied levels follow along."""
    kind, _, arg = op.partition(":")
    if kind == "p":
        st = dataclasses.replace(st, declarer=int(arg))
        return dataclasses.replace(st, view=next_view(st))
    if kind == "g":
        gt = GAMES[arg]
        matadors = st.matadors
        bid = st.bid
        if gt.is_null:
            matadors = None
            if bid is not None and bid > NULL_MAX_BID:
                bid = None
        elif matadors is not None and matadors > gt.max_matadors:
            matadors = None
        levels = st.levels & allowed_levels(gt)
        st = dataclasses.replace(st, game=gt, matadors=matadors, bid=bid)
        st = st.with_levels(levels | implied(gt, levels))
        return dataclasses.replace(st, view=next_view(st))
    if kind == "m":
        st = dataclasses.replace(st, with_matadors=arg[0] == "+", matadors=int(arg[1:]))
        return dataclasses.replace(st, view=next_view(st))
    if kind == "t":
        return _toggle(st, FLAGS[arg][0])
    if kind == "r":
        if arg == "?":
            return dataclasses.replace(st, view="r?")
        return dataclasses.replace(st, bid=int(arg) or None, view="main")
    if kind == "e":
        return dataclasses.replace(st, won=arg == "1", card_points=None)
    if kind == "v":
        return dataclasses.replace(st, view=arg)
    return st


def _toggle(st: State, level: Level) -> State:
    """Switch ``level``: on brings what it implies, off takes what depends on it."""
    levels = st.levels
    if level in levels:
        return st.with_levels(levels - {level} - dependents(st.game, level))
    levels = levels | {level}
    return st.with_levels(levels | implied(st.game, levels))
