"""Native polls as the stand-ins' ``BotApi`` keeps them: sendPoll, stopPoll, the members' votes
(``poll_answer`` updates) and polls that close at their time.

Read as the Bot API documents sendPoll: a question of 1-300 characters, 1-12 options of 1-100
characters (2-12 before 10.0), ``open_period`` up to 2,628,000 s (9.6; 600 before) or a
``close_date`` 5 s to 2,628,000 s ahead, not both; ``allows_revoting`` (9.6) "defaults to
False for quizzes and to True for regular polls"; ``members_only`` (10.0) limits voting to
members of more than 24 hours, "for channel chats only" - in a group the stand-in ignores it
and lists it in ``BotApi.ignored_params`` (the docs do not say what a group does with it; a
"for … only" parameter elsewhere, ``message_thread_id``, is ignored outside forums). Before
their versions both are unknown and ignored. Error texts follow the Bot API server where it
has one, else the stand-in's own.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from skatbot.standin.records import bad_request
from skatbot.standin.versions import API_9_6, API_10_0

__all__ = ["PollState", "read_poll"]

MAX_QUESTION = 300
MAX_OPTION = 100
MAX_OPTIONS = 12
MAX_PERIOD = 2_628_000
OLD_MAX_PERIOD = 600


@dataclass
class PollState:
    """One poll the bot sent, as it is now."""

    poll_id: str
    chat_id: int
    message_id: int
    question: str
    options: list[str]
    is_anonymous: bool
    allows_multiple_answers: bool
    allows_revoting: bool
    members_only: bool
    close_at: float | None = None
    """The stand-in's clock when it closes by itself (``open_period``/``close_date``)."""
    open_period: int | None = None
    close_date: int | None = None
    closed: bool = False
    votes: dict[int, list[int]] = field(default_factory=dict)
    """Each voter's chosen option indexes."""

    def obj(self, version: tuple[int, int]) -> dict[str, Any]:
        """The ``Poll`` object as a server of ``version`` sends it."""
        counts = [0] * len(self.options)
        for chosen in self.votes.values():
            for index in chosen:
                counts[index] += 1
        poll: dict[str, Any] = {
            "id": self.poll_id,
            "question": self.question,
            "options": [
                {"text": text, "voter_count": count, "persistent_id": str(i)}
                for i, (text, count) in enumerate(zip(self.options, counts, strict=True))
            ],
            "total_voter_count": sum(1 for chosen in self.votes.values() if chosen),
            "is_closed": self.closed,
            "is_anonymous": self.is_anonymous,
            "type": "regular",
            "allows_multiple_answers": self.allows_multiple_answers,
        }
        if version >= API_9_6:
            poll["allows_revoting"] = self.allows_revoting
        if version >= API_10_0:
            poll["members_only"] = self.members_only
        if self.open_period is not None:
            poll["open_period"] = self.open_period
        if self.close_date is not None:
            poll["close_date"] = self.close_date
        return poll


def _bad(description: str) -> Exception:
    return bad_request(description)


def _flag(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.lower() in ("true", "1"))


def _options(raw: Any) -> list[str]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise _bad("can't parse options JSON object") from None
    if not isinstance(raw, list):
        raise _bad("expected an Array of poll options")
    texts = []
    for option in raw:
        text = option.get("text") if isinstance(option, dict) else option
        if not isinstance(text, str):
            raise _bad("can't parse InputPollOption")
        texts.append(text)
    return texts


def read_poll(
    params: dict[str, Any],
    version: tuple[int, int],
    ignored: list[tuple[str, str]],
    *,
    channel: bool,
    now: float,
) -> PollState:
    """A sendPoll's parameters as a server of ``version`` reads them (``poll_id``,
    ``chat_id`` and ``message_id`` still to be set); ``ApiError`` for what it refuses."""
    question = str(params.get("question") or "")
    if not question.strip():
        raise _bad("poll question must be non-empty")
    if len(question) > MAX_QUESTION:
        raise _bad("poll question length must not exceed 300")
    options = _options(params.get("options"))
    fewest = 1 if version >= API_10_0 else 2
    if not fewest <= len(options) <= MAX_OPTIONS:
        raise _bad(f"poll must have {fewest}-12 options")
    if any(not 1 <= len(option.strip()) <= MAX_OPTION for option in options):
        raise _bad("poll options length must not exceed 100")
    if str(params.get("type") or "regular") != "regular":
        raise _bad("the stand-in plays regular polls only")
    allows_revoting = True
    if "allows_revoting" in params:
        if version >= API_9_6:
            allows_revoting = _flag(params["allows_revoting"])
        else:
            ignored.append(("sendPoll", "allows_revoting"))
    members_only = False
    if "members_only" in params:
        if version >= API_10_0 and channel:
            members_only = _flag(params["members_only"])
        else:
            ignored.append(("sendPoll", "members_only"))
    poll = PollState(
        poll_id="",
        chat_id=0,
        message_id=0,
        question=question,
        options=options,
        is_anonymous=_flag(params.get("is_anonymous", True)),
        allows_multiple_answers=_flag(params.get("allows_multiple_answers")),
        allows_revoting=allows_revoting,
        members_only=members_only,
    )
    period, date = params.get("open_period"), params.get("close_date")
    if period and date:
        raise _bad("can't use open_period together with close_date")
    longest = MAX_PERIOD if version >= API_9_6 else OLD_MAX_PERIOD
    if period:
        if not isinstance(period, int) or not 5 <= period <= longest:
            raise _bad("wrong open period specified")
        poll.open_period, poll.close_at = period, now + period
    if date:
        ahead = int(date) - int(time.time()) if isinstance(date, int) else -1
        if not 5 <= ahead <= longest:
            raise _bad("wrong close date specified")
        poll.close_date, poll.close_at = int(date), now + ahead
    return poll
