"""German reply texts (HTML). Names are always escaped."""

from __future__ import annotations

from html import escape

from skatbot.rules.grammar import contract_text
from skatbot.rules.ranking import Standing, rank_standings
from skatbot.rules.scoring import Totals
from skatbot.rules.sheet import Entry, Sheet, Status
from skatbot.rules.value import GameResult


def signed(n: int) -> str:
    if n > 0:
        return f"+{n}"
    return f"−{-n}" if n < 0 else "0"


def minus(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def game_label(result: GameResult) -> str:
    return contract_text(result.announcement, schneider=result.schneider, schwarz=result.schwarz)


def progress(sheet: Sheet) -> str:
    """E.g. "Spiel 13/36 · Geber Bernd · Vorhand Carla" (the next deal)."""
    if sheet.games_played >= sheet.series_length:
        return f"Serie voll: {sheet.games_played}/{sheet.series_length} · /abschluss"
    p = sheet.players
    return (
        f"Spiel {sheet.games_played + 1}/{sheet.series_length} · Geber {escape(p[sheet.next_dealer])}"
        f" · Vorhand {escape(p[sheet.vorhand])}"
    )


def ranking_of(totals: list[Totals], seed: str) -> list[tuple[int, Totals, bool]]:
    by_name = {t.name: t for t in totals}
    ranked = rank_standings([Standing(t.name, t.score, t.won, t.lost) for t in totals], seed)
    return [(r.place, by_name[r.standing.name], r.by_lot) for r in ranked]


def standings_line(sheet: Sheet, seed: str) -> str:
    ranked = ranking_of(sheet.totals(), seed)
    return " · ".join(f"{escape(t.name)} {minus(t.score)}" for _, t, _ in ranked)


def booking_lines(sheet: Sheet, entry: Entry) -> list[str]:
    """The breakdown, the booking and its Seeger-Fabian effect for one game."""
    r = entry.result
    if r is None:
        return ["Eingepasst – keine Wertung."]
    declarer = escape(sheet.players[entry.row.declarer or 0])
    lines: list[str] = []
    lines.append(r.breakdown)
    bonus = 40 if sheet.table_size == 3 else 30
    if r.won:
        lines.append(
            f"<b>{declarer} {signed(r.score)}</b> · Seeger-Fabian {signed(r.score + 50)}"
            f" ({r.score} + 50)"
        )
    else:
        others = [escape(n) for i, n in enumerate(sheet.players) if i != entry.row.declarer]
        mark = " · <b>überreizt</b>" if r.overbid else ""
        lines.append(
            f"<b>{declarer} {r.booking}</b>{mark} · Seeger-Fabian"
            f" {minus(r.score - 50)} · {', '.join(others)} je +{bonus}"
        )
    return lines


def entry_title(sheet: Sheet, entry: Entry) -> str:
    r = entry.result
    if r is None:
        return "eingepasst"
    declarer = escape(sheet.players[entry.row.declarer or 0])
    outcome = "gewonnen" if r.won else "verloren"
    if r.overbid:
        outcome = "verloren (überreizt)"
    return f"{declarer}: {escape(game_label(r))} – {outcome}"


def totals_block(sheet: Sheet, seed: str, rules_label: str = "ISkO, Seeger-Fabian") -> str:
    """The running Serienabschluss with the calculation steps per player."""
    lines = [
        f"<b>Serienabschluss</b> ({rules_label}), {sheet.games_played}/{sheet.series_length} Spiele"
    ]
    ranked = ranking_of(sheet.totals(), seed)
    lot = False
    for place, t, by_lot in ranked:
        lot = lot or by_lot
        lines.append(
            f"{place}. <b>{escape(t.name)} {minus(t.score)}</b> – {t.won} gew., {t.lost} verl.\n"
            f"    {t.steps}"
        )
    if lot:
        lines.append(f"Gleichstand: Platz durch Los entschieden (Startwert {escape(seed)}).")
    return "\n".join(lines)


def row_line(sheet: Sheet, entry: Entry) -> str:
    dealer = escape(sheet.players[entry.row.dealer or 0])
    head = f"{entry.nr:>2}." if entry.status is Status.VALID else " ✗"
    body = entry_title(sheet, entry)
    if entry.result is not None:
        body += f" {minus(entry.result.score)}"
    if entry.status is Status.STRUCK:
        return f"{head} <s>{body}</s> (korrigiert) · G {dealer}"
    if entry.status is Status.CANCELLED:
        return f"{head} <s>{body}</s> (storniert) · G {dealer}"
    return f"{head} {body} · G {dealer}"


def games(n: int) -> str:
    return "1 Spiel" if n == 1 else f"{n} Spiele"
