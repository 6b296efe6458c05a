"""/pdf, /vordruck and /abschluss (with the PDF): the list on paper (/weiter: evening/commands.py).

Maps the replayed sheet onto the PDF model (the PDF package knows nothing of rules or storage).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass
from html import escape

# fpdf2 and fontTools (~30 MB) are imported when the first PDF is made, not at start.
from skatbot.pdf.model import PlayerTotal, SeriesDocument, SheetRow
from skatbot.rules.errors import RuleError
from skatbot.rules.ranking import lot_note, rank_standings
from skatbot.rules.sheet import Entry, RowKind, Sheet, Status
from skatbot.rules.statistics import running_scores
from skatbot.storage import lists as lists_store
from skatbot.storage import questions
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm, texts
from skatbot.usecases.common.confirm import Shown
from skatbot.usecases.common.names import neu_line
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Answer, Command, Document, Reply, confirm_button
from skatbot.usecases.common.table_guards import guard_ended, table_here
from skatbot.usecases.money import stakes as money
from skatbot.usecases.place import admin, at_table
from skatbot.usecases.place.words import Words, command_at
from skatbot.usecases.sheet.booking import user_fields
from skatbot.usecases.sheet.list_changes import picked_list
from skatbot.usecases.sheet.lists import require_list
from skatbot.usecases.sheet.pictures import CURVE_LABEL, with_series_photo
from skatbot.usecases.tournament.tables import after_close, after_reopen

RULES_LABEL = {"isko": "ISkO / Seeger-Fabian", "haus": "Hausregeln (3B3R)"}


# What the running scores count: the chat's picture and the PDF chart say the same.


def _value(sheet: Sheet, e: Entry) -> int | None:
    """The value column: on an ISkO list the game's value ("Wert"); under house rules the
    amount booked to the declarer ("gebucht": with Kontra/Re, Bock and a lost game's
    doubling), one meaning for every row, as the declarer's booking shows it."""
    r = e.result
    if r is None:
        return None
    if sheet.house is None:
        return r.value
    declarer = e.row.declarer
    return abs(e.points[declarer]) if declarer is not None and declarer in e.points else None


def series_document(loaded: lists_store.LoadedList, chat_title: str) -> SeriesDocument:
    sheet = loaded.sheet
    house = sheet.house is not None
    # house rules: the running sums start at the start points, as the chat's /stand does
    start = dict(zip(sheet.players, sheet.start, strict=True)) if house and sheet.start else {}
    running = {name: start.get(name, 0) for name in sheet.players}
    rows: list[SheetRow] = []
    for e in sheet.entries:
        r = e.result
        bookings = {sheet.players[seat]: pts for seat, pts in e.points.items()}
        if e.status is Status.VALID:
            for name, points in bookings.items():
                running[name] += points
        rows.append(
            SheetRow(
                nr=e.nr,
                dealer=sheet.players[e.row.dealer or 0],
                text=_row_text(sheet, e),
                bid=r.announcement.bid if r else None,
                value=_value(sheet, e),
                bookings=bookings,
                running=dict(running),
                struck=e.status is not Status.VALID,
                note=_note(sheet, e),
                overbid=bool(r and r.overbid),
                won=r.won if r else None,
            )
        )
    ranked = rank_standings(sheet.standings(), loaded.lst.seed)
    created = loaded.lst.created_at
    return SeriesDocument(
        title=f"Skatliste – {chat_title}" if chat_title else "Skatliste",
        date=created.date() if created else dt.date.today(),
        rules=RULES_LABEL["isko" if sheet.house is None else "haus"],
        players=list(sheet.players),
        table_size=sheet.table_size,
        rows=rows,
        totals=_totals(sheet),
        ranking=[(r.place, r.standing.name, r.standing.score) for r in ranked],
        ranking_note=lot_note(ranked, loaded.lst.seed) if sheet.games_played else "",
        closed=loaded.lst.status is ListStatus.CLOSED,
        house=house,
        start=start,
        closed_on=loaded.lst.closed_at.date() if loaded.lst.closed_at else None,
        curve=running_scores(sheet),
        curve_label=CURVE_LABEL[house],
    )


