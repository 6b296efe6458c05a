"""Deleting a chat's data (``/loeschen``), who may change a list as a whole
(``check_manager``, also for ``/oeffnen``) and confirmation nonces.

What one may delete follows what is at stake:

- ``/loeschen`` – everything of the place (every list, a tournament, people, stakes): the
  chat's admins only (an anonymous admin is one). Creating the newest list grants nothing
  over older data.
- ``/loeschen liste`` – the place's latest list alone: its creator (a person; a chat
  identity owns nothing) or an admin. The reply names the list and what stays.
- At a tournament desk (:func:`desk_loeschen` below): ``/loeschen`` or ``/loeschen turnier [N]``
  asks to delete one tournament (the newest, or number N), for its creator or an admin;
  ``/loeschen turnier [N] ja`` deletes it at once; ``/loeschen alles`` is everything, for
  the admins only.

Each first answers with a warning and asks for ``… ja`` or a press on the button
``v1:del:<what>:<nonce>``, through ``common/confirm.py``: the answer does exactly what the
question named (that list, that tournament, everything as it was), or nothing and says what
changed; a typed ``ja`` answers only its sender's own question. Without any question,
``/loeschen ja`` (away from a desk), ``/loeschen liste ja`` and ``/loeschen turnier [N] ja``
are one-step orders. Who may is declared on the route (``common/rights.py``:
``PLACE_DELETER``, ``LIST_DELETER``, checked by :func:`whole_deleter` and
:func:`list_deleter`; both ask Telegram whether the sender is a chat admin, getChatMember,
before the transaction); what a confirmation deletes - a tournament, or everything when the
sender's question named it - is checked here, on what the question named.

Forum topics are places of their own (``storage.topic_places``): ``/loeschen`` in a topic deletes
that topic's data and nothing else; in General (or a chat without topics) the chat's own data
and no topic's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape, unescape

from skatbot.rules.errors import RuleError
from skatbot.storage import chats, questions, topic_places
from skatbot.storage import lists as lists_store
from skatbot.storage import tournament as trepo
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.tournament import (
    table_by_list,
    tournament_of,
    tournaments_of,
)
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm
from skatbot.usecases.common.confirm import Shown
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply, danger_button
from skatbot.usecases.common.rights import owns
from skatbot.usecases.place.words import command_at
from skatbot.usecases.tournament import tournament_season

DELETE_PREFIX = "v1:del:"
SCOPE_LIST = "liste"
SCOPE_TOURNAMENT = "turnier"
SCOPES = {"liste": SCOPE_LIST, "list": SCOPE_LIST, "turnier": SCOPE_TOURNAMENT}
# v1:del:<what>:<nonce> (see _button_data); an older version's v1:del:[scope:]<nonce> is
# still recognised, to answer that it is void
DELETE_DATA = re.compile(r"v1:del:(?:(p|l[0-9]{1,12}|t[0-9]{1,12}|liste|turnier):)?([0-9a-f]{16})")
CONFIRM_WORDS = {"ja", "yes", "bestätigen", "bestaetigen"}


# --- who may manage -----------------------------------------------------------------------------


def check_manager(
    session: Session, place_id: int, user_id: int | None, is_admin: bool, action: str, command: str
) -> None:
    """Who may change the place's latest list as a whole (``/oeffnen``, ``/loeschen liste``):
    the chat's admins (``is_admin``, asked from Telegram before the transaction; an
    anonymous admin is one) and the person who created that list. Anyone else gets a
    RuleError naming who may."""
    if is_admin:
        return
    latest = lists_store.latest_list(session, place_id)
    creator = latest.created_by if latest is not None else None
    if owns(user_id, creator):
        return
    who = "wer die Liste angelegt hat"
    if latest is not None and creator is not None and owns(creator, creator):
        name = chats.name_on_rows(session, latest.id, creator)
        who = f"„{name}“ (hat die Liste angelegt)" if name else who
    elif latest is not None:
        who = ""  # a chat identity started it: that is the admins
    raise RuleError(
        f"{action} dürfen nur die Admins dieses Chats" + (f" oder {who}." if who else "."),
        hint=f"Bitte einen Admin, {command} zu schicken.",
    )


# --- /loeschen --------------------------------------------------------------------------------


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _summary(session: Session, chat_id: int) -> str:
    lists, games = chats.count_lists_and_games(session, chat_id)
    parts = [f"{_plural(lists, 'Liste', 'Listen')} mit {_plural(games, 'Spiel', 'Spielen')}"]
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
    topics = topic_places.chat_topic_places(session, cmd.telegram_chat_id or cmd.place_id)
    if any(chats.has_data(session, place) for place in topics):
        return "Die Listen in den Themen dieser Gruppe bleiben, wie sie sind.\n"
    return ""


def _check_whole(session: Session, cmd: Command, is_admin: bool) -> None:
    """Everything of a place (every list, a tournament, the people, the stakes) is for
    the chat's admins alone; the refusal names what the sender may delete instead."""
    if is_admin:
        return
    hint = "Bitte einen Admin, /loeschen zu schicken."
    latest = lists_store.latest_list(session, cmd.place_id)
    t = tournament_of(session, cmd.place_id)
    if t is not None and owns(cmd.user_id, t.created_by):
        hint = "Dein Turnier allein löschen: /loeschen turnier – alles andere nur ein Admin."
    elif latest is not None and owns(cmd.user_id, latest.created_by):
        hint = "Deine Liste allein löschen: /loeschen liste – alles andere nur ein Admin."
    raise RuleError(
        f"Löschen dürfen nur die Admins dieses Chats – alle Daten "
        f"{'dieses Themas' if cmd.thread_id else 'dieses Chats'} auf einmal.",
        hint=hint,
    )


