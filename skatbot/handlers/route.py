"""What one route of the route table is (``Route``, its ``Kind``, a ``Lazy`` use case).

The table itself is ``routes.ROUTES``. The record lives apart from it because the table
imports the handlers it names, while the application's state (``bot_state.BotState``, which
every handler's context carries) holds the routes: the record must not need the handlers.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from telegram.ext.filters import BaseFilter

from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Answer, Command, Reply
from skatbot.usecases.common.serving import Target, serve

# A use case run by the runtime: a command's (``runtime.execute``) and a button's
# (``runtime.execute_callback``).
UseCase = Callable[[Session, Command], Reply]
CallbackUseCase = Callable[[Session, Command], Answer]

# A PTB callback: for routes that are Telegram glue themselves (status updates, the builder's
# buttons, and /anheften, which sends and pins before it writes).
Callback = Callable[..., Coroutine[Any, Any, None]]


class Kind(Enum):
    COMMAND = "command"  # /name (CommandHandler)
    CALLBACK = "callback"  # a button: callback data matching ``pattern``
    MESSAGE = "message"  # a message ``filter`` (MessageHandler)
    MY_CHAT_MEMBER = "my_chat_member"  # the bot's own membership changed
    INLINE = "inline"  # "@bot grand ohne 1 hand"
    POLL_ANSWER = "poll_answer"  # a vote in one of the bot's polls


# Write ``HIDDEN`` as a command's menu text to keep it out of the menu (an alias, /start).
HIDDEN: Final = None


@dataclass(frozen=True)
class Route:
    kind: Kind
    name: str  # the command; for other kinds a label (logs, tests)
    # a use case (commands, buttons), named (``Lazy``) or itself, or a PTB callback
    # a route declared by place kind (``Target``s: parser, use case, right), or the older forms
    run: Lazy | UseCase | CallbackUseCase | Callback | tuple[Target, ...]
    menu: str | None = HIDDEN  # the menu text of a command
    write: bool = False  # commands; a button's use case always runs in a write transaction
    admin: bool = False
    heavy: bool = False  # run in a worker thread (commands and buttons)
    # commands: a read whose answer is always a document (PDF, JSON, picture), so
    # ``fairness`` shares it within the chat (repeat note, member rate, pending documents)
    document: bool = False
    editable: bool = False  # commands: an edit of the message corrects its booking
    # commands: declared ``is_ephemeral`` in the menu (Bot API 10.2), so a member can ask it
    # for themselves alone; its replies that say ``for_asker`` go to them (docs/ephemeral.md)
    ephemeral: bool = False
    pattern: str | None = None  # CALLBACK: regex matched at the start of the data
    filter: BaseFilter | None = None  # MESSAGE
    group: int = 0  # PTB handler group; -1 runs before everything and may stop an update
    updates: tuple[str, ...] = ("message",)  # the update types this route needs

    @property
    def is_use_case(self) -> bool:
        """A sync use case run by ``runtime.execute`` (commands) or ``runtime.execute_callback``
        (buttons); else ``run`` is a PTB callback."""
        return isinstance(self.run, (Lazy, tuple)) or not inspect.iscoroutinefunction(self.run)

    @property
    def targets(self) -> tuple[Target, ...]:
        """The place kinds a declared route serves, one target each (else ``()``)."""
        return self.run if isinstance(self.run, tuple) else ()

    @property
    def asks_admin(self) -> bool:
        """Whether Telegram is asked if the sender is a chat admin (before the transaction)."""
        return self.admin or any(r.asks_admin for t in self.targets for r in t.rights)

    @property
    def use_case(self) -> Any:
        """The use case function of a command or button route (imported at the first call)."""
        if isinstance(self.run, tuple):
            found = _SERVED.get(self.name + self.kind.value)
            if found is None:
                found = _SERVED[self.name + self.kind.value] = serve(
                    self.name, self.run, button=self.kind is Kind.CALLBACK
                )
            return found
        return self.run.resolve() if isinstance(self.run, Lazy) else self.run


_SERVED: dict[str, Any] = {}


@dataclass(frozen=True)
class Lazy:
    """The use case ``"module:function"`` of ``skatbot.usecases``, imported at its first use,
    so that a bot start imports no use case at all (it polls sooner; the first update pays
    the import once). The runtime calls the function itself: nothing wraps it.
    tests/handlers/test_routes.py resolves every one."""

    target: str

    @property
    def path(self) -> str:
        """``"skatbot.usecases.module:function"``."""
        return f"skatbot.usecases.{self.target}"

    def resolve(self) -> Callable[[Session, Command], Any]:
        found = _RESOLVED.get(self.target)
        if found is None:
            module, _, name = self.path.partition(":")
            found = _RESOLVED[self.target] = getattr(importlib.import_module(module), name)
        return found


_RESOLVED: dict[str, Callable[[Session, Command], Any]] = {}
