"""German reply texts (HTML). Names are always escaped."""

from __future__ import annotations

import dataclasses
import datetime as dt
from html import escape

from skatbot.rules.errors import RuleError
from skatbot.rules.game import Announcement
from skatbot.rules.grammar import contract_text, doubling_words, format_announcement
from skatbot.rules.house import Phase
from skatbot.rules.ranking import Ranked, lot_note, rank_standings
from skatbot.rules.scoring import WIN_BONUS, minus_sign, opponents_bonus
from skatbot.rules.sheet import Entry, Sheet, Status
from skatbot.rules.value import WIN_MIN, GameResult, LossReason, evaluate


def series_count(n: int) -> str:
    """ "1 Serie", "3 Serien"."""
    return "1 Serie" if n == 1 else f"{n} Serien"


def signed(n: int) -> str:
    """A booking with its sign: "+72", "−144", "0"."""
    return f"+{minus_sign(n)}" if n > 0 else minus_sign(n)


def game_label(result: GameResult) -> str:
    a = result.announcement
    text = contract_text(a, schneider=result.schneider, schwarz=result.schwarz)
    return " ".join([text, *doubling_words(a)])


def progress(sheet: Sheet) -> str:
    """E.g. "Spiel 13/36 · Geber Bernd · Vorhand Carla" (the next deal)."""
    if sheet.games_played >= sheet.series_length:
        return f"Serie voll: {sheet.games_played}/{sheet.series_length} · /abschluss"
    p = sheet.players
    if sheet.house is not None:
        return _house_progress(sheet)
    return (
        f"Spiel {sheet.games_played + 1}/{sheet.series_length} · Geber {escape(p[sheet.next_dealer])}"
        f" · Vorhand {escape(p[sheet.vorhand])}"
    )


def _house_progress(sheet: Sheet) -> str:
    p = sheet.players
    line = (
        f"Spiel {sheet.games_played + 1}/{sheet.series_length} · Geber {escape(p[sheet.next_dealer])}"
        f" · Vorhand {escape(p[sheet.vorhand])}\n{house_line(sheet)}"
    )
    state = sheet.state
    if state.phase is Phase.RAMSCH:
        if state.sick_now is not None:
            line += f"\n🤒 {escape(p[state.sick_now])} ist krank und spielt Grand Hand."
        else:
            line += "\n🤒 Alle gesund? Dann /ramsch VERLIERER AUGEN – sonst /krank NAME."
    return line


def ranked(sheet: Sheet, seed: str) -> list[Ranked]:
    return rank_standings(sheet.standings(), seed)


def standings_line(sheet: Sheet, seed: str) -> str:
    return " · ".join(
        f"{escape(r.standing.name)} {minus_sign(r.standing.score)}" for r in ranked(sheet, seed)
    )


def house_line(sheet: Sheet) -> str:
    """The 3B3R state, e.g. "🎲 Bock 2/3 · danach Ramsch · 1 ausstehend"."""
    if sheet.house is None:
        return ""
    return f"🎲 {sheet.state.label()}"


def loss_reason(r: GameResult) -> str:
    """Why a game is lost, e.g. "Schwarz angesagt, aber nicht alle Stiche" ("" if unknown)."""
    a = r.announcement
    points = a.card_points
    reason = r.loss_reason
    if reason is LossReason.POINTS:
        return f"nur {points} Augen des Alleinspielers, gewonnen ist ab {WIN_MIN}"
    if reason is LossReason.SCHNEIDER_MISSED:
        return f"Schneider angesagt, aber nur {points} Augen (Schneider ab 90)"
    if reason is LossReason.SCHWARZ_MISSED:
        return "Schwarz angesagt, aber nicht alle Stiche"
    if reason is LossReason.OUVERT_NOT_SCHWARZ:
        return "ouvert heißt Schwarz angesagt, aber nicht alle Stiche"
    if reason is LossReason.OVERBID:
        return f"überreizt – gereizt {a.bid}, das Spiel ist nur {r.played_value} wert"
    return ""


def loss_fix(r: GameResult) -> tuple[str, Announcement] | None:
    """If the entry may have been a slip: (the question, the announcement that corrects it).

    Offered only when the corrected game is valid and won.
    """
    fix = _loss_fix(r)
    if fix is None:
        return None
    try:
        if not evaluate(fix[1]).won:
            return None
    except RuleError:
        return None
    return fix


def _loss_fix(r: GameResult) -> tuple[str, Announcement] | None:
    a = r.announcement
    points = a.card_points
    reason = r.loss_reason
    if reason in (LossReason.SCHWARZ_MISSED, LossReason.OUVERT_NOT_SCHWARZ) and points == 120:
        return "Doch alle Stiche? Dann fehlt „schwarz“", dataclasses.replace(a, schwarz=True)
    if reason is LossReason.SCHNEIDER_MISSED and not a.ouvert and not a.schwarz_announced:
        return (
            "Schneider gar nicht angesagt? Dann",
            dataclasses.replace(a, schneider_announced=False),
        )
    return None


