"""A place's tournaments one after the other: ``/turnier ende``, ``/turniere``, a tournament
number on the read-only commands, and ``/loeschen`` at the desk.

A place (chat or topic) where ``/turnier NAME`` was sent is the desk of the tournament
management ("Turnierleitung"). One tournament runs there at a time; the management (its
creator and the chat's admins) ends it with ``/turnier ende`` and a confirmation, and the next
``/turnier NAME`` starts at the same desk with the next number. An ended tournament is read
only: its ranking, certificates, cash report and export stay readable with ``turnier N``
(``/rangliste turnier 1``), its tables take no more games, and every managing command refuses.
"""

from __future__ import annotations

import datetime as dt
import hmac
from collections.abc import Sequence
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.rules.numbers import is_number
from skatbot.rules.scoring import minus_sign
from skatbot.storage import chats
from skatbot.storage import tournament_repo as trepo
from skatbot.storage.database import lock_chat
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases import texts
from skatbot.usecases.reply import Command, Reply

NONCE_KEY = "desk_nonce"  # "<what>:<nonce>": what the question of the desk asked
END_WORDS = {"ende", "beenden"}
CONFIRM_WORDS = {"ja", "bestätigen", "bestaetigen"}
NUMBER_WORDS = {"turnier", "nr", "nr.", "nummer"}
READABLE = "/rangliste, /urkunden, /kasse, /export"


# --- naming a tournament ------------------------------------------------------------------------


def _day(moment: dt.datetime | None) -> dt.date:
    from skatbot.usecases.evening import berlin_date

    return berlin_date(moment)


def berlin_time(moment: dt.datetime) -> dt.datetime:
    """A stored time as the clock in Germany shows it (SQLite gives it back naive: UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    try:
        from zoneinfo import ZoneInfo

        return moment.astimezone(ZoneInfo("Europe/Berlin"))
    except Exception:  # no time zone data on this system: the EU rule of evening.py
        from skatbot.usecases.evening import _berlin_offset

        return moment.astimezone(dt.UTC) + _berlin_offset(moment)


def day_of(t: Tournament) -> dt.date:
    """The tournament's date: the day it was created (Germany)."""
    return _day(t.created_at)


def dates(t: Tournament) -> str:
    """``01.12.2026`` or ``01.12.2026–03.12.2026`` (created to ended)."""
    first = day_of(t)
    text = first.strftime("%d.%m.%Y")
    if t.closed_at is not None:
        last = _day(t.closed_at)
        if last != first:
            text += "–" + last.strftime("%d.%m.%Y")
    return text


def file_name(kind: str, t: Tournament) -> str:
    """``rangliste-winterskat-2026-12-01.pdf``: the document, the tournament, its date."""
    import re
    import unicodedata

    folded = t.name.casefold().replace("ß", "ss")
    for umlaut, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue")):
        folded = folded.replace(umlaut, plain)
    ascii_name = unicodedata.normalize("NFKD", folded).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:40].strip("-") or "turnier"
    return f"{kind}-{slug}-{day_of(t).isoformat()}.pdf"


def label(t: Tournament) -> str:
    """``Turnier 2 „Winterskat“`` (HTML-escaped)."""
    return f"Turnier {t.number} „{escape(t.name)}“"


def shown_line(session: Session, t: Tournament) -> str | None:
    """Which tournament a read-only answer shows, when it could be another one: the place
    has several, or this one has ended."""
    count = len(trepo.tournaments_of(session, t.chat_id))
    if count < 2 and t.closed_at is None:
        return None
    state = "beendet" if t.closed_at is not None else "läuft"
    other = " · ein anderes: turnier N anhängen, alle: /turniere" if count > 1 else ""
    return f"ℹ️ Gezeigt: {label(t)} vom {dates(t)} ({state}){other}"


def running(session: Session, cmd: Command) -> Tournament:
    """The tournament the management works on now; refused when the latest has ended."""
    t = trepo.tournament_of(session, cmd.chat_id)
    if t is None:
        raise RuleError(
            f"In {cmd.here} läuft kein Turnier.", hint="Lege eins an mit /turnier NAME."
        )
    if t.closed_at is not None:
        raise RuleError(
            f"{label(t)} ist beendet – daran ändert sich nichts mehr.",
            hint=f"Lesen: {READABLE} · das nächste Turnier: /turnier NAME.",
        )
    return t


