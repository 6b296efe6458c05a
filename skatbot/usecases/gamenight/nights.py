"""``/spielabend``: plan a game night with a poll, take its votes, close it.

``/spielabend Di 19:00`` stores the night and posts the announcement (the start as a
``date_time`` entity, its text written inside the tag, so a server before Bot API 9.5, which
shows the text alone, reads the same) and a public poll whose vote may be changed. A vote
(``poll_answer``) stores or drops a yes under the voter's linked name (``/ich``) or first
name. At the start (``close_due``, run by the handlers every little while and at start-up)
or by ``/spielabend schliessen`` (the proposer or an admin) the poll is closed and the
yes-votes seated (``rules.seating``): in a forum a topic per table, each with its list; in a
plain group the first table's list here and a ``/neu`` line for each other table's own chat.
"""

from __future__ import annotations

import datetime as dt
import secrets
import unicodedata
from dataclasses import dataclass
from html import escape

from skatbot.rules.errors import GameNightError, RuleError
from skatbot.rules.game_night import GameNightStart, format_start, parse_start
from skatbot.rules.seating import GameNightSeating, seat
from skatbot.rules.sheet import default_series_length
from skatbot.storage import game_nights as store
from skatbot.storage import topic_places
from skatbot.storage.database import lock_chat
from skatbot.storage.unit import Session
from skatbot.usecases.common.continuations import continuation
from skatbot.usecases.common.names import clean_name, neu_line
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Buttons, Call, Command, NewTopic, Poll, Reply
from skatbot.usecases.common.rights import owns
from skatbot.usecases.people.persons import directory
from skatbot.usecases.sheet.new_list import create_list, opening_reply

YES = "Ich bin dabei"
NO = "Ich kann nicht"
CLOSE_WORDS = {"schliessen", "schließen", "zu", "ende", "auslosen"}


@dataclass(frozen=True)
class ProposeNight:
    start: GameNightStart


@dataclass(frozen=True)
class CloseNight:
    """``/spielabend schliessen``: close the open night now (its proposer or an admin)."""


def parse(cmd: Command) -> ProposeNight | CloseNight:
    words = [w.casefold() for w in cmd.args]
    if len(words) == 1 and words[0] in CLOSE_WORDS:
        return CloseNight()
    return ProposeNight(parse_start(cmd.rest, dt.datetime.now(dt.UTC)))


def spielabend(session: Session, place: Place, request: ProposeNight | CloseNight) -> Reply:
    if isinstance(request, CloseNight):
        night = store.open_night(session, place.id)
        if night is None:
            raise RuleError("Hier ist kein Spielabend offen.", hint="Planen: /spielabend Di 19:00")
        return closing(session, night, place.asker.user_id, place.asker.name)
    return _propose(session, place, request.start)


def may_close(session: Session, place: Place, request: object) -> None:
    """Closing early: who proposed the night, or an admin of the chat (a vote is everyone's
    poll; an early close ends it for all, so not every member may)."""
    if not isinstance(request, CloseNight):
        return
    night = store.open_night(session, place.id)
    if night is None or place.asker.is_admin or owns(place.asker.user_id, night.user_id):
        return
    raise RuleError(
        f"Früher schließen dürfen nur {escape(night.user_name) or 'wer ihn geplant hat'} und "
        "die Admins des Chats.",
        hint=f"Die Umfrage schließt von selbst um {format_start(night.starts_at)}. "
        "Nichts wurde geändert.",
    )


def _propose(session: Session, place: Place, start: GameNightStart) -> Reply:
    if place.telegram_chat_id > 0:
        raise RuleError(
            "Ein Spielabend wird in der Gruppe geplant, nicht im privaten Chat.",
            hint="Schick /spielabend Di 19:00 in eure Skatgruppe.",
        )
    night = store.open_night(session, place.id)
    if night is not None:
        raise RuleError(
            f"Hier ist schon ein Spielabend geplant: {format_start(night.starts_at)}.",
            hint="Erst schließen: /spielabend schliessen – dann den neuen planen. "
            "Nichts wurde geändert.",
        )
    night = store.create(
        session,
        place.id,
        telegram_chat_id=place.telegram_chat_id or place.id,
        thread_id=place.thread_id,
        is_forum=place.is_forum,
        user_id=place.asker.user_id,
        user_name=place.asker.name,
        starts_at=start.at.astimezone(dt.UTC),  # SQLite keeps no zone: always UTC
        seed=secrets.token_hex(4),
    )
    when = f'<tg-time unix="{start.unix_time}" format="wdt">{escape(str(start))}</tg-time>'
    text = (
        f"🃏 <b>Spielabend</b> {when} – vorgeschlagen von {escape(place.asker.name)}.\n"
        f"Stimmt unten ab, ändern geht bis zum Schluss. Um {start.at:%H:%M} setze ich alle "
        "Zusagen an Dreier- und Vierertische und lege ihre Listen an.\n"
        "Früher schließen: /spielabend schliessen"
    )
    question = f"Spielabend {start}: bist du dabei?"
    return Reply(text, poll=Poll(question, (YES, NO), Call("gamenight.poll_sent", (night.id,))))


