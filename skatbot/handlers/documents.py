"""/pdf, /vordruck and /abschluss (with the PDF): the list on paper (/weiter: evening.py).

Maps the replayed sheet onto the PDF model (the PDF package knows nothing of rules or storage).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy.orm import Session

from skatbot.handlers import texts
from skatbot.handlers.reply import Command, Document, Reply
from skatbot.handlers.runtime import UseCase
from skatbot.handlers.sheet_ops import require_list

# fpdf2 and fontTools (~30 MB) are imported when the first PDF is made, not at start.
from skatbot.pdf.model import PlayerTotal, SeriesDocument, SheetRow
from skatbot.rules.errors import RuleError
from skatbot.rules.ranking import lot_note, rank_standings
from skatbot.rules.sheet import Entry, Sheet, Status
from skatbot.storage import repo
from skatbot.storage.database import lock_chat

RULES_LABEL = {"isko": "ISkO / Seeger-Fabian", "haus": "Hausregeln (3B3R)"}


def series_document(loaded: repo.LoadedList, chat_title: str) -> SeriesDocument:
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
                value=r.value if r else None,
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
        closed=loaded.lst.status == "closed",
        house=house,
        start=start,
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


def pdf_reply(loaded: repo.LoadedList, cmd: Command, text: str) -> Reply:
    from skatbot.pdf.series import render_series

    data, lossy = render_series(series_document(loaded, cmd.chat_title))
    if lossy:
        text += "\n" + texts.lossy_names_note(lossy)
    filename = f"skatliste-{loaded.lst.id}.pdf"
    return Reply(text, documents=(Document(filename, data, "Skatliste als PDF"),))


def pdf(session: Session, cmd: Command) -> Reply:
    lst = repo.open_list(session, cmd.chat_id) or repo.latest_list(session, cmd.chat_id)
    if lst is None:
        raise RuleError(
            "Hier gibt es noch keine Liste.", hint="Starte eine mit /neu Anna Bernd Carla."
        )
    loaded = repo.load(session, lst)
    state = "Zwischenstand" if lst.status == "open" else "abgeschlossene Liste"
    return pdf_reply(
        loaded, cmd, f"📄 Skatliste als PDF ({state}, {texts.games(loaded.sheet.games_played)})."
    )


def abschluss(session: Session, cmd: Command) -> Reply:
    lock_chat(session, cmd.chat_id)
    loaded = require_list(session, cmd)
    repo.close_list(session, loaded.lst)
    text = (
        "🏁 <b>Liste abgeschlossen.</b>\n"
        + texts.totals_block(loaded.sheet, loaded.lst.seed)
        + "\nWeiter mit denselben Spielern: /weiter · Neue Runde: /neu …"
    )
    return pdf_reply(loaded, cmd, text)


def vordruck(_session: Session, cmd: Command) -> Reply:
    size = cmd.args[0] if cmd.args else ""
    if size not in ("3", "4"):
        raise RuleError(
            "Für welchen Tisch?", hint="/vordruck 3 (36 Spiele) oder /vordruck 4 (48 Spiele)"
        )
    from skatbot.pdf.forms import render_blank_form

    data = render_blank_form(int(size))
    games = 36 if size == "3" else 48
    name = f"vordruck-{size}er-tisch.pdf"
    caption = f"Leere Skatliste für den {'Dreier' if size == '3' else 'Vierer'}tisch"
    return Reply(
        f"📄 Vordruck für {size} Spieler: {games} Zeilen und der Serienabschluss zum Ausfüllen.",
        documents=(Document(name, data, caption),),
    )


# Rendering a PDF takes 50-100 ms: in a worker thread, not on the event loop.
HEAVY_COMMANDS = ("pdf", "abschluss", "vordruck")

COMMANDS: dict[str, tuple[UseCase, bool]] = {
    "pdf": (pdf, False),
    "abschluss": (abschluss, True),
    "vordruck": (vordruck, False),
}
