"""Which messages look like a command: the filter of the route that answers typos
(``typos.on_unknown_command``), apart from it so that the route table needs no handler."""

from __future__ import annotations

import re

from telegram.ext import filters

# "/stnad", also "/öffnen" (Telegram marks no command there: only a-z, 0-9 and _ make one).
LOOKS_LIKE_COMMAND = re.compile(r"^/[^\s/]")
COMMAND_LIKE = filters.TEXT & filters.Regex(LOOKS_LIKE_COMMAND)
