"""Who is who: a name on a list -> the person behind it (``resolve_people``), and the use
cases that say so (/ich, "Das bin ich", /spieler, /spieler zusammen|trennen, the rename hook).

``resolve_people(session, place_id)`` is **sync**, like every use case here: a use case is a
plain ``fn(session, command)`` run inside one sync SQLAlchemy transaction (runtime.py), so a
resolver is built with the unit's session and then used without I/O.

How a spelling finds its person (``Directory.__call__``), in this order:

1. the spelling, case-folded, is stored for a person (/ich, /spieler, a rename of a linked
   name): that person;
2. written without diacritics it matches the stored spellings of exactly one person
   ("Juergen" -> the person stored as "Jürgen"), as /spiel matches names (usecases.common.names);
3. otherwise it is an *unlinked* name: names of the place that match each other that way
   (case-insensitive, "Jürgen" = "juergen" = "Jurgen") are one person, named as written on the
   latest list.

A stored person's key is ``p:<id>`` of the person its row was merged into (the root); an
unlinked person's key is ``n:<spelling>``, the smallest diacritic-free spelling of its names
(stable while no new spelling of the same name appears).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.storage import claims, table_lists
from skatbot.storage import lists as lists_store
from skatbot.storage import people as people_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards, place_kinds
from skatbot.usecases.common.names import clean_name, folded, full_stop, match_words, spellings
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Answer, Buttons, Command, Document, Reply, confirm_button
from skatbot.usecases.common.rights import owns

__all__ = ["Directory", "Person", "after_rename", "resolve_people"]

ME_PREFIX = "v1:me:"
ME_LABEL = "🙋 Das bin ich"


@dataclass(frozen=True)
class Person:
    key: str  # stable id: "p:<id>" (stored person) or "n:<spelling>" (matched by spelling)
    name: str  # display name


class Directory:
    """The people of one place: a pure value built from what is stored and the names seen on
    the place's lists. Calling it maps a spelling to its ``Person``."""

    def __init__(self, book: people_store.Book, seen: Sequence[people_store.SeenName]) -> None:
        self.book = book
        self.exact: dict[str, int] = {}
        for n in book.names:
            self.exact.setdefault(n.key, n.person_id)  # the oldest row wins a clash
        self._variants: dict[str, set[int]] = {}
        for key, pid in self.exact.items():
            root = self.root(pid)
            for v in spellings(key):
                self._variants.setdefault(v, set()).add(root)
        # Unlinked names: union-find over their diacritic-free spellings.
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.setdefault(x, x) != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        latest: dict[str, tuple[int, int, str]] = {}  # folded name -> (order, index, name)
        self.counts: dict[str, int] = {}  # person key -> lists seen on
        for index, s in enumerate(seen):
            if self.stored(s.name) is not None:
                continue
            variants = sorted(spellings(s.name))
            for v in variants[1:]:
                a, b = find(variants[0]), find(v)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            k = folded(s.name)
            if k not in latest or (s.order, index) >= latest[k][:2]:
                latest[k] = (s.order, index, s.name)
        self._find = find
        self._names: dict[str, tuple[int, int, str]] = {}  # component root -> latest name
        for k, seen_at in latest.items():
            comp = find(min(spellings(k)))
            if comp not in self._names or seen_at[:2] >= self._names[comp][:2]:
                self._names[comp] = seen_at
        lists_seen: dict[str, set[int]] = {}
        for s in seen:
            lists_seen.setdefault(self(s.name).key, set()).add(s.order)
        self.counts = {k: len(v) for k, v in lists_seen.items()}

    def root(self, person_id: int) -> int:
        """The person a stored row was merged into (itself if not merged)."""
        seen: set[int] = set()
        while person_id not in seen:
            seen.add(person_id)
            p = self.book.people.get(person_id)
            if p is None or p.merged_into is None or p.merged_into not in self.book.people:
                return person_id
            person_id = p.merged_into
        return person_id  # a cycle (bad data): stop where it closes

    def stored(self, spelling: str) -> int | None:
        """The root id of the stored person this spelling belongs to (steps 1 and 2)."""
        key = folded(spelling)
        pid = self.exact.get(key)
        if pid is not None:
            return self.root(pid)
        found = set().union(*(self._variants.get(v, set()) for v in spellings(key)))
        return next(iter(found)) if len(found) == 1 else None

    def __call__(self, spelling: str) -> Person:
        pid = self.stored(spelling)
        if pid is not None:
            return Person(f"p:{pid}", self.book.people[pid].name)
        comp = self._find(min(spellings(spelling)))
        seen_at = self._names.get(comp)
        return Person(f"n:{comp}", seen_at[2] if seen_at else spelling)

    # -- groups and accounts ------------------------------------------------------------------

    def members(self, root: int) -> list[people_store.StoredPerson]:
        return [p for p in self.book.people.values() if self.root(p.id) == root]

    def account(self, root: int) -> people_store.StoredPerson | None:
        """The member of the group that carries a Telegram account, if any."""
        return next((p for p in self.members(root) if p.user_id is not None), None)

    def of_user(self, user_id: int) -> int | None:
        """The root of the person linked to ``user_id`` here."""
        for p in self.book.people.values():
            if p.user_id == user_id:
                return self.root(p.id)
        return None

    def spellings_of(self, root: int) -> list[str]:
        return [n.name for n in self.book.names if self.root(n.person_id) == root]

    def known(self, spelling: str, seen: Iterable[people_store.SeenName]) -> bool:
        person = self(spelling)
        return person.key.startswith("p:") or any(self(s.name) == person for s in seen)


