"""Results put in words: a use case returns what it decided (a frozen dataclass), and its
feature's ``texts`` module registers how that reads in the chat::

    @wording.reply_of.register
    def _(result: TeamSet) -> Reply: ...

The use case's module imports its texts, so the words are registered when it is resolved."""

from __future__ import annotations

from functools import singledispatch

from skatbot.usecases.common.reply import Answer, Reply


@singledispatch
def reply_of(result: object) -> Reply | Answer:
    raise TypeError(f"no words for {type(result).__name__}: register them in its texts module")