def _place_shown(session: Session, cmd: Command) -> Shown:
    """Everything of the place, as ``/loeschen`` names it."""
    this = "dieses Themas" if cmd.thread_id else "dieses Chats"
    return Shown(
        f"place:{cmd.place_id}",
        questions.place_state(session, cmd.place_id),
        f"alle Daten {this} ({unescape(_summary(session, cmd.place_id))})",
    )


def _list_shown(session: Session, lst: lists_store.ListInfo) -> Shown:
    return Shown(
        f"list:{lst.id}",
        questions.thing_state(session, "lists", lst.id),
        unescape(_list_line(session, lst)),
    )


def _tournament_shown(session: Session, t: Tournament) -> Shown:
    return Shown(
        f"tournament:{t.id}",
        questions.thing_state(session, "tournaments", t.id),
        unescape(tournament_season.contents(session, t)),
    )


def _button_data(target: str, nonce: str) -> str:
    """``v1:del:<what>:<nonce>`` (≤ 64 bytes): p the place, l<id> a list, t<id> a
    tournament - what the question named - and the question's nonce."""
    kind, _, ident = target.partition(":")
    what = {"place": "p", "list": f"l{ident}", "tournament": f"t{ident}"}[kind]
    return f"{DELETE_PREFIX}{what}:{nonce}"


def _ask_again(session: Session, target: str, desk: bool) -> str:
    """The command that asks the question about ``target`` anew (``desk``: at a Preisskat
    desk, where ``/loeschen`` names a tournament)."""
    kind, _, ident = target.partition(":")
    if kind == "tournament":
        found = trepo.tournament_by_id(session, int(ident))
        return f"/loeschen turnier {found.number}" if found is not None else "/turniere"
    if kind == "list":
        return "/loeschen liste"
    return "/loeschen alles" if desk else "/loeschen"


def ask(session: Session, cmd: Command) -> Reply:
    """``/loeschen`` (at a desk ``/loeschen alles``): warn, and ask (who may: the route's
    right, at a desk :func:`desk_loeschen`)."""
    if not chats.has_data(session, cmd.place_id):
        return Reply(f"ℹ️ In {cmd.here} ist nichts gespeichert.")
    shown = _place_shown(session, cmd)
    nonce = confirm.ask(session, cmd, confirm.DELETE, shown)
    this = "dieses Themas" if cmd.thread_id else "dieses Chats"
    yes = "/loeschen ja"
    text = (
        f"⚠️ <b>Alle Daten {this} löschen?</b>\n"
        f"Gespeichert sind {_summary(session, cmd.place_id)}.\n"
        + _others_stay(session, cmd)
        + "Das lässt sich nicht rückgängig machen – vorher evtl. /export oder /pdf.\n"
        f"👉 Zum Bestätigen: {yes} (oder den Knopf drücken)."
    )
    data = _button_data(shown.target, nonce)
    return Reply(text, buttons=(((danger_button("🗑 Ja, alles löschen", data),),)))


