"""The whole schema as one MetaData: every module that declares tables, imported together.

Used by Alembic's env.py (autogenerate, migrations) and by migrate.py to create a fresh
database at the head revision in one step."""

from __future__ import annotations

from sqlalchemy import MetaData


def metadata() -> MetaData:
    import skatbot.storage.builders
    import skatbot.storage.claims
    import skatbot.storage.game_nights
    import skatbot.storage.league_models
    import skatbot.storage.lists_models
    import skatbot.storage.live_pages
    import skatbot.storage.message_links
    import skatbot.storage.money
    import skatbot.storage.outbox
    import skatbot.storage.people
    import skatbot.storage.questions_models
    import skatbot.storage.topic_places
    import skatbot.storage.tournament_models  # noqa: F401
    from skatbot.storage.base import Base

    return Base.metadata
