"""``/statistik [NAME]``: statistics of the chat (or topic) and of one player.

Counted over the place's *closed* lists only: a running list changes with every booking
and may still be corrected, so it counts once it is closed (``/abschluss``), like the
season tables; the reply says so. A list's names are attributed to people by
``usecases.people.persons.resolve_people`` (the one place that decides who is who).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from skatbot.rules.calendar import berlin_date, berlin_today
from skatbot.rules.errors import RuleError
from skatbot.rules.scoring import minus_sign
from skatbot.rules.statistics import (
    GRAND,
    HAND,
    KINDS,
    NULL,
    OUVERT,
    SUIT,
    ChatStats,
    GameRef,
    KindCount,
    PlayerStats,
    Record,
    Series,
    SeriesRef,
    compute,
)
from skatbot.storage import lists as lists_store
from skatbot.storage import stats as stored_stats
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.names import full_stop, match_words
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply
from skatbot.usecases.people.persons import Person, resolve_people
from skatbot.usecases.season.season_table import history
from skatbot.usecases.sheet.pictures import season_photo

KIND_LABELS = {GRAND: "Grand", SUIT: "Farbe", NULL: "Null", HAND: "Hand", OUVERT: "Ouvert"}
MAX_NAMES_LISTED = 30


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "–"


def number(value: float) -> str:
    """German: "1.234", "−56" (typographic minus); a float is rounded half up (40.5 → 41)."""
    return minus_sign(math.floor(value + 0.5))


def rating_line(session: Session, place_id: int, person: Person) -> str | None:
    """The "Skatzahl" of ``person`` as one line of ``/statistik NAME`` (replayed from the
    place's series like /saison's, as of today); ``None`` for someone without a series."""
    from skatbot.rules import rating as rt

    r = rt.replay(history(session, place_id).series, until=berlin_today()).get(person.key)
    if r is None:
        return None
    return f"🎯 Skatzahl {rt.skatzahl(r)} nach {texts.series_count(r.series)} (/hilfe rating)"


def load_stats(
    session: Session, place_id: int
) -> tuple[ChatStats, dict[str, str], list[Series], Callable[[str], Person]]:
    """The statistics of the place's closed lists, the shown name of each person key, the
    series and the resolver."""
    resolve = resolve_people(session, place_id)
    names: dict[str, str] = {}
    series: list[Series] = []
    for loaded in stored_stats.place_lists(session, place_id):
        if not loaded.sheet.games_played:
            continue  # a list without a game is no series
        people = [resolve(name) for name in loaded.names]
        for person in people:
            names[person.key] = person.name  # the latest list's spelling
        lst = loaded.lst
        day = berlin_date(lst.created_at)  # the evening it was started (as /abend counts)
        series.append(Series(lst.id, day, tuple(p.key for p in people), loaded.sheet))
    return compute(series), names, series, resolve


def scope_line(stats: ChatStats, running: bool) -> str:
    lists = (
        "1 abgeschlossene Liste" if stats.series == 1 else (f"{stats.series} abgeschlossene Listen")
    )
    days = "1 Tag" if stats.days == 1 else f"{stats.days} Tagen"
    line = f"Über {lists} an {days}"
    if running:
        return line + " – die laufende Liste zählt erst nach /abschluss."
    return line + " (nur abgeschlossene Listen zählen)."


def _kinds(kinds: dict[str, KindCount]) -> list[str]:
    """The line of game kinds, or no line where nothing was declared (not a lone "–")."""
    parts = [
        f"{KIND_LABELS[k]} {kinds[k].declared} ({kinds[k].won} gew.)"
        for k in KINDS
        if kinds[k].declared
    ]
    return [" · ".join(parts)] if parts else []


def _game(ref: GameRef) -> str:
    return (
        f"{escape(texts.game_label(ref.result))} {texts.signed(ref.score)}"
        f" (Spiel {ref.nr}, {texts.day(ref.day)})"
    )


def _series(ref: SeriesRef) -> str:
    return f"{number(ref.score)} am {texts.day(ref.day)}"


def _house_note(stats: ChatStats) -> str | None:
    house = stats.series - stats.isko_series
    if not house:
        return None
    lists = "1 Liste" if house == 1 else f"{house} Listen"
    return (
        f"ℹ️ Seeger-Fabian nur aus ISkO-Listen; {lists} mit Hausregeln zählen bei den Spielen mit."
    )


def _played_lines(stats: ChatStats) -> list[str]:
    played = f"{texts.games(stats.games)} am Tisch"
    if stats.passed:
        played += f", davon {stats.passed} eingepasst"
    if stats.ramsch:
        played += f", {stats.ramsch} Ramsch"
    lost = stats.declared - stats.won
    return [
        played,
        f"Gespielt: {stats.declared} – gewonnen {stats.won} ({percent(stats.won, stats.declared)}),"
        f" verloren {lost} ({percent(lost, stats.declared)}), überreizt {stats.overbids}",
        *_kinds(stats.kinds),
    ]


def _game_records(stats: ChatStats, who: Callable[[Record], str]) -> list[str]:
    records = []
    if stats.highest_game and stats.highest_game.game:
        records.append(
            f"Höchstes Spiel: {who(stats.highest_game)}, {_game(stats.highest_game.game)}"
        )
    if stats.costliest_game and stats.costliest_game.game and stats.costliest_game.value < 0:
        records.append(
            f"Teuerstes Spiel: {who(stats.costliest_game)}, {_game(stats.costliest_game.game)}"
        )
    if stats.best_series and stats.best_series.series:
        records.append(f"Beste Serie: {who(stats.best_series)} {_series(stats.best_series.series)}")
    if stats.worst_series and stats.worst_series.series:
        records.append(
            f"Schwächste Serie: {who(stats.worst_series)} {_series(stats.worst_series.series)}"
        )
    return records


def _player_records(stats: ChatStats, names: dict[str, str]) -> list[str]:
    """The records of a player's count, each naming everyone who holds it."""

    def holders(record: Record) -> str:
        """Who holds ``record``: "Anna,", "Anna und Carla, je", or "alle gleich, je" when every
        player of the chat holds it."""
        if not record.tied:
            return f"<b>{escape(names[record.key])}</b>,"
        if len(record.holders) == len(stats.players):
            return "alle gleich, je"
        shown = [f"<b>{escape(names[k])}</b>" for k in record.holders]
        return f"{', '.join(shown[:-1])} und {shown[-1]}, je"

    records: tuple[tuple[str, Record | None, Callable[[int], str]], ...] = (
        (
            "Längste Glückssträhne",
            stats.longest_won,
            lambda n: f"{texts.games(n)} gewonnen in Folge",
        ),
        (
            "Längste Pechsträhne",
            stats.longest_lost,
            lambda n: f"{texts.games(n)} verloren in Folge",
        ),
        ("Meiste Serien", stats.most_series, str),
        ("Meiste gewonnene Spiele", stats.most_won, str),
    )
    return [
        f"{label}: {holders(record)} {said(record.value)}"
        for label, record, said in records
        if record is not None
    ]