def _note(sheet: Sheet, e: Entry) -> str:
    if e.status is Status.CANCELLED:
        return "storniert"
    if e.status is Status.STRUCK:
        return "korrigiert"
    if e.house is None:
        return ""
    marks = ["Bock"] if e.house.bock else []
    if e.house.sick_game:
        marks.append(f"krank: {sheet.players[e.row.declarer or 0]}")
    if e.house.trigger:
        marks.append("3B3R")
    return " · ".join(marks)


def _row_text(sheet: Sheet, e: Entry) -> str:
    if e.ramsch is not None:
        return e.ramsch.text(sheet.players)
    return texts.game_label(e.result) if e.result else "eingepasst"


def _totals(sheet: Sheet) -> list[PlayerTotal]:
    if sheet.house is None:
        return [
            PlayerTotal(t.name, t.game_points, t.won, t.lost, t.opponents_lost, t.score, t.steps)
            for t in sheet.totals()
        ]
    return [
        PlayerTotal(t.name, t.points, t.won, t.lost, 0, t.score, f"Start {t.steps}")
        for t in sheet.house_totals()
    ]


def pdf_filename(session: Session, lst: lists_store.ListInfo) -> str:
    """E.g. ``skatliste-3-zwischenstand-2026-11-30.pdf`` or ``skatliste-3-abschluss-…``:
    the list's number in this chat (or topic), its state and the day (ASCII only)."""
    number = lists_store.list_number(session, lst)
    day = dt.datetime.now(dt.UTC).date()  # dates in UTC, like the list's Datum
    if lst.status is ListStatus.CLOSED:
        day = lst.closed_at.date() if lst.closed_at else day
        return f"skatliste-{number}-abschluss-{day.isoformat()}.pdf"
    return f"skatliste-{number}-zwischenstand-{day.isoformat()}.pdf"


def pdf_reply(session: Session, loaded: lists_store.LoadedList, title: str, text: str) -> Reply:
    from skatbot.pdf.series import render_series

    doc = series_document(loaded, title)
    doc = dataclasses.replace(doc, money=money.series_money_lines(session, loaded))
    data, lossy = render_series(doc)
    if lossy:
        text += "\n" + texts.lossy_names_note(lossy)
    filename = pdf_filename(session, loaded.lst)
    return Reply(text, documents=(Document(filename, data, "Skatliste als PDF"),))


def pdf(session: Session, place: Place, request: Words) -> Reply:
    """The list as PDF: the running one, else the latest, ``/pdf N`` list N (a desk keeps no
    list of its own: the sheet's list picking says what works there)."""
    lst, _words, head = picked_list(session, command_at(place, "pdf", request.words))
    loaded = lists_store.load(session, lst)
    games = texts.games(loaded.sheet.games_played)
    if lst.status is ListStatus.OPEN:
        state = f"Zwischenstand, {games}"
    else:
        state = f"Serienabschluss, {games}" + (
            f", abgeschlossen am {texts.day(lst.closed_at)}" if lst.closed_at else ""
        )
    said = f"📄 Skatliste als PDF ({state})."
    return pdf_reply(session, loaded, place.title, f"{head}\n{said}" if head else said)


# --- /abschluss (asks first while the series is not full) and /oeffnen -----------------------

# v1:close:<list id>:<nonce> closes, v1:keep:<list id>:<nonce> keeps playing (≤ 64 bytes).
CLOSE_DATA = re.compile(r"v1:(close|keep):([0-9]{1,12}):([0-9a-f]{16})")
CONFIRM_WORDS = {"ja", "yes", "bestätigen", "bestaetigen", "jetzt"}


