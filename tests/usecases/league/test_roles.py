"""Codes that grant a league role go to the person the management names, never into the
group: a stranger who reads the group learns no code, and a code that leaked anyway is of no
use to anyone but that person. A code is single use and expires; each refusal names the fix."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from sqlalchemy import select

from skatbot.storage.league_models import LeagueTeam, MatchDay, RoleCode
from tests.harness import Harness
from tests.helpers import ok, refused

DESK = -1001
LEADER = {"user_id": 1, "name": "Gerd"}
STRANGER = {"user_id": 99, "name": "Mallory"}
STRANGER_CHAT = -3003
HOST = {"user_id": 20, "name": "Hugo"}
HOST_CHAT = -2002
FRITZ = {"user_id": 31, "name": "Fritz"}  # Süd's captain-to-be
TEAMS = (
    "/mannschaft Nord: Anna, Bernd, Carla, Dora\n"
    "Süd: Fritz, Gabi, Hans, Inge\n"
    "Ost: Karl, Lena, Max, Nina\n"
    "West: Paul, Quirin, Rosa, Susi"
)
ANY_CODE = re.compile(r"\b[KA][A-Z0-9]{7}\b")


EXAMPLES = {"K7F3Q2X9", "A7F3Q2X9"}  # the codes the hints show as examples


def codes_in(text: str) -> set[str]:
    return set(ANY_CODE.findall(text)) - EXAMPLES


def group_text(chat: Harness, chat_id: int = DESK) -> str:
    """Everything the bot ever showed in the group, as it reads now."""
    return "\n".join(m.text for (c, _), m in chat.messages.items() if c == chat_id)


async def league(chat: Harness) -> None:
    await ok(chat, "/liga Bezirksliga", **LEADER)
    await ok(chat, TEAMS, **LEADER)
    await ok(chat, "/spieltag 2 Münster", "Spieltag 2 in Münster", **LEADER)


async def test_a_stranger_who_reads_the_group_gets_no_role(chat: Harness) -> None:
    await league(chat)
    await chat.say("/start", chat_id=FRITZ["user_id"], **FRITZ)  # Fritz wrote to the bot
    await chat.say("/kapitaen Süd", chat_id=DESK, reply_to=(FRITZ["user_id"], "Fritz"), **LEADER)
    await chat.say("/ausrichter", chat_id=DESK, reply_to=(HOST["user_id"], "Hugo"), **LEADER)
    for reading in ("/mannschaft", "/liga", "/aufstellung", "/hilfe liga"):  # for everyone
        await ok(chat, reading, chat_id=DESK, **STRANGER)
    shown = group_text(chat)
    # the group learns to whom codes went, never a code
    assert codes_in(shown) == set(), shown
    assert "geht privat an Fritz" in shown and "geht privat an Hugo" in shown, shown
    # whatever the stranger copies from the group, he becomes neither host nor captain
    stranger = {"chat_id": STRANGER_CHAT, **STRANGER}
    for word in codes_in(shown) | {"AFALSCH1"}:
        await refused(chat, f"/ausrichter {word}", "👉", **stranger)
        await refused(chat, f"/kapitaen {word}", "👉", **stranger)
    await refused(chat, "/setzen", "gilt hier nicht", **stranger)
    await refused(chat, "/ergebnis Anna 999 9 0", **stranger)
    await refused(chat, "/aufstellung Süd fehlt", "Kapitän", chat_id=DESK, **STRANGER)

    # a code that leaked anyway (read over a shoulder) is bound to its person
    fritz_code = re.search(r"/kapitaen (K\w{7})", chat.last(FRITZ["user_id"]).text)
    assert fritz_code is not None
    await refused(chat, f"/kapitaen {fritz_code[1]}", "für Fritz bestimmt", "/kapitaen TEAM",
                  **stranger)  # fmt: skip
    await ok(chat, f"/kapitaen {fritz_code[1]}", "Fritz ist Kapitän von „Süd“",
             chat_id=FRITZ["user_id"], **FRITZ)  # fmt: skip
    # the real host: he never wrote to the bot, so the group got the link button
    button = chat.last(DESK, with_buttons=True)
    assert "Code abholen" in button.buttons[0][0][0] and "Hugo" in button.text
    link = button.buttons[0][0][1]
    token = re.fullmatch(r"https://t\.me/\w+\?start=(code_[\w-]+)", link)
    assert token is not None, link
    await refused(chat, f"/start {token[1]}", "für Hugo bestimmt", chat_id=99, **STRANGER)
    assert codes_in(group_text(chat, 99)) == set()
    got = await ok(chat, f"/start {token[1]}", "Ausrichter von Spieltag 2", chat_id=20, **HOST)
    host_code = re.search(r"/ausrichter (A\w{7})", got)
    assert host_code is not None
    await refused(chat, f"/ausrichter {host_code[1]}", "für Hugo bestimmt", **stranger)
    at_host = {"chat_id": HOST_CHAT, **HOST}
    await ok(chat, f"/ausrichter {host_code[1]}", "Hugo richtet hier Spieltag 2", **at_host)
    await ok(chat, "/setzen", "Serie 1", **at_host)

    def state(session: Any) -> tuple[Any, ...]:
        team = session.scalars(select(LeagueTeam).where(LeagueTeam.name == "Süd")).one()
        day = session.scalars(select(MatchDay)).one()
        return team.captain_user_id, day.host_user_id, day.host_chat_id

    assert chat.db.run_read(state) == (31, 20, HOST_CHAT)


async def test_a_code_is_single_use_and_expires(chat: Harness) -> None:
    await league(chat)
    await chat.say("/start", chat_id=FRITZ["user_id"], **FRITZ)
    fritz = {"chat_id": FRITZ["user_id"], **FRITZ}

    async def new_code() -> str:
        await ok(chat, "/kapitaen Süd", "Kapitän von „Süd“", "geht privat an Fritz",
                 reply_to=(31, "Fritz"), **LEADER)  # type: ignore[arg-type]  # fmt: skip
        found = re.search(r"/kapitaen (K\w{7})", chat.last(FRITZ["user_id"]).text)
        assert found is not None
        return found[1]

    first = await new_code()
    second = await new_code()  # a new code voids the older one
    await refused(chat, f"/kapitaen {first}", "abgelaufen oder durch einen neueren ersetzt",
                  "/kapitaen TEAM", **fritz)  # fmt: skip
    await ok(chat, f"/kapitaen {second}", "Fritz ist Kapitän", **fritz)
    await refused(chat, f"/kapitaen {second}", "schon eingelöst", "/kapitaen TEAM", **fritz)
    third = await new_code()

    def expire(session: Any) -> None:
        code = session.scalars(select(RoleCode).where(RoleCode.code == third)).one()
        code.expires_at = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)

    chat.db.run_write(expire)
    await refused(chat, f"/kapitaen {third}", "abgelaufen", "/kapitaen TEAM", **fritz)


async def test_the_leader_must_name_the_person(chat: Harness) -> None:
    await league(chat)
    await refused(chat, "/kapitaen Süd", "Wem soll ich den Code schicken", "antworten", **LEADER)
    await refused(chat, "/ausrichter", "Wem soll ich den Code schicken", **LEADER)
    await refused(chat, "/kapitaen Süd Fritz", "mit keinem Telegram-Konto verknüpft",
                  "/ich NAME", **LEADER)  # fmt: skip
    await refused(chat, "/kapitaen Süd", "verwalten Gerd", reply_to=(99, "Mallory"), **STRANGER)  # type: ignore[arg-type]
    # a name linked to an account here (/ich) names that account
    await ok(chat, "/ich Fritz", "Fritz", chat_id=DESK, **FRITZ)
    await ok(chat, "/kapitaen Süd Fritz", "geht privat an Fritz", **LEADER)
    assert codes_in(group_text(chat)) == set()
