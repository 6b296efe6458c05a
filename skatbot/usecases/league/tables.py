"""League tables that report themselves: ``/tisch CODE`` (a code of the seating, 7
characters from "L") opens the table's list in the table's own chat (the lifecycle shared
with the Preisskat's tables, ``usecases.tables.lifecycle``; this module is the league's
``Side``); closing it with ``/abschluss`` enters the list's totals as the table's results
through the one result path (:func:`skatbot.usecases.league.results.store_results`),
provisional until the day is approved, and tells the desk (and a decentral day's host).
"""

from __future__ import annotations

from html import escape
from typing import Final

from skatbot.rules import tournament as tr
from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError
from skatbot.storage import league as league_store
from skatbot.storage import lists as lists_store
from skatbot.storage import table_lists, topic_places
from skatbot.storage.database import lock_chat
from skatbot.storage.league_models import LeagueTable, MatchDay
from skatbot.storage.table_lists import Table, TableKind
from skatbot.storage.unit import Session
from skatbot.usecases.common.continuations import continuation
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Post, Reply
from skatbot.usecases.common.rights import is_person
from skatbot.usecases.league.common import date_text, day_label, load_day
from skatbot.usecases.league.results import store_results
from skatbot.usecases.tables import lifecycle
from skatbot.usecases.tournament.tables import topic_opener


def _row(table: Table) -> LeagueTable:
    assert isinstance(table.row, LeagueTable)  # a league's table
    return table.row


def _label(day: MatchDay, table: Table) -> str:
    return f"{day_label(day)} · Serie {table.series} · Tisch {table.table_no}"


class _LeagueSide:
    """A seated table: played on its day while its series is the latest; linked by the
    captains, the host and the league's creator; the list's close reports its results."""

    def check_free(self, session: Session, place: Place, table: Table) -> None:
        day = league_store.day_by_id(session, table.owner)
        label = _label(day, table)
        if day.approved_at is not None or table.series != day.seated:
            raise RuleError(
                f"{label} wird nicht mehr gespielt.",
                hint="Den Code der laufenden Serie nehmen (/sitzplan bei der Ligaleitung).",
            )
        if day.play_date is not None and day.play_date != berlin_date(None):
            raise RuleError(
                f"Die Tischcodes von {day_label(day)} gelten nur am {date_text(day.play_date)}.",
                hint="An diesem Tag senden – oder die Ligaleitung trägt mit /ergebnis ein.",
            )
        if table.list_id is not None:
            raise RuleError(
                f"{label} spielt schon auf einer Liste.",
                hint="Dort weiterspielen; die Ligaleitung kann die Ergebnisse auch mit /ergebnis "
                "eintragen.",
            )

    def check_linker(self, session: Session, place: Place, table: Table) -> None:
        day = league_store.day_by_id(session, table.owner)
        league = league_store.league_by_id(session, day.league_id)
        teams = league_store.teams(session, league)
        allowed = {t.captain_user_id for t in teams} | {league.created_by, day.host_user_id}
        user_id = place.asker.user_id
        if not is_person(user_id) or user_id not in allowed:
            raise RuleError(
                f"{_label(day, table)} verknüpfen die Kapitäne, der Ausrichter und die "
                "Ligaleitung.",
                hint="Bitte einen Kapitän, /tisch CODE hier zu senden.",
            )

    def seating(self, session: Session, table: Table) -> lifecycle.Seating:
        """The series' players in seat order, the series length of a table of its size."""
        day = league_store.day_by_id(session, table.owner)
        league = league_store.league_by_id(session, day.league_id)
        state = load_day(session, league, day)
        seats = state.tables(table.series)[table.table_no - 1]
        return lifecycle.Seating(
            [state.occupants(table.series, seat)[0][0] for seat in seats],
            state.games(len(seats)),
            f"🏆 <b>{escape(league.name)} – {_label(day, table)}</b>",
            "\nAm Ende: /abschluss – das Ergebnis geht vorläufig an die Ligaleitung; die "
            "Kapitäne bestätigen den Spieltag mit /bestaetigen.",
        )

    def linked(self, session: Session, place: Place, table: Table, reply: Reply) -> Reply:
        return reply  # the desk hears of the table when it reports


SIDE: Final = _LeagueSide()


