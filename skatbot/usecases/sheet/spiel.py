"""``/spiel``: enter a game.

With words it is the text grammar: ``/spiel Anna grand ohne 1 hand gewonnen`` parses the
declarer and the game and books it (``booking.book_game``); ``/spiel passe`` is
``/eingepasst``. Without words it opens the button builder (``builder.commands.open_builder``),
whose "Eintragen" books through the same ``book_game``. The builder never imports this module:
the route of ``/spiel`` (handlers/routes.py) names this one.
"""

from __future__ import annotations

from skatbot.storage.database import lock_chat
from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards
from skatbot.usecases.common.reply import Command, Reply, error_text
from skatbot.usecases.sheet.booking import book_game
from skatbot.usecases.sheet.builder.commands import open_builder
from skatbot.usecases.sheet.commands import PASS_WORDS, MissingName, eingepasst, parse_game
from skatbot.usecases.sheet.lists import require_list

BUILDER_LABEL = "Mit Knöpfen eintragen"


def spiel(session: Session, cmd: Command) -> Reply:
    words = list(cmd.args)
    if not words:
        return open_builder(session, cmd)
    if len(words) == 1 and words[0].casefold() in PASS_WORDS:
        return eingepasst(session, cmd)
    lock_chat(session, cmd.place_id)
    loaded = require_list(session, cmd)
    loaded.sheet.check_can_add()
    try:
        declarer, text, notes = parse_game(loaded, words)
    except MissingName as err:
        # Nothing was written: the refusal comes with the builder's button.
        return Reply(
            error_text(err), buttons=(((BUILDER_LABEL, keyboards.NEW_GAME),),), refusal=True
        )
    return book_game(session, cmd, loaded, declarer, text, notes)
