"""The Mini App's reads: a list as a paper list, a game's preview, the list's chart.

The paper list is the ``/export`` document (``json_list``) with what a paper list shows
besides: the next dealer, struck rows marked and the running sums. A preview is checked and
computed as ``/spiel`` books (``booking.game_preview``, the same parser and checks), nothing
written. No Telegram types and no HTTP here: ``skatbot.web.miniapp`` calls these.
"""

from __future__ import annotations

from skatbot.rules.errors import RuleError
from skatbot.rules.sheet import Sheet, Status
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.sheet import json_list
from skatbot.usecases.sheet.booking import game_preview
from skatbot.usecases.sheet.json_list import export_document
from skatbot.usecases.sheet.list_changes import parse_game


class NoList(RuleError):
    """The place has no list (or not the one named)."""


class OtherPlace(RuleError):
    """The list named belongs to another place."""


def list_of(session: Session, place_id: int, list_id: int) -> lists_store.LoadedList:
    """List ``list_id`` of the place (0: the running list, else the latest one)."""
    if list_id:
        lst = lists_store.get_list(session, list_id)
        if lst is None:
            raise NoList("Diese Liste gibt es nicht mehr.", hint="Bitte /app neu senden.")
        if lst.chat_id != place_id:
            raise OtherPlace("Diese Liste gehört zu einem anderen Chat.")
        return lists_store.load(session, lst)
    loaded = lists_store.open_list_loaded(session, place_id)
    if loaded is not None:
        return loaded
    latest = lists_store.latest_list(session, place_id)
    if latest is None:
        raise NoList(
            "Hier läuft noch keine Liste.", hint="Starte eine im Chat mit /neu Anna Bernd Carla."
        )
    return lists_store.load(session, latest)


def paper_list(session: Session, loaded: lists_store.LoadedList) -> dict[str, object]:
    doc = export_document(loaded)
    sheet = loaded.sheet
    running = [0] * sheet.table_size
    rows: list[dict[str, object]] = []
    for entry, game in zip(sheet.entries, _games(doc), strict=True):
        if entry.status is Status.VALID:
            for seat, pts in entry.points.items():
                running[seat] += pts
        row = dict(game)
        row["text"] = row.pop("announcement")
        row["struck"] = entry.status is not Status.VALID
        row["sums"] = dict(zip(sheet.players, running, strict=True))
        rows.append(row)
    full = sheet.games_played >= sheet.series_length
    return {
        "id": loaded.lst.id,
        "number": lists_store.list_number(session, loaded.lst),
        "status": loaded.lst.status,
        "rules": doc["rules"],
        "table_size": sheet.table_size,
        "series_length": sheet.series_length,
        "players": list(sheet.players),
        "dealer": None if full or loaded.lst.status != "open" else sheet.players[sheet.next_dealer],
        "games_played": sheet.games_played,
        "rows": rows,
        "closing": closing(sheet),
    }


def _games(doc: dict[str, object]) -> list[dict[str, object]]:
    games = doc["games"]
    assert isinstance(games, list)
    return games


def closing(sheet: Sheet) -> list[dict[str, object]]:
    """The series' closing per player in seat order (Seeger-Fabian, or house rules' points)."""
    return [{"name": name, **figures} for name, figures in json_list.totals(sheet).items()]


def preview(loaded: lists_store.LoadedList, words: list[str]) -> dict[str, object]:
    """What ``/spiel WORDS`` would book: value, points and each player's change of the
    closing score; ``RuleError`` (with the fix) where ``/spiel`` refuses."""
    if loaded.lst.status != "open":
        raise RuleError("Die Liste ist abgeschlossen.", hint="Neue Serie im Chat mit /weiter.")
    declarer, text, notes = parse_game(loaded, words)
    after = game_preview(loaded, declarer, text)
    entry = after.entries[-1]
    names = after.players
    before = {c["name"]: c["score"] for c in closing(loaded.sheet)}
    now = closing(after)
    result = entry.result
    return {
        "declarer": names[declarer],
        "text": texts.game_label(result) if result is not None else text,
        "value": result.value if result is not None else 0,
        "won": result.won if result is not None else None,
        "notes": list(notes),
        "points": {names[seat]: pts for seat, pts in entry.points.items()},
        "closing": now,
        "effect": {str(c["name"]): int(str(c["score"])) - int(str(before[c["name"]])) for c in now},
    }


def chart_png(session: Session, loaded: lists_store.LoadedList) -> bytes:
    """The running-scores picture ``/stand bild`` sends."""
    from skatbot.usecases.sheet.pictures import series_photo

    if not loaded.sheet.entries:
        raise NoList("Noch keine Spiele – noch kein Verlauf.", hint="Erst ein Spiel eintragen.")
    return series_photo(session, loaded).data
