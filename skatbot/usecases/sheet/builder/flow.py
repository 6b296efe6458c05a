"""The game builder: enter a game with buttons in one message that is edited in place.

``/spiel`` without words (sheet/spiel.py) or "Neues Spiel" under a booking opens it;
"Korrigieren" under a booking opens it prefilled. Opened by a tap it is an ephemeral message
for the tapper alone where Telegram takes it (``open_builder_tapped``; its taps edit it for
them, its booking is a new message for the group; docs/ephemeral.md), else, and for
``/spiel``, a public message. Each tap is one transaction
(``runtime.execute_callback``) and is checked three times before it changes anything:

1. the data must be on a button of the tapped message right now (runtime, from Telegram);
2. the builder must belong to this chat and this message, be open, be tapped by whoever
   opened it, and its list must be unchanged since it was opened (same list, same number of
   log rows) - otherwise the tap books nothing and is answered politely;
3. the operation must be on the keyboard that the builder's current state renders.

This module holds the use cases (no Telegram types; the PTB glue is ``handlers/builder.py``);
the state, its keyboard and what a tap does (a pure state machine that asks ``rules`` for the
implied levels) are ``builder_state``. The state lives in the ``builders`` table
(``storage.builders``: a tap works after a restart and on any instance). "Eintragen" writes
the canonical text (``format_announcement``) through the same use case as ``/spiel`` text
(``booking.book_game`` / ``commands.correct_game``).

Callback data: ``v1:b:<builder id>:<op>`` with the ops of ``builder_state``. The buttons under
bookings are in common/keyboards.py, their use cases in sheet/buttons.py.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import format_announcement
from skatbot.rules.numbers import is_number
from skatbot.rules.sheet import Entry, Status
from skatbot.storage import builders
from skatbot.storage import lists as lists_store
from skatbot.storage.builders import BuilderStatus, GameBuilder
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards
from skatbot.usecases.common.continuations import continuation
from skatbot.usecases.common.reply import Answer, Buttons, Call, Command, Edit, Reply, with_data
from skatbot.usecases.sheet.booking import book_game
from skatbot.usecases.sheet.builder import state as bs
from skatbot.usecases.sheet.list_changes import correct_game
from skatbot.usecases.sheet.lists import At, asker, place_id, require_list

# The pure state machine (state + tap -> new state / refusal) lives in builder_state.
State = bs.State

# --- the context a builder works in -------------------------------------------------------------


@dataclass
class Context:
    loaded: lists_store.LoadedList
    target: Entry | None  # the game being corrected
    typed_bid: bool = True  # a bid can be typed as a reply (not to an ephemeral builder)

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

    @property
    def table(self) -> bs.Table:
        return bs.Table(tuple(self.loaded.names), tuple(self.declarers), self.house, self.typed_bid)


# --- rendering --------------------------------------------------------------------------------


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
    table = ctx.table
    line, breakdown = bs.summary(st, table)
    lines = [head] + ([f"<b>{line}</b>"] if line else [])
    if breakdown:
        lines.append(escape(breakdown))
    lines.append(f"👉 {bs.prompt(st)}")
    if b.owner_name:
        lines.append(f"<i>Eingabe von {escape(b.owner_name)}</i>")
    return "\n".join(lines), keyboard(b.id, st, table)


def keyboard(builder_id: int, st: State, table: bs.Table) -> Buttons:
    """The state's keyboard with each op as callback data ``v1:b:<builder id>:<op>``."""
    return tuple(
        tuple(with_data(button, f"v1:b:{builder_id}:{button[1]}") for button in row)
        for row in bs.layout(st, table)
    )


# --- use cases --------------------------------------------------------------------------------

DATA_BUILDER = re.compile(r"v1:b:([0-9]{1,10}):([a-z0-9:+?\-]{1,8})")
UNKNOWN = "Unbekannter Knopf – nichts geändert."
NOT_HERE = "Dieser Knopf gehört nicht zu dieser Nachricht."
FINISHED = "Diese Eingabe ist schon abgeschlossen."
STALE = bs.STALE
CHANGED = "Die Liste hat sich inzwischen geändert – bitte neu öffnen."
BOOKED = "✅ Eingetragen – die Buchung steht für alle im Chat."


