"""Recorded evenings: the reply texts and the /export JSON of four scripted sessions (3-table,
4-table, house rules, tournament) must stay exactly as recorded. A restructuring that changes
any of them changed behaviour.

Seeds (the lot) and nonces come from a counter instead of chance; what still differs from
run to run (dates) is masked before comparing. To record anew after an intended change:
``SKATBOT_GOLDEN_UPDATE=1 pytest tests/golden`` and review the diff of tests/golden/data/.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import secrets
from pathlib import Path

import pytest

from skatbot.rules.calendar import berlin_date
from tests.helpers import Bot

DATA = Path(__file__).parent / "data"
UPDATE = os.environ.get("SKATBOT_GOLDEN_UPDATE") == "1"

THREE = [
    "/neu Anna Bernd Carla",
    "/spiel Anna grand ohne 1 hand gewonnen",
    "/spiel Bernd kreuz mit 2 reiz 36 augen 75",
    "/spiel Carla null ouvert verloren",
    "/eingepasst",
    "/spiel Anna herz ohne 3 schneider gewonnen",
    "/spiel Bernd karo mit 1 reiz 30 gewonnen",
    "/spiel Carla pik mit 1 hand schneider angesagt augen 95",
    "/korrigieren 2 Bernd kreuz mit 2 reiz 36 augen 55",
    "/storno 4 ja",
    "/umbenennen Carla Carlotta",
    "/geber Anna",
    "/spiel Bernd grand mit 2 schwarz angesagt hand augen 120",
    "/serie 9",
    "/wert grand ohne 4 hand schneider gewonnen",
    "/stand",
    "/liste alle",
    "/spiel Xaver grand mit 1 gewonnen",
    "/spiel Anna grand mit 5 gewonnen",
    "/spiel Anna karo mit 1 reiz 19 gewonnen",
]
FOUR = [
    "/neu Anna Bernd Carla Dora geber Dora",
    "/spiel Anna grand ohne 1 hand gewonnen",
    "/spiel Anna kreuz mit 1 gewonnen",
    "/spiel Carla herz mit 2 verloren",
    "/spiel Dora null hand gewonnen",
    "/spiel Anna pik ohne 2 augen 40",
    "/korrigieren 3 Carla herz mit 2 gewonnen",
    "/stand",
    "/liste",
]
HOUSE = [
    "/regeln haus",
    "/neu Anna Bernd Carla",
    "/startpunkte Anna 100 Bernd -20",
    "/spiel Anna kreuz mit 1 hand gewonnen",
    "/spiel Bernd grand mit 2 kontra verloren",
    "/spiel Carla herz mit 1 augen 60",
    "/spiel Anna grand mit 1 gewonnen",
    "/spiel Bernd karo mit 1 gewonnen",
    "/spiel Carla pik mit 1 gewonnen",
    "/gesund",
    "/ramsch Anna 70 geschoben 1",
    "/bock",
    "/stand",
    "/liste alle",
]
TOURNAMENT = [
    "/turnier Preisskat Vereinsheim",
    "/teilnehmer Anna, Bernd, Carla, Dora, Emil, Frieda, Gustav",
    "/serienlaenge 36 48",
    "/auslosen 482913",
    "/ergebnis Anna 100 2 1\nBernd 50 1 1\nCarla 0 0 2\nDora 30 1 0\nEmil 10 1 1\nFrieda 70 2 0\nGustav -20 0 1",
    "/fehlend",
    "/rangliste",
    "/auslosen 482913",
    "/teilnehmer",
]


def _mask(text: str) -> str:
    # The bot dates what it records by the calendar in Germany, which runs ahead of UTC
    # for an hour or two around midnight: mask that day (and the machine's, for safety).
    for today in {berlin_date(None), dt.date.today()}:
        for form in (today.strftime("%d.%m.%Y"), today.isoformat()):
            text = text.replace(form, "<today>")
    return text


async def _record(bot: Bot, script: list[str], chat_id: int) -> dict[str, object]:
    transcript = []
    for line in script:
        replies = await bot.say(line, chat_id=chat_id, user_id=1, name="Olga")
        shown = []
        for reply in replies:
            entry: dict[str, object] = {
                "method": reply.method,
                "html": _mask(reply.html or reply.text),
            }
            if reply.document is not None:
                entry["document"] = reply.document[0]
            shown.append(entry)
        transcript.append({"in": line, "out": shown})
    exported = await bot.say("/export", chat_id=chat_id)
    docs = [r.document for r in exported if r.document]
    data = json.loads(docs[0][1]) if docs else None
    return {
        "transcript": transcript,
        "export": json.loads(_mask(json.dumps(data, ensure_ascii=False))),
    }


@pytest.mark.parametrize(
    ("name", "script"),
    [("three", THREE), ("four", FOUR), ("house", HOUSE), ("tournament", TOURNAMENT)],
)
async def test_recorded_evening_is_unchanged(
    bot: Bot, name: str, script: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A list's seed decides ties by lot: the same seeds every run, so the order is recorded too.
    counter = itertools.count(1)
    monkeypatch.setattr(secrets, "token_hex", lambda n=32: f"{next(counter):0{2 * n}x}")
    recorded = await _record(bot, script, -1001)
    path = DATA / f"{name}.json"
    if UPDATE or not path.exists():
        DATA.mkdir(exist_ok=True)
        path.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", "utf-8")
        if not UPDATE:
            pytest.fail(f"recorded {path.name} anew: review and commit it")
    expected = json.loads(path.read_text("utf-8"))
    for got, want in zip(recorded["transcript"], expected["transcript"], strict=True):  # type: ignore[call-overload]
        assert got == want
    assert recorded["export"] == expected["export"]