@continuation("league.topic_created")
def topic_created(
    session: Session,
    table_id: int,
    user_id: int | None,
    user_name: str,
    telegram_chat: int,
    name: str,
    thread_id: int,
) -> Reply:
    """The table's forum topic ``thread_id`` exists: open its list there."""
    opener = topic_opener(session, telegram_chat, thread_id, name, user_id, user_name)
    table = table_lists.by_id(session, TableKind.LEAGUE, table_id)
    if table is None or table.list_id is not None:
        return Reply("")  # deleted, or linked with /tisch meanwhile
    return lifecycle.open_list(session, opener, table, SIDE.seating(session, table))


@continuation("league.topic_refused")
def topic_refused(session: Session, table_id: int) -> Reply:
    """Telegram refused the table's topic: the desk is told once to use the codes."""
    table = table_lists.by_id(session, TableKind.LEAGUE, table_id)
    if table is None or table.list_id is not None or table.table_no != 1:
        return Reply("")
    return Reply(
        "⚠️ Themen für die Tische darf ich hier nicht anlegen.\n"
        "👉 Gib mir das Admin-Recht „Themen verwalten“ – oder jeder Tisch schickt in seinem "
        "Chat oder Thema /tisch CODE (die Codes stehen im Sitzplan)."
    )


def after_close(session: Session, cmd: Command, loaded: lists_store.LoadedList) -> tuple[Post, ...]:
    """A league table's list was closed: its totals are the table's results (nothing for other
    lists). The list closes in any case; what cannot be taken over is said at the table and
    entered by the management with /ergebnis."""
    table = table_lists.of_list(session, loaded.lst.id)
    if table is None or table.kind is not TableKind.LEAGUE:
        return ()
    here = (cmd.telegram_chat_id or cmd.place_id, cmd.thread_id)
    label = f"Serie {table.series} · Tisch {table.table_no}"
    try:
        return _report_table(session, cmd, loaded, table.owner, table.series, table.table_no)
    except RuleError as err:
        note = (
            f"⚠️ {label}: nicht an die Ligaleitung übernommen – {err.message}\n"
            f"👉 {err.hint or 'Die Ligaleitung trägt es mit /ergebnis ein.'}"
        )
        return (Post(here[0], here[1], Reply(note)),)


def _report_table(
    session: Session,
    cmd: Command,
    loaded: lists_store.LoadedList,
    day_id: int,
    series: int,
    table_no: int,
) -> tuple[Post, ...]:
    day = league_store.day_by_id(session, day_id)
    league = league_store.league_by_id(session, day.league_id)
    lock_chat(session, league.chat_id)  # the desk's /ergebnis and other tables write this day
    label = f"Serie {series} · Tisch {table_no}"
    if day.approved_at is not None:
        raise RuleError(
            f"{day_label(day)} ist schon freigegeben.",
            hint="Fragen zur Wertung an die Ligaleitung.",
        )
    if loaded.sheet.house is not None:
        raise RuleError(
            "Ligatische spielen nach ISkO, diese Liste nach Hausregeln.",
            hint="Das Ergebnis bitte bei der Ligaleitung mit /ergebnis eintragen.",
        )
    state = load_day(session, league, day)
    table = state.tables(series)[table_no - 1]
    if any(len(state.occupants(series, seat)) > 1 for seat in table):
        raise RuleError(
            "an diesem Tisch gab es einen Wechsel während der Serie, die Liste kennt nur einen "
            "Namen je Platz.",
            hint="Die Ergebnisse bitte bei der Ligaleitung mit /ergebnis eintragen (beide "
            "Personen einzeln).",
        )
    entered = {
        x.name: tr.SeriesResult(x.name, x.game_points, x.won, x.lost) for x in loaded.sheet.totals()
    }
    lines = store_results(session, state, series, entered, cmd.user_id, cmd.update_id)
    chat, thread = topic_places.telegram_of(session, league.chat_id)
    desk = Reply(f"📋 <b>{day_label(day)} · {label}</b> meldet (vorläufig):\n" + "\n".join(lines))
    posts = [Post(chat, thread, desk)]
    if day.host_chat_id is not None and day.host_chat_id != league.chat_id:
        host_chat, host_thread = topic_places.telegram_of(session, day.host_chat_id)
        posts.append(Post(host_chat, host_thread, desk))
    here = Reply(f"✅ {label}: an die Ligaleitung gemeldet (vorläufig, bis zur Freigabe).")
    posts.append(Post(cmd.telegram_chat_id or cmd.place_id, cmd.thread_id, here))
    return tuple(posts)
