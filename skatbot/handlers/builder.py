"""The game builder: enter a game with buttons in one message that is edited in place.

``/spiel`` without words (or "Neues Spiel" under a booking) opens it; "Korrigieren" under a
booking opens it prefilled. Each tap is one transaction (``runtime.execute_callback``) and is
checked three times before it changes anything:

1. the data must be on a button of the tapped message right now (runtime, from Telegram);
2. the builder must belong to this chat and this message, be open, be tapped by whoever
   opened it, and its list must be unchanged since it was opened (same list, same number of
   log rows) - otherwise the tap books nothing and is answered politely;
3. the operation must be on the keyboard that the builder's current state renders.

The state lives in the ``builders`` table (a tap works after a restart and on any instance).
"Eintragen" writes the canonical text (``format_announcement``) through the same use case as
``/spiel`` text (``sheet_ops.book_game`` / ``sheet_ops.correct_game``).

Callback data: ``v1:b:<builder id>:<op>`` with ops ``p:<seat>`` (declarer), ``g:<game>``,
``m:+N``/``m:-N`` (mit/ohne N), ``t:<flag>`` (toggle), ``r:<bid>``/``r:0``/``r:?`` (bid, none,
other by text), ``e:1``/``e:0`` (gewonnen/verloren), ``v:<view>`` (navigation), ``ok``
(Eintragen), ``x`` (Abbrechen). The buttons under bookings are in keyboards.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from html import escape
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from telegram import Update
from telegram.ext import (
    ContextTypes,
)

from skatbot.handlers import admin, house_ops, keyboards, sheet_ops
from skatbot.handlers.delivery import topic_of
from skatbot.handlers.reply import Answer, Buttons, Command, Edit, Reply
from skatbot.handlers.runtime import database, execute, execute_callback, place_of, sender_of
from skatbot.rules.bids import check_bid
from skatbot.rules.errors import RuleError
from skatbot.rules.game import Announcement, GameType
from skatbot.rules.grammar import (
    contract_text,
    doubling_words,
    format_announcement,
    parse_announcement,
)
from skatbot.rules.sheet import Entry, Status
from skatbot.rules.value import GameResult, evaluate, normalize
from skatbot.storage import repo
from skatbot.storage.builder_models import GameBuilder
from skatbot.storage.database import lock_chat

# --- state ------------------------------------------------------------------------------------

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
# toggle code -> (state field, label: the grammar's words)
FLAGS: dict[str, tuple[str, str]] = {
    "h": ("hand", "Hand"),
    "s": ("schneider", "Schneider"),
    "w": ("schwarz", "Schwarz"),
    "sa": ("sa", "Schneider angesagt"),
    "wa": ("swa", "Schwarz angesagt"),
    "o": ("ouvert", "Ouvert"),
    "k": ("kontra", "Kontra"),
    "re": ("re", "Re"),
}
COMMON_BIDS = (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 55, 59, 60, 72)
NULL_MAX_BID = 59
VIEWS = {"p", "g", "m", "m2", "main", "r", "r?"}
CHECK = "✓ "


@dataclass
class State:
    """What has been chosen so far; ``view`` is the keyboard shown."""

    view: str = "p"
    declarer: int | None = None
    game: str | None = None  # a GAMES code
    with_m: bool = True
    mat: int | None = None
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    sa: bool = False
    swa: bool = False
    ouvert: bool = False
    kontra: bool = False
    re: bool = False
    bid: int | None = None
    won: bool | None = None
    augen: int | None = None  # only when a corrected game was entered with "augen N"

    def dump(self) -> str:
        return json.dumps(dataclasses.asdict(self), separators=(",", ":"))

    @classmethod
    def load(cls, raw: str) -> State:
        try:
            data = json.loads(raw or "{}")
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        known = {f.name: f for f in dataclasses.fields(cls)}
        clean: dict[str, Any] = {}
        for key, value in data.items():
            if key in known:
                clean[key] = value
        try:
            return cls(**clean)
        except TypeError:
            return cls()

    @property
    def game_type(self) -> GameType | None:
        return GAMES.get(self.game or "")

    @property
    def trump(self) -> bool:
        gt = self.game_type
        return gt is not None and not gt.is_null

    @property
    def complete(self) -> bool:
        """Game and matadors chosen: the value can be computed."""
        gt = self.game_type
        return gt is not None and (gt.is_null or self.mat is not None)

    @property
    def has_outcome(self) -> bool:
        return self.won is not None or self.augen is not None


def announcement(st: State, *, assume_won: bool = True) -> Announcement:
    gt = st.game_type
    assert gt is not None
    won = st.won
    if won is None and st.augen is None and assume_won:
        won = True
    return Announcement(
        game=gt,
        matadors=None if gt.is_null else st.mat,
        with_matadors=st.with_m,
        hand=st.hand,
        schneider=st.schneider,
        schneider_announced=st.sa,
        schwarz=st.schwarz,
        schwarz_announced=st.swa,
        ouvert=st.ouvert,
        bid=st.bid,
        won=won,
        card_points=st.augen,
        kontra=st.kontra,
        re=st.re,
    )


def from_announcement(a: Announcement, declarer: int | None) -> State:
    return State(
        view="main",
        declarer=declarer,
        game=GAME_CODE[a.game],
        with_m=a.with_matadors,
        mat=a.matadors,
        hand=a.hand,
        schneider=a.schneider,
        schwarz=a.schwarz,
        sa=a.schneider_announced,
        swa=a.schwarz_announced,
        ouvert=a.ouvert,
        kontra=a.kontra,
        re=a.re,
        bid=a.bid,
        won=a.won,
        augen=a.card_points,
    )


def check_state(st: State) -> GameResult | None:
    """Evaluate a complete state; a RuleError means the combination is illegal."""
    if not st.complete:
        return None
    return evaluate(announcement(st))


# --- the context a builder works in -------------------------------------------------------------


@dataclass
class Context:
    loaded: repo.LoadedList
    target: Entry | None  # the game being corrected

    @property
    def house(self) -> bool:
        return self.loaded.sheet.house is not None

    @property
    def dealer(self) -> int:
        if self.target is not None and self.target.row.dealer is not None:
            return self.target.row.dealer
        return self.loaded.sheet.next_dealer

    @property
    def declarers(self) -> list[int]:
        sheet = self.loaded.sheet
        return [
            s for s in range(sheet.table_size) if not (sheet.table_size == 4 and s == self.dealer)
        ]


# --- rendering --------------------------------------------------------------------------------


def _chunks(items: list[tuple[str, str]], size: int) -> list[tuple[tuple[str, str], ...]]:
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)]


def _mark(label: str, on: bool) -> str:
    return CHECK + label if on else label


def _mat_label(st: State) -> str:
    return f"{'mit' if st.with_m else 'ohne'} {st.mat}"


def summary(st: State, ctx: Context) -> tuple[str, str]:
    """The announcement so far and its value ("Anna: Grand ohne 1 Hand → 72"), and the
    breakdown line (empty until the value is known)."""
    names = ctx.loaded.names
    who = escape(names[st.declarer]) if st.declarer is not None else "?"
    gt = st.game_type
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
    if st.augen is not None:
        words.append(f"Augen {st.augen}")
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
    "r?": "Antworte auf diese Nachricht mit dem Reizwert, z. B. 27.",
}


def render(b: GameBuilder, st: State, ctx: Context) -> tuple[str, Buttons]:
    sheet = ctx.loaded.sheet
    dealer = escape(ctx.loaded.names[ctx.dealer])
    if ctx.target is not None:
        head = f"✏️ <b>Spiel {ctx.target.nr} korrigieren</b> · Geber {dealer}"
    else:
        head = (
            f"🃏 <b>Neues Spiel {sheet.games_played + 1}/{sheet.series_length}</b> · Geber {dealer}"
        )
    if sheet.table_size == 4:
        head += " (setzt aus)"
    line, breakdown = summary(st, ctx)
    lines = [head] + ([f"<b>{line}</b>"] if line else [])
    if breakdown:
        lines.append(escape(breakdown))
    if st.view == "main":
        prompt = "Stimmt alles? Dann Eintragen." if st.has_outcome else "Gewonnen oder verloren?"
    else:
        prompt = PROMPTS.get(st.view, "")
    lines.append(f"👉 {prompt}")
    if b.owner_name:
        lines.append(f"<i>Eingabe von {escape(b.owner_name)}</i>")
    return "\n".join(lines), keyboard(b.id, st, ctx)


def keyboard(builder_id: int, st: State, ctx: Context) -> Buttons:
    def d(op: str) -> str:
        return f"v1:b:{builder_id}:{op}"

    rows: list[tuple[tuple[str, str], ...]] = []
    view = st.view
    back = ("↩ zurück", d("v:" + _back_view(st)))
    cancel = ("Abbrechen", d("x"))
    gt = st.game_type
    if view == "p":
        names = ctx.loaded.names
        items = [(_mark(names[s], s == st.declarer), d(f"p:{s}")) for s in ctx.declarers]
        longest = max(len(label) for label, _ in items)
        rows.extend(_chunks(items, 3 if longest <= 10 else 2 if longest <= 16 else 1))
    elif view == "g":
        items = [(_mark(GAME_LABEL[g], g is gt), d(f"g:{GAME_CODE[g]}")) for g in GAMES.values()]
        rows.extend([tuple(items[:4]), tuple(items[4:])])
    elif view in ("m", "m2") and gt is not None and not gt.is_null:
        lo, hi = (1, min(4, gt.max_matadors)) if view == "m" else (5, gt.max_matadors)
        for with_m, word, sign in ((True, "mit", "+"), (False, "ohne", "-")):
            items = [
                (_mark(f"{word} {n}", st.mat == n and st.with_m == with_m), d(f"m:{sign}{n}"))
                for n in range(lo, hi + 1)
            ]
            rows.extend(_chunks(items, 4))
        if view == "m" and gt.max_matadors > 4:
            rows.append((("mehr …", d("v:m2")),))
    elif view == "r" and gt is not None:
        top = NULL_MAX_BID if gt.is_null else max(COMMON_BIDS)
        items = [(_mark(str(v), v == st.bid), d(f"r:{v}")) for v in COMMON_BIDS if v <= top]
        rows.extend(_chunks(items, 4))
        rows.append((("anderer …", d("r:?")), (_mark("ohne Reiz", st.bid is None), d("r:0"))))
    elif view == "r?":
        pass
    elif view == "main" and gt is not None:
        rows.extend(_main_rows(st, ctx, d))
        edit = [("✎ " + ctx.loaded.names[st.declarer or 0], d("v:p")), ("✎ " + gt.label, d("v:g"))]
        if not gt.is_null:
            edit.append(("✎ " + _mat_label(st), d("v:m")))
        rows.append(tuple(edit))
        last = [cancel]
        if st.has_outcome:
            last.append(("✅ Eintragen", d("ok")))
        rows.append(tuple(last))
        return tuple(rows)
    if view == "p" and _back_view(st) == "p":
        rows.append((cancel,))
    else:
        rows.append((cancel, back))
    return tuple(rows)


def _main_rows(st: State, ctx: Context, d: Any) -> list[tuple[tuple[str, str], ...]]:
    def t(code: str) -> tuple[str, str]:
        field, label = FLAGS[code]
        return (_mark(label, bool(getattr(st, field))), d(f"t:{code}"))

    rows: list[tuple[tuple[str, str], ...]] = []
    gt = st.game_type
    assert gt is not None
    if gt.is_null:
        rows.append((t("h"), t("o")))
    else:
        rows.append((t("h"), t("s"), t("w")))
        if st.hand:
            rows.append((t("sa"), t("wa")))
    extra = [("Reiz " + (str(st.bid) if st.bid is not None else "…"), d("v:r"))]
    if not gt.is_null:
        extra.insert(0, t("o"))
    if ctx.house:
        extra.append(t("k"))
        if st.kontra:
            extra.append(t("re"))
    rows.append(tuple(extra))
    outcome = [
        (_mark("gewonnen", st.won is True and st.augen is None), d("e:1")),
        (_mark("verloren", st.won is False and st.augen is None), d("e:0")),
    ]
    rows.append(tuple(outcome))
    return rows


def _back_view(st: State) -> str:
    """Where "zurück" leads: the overview if the game is complete, else the step before."""
    if st.view in ("m2", "r?"):
        return {"m2": "m", "r?": "r"}[st.view]
    if st.declarer is not None and st.complete:
        return "main"
    return {"g": "p", "m": "g", "r": "main"}.get(st.view, "p")


def next_view(st: State) -> str:
    if st.declarer is None:
        return "p"
    if st.game_type is None:
        return "g"
    if not st.complete:
        return "m"
    return "main"


def offered_ops(builder_id: int, st: State, ctx: Context) -> set[str]:
    prefix = f"v1:b:{builder_id}:"
    return {
        data[len(prefix) :]
        for row in keyboard(builder_id, st, ctx)
        for _, data in row
        if data.startswith(prefix)
    }


# --- applying a tap ---------------------------------------------------------------------------


def apply(st: State, op: str) -> State:
    """The state after ``op`` (one of the offered ops); implied levels follow along."""
    st = dataclasses.replace(st)
    kind, _, arg = op.partition(":")
    if kind == "p":
        st.declarer = int(arg)
        st.view = next_view(st)
    elif kind == "g":
        st.game = arg
        gt = GAMES[arg]
        if gt.is_null:
            st.mat = None
            st.schneider = st.schwarz = st.sa = st.swa = False
            if st.bid is not None and st.bid > NULL_MAX_BID:
                st.bid = None
        else:
            if st.mat is not None and st.mat > gt.max_matadors:
                st.mat = None
            if st.ouvert:
                st.hand = st.sa = st.swa = True
        st.view = next_view(st)
    elif kind == "m":
        st.with_m, st.mat = arg[0] == "+", int(arg[1:])
        st.view = next_view(st)
    elif kind == "t":
        _toggle(st, arg)
    elif kind == "r":
        if arg == "?":
            st.view = "r?"
        else:
            st.bid = int(arg) or None
            st.view = "main"
    elif kind == "e":
        st.won, st.augen = arg == "1", None
    elif kind == "v":
        st.view = arg
    return st


def _toggle(st: State, code: str) -> None:
    field, _ = FLAGS[code]
    on = not getattr(st, field)
    setattr(st, field, on)
    trump = st.trump
    if on:
        if code == "o" and trump:
            st.hand = st.sa = st.swa = True
        elif code == "wa":
            st.sa = True
        elif code == "w":
            st.schneider = True
    else:
        if code == "h":
            st.sa = st.swa = False
            if trump:
                st.ouvert = False
        elif code == "sa":
            st.swa = st.ouvert = False
        elif code == "wa":
            st.ouvert = False
        elif code == "s":
            st.schwarz = False
        elif code == "k":
            st.re = False


# --- use cases --------------------------------------------------------------------------------

DATA_BUILDER = re.compile(r"v1:b:(\d{1,10}):([a-z0-9:+?\-]{1,8})")
DATA_ROW = re.compile(r"v1:(k|s|sj|sn):(\d{1,10})")
DATA_HEALTH = re.compile(r"v1:(g|kr):(\d{1,10}):(\d{1,6})(?::(\d))?")
UNKNOWN = "Unbekannter Knopf – nichts geändert."
NOT_HERE = "Dieser Knopf gehört nicht zu dieser Nachricht."
FINISHED = "Diese Eingabe ist schon abgeschlossen."
STALE = "Dieser Knopf gilt nicht mehr."
CHANGED = "Die Liste hat sich inzwischen geändert – bitte neu öffnen."


def spiel(session: Session, cmd: Command) -> Reply:
    """/spiel: without words the builder, else the text grammar (sheet_ops.spiel)."""
    if not cmd.args:
        return open_builder(session, cmd)
    return sheet_ops.spiel(session, cmd)


def open_builder(
    session: Session,
    cmd: Command,
    *,
    target: Entry | None = None,
    state: State | None = None,
    source_message_id: int | None = None,
) -> Reply:
    lock_chat(session, cmd.chat_id)
    loaded = sheet_ops.require_list(session, cmd)
    if target is None:
        loaded.sheet.check_can_add()
    edits = _retire_open_builders(session, cmd)
    b = GameBuilder(
        chat_id=cmd.chat_id,
        list_id=loaded.lst.id,
        owner_id=cmd.user_id,
        owner_name=cmd.user_name[:128],
        target_row=target.row.id if target is not None else None,
        source_message_id=source_message_id,
        rows_seen=len(loaded.rows),
        state=(state or State()).dump(),
        status="open",
    )
    session.add(b)
    session.flush()
    builder_id = b.id
    text, buttons = render(b, State.load(b.state), Context(loaded, target))

    def bind(s: Session, message_id: int) -> None:
        row = s.get(GameBuilder, builder_id)
        if row is not None and row.message_id is None:
            row.message_id = message_id

    return Reply(text, buttons=buttons, edits=edits, on_sent=bind)


def _retire_open_builders(session: Session, cmd: Command) -> tuple[Edit, ...]:
    """A user has one open builder per chat: opening a new one closes the older ones."""
    older = session.scalars(
        select(GameBuilder).where(
            GameBuilder.chat_id == cmd.chat_id,
            GameBuilder.owner_id == cmd.user_id,
            GameBuilder.status == "open",
        )
    ).all()
    edits = []
    for old in older:
        old.status = "cancelled"
        if old.message_id is not None:
            edits.append(Edit(old.message_id, "↪️ Abgelöst durch eine neue Eingabe."))
    return tuple(edits)


def tap(session: Session, cmd: Command) -> Answer:
    """Every button tap (callback use case, one transaction)."""
    data = cmd.args[0] if cmd.args else ""
    m = DATA_BUILDER.fullmatch(data)
    if m:
        return _builder_tap(session, cmd, int(m.group(1)), m.group(2))
    m = DATA_ROW.fullmatch(data)
    if m:
        return _row_tap(session, cmd, m.group(1), int(m.group(2)))
    m = DATA_HEALTH.fullmatch(data)
    if m:
        seat = int(m.group(4)) if m.group(1) == "kr" and m.group(4) is not None else None
        if m.group(1) == "kr" and seat is None:
            return Answer(notice=UNKNOWN)
        reply = house_ops.health_tap(session, cmd, int(m.group(2)), int(m.group(3)), seat)
        return Answer(notice="Eingetragen.", send=reply)
    if data == keyboards.NEW_GAME:
        return Answer(send=open_builder(session, cmd))
    if data == keyboards.STAND:
        return Answer(send=sheet_ops.stand(session, cmd))
    return Answer(notice=UNKNOWN)


def chat_owned(owner_id: int | None) -> bool:
    """Opened on behalf of a chat (an anonymous admin as the group, or a channel)? Chat ids
    are negative, user ids positive."""
    return owner_id is not None and owner_id < 0


def may_use(b: GameBuilder, cmd: Command) -> bool:
    """Whoever opened a builder works it. One opened on behalf of a chat is tapped by real
    people (a callback names the user, never the chat): the chat's admins may work it
    (``cmd.is_admin``, asked from Telegram before the transaction)."""
    if b.owner_id is None or b.owner_id == cmd.user_id:
        return True
    return chat_owned(b.owner_id) and cmd.is_admin


def _load_builder(
    session: Session, cmd: Command, builder_id: int
) -> tuple[GameBuilder, Context] | Answer:
    b = session.get(GameBuilder, builder_id)
    if b is None or b.chat_id != cmd.chat_id or b.message_id != cmd.message_id:
        return Answer(notice=NOT_HERE)
    if b.status != "open":
        return Answer(notice=FINISHED)
    if not may_use(b, cmd):
        return Answer(
            notice=f"Diese Eingabe gehört {b.owner_name or 'jemand anderem'}. Eigene: /spiel"
        )
    lst = repo.open_list(session, cmd.chat_id)
    loaded = repo.load(session, lst) if lst is not None else None
    target: Entry | None = None
    if loaded is not None and b.target_row is not None:
        target = _valid_entry(loaded, b.target_row)
    if (
        loaded is None
        or loaded.lst.id != b.list_id
        or len(loaded.rows) != b.rows_seen
        or (b.target_row is not None and target is None)
    ):
        b.status = "cancelled"
        return Answer(
            notice=CHANGED,
            text="⌛ Diese Eingabe ist veraltet: inzwischen wurde die Liste geändert.",
            buttons=(keyboards.new_game_row(),) if loaded is not None else (),
        )
    return b, Context(loaded, target)


def _builder_tap(session: Session, cmd: Command, builder_id: int, op: str) -> Answer:
    found = _load_builder(session, cmd, builder_id)
    if isinstance(found, Answer):
        return found
    b, ctx = found
    st = State.load(b.state)
    if op not in offered_ops(b.id, st, ctx):
        return Answer(notice=STALE)
    if op == "x":
        b.status = "cancelled"
        return Answer(
            notice="Abgebrochen.",
            text="✖ Eingabe abgebrochen – nichts eingetragen.",
            buttons=(keyboards.new_game_row(),),
        )
    if op == "ok":
        return _book(session, cmd, b, st, ctx)
    new = apply(st, op)
    check_state(new)  # a RuleError refuses the tap (rollback), the builder stays as it was
    b.state = new.dump()
    text, buttons = render(b, new, ctx)
    return Answer(text=text, buttons=buttons)


def _book(session: Session, cmd: Command, b: GameBuilder, st: State, ctx: Context) -> Answer:
    if st.declarer is None or not st.complete or not st.has_outcome:
        return Answer(notice=STALE)
    a, notes = normalize(announcement(st, assume_won=False))
    text = format_announcement(a)
    if ctx.target is None:
        reply = sheet_ops.book_game(session, cmd, ctx.loaded, st.declarer, text, notes)
    else:
        assert ctx.target.nr is not None
        reply = sheet_ops.correct_game(
            session, cmd, ctx.loaded, ctx.target.nr, st.declarer, text, notes
        )
    b.status = "done"
    edits = reply.edits
    if b.source_message_id is not None:
        edits = (Edit(b.source_message_id, None, ()), *edits)
    return Answer(notice="Eingetragen.", text=reply.text, buttons=reply.buttons, edits=edits)


def _valid_entry(loaded: repo.LoadedList, row_id: int) -> Entry | None:
    for e in loaded.sheet.entries:
        if e.row.id == row_id and e.status is Status.VALID:
            return e
    return None


def _row_tap(session: Session, cmd: Command, kind: str, row_id: int) -> Answer:
    lock_chat(session, cmd.chat_id)
    lst = repo.open_list(session, cmd.chat_id)
    if lst is None:
        return Answer(notice="Hier läuft keine Liste mehr.", buttons=())
    loaded = repo.load(session, lst)
    entry = _valid_entry(loaded, row_id)
    if entry is None or entry.nr is None:
        return Answer(
            notice="Dieses Spiel wurde inzwischen korrigiert oder storniert – /liste zeigt es.",
            buttons=(keyboards.new_game_row(),),
        )
    if kind == "s":
        return Answer(buttons=keyboards.confirm_cancel_buttons(row_id, entry.nr))
    if kind == "sn":
        return Answer(notice="Nicht storniert.", buttons=keyboards.booking_buttons(row_id))
    if kind == "sj":
        reply = sheet_ops.storno(session, dataclasses.replace(cmd, args=(str(entry.nr),)))
        return Answer(notice="Storniert.", buttons=(), send=reply)
    # "k": Korrigieren opens a builder prefilled with that game
    state = State(view="p")
    if entry.result is not None and entry.row.announcement is not None:
        a = parse_announcement(entry.row.announcement, house=loaded.sheet.house is not None)
        state = from_announcement(a, entry.row.declarer)
    return Answer(
        send=open_builder(session, cmd, target=entry, state=state, source_message_id=cmd.message_id)
    )


def bid_text(session: Session, cmd: Command, reply_to: int) -> Reply:
    """A text answer to a builder that asked for another bid ("anderer …")."""
    lock_chat(session, cmd.chat_id)
    b = session.scalars(
        select(GameBuilder).where(
            GameBuilder.chat_id == cmd.chat_id,
            GameBuilder.message_id == reply_to,
            GameBuilder.status == "open",
        )
    ).first()
    if b is None or not may_use(b, cmd):
        return Reply("")  # not for us: ignore
    st = State.load(b.state)
    if st.view != "r?":
        return Reply("")
    word = cmd.text.strip().removeprefix("reiz").strip()
    if not word.isdigit() or len(word) > 4:
        raise RuleError("Das ist kein Reizwert.", hint="Antworte mit einer Zahl, z. B. 27.")
    found = _load_builder(session, dataclasses.replace(cmd, message_id=reply_to), b.id)
    if isinstance(found, Answer):
        return Reply("")
    _, ctx = found
    new = dataclasses.replace(st, bid=check_bid(int(word)), view="main")
    check_state(new)
    b.state = new.dump()
    text, buttons = render(b, new, ctx)
    return Reply("", edits=(Edit(reply_to, text, buttons),))


# --- Telegram glue ----------------------------------------------------------------------------


async def _admin_for_chat_owned(
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    *,
    builder_id: int | None = None,
    message_id: int | None = None,
) -> bool:
    """For a builder opened on behalf of a chat, whether the sender is a chat admin.

    One short read finds the builder's owner; only a chat-owned builder costs a
    getChatMember call, so ordinary taps ask Telegram nothing.
    """
    chat = update.effective_chat
    if chat is None:
        return False
    # The builder lives in the place of the topic its message is in.
    chat_id = await place_of(context, chat.id, topic_of(update.effective_message) or 0)

    def owner(session: Session) -> int | None:
        if builder_id is not None:
            b = session.get(GameBuilder, builder_id)
            return b.owner_id if b is not None and b.chat_id == chat_id else None
        return session.scalar(
            select(GameBuilder.owner_id).where(
                GameBuilder.chat_id == chat_id,
                GameBuilder.message_id == message_id,
                GameBuilder.status == "open",
            )
        )

    owner_id = await database(context).read(owner)
    if not chat_owned(owner_id) or owner_id == sender_of(update)[0]:
        return False
    return await admin.is_chat_admin(update, context)


def _as_admin(use_case: Any) -> Any:
    return lambda s, c: use_case(s, dataclasses.replace(c, is_admin=True))


async def on_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    m = DATA_BUILDER.fullmatch(query.data or "") if query is not None else None
    use_case = tap
    if m is not None and await _admin_for_chat_owned(update, context, builder_id=int(m[1])):
        use_case = _as_admin(tap)
    await execute_callback(update, context, use_case)


async def on_reply(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    replied = msg.reply_to_message if msg else None
    if replied is None or replied.from_user is None or replied.from_user.id != context.bot.id:
        return
    reply_to = replied.message_id

    def use_case(s: Session, c: Command) -> Reply:
        return bid_text(s, c, reply_to)

    if await _admin_for_chat_owned(update, context, message_id=reply_to):
        use_case = _as_admin(use_case)
    await execute(update, context, use_case)
