"""A chat's settings (``chats.settings``, JSON text): parsed and written here and nowhere else.

``ChatSettings`` is a frozen value; a change is a new value written back by
``storage.chats.update_settings`` (read, change, write under the chat's row lock). Keys this
version does not know (a newer feature's) are kept as they are in ``other``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from skatbot.rules.season import Counting, SeasonRules

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _season(value: Any) -> SeasonRules | None:
    if not isinstance(value, dict):
        return None
    try:
        counting = Counting(value.get("counting", "summe"))
    except ValueError:
        counting = Counting.SUM
    minimum, best = _int(value.get("minimum")), _int(value.get("best"))
    return SeasonRules(
        counting=counting,
        minimum=minimum if minimum is not None and minimum >= 1 else 1,
        best=best if best is not None and best >= 1 else None,
        lantern=value.get("lantern") is True,
    )


@dataclass(frozen=True)
class ChatSettings:
    """What a chat (a place) has set, besides its rules column."""

    rules: str | None = None  # the /regeln code last chosen (the chats.rules column counts)
    pinned_standings: int | None = None  # the message /anheften keeps up to date
    season: SeasonRules | None = None  # /saisonregeln (None: the defaults)
    display: str | None = None  # /darstellung: "text" or "tabelle" (None: tables)
    other: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False)

    @classmethod
    def parse(cls, raw: str | None) -> ChatSettings:
        """The settings stored as ``raw``; broken JSON or values of the wrong type read as
        unset (never an error: a chat must keep working)."""
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            return cls()
        known = {f.name for f in dataclasses.fields(cls)} - {"other"}
        return cls(
            rules=_str(data.get("rules")),
            pinned_standings=_int(data.get("pinned_standings")),
            season=_season(data.get("season")),
            display=_str(data.get("display")),
            other=MappingProxyType({k: v for k, v in data.items() if k not in known}),
        )

    def dump(self) -> str:
        data = dict(self.other)
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, SeasonRules):
                value = {
                    "counting": value.counting.value,
                    "minimum": value.minimum,
                    "best": value.best,
                    "lantern": value.lantern,
                }
            if f.name != "other" and value is not None:
                data[f.name] = value
        return json.dumps(data)