def confirm_button(session: Session, cmd: Command, is_admin: bool, what: str, nonce: str) -> Reply:
    """A tap on the button of a ``/loeschen`` question (``what``: p, l<id>, t<id>, or ""
    on an older version's button): exactly what that question named, or nothing."""
    if what.startswith("l") and what[1:].isdigit():
        return confirm_list(session, cmd, is_admin, nonce)
    if what in ("", "liste", "turnier"):
        raise confirm.NotConfirmed(
            "Dieser Knopf gilt nicht mehr – nichts gelöscht.", hint="Neu fragen: /loeschen"
        )
    desk = bool(tournaments_of(session, cmd.place_id))  # the button's route is Telegram glue
    return _confirm_delete(session, cmd, is_admin, nonce, desk=desk)


def _now(session: Session, cmd: Command, target: str) -> Shown | None:
    """What a ``/loeschen`` question's ``target`` is now (None: gone)."""
    kind, _, ident = target.partition(":")
    if kind == "place":
        return _place_shown(session, cmd) if ident == str(cmd.place_id) else None
    if kind == "tournament":
        t = trepo.tournament_by_id(session, int(ident))
        if t is None or t.chat_id != cmd.place_id:
            return None
        return _tournament_shown(session, t)
    return None


def _confirm_delete(
    session: Session, cmd: Command, is_admin: bool, nonce: str | None, *, desk: bool
) -> Reply:
    """``/loeschen ja`` or the button of a question about the place or a tournament. Away
    from a desk ``/loeschen ja`` without a question is the one-step order (admins only: the
    route's right, ``whole_deleter``, checked it for the typed one)."""
    shown = confirm.answer(
        session,
        cmd,
        confirm.DELETE,
        lambda target: _now(session, cmd, target),
        again=lambda target: _ask_again(session, target, desk) if target else "/loeschen",
        nonce=nonce,
        one_step=not desk,
        button=True,
    )
    target = shown.target if shown is not None else f"place:{cmd.place_id}"
    kind, _, ident = target.partition(":")
    if kind == "tournament":
        t = trepo.tournament_by_id(session, int(ident))
        assert t is not None  # the question's check found it
        check_tournament_deleter(cmd, is_admin, t)
        return _delete_tournament(session, cmd, t)
    _check_whole(session, cmd, is_admin)
    if not chats.has_data(session, cmd.place_id):
        return Reply(f"ℹ️ In {cmd.here} ist nichts gespeichert – nichts gelöscht.")
    what = _summary(session, cmd.place_id)
    others = _others_stay(session, cmd)
    chats.delete_chat_data(session, cmd.place_id)  # the open questions go with it
    chats.after_delete(session)
    return Reply(
        f"🗑 Gelöscht: {what}. In {cmd.here} ist jetzt nichts mehr gespeichert.\n"
        + others
        + "Neu anfangen: /neu Anna Bernd Carla"
    )


# --- /loeschen liste: the latest list alone -----------------------------------------------------


def _check_list(session: Session, cmd: Command, is_admin: bool) -> lists_store.ListInfo:
    """The latest list, if the sender may delete it (else the refusal): a confirmation's
    check, also of the button, whose route is Telegram glue and declares no right."""
    if lists_store.latest_list(session, cmd.place_id) is not None:
        check_manager(
            session, cmd.place_id, cmd.user_id, is_admin, "Diese Liste löschen", "/loeschen liste"
        )
    return _deletable_list(session, cmd)


def _deletable_list(session: Session, cmd: Command) -> lists_store.ListInfo:
    """The latest list, unless there is none or it is a tournament table's."""
    latest = lists_store.latest_list(session, cmd.place_id)
    if latest is None:
        raise RuleError(f"In {cmd.here} gibt es keine Liste.", hint="Neu: /neu Anna Bernd Carla")
    if table_by_list(session, latest.id) is not None:
        raise RuleError(
            "Das ist die Liste eines Tisches im Turnier – ihr Ergebnis gehört zum Turnier.",
            hint="Die Turnierleitung löst den Tisch mit /tisch freigeben N (in ihrem Chat).",
        )
    return latest


