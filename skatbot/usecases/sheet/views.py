"""The read-only views of a place's lists: ``/stand``, ``/liste``, ``/listen``, and which list
a read-only command means (``/stand 2``, ``/pdf liste 2``: list N of the place, else the open
one, else the latest)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.rules.scoring import minus_sign
from skatbot.storage import lists as lists_store
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards, rich, texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Answer, Button, Buttons, Command, Reply
from skatbot.usecases.common.table_guards import table_here
from skatbot.usecases.sheet.lists import At, place_id

LIST_TAIL = 20
LISTS_SHOWN = 20


@dataclass(frozen=True)
class ShowStand:
    number: int | None = None  # list N of the place; None: the open one, else the latest
    picture: bool = False  # /stand bild: the running scores as a picture


@dataclass(frozen=True)
class ShowList:
    number: int | None = None
    every_row: bool = False  # /liste alle


@dataclass(frozen=True)
class ShowLists:
    pass


def list_number_word(words: list[str], command: str = "/liste") -> tuple[int | None, list[str]]:
    """A list number among the words of a read-only command ("/stand 2", "/pdf liste 2",
    "/stand bild 2") and the other words. A number in other digits ("/liste ٢") is refused:
    read as no number at all it would silently show another list."""
    lowered = [w.casefold() for w in words]
    for i, w in enumerate(lowered):
        word = w.removeprefix("#").removeprefix("nr.")
        refuse_foreign_digits(word, "die Nummer der Liste", f"{command} 2")
        if is_number(word) and len(word) <= 6:
            before = i - 1 if i and lowered[i - 1] in ("liste", "nr", "nr.") else i
            return int(word), words[:before] + words[i + 1 :]
    return None, words


def parse_stand(cmd: Command) -> ShowStand:
    number, rest = list_number_word(list(cmd.args), "/stand")
    return ShowStand(number, picture=[w.casefold() for w in rest] == ["bild"])


def parse_liste(cmd: Command) -> ShowList:
    number, rest = list_number_word(list(cmd.args), "/liste")
    return ShowList(number, every_row=bool(rest) and rest[0].casefold() == "alle")


def parse_listen(cmd: Command) -> ShowLists:
    return ShowLists()


def pick_list(session: Session, at: At, number: int | None) -> tuple[lists_store.ListInfo, str]:
    """List ``number`` of the place (as in the file name ``skatliste-N-…``), else the open
    list, else the latest; and a line saying which list it is when a number was asked for."""
    where = place_id(at)
    if number is None:
        lst = lists_store.open_list(session, where) or lists_store.latest_list(session, where)
        if lst is None:
            raise RuleError(
                f"In {at.here} gibt es noch keine Liste.",
                hint="Starte eine mit /neu Anna Bernd Carla.",
            )
        return lst, ""
    lst = lists_store.numbered_list(session, where, number)
    if lst is None:
        latest = lists_store.latest_list(session, where)
        count = lists_store.list_number(session, latest) if latest is not None else 0
        which = f"Liste 1 bis {count}" if count > 1 else ("Liste 1" if count else "keine Liste")
        raise RuleError(
            f"In {at.here} gibt es keine Liste {number}.",
            hint=f"Hier gibt es {which} – alle zeigt /listen.",
        )
    return lst, list_head(number, lst)


def picked_list(session: Session, cmd: Command) -> tuple[lists_store.ListInfo, list[str], str]:
    """``pick_list`` for a command that gets its ``Command`` (``/pdf``, ``/export``,
    ``/abrechnung``, ``/einsatz``): the list, the other words, and the line naming it."""
    first = cmd.text.split()[0].split("@")[0] if cmd.text.strip() else ""
    asked = first if first.startswith("/") else "/liste"  # for the hint of a refusal
    number, rest = list_number_word(list(cmd.args), asked)
    lst, head = pick_list(session, cmd, number)
    return lst, rest, head


def list_head(number: int, lst: lists_store.ListInfo) -> str:
    """E.g. "📋 Liste 2 vom 30.11.2026 (abgeschlossen)"."""
    day = f" vom {texts.day(lst.created_at)}" if lst.created_at else ""
    state = "abgeschlossen" if lst.status is ListStatus.CLOSED else "läuft"
    return f"📋 <b>Liste {number}</b>{day} ({state})"


def state_line(session: Session, loaded: lists_store.LoadedList) -> str:
    """The next deal of an open list, or when a closed one was closed (and what comes
    next: at a table, what the table does; elsewhere the next series)."""
    if loaded.lst.status is ListStatus.CLOSED:
        here = table_here(session, loaded.lst.chat_id)
        then = None
        if here is not None and here.table.list_id == loaded.lst.id and not here.over:
            then = here.after_close()
        return texts.closed_line(loaded.lst.closed_at, loaded.sheet.games_played, then)
    return texts.progress(loaded.sheet)


def stand(session: Session, place: Place, request: ShowStand) -> Reply:
    lst, head = pick_list(session, place, request.number)
    loaded = lists_store.load(session, lst)
    state = state_line(session, loaded)
    closed = loaded.lst.status is ListStatus.CLOSED
    text = texts.totals_block(loaded.sheet, loaded.lst.seed, closed=closed) + "\n" + state
    doc = rich.standings_doc(loaded.sheet, loaded.lst.seed, title=head, tail=state, closed=closed)
    settings = rich.settings_of(session, place.id, loaded.chat_settings)
    reply = Reply(rich.maybe(f"{head}\n{text}" if head else text, doc, settings))
    if request.picture:
        # the picture code (and Pillow) loads with the first picture, not with every /stand
        from skatbot.usecases.sheet.pictures import with_series_photo

        return with_series_photo(session, loaded, reply)
    return reply


def listen(session: Session, place: Place, request: ShowLists) -> Reply:
    """``/listen``: the place's lists by number (as /liste N, /stand N, /pdf N take it), with
    day, players, state and who won (or leads)."""
    found = lists_store.place_lists(session, place.id, last=LISTS_SHOWN)
    if not found:
        raise RuleError(
            f"In {place.here} gibt es noch keine Liste.",
            hint="Starte eine mit /neu Anna Bernd Carla.",
        )
    total = found[-1][0]
    lines = [f"📋 <b>Listen in {place.here}</b> ({total})"]
    if total > len(found):
        lines.append(f"… {total - len(found)} ältere: /liste N zeigt jede.")
    lines.extend(_lists_line(session, number, lst) for number, lst in found)
    lines.append("Eine davon: /liste N · /stand N · /pdf N · /export N · /abrechnung N")
    return Reply("\n".join(lines))


def _lists_line(session: Session, number: int, lst: lists_store.ListInfo) -> str:
    """One list of /listen: number, day, players, state and who won (or leads)."""
    loaded = lists_store.load(session, lst)
    sheet = loaded.sheet
    day = texts.day(lst.created_at) if lst.created_at else "–"
    closed = lst.status is ListStatus.CLOSED
    state = ("abgeschlossen" if closed else "läuft") + f", {texts.games(sheet.games_played)}"
    if not sheet.games_played:
        state = "abgeschlossen, ohne Spiel" if closed else "läuft, noch kein Spiel"
    line = f"{number} · {day} · {escape(', '.join(loaded.names))} · {state}"
    if sheet.games_played:
        best = texts.ranked(sheet, lst.seed)[0].standing
        line += f" · {'🏆' if closed else 'vorn:'} {escape(best.name)} {minus_sign(best.score)}"
    return line


def liste(session: Session, place: Place, request: ShowList) -> Reply:
    lst, which = pick_list(session, place, request.number)
    # the Mini App shows the same list (a numbered one by its id, else the running one)
    app: Buttons = ()
    if place.app_ready:
        app = ((keyboards.app_button(place.thread_id, lst.id if request.number else 0),),)
    loaded = lists_store.load(session, lst)
    entries = loaded.sheet.entries
    if not entries:
        return Reply(
            (f"{which}\n" if which else "") + "Noch keine Spiele. " + state_line(session, loaded),
            buttons=app,
        )
    if request.every_row or len(entries) <= LIST_TAIL:
        text, _ = _list_page(session, place, loaded, which, 0, len(entries), "")
        return Reply(text, buttons=app)
    more = f"/liste {request.number} alle" if request.number else "/liste alle"
    text, pager = _list_page(session, place, loaded, which, len(entries), len(entries), more)
    return Reply(text, buttons=(*pager, *app))


# --- a long list in pages ----------------------------------------------------------------------
#
# /liste shows the latest LIST_TAIL rows of a longer list; "◀ zurück" and "weiter ▶" show the
# rows before and after, editing the same message. A page is named by the row it ends at
# (rows counted from the list's start), so a page keeps its rows while games are added.
# Inside the rich message where the server can (Bot API 10.3), else under it (RichDoc.pager).

# v1:ls:<list id>:<end of the page to show>:<end of the page shown> (≤ 64 bytes)
DATA_PAGE = re.compile(r"v1:ls:([0-9]{1,10}):([0-9]{1,6}):([0-9]{1,6})")
FIRST_PAGE = "Das ist schon der Anfang der Liste."
LAST_PAGE = "Das sind schon die neuesten Spiele."


@dataclass(frozen=True)
class PageTap:
    """ "◀ zurück" / "weiter ▶" under a page of /liste: the list, the page asked for and the
    page the message shows (the same for a button that cannot act: it answers why)."""

    list_id: int
    end: int
    shown: int


def parse_page_tap(cmd: Command) -> PageTap:
    m = DATA_PAGE.fullmatch(cmd.args[0] if cmd.args else "")
    if m is None:
        return PageTap(0, 0, 0)  # no list has id 0
    return PageTap(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def page_tap(session: Session, place: Place, request: PageTap) -> Answer:
    """The other page of /liste, in the same message; a button that cannot act (the first
    page's "zurück", the last page's "weiter", tapped where the server shows it as an
    ordinary button) answers why and leaves the message as it is."""
    lst = lists_store.get_list(session, request.list_id) if request.list_id else None
    if lst is None or lst.chat_id != place_id(place):
        return Answer(notice="Diese Liste gibt es hier nicht mehr – /liste zeigt die aktuelle.")
    loaded = lists_store.load(session, lst)
    rows = len(loaded.sheet.entries)
    if request.end == request.shown:  # a button that cannot act, shown as an ordinary one
        if request.end <= LIST_TAIL or request.end >= rows:
            return Answer(notice=FIRST_PAGE if request.end <= LIST_TAIL else LAST_PAGE)
        request = PageTap(request.list_id, rows, request.shown)  # games added since: the newest
    if not LIST_TAIL <= request.end <= rows:
        return Answer(notice="Diese Seite gibt es nicht mehr – /liste zeigt die Liste neu.")
    default = lists_store.open_list(session, lst.chat_id) or lists_store.latest_list(
        session, lst.chat_id
    )
    number = lists_store.list_number(session, lst)
    which = "" if default is not None and default.id == lst.id else list_head(number, lst)
    more = "/liste alle" if not which else f"/liste {number} alle"
    text, pager = _list_page(session, place, loaded, which, request.end, rows, more)
    start = max(0, request.end - LIST_TAIL)
    return Answer(notice=f"Zeilen {start + 1}–{request.end}", text=text, buttons=pager)


def _list_page(
    session: Session,
    place: Place,
    loaded: lists_store.LoadedList,
    which: str,
    end: int,
    rows: int,
    more: str,
) -> tuple[str, Buttons]:
    """The text (and table) of the list's rows up to ``end`` - all of them with ``end`` 0 -
    and the page's buttons."""
    sheet = loaded.sheet
    entries = sheet.entries
    head = [which] if which else []
    pager: Buttons = ()
    if end:
        start = max(0, end - LIST_TAIL)
        if end == rows:
            head.append(f"… {start} frühere Zeilen: {more}")
        else:
            head.append(f"Zeilen {start + 1}–{end} von {rows} · alle: {more}")
        entries = entries[start:end]
        pager = (_page_buttons(loaded.lst.id, end, rows),)
    lines = [*head, *(texts.row_line(sheet, e) for e in entries)]
    stand_line = f"Stand: {texts.standings_line(sheet, loaded.lst.seed)}"
    lines.append(stand_line)
    lines.append(state_line(session, loaded))
    doc = rich.list_doc(
        sheet,
        entries,
        head="\n".join(head),
        tail=f"{stand_line}\n{state_line(session, loaded)}",
        pager=pager,
    )
    settings = rich.settings_of(session, place.id, loaded.chat_settings)
    return rich.maybe("\n".join(lines), doc, settings), pager


def _page_buttons(list_id: int, end: int, rows: int) -> tuple[Button, Button]:
    """ "◀ zurück" and "weiter ▶", in the same places on every page; where there is nothing
    before or after, greyed out and saying why in its label ("◀ Anfang", "Ende ▶"); where the
    server cannot grey it out, an ordinary button whose data names the page shown, and
    whose tap answers the reason."""
    back = max(LIST_TAIL, end - LIST_TAIL) if end > LIST_TAIL else end
    ahead = min(rows, end + LIST_TAIL)

    def data(to: int) -> str:
        return f"v1:ls:{list_id}:{to}:{end}"

    if back == end:
        earlier = Button("◀ Anfang", data(back), disabled=FIRST_PAGE)
    else:
        earlier = Button("◀ zurück", data(back))
    if ahead == end:
        later = Button("Ende ▶", data(ahead), disabled=LAST_PAGE)
    else:
        later = Button("weiter ▶", data(ahead))
    return earlier, later