def directory(session: Session, place_id: int) -> tuple[Directory, list[people_store.SeenName]]:
    seen = people_store.seen_names(session, place_id)
    return Directory(people_store.book(session, place_id), seen), seen


def resolve_people(session: Session, place_id: int) -> Callable[[str], Person]:
    """Map a spelling on a list of ``place_id`` (chat or topic) to its person. Sync: call it
    inside a use case's unit of work; the returned resolver does no I/O."""
    return directory(session, place_id)[0]


# --- making a spelling a stored person ---------------------------------------------------------


def _ensure_stored(session: Session, place: int, d: Directory, spelling: str) -> int:
    """The root id of ``spelling``'s person, storing the person first if it was unlinked."""
    pid = d.stored(spelling)
    if pid is not None:
        return pid
    name = d(spelling).name
    return people_store.add_person(session, place, name, folded(name))


def _refresh(session: Session, place: int) -> Directory:
    return directory(session, place)[0]


def _known_or_refuse(d: Directory, seen: list[people_store.SeenName], spelling: str) -> str:
    """The known spelling ``spelling`` means: itself, or the one name it is the beginning or
    a plain spelling of (``names.match_words``, as every list command reads a name)."""
    if d.known(spelling, seen):
        return spelling
    names = sorted({d(s.name).name for s in seen}, key=str.casefold)
    words = spelling.split()
    hits, used = match_words(words, names)
    if len(hits) == 1 and used == len(words):
        return names[hits[0]]
    if len(hits) > 1 and used == len(words):
        raise RuleError(
            f"„{spelling[:32]}“ ist nicht eindeutig: {' oder '.join(names[i] for i in hits)}?",
            hint=" · ".join(f"/ich {names[i]}" for i in hits[:5]),
        )
    shown = ", ".join(names[:30]) + (" …" if len(names) > 30 else "")
    raise RuleError(
        f"„{spelling[:32]}“ steht auf keiner Liste in diesem Chat.",
        hint=f"Bekannte Namen: {full_stop(shown)}"
        if names
        else "Erst eine Liste mit /neu anlegen.",
    )


# --- /ich and "Das bin ich" ----------------------------------------------------------------------


def _who(d: Directory, root: int) -> str:
    return escape(d.book.people[root].name)


@dataclass(frozen=True)
class Claimed:
    """A name claimed at a table, waiting for the table's confirmation: the question and
    its buttons (``_link`` returns it instead of linking)."""

    text: str
    buttons: Buttons


def _link(session: Session, cmd: Command, spelling: str) -> str | Claimed:
    """Link the sender to ``spelling``'s person; the German answer (plain words, HTML-safe).
    At a tournament's or a league's table the name is only claimed until the table confirms
    it (``Claimed``), unless the sender is the management or already known as that name.
    Only a person is linked: an anonymous admin (the group) or a channel would hold the name
    for everyone posting so, and the real player could not link it any more."""
    if cmd.user_id is None or cmd.user_id <= 0:
        raise RuleError(
            "Dich kann ich keinem Namen zuordnen (anonym oder als Kanal geschrieben).",
            hint="Schreib /ich NAME als du selbst.",
        )
    place = cmd.place_id
    d = _refresh(session, place)
    target = _ensure_stored(session, place, d, spelling)
    d = _refresh(session, place)
    target = d.root(target)
    holder = d.account(target)
    if holder is not None and holder.user_id == cmd.user_id:
        return f"Du bist schon {_who(d, target)} ✓"
    if holder is not None:
        raise RuleError(
            f"{d.book.people[target].name} ist schon mit {holder.user_name or 'jemandem'} "
            "verknüpft.",
            hint="Wenn das nicht stimmt: dort /ich nicht schreiben lassen, dann /ich NAME.",
        )
    table = _table_here(session, place)
    if table is not None and not _known_as(session, cmd.user_id, table, d, target):
        return _claim(session, cmd, table, d.book.people[target].name)
    claims.drop_claims(session, place, user_id=cmd.user_id)
    if table is not None:  # the management, or known as this name at the desk
        claims.record_consent(
            session, place, d.book.people[target].name, cmd.user_id, cmd.user_name
        )
    return _make_link(session, cmd, d, target)


