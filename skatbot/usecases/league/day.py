"""A match day: ``/spieltag`` opens it with every team's line-up, ``/aufstellung`` changes the
line-up for series 1 (which fixes the day's seating), ``/setzen`` seats the next series,
``/sitzplan`` shows one, ``/wechsel`` substitutes between or during a series.
"""

from __future__ import annotations

import re
import secrets
from html import escape

from skatbot.rules import league as lg
from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError, TournamentError
from skatbot.rules.numbers import is_number, refuse_foreign_digits
from skatbot.storage import league as league_store
from skatbot.storage.database import lock_chat
from skatbot.storage.league_models import (
    League,
    LeagueTable,
    MatchDay,
)
from skatbot.storage.unit import Session
from skatbot.usecases.common.reply import Call, Command, NewTopic, Reply
from skatbot.usecases.league.common import (
    DATE_FORM,
    RESULT_EXAMPLE,
    SEED_DIGITS,
    TEAM_EXAMPLE,
    DayState,
    current_day,
    date_text,
    day_label,
    desk_of,
    load_day,
    open_day,
    parse_date,
    refuse_other_team,
    refuse_twice_in_squads,
    require_captain,
    require_league,
    require_manager,
    require_runner,
    team_prefix,
    visible_text,
)

# --- /spieltag, /aufstellung ------------------------------------------------------------------


def spieltag(session: Session, cmd: Command) -> Reply:
    words = cmd.rest.split()
    if not words or not is_number(words[0]) or not 1 <= int(words[0]) <= 99:
        raise RuleError("Welcher Spieltag?", hint="Z. B. /spieltag 1 Vereinsheim Reken")
    number = int(words[0])
    play_date = berlin_date(None)
    if len(words) > 1:  # a date written with other digits is refused, not taken for the place
        refuse_foreign_digits(words[-1], "das Datum", "/spieltag 2 Reken 14.03.2027")
    if len(words) > 1 and DATE_FORM.match(words[-1]):
        play_date = parse_date(words[-1])
        words = words[:-1]
    venue = visible_text(" ".join(words[1:]), "Der Ort", 64) if words[1:] else None
    lock_chat(session, cmd.place_id)
    league = require_league(session, cmd)
    require_manager(league, cmd)
    if any(d.number == number for d in league_store.days(session, league)):
        raise RuleError(
            f"Spieltag {number} gibt es schon.",
            hint=f"Den nächsten anlegen: /spieltag {number + 1}. Lesen: /tabelle {number}.",
        )
    teams = league_store.teams(session, league)
    if len(teams) < 3:
        raise RuleError(
            f"Die Liga hat {len(teams)} Mannschaft(en) – ein Spieltag braucht mindestens 3.",
            hint=f"Mannschaften eintragen: {TEAM_EXAMPLE}",
        )
    squads = league_store.players(session, league)
    refuse_twice_in_squads({t: [p.name for p in ps] for t, ps in squads.items()}, teams)
    low = 10 ** (SEED_DIGITS - 1)
    seed = str(low + secrets.randbelow(9 * low))
    day = league_store.add_day(
        session,
        league,
        number=number,
        venue=venue,
        seed=seed,
        seated=0,
        created_by=cmd.user_id,
        play_date=play_date,
        confirmed="{}",
    )
    for team in teams:
        league_store.add_day_team(session, day, team)
        regular = [p.name for p in squads.get(team.id, []) if not p.substitute][:4]
        league_store.replace_lineup(session, day, team, regular, cmd.user_id)
    state = load_day(session, league, day)
    return Reply(
        f"📅 {day_label(day)} am {date_text(play_date)} angelegt (Startwert {seed}).\n"
        + _lineups_text(state)
        + "\nAusrichter (dezentral): auf eine Nachricht der Person antworten mit /ausrichter – "
        f"ich schicke ihr den Code privat (gilt nur am {date_text(play_date)}, einmal)."
        + "\n👉 Ändern: /aufstellung Nord: Anna, Bernd, Carla, Erik (Kapitän oder Leitung), "
        "nicht angetreten: /aufstellung Nord fehlt · dann /setzen"
    )


def _lineups_text(state: DayState) -> str:
    lines = ["Aufstellung zur 1. Serie:"]
    for team in state.teams:
        if not state.appeared.get(team.id, False):
            lines.append(f"{escape(team.name)}: nicht angetreten")
        else:
            lines.append(
                f"{escape(team.name)}: " + ", ".join(escape(n) for n in state.first_lineup(team))
            )
    return "\n".join(lines)