def pick(session: Session, cmd: Command, words: Sequence[str]) -> tuple[Tournament, list[str]]:
    """The tournament a read-only command shows: ``turnier N`` among ``words`` (anywhere),
    else the latest. Returns it and the other words."""
    rest = list(words)
    number: int | None = None
    for i, word in enumerate(rest):
        if word.casefold() in NUMBER_WORDS and i + 1 < len(rest):
            raw = rest[i + 1]
            if not is_number(raw) or len(raw) > 6:
                raise RuleError(
                    f"„{raw[:20]}“ ist keine Turniernummer.",
                    hint="Z. B. turnier 1 – die Nummern zeigt /turniere.",
                )
            number = int(raw)
            del rest[i : i + 2]
            break
    every = trepo.tournaments_of(session, cmd.chat_id)
    if not every:
        raise RuleError(
            f"In {cmd.here} gibt es kein Turnier.", hint="Lege eins an mit /turnier NAME."
        )
    if number is None:
        return every[-1], rest
    found = [t for t in every if t.number == number]
    if not found:
        span = "Turnier 1" if len(every) == 1 else f"Turnier 1 bis {every[-1].number}"
        raise RuleError(
            f"Turnier {number} gibt es in {cmd.here} nicht.",
            hint=f"Hier: {span} (/turniere).",
        )
    return found[-1], rest


# --- /turnier ende ------------------------------------------------------------------------------


def ask(session: Session, cmd: Command, what: str) -> str:
    """Remember the desk's question ``what`` (a fresh nonce: an older question is void)."""
    from skatbot.usecases.admin import issue_nonce

    return issue_nonce(session, cmd.chat_id, NONCE_KEY, what)


def asked(session: Session, cmd: Command, what: str) -> bool:
    """Whether ``what`` was the desk's last question (used up once answered)."""
    stored = chats.settings_of(session, cmd.chat_id).nonce(NONCE_KEY)
    if stored is None or not stored.startswith(what + ":"):
        return False
    chats.update_settings(session, cmd.chat_id, lambda s: s.with_nonce(NONCE_KEY, None))
    return True


def is_end(words: Sequence[str]) -> bool:
    """``/turnier ende`` and ``/turnier ende ja`` (a tournament named "Ende …" is not)."""
    return (
        bool(words)
        and words[0].casefold() in END_WORDS
        and (len(words) == 1 or (len(words) == 2 and words[1].casefold() in CONFIRM_WORDS))
    )


def ende(session: Session, cmd: Command) -> Reply:
    from skatbot.usecases import tournament

    lock_chat(session, cmd.chat_id)
    t = running(session, cmd)
    tournament.require_manager(t, cmd, readable=READABLE)
    what = f"ende{t.id}"
    done = trepo.load_series(session, t)
    ranked, complete, incomplete = tournament.ranking_of(t, done)
    if len(cmd.args) == 1:
        ask(session, cmd, what)
        lines = [f"❓ <b>{label(t)} beenden?</b>"]
        if complete:
            lines.append(f"Gewertet: {tournament.series_span(complete)}.")
        else:
            lines.append("Noch keine Serie ist vollständig – die Rangliste bleibt leer.")
        if incomplete:
            lines.append(
                f"⚠️ {tournament.series_span(incomplete)} unvollständig: fehlende Ergebnisse "
                "werden nicht mehr nachgetragen (/fehlend)."
            )
        lines.append(
            "Danach nimmt das Turnier nichts mehr an (keine Ergebnisse, keine Spiele an seinen "
            f"Tischen); lesbar bleiben {READABLE}. Das nächste Turnier: /turnier NAME."
        )
        lines.append("👉 Zum Bestätigen: /turnier ende ja")
        return Reply("\n".join(lines))
    if not asked(session, cmd, what):
        raise RuleError(
            "Das Beenden wurde noch nicht gefragt.",
            hint="Erst /turnier ende, dann /turnier ende ja.",
        )
    from skatbot.usecases import table_lists

    trepo.close_tournament(t, cmd.user_id)
    _forget_pinned(session, t)
    closed, posts = table_lists.close_tables(session, t)
    lines = [f"🏁 <b>{label(t)} ist beendet</b> ({dates(t)})."]
    if closed:
        lines.append(
            f"{closed} noch offene Tischliste{'n' if closed != 1 else ''} geschlossen – "
            "dort wird nichts mehr gebucht."
        )
    if ranked:
        lines.append(f"Gewertet: {tournament.series_span(complete)}. Sieg: {_winner(ranked)}")
    n = t.number
    lines.append(
        f"Lesen: /rangliste turnier {n} · /urkunden turnier {n} · /kasse turnier {n} · "
        f"/export turnier {n} · alle Turniere: /turniere"
    )
    lines.append("Das nächste Turnier hier: /turnier NAME")
    return Reply("\n".join(lines), posts=posts)