def _make_link(session: Session, cmd: Command, d: Directory, target: int) -> str:
    assert cmd.user_id is not None
    return _link_account(session, d, target, cmd.user_id, cmd.user_name)


def _link_account(session: Session, d: Directory, target: int, user_id: int, user_name: str) -> str:
    before = d.of_user(user_id)
    note = ""
    if before is not None:
        for p in d.members(before):
            if p.user_id == user_id:
                people_store.set_user(session, p.id, None, None)
        old = d.book.people[before].name
        note = (
            f" (vorher {escape(old)}; seid ihr beide du: "
            f"/spieler zusammen {escape(d.book.people[target].name)} {escape(old)})"
        )
    people_store.set_user(session, target, user_id, user_name[:128])
    return f"Du bist {_who(d, target)} ✓{note}"


def link_user(session: Session, cmd: Command, spelling: str) -> str:
    """Link the sender to ``spelling``'s person in ``cmd.place_id`` (as /ich does; at a table
    the answer is the claim's question)."""
    done = _link(session, cmd, spelling)
    return done if isinstance(done, str) else done.text


# --- a name claimed at a table: the table confirms ------------------------------------------------

CLAIM_PREFIX = "v1:ic:"  # v1:ic:<claim id>[:n]
CLAIM_YES = "✅ Ja, stimmt"
CLAIM_NO = "❌ Nein"


@dataclass(frozen=True)
class TableHere:
    """The table a place plays (or played): the names at its latest table list, the place
    of the desk and who manages there."""

    names: tuple[str, ...]
    desk: int
    manager: int | None
    management: str  # "die Turnierleitung" or "die Ligaleitung"


def _table_here(session: Session, place: int) -> TableHere | None:
    table = table_lists.of_place(session, place)
    if table is None or table.list_id is None:
        return None
    management = (
        "die Ligaleitung" if table.kind is table_lists.TableKind.LEAGUE else "die Turnierleitung"
    )
    names = table_lists.player_names(session, table.list_id)
    return TableHere(names, table.desk, table.manager, management)


def _linked_name(session: Session, place: int, user_id: int, names: Sequence[str]) -> str | None:
    """The name of ``names`` that ``user_id`` is linked to at ``place``, if any."""
    d = _refresh(session, place)
    root = d.of_user(user_id)
    if root is None:
        return None
    return next((n for n in names if d.stored(n) == root), None)


def _known_as(session: Session, user_id: int, table: TableHere, d: Directory, target: int) -> bool:
    """Whether the sender may take the name without the table's word: the management, or
    someone the desk knows as that very name."""
    if owns(user_id, table.manager):
        return True
    name = d.book.people[target].name
    return _linked_name(session, table.desk, user_id, [name]) is not None


def _vouchers(session: Session, place: int, table: TableHere, user_id: int) -> str | None:
    """Why ``user_id`` may confirm a name at this table ("" for the management, else the
    name they are linked to at this table), or None."""
    if owns(user_id, table.manager):
        return ""
    for where in (place, table.desk):
        known = _linked_name(session, where, user_id, table.names)
        if known is not None:
            return known
    return None


def _claim(session: Session, cmd: Command, table: TableHere, name: str) -> Claimed:
    assert cmd.user_id is not None
    claim_id = claims.add_claim(session, cmd.place_id, name, cmd.user_id, cmd.user_name)
    who = escape(cmd.user_name or "Jemand")
    text = (
        f"🙋 {who} sagt: „Ich bin {escape(name)}.“\n"
        f"Stimmt das? Bestätigen kann ein Mitspieler am Tisch, der schon verknüpft ist, oder "
        f"{table.management}. Bis dahin unterschreibt {who} nicht für {escape(name)}.\n"
        f"👉 Oder: /ich {escape(name)} bei {table.management} schicken."
    )
    data = f"{CLAIM_PREFIX}{claim_id}"
    return Claimed(text, ((confirm_button(CLAIM_YES, data), (CLAIM_NO, f"{data}:n")),))


@dataclass(frozen=True)
class StaleButton:
    """Callback data no button of this version writes."""


@dataclass(frozen=True)
class ClaimAnswer:
    """A tap under a claimed name: ``yes`` confirms it, else it is turned down."""

    claim_id: int
    yes: bool


