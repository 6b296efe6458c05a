"""/statistik over a scripted set of lists (three evenings, players coming and going, a
4-table, an overbid, a passed game, and a running list that must not count), compared
with figures computed by hand in the comments below; /stand bild and /abschluss post the
running scores as a picture.

ISkO values: Grand mit 1 = 2 × 24 = 48; Grand ohne 1 Hand = 3 × 24 = 72; Kreuz mit 1 lost
= −2 × 24 = −48; Herz ohne 2 Hand = 4 × 10 = 40; Null = 23; Null ouvert lost = −2 × 46 = −92;
Karo mit 1 = 2 × 9 = 18; Pik mit 1 bid 36 = overbid, 4 × 11 = 44, lost: −88.
Seeger-Fabian = points + 50 × (won − lost) + 40 (3-table) / 30 (4-table) × lost by others.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image
from sqlalchemy import select, update

from skatbot.storage.database import Database
from skatbot.storage.lists_models import SheetList
from tests.harness import Harness
from tests.helpers import ok, refused


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


# Evening 1 (5 March): Anna, Bernd, Carla.
LIST_1 = [
    "/neu Anna Bernd Carla",
    "/spiel Anna grand mit 1 gewonnen",  # Anna +48
    "/spiel Bernd kreuz mit 1 verloren",  # Bernd −48
    "/spiel Carla null gewonnen",  # Carla +23
    "/spiel Anna grand ohne 1 hand gewonnen",  # Anna +72
    "/abschluss ja",
]
# SF: Anna 120 + 50 × 2 + 40 × 1 = 260; Bernd −48 − 50 = −98; Carla 23 + 50 + 40 = 113
LIST_2 = [
    "/weiter",
    "/spiel Bernd herz ohne 2 hand gewonnen",  # Bernd +40
    "/spiel Anna pik mit 1 reiz 36 gewonnen",  # overbid: Anna −88
    "/eingepasst",
    "/abschluss ja",
]
# SF: Anna −88 − 50 = −138; Bernd 40 + 50 + 40 = 130; Carla 40
# Evening 2 (10 April): Bernd stays away, Dora comes.
LIST_3 = [
    "/neu Anna Carla Dora",
    "/spiel Dora null ouvert verloren",  # Dora −92
    "/spiel Dora karo mit 1 gewonnen",  # Dora +18
    "/spiel Carla grand mit 1 gewonnen",  # Carla +48
    "/abschluss ja",
]
# SF: Anna 40; Carla 48 + 50 + 40 = 138; Dora −74 + 50 × (1 − 1) = −74
# Evening 3 (20 May): a 4-table; the dealer (Anna, Bernd, Carla, Dora) sits out.
LIST_4 = [
    "/neu Anna Bernd Carla Dora",
    "/spiel Bernd grand mit 1 gewonnen",  # Bernd +48
    "/spiel Anna kreuz mit 1 verloren",  # Anna −48
    "/spiel Dora null gewonnen",  # Dora +23
    "/spiel Anna grand mit 1 gewonnen",  # Anna +48
    "/abschluss ja",
]
# SF: Anna 0 + 0 + 30 × 0 = 0; Bernd 48 + 50 + 30 = 128; Carla 30; Dora 23 + 50 + 30 = 103
RUNNING = ["/neu Anna Bernd Carla", "/spiel Anna grand ohne 4 hand gewonnen"]  # not counted

DAYS = [dt.date(2026, 3, 5), dt.date(2026, 3, 5), dt.date(2026, 4, 10), dt.date(2026, 5, 20)]


async def set_days(db: Database) -> None:
    """The lists were played on DAYS (the test runs on one day; 20:00 UTC each)."""

    def write(session):  # type: ignore[no-untyped-def]
        ids = session.scalars(select(SheetList.id).order_by(SheetList.id)).all()
        for list_id, day in zip(ids, DAYS, strict=False):
            when = dt.datetime.combine(day, dt.time(20), dt.UTC)
            session.execute(
                update(SheetList)
                .where(SheetList.id == list_id)
                .values(created_at=when, closed_at=when + dt.timedelta(hours=2))
            )

    await db.write(write)


async def play_year(chat: Harness, db: Database) -> None:
    for message in [*LIST_1, *LIST_2, *LIST_3, *LIST_4, *RUNNING]:
        await ok(chat, message)
    await set_days(db)


def lines(text: str) -> list[str]:
    return text.splitlines()


async def test_statistics_of_the_chat_match_the_hand_computation(
    chat: Harness, db: Database
) -> None:
    await play_year(chat, db)
    text = await ok(chat, "/statistik")
    assert lines(text) == [
        "📊 Statistik dieses Chats",
        # the running list (list 5) does not count, and the reply says so
        "Über 4 abgeschlossene Listen an 3 Tagen – die laufende Liste zählt erst nach /abschluss.",
        # 4 + 3 + 3 + 4 valid plays, one of them passed
        "14 Spiele am Tisch, davon 1 eingepasst",
        # 13 declared: won L1 3, L2 1, L3 2, L4 3 = 9; lost 4; one overbid
        "Gespielt: 13 – gewonnen 9 (69 %), verloren 4 (31 %), überreizt 1",
        # Grand: L1 2, L3 1, L4 2, all won. Farbe: Kreuz, Herz, Pik, Karo, Kreuz; Herz and
        # Karo won. Null: L1 won, L3 ouvert lost, L4 won. Hand: Grand ohne 1, Herz ohne 2.
        "Grand 5 (5 gew.) · Farbe 5 (2 gew.) · Null 3 (2 gew.) · Hand 2 (2 gew.)"
        " · Ouvert 1 (0 gew.)",
        "",
        "🏆 Rekorde",
        "Höchstes Spiel: Anna, Grand ohne 1 Hand +72 (Spiel 4, 05.03.2026)",
        "Teuerstes Spiel: Dora, Null ouvert −92 (Spiel 1, 10.04.2026)",
        "Beste Serie: Anna 260 am 05.03.2026",
        "Schwächste Serie: Anna −138 am 05.03.2026",
        # every player won 2 in a row at best (Anna L1, Bernd L2 + L4, Carla L1 + L3, Dora
        # L3 + L4): all hold the record
        "Längste Glückssträhne: alle gleich, je 2 Spiele gewonnen in Folge",
        # Anna lost Pik (L2) and Kreuz (L4) one after the other
        "Längste Pechsträhne: Anna, 2 Spiele verloren in Folge",
        # Anna and Carla played all four lists, Bernd three, Dora two
        "Meiste Serien: Anna und Carla, je 4",
        "Meiste gewonnene Spiele: Anna, 3",
        "",
        "Spieler – Serien · Ø Seeger-Fabian je Serie · gewonnen/gespielt",
        # Carla (113 + 40 + 138 + 30) / 4 = 80.25; Bernd (−98 + 130 + 128) / 3 = 53.3;
        # Anna (260 − 138 + 40 + 0) / 4 = 40.5 → 41; Dora (−74 + 103) / 2 = 14.5 → 15
        "Carla: 4 · Ø 80 · 2/2 (100 %)",
        "Bernd: 3 · Ø 53 · 2/3 (67 %)",
        "Anna: 4 · Ø 41 · 3/5 (60 %)",
        "Dora: 2 · Ø 15 · 2/3 (67 %)",
        "Ein Spieler genauer (mit Saisonbild): /statistik NAME",
    ]


async def test_statistics_of_a_player_match_the_hand_computation(
    chat: Harness, db: Database
) -> None:
    await play_year(chat, db)
    out = await chat.say("/statistik anna")
    assert [r.method for r in out] == ["sendPhoto"]  # the text rides on the picture
    assert lines(out[0].text) == [
        "📊 Statistik: Anna",
        "Über 4 abgeschlossene Listen an 3 Tagen – die laufende Liste zählt erst nach /abschluss.",
        "Serien: 4 · 14 Spiele am Tisch",
        # declared: L1 Grand, Grand Hand (won); L2 Pik overbid (lost); L4 Kreuz (lost), Grand
        "Gespielt: 5 – gewonnen 3 (60 %), verloren 2 (40 %), überreizt 1",
        "Grand 3 (3 gew.) · Farbe 2 (0 gew.) · Hand 1 (1 gew.)",
        "Seeger-Fabian: Ø 41 je Serie (4 Serien, Summe 162)",
        "Beste Serie: 260 am 05.03.2026 · schwächste: −138 am 05.03.2026",
        "Bestes Spiel: Grand ohne 1 Hand +72 (Spiel 4, 05.03.2026)",
        "Schwächstes Spiel: Pik mit 1 −88 (Spiel 2, 05.03.2026)",
        # won, won | lost | lost, won
        "Strähnen: 2 gewonnen, 2 verloren in Folge (längste) · zuletzt 1 gewonnen in Folge",
        # ahead of Anna: Carla in L2 (40 > −138), L3 (138 > 40), L4 (30 > 0) of 4;
        # Bernd in L2, L4 of 3; Dora in L4 of 2
        "Angstgegner: Carla – in 3 von 4 gemeinsamen Serien vor Anna",
        # openskill Plackett-Luce over her 4 series, as /saison shows it (the replay itself
        # is checked in test_season_year.py); she trails Carla in 3 of 4, so below 1000
        "🎯 Skatzahl 856 nach 4 Serien (/hilfe rating)",
        "Saison 2026 von Anna: Seeger-Fabian nach jeder Serie",  # the picture's own caption
    ]
    name, png = out[0].document or ("", b"")
    assert name == "saison-2026-anna.png"  # named per player
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (1200, 1000)

    dora = await ok(chat, "/statistik do")  # a unique prefix
    assert "Gespielt: 3 – gewonnen 2 (67 %), verloren 1 (33 %), überreizt 0" in dora
    assert "Farbe 1 (1 gew.) · Null 2 (1 gew.) · Ouvert 1 (0 gew.)" in dora
    assert "Seeger-Fabian: Ø 15 je Serie (2 Serien, Summe 29)" in dora
    # ahead of Dora: Anna and Carla in L3 (of 2 each), Bernd in L4 (of 1): the larger share
    assert "Angstgegner: Bernd – in 1 von 1 gemeinsamen Serien vor Dora" in dora

    bernd = await ok(chat, "/statistik BERND")
    assert "Serien: 3 · 11 Spiele am Tisch" in bernd
    assert "Bestes Spiel: Grand mit 1 +48 (Spiel 1, 20.05.2026)" in bernd
    assert "Schwächstes Spiel: Kreuz mit 1 −48 (Spiel 2, 05.03.2026)" in bernd
    assert "zuletzt 2 gewonnen in Folge" in bernd


async def test_statistics_refusals(chat: Harness, db: Database) -> None:
    await refused(chat, "/statistik", "noch keine abgeschlossene Liste", "/abschluss")
    await ok(chat, "/neu Anna Bernd Carla")
    await refused(chat, "/statistik", "noch keine abgeschlossene Liste")
    await ok(chat, "/spiel Anna grand mit 1 gewonnen")
    await ok(chat, "/abschluss ja")
    await refused(chat, "/statistik Xaver", "„Xaver“ hat in keiner", "Anna, Bernd, Carla")
    await ok(chat, "/neu Bea Bernd Carla")
    await ok(chat, "/eingepasst")  # a list without a game would not be a series
    await ok(chat, "/abschluss ja")
    await refused(
        chat, "/statistik b", "nicht eindeutig: Bea oder Bernd", "/statistik Bea · /statistik Bernd"
    )
    text = await ok(chat, "/statistik", "(nur abgeschlossene Listen zählen)")
    assert "Bea: 1 · Ø 0 · 0/0 (–)" in text


async def test_stand_bild_and_abschluss_post_the_running_scores(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand mit 1 gewonnen")
    plain = await chat.say("/stand")
    assert [r.method for r in plain] == ["sendMessage"]  # /stand alone: no picture
    out = await chat.say("/stand bild")
    assert [r.method for r in out] == ["sendPhoto"]
    assert "Zwischenstand" in out[0].text  # the text as its caption
    name, png = out[0].document or ("", b"")
    assert name.startswith("skatliste-1-stand-") and name.endswith(".png")
    assert Image.open(io.BytesIO(png)).size == (1200, 1000)

    out = await chat.say("/abschluss ja")
    assert [r.method for r in out] == ["sendDocument", "sendPhoto"]
    assert "Liste abgeschlossen" in out[0].text
    assert out[1].text == "Verlauf des Stands, Liste 1 (1 Spiel)"
    assert out[1].document is not None and out[1].document[0].startswith("skatliste-1-abschluss-")
    assert chat.last(-1001).document == out[1].document  # the picture is the newest message


async def test_a_player_without_games_of_their_own_gets_no_empty_lines(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand mit 1 gewonnen")
    await ok(chat, "/abschluss ja")
    bernd = lines(await ok(chat, "/statistik Bernd"))
    # Bernd declared nothing: no line of game kinds (it was a lone "–"), no percentages of 0
    assert "–" not in bernd, bernd
    assert "Gespielt: 0 (kein Spiel selbst angesagt)" in bernd, bernd
    assert not any("(–)" in line for line in bernd), bernd
    assert "Serien: 1 · 1 Spiel am Tisch" in bernd, bernd