def command_name(names: tuple[str, ...] | list[str], seat: int) -> str:
    """The player's name as a command word (a name with spaces: its first word if unique)."""
    name = names[seat]
    first = name.split()[0] if name.split() else name
    if first == name:
        return name
    if sum(n.casefold().startswith(first.casefold()) for n in names) == 1:
        return first
    return name


def loss_lines(sheet: Sheet, entry: Entry) -> list[str]:
    """ "verloren: …" for a game lost by a rule, and the /korrigieren line if that was a slip."""
    r = entry.result
    if r is None or r.won:
        return []
    reason = loss_reason(r)
    if not reason:
        return []
    lines = [f"❌ verloren: {escape(reason)}."]
    fix = loss_fix(r) if entry.nr is not None and entry.row.declarer is not None else None
    if fix is not None:
        question, fixed = fix
        who = command_name(sheet.players, entry.row.declarer or 0)
        line = f"/korrigieren {entry.nr} {who} {format_announcement(fixed).lower()}"
        lines.append(f"👉 {escape(question)}: {escape(line)}")
    return lines


def booking_lines(sheet: Sheet, entry: Entry) -> list[str]:
    """The breakdown, the booking and its Seeger-Fabian effect for one game."""
    r = entry.result
    if entry.ramsch is not None:
        return ramsch_lines(sheet, entry)
    if r is None:
        return ["Eingepasst – keine Wertung."]
    declarer = escape(sheet.players[entry.row.declarer or 0])
    if sheet.house is not None:
        return house_booking_lines(sheet, entry, r, declarer)
    lines: list[str] = []
    lines.append(r.breakdown)
    lines.extend(loss_lines(sheet, entry))
    bonus = opponents_bonus(sheet.table_size)
    if r.won:
        lines.append(
            f"<b>{declarer} {signed(r.score)}</b> · Seeger-Fabian {signed(r.score + WIN_BONUS)}"
            f" ({r.score} + {WIN_BONUS})"
        )
    else:
        others = [escape(n) for i, n in enumerate(sheet.players) if i != entry.row.declarer]
        mark = " · <b>überreizt</b>" if r.overbid else ""
        lines.append(
            f"<b>{declarer} {r.booking}</b>{mark} · Seeger-Fabian"
            f" {minus_sign(r.score - WIN_BONUS)} · {', '.join(others)} je +{bonus}"
        )
    return lines


def house_booking_lines(sheet: Sheet, entry: Entry, r: GameResult, declarer: str) -> list[str]:
    """House rules: the booking with its factors, and the 3B3R trigger if any."""
    a = r.announcement
    points = entry.points.get(entry.row.declarer or 0, 0)
    factors = []
    if not r.won:
        factors.append("verloren Hand: einfach" if a.hand else "verloren mit Skat: ×2")
    if a.kontra:
        factors.append("Kontra ×2")
    if a.re:
        factors.append("Re ×2")
    mark = entry.house
    if mark is not None and mark.bock:
        factors.append("Bock ×2")
    if mark is not None and mark.sick_game:
        factors.append("Krankenspiel, zählt nicht als Ramsch")
    detail = f" ({r.value}; {', '.join(factors)})" if factors else ""
    over = " · <b>überreizt</b>" if r.overbid else ""
    lines = [
        r.breakdown,
        *loss_lines(sheet, entry),
        f"<b>{declarer} {signed(points)}</b>{detail}{over}",
    ]
    if mark is not None and mark.trigger:
        lines.append(f"🎲 3B3R ausgelöst: {escape(mark.trigger)}")
    return lines


def ramsch_lines(sheet: Sheet, entry: Entry) -> list[str]:
    ramsch = entry.ramsch
    assert ramsch is not None
    booked = " · ".join(
        f"<b>{escape(sheet.players[seat])} {signed(pts)}</b>" for seat, pts in entry.points.items()
    )
    lines = []
    if ramsch.factor > 1:
        base = 120 if ramsch.durchmarsch is not None else ramsch.points
        lines.append(f"{base} × {ramsch.factor} = {base * ramsch.factor}")
    lines.append(booked)
    if ramsch.ignored_virgins:
        lines.append(
            "ℹ️ Jungfrau zählt beim Durchmarsch nicht – die anderen haben ohnehin keinen Stich."
        )
    if entry.house is not None and entry.house.trigger:
        lines.append(f"🎲 3B3R ausgelöst: {escape(entry.house.trigger)}")
    return lines


def entry_title(sheet: Sheet, entry: Entry) -> str:
    r = entry.result
    if entry.ramsch is not None:
        return escape(entry.ramsch.text(sheet.players))
    if r is None:
        return "eingepasst"
    declarer = escape(sheet.players[entry.row.declarer or 0])
    outcome = "gewonnen" if r.won else "verloren"
    if r.overbid:
        outcome = "verloren (überreizt)"
    return f"{declarer}: {escape(game_label(r))} – {outcome}"


def rules_label(sheet: Sheet) -> str:
    if sheet.house is None:
        return "ISkO, Seeger-Fabian"
    return "Hausregeln, 3B3R" + (", Runde = Geberrunde" if sheet.house.dealing_round else "")