def _player_lines(stats: ChatStats, names: dict[str, str]) -> list[str]:
    """Every player, the best Seeger-Fabian average first."""

    def order(p: PlayerStats) -> tuple[float, int, str]:
        avg = p.sf_average
        return (-(avg if avg is not None else float("-inf")), -p.series, names[p.key].casefold())

    lines = []
    for p in sorted(stats.players.values(), key=order):
        avg = p.sf_average
        lines.append(
            f"{escape(names[p.key])}: {p.series} · Ø {'–' if avg is None else number(avg)}"
            f" · {p.won}/{p.declared} ({percent(p.won, p.declared)})"
        )
    return lines


def chat_text(stats: ChatStats, names: dict[str, str], running: bool) -> str:
    def who(record: Record) -> str:
        return f"<b>{escape(names[record.key])}</b>"

    lines = ["📊 <b>Statistik dieses Chats</b>", scope_line(stats, running)]
    lines += _played_lines(stats)
    records = _game_records(stats, who) + _player_records(stats, names)
    if records:
        lines += ["", "🏆 <b>Rekorde</b>", *records]
    lines += ["", "<b>Spieler</b> – Serien · Ø Seeger-Fabian je Serie · gewonnen/gespielt"]
    lines += _player_lines(stats, names)
    note = _house_note(stats)
    if note:
        lines.append(note)
    lines.append("Ein Spieler genauer (mit Saisonbild): /statistik NAME")
    return "\n".join(lines)


