"""What the sheet's changes decided, and how that reads in the chat (``wording.reply_of``).

A change returns what it did: its ``Booked`` (the sheet after it, the buttons and the refresh
of the pinned standings) and the few facts its text names; the words are here."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from skatbot.rules.value import GameResult
from skatbot.usecases.common import texts, wording
from skatbot.usecases.common.names import full_stop
from skatbot.usecases.common.reply import Reply
from skatbot.usecases.sheet.booking import Booked


@dataclass(frozen=True)
class Passed:
    """/eingepasst: a round without a game, booked."""

    booked: Booked
    seed: str


@dataclass(frozen=True)
class Cancelled:
    """/storno N: game ``nr`` struck (``title``: how it read)."""

    booked: Booked
    nr: int
    title: str
    seed: str
    kept: bool = False  # "wie gespielt": Bock and Ramsch stay as played


KEPT = "♻️ Bock und Ramsch bleiben, wie sie gespielt wurden."


@dataclass(frozen=True)
class Renamed:
    booked: Booked
    old: str
    new: str


@dataclass(frozen=True)
class DealerSet:
    booked: Booked
    name: str


@dataclass(frozen=True)
class SeriesLengthSet:
    booked: Booked
    games: int


@dataclass(frozen=True)
class GameValue:
    """/wert: a game computed, not booked."""

    result: GameResult
    notes: tuple[str, ...] = ()
    lost: GameResult | None = None  # given without a result: ``result`` won, this lost


@wording.reply_of.register
def _(result: Passed) -> Reply:
    after = result.booked.after
    entry = after.entries[-1]
    lines = [
        f"🤝 <b>Spiel {entry.nr}/{after.series_length}</b> · eingepasst – keine Wertung.",
        f"Stand: {texts.standings_line(after, result.seed)}",
        texts.progress(after),
    ]
    return result.booked.reply("\n".join(lines))


@wording.reply_of.register
def _(result: Cancelled) -> Reply:
    after = result.booked.after
    lines = [f"🗑 Spiel {result.nr} storniert: <s>{result.title}</s>"]
    if result.nr <= after.games_played:
        lines.append("Die folgenden Spiele rücken eine Nummer auf.")
    if result.kept:
        lines.append(KEPT)
    lines += [
        f"Stand: {texts.standings_line(after, result.seed)}",
        texts.progress(after),
        "↩️ Zurücknehmen: /rueckgaengig",
    ]
    return result.booked.reply("\n".join(lines))


@wording.reply_of.register
def _(result: Renamed) -> Reply:
    old, new = escape(result.old), escape(result.new)
    return result.booked.reply(f"✏️ {old} heißt jetzt {new}. Die Zahlen bleiben, wie sie sind.")


@wording.reply_of.register
def _(result: DealerSet) -> Reply:
    return result.booked.reply(
        f"🔄 Nächster Geber: {full_stop(escape(result.name))}\n"
        + texts.progress(result.booked.after)
    )


@wording.reply_of.register
def _(result: SeriesLengthSet) -> Reply:
    return result.booked.reply(
        f"📏 Die Serie hat jetzt {texts.games(result.games)}.\n"
        f"{texts.progress(result.booked.after)}"
    )


@wording.reply_of.register
def _(result: GameValue) -> Reply:
    # nothing is booked: only the asker needs the value (an ephemeral command's answer)
    return Reply(wert_text(result.result, result.notes, result.lost), for_asker=True)


def wert_text(r: GameResult, notes: tuple[str, ...] = (), lost: GameResult | None = None) -> str:
    """What /wert answers for an evaluated game (also the inline calculator's message); with
    ``lost`` (no result was given) both bookings, ``r`` being the game won."""
    if lost is not None:
        return _both_bookings(r, lost, notes)
    outcome = "gewonnen" if r.won else ("verloren, überreizt" if r.overbid else "verloren")
    lines = [f"🧮 <b>{escape(texts.game_label(r))}</b> – {outcome}"]
    lines.extend(f"ℹ️ {escape(n)}" for n in notes)
    lines.append(r.breakdown)
    if not r.won and texts.loss_reason(r):
        lines.append(f"❌ verloren: {escape(texts.loss_reason(r))}.")
    lines.append(f"Buchung: {r.booking} · nicht eingetragen")
    return "\n".join(lines)


def _both_bookings(won: GameResult, lost: GameResult, notes: tuple[str, ...]) -> str:
    """/wert without a result: the value, and what winning and losing the game books."""
    lines = [f"🧮 <b>{escape(texts.game_label(won))}</b>"]
    lines.extend(f"ℹ️ {escape(n)}" for n in notes)
    lines.append(won.breakdown)
    if won.won:
        lines.append(f"Buchung gewonnen: {won.booking} · verloren: {lost.booking}")
    else:  # overbid: lost however it is played
        lines.append(f"❌ überreizt – immer verloren: {won.booking}")
    lines[-1] += " · nicht eingetragen"
    return "\n".join(lines)