def _forget_pinned(session: Session, t: Tournament) -> None:
    """The pinned standings stay as they are (the final state); the next tournament pins
    its own."""
    from skatbot.usecases import standings

    mid = standings.pinned_id(session, t.chat_id)
    if mid is not None:
        standings.forget(session, t.chat_id, mid)


def _winner(ranked: Sequence[object]) -> str:
    from skatbot.rules.ranking import Ranked

    first = [r for r in ranked if isinstance(r, Ranked) and r.place == 1]
    return " und ".join(
        f"{escape(r.standing.name)} ({minus_sign(r.standing.score)} Punkte)" for r in first
    )


# --- /turniere ----------------------------------------------------------------------------------


def turniere(session: Session, cmd: Command) -> Reply:
    from skatbot.usecases import tournament

    if cmd.args:
        raise RuleError(
            f"„{cmd.args[0][:20]}“ kenne ich bei /turniere nicht.",
            hint="Einfach /turniere; ein Turnier zeigen: /rangliste turnier 1",
        )
    every = trepo.tournaments_of(session, cmd.chat_id)
    if not every:
        return Reply(f"ℹ️ In {cmd.here} gab es noch kein Turnier. Eins anlegen: /turnier NAME")
    lines = [f"🗂 <b>Turniere in {escape(cmd.here)}</b> ({len(every)})"]
    for t in every:
        done = trepo.load_series(session, t)
        ranked, _, _ = tournament.ranking_of(t, done)
        state = "beendet" if t.closed_at is not None else "läuft"
        line = (
            f"{t.number}. {escape(t.name)} – {dates(t)}, {state}, {texts.series_count(len(done))}"
        )
        if ranked:
            line += f" · {'Sieg' if t.closed_at else 'vorn'}: {_winner(ranked)}"
        lines.append(line)
    lines.append(f"Ein Turnier lesen: {READABLE} mit turnier N, z. B. /rangliste turnier 1")
    return Reply("\n".join(lines))


# --- /loeschen at the desk ----------------------------------------------------------------------


def _contents(session: Session, t: Tournament) -> str:
    done = trepo.load_series(session, t)
    people = len(trepo.participants(session, t))
    results = sum(len(s.results) for s in done)
    return (
        f"{label(t)} ({dates(t)}) mit {people} Teilnehmer{'n' if people != 1 else ''}, "
        f"{texts.series_count(len(done))} und {results} Ergebnis{'sen' if results != 1 else ''}"
    )


