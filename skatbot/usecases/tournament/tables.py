"""Tables report themselves: each drawn table plays on its own list, in a forum
topic the bot creates or wherever ``/tisch CODE`` is sent; closing the list asks every player
to sign; the signed results enter the tournament through the one path of ``/ergebnis``
(``results.record_results``); the desk gets a message and its pinned standings are edited.

How a table knows its tournament: ``TableLink`` (storage/tournament_models.py), one row per
table of a drawn series, with the code of ``/tisch`` and, once its list is opened, the list's
id. A list is a table list iff a link names it; the link finds series and tournament
(``storage.table_lists`` reads it and a league's table as one ``Table``).

Who may link a table: ``/tisch CODE`` is the lifecycle every table shares
(``usecases.tables.lifecycle``); this module is the Preisskat's ``SIDE`` of it. The short
code is public at the desk, so it links only for the tournament's creator or a player of
that table the bot knows; anyone else takes the draw's deep link (``t.me/<bot>?startgroup=tisch_<invite>``: 96 random bits, single use, void
after the next draw), which Telegram turns into ``/start tisch_<invite>`` in the chosen group.
The table's row is locked while it is linked, so two chats never both get it.

Who is who when signing: a tapper is the name they signed for before in this tournament, or
the name they are linked to in the table's place or at the desk (/ich, "Das bin ich"). An
unlinked tapper is refused (a tap never links anyone); the tournament's creator signs for a
player without a phone (stored without an account). In a table's place ``/ich NAME`` is only
a claim until a player of the table already linked, or the management, confirms it
(``usecases.people.persons``, ``storage.claims``): claiming a name never lets anyone sign
for another.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number, parse_count
from skatbot.rules.ranking import Ranked, Standing, lot_note
from skatbot.rules.scoring import minus_sign
from skatbot.storage import claims, table_lists, topic_places
from skatbot.storage import lists as lists_store
from skatbot.storage import tournament as trepo
from skatbot.storage.database import lock_chat
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.table_lists import Table, TableKind
from skatbot.storage.tournament_models import Series, TableLink, Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import rich, texts
from skatbot.usecases.common.continuations import continuation
from skatbot.usecases.common.place_kinds import PLAYING, Place, not_served, place_of
from skatbot.usecases.common.reply import (
    Answer,
    Buttons,
    Call,
    CloseTopic,
    Command,
    Edit,
    NewTopic,
    Post,
    Reply,
    confirm_button,
)
from skatbot.usecases.common.rights import owns
from skatbot.usecases.common.table_guards import table_context as _context
from skatbot.usecases.common.table_guards import table_label as _label
from skatbot.usecases.people import persons as people
from skatbot.usecases.sheet import standings
from skatbot.usecases.tables import lifecycle
from skatbot.usecases.tournament.results import record_results, series_ranking

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6
INVITE_BYTES = 12  # 96 bits: the deep link's code cannot be guessed
INVITE_PREFIX = "tisch_"  # /start tisch_<invite> in the group the table chose
INVITE_DATA = re.compile(r"tisch_([A-Za-z0-9_-]{16,32})")
MANAGEMENT_SIGNED = 0  # a signature the management gave for a player without a phone
# v1:tu:<link id>:r<last row id>[:<seat>]: the last row of the list the message showed, so a
# signature confirms exactly that list (an older message's button, after the list was opened,
# changed and closed again, signs nothing); v1:tu:<link id>[:<seat>] of an earlier version
# signs the list as it is.
SIGN_PREFIX = "v1:tu:"
DRAW_PREFIX = "v1:td:"  # v1:td:<tournament id>:<series drawn so far>
SIGN_LABEL = "✍️ Unterschreiben"
DRAW_LABEL = "🎲 Nächste Serie auslosen"
# The pinned standings at the desk are edited at most once per this many seconds (several
# reports in a burst become one edit); tests make it shorter.
STANDINGS_EDIT_SECONDS = 3.0
STANDINGS_PLACES = 60  # places shown in the pinned message (an edit is one message)
STANDINGS_NOTE = 400  # characters of the lot's note there, else its short form


# --- helpers ------------------------------------------------------------------------------------


def _new_code(session: Session, taken: set[str]) -> str:
    while True:
        # from token_hex (not choice): the recorded evenings fix token_hex, so codes too
        raw = int(secrets.token_hex(4), 16)
        code = ""
        for _ in range(CODE_LENGTH):
            raw, digit = divmod(raw, len(CODE_ALPHABET))
            code += CODE_ALPHABET[digit]
        if code not in taken and not trepo.code_taken(session, code):
            taken.add(code)
            return code


def _games(t: Tournament, size: int) -> int:
    return t.games_3 if size == 3 else t.games_4


def _table_names(series: Series, link: TableLink) -> list[str]:
    return list(trepo.LoadedSeries(series, _tables(series)).tables[link.table_no - 1])


def _tables(series: Series) -> list[list[str]]:
    import json

    tables: list[list[str]] = json.loads(series.tables)
    return tables


def _desk_post(session: Session, t: Tournament, reply: Reply, *, pin: bool = False) -> Post:
    chat, thread = topic_places.telegram_of(session, t.chat_id)
    return Post(chat, thread, reply, pin=pin)


# --- after /auslosen: a list per table ----------------------------------------------------------


def after_draw(
    session: Session, cmd: Command, t: Tournament, series: Series, tables: Sequence[Sequence[str]]
) -> tuple[list[str], tuple[NewTopic, ...], tuple[Post, ...], Buttons]:
    """The table links of a new series. In a forum the bot creates a topic per table (the
    draw's lines say so); elsewhere the lines give each table its ``/tisch`` code. Also the
    pinned standings at the desk, sent with the first draw."""
    taken: set[str] = set()
    links = trepo.add_table_links(session, t, series, [_new_code(session, taken) for _ in tables])
    trepo.void_invites(session, t, series.id)
    for link in links:
        link.invite = new_invite()
    posts: tuple[Post, ...] = ()
    if standings.pinned_id(session, t.chat_id) is None:
        remember = Call("standings.store", (t.chat_id,))
        posts = (
            _desk_post(session, t, Reply(standings_text(session, t), on_sent=remember), pin=True),
        )
    if cmd.is_forum and cmd.telegram_chat_id:
        topics = tuple(_topic(cmd, t, series, link) for link in links)
        lines = [
            "📋 Jeder Tisch bekommt hier ein eigenes Thema mit seiner Liste – dort eintragen, "
            "am Ende /abschluss und alle unterschreiben; das Ergebnis kommt von selbst hierher."
        ]
        return lines, topics, posts, ()
    buttons = invite_buttons(cmd.bot_username, links)
    how = (
        "den Knopf des Tisches unten tippen und seine Gruppe wählen – oder die "
        "Turnierleitung schickt dort /tisch CODE."
        if buttons
        else "die Turnierleitung schickt dort /tisch CODE."
    )
    lines = [f"📋 Jeder Tisch spielt in einem eigenen Chat oder Thema: {how}"]
    lines.extend(f"🔗 Tisch {link.table_no} → /tisch {link.code}" for link in links)
    return lines, (), posts, buttons


def new_invite() -> str:
    """A deep link's long code: 96 random bits, URL-safe (a ``startgroup`` payload)."""
    return secrets.token_urlsafe(INVITE_BYTES)


def invite_buttons(bot_username: str, links: Sequence[TableLink]) -> Buttons:
    """One link button per table: Telegram asks which group to add the bot to and sends
    ``/start <code>`` there, so nobody types (or can guess) the long code."""
    if not bot_username:
        return ()
    row = [
        (
            f"➕ Tisch {link.table_no}: Gruppe wählen",
            f"https://t.me/{bot_username}?startgroup={INVITE_PREFIX}{link.invite}",
        )
        for link in links
        if link.invite and link.list_id is None
    ]
    return tuple(tuple(row[i : i + 2]) for i in range(0, len(row), 2))


def _topic(cmd: Command, t: Tournament, series: Series, link: TableLink) -> NewTopic:
    telegram_chat = cmd.telegram_chat_id
    name = f"{t.name[:90]} · S{series.number} Tisch {link.table_no}"
    created = Call(
        "tournament.topic_created",
        (link.id, cmd.user_id, cmd.user_name, telegram_chat, name),
    )
    refused = Call("tournament.topic_refused", (link.id, cmd.bot_username))
    return NewTopic(telegram_chat, name, created, refused)


def topic_opener(
    session: Session,
    telegram_chat: int,
    thread_id: int,
    name: str,
    user_id: int | None,
    user_name: str,
) -> Command:
    """The command of whoever had a table's topic created, as if sent in that topic (its
    place, locked): the list it opens there belongs to them."""
    place = topic_places.place_id(session, telegram_chat, thread_id)
    lock_chat(session, place)
    return Command(
        place_id=place,
        chat_title=name,
        user_id=user_id,
        user_name=user_name,
        update_id=0,
        args=(),
        thread_id=thread_id,
        telegram_chat_id=telegram_chat,
    )


@continuation("tournament.topic_created")
def topic_created(
    session: Session,
    link_id: int,
    user_id: int | None,
    user_name: str,
    telegram_chat: int,
    name: str,
    thread_id: int,
) -> Reply:
    """The table's topic ``thread_id`` exists: open its list there."""
    opener = topic_opener(session, telegram_chat, thread_id, name, user_id, user_name)
    found = table_lists.by_id(session, TableKind.TOURNAMENT, link_id)
    if found is None or found.list_id is not None:
        return Reply("")  # deleted, or linked with /tisch meanwhile
    _link_of(found).bot_topic = True  # a draw taken back deletes this topic again
    return lifecycle.open_list(session, opener, found, SIDE.seating(session, found))


@continuation("tournament.topic_refused")
def topic_refused(session: Session, link_id: int, bot_username: str = "") -> Reply:
    """Telegram refused the table's topic: the desk gets the /tisch codes instead."""
    found = trepo.table_by_id(session, link_id)
    if found is None or found.list_id is not None:
        return Reply("")
    links = trepo.table_links(session, trepo.series_by_id(session, found.series_id))  # type: ignore[arg-type]
    if any(other.table_no < found.table_no and other.list_id is None for other in links):
        return Reply("")  # the first refused table said it for all
    lines = [
        "⚠️ Themen für die Tische darf ich hier nicht anlegen.",
        "👉 Gib mir das Admin-Recht „Themen verwalten“ – oder jeder Tisch schickt in "
        "seinem Chat oder Thema /tisch CODE:",
    ]
    lines.extend(
        f"🔗 Tisch {other.table_no} → /tisch {other.code}"
        for other in links
        if other.list_id is None
    )
    return Reply("\n".join(lines), buttons=invite_buttons(bot_username, links))


# --- the tournament's side of a table's list (usecases.tables.lifecycle) --------------------------


def _link_of(table: Table) -> TableLink:
    assert isinstance(table.row, TableLink)  # a tournament's table
    return table.row


class _TournamentSide:
    """A drawn table: played while its tournament runs; linked by the management or a player
    of the table the bot knows; the desk is told where it plays."""

    def check_free(self, session: Session, place: Place, table: Table) -> None:
        link = _link_of(table)
        t, series = _context(session, link)
        label = _label(series, link)
        if t.closed_at is not None:
            raise RuleError(
                f"Das Turnier „{t.name}“ ist beendet – {label} wird nicht mehr gespielt.",
                hint="Den Code des laufenden Turniers nennt seine Auslosung.",
            )
        if link.list_id is not None:
            lst = lists_store.get_list(session, link.list_id)
            here = lst is not None and lst.chat_id == place.id
            raise RuleError(
                f"{label} hat schon {'hier ' if here else ''}seine Liste.",
                hint="Einfach mit /spiel eintragen."
                if here
                else "Dort weiter eintragen – ist das der falsche Chat, gibt die Turnierleitung "
                f"den Tisch frei: /tisch freigeben {link.table_no} bei der Turnierleitung.",
            )

    def check_linker(self, session: Session, place: Place, table: Table) -> None:
        link = _link_of(table)
        t, series = _context(session, link)
        if _may_link(session, place, t, series, link):
            return
        raise RuleError(
            f"{_label(series, link)} verknüpfen nur die Turnierleitung und die Spieler dieses "
            "Tisches – den Tischcode allein kann jeder abschreiben.",
            hint=f"Bei der Turnierleitung auf „➕ Tisch {link.table_no}: Gruppe wählen“ unter der "
            "Auslosung tippen und diese Gruppe wählen – oder die Turnierleitung schickt hier "
            f"/tisch {link.code}.",
        )

    def seating(self, session: Session, table: Table) -> lifecycle.Seating:
        link = _link_of(table)
        t, series = _context(session, link)
        names = _table_names(series, link)
        return lifecycle.Seating(
            names,
            _games(t, len(names)),
            f"🏆 <b>{escape(t.name)} – {_label(series, link)}</b>",
            "\nAm Ende: /abschluss, dann unterschreibt jede Person am Tisch mit einem Knopf.",
        )

    def linked(self, session: Session, place: Place, table: Table, reply: Reply) -> Reply:
        link = _link_of(table)
        t, series = _context(session, link)
        link.invite = None  # single use
        who = escape(place.asker.name) if place.asker.name else "jemandem"
        note = Reply(
            f"🔗 {_label(series, link)} spielt jetzt in {lifecycle.linked_where(place)} "
            f"(verknüpft von {who}). Falscher Chat? /tisch freigeben {link.table_no}"
        )
        return dataclasses.replace(reply, posts=(_desk_post(session, t, note),))


SIDE: Final = _TournamentSide()


def _may_link(
    session: Session, place: Place, t: Tournament, series: Series, link: TableLink
) -> bool:
    """The management (the tournament's creator), or a player of this table whose account
    the bot knows (linked here, at the desk, or signed for that name before)."""
    user_id = place.asker.user_id
    if owns(user_id, t.created_by):
        return True
    if user_id is None or not owns(user_id, user_id):
        return False
    names = _table_names(series, link)
    return any(
        _identity(session, t, where, user_id, names) in names for where in (place.id, t.chat_id)
    )


# --- /start <invite>: the draw's deep link ------------------------------------------------------


def join(session: Session, cmd: Command, invite: str) -> Reply:
    """``/start tisch_<invite>`` in a group (the draw's deep link): the long single-use code
    links the table here, whoever tapped it (the lifecycle of ``/tisch CODE`` without its
    right: the code cannot be guessed)."""
    link = trepo.table_by_invite(session, invite)
    table = table_lists.by_id(session, TableKind.TOURNAMENT, link.id) if link else None
    if table is None:
        raise RuleError(
            "Dieser Tisch-Link gilt nicht mehr (schon benutzt, freigegeben oder neu ausgelost).",
            hint="Den Knopf unter der neuesten Auslosung bei der Turnierleitung nehmen – "
            "oder die Turnierleitung schickt hier /tisch CODE.",
        )
    place = place_of(session, cmd)
    if place.kind not in PLAYING:
        raise not_served("tisch", place, PLAYING)
    SIDE.check_free(session, place, table)
    return lifecycle.link_here(session, place, table, SIDE)


# --- /tisch freigeben N at the desk -------------------------------------------------------------


@dataclass(frozen=True)
class ReleaseTable:
    number: int | None  # the table of the latest series (None: not said)


def parse_release(cmd: Command) -> ReleaseTable:
    """``/tisch freigeben N`` at the desk; a table's code belongs in the table's chat."""
    if not cmd.args or cmd.args[0].casefold() != "freigeben":
        raise RuleError(
            f"{'Dieses Thema' if cmd.thread_id else 'Dieser Chat'} ist die Turnierleitung – "
            "hier spielt kein Tisch.",
            hint="/tisch CODE im Chat oder Thema des Tisches schicken; hier: /tisch freigeben N "
            "(N: die Tischnummer der Auslosung).",
        )
    words = cmd.args[1:]
    return ReleaseTable(parse_count(words[0], "Tischnummer") if len(words) == 1 else None)


def release(session: Session, place: Place, request: ReleaseTable) -> Reply:
    """``/tisch freigeben N`` (the management): table N of the latest series is no longer
    linked to its list; the list stays where it is as an ordinary list, and the table gets a
    fresh deep link."""
    t = place.tournament
    assert t is not None  # the route serves desks only
    done = trepo.load_series(session, t)
    links = trepo.table_links(session, done[-1].row) if done else []
    link = next((x for x in links if x.table_no == request.number), None)
    if link is None:
        raise RuleError(
            "Welcher Tisch?",
            hint=f"/tisch freigeben N – N von 1 bis {len(links)}."
            if links
            else "Erst auslosen: /auslosen",
        )
    label = _label(done[-1].row, link)
    if link.reported:
        raise RuleError(
            f"{label} hat sein Ergebnis schon gemeldet.",
            hint="Erst am Tisch /oeffnen (das zieht das Ergebnis zurück), dann freigeben.",
        )
    if link.list_id is None:
        raise RuleError(
            f"{label} ist mit keiner Liste verknüpft.", hint=f"Verknüpfen: /tisch {link.code}"
        )
    lst = lists_store.get_list(session, link.list_id)
    link.list_id = None
    trepo.set_signed(link, {})
    link.invite = new_invite()
    posts: tuple[Post, ...] = ()
    if lst is not None:
        chat, thread = topic_places.telegram_of(session, lst.chat_id)
        note = (
            f"ℹ️ Diese Liste gehört nicht mehr zu {label} – die Turnierleitung hat ihn freigegeben."
        )
        posts = (Post(chat, thread, Reply(note)),)
    return Reply(
        f"🔓 {label} ist frei. Verknüpfen: mit dem Knopf unten oder /tisch {link.code} "
        "(Turnierleitung oder ein Spieler des Tisches).",
        buttons=invite_buttons(place.bot_username, [link]),
        posts=posts,
    )


def close_tables(session: Session, t: Tournament) -> tuple[int, tuple[Post, ...]]:
    """The tournament ended: its open table lists are closed (they take no more games), and
    each table is told. Returns how many were open and the messages to them."""
    links = trepo.linked_tables(session, t)
    posts = []
    for link in links:
        lst = lists_store.get_list(session, link.list_id) if link.list_id is not None else None
        if lst is None or lst.status is ListStatus.CLOSED:
            continue
        lists_store.close_list(session, lst)
        series = trepo.series_by_id(session, link.series_id)
        assert series is not None
        chat, thread = topic_places.telegram_of(session, lst.chat_id)
        note = (
            f"🏁 Das Turnier „{escape(t.name)}“ ist beendet – die Liste von "
            f"{_label(series, link)} ist geschlossen und nimmt keine Spiele mehr an "
            "(lesbar: /liste, /pdf)."
        )
        posts.append(Post(chat, thread, Reply(note)))
    return len(posts), tuple(posts)


# --- /abschluss: signatures ---------------------------------------------------------------------


def after_close(session: Session, cmd: Command, loaded: lists_store.LoadedList) -> tuple[Post, ...]:
    """A table list was closed: the sign message in the table's place (nothing for other
    lists)."""
    link = trepo.table_by_list(session, loaded.lst.id)
    if link is None:
        return ()
    trepo.set_signed(link, {})
    text, buttons = _sign_message(session, link, loaded, {})
    return (
        Post(cmd.telegram_chat_id or cmd.place_id, cmd.thread_id, Reply(text, buttons=buttons)),
    )


def signing_again(session: Session, link: TableLink) -> Reply:
    """``/unterschreiben`` (and ``/abschluss`` at the closed list): the signing message once
    more, for when the first one is lost or scrolled far away, with who has signed and who
    is missing. Its buttons are the first message's (the same list, the same last row), so
    both sign; a tap edits the message it was made on."""
    t, series = _context(session, link)
    label = _label(series, link)
    lst = lists_store.get_list(session, link.list_id) if link.list_id is not None else None
    if lst is None or t.closed_at is not None:
        raise RuleError(
            f"Für {label} wird hier nichts mehr unterschrieben – das Turnier ist beendet "
            "oder der Tisch freigegeben.",
            hint="Die Liste bleibt lesbar: /liste, /pdf.",
        )
    loaded = lists_store.load(session, lst)
    if lst.status is not ListStatus.CLOSED:
        raise RuleError(
            f"Die Liste von {label} läuft noch ({texts.games(loaded.sheet.games_played)} von "
            f"{loaded.sheet.series_length}) – unterschrieben wird die abgeschlossene Liste.",
            hint="Zu Ende spielen, dann /abschluss – danach kommt die Nachricht zum "
            "Unterschreiben.",
        )
    if link.reported:
        return Reply(
            f"✅ {label}: alle haben unterschrieben, das Ergebnis ist bei der Turnierleitung.\n"
            "Die nächste Serie: /tisch CODE aus der nächsten Auslosung (oder ihr Knopf)."
        )
    signed = trepo.signed_of(link)
    text, buttons = _sign_message(session, link, loaded, signed)
    done = [escape(n) for n in loaded.names if n in signed]
    missing = [escape(n) for n in loaded.names if n not in signed]
    who = f"Unterschrieben: {', '.join(done)}" if done else "Noch hat niemand unterschrieben"
    return Reply(f"{text}\n{who} · es fehlen: {', '.join(missing)}.", buttons=buttons)


def _results(loaded: lists_store.LoadedList) -> list[tr.SeriesResult]:
    if loaded.sheet.house is not None:
        raise RuleError(
            "Tische eines Turniers spielen nach ISkO, diese Liste nach Hausregeln.",
            hint="Das Ergebnis bitte bei der Turnierleitung mit /ergebnis eintragen.",
        )
    return [tr.SeriesResult(x.name, x.game_points, x.won, x.lost) for x in loaded.sheet.totals()]


def _sign_message(
    session: Session, link: TableLink, loaded: lists_store.LoadedList, signed: dict[str, int]
) -> tuple[str, Buttons]:
    t, series = _context(session, link)
    names = list(loaded.names)
    lines = [f"✍️ <b>Unterschreiben – {_label(series, link)}</b> ({escape(t.name)})"]
    scores = {x.name: x for x in loaded.sheet.totals()} if loaded.sheet.house is None else {}
    for name in names:
        x = scores.get(name)
        mark = "✅" if name in signed else "⬜"
        figures = (
            f": {minus_sign(x.score)} Punkte · {x.won} gewonnen, {x.lost} verloren" if x else ""
        )
        lines.append(f"{mark} {escape(name)}{figures}")
    lines.append(
        f"{texts.games(loaded.sheet.games_played)} gespielt. Jede Person am Tisch bestätigt "
        "mit „Unterschreiben“ (noch nicht verknüpft: erst hier /ich NAME, ein Mitspieler "
        "bestätigt; für jemanden ohne Telefon tippt die Turnierleitung auf den Namen). "
        "Wenn alle unterschrieben haben, geht das Ergebnis an die Turnierleitung."
    )
    shown = f"{SIGN_PREFIX}{link.id}:r{lists_store.last_row_id(session, loaded.lst)}"
    rows: list[tuple[tuple[str, str], ...]] = [(confirm_button(SIGN_LABEL, shown),)]
    open_names = [
        (f"✍️ {name[:20]}", f"{shown}:{seat}")
        for seat, name in enumerate(names)
        if name not in signed
    ]
    if open_names:
        rows.append(tuple(open_names))
    return "\n".join(lines), tuple(rows)


def _identity(
    session: Session, t: Tournament, place: int, user_id: int, names: Sequence[str]
) -> str | None:
    """The participant ``user_id`` is: signed for before in this tournament, or linked in the
    table's place to one of ``names``."""
    before = trepo.signatures(session, t).get(user_id)
    if before is not None:
        return before
    d = people.directory(session, place)[0]
    root = d.of_user(user_id)
    if root is None:
        return None
    name = next((n for n in names if d.stored(n) == root), d.book.people[root].name)
    if place != t.chat_id and not claims.consented(session, place, user_id, name):
        # linked outside the desk without the table's consent (e.g. in the chat before it
        # became a table, when /ich was free): that names nobody here
        return None
    return name


@dataclass(frozen=True)
class StaleButton:
    """Callback data no sign button of this version writes."""


@dataclass(frozen=True)
class SignTap:
    """A tap on a sign button: the table, the list's last row the message showed (None: an
    older button, which signs the list as it is), the seat of a name's button (None: "sign")."""

    link_id: int
    shown: int | None
    seat: int | None


def parse_sign(cmd: Command) -> SignTap | StaleButton:
    """``v1:tu:<link>[:r<last row>][:<seat>]``."""
    parts = cmd.args[0].removeprefix(SIGN_PREFIX).split(":") if cmd.args else [""]
    shown = None
    if len(parts) > 1 and parts[1].startswith("r") and is_number(parts[1][1:]):
        shown = int(parts[1][1:])
        del parts[1]
    if not all(is_number(p) for p in parts) or len(parts) > 2:
        return StaleButton()
    seat = int(parts[1]) if len(parts) == 2 else None
    return SignTap(int(parts[0]), shown, seat)


def sign(session: Session, place: Place, request: SignTap | StaleButton) -> Answer:
    """A tap on a sign button: the player linked to a name signs for it, the management for
    a player without a phone; everything else is refused with the reason."""
    if isinstance(request, StaleButton):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    link = trepo.table_by_id(session, request.link_id)
    lst = lists_store.get_list(session, link.list_id) if link and link.list_id else None
    if link is None or lst is None or lst.chat_id != place.id:
        return Answer(notice="Dieser Knopf gilt nicht mehr.", buttons=())
    refused = _not_signable(session, place, link, lst)
    if refused is not None:
        return refused
    loaded = lists_store.load(session, lst)
    if request.shown is not None and request.shown != lists_store.last_row_id(session, lst):
        raise RuleError(
            "Diese Nachricht zeigt die Liste, wie sie vorher war – inzwischen wurde sie "
            "geändert. Unterschrieben wird nur, was zu sehen war.",
            hint="Bitte in der neuesten Nachricht „✍️ Unterschreiben“ tippen. Nichts wurde "
            "unterschrieben.",
        )
    names = list(loaded.names)
    if request.seat is not None and not 0 <= request.seat < len(names):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    return _sign_as(session, place, _Signing(link, loaded, trepo.signed_of(link)), request.seat)


@dataclass(frozen=True)
class _Signing:
    """A closed table list being signed: its table, the list and who signed so far."""

    link: TableLink
    loaded: lists_store.LoadedList
    signed: dict[str, int]


def _sign_as(session: Session, place: Place, signing: _Signing, seat: int | None) -> Answer:
    """The tapper signs for their own name, or the management for the name's seat."""
    t, series = _context(session, signing.link)
    names = list(signing.loaded.names)
    user_id = place.asker.user_id
    assert user_id is not None  # _not_signable refuses anonymous taps
    me = _identity(session, t, place.id, user_id, names)
    if me is None:
        me = _identity(session, t, t.chat_id, user_id, names)  # linked at the desk
    if seat is not None and owns(user_id, t.created_by) and names[seat] != me:
        return _sign_for(session, place, signing, names[seat])
    name = _signer(user_id, series, signing.link, names, signing.signed, me, seat)
    return _signed(session, place, signing, name, user_id)


def _not_signable(
    session: Session, place: Place, link: TableLink, lst: lists_store.ListInfo
) -> Answer | None:
    """Why this table's list takes no signature now (a notice, or a refusal raised), or None."""
    if link.reported:
        return Answer(notice="Dieser Tisch ist schon gemeldet.", buttons=())
    if _context(session, link)[0].closed_at is not None:
        return Answer(
            notice="Das Turnier ist beendet – hier wird nichts mehr gemeldet.", buttons=()
        )
    if lst.status is not ListStatus.CLOSED:
        raise RuleError(
            "Die Liste ist wieder offen – unterschrieben wird die abgeschlossene Liste.",
            hint="Erst zu Ende spielen und /abschluss, dann unterschreiben.",
        )
    if place.asker.user_id is None:
        raise RuleError("Anonym kann niemand unterschreiben.", hint="Bitte als du selbst tippen.")
    return None


def _signer(
    user_id: int,
    series: Series,
    link: TableLink,
    names: list[str],
    signed: dict[str, int],
    me: str | None,
    seat: int | None,
) -> str:
    """The name ``user_id`` signs for: their own at this table, once; else the refusal."""
    for name, user in signed.items():
        if user == user_id:
            raise RuleError(
                f"Du hast schon als {name} unterschrieben.",
                hint="Jetzt unterschreiben die anderen am Tisch.",
            )
    if me is None:
        raise RuleError(
            "Unterschreiben kann nur, wer hier mit seinem Namen verknüpft ist.",
            hint=f"Erst /ich DEINNAME schicken (z. B. /ich {names[0][:20]}) – ein Mitspieler "
            "bestätigt es. Ohne Telefon: die Turnierleitung tippt auf den Namen.",
        )
    if me not in names:
        raise RuleError(
            f"Du bist {me} und sitzt nicht an {_label(series, link)} ({', '.join(names)}).",
            hint="Unterschreiben können nur die Spieler dieses Tisches.",
        )
    if seat is not None and names[seat] != me:
        raise RuleError(
            f"Du bist {me} – für {names[seat]} unterschreibt {names[seat]} selbst.",
            hint=f"Tippe auf „Unterschreiben“ oder „{me}“.",
        )
    return me


def _sign_for(session: Session, place: Place, signing: _Signing, name: str) -> Answer:
    """The management signs for a player at the table who has no phone (stored as 0: no
    account signed, so it never becomes anyone's identity)."""
    if name in signing.signed:
        raise RuleError(f"{name} hat schon unterschrieben.", hint="Danke, das reicht einmal.")
    d = people.directory(session, place.id)[0]
    root = d.stored(name)
    holder = d.account(root) if root is not None else None
    if holder is not None and holder.user_id != place.asker.user_id:
        raise RuleError(
            f"{name} ist mit {holder.user_name or 'einem Konto'} verknüpft und unterschreibt selbst.",
            hint="Nur für jemanden ohne Telefon unterschreibt die Turnierleitung.",
        )
    return _signed(session, place, signing, name, MANAGEMENT_SIGNED)


def _signed(session: Session, place: Place, signing: _Signing, name: str, by: int) -> Answer:
    signed = signing.signed
    if name in signed:
        raise RuleError(f"{name} hat schon unterschrieben.", hint="Danke, das reicht einmal.")
    signed[name] = by
    trepo.set_signed(signing.link, signed)
    note = " (von der Turnierleitung)" if by == MANAGEMENT_SIGNED else ""
    if len(signed) < len(signing.loaded.names):
        text, buttons = _sign_message(session, signing.link, signing.loaded, signed)
        return Answer(notice=f"Danke, {name} – unterschrieben{note}.", text=text, buttons=buttons)
    return _report(session, place, signing)


def _report(session: Session, place: Place, signing: _Signing) -> Answer:
    """Everyone signed: the results enter the tournament as if typed with /ergebnis."""
    link, loaded, signed = signing.link, signing.loaded, signing.signed
    t, series = _context(session, link)
    trepo.lock_series(session, series.id)  # the last two tables may report at once
    done = trepo.load_series(session, t)
    target = next(s for s in done if s.row.id == series.id)
    lines = record_results(
        session,
        t,
        target,
        _results(loaded),
        user_id=place.asker.user_id,
        update_id=place.asker.update_id,
    )
    link.reported = True
    label = _label(series, link)
    desk = [f"📥 <b>{label}</b> gemeldet – unterschrieben von {', '.join(map(escape, signed))}."]
    desk.extend(lines[1:])
    buttons: Buttons = ()
    if not tr.missing_results(target.tables, target.results):
        desk.append(_series_winner(t, target))
        if target.number == len(done):
            buttons = (((DRAW_LABEL, f"{DRAW_PREFIX}{t.id}:{len(done)}"),),)
    posts = [_desk_post(session, t, Reply("\n".join(desk), buttons=buttons))]
    edit = standings_edit(session, t)
    if edit is not None:
        posts.append(_desk_post(session, t, Reply("", edits=(edit,))))
    text, _ = _sign_message(session, link, loaded, signed)
    text += "\n✅ Gemeldet an die Turnierleitung. Korrektur: /oeffnen (das Ergebnis wird zurückgezogen)."
    return Answer(
        notice="Alle haben unterschrieben – gemeldet.", text=text, buttons=(), posts=tuple(posts)
    )


def _series_winner(t: Tournament, target: trepo.LoadedSeries) -> str:
    best = series_ranking(t, target)[0].standing  # the ranking of /rangliste serie N
    return (
        f"🏅 Serie {target.number} komplett – Seriensieg: {escape(best.name)} mit "
        f"{minus_sign(best.score)} Punkten."
    )


# --- /oeffnen: the report withdrawn -------------------------------------------------------------


def after_reopen(session: Session, cmd: Command, lst: lists_store.ListInfo) -> tuple[Post, ...]:
    """A table list was opened again: signatures void; a reported result is withdrawn (the
    desk sees it in a log line)."""
    link = trepo.table_by_list(session, lst.id)
    if link is None:
        return ()
    trepo.set_signed(link, {})
    if not link.reported:
        return ()
    t, series = _context(session, link)
    trepo.lock_series(session, series.id)
    names = _table_names(series, link)
    trepo.withdraw_results(session, series, names, user_id=cmd.user_id, update_id=cmd.update_id)
    link.reported = False
    who = escape(cmd.user_name) if cmd.user_name else "jemandem"
    line = (
        f"↩️ {_label(series, link)}: Liste wieder geöffnet von {who} – das gemeldete Ergebnis "
        f"({', '.join(map(escape, names))}) ist zurückgezogen, der Tisch meldet neu."
    )
    posts = [_desk_post(session, t, Reply(line))]
    edit = standings_edit(session, t)
    if edit is not None:
        posts.append(_desk_post(session, t, Reply("", edits=(edit,))))
    return tuple(posts)


# --- /auslosen zurück: a draw taken back -------------------------------------------------------


def booked_reason(session: Session, series: Series) -> str | None:
    """Why the draw of ``series`` can no longer be taken back (None: it can): a table has
    played."""
    for link in trepo.table_links(session, series):
        lst = lists_store.get_list(session, link.list_id) if link.list_id is not None else None
        if lst is not None and lists_store.load(session, lst).rows:
            return f"an Tisch {link.table_no} ist schon gespielt worden"
    return None


def take_back(
    session: Session, t: Tournament, series: Series
) -> tuple[tuple[CloseTopic, ...], tuple[Post, ...]]:
    """Remove the series' tables: their (empty) lists, links and codes; the bot's topics go
    (deleted, or closed), a table elsewhere is told; the pinned standings follow."""
    gone: list[CloseTopic] = []
    posts: list[Post] = []
    for link in trepo.table_links(session, series):
        lst = lists_store.get_list(session, link.list_id) if link.list_id is not None else None
        if lst is None:
            continue
        chat, thread = topic_places.telegram_of(session, lst.chat_id)
        if link.bot_topic and thread:
            gone.append(CloseTopic(chat, thread))
            continue
        note = (
            f"↩️ {_label(series, link)} gilt nicht mehr: die Turnierleitung hat die Auslosung "
            "zurückgenommen, die Liste hier ist gelöscht. Der neue Tischcode kommt mit der "
            "nächsten Auslosung."
        )
        posts.append(Post(chat, thread, Reply(note)))
    trepo.take_back_series(session, series)
    edit = standings_edit(session, t)
    if edit is not None:
        posts.append(_desk_post(session, t, Reply("", edits=(edit,))))
    return tuple(gone), tuple(posts)


# --- /fehlend: the tables still playing ---------------------------------------------------------


def progress_lines(session: Session, t: Tournament, series: Series, results: object) -> list[str]:
    """One line per unreported table of ``series``: where it stands."""
    lines = []
    for link in trepo.table_links(session, series):
        if link.reported:
            continue
        names = _table_names(series, link)
        if link.list_id is None:
            state = f"noch ohne Liste (/tisch {link.code})"
        else:
            lst = lists_store.get_list(session, link.list_id)
            if lst is None:
                state = "Liste gelöscht"
            else:
                sheet = lists_store.load(session, lst).sheet
                played = f"{sheet.games_played}/{sheet.series_length} Spiele"
                if lst.status is ListStatus.CLOSED:
                    signed = len(trepo.signed_of(link))
                    state = f"abgeschlossen, {played}, {signed}/{len(names)} unterschrieben"
                else:
                    state = f"spielt, {played}"
        lines.append(f"Tisch {link.table_no} ({', '.join(map(escape, names))}): {state}")
    return lines


# --- the pinned standings at the desk -----------------------------------------------------------


def live_ranking(session: Session, t: Tournament) -> tuple[list[Ranked], list[str]]:
    """The ranking over every table that has all its results (series may be incomplete),
    and per series how many tables count."""
    games = {3: t.games_3, 4: t.games_4}
    per_series: list[dict[str, Standing]] = []
    notes = []
    for s in trepo.load_series(session, t):
        whole = [tb for tb in s.tables if all(n in s.results for n in tb)]
        notes.append(f"Serie {s.number}: {len(whole)}/{len(s.tables)} Tische")
        if whole:
            results = {n: s.results[n] for tb in whole for n in tb}
            per_series.append(tr.series_scores(whole, results, games, series=s.number))
    return tr.tournament_standings(per_series, t.seed), notes


def standings_text(session: Session, t: Tournament) -> str:
    ranked, notes = live_ranking(session, t)
    lines = [f"📌 <b>Zwischenstand – {escape(t.name)}</b>"]
    if notes:
        lines.append(" · ".join(notes))
    if not ranked:
        lines.append("Noch kein Tisch gemeldet – der Stand wächst mit jeder Meldung.")
    head = len(lines)
    for r in ranked[:STANDINGS_PLACES]:
        s = r.standing
        lines.append(f"{r.place}. {escape(s.name)} – {minus_sign(s.score)} ({s.won}/{s.lost})")
    note = lot_note(ranked[:STANDINGS_PLACES], t.seed)
    if len(note) > STANDINGS_NOTE:  # one edited message: the short form
        note = f"Gleichstände durch Los (Startwert {t.seed}) entschieden – mehr: /rangliste"
    if note:
        lines.append(f"🎲 {escape(note)}")
    if len(ranked) > STANDINGS_PLACES:
        lines.append(f"… alle {len(ranked)} Plätze: /rangliste")
    if not ranked:
        return "\n".join(lines)
    doc = rich.ranking_doc(
        lines[0],
        ranked[:STANDINGS_PLACES],
        lines[head + min(len(ranked), STANDINGS_PLACES) :],
        notes=lines[1:head],
    )
    return rich.maybe("\n".join(lines), doc, rich.settings_of(session, t.chat_id, None))


def standings_edit(session: Session, t: Tournament) -> Edit | None:
    """The coalesced edit of the desk's pinned standings (text computed when it is sent)."""
    desk = t.chat_id
    mid = standings.pinned_id(session, desk)
    if mid is None:
        return None
    return Edit(
        mid,
        None,
        render=Call("tournament.render_standings", (t.id,)),
        every=STANDINGS_EDIT_SECONDS,
        on_gone=Call("standings.forget", (desk, mid)),
    )


@continuation("tournament.render_standings")
def render_standings(session: Session, tournament_id: int) -> str | None:
    """The desk's standings text as committed now (None: the tournament is gone)."""
    found = trepo.tournament_by_id(session, tournament_id)
    return standings_text(session, found) if found is not None else None


# --- "Nächste Serie auslosen" -------------------------------------------------------------------
