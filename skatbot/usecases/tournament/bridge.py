"""A desk's place as a ``Command``, for the parts that still take one (the confirmation
questions of ``common.confirm``, the tables' topics of ``tournament.tables``)."""

from __future__ import annotations

from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command


def command_at(place: Place, text: str = "") -> Command:
    """The place and its asker as a ``Command``, for the parts that still take one (the
    confirmation questions, the tables' topics)."""
    asker = place.asker
    return Command(
        place_id=place.id,
        chat_title=place.title,
        user_id=asker.user_id,
        user_name=asker.name,
        update_id=asker.update_id,
        args=tuple(text.split()[1:]),
        text=text,
        message_id=asker.message_id,
        is_admin=asker.is_admin,
        source_message_id=asker.source_message_id,
        thread_id=place.thread_id,
        telegram_chat_id=place.telegram_chat_id,
        is_forum=place.is_forum,
        bot_username=place.bot_username,
        named_users=asker.named_users,
    )
