"""Setting a league up: ``/liga`` (the league and its settings), ``/mannschaft`` (teams, their
players and substitutes), ``/kapitaen`` (a team's captain by a one-time code sent to the person
the management names, ``roles``) and ``/ausrichter`` (a decentral day's host, on that day only,
the same way).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from skatbot.rules import league as lg
from skatbot.rules.calendar import berlin_date
from skatbot.rules.errors import RuleError
from skatbot.rules.money import format_money, parse_amount, whole_cents
from skatbot.rules.numbers import is_number
from skatbot.storage import league as league_store
from skatbot.storage import lists as lists_store
from skatbot.storage.database import ensure_chat, lock_chat
from skatbot.storage.league_models import (
    League,
    LeaguePlayer,
    LeagueTeam,
)
from skatbot.storage.unit import Session
from skatbot.usecases.common.names import clean_name
from skatbot.usecases.common.place_kinds import Becoming, refuse_other_kind
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.league import roles
from skatbot.usecases.league.common import (
    MAX_LEAGUE_NAME,
    MAX_SERIES,
    MAX_TEAM_NAME,
    MAX_TEAM_PLAYERS,
    TEAM_EXAMPLE,
    date_text,
    day_label,
    find_team,
    open_day,
    require_league,
    require_manager,
    team_prefix,
    visible_text,
)

# --- /liga ------------------------------------------------------------------------------------

_SETTINGS = ("serien", "mindestens", "verlustspiel", "reihenfolge", "wechsel", "matchpunkte")
_SUBSTITUTIONS = ("immer", "zwischen")


def liga(session: Session, cmd: Command) -> Reply:
    rest = " ".join(cmd.rest.split())
    league = league_store.league_of(session, cmd.place_id)
    if not rest:
        if league is None:
            raise RuleError(
                f"In {cmd.here} gibt es keine Liga.", hint="Lege eine an: /liga Landesliga Nord"
            )
        return Reply(_overview(session, league))
    if league is not None and rest.split()[0].casefold() in _SETTINGS:
        lock_chat(session, cmd.place_id)
        require_manager(league, cmd)
        return Reply(_setting(league, rest.split()))
    if league is not None:
        raise RuleError(
            f"In {cmd.here} gibt es schon die Liga „{escape(league.name)}“.",
            hint="Eine Liga je Chat – für eine zweite ein anderes Thema oder einen anderen Chat "
            "nehmen. Einstellungen: /liga serien 4 · /liga mindestens 50 · /liga verlustspiel "
            "0,50 € · /liga reihenfolge spielpunkte · /liga wechsel zwischen",
        )
    hosted = league_store.hosted_day(session, cmd.place_id)
    if hosted is not None:  # a league here would hide the day its host runs
        raise RuleError(
            f"Hier wird {day_label(hosted)} einer anderen Liga ausgerichtet – hier entsteht "
            "keine eigene Liga.",
            hint="Für eine eigene Liga ein anderes Thema oder einen anderen Chat nehmen.",
        )
    name = visible_text(rest, "Der Name der Liga", MAX_LEAGUE_NAME)
    ensure_chat(session, cmd.place_id, lock=True)
    refuse_other_kind(session, cmd, Becoming.LEAGUE_DESK)
    if lists_store.open_list(session, cmd.place_id) is not None:
        raise RuleError(
            f"In {cmd.here} läuft noch eine Liste.",
            hint="Schließ sie zuerst mit /abschluss ab, dann /liga NAME.",
        )
    league = league_store.add_league(
        session,
        chat_id=cmd.place_id,
        name=name,
        created_by=cmd.user_id,
        created_by_name=cmd.user_name,
        series_per_day=3,
        games_3=36,
        games_4=48,
        min_share=50,
        lost_fee_cents=0,
        ranking_order="matchpunkte",
        substitutions="immer",
    )
    return Reply(
        f"🏆 Liga „{escape(name)}“ angelegt.\n{settings_line(league)}\n"
        f"👉 Mannschaften eintragen: {TEAM_EXAMPLE} (eine Zeile je Mannschaft)."
    )


def settings_line(league: League) -> str:
    fee = (
        f", Verlustspielgeld {format_money(league.lost_fee_cents)} an den Ausrichter"
        if league.lost_fee_cents
        else ""
    )
    return (
        f"Einstellungen: {league.series_per_day} Serien je Spieltag, "
        f"{league.games_3}/{league.games_4} Spiele am Dreier-/Vierertisch, "
        f"{_match_points_text(league)}, "
        f"{order_text(league)}, Wechsel {_SUBSTITUTION_TEXT[league.substitutions]}, "
        f"Einzelwertung ab {league.min_share} % der Spiele{fee}."
    )


def _match_points_text(league: League) -> str:
    per = league.match_points_per_team
    return f"{per} Matchpunkt{'' if per == 1 else 'e'} je geschlagener Mannschaft"


_SUBSTITUTION_TEXT = {
    "immer": "zwischen und während der Serien",
    "zwischen": "nur zwischen den Serien",
}


def order_text(league: League) -> str:
    """How the league's tables rank, in words."""
    if league.ranking_order == "spielpunkte":
        return "Tabelle nach Spielpunkten, dann Matchpunkten"
    return "Tabelle nach Matchpunkten, dann Spielpunkten"


