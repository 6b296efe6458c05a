"""/darstellung text|tabelle: how a place wants the list and the standings shown.

The route declares where it works and who may (everyone); this module parses and decides."""

from __future__ import annotations

import dataclasses

from skatbot.rules.errors import RuleError
from skatbot.storage import chats
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.common.rich import DISPLAYS, TABLE, TEXT, wants_tables

USAGE = "/darstellung tabelle (Liste und Stand als Tabelle) oder /darstellung text"


@dataclasses.dataclass(frozen=True)
class ShowDisplay:
    pass


@dataclasses.dataclass(frozen=True)
class SetDisplay:
    display: str  # TABLE or TEXT


def parse(cmd: Command) -> ShowDisplay | SetDisplay:
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ShowDisplay()
    if len(words) != 1 or words[0] not in DISPLAYS:
        raise RuleError(f"Die Darstellung „{' '.join(cmd.args)}“ kenne ich nicht.", hint=USAGE)
    return SetDisplay(words[0])


def darstellung(session: Session, place: Place, request: ShowDisplay | SetDisplay) -> Reply:
    if isinstance(request, ShowDisplay):
        now = TABLE if wants_tables(chats.settings_of(session, place.id)) else TEXT
        return Reply(f"Darstellung hier: {now}. Ändern: {USAGE}")
    choice = request.display
    chats.update_settings(session, place.id, lambda s: dataclasses.replace(s, display=choice))
    if choice == TABLE:
        return Reply(
            "✅ Liste und Stand kommen hier als Tabelle (wo Telegram das kann, sonst als Text)."
        )
    return Reply("✅ Liste und Stand kommen hier als Text.")


def default_display(session: Session, chat_id: int, display: str) -> None:
    """Give ``chat_id`` the display ``display`` unless it chose one (the console starts in
    text form; ``/darstellung tabelle`` shows its tables as aligned columns)."""
    chats.update_settings(
        session, chat_id, lambda s: s if s.display else dataclasses.replace(s, display=display)
    )