def _list_line(session: Session, lst: lists_store.ListInfo) -> str:
    loaded = lists_store.load(session, lst)
    names = ", ".join(escape(n) for n in loaded.names)
    games = loaded.sheet.games_played
    state = "laufend" if lst.status is ListStatus.OPEN else "abgeschlossen"
    return (
        f"Liste Nr. {lists_store.list_number(session, lst)} ({names}; {state}) mit "
        f"{_plural(games, 'Spiel', 'Spielen')}"
    )


def _rest_line(session: Session, cmd: Command) -> str:
    lists, games = chats.count_lists_and_games(session, cmd.place_id)
    if lists == 0:
        return f"In {cmd.here} ist keine Liste mehr gespeichert."
    verb = "bleibt" if lists == 1 else "bleiben"
    return (
        f"Es {verb} {_plural(lists, 'Liste', 'Listen')} mit {_plural(games, 'Spiel', 'Spielen')} "
        f"und alles andere in {cmd.here}."
    )


def ask_list(session: Session, cmd: Command) -> Reply:
    """``/loeschen liste``: warn, and ask (who may: the route's right, ``list_deleter``)."""
    latest = _deletable_list(session, cmd)
    lists, _ = chats.count_lists_and_games(session, cmd.place_id)
    shown = _list_shown(session, latest)
    nonce = confirm.ask(session, cmd, confirm.DELETE_LIST, shown)
    others = lists - 1
    stays = (
        ("Die andere Liste" if others == 1 else f"Die {others} anderen Listen")
        + f" und alles andere in {cmd.here} bleiben."
        if others
        else f"Alles andere in {cmd.here} bleibt."
    )
    text = (
        f"⚠️ <b>Nur diese Liste löschen?</b>\n{_list_line(session, latest)}.\n{stays}\n"
        "Das lässt sich nicht rückgängig machen – vorher evtl. /export oder /pdf.\n"
        "👉 Zum Bestätigen: /loeschen liste ja (oder den Knopf drücken)."
    )
    data = _button_data(shown.target, nonce)
    return Reply(text, buttons=(((danger_button("🗑 Ja, diese Liste löschen", data),),)))


def confirm_list(session: Session, cmd: Command, is_admin: bool, nonce: str | None) -> Reply:
    """``/loeschen liste ja`` or the button: the list the question named, as it was, or
    nothing; without a question (and nobody else's open) the one-step order."""
    latest = lists_store.latest_list(session, cmd.place_id)
    confirm.answer(
        session,
        cmd,
        confirm.DELETE_LIST,
        lambda _target: _list_shown(session, latest) if latest is not None else None,
        again="/loeschen liste",
        nonce=nonce,
        one_step=True,
        button=True,
    )
    latest = _check_list(session, cmd, is_admin)
    what = _list_line(session, latest)
    chats.delete_list(session, latest.id)
    confirm.forget(session, cmd, f"list:{latest.id}")
    chats.after_delete(session)
    return Reply(f"🗑 Gelöscht: {what}.\n{_rest_line(session, cmd)}")


# --- /loeschen turnier: one tournament (desk_loeschen below asks and deletes) -----------


def check_tournament_deleter(cmd: Command, is_admin: bool, t: Tournament) -> None:
    """A tournament is deleted by its creator (a person) or the chat's admins."""
    if not is_admin and not owns(cmd.user_id, t.created_by):
        who = f"{t.created_by_name} (hat es angelegt)" if owns(t.created_by, t.created_by) else ""
        raise RuleError(
            f"Das Turnier „{t.name}“ löschen dürfen nur die Admins dieses Chats"
            + (f" oder {who}." if who and t.created_by_name else "."),
            hint="Bitte einen Admin, /loeschen turnier zu schicken.",
        )


# --- the route: what /loeschen asks for, and who may -------------------------------------------


@dataclass(frozen=True)
class AskWhole:
    """``/loeschen`` (at a desk ``/loeschen alles``): everything of the place, asked first."""


