"""The hall's live page (``/leinwand``): a read-only link to a tournament's standings for a
projector, and what that page shows (``board``).

``/leinwand`` at the desk gives the link ``<public_url>/leinwand/<token>`` (128 random bits;
the same link while it is valid), ``/leinwand aus`` revokes it (the next ``/leinwand`` gives a
new one). The page shows what the hall's wall would: the ranking (places, names and points,
as the desk's pinned "Zwischenstand" counts them: every table with all its results), each
series' reported tables, and the tables of the latest series as far as they have played.
No chat or user ids, no money.

The link ends with the tournament: once ``/turnier ende`` is confirmed the page shows the
final ranking (as ``/rangliste``) under "Turnier beendet" for ``SHOWN_AFTER_END`` (the prize
giving follows the last series), then answers like an unknown link.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from html import escape
from typing import Any

from skatbot.rules import tournament as tr
from skatbot.rules.errors import RuleError
from skatbot.storage import lists as lists_store
from skatbot.storage import live_pages
from skatbot.storage import tournament as trepo
from skatbot.storage.base import utc_now
from skatbot.storage.lists_models import ListStatus
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.tournament import tables as tournament_tables
from skatbot.usecases.tournament import tournament_season
from skatbot.usecases.tournament.desk import latest
from skatbot.usecases.tournament.results import ranking_of

PATH = "/leinwand/"  # the page's path under the public address, followed by the token
TOKEN_BYTES = 16  # secrets.token_urlsafe(16): 128 random bits, 22 characters
SHOWN_AFTER_END = dt.timedelta(hours=24)
USAGE = "/leinwand – Link für die Leinwand · /leinwand aus – den Link sperren"

NO_PUBLIC_URL = (
    "ℹ️ Für die Leinwand braucht der Bot eine Adresse im Internet, und die fehlt noch.\n"
    "Wer den Bot betreibt, trägt sie ein: <code>SKATBOT_PUBLIC_URL=https://skat.example.org"
    "</code> (die eigene Adresse, unter der der Bot erreichbar ist) und startet den Bot neu. "
    "Danach gibt /leinwand hier den Link."
)


@dataclass(frozen=True)
class ShowLivePage:
    public_url: str | None  # BotState.public_url, filled by the handler


@dataclass(frozen=True)
class RevokeLivePage:
    pass


def parse(cmd: Command) -> ShowLivePage | RevokeLivePage:
    words = [w.casefold() for w in cmd.args]
    if not words:
        return ShowLivePage(cmd.public_url)
    if words == ["aus"]:
        return RevokeLivePage()
    raise RuleError("Das kenne ich bei /leinwand nicht.", hint=USAGE)


def leinwand(session: Session, place: Place, request: ShowLivePage | RevokeLivePage) -> Reply:
    """The management's (the route's right): the link, or revoking it."""
    if isinstance(request, RevokeLivePage):
        t = latest(place)
        if not live_pages.revoke(session, t.id):
            return Reply("Es gibt keinen gültigen Leinwand-Link. Einen neuen gibt /leinwand.")
        return Reply(
            f"🔒 Der Leinwand-Link für „{escape(t.name)}“ ist gesperrt: die Seite zeigt nichts "
            "mehr. Einen neuen Link gibt /leinwand."
        )
    t = tournament_season.running_at(place)
    if request.public_url is None:
        return Reply(NO_PUBLIC_URL)
    page = live_pages.current(session, t.id) or live_pages.issue(
        session, t.id, secrets.token_urlsafe(TOKEN_BYTES)
    )
    url = request.public_url.rstrip("/") + PATH + page.token
    return Reply(
        f"📺 <b>Leinwand für „{escape(t.name)}“</b>\n{escape(url)}\n"
        "Im Browser am Beamer öffnen (Vollbild mit F11). Die Seite zeigt Rangliste und Tische "
        "und folgt jeder Meldung von selbst; nur zum Ansehen.\n"
        "Sperren: /leinwand aus. Nach /turnier ende zeigt sie noch einen Tag den Endstand."
    )


# --- the page's contents -----------------------------------------------------------------------


def board(session: Session, token: str, now: dt.datetime | None = None) -> dict[str, Any] | None:
    """What the page at ``token`` shows, as JSON data; None: no such link (unknown, revoked,
    its tournament deleted, or ended longer than ``SHOWN_AFTER_END`` ago)."""
    page = live_pages.by_token(session, token)
    if page is None:
        return None
    t = trepo.tournament_by_id(session, page.tournament_id)
    if t is None:
        return None
    now = now or utc_now()
    if t.closed_at is not None and _aware(t.closed_at) + SHOWN_AFTER_END < now:
        return None
    done = trepo.load_series(session, t)
    over = t.closed_at is not None
    final = False
    if over:
        ranked, complete, _ = ranking_of(t, done)
        final = bool(complete)
    if not final:
        ranked, _ = tournament_tables.live_ranking(session, t)
    return {
        "name": t.name,
        "over": over,
        "final": final,  # the ranking is the final one (/rangliste), else the live one
        "series": [_series(s) for s in done],
        "tables": _tables(session, t, done[-1]) if done and not over else [],
        "ranking": [
            {"place": r.place, "name": r.standing.name, "points": r.standing.score} for r in ranked
        ],
    }


def _aware(moment: dt.datetime) -> dt.datetime:
    # SQLite hands back naive datetimes (stored as UTC)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def _series(s: trepo.LoadedSeries) -> dict[str, int]:
    reported = sum(all(n in s.results for n in table) for table in s.tables)
    return {"number": s.number, "tables": len(s.tables), "reported": reported}


def _tables(session: Session, t: Tournament, s: trepo.LoadedSeries) -> list[dict[str, Any]]:
    """The latest series' tables: reported, signing (list closed), playing (games booked so
    far of the series length), or waiting for their list."""
    links = {link.table_no: link for link in trepo.table_links(session, s.row)}
    out = []
    for no, names in enumerate(s.tables, 1):
        games = t.games_3 if len(names) == 3 else t.games_4
        entry: dict[str, Any] = {"table": no, "state": "waiting", "played": 0, "games": games}
        link = links.get(no)
        if not tr.missing_results([names], s.results):
            entry.update(state="reported", played=games)
        elif link is not None and link.list_id is not None:
            lst = lists_store.get_list(session, link.list_id)
            if lst is not None:
                sheet = lists_store.load(session, lst).sheet
                closed = lst.status is ListStatus.CLOSED
                entry.update(
                    state="signing" if closed else "playing",
                    played=sheet.games_played,
                    games=sheet.series_length,
                )
        out.append(entry)
    return out