def parse_claim(cmd: Command) -> ClaimAnswer | StaleButton:
    """``v1:ic:<claim>`` confirms, ``v1:ic:<claim>:n`` turns down."""
    parts = cmd.args[0].removeprefix(CLAIM_PREFIX).split(":") if cmd.args else []
    if not parts or not is_number(parts[0]) or len(parts[0]) > 12 or parts[1:] not in ([], ["n"]):
        return StaleButton()
    return ClaimAnswer(int(parts[0]), yes=parts[1:] == [])


def claim(session: Session, place: Place, request: ClaimAnswer | StaleButton) -> Answer:
    """A tap under a name claimed at a table: a player of the table already linked to
    another of its names, or the management, confirms; they, or the one who claimed it,
    turn it down."""
    if isinstance(request, StaleButton):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    row = claims.claim(session, request.claim_id)
    table = _table_here(session, place.id)
    if row is None or row.chat_id != place.id or table is None:
        return Answer(notice="Diese Frage ist schon erledigt.", buttons=())
    user_id = place.asker.user_id
    if user_id is None:
        raise RuleError("Anonym kann niemand bestätigen.", hint="Bitte als du selbst tippen.")
    voucher = _vouchers(session, place.id, table, user_id)
    if not request.yes:
        return _turn_down(session, place, row, voucher)
    if user_id == row.user_id:
        raise RuleError(
            "Bestätigen muss jemand anderes – ein Mitspieler am Tisch oder die Leitung.",
            hint="Bitte einen Mitspieler, auf „Ja, stimmt“ zu tippen.",
        )
    if voucher is None or voucher.casefold() == row.name.casefold():
        raise RuleError(
            "Bestätigen können nur Mitspieler an diesem Tisch, die schon mit ihrem Namen "
            "verknüpft sind, und die Leitung.",
            hint=f"Selbst verknüpfen: /ich NAME bei {table.management}.",
        )
    by = escape(voucher) if voucher else escape(place.asker.name or "die Leitung")
    return _confirm(session, place.id, row, by)


def _turn_down(
    session: Session, place: Place, row: claims.NameClaim, voucher: str | None
) -> Answer:
    if voucher is None and place.asker.user_id != row.user_id:
        raise RuleError(
            "Ablehnen können die Mitspieler am Tisch und die Leitung.",
            hint="Nichts wurde geändert.",
        )
    claims.drop_claims(session, place.id, user_id=row.user_id)
    return Answer(
        notice="Abgelehnt.",
        text=f"❌ {escape(row.user_name or 'Jemand')} ist hier nicht als {escape(row.name)} "
        "verknüpft.",
        buttons=(),
    )


def _confirm(session: Session, place: int, row: claims.NameClaim, by: str) -> Answer:
    """The claim confirmed: its name linked to the claimer's account, with the consent
    recorded (a signature counts only from such a link)."""
    claimer = escape(row.user_name or "Jemand")
    name = escape(row.name)
    d = _refresh(session, place)
    target = d.root(_ensure_stored(session, place, d, row.name))
    d = _refresh(session, place)
    holder = d.account(target)
    if holder is not None and holder.user_id != row.user_id:
        claims.drop_claims(session, place, name=row.name)
        return Answer(
            notice=f"{row.name} ist schon mit {holder.user_name or 'jemandem'} verknüpft.",
            text=f"ℹ️ {name} ist schon mit {escape(holder.user_name or 'jemandem')} verknüpft.",
            buttons=(),
        )
    claims.drop_claims(session, place, user_id=row.user_id)
    claims.drop_claims(session, place, name=row.name)
    claims.record_consent(session, place, row.name, row.user_id, row.user_name or "")
    done = (
        ""
        if holder is not None
        else _link_account(session, d, target, row.user_id, row.user_name or "")
    )
    return Answer(
        notice="Bestätigt.",
        text=f"✅ {claimer} ist {name} – bestätigt von {by}. {done}".strip(),
        buttons=(),
    )


# --- /ich: the route's requests -------------------------------------------------------------


@dataclass(frozen=True)
class ShowMe:
    """``/ich``: the name the sender is linked to."""


@dataclass(frozen=True)
class OwnData:
    """``/ich daten``."""


@dataclass(frozen=True)
class ForgetMe:
    """``/ich vergessen``."""


@dataclass(frozen=True)
class Unlink:
    """``/ich nicht``: the sender's link at this place goes."""


@dataclass(frozen=True)
class LinkName:
    """``/ich NAME``: link the sender's account to NAME (a person's own account only: the
    route's right)."""

    spelling: str