def _close_shown(session: Session, loaded: lists_store.LoadedList) -> Shown:
    """The running list as the question to close it names it."""
    sheet = loaded.sheet
    return Shown(
        f"list:{loaded.lst.id}",
        questions.thing_state(session, "lists", loaded.lst.id),
        f"Liste Nr. {lists_store.list_number(session, loaded.lst)} mit {sheet.games_played} von "
        f"{sheet.series_length} Spielen",
    )


@dataclass(frozen=True)
class Close:
    """``/abschluss`` (asks while the series is not full) or ``/abschluss ja`` (``confirmed``)."""

    confirmed: bool


def parse_close(cmd: Command) -> Close:
    words = [w.casefold() for w in cmd.args]
    if words and (len(words) != 1 or words[0] not in CONFIRM_WORDS):
        raise RuleError(
            "Das verstehe ich nicht.", hint="/abschluss – oder ohne Rückfrage: /abschluss ja"
        )
    return Close(confirmed=bool(words))


def abschluss(session: Session, place: Place, request: Close) -> Reply:
    """Close the series with the PDF. Before the series is full it asks first (buttons, or
    ``/abschluss ja``): ``/abschluss`` is a tappable link in the bot's own messages.
    ``/abschluss ja`` answers the sender's own question (the list as it was then), or,
    when nobody asked, closes at once."""
    cmd = command_at(place, "abschluss", ("ja",) if request.confirmed else ())
    if lists_store.open_list(session, place.id) is None:
        again = at_table.closed_list(session, place)  # a table's list: its signatures again
        if again is not None:
            return again
    loaded = require_list(session, cmd)
    sheet = loaded.sheet
    refuse_empty(loaded, table_here(session, place.id) is not None)
    if request.confirmed:
        confirm.answer(
            session,
            cmd,
            confirm.CLOSE,
            lambda _target: _close_shown(session, loaded),
            again="/abschluss",
            one_step=True,
            button=True,
            undone="nichts abgeschlossen",
        )
    if request.confirmed or sheet.games_played >= sheet.series_length:
        return close_now(session, place, loaded)
    list_id = loaded.lst.id
    nonce = confirm.ask(session, cmd, confirm.CLOSE, _close_shown(session, loaded))
    text = (
        "❓ <b>Serie jetzt abschließen?</b>\n"
        f"Gespielt: {sheet.games_played} von {sheet.series_length} Spielen.\n"
        "Danach kommen keine Spiele mehr dazu (wieder öffnen: /oeffnen, Admins).\n"
        "👉 Zum Bestätigen den Knopf drücken oder /abschluss ja schicken."
    )
    buttons = (
        (
            confirm_button("🏁 Ja, abschließen", f"v1:close:{list_id}:{nonce}"),
            ("Nein, weiterspielen", f"v1:keep:{list_id}:{nonce}"),
        ),
    )
    return Reply(text, buttons=buttons)


def refuse_empty(loaded: lists_store.LoadedList, at_table: bool = False) -> None:
    """A list without a game is no series: it is not closed (a new list replaces it, except
    a table's, which belongs to its draw)."""
    if loaded.sheet.games_played == 0:
        again = f"neu anfangen: {neu_line(loaded.names)} (ersetzt die leere Liste)"
        raise RuleError(
            "Die Liste hat noch kein Spiel – eine leere Liste wird nicht abgeschlossen.",
            hint=f"Erst spielen: /spiel {texts.command_name(loaded.names, loaded.sheet.vorhand)} "
            "grand mit 1 gewonnen" + ("." if at_table else f" – oder {again}."),
        )