def aufstellung(session: Session, cmd: Command) -> Reply:
    text = " ".join(cmd.rest.split())
    lock_chat(session, cmd.place_id)
    desk = desk_of(session, cmd, reading=not text)
    league = desk.league
    if not text:
        day = current_day(session, desk)
        state = load_day(session, league, day)
        return Reply(f"{day_label(day)}\n" + _lineups_text(state))
    day = open_day(session, desk)
    teams = league_store.teams(session, league)
    team, rest = team_prefix(teams, text)
    require_captain(desk, team, cmd)
    if day.seated:
        raise RuleError(
            "Die Aufstellung zur 1. Serie legt den Sitzplan des Tages fest – Serie 1 ist "
            "schon gesetzt.",
            hint=f"Spieler tauschen: /wechsel {escape(team.name)} NEU für ALT "
            "(mit „spiel N“ während einer Serie).",
        )
    squad = league_store.players(session, league).get(team.id, [])
    rows = [r for r in league_store.day_teams(session, day) if r.team_id == team.id]
    # a team entered after the day was opened is not on it yet (it counts as absent)
    on_day = rows[0] if rows else league_store.add_day_team(session, day, team, appeared=False)
    if rest.casefold() in ("fehlt", "nicht angetreten", "-"):
        on_day.appeared = False
        league_store.replace_lineup(session, day, team, [], cmd.user_id)
        return Reply(
            f"„{escape(team.name)}“ tritt an {day_label(day)} nicht an: keine Matchpunkte, "
            "keine Spielpunkte.\n👉 Doch da: /aufstellung "
            f"{escape(team.name)}: A, B, C, D"
        )
    names = []
    known = {p.name.casefold(): p.name for p in squad}
    for item in rest.split(","):
        word = " ".join(item.split())
        if not word:
            continue
        name = known.get(word.casefold())
        if name is None:
            raise RuleError(
                f"„{escape(word[:32])}“ spielt nicht für „{escape(team.name)}“.",
                hint="Spieler: " + ", ".join(escape(p.name) for p in squad) + ". Neue Spieler "
                "trägt die Ligaleitung mit /mannschaft ein. Nichts wurde geändert.",
            )
        if name in names:
            raise RuleError(
                f"„{escape(name)}“ steht doppelt in der Aufstellung.",
                hint="Jeden Namen einmal. Nichts wurde geändert.",
            )
        names.append(name)
    if not 3 <= len(names) <= 4:
        raise RuleError(
            f"{len(names)} Spieler aufgestellt – eine Mannschaft spielt mit 4 (oder 3).",
            hint=f"Z. B. /aufstellung {escape(team.name)}: Anna, Bernd, Carla, Dora. "
            "Nichts wurde geändert.",
        )
    refuse_other_team(load_day(session, league, day), team, names)
    on_day.appeared = True
    league_store.replace_lineup(session, day, team, names, cmd.user_id)
    state = load_day(session, league, day)
    return Reply(f"✅ Aufstellung geändert.\n{_lineups_text(state)}")


# --- /setzen, /sitzplan -----------------------------------------------------------------------


def setzen(session: Session, cmd: Command) -> Reply:
    lock_chat(session, cmd.place_id)
    desk = desk_of(session, cmd)
    league = desk.league
    require_runner(desk, cmd)
    day = open_day(session, desk)
    state = load_day(session, league, day)
    if day.seated >= league.series_per_day:
        raise RuleError(
            f"Alle {league.series_per_day} Serien von {day_label(day)} sind gesetzt.",
            hint="Fehlende Ergebnisse: /ergebnis NAME SPIELPUNKTE GEWONNEN VERLOREN; "
            "dann /freigeben.",
        )
    if day.seated and state.missing(day.seated):
        raise RuleError(
            f"In Serie {day.seated} fehlen noch Ergebnisse: "
            + ", ".join(escape(n) for n in state.missing(day.seated))
            + ".",
            hint="Erst alle eintragen: " + RESULT_EXAMPLE,
        )
    if not day.seated:
        lineups = {t.id: state.first_lineup(t) for t in state.teams if state.appeared.get(t.id)}
        refuse_twice_in_squads(lineups, state.teams, "/aufstellung")
        try:
            lg.plan_tables(state.sizes)  # refuses a layout Anlage 10 cannot seat
        except TournamentError as err:
            raise RuleError(err.problem + ".", hint=err.fix[:1].upper() + err.fix[1:]) from None
    day.seated += 1
    league_store.add_tables(
        session, day, day.seated, _table_codes(session, len(state.tables(day.seated)))
    )
    text = _seating_text(state, day.seated, table_codes_of(session, day, day.seated))
    if cmd.is_forum and cmd.telegram_chat_id:  # a topic per table, its list opened there
        topics = tuple(
            _topic(cmd, league, day, link) for link in league_store.tables(session, day, day.seated)
        )
        how = (
            "\n📋 Jeder Tisch bekommt hier ein eigenes Thema mit seiner Liste – dort eintragen, "
            "am Ende /abschluss; das Ergebnis kommt von selbst hierher."
        )
        return Reply(text + how, topics=topics)
    return Reply(
        text + f"\n👉 Jeder Tisch in seinem Chat: /tisch CODE – die Liste meldet nach /abschluss "
        f"selbst. Oder die Leitung: {RESULT_EXAMPLE}"
    )


