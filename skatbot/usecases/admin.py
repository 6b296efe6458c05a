"""Managing a chat's lists: ``/loeschen`` (delete the chat's data, after a confirmation),
who may manage (``check_manager``, also for ``/oeffnen``) and confirmation nonces.

``/loeschen`` is allowed to the chat's administrators and to whoever created the chat's
(latest) list. It first answers with a warning and asks for ``/loeschen ja`` or a press on
the button ``v1:del:<nonce>``; the nonce is random per request and stored with the chat, so a
stale or forged button changes nothing. The admin check needs the Bot API
(``getChatMember``): the route asks before the transaction (``admin=True``) and passes
``Command.is_admin``.

Forum topics are places of their own (``storage.places``): ``/loeschen`` in a topic deletes
that topic's data and nothing else; in General (or a chat without topics) the chat's own data
and no topic's.
"""

from __future__ import annotations

import dataclasses
import hmac
import re
import secrets
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.storage import chats, places, repo
from skatbot.storage.tournament_repo import tournaments_of
from skatbot.storage.unit import Session
from skatbot.usecases.reply import PLACEHOLDER_IDS, Command, Reply

DELETE_PREFIX = "v1:del:"
DELETE_DATA = re.compile(r"v1:del:([0-9a-f]{16})")
NONCE_KEY = "delete_nonce"
CONFIRM_WORDS = {"ja", "yes", "bestätigen", "bestaetigen"}


# --- confirmation nonces ----------------------------------------------------------------------


def issue_nonce(session: Session, chat_id: int, key: str, scope: str = "") -> str:
    """A fresh random nonce for a confirmation button, stored in the chat's settings under
    ``key`` (with ``scope``, e.g. a list id): asking again makes older buttons stale."""
    nonce = secrets.token_hex(8)
    stored = f"{scope}:{nonce}" if scope else nonce
    chats.update_settings(session, chat_id, lambda s: s.with_nonce(key, stored))
    return nonce


def take_nonce(session: Session, chat_id: int, key: str, nonce: str, scope: str = "") -> bool:
    """Whether ``nonce`` (and ``scope``) is the one last issued under ``key``; a valid one
    is used up, so each confirmation button works once."""
    stored = chats.settings_of(session, chat_id).nonce(key)
    expected = f"{scope}:{nonce}" if scope else nonce
    if stored is None or not hmac.compare_digest(stored, expected):
        return False
    chats.update_settings(session, chat_id, lambda s: s.with_nonce(key, None))
    return True


# --- who may manage -----------------------------------------------------------------------------


def check_manager(
    session: Session, cmd: Command, is_admin: bool, action: str, command: str
) -> None:
    """Who may manage the chat's lists (``/loeschen``, ``/oeffnen``): the chat's admins
    (``is_admin``, asked from Telegram before the transaction; an anonymous admin is one) and
    whoever created the chat's latest list. Anyone else gets a RuleError naming who may."""
    if is_admin:
        return
    latest = repo.latest_list(session, cmd.chat_id)
    creator = latest.created_by if latest is not None else None
    if creator is not None and creator not in PLACEHOLDER_IDS and creator == cmd.user_id:
        return
    who = "wer die Liste angelegt hat"
    if latest is not None and creator is not None and creator not in PLACEHOLDER_IDS:
        # an anonymous admin (posting as the group) started it: the admins are all
        if creator == (cmd.telegram_chat_id or cmd.chat_id):
            who = ""
        else:
            name = chats.name_on_rows(session, latest.id, creator)
            who = f"„{name}“ (hat die Liste angelegt)" if name else who
    raise RuleError(
        f"{action} dürfen nur die Admins dieses Chats" + (f" oder {who}." if who else "."),
        hint=f"Bitte einen Admin, {command} zu schicken.",
    )


# --- /loeschen --------------------------------------------------------------------------------


def _check_permission(session: Session, cmd: Command, is_admin: bool) -> None:
    check_manager(session, cmd, is_admin, "Löschen", "/loeschen")


def _summary(session: Session, chat_id: int) -> str:
    lists, games = chats.count_lists_and_games(session, chat_id)
    parts = [
        f"{lists} Liste{'n' if lists != 1 else ''} mit {games} Spiel{'en' if games != 1 else ''}"
    ]
    every = tournaments_of(session, chat_id)
    if len(every) == 1:
        parts.append(f"das Turnier „{escape(every[0].name)}“")
    elif every:
        parts.append(f"{len(every)} Turniere (" + ", ".join(escape(t.name) for t in every) + ")")
    return " und ".join(parts)