def standings_heading(closed: bool) -> str:
    """What the standings with their calculation are called: the Serienabschluss once the
    series is closed; before, a Zwischenstand (the series has not ended)."""
    return "Serienabschluss" if closed else "Zwischenstand"


def totals_block(sheet: Sheet, seed: str, *, closed: bool = False) -> str:
    """The standings with the calculation steps per player: the Zwischenstand of a running
    series, the Serienabschluss of a ``closed`` one."""
    lines = [
        f"<b>{standings_heading(closed)}</b> ({rules_label(sheet)}), "
        f"{sheet.games_played}/{sheet.series_length} Spiele"
    ]
    if not sheet.games_played:  # nothing to rank yet: no places, no lot
        scores = " · ".join(f"{escape(t.name)} {minus_sign(t.score)}" for t in sheet.standings())
        start = " (Startpunkte)" if sheet.house is not None and any(sheet.start) else ""
        lines.append(f"Noch kein Spiel eingetragen: {scores}{start}")
        return "\n".join(lines)
    if sheet.house is None:
        steps = {t.name: t.steps for t in sheet.totals()}
    else:
        steps = {t.name: f"Start {t.steps}" for t in sheet.house_totals()}
    order = ranked(sheet, seed)
    for r in order:
        t = r.standing
        lines.append(
            f"{r.place}. <b>{escape(t.name)} {minus_sign(t.score)}</b> – {t.won} gew., {t.lost} verl.\n"
            f"    {steps[t.name]}"
        )
    note = lot_note(order, seed)
    if note:
        lines.append(escape(note))
    return "\n".join(lines)


def row_line(sheet: Sheet, entry: Entry) -> str:
    dealer = escape(sheet.players[entry.row.dealer or 0])
    head = f"{entry.nr:>2}." if entry.status is Status.VALID else " ✗"
    body = entry_title(sheet, entry)
    if sheet.house is not None:
        return _house_row_line(sheet, entry, head, body)
    if entry.result is not None:
        body += f" {minus_sign(entry.result.score)}"
    if entry.status is Status.STRUCK:
        return f"{head} <s>{body}</s> (korrigiert) · Geber {dealer}"
    if entry.status is Status.CANCELLED:
        return f"{head} <s>{body}</s> (storniert) · Geber {dealer}"
    return f"{head} {body} · Geber {dealer}"


def _house_row_line(sheet: Sheet, entry: Entry, head: str, body: str) -> str:
    """A house-rules row: "1. Anna: Grand mit 1 – gewonnen: +96 (Bock) · Geber Anna" – the
    points once, without repeating a name the title already has ("je −40" for a tie)."""
    points = entry.points
    values = set(points.values())
    named = [escape(sheet.players[seat]) in body for seat in points]
    if points and all(named) and len(values) == 1:
        body += f": {'je ' if len(points) > 1 else ''}{signed(next(iter(values)))}"
    elif points:
        body += ": " + ", ".join(
            f"{escape(sheet.players[seat])} {signed(pts)}" for seat, pts in points.items()
        )
    if entry.house is not None and entry.house.bock:
        body += " (Bock)"
    if entry.house is not None and entry.house.sick_game:
        body += f" (krank: {escape(sheet.players[entry.row.declarer or 0])})"
    dealer = f"Geber {escape(sheet.players[entry.row.dealer or 0])}"
    if entry.status is Status.STRUCK:
        return f"{head} <s>{body}</s> (korrigiert) · {dealer}"
    if entry.status is Status.CANCELLED:
        return f"{head} <s>{body}</s> (storniert) · {dealer}"
    return f"{head} {body} · {dealer}"


def games(n: int) -> str:
    return "1 Spiel" if n == 1 else f"{n} Spiele"


def lossy_names_note(names: set[str]) -> str:
    """The reply's note on names the PDF font cannot draw completely (emoji are left out)."""
    listed = ", ".join(escape(n) for n in sorted(names))
    return f"ℹ️ Zeichen, die die PDF-Schrift nicht kennt (z. B. Emoji), fehlen im PDF bei: {listed}."


def day(when: dt.datetime | dt.date) -> str:
    """E.g. "30.11.2026" (the PDFs write dates the same way)."""
    return f"{when.day:02d}.{when.month:02d}.{when.year}"


def closed_line(closed_at: dt.datetime | None, games_played: int, then: str | None = None) -> str:
    """What /stand and /liste say instead of the next deal once the series is closed;
    ``then``: what comes next at a table (its next list is no /weiter)."""
    when = f" am {day(closed_at)}" if closed_at else ""
    if then is not None:
        return f"🏁 Serie abgeschlossen{when} ({games(games_played)}).\n{then}"
    return (
        f"🏁 Serie abgeschlossen{when} ({games(games_played)}).\n"
        "Neue Serie mit denselben Spielern: /weiter · wieder öffnen: /oeffnen (wer sie angelegt hat, oder ein Admin)"
    )