def parse_ich(cmd: Command) -> ShowMe | OwnData | ForgetMe | Unlink | LinkName:
    if not cmd.args:
        return ShowMe()
    words = " ".join(cmd.args)
    said = words.casefold()
    if said in ("daten", "meine daten"):
        return OwnData()
    if said in ("vergessen", "vergiss mich"):
        return ForgetMe()
    if said in ("nicht", "niemand", "loesen", "lösen"):
        return Unlink()
    return LinkName(clean_name(words))


def ich(
    session: Session, place: Place, request: ShowMe | OwnData | ForgetMe | Unlink | LinkName
) -> Reply:
    """/ich NAME links the sender's Telegram account to NAME; /ich shows it; /ich nicht
    removes it; /ich daten and /ich vergessen: the sender's own data."""
    if isinstance(request, LinkName):
        return _link_name(session, place, request.spelling)
    if isinstance(request, OwnData):
        return own_data(session, command_at(place))
    if isinstance(request, ForgetMe):
        return forget_me(session, command_at(place))
    if isinstance(request, Unlink):
        return _unlink(session, place)
    return _show_me(session, place)


def command_at(place: Place) -> Command:
    """``/ich`` as the place's asker sent it, for the linking code that reads a Command (a
    table's claims share it with the table's buttons)."""
    return place_kinds.command_at(place, "/ich")


def _show_me(session: Session, place: Place) -> Reply:
    # Only the asker needs to know whom they are linked with (asked as an ephemeral command:
    # only they see it). Linking, unlinking and forgetting stay the group's: who is who is
    # what a list and a table go by (a claim at a table is confirmed there).
    user_id = place.asker.user_id
    if user_id is None:
        return Reply("Anonym oder als Kanal bist du mit keinem Namen verknüpft.")
    d = _refresh(session, place.id)
    root = d.of_user(user_id)
    if root is None:
        return Reply(
            "Du bist noch mit keinem Namen verknüpft. So geht's: /ich NAME "
            "(oder „Das bin ich“ unter einer neuen Liste).",
            for_asker=True,
        )
    return Reply(f"🙋 Du bist {_who(d, root)}. Lösen: /ich nicht", for_asker=True)


def _unlink(session: Session, place: Place) -> Reply:
    user_id = place.asker.user_id
    if user_id is None:
        raise RuleError("Anonym bist du mit keinem Namen verknüpft.", hint="/ich NAME")
    d = _refresh(session, place.id)
    root = d.of_user(user_id)
    if root is None:
        return Reply("Du warst mit keinem Namen verknüpft.")
    for p in d.members(root):
        if p.user_id == user_id:
            people_store.set_user(session, p.id, None, None)
    return Reply(f"Verknüpfung mit {_who(d, root)} gelöst.")


def _link_name(session: Session, place: Place, spelling: str) -> Reply:
    d, seen = directory(session, place.id)
    participant = _participant(session, place, spelling)  # at a tournament desk
    spelling = participant if participant is not None else _known_or_refuse(d, seen, spelling)
    done = _link(session, command_at(place), spelling)
    if isinstance(done, Claimed):
        return Reply(done.text, buttons=done.buttons)
    return Reply("🙋 " + done)


def _participant(session: Session, place: Place, spelling: str) -> str | None:
    """At a tournament desk, the participant named ``spelling`` (case-insensitively): a
    player links their account there once, and their table then knows them."""
    from skatbot.storage import tournament as trepo

    t = place.tournament
    if t is None:
        return None
    key = folded(spelling)
    for p in trepo.participants(session, t):
        if folded(p.name) == key:
            return p.name
    return None


# --- /ich daten, /ich vergessen: a person's own data ----------------------------------------------

OWN_DATA_FILE = "skatbot-meine-daten.json"


def _in_private(cmd: Command) -> bool:
    return (cmd.telegram_chat_id or cmd.place_id) > 0


