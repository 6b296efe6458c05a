"""A table's list, one lifecycle for the Preisskat's tables and the league's: linked by its
code (``/tisch CODE``) in the table's own chat, played, closed, reported to the desk. Each
kind supplies what differs (``lifecycle.Side``): ``tournament.tables`` and ``league.tables``."""