def close_now(session: Session, place: Place, loaded: lists_store.LoadedList) -> Reply:
    """Close the open list ``loaded`` (recorded in its log) and post the Serienabschluss."""
    cmd = command_at(place, "abschluss")
    closed = lists_store.close_list(session, loaded.lst)
    lists_store.append_row(session, loaded.lst, kind=RowKind.CLOSE, **user_fields(cmd))
    loaded = dataclasses.replace(loaded, lst=closed)
    here = table_here(session, place.id)
    then = "Weiter mit denselben Spielern: /weiter · Neue Runde: /neu …"
    if here is not None and not here.over:  # a table goes on with the next draw or seating
        then = here.after_close()
    text = (
        "🏁 <b>Liste abgeschlossen.</b>\n"
        + texts.totals_block(loaded.sheet, loaded.lst.seed, closed=True)
        + f"\n{then}"
        + "\nVersehentlich abgeschlossen? Wieder öffnen: /oeffnen (wer die Liste angelegt hat, oder ein Admin)"
    )
    # the PDF, and beside it the running scores as a picture
    reply = with_series_photo(session, loaded, pdf_reply(session, loaded, place.title, text))
    from skatbot.usecases.league.tables import after_close as league_after_close

    signing = after_close(session, cmd, loaded)  # a tournament table's list: the signatures
    signing += league_after_close(session, cmd, loaded)  # a league table's: its results
    return dataclasses.replace(reply, posts=reply.posts + signing) if signing else reply


@dataclass(frozen=True)
class CloseTap:
    """A tap under ``/abschluss``'s question: ``close`` or ``keep`` the list it named."""

    close: bool
    list_id: int
    nonce: str
    data: str


@dataclass(frozen=True)
class UnknownTap:
    """Button data that is none of ours (forged or garbled)."""


def parse_close_tap(cmd: Command) -> CloseTap | UnknownTap:
    m = CLOSE_DATA.fullmatch(cmd.text)
    if m is None:
        return UnknownTap()
    return CloseTap(m[1] == "close", int(m[2]), m[3], cmd.text)


def close_tap(session: Session, place: Place, request: CloseTap | UnknownTap) -> Answer:
    """A tap on the buttons under ``/abschluss``'s question (``runtime.execute_callback``
    has checked that the data is on the tapped message)."""
    if isinstance(request, UnknownTap):
        return Answer(notice="Unbekannter Knopf – nichts geändert.")
    loaded = lists_store.open_list_loaded(session, place.id)
    if not request.close:
        return _keep_playing(session, place, request, loaded)
    cmd = command_at(place, "abschluss", text=request.data)
    try:
        confirm.answer(
            session,
            cmd,
            confirm.CLOSE,
            lambda _target: _close_shown(session, loaded) if loaded is not None else None,
            again="/abschluss",
            nonce=request.nonce,
            undone="nichts abgeschlossen",
        )
    except confirm.NotConfirmed as refused:
        return Answer(notice=f"{refused.message} 👉 {refused.hint}", alert=True, buttons=())
    assert loaded is not None  # the question's list is open, as it was
    reply = close_now(session, place, loaded)
    who = escape(place.asker.name) if place.asker.name else "jemandem"
    return Answer(
        notice="Liste abgeschlossen.",
        text=f"🏁 Serie abgeschlossen (bestätigt von {who}).",
        buttons=(),
        send=reply,
    )


def _keep_playing(
    session: Session, place: Place, request: CloseTap, loaded: lists_store.LoadedList | None
) -> Answer:
    """ "Nein, weiterspielen": the question is used up; keeping changes nothing, so nothing
    needs checking."""
    asked = questions.by_nonce(session, place.id, confirm.CLOSE, request.nonce)
    if asked is not None:
        questions.drop(session, asked.id)
    if loaded is None or loaded.lst.id != request.list_id:
        return Answer(notice="Diese Liste ist schon abgeschlossen.", buttons=())
    progress = texts.progress(loaded.sheet)
    return Answer(
        notice="Die Serie läuft weiter.",
        text=f"▶️ Nicht abgeschlossen – die Serie läuft weiter.\n{progress}",
        buttons=(),
    )