def own_data(session: Session, cmd: Command) -> Reply:
    """``/ich daten``: in a private chat with the bot, what is stored under the sender's
    account (a JSON document and a summary); in a group a pointer to the private chat."""
    if cmd.user_id is None or cmd.user_id <= 0:
        raise RuleError(
            "Anonym oder als Kanal ist unter dir nichts gespeichert.",
            hint="Schreib mir als du selbst privat: /ich daten",
        )
    if not _in_private(cmd):
        where = f"t.me/{cmd.bot_username}" if cmd.bot_username else "den Chat mit mir"
        return Reply(
            "🔒 Deine Daten schicke ich nur privat: öffne "
            f"{escape(where)} und schreib dort /ich daten.",
            for_asker=True,
        )
    from skatbot.storage import own_data as store_own

    data = store_own.collect(session, cmd.user_id, [cmd.user_name])
    links = data["linked_names"]
    rows = sum(r["rows"] for r in data["rows_entered"])
    lines = ["🗂 <b>Das ist unter deinem Telegram-Konto gespeichert</b>"]
    if links:
        names = ", ".join(sorted({escape(x["name"]) for x in links}))
        lines.append(f"Verknüpft mit: {names} (in {len(links)} Chat/Thema-Einträgen).")
    else:
        lines.append("Mit keinem Namen verknüpft.")
    lines.append(
        f"Eingetragen: {rows} Zeilen · angelegt: {data['lists_created']} Listen, "
        f"{len(data['tournaments_created'])} Turniere · unterschrieben: "
        f"{len(data['signatures'])} Tische."
    )
    roles = _roles_text(data)
    if roles:
        lines.append("Rollen: " + roles + ".")
    lines.append("Alles im Einzelnen: die Datei. Löschen: /ich vergessen")
    payload = json.dumps(data, ensure_ascii=False, indent=2).encode()
    return Reply(
        "\n".join(lines),
        documents=(Document(OWN_DATA_FILE, payload, "Deine gespeicherten Daten (JSON)"),),
    )


def _roles_text(data: dict[str, Any]) -> str:
    """The roles of ``/ich daten``'s document, in words."""
    roles = [f"Ligaleitung „{escape(x)}“" for x in data["leagues_created"]]
    roles += [
        f"Kapitän von „{escape(x['team'])}“ ({escape(x['league'])})" for x in data["captain_of"]
    ]
    roles += [f"Ausrichter Spieltag {x['day']} ({escape(x['league'])})" for x in data["host_of"]]
    roles += [f"Turnierleitung „{escape(x['name'])}“" for x in data["tournaments_created"]]
    return " · ".join(roles)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def forget_me(session: Session, cmd: Command) -> Reply:
    """``/ich vergessen``: the sender's account links and account names are removed in every
    chat; names written in the lists stay (the table's record)."""
    if cmd.user_id is None or cmd.user_id <= 0:
        raise RuleError(
            "Anonym oder als Kanal ist unter dir nichts gespeichert.",
            hint="Schreib /ich vergessen als du selbst.",
        )
    from skatbot.storage import chats
    from skatbot.storage import own_data as store_own

    names = store_own.account_names(session, cmd.user_id)
    if cmd.user_name:
        names.add(cmd.user_name)
    changed = store_own.forget(session, cmd.user_id, names)
    chats.after_delete(session)
    return Reply(
        "🧹 Vergessen: deine Verknüpfungen mit Namen "
        f"({changed['links']}) und dein Telegram-Name an {_count(changed['rows'], 'Zeile', 'Zeilen')}, "
        f"{_count(changed['signatures'], 'Unterschrift', 'Unterschriften')} und allen anderen "
        "Stellen.\n"
        "Listen, Turniere und Ligen, die du angelegt hast, und deine Rollen als Kapitän oder "
        "Ausrichter kennen nur noch die Nummer deines Kontos (damit du sie weiter löschen "
        "oder verwalten kannst), keinen Namen.\n"
        "Ein Name, der in den Listen eines Chats steht, bleibt – die Liste ist das Protokoll "
        "des Tisches. Ändern lässt er sich dort mit /umbenennen ALT NEU – bitte die Admins "
        "des Chats darum."
    )


def me_buttons(list_id: int) -> Buttons:
    """The row under a new list (sheet_ops.neu)."""
    return (((ME_LABEL, f"{ME_PREFIX}{list_id}"),),)


@dataclass(frozen=True)
class MeTap:
    """``v1:me:<list>`` (the names as buttons) or ``v1:me:<list>:<seat>`` (that seat's name)."""

    numbers: tuple[int, ...]


@dataclass(frozen=True)
class StaleTap:
    """Data no "Das bin ich" button carries (any more)."""


def parse_me_tap(cmd: Command) -> MeTap | StaleTap:
    parts = cmd.text.removeprefix(ME_PREFIX).split(":")
    if not all(is_number(p) and len(p) <= 12 for p in parts):
        return StaleTap()
    return MeTap(tuple(int(p) for p in parts))


