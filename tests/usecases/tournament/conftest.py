"""The tournament's replies are read in their text form, as a server without rich messages
(the stand-in these tests ran on before) gets them; the table form of a ranking has its own
tests (tests/handlers/test_rich_tables.py)."""

from __future__ import annotations

import pytest

from tests.harness import Harness


@pytest.fixture
def chat(chat: Harness) -> Harness:
    chat.rich_messages = False
    return chat