@dataclass(frozen=True)
class ConfirmWhole:
    """``/loeschen ja`` away from a desk: the sender's question, or the one-step order."""


@dataclass(frozen=True)
class AskList:
    """``/loeschen liste``: the latest list alone, asked first."""


@dataclass(frozen=True)
class ConfirmList:
    """``/loeschen liste ja``."""


@dataclass(frozen=True)
class AtDesk:
    """The words of ``/loeschen`` at a Preisskat desk but for ``liste``: a tournament, or
    everything (``alles``); which one, and so who may, follows from the words and from what
    the sender's question named (``desk_loeschen``)."""

    words: tuple[str, ...]


def _not_understood() -> RuleError:
    return RuleError(
        "Das verstehe ich nicht.",
        hint="/loeschen (alles, Admins), /loeschen liste (die letzte Liste) oder "
        "/loeschen turnier – danach mit „ja“ bestätigen.",
    )


def _list_request(words: Sequence[str]) -> AskList | ConfirmList:
    if not words:
        return AskList()
    if len(words) == 1 and words[0] in CONFIRM_WORDS:
        return ConfirmList()
    raise _not_understood()


def parse(cmd: Command) -> AskWhole | ConfirmWhole | AskList | ConfirmList:
    """``/loeschen [liste] [ja]`` away from a Preisskat desk (a place without a tournament)."""
    words = [w.casefold() for w in cmd.args]
    scope = SCOPES.get(words[0], "") if words else ""
    if scope == SCOPE_LIST:
        return _list_request(words[1:])
    if scope == SCOPE_TOURNAMENT:
        if len(words) == 1 or (len(words) == 2 and words[1] in CONFIRM_WORDS):
            raise RuleError(f"In {cmd.here} gibt es kein Turnier.", hint="Alles löschen: /loeschen")
        raise _not_understood()
    if not words:
        return AskWhole()
    if len(words) == 1 and words[0] in CONFIRM_WORDS:
        return ConfirmWhole()
    raise _not_understood()


def parse_at_desk(cmd: Command) -> AtDesk | AskList | ConfirmList:
    """``/loeschen …`` at a Preisskat desk: ``liste`` as anywhere, else :class:`AtDesk`."""
    words = [w.casefold() for w in cmd.args]
    if words and SCOPES.get(words[0]) == SCOPE_LIST:
        return _list_request(words[1:])
    return AtDesk(cmd.args)


def whole_deleter(session: Session, place: Place, request: object) -> None:
    """The right ``rights.PLACE_DELETER``: everything of a place is for the chat's admins
    (an empty place is said so to anyone asking)."""
    if isinstance(request, AskWhole) and not chats.has_data(session, place.id):
        return
    _check_whole(session, command_at(place, "loeschen"), place.asker.is_admin)


def list_deleter(session: Session, place: Place, request: object) -> None:
    """The right ``rights.LIST_DELETER``: the latest list is for its creator and the chat's
    admins (no list: the use case says so)."""
    if lists_store.latest_list(session, place.id) is None:
        return
    asker = place.asker
    check_manager(
        session, place.id, asker.user_id, asker.is_admin, "Diese Liste löschen", "/loeschen liste"
    )


def loeschen(
    session: Session,
    place: Place,
    request: AskWhole | ConfirmWhole | AskList | ConfirmList | AtDesk,
) -> Reply:
    """``/loeschen [liste] [ja]``: ask, then delete (the route's rights: everything for the
    admins, the latest list also for its creator); at a desk :func:`desk_loeschen`."""
    words = {AskList: ("liste",), ConfirmList: ("liste", "ja"), ConfirmWhole: ("ja",)}
    named = request.words if isinstance(request, AtDesk) else words.get(type(request), ())
    cmd = command_at(place, "loeschen", named)
    is_admin = place.asker.is_admin
    if isinstance(request, AtDesk):
        return desk_loeschen(session, cmd, request.words)
    if isinstance(request, AskList):
        return ask_list(session, cmd)
    if isinstance(request, ConfirmList):
        return confirm_list(session, cmd, is_admin, None)
    if isinstance(request, ConfirmWhole):
        return _confirm_delete(session, cmd, is_admin, None, desk=False)
    return ask(session, cmd)


