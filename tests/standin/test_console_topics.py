"""Forum topics in the console: ``#verein/A …`` writes into topic A of the forum chat
``verein`` (a supergroup with ``is_forum``), ``#verein/2 …`` into topic 2, ``#verein …`` into
its General topic; the topics the bot creates at a draw are printed with their number and
addressed by it or by their name; the bot's posts into another topic than the current one
come under ``[#chat/topic]``. Through the real command line in a subprocess."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_cli import skatbot

NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil", "Fritz"]
NEW_TOPIC = re.compile(r"^🗂 Neues Thema #verein/(.+) \(#verein/(\d+)\)$", re.M)


def run(tmp_path: Path, lines: list[str]) -> str:
    tmp_path.mkdir(exist_ok=True)
    done = skatbot("console", stdin="\n".join(lines) + "\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def answer_to(out: str, line: str) -> str:
    """What the console printed after the input ``line``, up to the next input line."""
    return out.split(f"> {line}\n", 1)[1].split("\n> ", 1)[0]


def test_two_lists_in_two_topics_of_one_forum(tmp_path: Path) -> None:
    out = run(
        tmp_path,
        [
            "#verein/A /neu Anna Bernd Carla",
            "/spiel Anna grand mit 1 g",
            "#verein/B /neu Dora Emil Fritz",
            "Dora> /spiel Dora null g",
            "#verein/A /stand",
            "#verein/B /stand",
            "#verein /stand",
            "#verein/9 /stand",
            "#verein/ /stand",
            "/stand",
        ],
    )
    topics = dict(NEW_TOPIC.findall(out))
    assert sorted(topics) == ["A", "B"], out
    assert int(topics["A"]) >= 2 and int(topics["B"]) > int(topics["A"])  # 1 is General
    # each list answered in its own topic: no [#…] header, the reply is where one wrote
    first = answer_to(out, "#verein/A /neu Anna Bernd Carla")
    assert "Neue Liste: Anna, Bernd, Carla" in first and "[#" not in first, out
    second = answer_to(out, "#verein/B /neu Dora Emil Fritz")
    assert "Neue Liste: Dora, Emil, Fritz" in second and "[#" not in second, out
    stand_a = answer_to(out, "#verein/A /stand")
    assert "Anna" in stand_a and "98" in stand_a and "Dora" not in stand_a, out
    stand_b = answer_to(out, "#verein/B /stand")
    assert "Dora" in stand_b and "73" in stand_b and "Anna" not in stand_b, out
    # the General topic has no list of its own
    assert "noch keine Liste" in answer_to(out, "#verein /stand"), out
    # an unknown topic number is refused and the console stays where it was (General)
    unknown = answer_to(out, "#verein/9 /stand")
    assert f"#verein hat kein Thema 9. Themen: 1 Allgemein, {topics['A']} A" in unknown, out
    assert "⚠ Welches Thema? 👉 #verein/2 … oder #verein/Name …" in answer_to(
        out, "#verein/ /stand"
    ), out
    assert "noch keine Liste" in answer_to(out, "/stand"), out


def test_a_preisskat_whose_desk_is_a_forum(tmp_path: Path) -> None:
    desk = [
        "#verein/1 /turnier Preisskat",
        "/teilnehmer " + ", ".join(NAMES),
        "/serienlaenge 1 1",
        *(f"{name}> /ich {name}" for name in NAMES),
        "/auslosen 4711",
    ]
    # a first evening shows the draw of 4711 and the topic numbers; the same lines give
    # the same draw and the same numbers again, so a second evening plays it in one go
    probe = run(tmp_path / "probe", desk)
    seats = dict(re.findall(r"^Tisch (\d+): (.+)$", probe, re.M))
    created = NEW_TOPIC.findall(probe)
    assert [name for name, _ in created] == [
        "Preisskat · S1 Tisch 1",
        "Preisskat · S1 Tisch 2",
    ], probe
    # the tables' lists open in their topics, under a header naming chat and topic
    for name, _ in created:
        assert f"[#verein/{name}]\n🏆 Preisskat – Serie 1 · " in probe, probe
    tables = []
    for number, (name, thread) in enumerate(created, 1):
        players = seats[str(number)].split(", ")
        declarer = players[1]  # the dealer (first seat) sits out
        # table 1 by its topic's name, table 2 by its number
        where = f"#verein/{name}" if number == 1 else f"#verein/{thread}"
        tables += [
            f"{where} {declarer}> /spiel {declarer} null g",
            f"{players[0]}> /abschluss",
            *(f"{p}> !1" for p in players),  # [✍️ Unterschreiben]
        ]
    out = run(tmp_path / "evening", [*desk, *tables, "#verein /rangliste"])
    assert NEW_TOPIC.findall(out) == created, out  # the same draw, the same topics
    assert out.count("✅ Gemeldet an die Turnierleitung") == 2, out
    # the reports reach the desk, the General topic (printed under its header while the
    # console is in a table's topic)
    for number in (1, 2):
        assert f"[#verein]\n📥 Serie 1 · Tisch {number} gemeldet" in out, out
    assert "Serie 1 ist komplett" in out, out
    ranking = answer_to(out, "#verein /rangliste")
    assert ranking.count(" 73 Punkte") == 2, ranking  # each table's null game: 23 + 50
    assert "⚠️" not in out, out


def test_topics_taken_back_with_the_draw_are_gone(tmp_path: Path) -> None:
    desk = [
        "#verein/1 /turnier Preisskat",
        "/teilnehmer " + ", ".join(NAMES),
        "/auslosen 4711",
    ]
    created = NEW_TOPIC.findall(run(tmp_path / "probe", desk))
    assert len(created) == 2, created
    (_, thread), _ = created
    out = run(
        tmp_path / "evening",
        [
            *desk,
            f"#verein/{thread} /stand",
            "#verein /auslosen zurück",
            "/auslosen zurück ja",
            f"#verein/{thread} /stand",
        ],
    )
    assert NEW_TOPIC.findall(out) == created, out
    assert "Fritz 0 · Bernd 0 · Dora 0" in answer_to(out, f"#verein/{thread} /stand"), out
    for name, _ in created:  # the bot deletes the topics of a draw taken back
        assert f"🗑 Thema gelöscht: #verein/{name}" in out, out
    # a deleted topic cannot be written to any more
    gone = out.rsplit(f"> #verein/{thread} /stand\n", 1)[1]
    assert gone.startswith(f"⚠ #verein hat kein Thema {thread}. Themen: 1 Allgemein\n"), out


def test_a_later_session_finds_the_topics_with_lists(tmp_path: Path) -> None:
    # the console keeps its database in the working folder: a topic with a list is there
    # again in the next session, by its number (the stand-in does not keep topic names)
    first = run(tmp_path, ["#verein/A /neu Anna Bernd Carla", "/spiel Anna grand mit 1 g"])
    ((_, thread),) = NEW_TOPIC.findall(first)
    later = run(tmp_path, [f"#verein/{thread} /stand", "#verein/B /neu Dora Emil Fritz"])
    stand = answer_to(later, f"#verein/{thread} /stand")
    assert "Anna" in stand and "98" in stand, later
    # a new topic gets a number of its own, not the old topic's
    ((_, new),) = NEW_TOPIC.findall(later)
    assert int(new) > int(thread), later
    assert "Neue Liste: Dora, Emil, Fritz" in answer_to(later, "#verein/B /neu Dora Emil Fritz")
