"""Codes that grant a role go to one person, never into a group.

The management names the person at its desk - by answering a message of theirs, by picking
them in a text mention, or by a name linked to their account there (/ich) - and the bot sends
the code privately. A bot may not write first to someone who never wrote to it; then the
group gets a link button "Code abholen" (``t.me/<bot>?start=code_<token>``) that shows the
code only to the person named (the /start in the private chat checks the account). The group
sees to whom a code went, never the code.

A code (``storage.league_models.RoleCode``) is bound to that account, valid once and until it
expires; a newer code for the same role voids the older ones.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from dataclasses import dataclass
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.storage import league as league_store
from skatbot.storage import topic_places
from skatbot.storage.base import utc_now
from skatbot.storage.league_models import League, LeagueTeam, MatchDay, RoleCode
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Post, Reply
from skatbot.usecases.league.common import date_text, day_label, new_code
from skatbot.usecases.people import persons

CAPTAIN = "captain"
HOST = "host"
CODE_DAYS = 7  # a captain's code is valid this long; a host's at least until its day is over
TOKEN_PREFIX = "code_"  # /start code_<token> in the private chat (the deep link)
TOKEN_DATA = re.compile(r"code_([A-Za-z0-9_-]{16,32})")
FETCH_LABEL = "🔑 Code abholen"
CAPTAIN_CODE = re.compile(r"K[A-Z0-9]{7}")
HOST_CODE = re.compile(r"A[A-Z0-9]{7}")


@dataclass(frozen=True)
class Named:
    """The person a code is for: their account and the name to show."""

    user_id: int
    name: str


def named_person(session: Session, place: Place, words: str, example: str) -> Named:
    """Whom the management means: the author of the answered message, a text mention, or
    ``words`` as a name linked to an account here (/ich). Refused with the ways to name
    someone otherwise."""
    for user_id, name in place.asker.named_users:
        if user_id > 0:
            return Named(user_id, name or "?")
    if words:
        d = persons.directory(session, place.id)[0]
        root = d.stored(words)
        holder = d.account(root) if root is not None else None
        if holder is not None and holder.user_id is not None:
            shown = d.book.people[root].name if root is not None else words
            account = holder.user_name or ""
            label = f"{shown} ({account})" if account and account != shown else shown
            return Named(holder.user_id, label)
        raise RuleError(
            f"„{words[:32]}“ ist hier mit keinem Telegram-Konto verknüpft – wem soll ich den "
            "Code schicken?",
            hint=f"Auf eine Nachricht der Person antworten mit {example} – oder sie schreibt "
            "hier erst /ich NAME.",
        )
    raise RuleError(
        "Wem soll ich den Code schicken? Ich schicke ihn nur dieser Person, privat.",
        hint=f"Auf eine Nachricht der Person antworten mit {example}.",
    )


def _aware(moment: dt.datetime) -> dt.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def _new_role_code(
    session: Session,
    place: Place,
    league: League,
    person: Named,
    *,
    team: LeagueTeam | None = None,
    day: MatchDay | None = None,
) -> RoleCode:
    now = utc_now()
    expires = now + dt.timedelta(days=CODE_DAYS)
    if day is not None and day.play_date is not None:
        day_over = dt.datetime.combine(day.play_date + dt.timedelta(days=1), dt.time(), dt.UTC)
        expires = max(expires, day_over)
    while True:
        code = new_code("K" if team is not None else "A")
        token = secrets.token_urlsafe(12)  # 96 bits: the link cannot be guessed
        if not league_store.role_codes_taken(session, code, token):
            break
    return league_store.add_role_code(
        session,
        code=code,
        token=token,
        role=CAPTAIN if team is not None else HOST,
        league_id=league.id,
        team_id=team.id if team is not None else None,
        day_id=day.id if day is not None else None,
        for_user_id=person.user_id,
        for_name=person.name[:128],
        created_by=place.asker.user_id,
        created_at=now,
        expires_at=expires,
    )


def _expiry_text(code: RoleCode) -> str:
    return date_text(_aware(code.expires_at).date())


def code_text(session: Session, code: RoleCode) -> str:
    """The private message with the code: what it makes the person and how to use it."""
    league = league_store.league_by_id(session, code.league_id)
    by = f" ({escape(league.created_by_name)})" if league.created_by_name else ""
    until = _expiry_text(code)
    if code.role == CAPTAIN and code.team_id is not None:
        team = league_store.team_by_id(session, code.team_id)
        team_name = escape(team.name) if team is not None else "?"
        return (
            f"🔑 Die Ligaleitung von „{escape(league.name)}“{by} macht dich zum Kapitän von "
            f"„{team_name}“.\nSchick mir hier (oder im Chat der Liga): "
            f"<code>/kapitaen {code.code}</code>\n"
            f"Der Code gilt nur für dich, einmal, bis {until}. Bitte nicht weitergeben."
        )
    day = league_store.day_by_id(session, code.day_id) if code.day_id is not None else None
    when = date_text(day.play_date) if day is not None else "?"
    label = day_label(day) if day is not None else "einem Spieltag"
    return (
        f"🔑 Die Ligaleitung von „{escape(league.name)}“{by} macht dich zum Ausrichter von "
        f"{label} am {when}.\nSchick am {when} im Chat, in dem ihr den Spieltag "
        f"führt (eine Gruppe mit mir): <code>/ausrichter {code.code}</code>\n"
        "Der Code gilt nur für dich und nur einmal. Bitte nicht weitergeben."
    )


def send_code(session: Session, place: Place, code: RoleCode, what: str) -> Reply:
    """The desk's answer: who gets the code; the code itself goes privately to that person,
    and if Telegram refuses (they never wrote to the bot), the desk gets the link button."""
    who = escape(code.for_name or "?")
    private = Reply(code_text(session, code))
    if place.bot_username:
        link = f"https://t.me/{place.bot_username}?start={TOKEN_PREFIX}{code.token}"
        fallback = Reply(
            f"📭 {who} hat mir noch nie privat geschrieben – zuerst schreiben darf ich nicht.\n"
            f"👉 {who} tippt auf „{FETCH_LABEL}“: dann bekommt {who} den Code privat "
            "(nur diese Person, für andere gilt der Knopf nicht).",
            buttons=(((FETCH_LABEL, link),),),
        )
    else:
        fallback = Reply(
            f"📭 {who} hat mir noch nie privat geschrieben – zuerst schreiben darf ich nicht.\n"
            f"👉 {who} schreibt mir privat /start, dann hier noch einmal denselben Befehl."
        )
    chat, thread = _origin(session, place)
    private = Reply(private.text, instead=Post(chat, thread, fallback))
    return Reply(
        f"🔑 {what}: der Code geht privat an {who} – nur {who} kann ihn einlösen, einmal, "
        f"bis {_expiry_text(code)}.",
        posts=(Post(code.for_user_id, 0, private),),
    )


def _origin(session: Session, place: Place) -> tuple[int, int]:
    if place.telegram_chat_id:
        return place.telegram_chat_id, place.thread_id
    return topic_places.telegram_of(session, place.id)


def hand_out_captain(
    session: Session, place: Place, league: League, team: LeagueTeam, words: str
) -> Reply:
    person = named_person(session, place, words, f"/kapitaen {team.name}")
    code = _new_role_code(session, place, league, person, team=team)
    return send_code(session, place, code, f"Kapitän von „{escape(team.name)}“")


def hand_out_host(
    session: Session, place: Place, league: League, day: MatchDay, words: str
) -> Reply:
    person = named_person(session, place, words, "/ausrichter")
    code = _new_role_code(session, place, league, person, day=day)
    return send_code(session, place, code, f"Ausrichter von {day_label(day)}")


def redeem(session: Session, place: Place, typed: str, role: str) -> RoleCode:
    """The code ``typed`` for ``role``, checked for this sender (bound, unused, valid) and
    marked used; every other case is refused with the way to a new code."""
    renew = (
        "Einen neuen Code schickt dir die Ligaleitung: /kapitaen TEAM (als Antwort auf eine "
        "Nachricht von dir)."
        if role == CAPTAIN
        else "Einen neuen Code schickt dir die Ligaleitung: /ausrichter (als Antwort auf eine "
        "Nachricht von dir)."
    )
    what = "Kapitäns-Code" if role == CAPTAIN else "Ausrichter-Code"
    code = league_store.role_code(session, typed) if len(typed) <= 16 else None
    if code is None or code.role != role:
        raise RuleError(f"Den {what} „{escape(typed[:16])}“ kenne ich nicht.", hint=renew)
    user_id = place.asker.user_id
    if user_id is None or user_id <= 0:
        raise RuleError(
            f"{'Kapitän' if role == CAPTAIN else 'Ausrichter'} kann nur eine Person sein, "
            "nicht ein Chat.",
            hint="Bitte mit dem eigenen Konto senden.",
        )
    if code.for_user_id != user_id:
        raise RuleError(
            f"Dieser {what} ist für {code.for_name or 'eine andere Person'} bestimmt, nicht "
            "für dich. Nichts wurde geändert.",
            hint=renew,
        )
    if code.used_at is not None:
        raise RuleError(
            f"Dieser {what} ist schon eingelöst ({date_text(_aware(code.used_at).date())}).",
            hint=renew,
        )
    if _aware(code.expires_at) <= utc_now():
        raise RuleError(
            f"Dieser {what} ist abgelaufen oder durch einen neueren ersetzt.", hint=renew
        )
    return code


def fetch(session: Session, cmd: Command, token: str) -> Reply:
    """``/start code_<token>`` in the private chat (the link button): the code, for the
    person it is for only."""
    code = league_store.role_code_by_token(session, token)
    if code is None:
        raise RuleError(
            "Diesen Code-Link kenne ich nicht.",
            hint="Die Ligaleitung schickt einen neuen: /kapitaen TEAM oder /ausrichter.",
        )
    if cmd.user_id != code.for_user_id:
        raise RuleError(
            f"Dieser Code ist für {code.for_name or 'eine andere Person'} bestimmt, nicht für "
            "dich.",
            hint="Nichts wurde geändert. Einen eigenen Code schickt dir die Ligaleitung.",
        )
    if code.used_at is not None or _aware(code.expires_at) <= utc_now():
        raise RuleError(
            "Dieser Code ist schon eingelöst, abgelaufen oder durch einen neueren ersetzt.",
            hint="Einen neuen schickt dir die Ligaleitung: /kapitaen TEAM oder /ausrichter.",
        )
    return Reply(code_text(session, code))


def use(code: RoleCode) -> None:
    code.used_at = utc_now()