def open_builder(
    session: Session,
    at: At,
    *,
    target: Entry | None = None,
    state: State | None = None,
    source_message_id: int | None = None,
) -> Reply:
    """A new builder as a public message (``/spiel``: a command has no tap to answer
    ephemerally); the user's older open builders are told they are replaced."""
    text, buttons, bind, edits = _create(
        session, at, target=target, state=state, source_message_id=source_message_id
    )
    return Reply(text, buttons=buttons, edits=edits, on_sent=bind)


def open_builder_tapped(
    session: Session,
    at: At,
    *,
    target: Entry | None = None,
    state: State | None = None,
    source_message_id: int | None = None,
) -> Answer:
    """A new builder opened by a tap ("Neues Spiel", "Korrigieren"): for the tapper alone
    (an ephemeral message) where Telegram takes it, else public as ``open_builder``; the
    outbox decides, and ``bind_message`` learns which. Only the group's own builder (an
    anonymous admin's, ``chat_owned``) is always public: all its admins must see it."""
    text, buttons, bind, edits = _create(
        session, at, target=target, state=state, source_message_id=source_message_id
    )
    alone = not chat_owned(asker(at)[0])
    return Answer(send=Reply(text, buttons=buttons, on_sent=bind, for_asker=alone), edits=edits)


def _create(
    session: Session,
    at: At,
    *,
    target: Entry | None,
    state: State | None,
    source_message_id: int | None,
) -> tuple[str, Buttons, Call, tuple[Edit, ...]]:
    loaded = require_list(session, at)
    if target is None:
        loaded.sheet.check_can_add()
    user_id, user_name = asker(at)
    edits = _retire_open_builders(session, place_id(at), user_id)
    b = builders.create(
        session,
        chat_id=place_id(at),
        list_id=loaded.lst.id,
        owner_id=user_id,
        owner_name=user_name[:128],
        target_row=target.row.id if target is not None else None,
        source_message_id=source_message_id,
        rows_seen=len(loaded.rows),
        state=(state or State()).dump(),
    )
    builder_id = b.id
    text, buttons = render(b, State.load(b.state), Context(loaded, target))

    return text, buttons, Call("builder.bind_message", (builder_id,)), edits


@continuation("builder.bind_message")
def bind_message(session: Session, builder_id: int, message_id: int) -> None:
    """The builder's message was sent: it is edited from now on. A negative id: it went
    out as an ephemeral message (minus its ephemeral id), only its owner sees it."""
    builders.bind_message(session, builder_id, message_id)


def _retire_open_builders(session: Session, place: int, user_id: int | None) -> tuple[Edit, ...]:
    """A user has one open builder per chat: opening a new one closes the older ones."""
    return tuple(
        Edit(message_id, "↪️ Abgelöst durch eine neue Eingabe.", receiver=receiver)
        for message_id, receiver in builders.retire_open(session, place, user_id)
    )


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
    b = builders.get(session, builder_id)
    if b is None or b.chat_id != cmd.place_id or not _shown_in(b, cmd):
        return Answer(notice=NOT_HERE)
    if b.status is not BuilderStatus.OPEN:
        return Answer(notice=FINISHED)
    if not may_use(b, cmd):
        return Answer(
            notice=f"Diese Eingabe gehört {b.owner_name or 'jemand anderem'}. Eigene: /spiel"
        )
    lst = lists_store.open_list(session, cmd.place_id)
    loaded = lists_store.load(session, lst) if lst is not None else None
    target: Entry | None = None
    if loaded is not None and b.target_row is not None:
        target = valid_entry(loaded, b.target_row)
    if (
        loaded is None
        or loaded.lst.id != b.list_id
        or len(loaded.rows) != b.rows_seen
        or (b.target_row is not None and target is None)
    ):
        builders.finish(b, BuilderStatus.CANCELLED)
        return Answer(
            notice=CHANGED,
            text="⌛ Diese Eingabe ist veraltet: inzwischen wurde die Liste geändert.",
            buttons=(keyboards.new_game_row(),) if loaded is not None else (),
        )
    return b, Context(loaded, target, typed_bid=b.ephemeral_id is None)


