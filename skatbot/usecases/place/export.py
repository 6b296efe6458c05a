"""``/export``: the season (``/export saison``), a tournament at its desk, else the list of a
table as JSON (with its stake's money when one is set)."""

from __future__ import annotations

import json

from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Document, Reply
from skatbot.usecases.money import stakes
from skatbot.usecases.place.words import Words, command_at
from skatbot.usecases.season.season_table import export_saison
from skatbot.usecases.sheet.list_changes import export_document, picked_list
from skatbot.usecases.tournament import desk as tournament_desk


def _season(words: Words) -> bool:
    return bool(words.words) and words.words[0].casefold() == "saison"


def export_at_desk(session: Session, place: Place, request: Words) -> Reply:
    """At a Preisskat desk: the season, else the tournament (``/export turnier N``)."""
    cmd = command_at(place, "export", request.words)
    if _season(request):
        return export_saison(session, cmd)
    return tournament_desk.export(session, cmd)


def export(session: Session, place: Place, request: Words) -> Reply:
    """Away from a desk: the season, else the list (``/export N``: list N)."""
    cmd = command_at(place, "export", request.words)
    if _season(request):
        return export_saison(session, cmd)
    lst, _words, head = picked_list(session, cmd)
    loaded = lists_store.load(session, lst)
    data = export_document(loaded)
    stakes.add_export_money(session, loaded, data)  # "money" when a stake is set
    raw = json.dumps(data, ensure_ascii=False, indent=2).encode()
    doc = Document("skatbot-liste-v1.json", raw, "Liste als JSON (skatbot-liste/1)")
    said = f"📎 Export der Liste ({texts.games(loaded.sheet.games_played)})."
    return Reply(f"{head}\n{said}" if head else said, documents=(doc,))