def _topic(cmd: Command, league: League, day: MatchDay, link: LeagueTable) -> NewTopic:
    name = f"{league.name[:80]} · Tag {day.number} S{link.series} Tisch {link.table_no}"
    created = Call(
        "league.topic_created",
        (link.id, cmd.user_id, cmd.user_name, cmd.telegram_chat_id, name),
    )
    refused = Call("league.topic_refused", (link.id,))
    return NewTopic(cmd.telegram_chat_id, name, created, refused)


def _table_codes(session: Session, count: int) -> list[str]:
    """Codes for ``/tisch``: 7 characters from "L", never one of a Preisskat's (6)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    while True:
        codes = ["L" + "".join(secrets.choice(alphabet) for _ in range(6)) for _ in range(count)]
        if len(set(codes)) == count and not league_store.codes_taken(session, codes):
            return codes


def table_codes_of(session: Session, day: MatchDay, series: int) -> dict[int, str]:
    return {t.table_no: t.code for t in league_store.tables(session, day, series)}


def _seat_text(state: DayState, series: int, seat: lg.Seat) -> str:
    people = state.occupants(series, seat)
    names = " → ".join(
        escape(name) + (f" ab Spiel {first}" if first > 1 else "") for name, first in people
    )
    return f"{names} ({escape(seat.team)})"


def _seating_text(state: DayState, series: int, codes: dict[int, str] | None = None) -> str:
    sizes = ", ".join(f"{escape(t)} {n}" for t, n in state.sizes.items())
    lines = [f"🪑 <b>{day_label(state.day)} · Serie {series}</b>"]
    for i, table in enumerate(state.tables(series), 1):
        code = f", /tisch {codes[i]}" if codes and i in codes else ""
        lines.append(
            f"Tisch {i} ({len(table)}er, {state.games(len(table))} Spiele{code}): "
            + ", ".join(_seat_text(state, series, seat) for seat in table)
        )
    lines.append(f"Nachrechenbar: Startwert {state.day.seed}, Aufstellung Serie 1: {sizes}.")
    return "\n".join(lines)


def sitzplan(session: Session, cmd: Command) -> Reply:
    desk = desk_of(session, cmd, reading=True)
    league = desk.league
    day = current_day(session, desk)
    if not day.seated:
        raise RuleError(
            f"{day_label(day)}: noch keine Serie gesetzt.",
            hint="Die Ligaleitung setzt mit /setzen.",
        )
    series = day.seated
    if cmd.args:
        if not is_number(cmd.args[0]) or not 1 <= int(cmd.args[0]) <= day.seated:
            raise RuleError(
                f"Serie „{escape(cmd.args[0][:8])}“ gibt es nicht.",
                hint=f"Gesetzt: Serie 1 bis {day.seated}, z. B. /sitzplan 1.",
            )
        series = int(cmd.args[0])
    return Reply(
        _seating_text(load_day(session, league, day), series, table_codes_of(session, day, series))
    )


# --- /wechsel ---------------------------------------------------------------------------------

_SUBSTITUTION = re.compile(
    r"^(?P<new>.+?)\s+f(?:ü|ue)r\s+(?P<old>.+?)(?:\s+(?:ab\s+)?spiel\s+(?P<game>\S+))?$",
    re.IGNORECASE,
)
WECHSEL_EXAMPLE = (
    "/wechsel Nord Erik für Anna – während einer Serie: /wechsel Nord Erik für Anna spiel 17"
)


def wechsel(session: Session, cmd: Command) -> Reply:
    text = " ".join(cmd.rest.split())
    lock_chat(session, cmd.place_id)
    desk = desk_of(session, cmd)
    league = desk.league
    if not text:
        raise RuleError("Wer wechselt für wen?", hint=WECHSEL_EXAMPLE)
    day = open_day(session, desk)
    teams = league_store.teams(session, league)
    team, rest = team_prefix(teams, text)
    require_captain(desk, team, cmd)
    found = _SUBSTITUTION.match(rest)
    if not found:
        raise RuleError("Das verstehe ich nicht als Wechsel.", hint=WECHSEL_EXAMPLE)
    if not day.seated:
        raise RuleError(
            "Vor der 1. Serie ist das kein Wechsel, sondern die Aufstellung.",
            hint=f"/aufstellung {escape(team.name)}: A, B, C, D",
        )
    state = load_day(session, league, day)
    squad = league_store.players(session, league).get(team.id, [])
    known = {p.name.casefold(): p.name for p in squad}
    new = known.get(found.group("new").casefold())
    old = known.get(found.group("old").casefold())
    for word, name in ((found.group("new"), new), (found.group("old"), old)):
        if name is None:
            raise RuleError(
                f"„{escape(word[:32])}“ spielt nicht für „{escape(team.name)}“.",
                hint="Spieler: "
                + ", ".join(escape(p.name) for p in squad)
                + ". Nichts wurde geändert.",
            )
    assert new is not None and old is not None
    refuse_other_team(state, team, [new])
    game_word = found.group("game")
    during = game_word is not None
    game: int | None = None
    if not during:
        series = day.seated + 1
        if series > league.series_per_day:
            raise RuleError(
                "Nach der letzten Serie gibt es keinen Wechsel zwischen den Serien mehr.",
                hint=f"Während der Serie {day.seated}: /wechsel {escape(team.name)} {escape(new)} "
                f"für {escape(old)} spiel N",
            )
    else:
        if league.substitutions == "zwischen":
            raise RuleError(
                "In dieser Liga wird nur zwischen den Serien gewechselt.",
                hint=f"Ab der nächsten Serie: /wechsel {escape(team.name)} {escape(new)} "
                f"für {escape(old)} (ohne „spiel N“).",
            )
        series = day.seated
        if state.complete(series):
            raise RuleError(
                f"Serie {series} ist schon fertig eingetragen.",
                hint=f"Wechsel zur nächsten Serie: /wechsel {escape(team.name)} {escape(new)} "
                f"für {escape(old)}",
            )
        game = int(game_word) if game_word and is_number(game_word) else None
    seats = [lg.Seat(team.name, slot) for slot in range(1, state.sizes.get(team.name, 0) + 1)]
    # who sits there now: during a series its last player, between series the first of the next
    current = {seat: state.occupants(series, seat)[-1 if during else 0][0] for seat in seats}
    seat = next((s for s, name in current.items() if name == old), None)
    if seat is None:
        raise RuleError(
            f"„{escape(old)}“ spielt gerade nicht für „{escape(team.name)}“.",
            hint="Es spielen: " + ", ".join(escape(n) for n in current.values()) + ".",
        )
    if new in current.values():
        raise RuleError(
            f"„{escape(new)}“ spielt schon.", hint="Für wen kommt die Person? " + WECHSEL_EXAMPLE
        )
    if during:
        table = next(t for t in state.tables(series) if seat in t)
        games = state.games(len(table))
        if game is None or not 2 <= game <= games:
            raise RuleError(
                f"Spiel „{escape((game_word or '')[:8])}“ gibt es in dieser Serie nicht.",
                hint=f"Die Nummer des ersten Spiels der neuen Person: 2 bis {games}.",
            )
        earlier = state.occupants(series, seat)[-1][1]
        if game <= earlier:
            raise RuleError(
                f"„{escape(old)}“ spielt erst ab Spiel {earlier}.",
                hint=f"Ein späteres Spiel als {earlier} angeben.",
            )
    league_store.add_substitution(session, day, team, seat.slot, new, series, game, cmd.user_id)
    if game is None:
        return Reply(
            f"🔁 {escape(team.name)}: {escape(new)} spielt ab Serie {series} für {escape(old)} "
            "(auf demselben Platz des Sitzplans)."
        )
    return Reply(
        f"🔁 {escape(team.name)}: {escape(new)} spielt in Serie {series} ab Spiel {game} für "
        f"{escape(old)} – vermerkt. Beide tragen ihre Ergebnisse ein; die Spielpunkte der "
        "Mannschaft zählen zusammen."
    )