def me_tap(session: Session, place: Place, request: MeTap | StaleTap) -> Answer:
    """``v1:me:<list>`` shows one button per player in place of "Das bin ich";
    ``v1:me:<list>:<seat>`` links the tapper to that seat's name (as it is now)."""
    if isinstance(request, StaleTap):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    numbers = request.numbers
    lst = lists_store.get_list(session, numbers[0]) if numbers else None
    if lst is None or lst.chat_id != place.id or len(numbers) > 2:
        return Answer(notice="Diese Liste gibt es hier nicht mehr.")
    loaded = lists_store.load(session, lst)
    if len(numbers) == 1:
        names = tuple(
            (f"🙋 {name[:20]}", f"{ME_PREFIX}{lst.id}:{seat}")
            for seat, name in enumerate(loaded.names)
        )
        rows: Buttons = (names,)
        if lst.status == "open":
            rows = (keyboards.new_game_row(), names)
        return Answer(notice="Tipp auf deinen Namen.", buttons=rows)
    seat = numbers[1]
    if not 0 <= seat < len(loaded.names):
        return Answer(notice="Dieser Knopf gilt nicht mehr.")
    text = _link(session, command_at(place), loaded.names[seat])
    if isinstance(text, Claimed):  # at a table: the table confirms first
        return Answer(
            notice="Ein Mitspieler oder die Leitung bestätigt das.",
            send=Reply(text.text, buttons=text.buttons),
        )
    return Answer(notice=text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


# --- /spieler --------------------------------------------------------------------------------------


def _series(n: int) -> str:
    return "1 Liste" if n == 1 else f"{n} Listen"


@dataclass(frozen=True)
class ShowPeople:
    """``/spieler``: the place's people."""


@dataclass(frozen=True)
class Merge:
    """``/spieler zusammen A B …``: two spellings, one person."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Split:
    """``/spieler trennen A B`` (or ``trennen B``): undo a merge."""

    names: tuple[str, ...]


def parse_spieler(cmd: Command) -> ShowPeople | Merge | Split:
    words = list(cmd.args)
    verb = words[0].casefold() if words else ""
    if verb in ("zusammen", "zusammenlegen", "gleich"):
        return Merge(tuple(_two_names(words[1:], "zusammen")))
    if verb in ("trennen", "auseinander"):
        names = _two_names(words[1:], "trennen")
        if len(names) > 2:
            raise RuleError("Bitte zwei Namen.", hint="Z. B. /spieler trennen Anna Anni")
        return Split(tuple(names))
    if words:
        raise RuleError(
            f"„{words[0][:20]}“ kenne ich bei /spieler nicht.",
            hint="/spieler · /spieler zusammen A B · /spieler trennen A B",
        )
    return ShowPeople()


def spieler(session: Session, place: Place, request: ShowPeople | Merge | Split) -> Reply:
    """/spieler: the place's people; /spieler zusammen A B; /spieler trennen A B."""
    if isinstance(request, Merge):
        return _merge(session, place.id, list(request.names))
    if isinstance(request, Split):
        return _split(session, place.id, list(request.names))
    return _people(session, place)


def _people(session: Session, place: Place) -> Reply:
    d, seen = directory(session, place.id)
    people: dict[str, Person] = {}
    for s in seen:
        p = d(s.name)
        people.setdefault(p.key, p)
    for pid in d.book.people:
        root = d.root(pid)
        people.setdefault(f"p:{root}", Person(f"p:{root}", d.book.people[root].name))
    if not people:
        return Reply(
            f"In {place.here} gibt es noch keine Spieler. Starte eine Liste mit /neu Anna Bernd Carla."
        )
    lines = [f"👥 <b>Spieler in {place.here}</b> ({len(people)})"]
    written: dict[str, dict[str, str]] = {}  # person key -> folded spelling -> as written
    for s in seen:
        written.setdefault(d(s.name).key, {}).setdefault(folded(s.name), s.name)
    for p in sorted(people.values(), key=lambda p: (p.name.casefold(), p.key)):
        lines.append(_person_line(d, p, dict(written.get(p.key, {}))))
    lines.append(
        "✓ = mit Telegram verknüpft (/ich NAME). Gleiche Person, zwei Schreibweisen: "
        "/spieler zusammen A B · rückgängig: /spieler trennen A B"
    )
    return Reply("\n".join(lines))


def _person_line(d: Directory, p: Person, spelled: dict[str, str]) -> str:
    """One person of ``/spieler``: the name, the account, the other spellings, the lists."""
    line = f"• <b>{escape(p.name)}</b>"
    if p.key.startswith("p:"):
        root = int(p.key[2:])
        holder = d.account(root)
        if holder is not None:
            line += f" ✓ {escape(holder.user_name or 'verknüpft')}"
        for n in d.spellings_of(root):
            spelled.setdefault(folded(n), n)
    spelled.pop(folded(p.name), None)
    if spelled:
        also = sorted(spelled.values(), key=str.casefold)
        line += " · auch: " + ", ".join(escape(n) for n in also)
    return line + f" · {_series(d.counts.get(p.key, 0))}"


def _two_names(words: list[str], verb: str) -> list[str]:
    names = [clean_name(w) for w in words]
    if len(names) < 2 and verb == "zusammen":
        raise RuleError("Welche Namen gehören zusammen?", hint="Z. B. /spieler zusammen Anna Anni")
    if not names:
        raise RuleError("Welchen Namen trennen?", hint="Z. B. /spieler trennen Anna Anni")
    return names


def _merge(session: Session, place: int, names: list[str]) -> Reply:
    d, seen = directory(session, place)
    for n in names:
        _known_or_refuse(d, seen, n)
    people = [d(n) for n in names]
    if len({p.key for p in people}) == 1:
        raise RuleError(
            f"{' und '.join(names)} sind schon eine Person ({people[0].name}).",
            hint="Alle Spieler: /spieler",
        )
    keys = {p.key for p in people}
    lists: dict[int, list[str]] = {}
    for s in seen:
        if s.order and d(s.name).key in keys:
            lists.setdefault(s.order, []).append(s.name)
    both = next((n for n in lists.values() if len(n) > 1), None)
    if both is not None:
        raise RuleError(
            f"{' und '.join(both)} stehen zusammen auf einer Liste – das sind zwei Personen.",
            hint="Nur Schreibweisen zusammenlegen, die nie am selben Tisch saßen.",
        )
    accounts = {
        h.user_id
        for n in names
        if (pid := d.stored(n)) is not None and (h := d.account(pid)) is not None
    }
    if len(accounts) > 1:
        raise RuleError(
            "Diese Namen sind mit verschiedenen Telegram-Konten verknüpft.",
            hint="Erst bei einem /ich nicht schreiben lassen.",
        )
    ids = [_ensure_stored(session, place, d, n) for n in names]
    d = _refresh(session, place)
    target = d.root(ids[0])
    for pid in ids[1:]:
        root = d.root(pid)
        if root != target:
            people_store.set_merged(session, root, target)
    d = _refresh(session, place)
    joined = ", ".join(escape(n) for n in d.spellings_of(target))
    return Reply(
        f"🤝 Eine Person: <b>{_who(d, target)}</b> ({joined}). Saison und Skatzahl zählen "
        f"jetzt zusammen. Rückgängig: /spieler trennen {escape(names[0])} {escape(names[1])}"
    )


def _split(session: Session, place: int, names: list[str]) -> Reply:
    d = _refresh(session, place)
    leaving = names[-1]
    pid = d.stored(leaving)
    if pid is None:
        raise RuleError(
            f"„{leaving}“ ist mit niemandem zusammengelegt.", hint="Alle Spieler: /spieler"
        )
    if len(names) == 2 and d.stored(names[0]) != pid:
        raise RuleError(
            f"{names[0]} und {leaving} sind nicht als eine Person zusammengelegt.",
            hint="Alle Spieler: /spieler",
        )
    key = folded(leaving)
    owner = d.exact.get(key)
    if owner is not None and d.book.people[owner].merged_into is not None:
        people_store.set_merged(session, owner, None)  # undoes the merge exactly
        left = owner
    else:
        if len(d.members(pid)) == 1 and len(d.spellings_of(pid)) <= 1:
            raise RuleError(
                f"„{leaving}“ ist mit niemandem zusammengelegt.", hint="Alle Spieler: /spieler"
            )
        if owner is not None:  # one spelling of the person leaves it, as a person of its own
            left = people_store.add_person(session, place, leaving, None)
            people_store.move_name(session, place, key, left)
        else:  # matched only without diacritics: it gets a person of its own
            left = people_store.add_person(session, place, leaving, key)
        if folded(d.book.people[pid].name) == key:
            rest = [n for n in d.spellings_of(pid) if folded(n) != key]
            people_store.set_display_name(session, pid, names[0] if len(names) == 2 else rest[0])
    d = _refresh(session, place)
    return Reply(
        f"✂️ Getrennt: <b>{_who(d, d.root(left))}</b> und <b>{_who(d, d.root(pid))}</b> "
        "zählen wieder einzeln."
    )


# --- the rename hook (/umbenennen) -------------------------------------------------------------


def after_rename(session: Session, place: int, old: str, new: str) -> None:
    """A rename of a stored person's name on a list adds the new spelling to that person (and
    makes it the display name), so the link survives; an unlinked name stays matched by
    spelling. Call it before or after the players row changes - the old spelling stays on the
    person either way."""
    d = _refresh(session, place)
    pid = d.stored(old)
    if pid is None:
        return
    key = folded(new)
    taken = d.exact.get(key)
    if taken is None:
        people_store.add_name(session, place, d.exact.get(folded(old), pid), new, key)
    elif d.root(taken) != pid:
        return  # the new name is someone else's: the list now names that person
    people_store.set_display_name(session, pid, new)