# --- at a tournament desk: one tournament or everything ----------------------------------------


def desk_loeschen(session: Session, cmd: Command, words: Sequence[str]) -> Reply:
    """``/loeschen`` at a tournament desk: the latest tournament; ``/loeschen turnier N`` an
    earlier one; ``/loeschen alles`` everything of the place (the chat's own deletion);
    ``/loeschen ja`` or the button what the sender's question named. A tournament goes for
    its creator or the chat's admins, everything for the admins only."""
    folded = [w.casefold() for w in words]
    if len(folded) >= 2 and folded[0] == "turnier" and folded[-1] in CONFIRM_WORDS:
        # "/loeschen turnier [N] ja" names what goes and says yes in one message: the
        # sender's own question (if any) must have named the same, unchanged
        named = list(words[:-1]) if len(words) > 2 else []
        t, rest = tournament_season.pick(session, cmd, named)
        if rest:
            raise RuleError(
                "Das verstehe ich bei /loeschen nicht.",
                hint="/loeschen turnier N ja – oder erst /loeschen turnier N fragen lassen.",
            )
        confirm.answer(
            session,
            cmd,
            confirm.DELETE,
            lambda _target: _tournament_shown(session, t),
            again=f"/loeschen turnier {t.number}",
            one_step=True,
            button=True,
        )
        check_tournament_deleter(cmd, cmd.is_admin, t)
        return _delete_tournament(session, cmd, t)
    if folded == ["turnier"]:
        words, folded = [], []  # "/loeschen turnier": the newest
    if len(folded) == 1 and folded[0] in CONFIRM_WORDS:
        return _confirm_delete(session, cmd, cmd.is_admin, None, desk=True)
    if folded == ["alles"]:  # everything of the place: the admins alone
        if chats.has_data(session, cmd.place_id):
            _check_whole(session, cmd, cmd.is_admin)
        return ask(session, cmd)
    t, rest = tournament_season.pick(session, cmd, words)
    check_tournament_deleter(cmd, cmd.is_admin, t)
    if rest:
        raise RuleError(
            "Das verstehe ich bei /loeschen nicht.",
            hint="/loeschen (das neueste Turnier), /loeschen turnier N oder /loeschen alles.",
        )
    shown = _tournament_shown(session, t)
    nonce = confirm.ask(session, cmd, confirm.DELETE, shown)
    others = [o for o in trepo.tournaments_of(session, cmd.place_id) if o.id != t.id]
    lines = [
        f"⚠️ <b>{tournament_season.label(t)} löschen?</b>",
        f"Gelöscht werden: {tournament_season.contents(session, t)}. Die Listen an seinen Tischen bleiben in "
        "ihren Chats und Themen.",
    ]
    if others:
        lines.append("Es bleiben: " + ", ".join(tournament_season.label(o) for o in others) + ".")
    lines.append(
        "Das lässt sich nicht rückgängig machen – vorher evtl. "
        f"/export turnier {t.number}. Alles hier löschen: /loeschen alles"
    )
    lines.append("👉 Zum Bestätigen: /loeschen ja (oder den Knopf drücken).")
    return Reply(
        "\n".join(lines),
        buttons=(
            (
                (
                    danger_button(
                        f"🗑 Ja, Turnier {t.number} löschen", _button_data(shown.target, nonce)
                    ),
                ),
            )
        ),
    )


def _delete_tournament(session: Session, cmd: Command, t: Tournament) -> Reply:
    what = tournament_season.contents(session, t)
    if trepo.tournament_of(session, cmd.place_id) is t:
        tournament_season.forget_pinned(session, t)
    confirm.forget(session, cmd, f"tournament:{t.id}")  # the questions that name it go too
    for series in trepo.load_series(session, t):
        confirm.forget(session, cmd, f"draw:{series.row.id}")
    trepo.delete_tournament(session, t)
    chats.after_delete(session)
    left = trepo.tournaments_of(session, cmd.place_id)
    tail = (
        "Es bleiben: " + ", ".join(tournament_season.label(o) for o in left) + "."
        if left
        else "Hier ist jetzt kein Turnier mehr; ein neues: /turnier NAME"
    )
    return Reply(f"🗑 Gelöscht: {what}.\n{tail}")
