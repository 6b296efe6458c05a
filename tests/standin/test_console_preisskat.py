"""A whole Preisskat in the console, as docs/console-preisskat.md shows it: 13 players (names
with spaces and an initial among them), two series, every table linked with /tisch CODE in its
own chat, played, closed and signed by its players (Name> !1), the results reaching the desk by
themselves, the second series drawn with the desk's button. The ranking is computed by hand
from the games typed. Through the real command line in a subprocess; the console keeps its
database in the working folder, so each step is one run that reads the codes of the last."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.test_cli import skatbot

NAMES = [
    "Anna Maria", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav",
    "Hanna", "Ida", "Jonas", "Karl", "Lena", "Peter M.",
]  # fmt: skip
# (announcement, Seeger-Fabian score of the declarer, won): values at game 2 of a series
GAMES = [
    ("grand mit 1 g", 48 + 50, True),
    ("null g", 23 + 50, True),
    ("herz ohne 1 g", 20 + 50, True),
    ("kreuz mit 2 v", -2 * 36 - 50, False),
]


def run(tmp_path: Path, lines: list[str]) -> str:
    done = skatbot("console", stdin="\n".join(lines) + "\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    # every reply reached its chat, also the desk of an earlier run (the pinned standings
    # of an earlier run are not on this run's stand-in: the bot posts them anew)
    assert "chat not found" not in done.stdout, done.stdout
    return done.stdout


def tables_of(draw: str) -> list[tuple[str, list[str]]]:
    """(code, players in seat order) of each table of the latest draw in ``draw``."""
    draw = draw[draw.rindex("ausgelost –") :]
    seats = re.findall(r"^Tisch (\d+): (.+)$", draw, re.M)
    codes = dict(re.findall(r"Tisch (\d+) → /tisch (\w+)", draw))
    assert seats and len(codes) == len(seats), draw
    return [(codes[number], players.split(", ")) for number, players in seats]


def play_tables(tables: list[tuple[str, list[str]]], score: Counter[str]) -> list[str]:
    """The console lines of every table (link, games, /abschluss, signatures), adding each
    player's Seeger-Fabian score to ``score`` by hand."""
    lines = []
    for number, (code, players) in enumerate(tables, 1):
        lines.append(f"#tisch{number} /tisch {code}")
        size = len(players)
        for game in range(size):  # the series length: 3 at a 3-table, 4 at a 4-table
            declarer = players[(game + 1) % size]  # the dealer (seat = game) sits out
            announcement, points, won = GAMES[(game + number) % len(GAMES)]
            lines.append(f"{declarer}> /spiel {declarer} {announcement}")
            score[declarer] += points
            if not won:  # the others at the table: 40 at a 3-table, 30 at a 4-table
                for other in players:
                    if other != declarer:
                        score[other] += 40 if size == 3 else 30
        lines.append(f"{players[0]}> /abschluss")
        lines += [f"{p}> !1" for p in players]  # [✍️ Unterschreiben], tapped by each player
    return lines


def test_a_preisskat_of_13_players_and_2_series_in_the_console(tmp_path: Path) -> None:
    desk = [
        "#Turnier /turnier Preisskat Vereinsheim",
        "/teilnehmer " + ", ".join(NAMES),
        "/serienlaenge 3 4",
        *(f"{name}> /ich {name}" for name in NAMES),
        "/auslosen 4711",
    ]
    out = run(tmp_path, desk)
    assert "13 Teilnehmer eingetragen" in out, out
    assert out.count("Du bist") == 13, out
    first = tables_of(out)
    assert sorted(len(players) for _, players in first) == [3, 3, 3, 4]

    score: Counter[str] = Counter()
    out = run(tmp_path, [*play_tables(first, score), "#Turnier /fehlend", "!1"])
    assert out.count("✅ Gemeldet an die Turnierleitung") == 4, out
    assert "Serie 1 ist komplett" in out and "Serie 2 ausgelost" in out, out
    assert "⚠️" not in out, out  # nothing was refused

    second = tables_of(out)
    out = run(tmp_path, [*play_tables(second, score), "#Turnier /fehlend", "/rangliste"])
    assert out.count("✅ Gemeldet an die Turnierleitung") == 4, out
    assert "Serie 2 ist komplett" in out and "⚠️" not in out, out
    ranking = out[out.rindex("Rangliste – Preisskat Vereinsheim (Serien 1, 2)") :]
    shown = re.findall(r"^(\d+)\. (.+?) – (−?\d+) Punkte", ranking, re.M)
    assert len(shown) == 13, ranking
    assert {name: int(total.replace("−", "-")) for _, name, total in shown} == dict(score)
    totals = [int(total.replace("−", "-")) for _, _, total in shown]
    assert totals == sorted(totals, reverse=True), ranking