def loeschen(session: Session, cmd: Command, words: Sequence[str], nonce: str | None) -> Reply:
    """``/loeschen`` at a desk: the latest tournament; ``/loeschen turnier N`` an earlier one;
    ``/loeschen alles`` everything of the place (the chat's own deletion); ``/loeschen ja``
    or the button what the question named. A tournament goes for its creator or the chat's
    admins, everything for the admins only (admin.py)."""
    from skatbot.usecases import admin

    lock_chat(session, cmd.chat_id)
    folded = [w.casefold() for w in words]
    if len(folded) >= 2 and folded[0] == "turnier" and folded[-1] in admin.CONFIRM_WORDS:
        # "/loeschen turnier [N] ja" names what goes and says yes in one message
        named = list(words[:-1]) if len(words) > 2 else []
        t, rest = pick(session, cmd, named)
        if rest:
            raise RuleError(
                "Das verstehe ich bei /loeschen nicht.",
                hint="/loeschen turnier N ja – oder erst /loeschen turnier N fragen lassen.",
            )
        admin.check_tournament_deleter(cmd, cmd.is_admin, t)
        chats.update_settings(session, cmd.chat_id, lambda s: s.with_nonce(admin.NONCE_KEY, None))
        return _delete_tournament(session, cmd, t)
    if folded == ["turnier"]:
        words, folded = [], []  # "/loeschen turnier": the newest
    if nonce is not None or (len(folded) == 1 and folded[0] in admin.CONFIRM_WORDS):
        return _delete_confirmed(session, cmd, nonce)
    if folded == ["alles"]:
        return admin.ask(session, cmd, cmd.is_admin, scope="alles")
    t, rest = pick(session, cmd, words)
    admin.check_tournament_deleter(cmd, cmd.is_admin, t)
    if rest:
        raise RuleError(
            "Das verstehe ich bei /loeschen nicht.",
            hint="/loeschen (das neueste Turnier), /loeschen turnier N oder /loeschen alles.",
        )
    nonce = admin.issue_nonce(session, cmd.chat_id, admin.NONCE_KEY, f"t{t.id}")
    others = [o for o in trepo.tournaments_of(session, cmd.chat_id) if o.id != t.id]
    lines = [
        f"⚠️ <b>{label(t)} löschen?</b>",
        f"Gelöscht werden: {_contents(session, t)}. Die Listen an seinen Tischen bleiben in "
        "ihren Chats und Themen.",
    ]
    if others:
        lines.append("Es bleiben: " + ", ".join(label(o) for o in others) + ".")
    lines.append(
        "Das lässt sich nicht rückgängig machen – vorher evtl. "
        f"/export turnier {t.number}. Alles hier löschen: /loeschen alles"
    )
    lines.append("👉 Zum Bestätigen: /loeschen ja (oder den Knopf drücken).")
    return Reply(
        "\n".join(lines),
        buttons=(((f"🗑 Ja, Turnier {t.number} löschen", admin.DELETE_PREFIX + nonce),),),
    )


def _delete_confirmed(session: Session, cmd: Command, nonce: str | None) -> Reply:
    from skatbot.usecases import admin

    stored = chats.settings_of(session, cmd.chat_id).nonce(admin.NONCE_KEY)
    scope, _, stored_nonce = (stored or "").rpartition(":")
    if not stored or (nonce is not None and not hmac.compare_digest(stored_nonce, nonce)):
        if nonce is not None:
            raise RuleError("Dieser Knopf gilt nicht mehr.", hint="Neu anfordern mit /loeschen.")
        raise RuleError(
            "Was soll gelöscht werden? Es wurde noch nicht gefragt.",
            hint="Erst /loeschen (oder /loeschen turnier N), dann /loeschen ja.",
        )
    if scope == "alles":
        return admin.confirm(session, cmd, cmd.is_admin, None, whole=True)
    chats.update_settings(session, cmd.chat_id, lambda s: s.with_nonce(admin.NONCE_KEY, None))
    found = [t for t in trepo.tournaments_of(session, cmd.chat_id) if f"t{t.id}" == scope]
    if not found:
        raise RuleError("Dieses Turnier gibt es nicht mehr.", hint="Die Turniere zeigt /turniere.")
    t = found[0]
    admin.check_tournament_deleter(cmd, cmd.is_admin, t)
    return _delete_tournament(session, cmd, t)


def _delete_tournament(session: Session, cmd: Command, t: Tournament) -> Reply:
    what = _contents(session, t)
    if trepo.tournament_of(session, cmd.chat_id) is t:
        _forget_pinned(session, t)
    trepo.delete_tournament(session, t)
    chats.after_delete(session)
    left = trepo.tournaments_of(session, cmd.chat_id)
    tail = (
        "Es bleiben: " + ", ".join(label(o) for o in left) + "."
        if left
        else "Hier ist jetzt kein Turnier mehr; ein neues: /turnier NAME"
    )
    return Reply(f"🗑 Gelöscht: {what}.\n{tail}")
