"""Who is who: the person behind a name on a list (issue 17, part 1).

PLACEHOLDER of branch issue-17b (statistics): matching by spelling only. The real version
(links to Telegram accounts, merged spellings) comes from branch issue-17 and replaces this
file at merge; statistics call only ``resolve_people``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session


@dataclass(frozen=True)
class Person:
    key: str  # identifies the person within the place (equal keys: the same person)
    name: str  # how the person is shown


def resolve_people(session: Session, place_id: int) -> Callable[[str], Person]:
    """A function from a name as written on a list of ``place_id`` to its person.

    Here: by spelling (case-insensitive); the name shown is the spelling given."""

    def resolve(name: str) -> Person:
        return Person(key=name.casefold(), name=name)

    return resolve
