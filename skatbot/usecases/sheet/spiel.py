"""``/spiel``: enter a game.

With words it is the text grammar: ``/spiel Anna grand ohne 1 hand gewonnen`` parses the
declarer and the game and books it (``booking.book_game``); ``/spiel passe`` is
``/eingepasst``. Without words it opens the button builder (``builder.commands.open_builder``),
whose "Eintragen" books through the same ``book_game``. The builder never imports this module:
the route of ``/spiel`` (handlers/routes.py) names this one.

The hot path: the runtime has locked the place and the route decided its kind; this reads
the open list once (with its players and the chat's settings) and books.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from skatbot.storage.unit import Session
from skatbot.usecases.common import keyboards
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply, error_text
from skatbot.usecases.sheet import texts
from skatbot.usecases.sheet.booking import book_game
from skatbot.usecases.sheet.builder.flow import open_builder
from skatbot.usecases.sheet.list_changes import (
    PASS_WORDS,
    MissingName,
    PassRound,
    eingepasst,
    parse_game,
)
from skatbot.usecases.sheet.lists import require_list

BUILDER_LABEL = "Mit Knöpfen eintragen"
APP_LABEL = "📱 In der Mini App eintragen"


@dataclass(frozen=True)
class OpenBuilder:
    """/spiel without words: the buttons."""


@dataclass(frozen=True)
class EnterGame:
    """/spiel NAME GAME …: the words (the name is looked up among the list's players)."""

    words: tuple[str, ...]


def parse(cmd: Command) -> OpenBuilder | PassRound | EnterGame:
    words = cmd.args
    if not words:
        return OpenBuilder()
    if len(words) == 1 and words[0].casefold() in PASS_WORDS:
        return PassRound()
    return EnterGame(words)


def spiel(
    session: Session, place: Place, request: OpenBuilder | PassRound | EnterGame
) -> Reply | texts.Passed:
    if isinstance(request, OpenBuilder):
        reply = open_builder(session, place)
        if not place.app_ready:
            return reply
        # the same game in the Mini App's form (gone once the builder's first tap redraws it)
        app = (keyboards.app_button(place.thread_id, label=APP_LABEL),)
        return dataclasses.replace(reply, buttons=(*reply.buttons, app))
    if isinstance(request, PassRound):
        return eingepasst(session, place, request)
    loaded = require_list(session, place)
    loaded.sheet.check_can_add()
    try:
        declarer, text, notes = parse_game(loaded, list(request.words))
    except MissingName as err:
        # Nothing was written: the refusal comes with the builder's button.
        return Reply(
            error_text(err), buttons=(((BUILDER_LABEL, keyboards.NEW_GAME),),), refusal=True
        )
    return book_game(session, place, loaded, declarer, text, notes)
