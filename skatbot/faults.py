"""Fault points for crash tests: ``SKATBOT_FAULT=phase@update_id#n`` ends the process with
``os._exit`` (as abruptly as kill -9: no cleanup, no flush) the ``n``-th time (default 1)
the named phase is reached for that update (any update without ``@``).

Phases: ``before_commit`` (the effect is written, not committed), ``committed`` (committed,
nothing handed to the outbox), ``recorded`` (an outbox row recorded a send Telegram accepted),
``confirmed`` (a ``getUpdates`` call confirmed the update to Telegram). Unset, a fault point
costs one comparison.
"""

from __future__ import annotations

import os
import sys

EXIT_CODE = 137  # what a shell reports for kill -9
_spec: tuple[str, int | None, int] | None = None
_parsed = False
_seen = 0


def _parse() -> tuple[str, int | None, int] | None:
    raw = os.environ.get("SKATBOT_FAULT", "").strip()
    if not raw:
        return None
    raw, _, nth = raw.partition("#")
    phase, _, update = raw.partition("@")
    return phase, int(update) if update else None, int(nth) if nth else 1


def at(phase: str, update_id: int | None = None) -> None:
    """Exit here if the environment asks for a fault at ``phase`` (see the module doc)."""
    global _spec, _parsed, _seen
    if not _parsed:
        _spec, _parsed = _parse(), True
    if _spec is None or _spec[0] != phase:
        return
    if _spec[1] is not None and _spec[1] != update_id:
        return
    _seen += 1
    if _seen >= _spec[2]:
        sys.stderr.write(f"fault point {phase} (update {update_id}): exiting\n")
        sys.stderr.flush()
        os._exit(EXIT_CODE)
