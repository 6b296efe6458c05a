"""``/export``: the season (``/export saison``), a tournament at its desk, else the list of a
table as JSON (with its stake's money when one is set)."""

from __future__ import annotations

import json

from skatbot.storage import lists as lists_store
from skatbot.storage.tournament import tournament_of
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.reply import Command, Document, Reply
from skatbot.usecases.money import stakes
from skatbot.usecases.season.commands import export_saison
from skatbot.usecases.sheet.commands import export_document, picked_list
from skatbot.usecases.tournament import desk as tournament_desk


def export(session: Session, cmd: Command) -> Reply:
    if cmd.args and cmd.args[0].casefold() == "saison":
        return export_saison(session, cmd)
    if tournament_of(session, cmd.place_id) is not None:
        return tournament_desk.export(session, cmd)
    lst, _words, head = picked_list(session, cmd)
    loaded = lists_store.load(session, lst)
    data = export_document(loaded)
    stakes.add_export_money(session, loaded, data)  # "money" when a stake is set
    raw = json.dumps(data, ensure_ascii=False, indent=2).encode()
    doc = Document("skatbot-liste-v1.json", raw, "Liste als JSON (skatbot-liste/1)")
    said = f"📎 Export der Liste ({texts.games(loaded.sheet.games_played)})."
    return Reply(f"{head}\n{said}" if head else said, documents=(doc,))
