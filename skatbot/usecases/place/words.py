"""The words of a place command, for the code it hands on that still reads a ``Command``
(the sheet's list picking, a desk's export, the confirmations): rebuilt from the place and
the request, so that the use case itself reads only its place and its request."""

from __future__ import annotations

from dataclasses import dataclass

from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command


@dataclass(frozen=True)
class Words:
    """A request that is the command's words as typed (what they mean is decided further on,
    by the code they are handed to)."""

    words: tuple[str, ...]


def words(cmd: Command) -> Words:
    return Words(cmd.args)


def command_at(
    place: Place, name: str, words: tuple[str, ...] = (), *, text: str | None = None
) -> Command:
    """``/name words`` as sent by the place's asker (``text``: as typed, without a bot's
    @name, since the code it is handed to names ``/name`` in its hints; a button's data)."""
    asker = place.asker
    return Command(
        place_id=place.id,
        chat_title=place.title,
        user_id=asker.user_id,
        user_name=asker.name,
        update_id=asker.update_id,
        args=words,
        text=" ".join((f"/{name}", *words)) if text is None else text,
        message_id=asker.message_id,
        is_admin=asker.is_admin,
        source_message_id=asker.source_message_id,
        thread_id=place.thread_id,
        telegram_chat_id=place.telegram_chat_id,
        is_forum=place.is_forum,
        bot_username=place.bot_username,
        named_users=asker.named_users,
    )