@continuation("gamenight.poll_sent")
def poll_sent(session: Session, night_id: int, message_id: int, poll_id: str) -> None:
    """The poll is out: a vote names it by ``poll_id``."""
    store.set_poll(session, night_id, message_id, poll_id)


# --- votes ------------------------------------------------------------------------------------


def vote(
    session: Session,
    poll_id: str,
    user_id: int,
    first_name: str,
    last_name: str,
    option_ids: tuple[int, ...],
) -> bool:
    """A member's vote in a night's poll (``()``: taken back). Whether it counted (a vote in
    another poll, or after the night closed, does not)."""
    night = store.by_poll(session, poll_id)
    if night is None or night.state != store.OPEN:
        return False
    lock_chat(session, night.place)
    name = None
    if 0 in option_ids:
        name = _voter_name(session, night, user_id, first_name, last_name)
    store.set_vote(session, night, user_id, name)
    return True


def _voter_name(
    session: Session, night: store.GameNight, user_id: int, first_name: str, last_name: str
) -> str:
    """The name the voter is linked to here (``/ich``), else the first name, told apart from
    the other yes-votes (``distinct_name``)."""
    d, _ = directory(session, night.place)
    root = d.of_user(user_id)
    name = d.book.people[root].name if root is not None else first_name
    taken = {n.casefold() for u, n in store.yes_votes(session, night.id) if u != user_id}
    return distinct_name(name, last_name, taken)


ROOM = 28  # a seat's name before " M." or " 12": a list's names have at most 32 characters
_NOT_IN_A_NAME = str.maketrans({c: " " for c in ',;"„“”»«'})


def seat_name(raw: str) -> str:
    """A voter's name as a list takes it (``names.clean_name``): no control characters, no
    commas or quotes (a ``/neu`` line must read it back), no leading "/", at most ``ROOM``
    characters; "Gast" where nothing of it is left or it is no name (a number, "und")."""
    name = unicodedata.normalize("NFC", raw)
    name = "".join(
        c for c in name if unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co")
    )
    name = " ".join(name.translate(_NOT_IN_A_NAME).split()).lstrip("/ ")[:ROOM].strip()
    try:
        return clean_name(name)
    except RuleError:
        return "Gast"


def distinct_name(name: str, last_name: str, taken: set[str]) -> str:
    """``name`` as a seat (``seat_name``), told apart from the casefolded names ``taken``: a
    second Anna gets the initial of her last name (``Anna M.``), else a number
    (``Anna 2``), since a list tells its players apart by name."""
    name = seat_name(name)
    if name.casefold() not in taken:
        return name
    initial = next((c for c in last_name if c.isalpha()), "")
    if initial:
        longer = f"{name} {initial}."
        if longer.casefold() not in taken:
            return longer
    n = 2
    while f"{name} {n}".casefold() in taken:
        n += 1
    return f"{name} {n}"


# --- closing ----------------------------------------------------------------------------------


def close_due(session: Session, now: dt.datetime) -> list[tuple[int, int, Reply]]:
    """Close every open night whose start has come: (Telegram chat, topic, what it says)."""
    out = []
    for night in store.due(session, now):
        lock_chat(session, night.place)
        reply = closing(session, night, night.user_id, night.user_name)
        if reply.goes_out:
            out.append((night.telegram_chat_id, night.thread_id, reply))
    return out


def closing(session: Session, night: store.GameNight, user_id: int | None, user_name: str) -> Reply:
    """Close ``night``: its poll stopped, the yes-votes seated, the tables' lists started
    (owned by ``user_id``, who closed it, or at the time its proposer). Nothing if it was
    closed already."""
    if not store.close(session, night.id):
        return Reply("")
    names = [name for _, name in store.yes_votes(session, night.id)]
    head = f"🃏 <b>Spielabend {escape(format_start(night.starts_at))}</b>: Umfrage geschlossen."
    try:
        seating = seat(names, night.seed)
    except GameNightError as err:
        return Reply(
            f"{head}\n⚠️ {escape(err.message)}\n👉 {escape(err.hint or '')}", stop_poll=_poll(night)
        )
    lines = [head, escape(seating.text), *_table_lines(seating)]
    tables = seating.plan.tables if seating.starts_lists else ()
    if not tables:
        return Reply("\n".join(lines), stop_poll=_poll(night))
    if night.is_forum:
        topics = tuple(
            _topic(night, i, table, user_id, user_name) for i, table in enumerate(tables, 1)
        )
        lines.append("Jeder Tisch bekommt sein eigenes Thema mit seiner Liste.")
        return Reply("\n".join(lines), stop_poll=_poll(night), topics=topics)
    return _lists_here(session, night, lines, tables, user_id, user_name)


