"""A game night in the console: ``/spielabend`` posts its poll, ``Name> ?1`` votes as that
player (a ``poll_answer`` update, as Telegram sends it), ``/spielabend schliessen`` closes the
poll and opens a topic with its list per table in a forum (docs/game-night.md has the whole
transcript). Through the real command line in a subprocess."""

from __future__ import annotations

import re
from pathlib import Path

from tests.standin.test_console_topics import NEW_TOPIC, answer_to, run

VOTERS = ["Anna", "Bernd", "Carla", "Dora", "Erik", "Frieda", "Hanna"]


def test_a_game_night_from_poll_to_two_lists(tmp_path: Path) -> None:
    lines = [
        "#verein/1 /spielabend Di 19:00",
        *(f"{name}> ?1" for name in VOTERS),
        "Gerd> ?2",
        "Bernd> ?2",  # changes his mind, and back
        "Bernd> ?1",
        "/spielabend schliessen",
        "Anna> ?2",  # too late: the poll is closed
    ]
    out = run(tmp_path, lines)
    planned = answer_to(out, "#verein/1 /spielabend Di 19:00")
    assert re.search(r"Spielabend Di \d+\.\d+\. 19:00 – vorgeschlagen von Spieler", planned), out
    assert "(1) Ich bin dabei" in planned and "(abstimmen: ?1, ?2 …)" in planned, out
    assert "(Bernd stimmt ab: Ich kann nicht)" in answer_to(out, "Bernd> ?2"), out
    closed = answer_to(out, "/spielabend schliessen")
    assert "Ich bin dabei 7, Ich kann nicht 1" in closed, out
    assert "7 Zusagen – ein Vierertisch und ein Dreiertisch." in closed, out
    topics = [name for name, _ in NEW_TOPIC.findall(out)]
    assert [t.split(" · ")[1] for t in topics] == ["Tisch 1", "Tisch 2"], out
    assert closed.count("Neue Liste") == 2, out
    assert "Geht nicht" in answer_to(out, "Anna> ?2"), out