@dataclass(frozen=True)
class Reopen:
    """``/oeffnen``: the place's latest list, if it is closed (words are not read)."""


def parse_reopen(_cmd: Command) -> Reopen:
    return Reopen()


def list_manager(session: Session, place: Place, request: object) -> None:
    """The right ``rights.LIST_MANAGER`` of ``/oeffnen``: the latest list's creator and the
    chat's admins. Without a closed latest list there is nothing to manage: the use case
    says why (no list, a running one)."""
    if lists_store.open_list(session, place.id) is not None:
        return
    if lists_store.latest_list(session, place.id) is None:
        return
    asker = place.asker
    admin.check_manager(
        session, place.id, asker.user_id, asker.is_admin, "Wieder öffnen", "/oeffnen"
    )


def oeffnen(session: Session, place: Place, _request: Reopen) -> Reply:
    """Open the place's latest list again, if it is closed (the route's right: admins and the
    list's creator)."""
    running = lists_store.open_list(session, place.id)
    latest = lists_store.latest_list(session, place.id)
    if latest is None:
        raise RuleError(
            f"In {place.here} gibt es noch keine Liste.",
            hint="Starte eine mit /neu Anna Bernd Carla.",
        )
    if running is not None:
        _refuse_running(session, running, latest)
    guard_ended(session, latest.id)  # a table of an ended tournament stays closed
    cmd = command_at(place, "oeffnen")
    opened = lists_store.reopen_list(session, latest)
    lists_store.append_row(session, latest, kind=RowKind.REOPEN, **user_fields(cmd))
    loaded = lists_store.load(session, opened)
    when = f" (abgeschlossen am {texts.day(latest.closed_at)})" if latest.closed_at else ""
    withdrawn = after_reopen(session, cmd, latest)  # a reported tournament table: withdrawn
    return Reply(
        f"🔓 <b>Liste wieder geöffnet</b>{when}.\n"
        + f"Stand: {texts.standings_line(loaded.sheet, opened.seed)}\n"
        + texts.progress(loaded.sheet)
        + ("\n↩️ Das gemeldete Turnierergebnis ist zurückgezogen." if withdrawn else ""),
        posts=withdrawn,
    )


def _refuse_running(
    session: Session, running: lists_store.ListInfo, latest: lists_store.ListInfo
) -> None:
    games = texts.games(lists_store.load(session, running).sheet.games_played)
    if running.id == latest.id and lists_store.list_number(session, latest) == 1:  # no other
        raise RuleError(
            f"Die Liste ist gar nicht abgeschlossen – sie läuft ({games}).",
            hint="Weiter eintragen mit /spiel.",
        )
    raise RuleError(
        f"Es läuft schon eine neuere Liste ({games}); nur die neueste lässt sich wieder öffnen.",
        hint="In der laufenden Liste weiterspielen – die abgeschlossene bleibt gespeichert.",
    )


@dataclass(frozen=True)
class BlankForm:
    players: int  # 3 or 4


def parse_blank_form(cmd: Command) -> BlankForm:
    size = cmd.args[0] if cmd.args else ""
    if size not in ("3", "4"):
        raise RuleError(
            "Für welchen Tisch?", hint="/vordruck 3 (36 Spiele) oder /vordruck 4 (48 Spiele)"
        )
    return BlankForm(int(size))


def vordruck(_session: Session, _place: Place, request: BlankForm) -> Reply:
    from skatbot.pdf.forms import render_blank_form

    size = request.players
    data = render_blank_form(size)
    games = 36 if size == 3 else 48
    name = f"vordruck-{size}er-tisch.pdf"
    caption = f"Leere Skatliste für den {'Dreier' if size == 3 else 'Vierer'}tisch"
    return Reply(
        f"📄 Vordruck für {size} Spieler: {games} Zeilen und der Serienabschluss zum Ausfüllen.",
        documents=(Document(name, data, caption),),
    )