def _setting(league: League, words: list[str]) -> str:
    key = words[0].casefold()
    value = " ".join(words[1:])
    if key == "serien":
        if not is_number(value) or not 1 <= int(value) <= MAX_SERIES:
            raise RuleError(
                "Wie viele Serien je Spieltag?",
                hint=f"Eine Zahl von 1 bis {MAX_SERIES}, z. B. /liga serien 3.",
            )
        league.series_per_day = int(value)
    elif key == "mindestens":
        digits = value.rstrip("%").strip()
        if not is_number(digits) or not 0 <= int(digits) <= 100:
            raise RuleError(
                "Welcher Mindestanteil an Spielen für die Einzelwertung?",
                hint="Prozent von 0 bis 100, z. B. /liga mindestens 50.",
            )
        league.min_share = int(digits)
    elif key == "wechsel":
        policy = value.casefold()
        if policy not in _SUBSTITUTIONS:
            raise RuleError(
                "Wann darf gewechselt werden?",
                hint="/liga wechsel immer (auch während einer Serie, mit Spielnummer) oder "
                "/liga wechsel zwischen (nur zwischen den Serien).",
            )
        league.substitutions = policy
    elif key == "matchpunkte":
        if not is_number(value) or not 1 <= int(value) <= 10:
            raise RuleError(
                "Wie viele Matchpunkte je geschlagener Mannschaft?",
                hint="Eine Zahl von 1 bis 10, z. B. /liga matchpunkte 1 (DSkV: 3:0, 2:1, 1:2, 0:3) "
                "oder /liga matchpunkte 2.",
            )
        league.match_points_per_team = int(value)
    elif key == "reihenfolge":
        order = value.casefold()
        if order not in lg.ORDERS:
            raise RuleError(
                "Wonach soll die Tabelle ordnen?",
                hint="/liga reihenfolge matchpunkte (dann Spielpunkte) oder "
                "/liga reihenfolge spielpunkte (dann Matchpunkte).",
            )
        league.ranking_order = order
    else:
        league.lost_fee_cents = whole_cents(
            parse_amount(value, what="Verlustspielgeld", example="0,50 €"), what="Verlustspielgeld"
        )
    return "Gespeichert. " + settings_line(league)


def _overview(session: Session, league: League) -> str:
    lines = [f"🏆 <b>{escape(league.name)}</b>", settings_line(league)]
    squads = league_store.players(session, league)
    teams = league_store.teams(session, league)
    if not teams:
        lines.append(f"👉 Noch keine Mannschaften: {TEAM_EXAMPLE}")
    for t in teams:
        lines.append(_team_line(t, squads.get(t.id, [])))
    days = league_store.days(session, league)
    for d in days:
        state = "freigegeben" if d.approved_at else "vorläufig"
        lines.append(f"{day_label(d)}: {d.seated} Serie(n) gesetzt, {state}")
    return "\n".join(lines)


def _team_line(team: LeagueTeam, squad: Sequence[LeaguePlayer]) -> str:
    regular = [p.name for p in squad if not p.substitute]
    subs = [p.name for p in squad if p.substitute]
    text = f"<b>{escape(team.name)}</b>: " + ", ".join(escape(n) for n in regular)
    if subs:
        text += ", Ersatz " + ", ".join(escape(n) for n in subs)
    if team.captain_user_id is not None:
        text += f" · Kapitän: {escape(team.captain_name or 'gesetzt')}"
    return text


# --- /mannschaft ------------------------------------------------------------------------------


