"""The only place with SQL. One module per feature, named after the feature.

- ``<feature>.py`` holds a feature's queries and, when they are small, its tables too:
  builders, chats, message_links, money, outbox, own_data, people, topic_places, place_facts, table_lists, season, stats,
  tournament_teams.
- ``<feature>_models.py`` holds a feature's tables where tables and queries together would be
  too long to read in one sitting; its queries stay in ``<feature>.py``: lists (a chat, its
  lists, players, rows, processed updates), tournament, league.
- ``base.py`` is the declarative ``Base`` every table derives from, with the column helpers
  (``str_enum``, ``utc_now``); ``schema.metadata()`` imports every module that declares
  tables, for Alembic and for creating a fresh database.
- The machinery has no feature: database (engine, sessions, chat locks), unit (the unit of
  work's Session type), prepared (cached Core statements), sheet_cache, settings (a chat's
  settings JSON), migrate and migrations/ (Alembic; the scripts are never renamed or edited).

Modules are imported as modules (``from skatbot.storage import lists as lists_store``) or by name
(``from skatbot.storage.lists_models import SheetList``)."""