def _poll(night: store.GameNight) -> int:
    return night.message_id or 0


def _table_lines(seating: GameNightSeating) -> list[str]:
    lines = []
    for i, table in enumerate(seating.plan.tables, 1):
        lines.append(f"Tisch {i}: {escape(', '.join(table))} (gibt zuerst: {escape(table[0])})")
    if seating.plan.waiting:
        lines.append(f"Wartet: {escape(', '.join(seating.plan.waiting))}")
    if seating.alternative is not None:
        five = seating.alternative.tables[0]
        lines.append(f"Oder zu fünft: {escape(', '.join(five))} (auf Papier)")
    return lines


def _opener(
    session: Session, night: store.GameNight, thread_id: int, user_id: int | None, user_name: str
) -> Command:
    """The command as if whoever closed the night had sent it where the list starts."""
    place = (
        topic_places.place_id(session, night.telegram_chat_id, thread_id)
        if thread_id
        else night.place
    )
    lock_chat(session, place)
    return Command(
        place_id=place,
        chat_title="",
        user_id=user_id,
        user_name=user_name,
        update_id=0,
        args=(),
        thread_id=thread_id,
        telegram_chat_id=night.telegram_chat_id,
        is_forum=night.is_forum,
    )


def _lists_here(
    session: Session,
    night: store.GameNight,
    lines: list[str],
    tables: tuple[tuple[str, ...], ...],
    user_id: int | None,
    user_name: str,
) -> Reply:
    """A plain group keeps one running list: the first table's starts here (unless a list
    with games runs), every other table sends its ``/neu`` line in its own chat."""
    first, *others = tables
    buttons: Buttons = ()
    opener = _opener(session, night, night.thread_id, user_id, user_name)
    try:
        lst, sheet = create_list(
            session,
            opener,
            list(first),
            first_dealer=0,
            series_length=default_series_length(len(first)),
        )
    except RuleError as err:
        lines.append(f"Tisch 1 kann hier nicht starten: {escape(err.message)} {escape(err.hint)}")
        others = list(tables)
    else:
        opened = opening_reply(lst, sheet, list(first), head="Tisch 1 spielt hier:")
        lines.append(opened.text)
        buttons = opened.buttons
    if others:
        lines.append(
            "👉 Hier läuft eine Liste zur Zeit. Jeder weitere Tisch schickt in seinem "
            "eigenen Chat oder Thema:"
        )
        start = len(tables) - len(others) + 1
        lines.extend(f"Tisch {i}: {escape(neu_line(list(t)))}" for i, t in enumerate(others, start))
    return Reply("\n".join(lines), buttons=buttons, stop_poll=_poll(night))


def _topic(
    night: store.GameNight,
    number: int,
    table: tuple[str, ...],
    user_id: int | None,
    user_name: str,
) -> NewTopic:
    local = night.starts_at
    name = f"Spielabend {format_start(local).split()[1]} · Tisch {number}"
    created = Call("gamenight.topic_created", (night.id, number, list(table), user_id, user_name))
    refused = Call("gamenight.topic_refused", (night.id, number, list(table)))
    return NewTopic(night.telegram_chat_id, name, created, refused)


@continuation("gamenight.topic_created")
def topic_created(
    session: Session,
    night_id: int,
    number: int,
    table: list[str],
    user_id: int | None,
    user_name: str,
    thread_id: int,
) -> Reply:
    """A table's topic exists: its list starts there."""
    night = store.by_id(session, night_id)
    if night is None:
        return Reply("")  # the chat's data was deleted meanwhile
    opener = _opener(session, night, thread_id, user_id, user_name)
    lst, sheet = create_list(
        session, opener, table, first_dealer=0, series_length=default_series_length(len(table))
    )
    return opening_reply(lst, sheet, table, head=f"🃏 Spielabend, Tisch {number}:")


@continuation("gamenight.topic_refused")
def topic_refused(session: Session, night_id: int, number: int, table: list[str]) -> Reply:
    """Telegram refused the table's topic: the table starts its list itself."""
    return Reply(
        f"⚠️ Ein Thema für Tisch {number} darf ich hier nicht anlegen.\n"
        "👉 Gib mir das Admin-Recht „Themen verwalten“ – oder der Tisch schickt in seinem "
        f"Chat oder Thema: {escape(neu_line(table))}"
    )