def _parse_team_line(line: str) -> tuple[str, list[str], list[str]]:
    if ":" not in line:
        raise RuleError(
            f"„{escape(line[:40])}“: Name und Spieler trennt ein Doppelpunkt.",
            hint=f"Z. B. {TEAM_EXAMPLE}",
        )
    head, _, body = line.partition(":")
    team = visible_text(head, "Der Name der Mannschaft", MAX_TEAM_NAME)
    if any(c in team for c in "#,[]"):
        raise RuleError(
            f"Der Mannschaftsname „{escape(team)}“ enthält #, Komma oder Klammern.",
            hint="Bitte ohne diese Zeichen.",
        )
    regular: list[str] = []
    subs: list[str] = []
    in_subs = False
    for item in body.split(","):
        words = item.split()
        if words and words[0].casefold() in ("ersatz", "ersatz:"):
            in_subs = True
            words = words[1:]
        if not words:
            continue
        name = clean_name(" ".join(words))
        (subs if in_subs else regular).append(name)
    seen: set[str] = set()
    for person in regular + subs:
        if person.casefold() in seen:
            raise RuleError(
                f"„{escape(person)}“ steht zweimal bei „{escape(team)}“.",
                hint="Jeden Namen nur einmal – bei Namensgleichheit einen Buchstaben anhängen "
                f"(Anna B.). Z. B. {TEAM_EXAMPLE}. Nichts wurde gespeichert.",
            )
        seen.add(person.casefold())
    if len(regular) < 3:
        raise RuleError(
            f"„{escape(team)}“ hat {len(regular)} Stammspieler – eine Mannschaft braucht "
            "mindestens 3.",
            hint=f"Z. B. {TEAM_EXAMPLE}",
        )
    if len(regular) + len(subs) > MAX_TEAM_PLAYERS:
        raise RuleError(
            f"„{escape(team)}“ hat mehr als {MAX_TEAM_PLAYERS} Spieler.",
            hint="Bitte die Liste kürzen.",
        )
    return team, regular, subs


def mannschaft(session: Session, cmd: Command) -> Reply:
    lines = [" ".join(line.split()) for line in cmd.rest.splitlines()]
    lines = [line for line in lines if line]
    lock_chat(session, cmd.place_id)
    league = require_league(session, cmd)
    if not lines:
        squads = league_store.players(session, league)
        teams = league_store.teams(session, league)
        if not teams:
            raise RuleError("Noch keine Mannschaften.", hint=f"Z. B. {TEAM_EXAMPLE}")
        return Reply("\n".join(_team_line(t, squads.get(t.id, [])) for t in teams))
    require_manager(league, cmd)
    parsed = [_parse_team_line(line) for line in lines]
    teams = league_store.teams(session, league)
    known = {t.name.casefold() for t in teams}
    new_teams = {name.casefold() for name, _, _ in parsed} - known
    if len(known) + len(new_teams) > lg.MAX_TEAMS:
        raise RuleError(
            f"Eine Liga hier ist eine Spieltagsgruppe: höchstens {lg.MAX_TEAMS} Mannschaften, "
            "die sich an jedem Spieltag treffen.",
            hint="Für mehr Mannschaften je Gruppe eine eigene Liga (ein eigenes Thema oder "
            "einen eigenen Chat). Nichts wurde gespeichert.",
        )
    squads = league_store.players(session, league)
    changing = {name.casefold() for name, _, _ in parsed}
    owner: dict[str, str] = {
        p.name.casefold(): t.name
        for t in teams
        if t.name.casefold() not in changing
        for p in squads.get(t.id, [])
    }
    for name, regular, subs in parsed:
        for person in regular + subs:
            other = owner.get(person.casefold())
            if other is not None and other != name:
                raise RuleError(
                    f"„{escape(person)}“ steht schon bei „{escape(other)}“.",
                    hint="Jeder Name nur einmal in der Liga – bei Namensgleichheit einen "
                    "Buchstaben anhängen (Anna B.). Nichts wurde gespeichert.",
                )
            owner[person.casefold()] = name
    out = []
    for name, regular, subs in parsed:
        team = find_team(teams, name)
        if team is None:
            team = league_store.add_team(session, league, name)
            teams.append(team)
            verb = "eingetragen"
        else:
            verb = "geändert"
        league_store.set_players(session, team, regular, subs)
        out.append(
            f"{_team_line(team, league_store.players(session, league).get(team.id, []))} – {verb}"
        )
    out.append(
        "👉 Kapitäne: auf eine Nachricht der Person antworten mit /kapitaen TEAM – ich schicke "
        "ihr den Code privat. Dann: /spieltag 1 Ort"
    )
    return Reply("\n".join(out))


