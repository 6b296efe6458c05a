"""Preisskat at the desk: /turnier, /teilnehmer, /auslosen, /ergebnis, /rangliste ...

The helpers take the harness or the real bot (tests/handlers use them on Telegram)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from pypdf import PdfReader

from skatbot.rules import tournament as tr
from tests.harness import Harness
from tests.helpers import Bot, export_json

Talker = Bot | Harness

NAMES = [
    "Anna", "Bernd", "Carla", "Dora", "Emil", "Frieda", "Gustav",
    "Hanna", "Ida", "Jonas", "Karl", "Lena", "Moritz",
]  # fmt: skip
SEED = "482913"
ORGANISER = {"user_id": 1, "name": "Olga"}


async def setup_tournament(bot: Talker, chat_id: int = -1001, names: list[str] = NAMES) -> None:
    reply = await bot.text("/turnier Preisskat Vereinsheim", chat_id=chat_id, **ORGANISER)
    assert "Turnier „Preisskat Vereinsheim“" in reply
    half = len(names) // 2
    # one message comma separated, one newline separated
    reply = await bot.text("/teilnehmer " + ", ".join(names[:half]), chat_id=chat_id, **ORGANISER)
    assert f"{half} Teilnehmer eingetragen" in reply
    reply = await bot.text("/teilnehmer\n" + "\n".join(names[half:]), chat_id=chat_id, **ORGANISER)
    assert f"Teilnehmer ({len(names)})" in reply


def parse_tables(reply: str) -> list[list[str]]:
    return [m.group(1).split(", ") for m in re.finditer(r"^Tisch \d+: (.+)$", reply, re.M)]


async def draw(bot: Talker, seed: str = SEED, chat_id: int = -1001) -> list[list[str]]:
    reply = await bot.text(f"/auslosen {seed}", chat_id=chat_id, **ORGANISER)
    tables = parse_tables(reply)
    assert tables, reply
    return tables


async def export(bot: Talker, chat_id: int = -1001) -> dict[str, Any]:
    return await export_json(bot, chat_id, "skatbot-turnier-v1.json")


def results_message(rows: dict[str, tuple[int, int, int]]) -> str:
    return "/ergebnis " + "\n".join(f"{n} {p} {w} {v}" for n, (p, w, v) in rows.items())


# Series 1: nobody lost a game, so every score is points + 50 × won, whatever the tables.
# Anna 100 + 2 × 50 = 200 and Bernd 150 + 1 × 50 = 200 tie on score; Anna has more won games.
SERIES_1 = {n: (10 * i, 1, 0) for i, n in enumerate(NAMES)}
SERIES_1 |= {"Anna": (100, 2, 0), "Bernd": (150, 1, 0)}


async def test_full_tournament_two_series(chat: Harness) -> None:
    await setup_tournament(chat)
    listing = await chat.text("/teilnehmer")
    assert "1. Anna" in listing and "13. Moritz" in listing
    assert "Tische: 1 Vierertisch + 3 Dreiertische" in listing

    reply = await chat.text(f"/auslosen {SEED}", **ORGANISER)
    tables = parse_tables(reply)
    assert [len(t) for t in tables] == [4, 3, 3, 3]
    assert tables == tr.draw(NAMES, SEED, 1)
    assert f"Startwert {SEED} · Serie 1 – nachrechenbar: /hilfe auslosung" in reply

    # after the first draw a change applies from the next series on (test_tournament_season.py)
    assert "Nachmelden: /teilnehmer NAME" in await chat.text("/teilnehmer")

    # first message: all but Moritz, with a wrong value for Carla
    first = dict(SERIES_1)
    del first["Moritz"]
    first["Carla"] = (999, 1, 0)
    reply = await chat.text(results_message(first), **ORGANISER)
    assert "Serie 1: 12 Ergebnisse eingetragen" in reply
    assert "Es fehlt noch 1 Ergebnis in Serie 1" in reply and "Moritz" in reply
    assert "Moritz" in await chat.text("/fehlend")

    # no new draw while results are missing
    reply = await chat.text("/auslosen", **ORGANISER)
    assert "fehlen noch Ergebnisse von Moritz" in reply

    # correction by entering again (latest row counts), with a leading /ergebnis per line
    reply = await chat.text(
        f"/ergebnis Carla {SERIES_1['Carla'][0]} 1 0\n/ergebnis moritz 120 1 0", **ORGANISER
    )
    assert "korrigiert, vorher 999/1/0" in reply
    assert "Serie 1 ist komplett" in reply

    ranking = await chat.text("/rangliste")
    assert "1. Anna – 200 Punkte · 2 gewonnen, 0 verloren" in ranking
    assert "2. Bernd – 200 Punkte · 1 gewonnen, 0 verloren" in ranking
    assert "durch Los" not in ranking

    # series 2 (random seed), results with losses
    reply = await chat.text("/auslosen", **ORGANISER)
    seed2 = re.search(r"Startwert (\d{6}) · Serie 2", reply)
    assert seed2, reply
    tables2 = parse_tables(reply)
    assert tables2 == tr.draw(NAMES, seed2.group(1), 2, [tables])
    series_2 = {n: (20 + i, 3, 1 + i % 3) for i, n in enumerate(NAMES)}
    half = dict(list(series_2.items())[:7])
    rest = dict(list(series_2.items())[7:])
    await chat.say(results_message(half), **ORGANISER)
    assert "komplett" not in await chat.text("/fehlend")
    ranking = await chat.text("/rangliste")
    assert "Serie 2 ist noch unvollständig und nicht gewertet" in ranking
    assert "Serie 1" in ranking.splitlines()[0]
    reply = await chat.text(results_message(rest), **ORGANISER)
    assert "Serie 2 ist komplett" in reply

    expected = tr.tournament_standings(
        [
            tr.series_scores(tables, {n: tr.SeriesResult(n, *SERIES_1[n]) for n in NAMES}),
            tr.series_scores(tables2, {n: tr.SeriesResult(n, *series_2[n]) for n in NAMES}),
        ],
        "unused",
    )
    ranking = await chat.text("/rangliste")
    assert "(Serien 1, 2)" in ranking
    top = expected[0].standing
    assert f"1. {top.name} – {top.score} Punkte" in ranking

    data = await export(chat)
    assert data["format"] == "skatbot-turnier/1"
    assert data["name"] == "Preisskat Vereinsheim"
    assert data["participants"] == NAMES
    assert [s["number"] for s in data["series"]] == [1, 2]
    assert data["series"][0]["seed"] == SEED
    assert data["series"][0]["tables"] == tables
    assert data["series"][1]["seed"] == seed2.group(1)
    assert data["series"][1]["tables"] == tables2
    carla = next(r for r in data["series"][0]["results"] if r["name"] == "Carla")
    assert (carla["game_points"], carla["won"], carla["lost"]) == (SERIES_1["Carla"][0], 1, 0)
    by_name = {e["name"]: e for e in data["ranking"]}
    for r in expected:
        s = r.standing
        assert (by_name[s.name]["score"], by_name[s.name]["won"], by_name[s.name]["lost"]) == (
            s.score,
            s.won,
            s.lost,
        )
    assert [e["rank"] for e in data["ranking"]] == list(range(1, 14))
    scores = [(e["score"], e["won"], -e["lost"]) for e in data["ranking"]]
    assert scores == sorted(scores, reverse=True)

    out = await chat.say("/urkunden 3")
    docs = [r.document for r in out if r.document]
    assert docs and docs[0][0].endswith(".pdf")
    pdf = PdfReader(io.BytesIO(docs[0][1]))
    assert len(pdf.pages) == 3
    assert data["ranking"][0]["name"] in pdf.pages[0].extract_text()


async def test_validation_refusals_store_nothing(chat: Harness) -> None:
    await setup_tournament(chat)
    tables = await draw(chat)
    four = tables[0]
    three = tables[1]
    cases = [
        # unknown name on line 2: the valid line 1 is not stored either
        (f"/ergebnis {four[0]} 100 5 2\nXaver 10 1 1", "Zeile 2", "kein Teilnehmer"),
        # too many games at the 4-table (48): 30 + 20 = 50
        (f"/ergebnis {four[0]} 100 20 0\n{four[1]} 50 10 20", "Zeilen 1, 2", "nur 48"),
        # too many games at a 3-table (36)
        (f"/ergebnis {three[0]} 100 30 7", "Zeile 1", "nur 36"),
        (f"/ergebnis {four[0]} 100 zwölf 2", "Zeile 1", "NAME SPIELPUNKTE GEWONNEN VERLOREN"),
        (f"/ergebnis {four[0]} 100 -1 2", "Zeile 1", "nicht negativ"),
        (f"/ergebnis {four[0]} 1 1 1\n{four[0]} 2 2 2", "Zeile 2", "schon in Zeile 1"),
    ]
    for message, where, what in cases:
        reply = await chat.text(message, **ORGANISER)
        assert where in reply and what in reply, reply
        assert "Nichts wurde gespeichert" in reply
    missing = await chat.text("/fehlend")
    assert "Es fehlen noch 13 Ergebnisse in Serie 1" in missing
    data = await export(chat)
    assert data["series"][0]["results"] == []

    # stored results count towards the table limit of later messages
    await chat.say(f"/ergebnis {three[0]} 100 20 0", **ORGANISER)
    reply = await chat.text(f"/ergebnis {three[1]} 100 10 7", **ORGANISER)
    assert "37 Spiele" in reply
    # ... but a correction replaces the earlier value
    reply = await chat.text(f"/ergebnis {three[0]} 100 10 0\n{three[1]} 100 10 7", **ORGANISER)
    assert "2 Ergebnisse eingetragen" in reply
    assert "Es fehlen noch 11 Ergebnisse in Serie 1" in reply


async def test_same_seed_same_tables_in_two_chats(chat: Harness) -> None:
    await setup_tournament(chat, chat_id=-1001)
    await setup_tournament(chat, chat_id=-1002, names=list(reversed(NAMES)))
    one = await draw(chat, "4711", chat_id=-1001)
    two = await draw(chat, "4711", chat_id=-1002)
    assert one == two == tr.draw(NAMES, "4711", 1)


async def test_unusable_fields_are_refused_at_the_draw(chat: Harness) -> None:
    for chat_id, names, expected in (
        (-2001, ["Anna"], "Mit 1 Teilnehmer"),
        (-2002, ["Anna", "Bernd"], "Mit 2 Teilnehmern"),
        (-2005, NAMES[:5], "Mit 5 Teilnehmern"),
    ):
        await chat.say("/turnier Test", chat_id=chat_id, **ORGANISER)
        await chat.say("/teilnehmer " + ", ".join(names), chat_id=chat_id, **ORGANISER)
        reply = await chat.text("/auslosen 1", chat_id=chat_id, **ORGANISER)
        assert expected in reply
        assert "Tisch 1" not in reply
    reply = await chat.text("/auslosen", chat_id=-2005, **ORGANISER)
    assert "Mit 5 Teilnehmern" in reply
    await chat.say("/teilnehmer Frieda", chat_id=-2005, **ORGANISER)
    assert "Tisch 2" in await chat.text("/auslosen 1", chat_id=-2005, **ORGANISER)


async def test_only_the_creator_and_chat_admins_manage(chat: Harness) -> None:
    await setup_tournament(chat)
    other = {"user_id": 2, "name": "Fremd"}
    for message in ("/teilnehmer Zoe", "/entfernen Anna", "/auslosen 1", "/serienlaenge 30 40"):
        reply = await chat.text(message, **other)
        assert "verwalten Olga" in reply and "Admins" in reply, reply
    assert "13. Moritz" in await chat.text("/teilnehmer", **other)
    await draw(chat)
    reply = await chat.text("/ergebnis Anna 1 1 1", **other)
    assert "verwalten Olga" in reply
    assert "Es fehlen noch 13" in await chat.text("/fehlend", **other)
    # A chat admin may manage too.
    chat.set_admins(-1001, 3)
    reply = await chat.text("/ergebnis Anna 437 12 3", user_id=3, name="Admina")
    assert "1 Ergebnis eingetragen" in reply, reply
    assert "Es fehlen noch 12" in await chat.text("/fehlend", **other)


async def test_participants_list_rules(chat: Harness) -> None:
    await setup_tournament(chat)
    reply = await chat.text("/teilnehmer anna", **ORGANISER)
    assert "„anna“ steht schon in der Teilnehmerliste (Nr. 1: Anna)" in reply
    reply = await chat.text("/teilnehmer Zoe, zoe", **ORGANISER)
    assert "doppelt" in reply
    reply = await chat.text("/teilnehmer Anna Maria Schmidt, Yusuf", **ORGANISER)
    assert "2 Teilnehmer eingetragen: Anna Maria Schmidt, Yusuf" in reply
    reply = await chat.text("/entfernen Yusuf", **ORGANISER)
    assert "Yusuf ist nicht mehr dabei" in reply
    assert "14. Anna Maria Schmidt" in reply
    reply = await chat.text("/entfernen Xaver", **ORGANISER)
    assert "kein Teilnehmer" in reply


async def test_turnier_refusals_and_series_length(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla", chat_id=-3001)
    reply = await chat.text("/turnier Test", chat_id=-3001)
    assert "läuft noch eine Liste" in reply and "/abschluss" in reply
    await setup_tournament(chat)
    reply = await chat.text("/turnier Noch eins", **ORGANISER)
    assert "schon das Turnier „Preisskat Vereinsheim“" in reply
    assert "Turnier" in await chat.text("/rangliste", chat_id=-3002)  # no tournament there

    reply = await chat.text("/serienlaenge 24 32", **ORGANISER)
    assert "24 Spiele am Dreiertisch, 32 am Vierertisch" in reply
    tables = await draw(chat)
    three = tables[1]
    reply = await chat.text(f"/ergebnis {three[0]} 100 20 5", **ORGANISER)
    assert "nur 24" in reply
    await chat.say(f"/ergebnis {three[0]} 100 20 4", **ORGANISER)
    reply = await chat.text("/serienlaenge 20 32", **ORGANISER)
    assert "Serie 1" in reply and "nur 20" in reply


async def test_lot_decides_a_full_tie(chat: Harness) -> None:
    names = ["Anna", "Bernd", "Carla"]
    await setup_tournament(chat, names=names)
    await draw(chat, "7")
    await chat.say(results_message({n: (100, 2, 0) for n in names}), **ORGANISER)
    ranking = await chat.text("/rangliste")
    assert "durch Los" in ranking
    data = await export(chat)
    assert all(e["by_lot"] for e in data["ranking"])
    assert "Platz 1–3" in await chat.text("/urkunden")
    assert "nur 3 Plätze" in await chat.text("/urkunden 4")


async def test_correcting_an_earlier_series_and_emoji_certificates(chat: Harness) -> None:
    names = ["Anna", "Bernd", "Jörg 🃏"]
    await setup_tournament(chat, names=names)
    await draw(chat, "1")
    await chat.say(results_message({"Anna": (10, 1, 0), "Bernd": (20, 1, 0), "jö": (30, 1, 0)}),
                  **ORGANISER)  # fmt: skip
    await draw(chat, "2")
    reply = await chat.text("/ergebnis serie 1\nAnna 500 1 0", **ORGANISER)
    assert "Serie 1: 1 Ergebnis eingetragen" in reply
    assert "korrigiert, vorher 10/1/0" in reply
    assert "Serie 9 gibt es nicht" in await chat.text("/ergebnis serie 9\nAnna 1 1 0", **ORGANISER)
    ranking = await chat.text("/rangliste")
    assert "1. Anna – 550 Punkte" in ranking
    assert "Serie 2 ist noch unvollständig" in ranking
    out = await chat.say("/urkunden 3")
    assert "bei: Jörg 🃏" in out[0].text
    docs = [r.document for r in out if r.document]
    assert len(PdfReader(io.BytesIO(docs[0][1])).pages) == 3


def test_docs_snippet_recomputes_series_1(capsys) -> None:  # type: ignore[no-untyped-def]
    page = (Path(__file__).parents[3] / "docs" / "preisskat.md").read_text(encoding="utf-8")
    section = page.split("## Recomputing a draw", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/preisskat.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        f"Tisch {i}: {', '.join(t)}" for i, t in enumerate(tr.draw(NAMES, SEED, 1), 1)
    ]
