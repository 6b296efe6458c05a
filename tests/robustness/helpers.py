"""Moved to tests/helpers.py (the one place for shared test helpers); re-exported here so
that tests importing this module keep working."""

from tests.helpers import export_raw, game_rows, ok

__all__ = ["export_raw", "game_rows", "ok"]