def ausrichter(session: Session, cmd: Command) -> Reply:
    """At the league's desk the management names a decentral day's host (the code goes to
    that person alone); in the host's chat the host links it to the day with the code
    (valid on the day's date)."""
    lock_chat(session, cmd.place_id)
    league = league_store.league_of(session, cmd.place_id)
    typed = cmd.args[0].upper() if len(cmd.args) == 1 else ""
    if league is not None and not roles.HOST_CODE.fullmatch(typed):
        require_manager(league, cmd)
        day = open_day(session, league)
        return roles.hand_out_host(session, cmd, league, day, " ".join(cmd.args))
    if not typed:
        raise RuleError(
            "Welcher Ausrichter-Code?",
            hint="Z. B. /ausrichter A7F3Q2X9 – den Code schickt dir die Ligaleitung privat.",
        )
    code = roles.redeem(session, cmd, typed, roles.HOST)
    assert code.day_id is not None  # a host's code names its day (deleted with it)
    day = league_store.day_by_id(session, code.day_id)
    if day.play_date != berlin_date(None):
        raise RuleError(
            f"Der Code gilt nur am {date_text(day.play_date)} ({day_label(day)}).",
            hint="Bitte an diesem Tag senden. Nichts wurde geändert.",
        )
    if league is not None:
        raise RuleError(
            "Hier ist die Ligaleitung selbst – hier braucht es keinen Ausrichter.",
            hint="Den Code im Chat des Ausrichters senden.",
        )
    refuse_other_kind(session, cmd, Becoming.HOST)
    if (cmd.telegram_chat_id or cmd.place_id) > 0:
        raise RuleError(
            "Den Spieltag führt ihr in einer Gruppe, nicht im privaten Chat mit mir.",
            hint=f"Den Code in der Gruppe für den Spieltag senden: /ausrichter {code.code}",
        )
    assert cmd.user_id is not None  # roles.redeem refuses anonymous senders
    ensure_chat(session, cmd.place_id)
    roles.use(code)
    day.host_chat_id = cmd.place_id
    day.host_user_id = cmd.user_id
    day.host_name = cmd.user_name
    return Reply(
        f"🏠 {escape(cmd.user_name)} richtet hier {day_label(day)} aus – heute, "
        f"{date_text(day.play_date)}. Die Ergebnisse bleiben vorläufig, bis die Ligaleitung "
        "freigibt.\n👉 /aufstellung · /setzen · /ergebnis Anna 437 12 3 · /wechsel"
    )


def kapitaen(session: Session, cmd: Command) -> Reply:
    """``/kapitaen TEAM`` at the league's desk (the management, naming the person: the code
    goes to them alone); ``/kapitaen CODE`` anywhere, by that person: they are the captain."""
    typed = cmd.args[0].upper() if len(cmd.args) == 1 else ""
    if not cmd.args:
        raise RuleError(
            "Welcher Kapitäns-Code?",
            hint="Z. B. /kapitaen K7F3Q2X9 – den Code schickt dir die Ligaleitung privat.",
        )
    league = league_store.league_of(session, cmd.place_id)
    if league is not None and not roles.CAPTAIN_CODE.fullmatch(typed):
        lock_chat(session, cmd.place_id)
        require_manager(league, cmd)
        team, rest = team_prefix(league_store.teams(session, league), " ".join(cmd.args))
        return roles.hand_out_captain(session, cmd, league, team, rest)
    code = roles.redeem(session, cmd, typed or " ".join(cmd.args), roles.CAPTAIN)
    captained = league_store.team_by_id(session, code.team_id) if code.team_id is not None else None
    assert captained is not None  # a captain's code names its team (deleted with it)
    assert cmd.user_id is not None  # roles.redeem refuses anonymous senders
    roles.use(code)
    captained.captain_user_id = cmd.user_id
    captained.captain_name = cmd.user_name
    return Reply(
        f"✅ {escape(cmd.user_name)} ist Kapitän von „{escape(captained.name)}“.\n"
        "👉 Aufstellung ändern: /aufstellung "
        f"{escape(captained.name)}: A, B, C, D · Wechsel: /wechsel {escape(captained.name)} "
        "NEU für ALT"
    )