def player_text(
    stats: ChatStats, names: dict[str, str], p: PlayerStats, running: bool, rating: str | None
) -> str:
    name = escape(names[p.key])
    lines = [f"📊 <b>Statistik: {name}</b>", scope_line(stats, running)]
    lines.append(f"Serien: {p.series} · {texts.games(p.games)} am Tisch")
    if p.declared:
        lines.append(
            f"Gespielt: {p.declared} – gewonnen {p.won} ({percent(p.won, p.declared)}),"
            f" verloren {p.lost} ({percent(p.lost, p.declared)}), überreizt {p.overbids}"
        )
    else:  # only sat at the table: no percentages of nothing
        lines.append("Gespielt: 0 (kein Spiel selbst angesagt)")
    lines.extend(_kinds(p.kinds))
    sf = p.sf_results
    if sf:
        lines.append(
            f"Seeger-Fabian: Ø {number(p.sf_total / len(sf))} je Serie"
            f" ({len(sf)} {'Serie' if len(sf) == 1 else 'Serien'}, Summe {number(p.sf_total)})"
        )
        best, worst = p.best_series, p.worst_series
        if best and worst:
            lines.append(f"Beste Serie: {_series(best)} · schwächste: {_series(worst)}")
    if p.best_game and p.worst_game:
        lines.append(f"Bestes Spiel: {_game(p.best_game)}")
        lines.append(f"Schwächstes Spiel: {_game(p.worst_game)}")
    if p.declared:
        now = p.current
        current = f"{now} gewonnen" if now > 0 else f"{-now} verloren"
        lines.append(
            f"Strähnen: {p.longest_won} gewonnen, {p.longest_lost} verloren in Folge"
            f" (längste) · zuletzt {current} in Folge"
        )
    nemesis = p.nemesis
    if nemesis:
        key, rival = nemesis
        lines.append(
            f"Angstgegner: {escape(names[key])} – in {rival.ahead} von {rival.together}"
            f" gemeinsamen Serien vor {name}"
        )
    if rating:
        lines.append(rating)
    note = _house_note(stats)
    if note:
        lines.append(note)
    return "\n".join(lines)


def find_player(
    stats: ChatStats, names: dict[str, str], resolve: Callable[[str], Person], query: str
) -> PlayerStats:
    """The player ``query`` names: the person it resolves to, or the only one whose name
    starts with it (case-insensitive)."""
    key = resolve(query).key
    if key in stats.players:
        return stats.players[key]
    players = list(stats.players.values())
    words = query.split()
    hits, used = match_words(words, [names[p.key] for p in players])  # as every command reads
    found = [players[i] for i in hits] if used == len(words) else []
    if len(found) == 1:
        return found[0]
    known = sorted((names[k] for k in stats.players), key=str.casefold)
    listed = ", ".join(known[:MAX_NAMES_LISTED]) + (" …" if len(known) > MAX_NAMES_LISTED else "")
    if found:
        which = sorted((names[p.key] for p in found), key=str.casefold)
        lines = " · ".join(f"/statistik {n}" for n in which[:5])
        raise RuleError(
            f"„{query[:32]}“ ist nicht eindeutig: {' oder '.join(which)}?",
            hint=f"Mehr Buchstaben angeben, z. B. {lines}",
        )
    raise RuleError(
        f"„{query[:32]}“ hat in keiner abgeschlossenen Liste mitgespielt.",
        hint=f"Bekannt sind: {full_stop(listed)}",
    )


@dataclass(frozen=True)
class StatsRequest:
    player: str  # "": the place's statistics
    # Asked as an ephemeral command (only the asker and the bot saw it): the answer is the
    # asker's alone, so a player's season picture, which cannot be, is offered instead.
    alone: bool = False
    picture: bool = False  # "/statistik Anna bild": the season picture, for the group


PICTURE_WORD = "bild"


def parse(cmd: Command) -> StatsRequest:
    words = list(cmd.args)
    picture = len(words) > 1 and words[-1].casefold() == PICTURE_WORD
    if picture:
        words.pop()
    return StatsRequest(" ".join(words), alone=cmd.ephemeral_message_id > 0, picture=picture)


def statistik(session: Session, place: Place, request: StatsRequest) -> Reply:
    stats, names, _series_list, resolve = load_stats(session, place.id)
    running = lists_store.open_list(session, place.id) is not None
    if not stats.series:
        raise RuleError(
            f"In {place.here} gibt es noch keine abgeschlossene Liste.",
            hint="Die Statistik zählt abgeschlossene Listen – eine Serie schließt /abschluss ab.",
        )
    # A read: asked as an ephemeral command, only the asker sees it - the chat's overview
    # too (the group asked nothing). A season picture cannot be ephemeral: asked so, the
    # player's text is the asker's with the picture offered; "bild" shows it to the group
    # (docs/ephemeral.md).
    if not request.player:
        return Reply(chat_text(stats, names, running), for_asker=True)
    player = find_player(stats, names, resolve, request.player)
    rating = rating_line(session, place.id, Person(player.key, names[player.key]))
    text = player_text(stats, names, player, running, rating)
    sf = player.sf_results
    if not sf:
        return Reply(
            text + "\nKein Saisonbild: keine ISkO-Liste mit Seeger-Fabian.", for_asker=True
        )
    if request.alone and not request.picture:
        shown = escape(names[player.key])
        offer = f"\n👉 Das Saisonbild für alle: /statistik {shown} {PICTURE_WORD}"
        return Reply(text + offer, for_asker=True)
    year = sf[-1].day.year
    season = [r for r in sf if r.day.year == year]
    return Reply(text, documents=(season_photo(names[player.key], year, season),))