def _shown_in(b: GameBuilder, cmd: Command) -> bool:
    """Whether the tapped message is the builder's: its ephemeral message (to its owner),
    or its message in the chat."""
    if cmd.ephemeral_message_id:
        return b.ephemeral_id == cmd.ephemeral_message_id and b.owner_id == cmd.user_id
    return b.message_id == cmd.message_id


def builder_tap(session: Session, cmd: Command) -> Answer:
    """A tap on one of the builder's own buttons (``v1:b:<builder id>:<op>``)."""
    m = DATA_BUILDER.fullmatch(cmd.args[0] if cmd.args else "")
    if m is None:
        return Answer(notice=UNKNOWN)
    return _builder_tap(session, cmd, int(m.group(1)), m.group(2))


def _builder_tap(session: Session, cmd: Command, builder_id: int, op: str) -> Answer:
    found = _load_builder(session, cmd, builder_id)
    if isinstance(found, Answer):
        return found
    b, ctx = found
    outcome = bs.tap(State.load(b.state), op, ctx.table)
    if isinstance(outcome, bs.Refusal):
        if outcome.error is not None:
            raise outcome.error  # rolls back: the builder stays as it was
        return Answer(notice=outcome.notice)
    if isinstance(outcome, bs.Cancel):
        builders.finish(b, BuilderStatus.CANCELLED)
        return Answer(
            notice="Abgebrochen.",
            text="✖ Eingabe abgebrochen – nichts eingetragen.",
            buttons=(keyboards.new_game_row(),),
        )
    if isinstance(outcome, bs.Book):
        return _book(session, cmd, b, outcome, ctx)
    builders.save_state(b, outcome.dump())
    text, buttons = render(b, outcome, ctx)
    return Answer(text=text, buttons=buttons)


def _book(session: Session, cmd: Command, b: GameBuilder, book: bs.Book, ctx: Context) -> Answer:
    text = format_announcement(book.announcement)
    if ctx.target is None:
        reply = book_game(session, cmd, ctx.loaded, book.declarer, text, book.notes)
    else:
        assert ctx.target.nr is not None
        reply = correct_game(
            session, cmd, ctx.loaded, ctx.target.nr, book.declarer, text, book.notes
        )
    builders.finish(b, BuilderStatus.DONE)
    edits = reply.edits
    if b.source_message_id:
        edits = (Edit(b.source_message_id, None, ()), *edits)
    if b.ephemeral_id is not None:
        # The table must see the booking: a message of the chat's; the builder that only
        # its owner saw says where it went.
        public = Reply(reply.text, buttons=reply.buttons)
        return Answer(notice="Eingetragen.", text=BOOKED, buttons=(), send=public, edits=edits)
    return Answer(notice="Eingetragen.", text=reply.text, buttons=reply.buttons, edits=edits)


def valid_entry(loaded: lists_store.LoadedList, row_id: int) -> Entry | None:
    for e in loaded.sheet.entries:
        if e.row.id == row_id and e.status is Status.VALID:
            return e
    return None


def bid_text(session: Session, cmd: Command, reply_to: int) -> Reply:
    """A text answer to a builder that asked for another bid ("anderer …"); the runtime has
    locked the place."""
    b = builders.open_at_message(session, cmd.place_id, reply_to)
    if b is None or not may_use(b, cmd):
        return Reply("")  # not for us: ignore
    st = State.load(b.state)
    if st.view != "r?":
        return Reply("")
    word = cmd.text.strip().removeprefix("reiz").strip()
    if not is_number(word) or len(word) > 4:
        raise RuleError("Das ist kein Reizwert.", hint="Antworte mit einer Zahl, z. B. 27.")
    found = _load_builder(session, dataclasses.replace(cmd, message_id=reply_to), b.id)
    if isinstance(found, Answer):
        return Reply("")
    _, ctx = found
    new = bs.typed_bid(st, int(word))
    if isinstance(new, bs.Refusal):
        if new.error is not None:
            raise new.error
        return Reply("")
    builders.save_state(b, new.dump())
    text, buttons = render(b, new, ctx)
    return Reply("", edits=(Edit(reply_to, text, buttons),))
