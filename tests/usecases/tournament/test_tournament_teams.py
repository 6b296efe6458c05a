"""Teams in a Preisskat tournament: /teilnehmer with
[TEAM], /team, /teamwertung, the team-aware /auslosen, the team ranking in /rangliste, its
PDF and /export."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

from pypdf import PdfReader

from skatbot.rules import teams as tm
from skatbot.rules import tournament as tr
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.tournament.test_tournament_chat import (
    NAMES,
    ORGANISER,
    SEED,
    export,
    parse_tables,
    results_message,
)

# 13 people at 4 tables: two teams of 4 (as many as tables), one of 3, Lena and Moritz alone.
TEAMS = {
    "Anna": "Skatfreunde Nord", "Bernd": "Skatfreunde Nord", "Carla": "Skatfreunde Nord",
    "Dora": "Skatfreunde Nord", "Emil": "Kreuz Bube", "Frieda": "Kreuz Bube",
    "Gustav": "Kreuz Bube", "Hanna": "Kreuz Bube", "Ida": "Herz Dame", "Jonas": "Herz Dame",
    "Karl": "Herz Dame",
}  # fmt: skip
# Nobody loses a game, so a score is game points + 50 × won whatever the tables:
# series 1: person i gets 10·i + 100 points, 2 won → 10·i + 200
# series 2: person i gets 5·i + 50 points, 1 won → 5·i + 100; total 15·i + 300
SERIES_1 = {n: (10 * i + 100, 2, 0) for i, n in enumerate(NAMES)}
SERIES_2 = {n: (5 * i + 50, 1, 0) for i, n in enumerate(NAMES)}
# Totals by hand: Anna 300, Bernd 315, Carla 330, Dora 345, Emil 360, Frieda 375, Gustav 390,
# Hanna 405, Ida 420, Jonas 435, Karl 450, Lena 465, Moritz 480.
# Sum:    Kreuz Bube 360+375+390+405 = 1530, Herz Dame 420+435+450 = 1305,
#         Skatfreunde Nord 300+315+330+345 = 1290.
# Best 3: Herz Dame 1305, Kreuz Bube 405+390+375 = 1170, Skatfreunde Nord 345+330+315 = 990.
SUM_LINES = [
    "1. Kreuz Bube – 1.530 Punkte (Hanna 405, Gustav 390, Frieda 375, Emil 360)",
    "2. Herz Dame – 1.305 Punkte (Karl 450, Jonas 435, Ida 420)",
    "3. Skatfreunde Nord – 1.290 Punkte (Dora 345, Carla 330, Bernd 315, Anna 300)",
]
BEST_3_LINES = [
    "1. Herz Dame – 1.305 Punkte (Karl 450, Jonas 435, Ida 420)",
    "2. Kreuz Bube – 1.170 Punkte (Hanna 405, Gustav 390, Frieda 375; nicht gewertet: Emil 360)",
    "3. Skatfreunde Nord – 990 Punkte (Dora 345, Carla 330, Bernd 315; nicht gewertet: Anna 300)",
]


def assert_teams_apart(tables: list[list[str]], teams: dict[str, str]) -> None:
    for table in tables:
        here = [teams[n] for n in table if n in teams]
        assert len(here) == len(set(here)), tables


async def setup_teams(chat: Harness) -> None:
    await ok(chat, "/turnier Preisskat Vereinsheim", **ORGANISER)
    # commas, a team spelled in other case joins the first spelling
    reply = await ok(
        chat,
        "/teilnehmer Anna [Skatfreunde Nord], Bernd [skatfreunde nord], Carla [Skatfreunde Nord],"
        " Dora",
        "4 Teilnehmer eingetragen",
        "2. Bernd [Skatfreunde Nord]",
        **ORGANISER,
    )
    assert "4. Dora\n" in reply
    # words without commas: a [..] belongs to the word before it
    await ok(
        chat,
        "/teilnehmer Emil [Kreuz Bube] Frieda [Kreuz Bube] Gustav [Kreuz Bube] Hanna [Kreuz Bube]",
        "4 Teilnehmer eingetragen",
        "8. Hanna [Kreuz Bube]",
        **ORGANISER,
    )
    # new lines
    await ok(
        chat,
        "/teilnehmer Ida [Herz Dame]\nJonas [Herz Dame]\nKarl [Herz Dame]\nLena\nMoritz",
        "5 Teilnehmer eingetragen",
        "Teilnehmer (13)",
        **ORGANISER,
    )
    # set afterwards, change, remove
    await ok(
        chat,
        "/team Dora Skatfreunde Nord",
        "Dora ist jetzt im Team „Skatfreunde Nord“",
        **ORGANISER,
    )
    await ok(chat, "/team Moritz [Herz Dame]", "Moritz ist jetzt im Team „Herz Dame“", **ORGANISER)
    await ok(
        chat, "/team mor kreuz bube", "jetzt im Team „Kreuz Bube“ (vorher „Herz Dame“)", **ORGANISER
    )
    await ok(chat, "/team Moritz -", "Moritz ist nicht mehr im Team „Kreuz Bube“", **ORGANISER)
    listing = await ok(chat, "/team")
    assert "Skatfreunde Nord: Anna, Bernd, Carla, Dora" in listing
    assert "Kreuz Bube: Emil, Frieda, Gustav, Hanna" in listing
    assert "Herz Dame: Ida, Jonas, Karl" in listing
    assert "Ohne Team: 2" in listing
    assert "Teamwertung: Summe aller Mitglieder" in listing
    assert "Anna ist im Team „Skatfreunde Nord“" in await ok(chat, "/team Anna")


async def test_13_people_with_teams_two_series_and_team_ranking(
    chat: Harness, tmp_path: Path
) -> None:
    await setup_teams(chat)

    reply = await ok(
        chat, f"/auslosen {SEED}", "Teams: kein Tisch mit zwei Mitgliedern", **ORGANISER
    )
    tables = parse_tables(reply)
    assert tables == tm.draw(NAMES, SEED, 1, (), TEAMS)
    assert tables != tr.draw(NAMES, SEED, 1)  # the plain draw seats two of a team together
    assert_teams_apart(tables, TEAMS)
    await ok(chat, results_message(SERIES_1), "Serie 1 ist komplett", **ORGANISER)

    reply = await ok(chat, "/auslosen", "Teams: kein Tisch", **ORGANISER)
    seed2 = re.search(r"Startwert (\d{6}) · Serie 2", reply)
    assert seed2, reply
    tables2 = parse_tables(reply)
    assert tables2 == tm.draw(NAMES, seed2.group(1), 2, [tables], TEAMS)
    assert_teams_apart(tables2, TEAMS)
    await ok(chat, results_message(SERIES_2), "Serie 2 ist komplett", **ORGANISER)

    ranking = await ok(chat, "/rangliste", "1. Moritz – 480 Punkte", "13. Anna – 300 Punkte")
    assert "👥 Teamwertung (Summe aller Mitglieder)\n" + "\n".join(SUM_LINES) in ranking
    assert "Gleichstand in der Teamwertung" not in ranking

    await ok(chat, "/teamwertung beste 3", "Teamwertung: die besten 3 je Team", **ORGANISER)
    ranking = await ok(chat, "/rangliste")
    assert "👥 Teamwertung (die besten 3 je Team)\n" + "\n".join(BEST_3_LINES) in ranking

    out = await chat.say("/rangliste pdf")
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1
    assert "Bestes Team: Herz Dame – 1.305 Punkte" in "\n".join(r.text for r in out)
    pdf_bytes = docs[0][1]
    if os.environ.get("SKATBOT_KEEP_PDF"):  # to look at it: SKATBOT_KEEP_PDF=dir pytest ...
        Path(os.environ["SKATBOT_KEEP_PDF"], "rangliste-teams.pdf").write_bytes(pdf_bytes)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf_bytes)).pages)
    assert "Teamwertung" in text and "die besten 3 je Team" in text
    for team, score in [
        ("Herz Dame", "1.305"),
        ("Kreuz Bube", "1.170"),
        ("Skatfreunde Nord", "990"),
    ]:
        assert team in text and score in text
    assert "Emil 360" in text  # not counted, in parentheses

    data = await export(chat)
    assert data["format"] == "skatbot-turnier/1"
    assert data["participants"] == NAMES  # unchanged: still a list of names
    assert data["teams"] == TEAMS
    assert data["team_scoring"] == {"mode": "best", "best": 3}
    assert [(e["rank"], e["team"], e["score"]) for e in data["team_ranking"]] == [
        (1, "Herz Dame", 1305),
        (2, "Kreuz Bube", 1170),
        (3, "Skatfreunde Nord", 990),
    ]
    assert data["team_ranking"][1]["counted"] == ["Hanna", "Gustav", "Frieda"]
    assert data["team_ranking"][1]["not_counted"] == ["Emil"]
    assert data["series"][0]["teams"] == TEAMS == data["series"][1]["teams"]

    # back to the sum; a change of team after the draws counts for the ranking at once, the
    # drawn series keep the teams their draw used
    await ok(chat, "/teamwertung summe", "Summe aller Mitglieder", **ORGANISER)
    await ok(chat, "/team Lena Skatfreunde Nord", "Gilt ab sofort für die Teamwertung", **ORGANISER)
    ranking = await ok(chat, "/rangliste")
    # Nord 1290 + Lena 465 = 1755 now leads
    assert "1. Skatfreunde Nord – 1.755 Punkte (Lena 465, Dora 345" in ranking
    data = await export(chat)
    assert data["series"][0]["teams"] == TEAMS
    assert data["teams"]["Lena"] == "Skatfreunde Nord"
    assert data["team_scoring"] == {"mode": "sum"}


async def test_team_refusals(chat: Harness) -> None:
    await ok(chat, "/turnier Preisskat", **ORGANISER)
    await refused(chat, "/teilnehmer Anna [Nord, Bernd", "Klammern passen nicht", **ORGANISER)
    await refused(chat, "/teilnehmer Anna [Nord] x, Bernd", "gehört ans Ende", **ORGANISER)
    await refused(chat, "/teilnehmer Anna [], Bernd", "Teamname fehlt", **ORGANISER)
    await refused(chat, "/teilnehmer Anna [-], Bernd", "kein Team", **ORGANISER)
    await refused(chat, "/teilnehmer Anna [" + "x" * 60 + "]", "zu lang", **ORGANISER)
    assert "Noch keine Teilnehmer" in await ok(chat, "/teilnehmer")
    await ok(chat, "/teilnehmer Anna [Nord], Bernd, Carla", **ORGANISER)
    await refused(chat, "/team Xaver Nord", "kein Teilnehmer", **ORGANISER)
    await refused(chat, "/team Anna [Nord", "Klammern", **ORGANISER)
    await refused(chat, "/teamwertung beste 0", "beste 1 bis", **ORGANISER)
    await refused(chat, "/teamwertung viele", "/teamwertung summe", **ORGANISER)
    # only the organiser and the chat's admins change teams; everyone may read them
    stranger = {"user_id": 77, "name": "Xaver"}
    await refused(chat, "/team Bernd Nord", "verwalten Olga", **stranger)  # type: ignore[arg-type]
    await refused(chat, "/teamwertung summe", "verwalten Olga", **stranger)  # type: ignore[arg-type]
    assert "Nord: Anna" in await ok(chat, "/team", **stranger)  # type: ignore[arg-type]
    assert "Summe aller Mitglieder" in await ok(chat, "/teamwertung", **stranger)  # type: ignore[arg-type]
    # nothing changed by the refusals
    listing = await ok(chat, "/teilnehmer")
    assert "1. Anna [Nord]\n2. Bernd\n3. Carla" in listing


async def test_without_teams_nothing_changes(chat: Harness) -> None:
    await ok(chat, "/turnier Preisskat", **ORGANISER)
    await ok(chat, "/teilnehmer " + ", ".join(NAMES), **ORGANISER)
    reply = await ok(chat, f"/auslosen {SEED}", **ORGANISER)
    assert "Teams" not in reply
    assert parse_tables(reply) == tr.draw(NAMES, SEED, 1)
    await ok(chat, results_message(SERIES_1), **ORGANISER)
    assert "Teamwertung" not in await ok(chat, "/rangliste")
    data = await export(chat)  # exactly the fields of before
    assert not {"teams", "team_scoring", "team_ranking"} & set(data)
    assert "teams" not in data["series"][0]
    assert "Noch keine Teams" in await ok(chat, "/team")