def _others_stay(session: Session, cmd: Command) -> str:
    """The line saying which lists /loeschen leaves alone: the other topics (asked in a
    topic), or the topics (asked in General of a forum whose topics have data)."""
    if cmd.thread_id:
        return "Die anderen Themen dieser Gruppe bleiben, wie sie sind.\n"
    topics = places.chat_topic_places(session, cmd.telegram_chat_id or cmd.chat_id)
    if any(chats.has_data(session, place) for place in topics):
        return "Die Listen in den Themen dieser Gruppe bleiben, wie sie sind.\n"
    return ""


def ask(session: Session, cmd: Command, is_admin: bool, scope: str = "") -> Reply:
    """``/loeschen``: warn, and hand out a fresh confirmation nonce (``scope``: what a
    tournament desk's question asked, see tournament_season.py)."""
    if not chats.has_data(session, cmd.chat_id):
        return Reply(f"ℹ️ In {cmd.here} ist nichts gespeichert.")
    _check_permission(session, cmd, is_admin)
    nonce = issue_nonce(session, cmd.chat_id, NONCE_KEY, scope)
    this = "dieses Themas" if cmd.thread_id else "dieses Chats"
    text = (
        f"⚠️ <b>Alle Daten {this} löschen?</b>\n"
        f"Gespeichert sind {_summary(session, cmd.chat_id)}.\n"
        + _others_stay(session, cmd)
        + "Das lässt sich nicht rückgängig machen – vorher evtl. /export oder /pdf.\n"
        "👉 Zum Bestätigen: /loeschen ja (oder den Knopf drücken)."
    )
    return Reply(text, buttons=((("🗑 Ja, alles löschen", DELETE_PREFIX + nonce),),))


def confirm(
    session: Session, cmd: Command, is_admin: bool, nonce: str | None, *, whole: bool = False
) -> Reply:
    """``/loeschen ja`` (``nonce`` None) or the button (``nonce`` from its data): delete. At a
    tournament desk the question named what goes (``whole``: everything, asked and checked)."""
    if not whole and _is_desk(session, cmd):
        from skatbot.usecases import tournament_season

        cmd = dataclasses.replace(cmd, is_admin=is_admin)
        return tournament_season.loeschen(session, cmd, ["ja"] if nonce is None else [], nonce)
    if not chats.has_data(session, cmd.chat_id):
        return Reply(f"ℹ️ In {cmd.here} ist nichts gespeichert – nichts gelöscht.")
    _check_permission(session, cmd, is_admin)
    if nonce is not None and not whole:
        stored = chats.settings_of(session, cmd.chat_id).nonce(NONCE_KEY)
        if stored is None or not hmac.compare_digest(stored, nonce):
            raise RuleError("Dieser Knopf gilt nicht mehr.", hint="Neu anfordern mit /loeschen.")
    what = _summary(session, cmd.chat_id)
    others = _others_stay(session, cmd)
    chats.delete_chat_data(session, cmd.chat_id)
    return Reply(
        f"🗑 Gelöscht: {what}. In {cmd.here} ist jetzt nichts mehr gespeichert.\n"
        + others
        + "Neu anfangen: /neu Anna Bernd Carla"
    )


def _is_desk(session: Session, cmd: Command) -> bool:
    return bool(tournaments_of(session, cmd.chat_id))


def loeschen(session: Session, cmd: Command) -> Reply:
    """``/loeschen`` (ask) and ``/loeschen ja`` (delete); the route asks whether the sender
    is a chat admin (``cmd.is_admin``)."""
    words = [w.casefold() for w in cmd.args]
    if _is_desk(session, cmd):  # several tournaments: the question names which one goes
        from skatbot.usecases import tournament_season

        return tournament_season.loeschen(session, cmd, list(cmd.args), None)
    if not words:
        return ask(session, cmd, cmd.is_admin)
    if len(words) == 1 and words[0] in CONFIRM_WORDS:
        return confirm(session, cmd, cmd.is_admin, None)
    raise RuleError("Das verstehe ich nicht.", hint="Erst /loeschen, dann /loeschen ja.")
