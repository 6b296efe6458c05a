"""A list as the ``skatbot-liste/1`` JSON of docs/rules.md §11 (``/export``)."""

from __future__ import annotations

from skatbot.rules.sheet import Entry, Sheet
from skatbot.storage import lists as lists_store
from skatbot.usecases.common import texts


def export_document(loaded: lists_store.LoadedList) -> dict[str, object]:
    """The ``skatbot-liste/1`` JSON of docs/rules.md §11 (house lists: points as booked, Ramsch too)."""
    sheet = loaded.sheet
    doc: dict[str, object] = {
        "format": "skatbot-liste/1",
        "rules": "isko" if sheet.house is None else "haus",
        "players": list(sheet.players),
        "table_size": sheet.table_size,
        "series_length": sheet.series_length,
        "status": loaded.lst.status,
        "games": [_game(sheet, e) for e in sheet.entries],
        "totals": totals(sheet),
    }
    if sheet.house is not None:
        doc["house"] = {
            "runde": "geberrunde" if sheet.house.dealing_round else "spiel",
            "state": sheet.state.label(),
        }
    return doc


def _game(sheet: Sheet, e: Entry) -> dict[str, object]:
    names = sheet.players
    r = e.result
    declarer = names[e.row.declarer] if r is not None and e.row.declarer is not None else None
    game: dict[str, object] = {
        "nr": e.nr,
        "kind": e.row.kind.value,
        "dealer": names[e.row.dealer or 0],
        "declarer": declarer,
        "announcement": texts.game_label(r) if r else None,
        "bid": r.announcement.bid if r else None,
        "value": r.value if r else 0,
        "won": r.won if r else None,
        "overbid": r.overbid if r else False,
        "status": e.status.value,
        "points": {names[seat]: pts for seat, pts in e.points.items()},
    }
    if e.ramsch is not None:
        game["announcement"] = e.ramsch.text(names)
        game["value"] = max((abs(p) for p in e.points.values()), default=0)
    if e.house is not None:
        game["bock"] = e.house.bock
        game["trigger"] = e.house.trigger
        # the sick player's Grand Hand in a Ramsch phase (/krank): who was sick
        game["sick"] = declarer if e.house.sick_game else None
    return game


def totals(sheet: Sheet) -> dict[str, dict[str, int]]:
    """Each player's closing figures by name, in seat order (Seeger-Fabian, or house
    rules' points): the export's and the Mini App's."""
    if sheet.house is None:
        return {
            t.name: {
                "game_points": t.game_points,
                "won": t.won,
                "lost": t.lost,
                "opponents_lost": t.opponents_lost,
                "score": t.score,
            }
            for t in sheet.totals()
        }
    return {
        t.name: {
            "start_points": t.start,
            "game_points": t.points,
            "won": t.won,
            "lost": t.lost,
            "score": t.score,
        }
        for t in sheet.house_totals()
    }
