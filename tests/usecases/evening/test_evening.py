"""A whole evening at a 3-table and at a 4-table, entered only through chat messages.

Every expected number is computed by hand in the comments (ISkO values, docs/rules.md §4; Seeger-Fabian:
game points + 50 × (won − lost) + 40/30 × games lost by the others) and compared with /export.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.harness import Harness
from tests.helpers import export_json, ok


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


async def export(chat: Harness) -> dict[str, Any]:
    return await export_json(chat, filename="skatbot-liste-v1.json")


async def play(chat: Harness, message: str, progress: str, *expected: str) -> str:
    """Send ``message``; the reply must not be a refusal and must show ``progress``."""
    return await ok(chat, message, progress, *expected)


def totals(
    game_points: int, won: int, lost: int, opponents_lost: int, score: int
) -> dict[str, int]:
    return {
        "game_points": game_points,
        "won": won,
        "lost": lost,
        "opponents_lost": opponents_lost,
        "score": score,
    }


def row_summary(game: dict[str, Any]) -> tuple[Any, ...]:
    return (game["nr"], game["status"], game["dealer"], game["declarer"], game["points"])


# --- 3-table ------------------------------------------------------------------------------------


async def test_evening_at_a_three_table(chat: Harness) -> None:
    await play(chat, "/neu Anna Bernd Carla", "Spiel 1/36 · Geber Anna · Vorhand Bernd")

    # G1 (dealer Anna): Kreuz mit 2 → (2 + 1) × 12 = 36, won → Anna +36
    await play(
        chat,
        "/spiel Anna kreuz mit 2 gewonnen",
        "Spiel 2/36 · Geber Bernd · Vorhand Carla",
        "Kreuz mit 2, Spiel 3 → 3 × 12 = 36",
        "Anna +36",
    )
    # G2 (Bernd): Herz ohne 1 → (1 + 1) × 10 = 20, lost → −2 × 20 = −40
    await play(
        chat,
        "/spiel Bernd herz ohne 1 verloren",
        "Spiel 3/36 · Geber Carla · Vorhand Anna",
        "Bernd −2 × 20 = −40",
        "Anna, Carla je +40",
    )
    # G3 (Carla): Grand mit 1 Hand → (1 + 1 + 1) × 24 = 72 → Carla +72
    await play(
        chat, "/spiel Carla grand mit 1 hand gewonnen", "Spiel 4/36 · Geber Anna · Vorhand Bernd"
    )
    # G4 (Anna): Null → 23 → Anna +23
    await play(chat, "/spiel an null g", "Spiel 5/36 · Geber Bernd · Vorhand Carla", "Null = 23")
    # G5 (Bernd): Karo mit 1, bid 30: played (1 + 1) × 9 = 18 < 30 → overbid,
    # value = smallest multiple of 9 reaching 30 = 36, lost although "gewonnen" → −72
    await play(
        chat,
        "/spiel Bernd karo mit 1 reiz 30 gewonnen",
        "Spiel 6/36 · Geber Carla · Vorhand Anna",
        "überreizt",
        "Bernd −2 × 36 = −72",
    )
    # G6 (Carla): all passed, no score, the dealer moves on
    await play(chat, "/eingepasst", "Spiel 7/36 · Geber Anna · Vorhand Bernd", "eingepasst")
    # G7 (Anna): Pik mit 3, 95 card points → won, Schneider: (3 + 1 + 1) × 11 = 55 → Carla +55
    await play(chat, "/spiel Carla pik mit 3 augen 95", "Spiel 8/36 · Geber Bernd · Vorhand Carla")
    # G8 (Bernd): Grand ohne 2 lost: (2 + 1) × 24 = 72 → −144 (corrected below to won, +72)
    await play(chat, "/spiel Anna grand ohne 2 verloren", "Spiel 9/36 · Geber Carla · Vorhand Anna")
    # G9 (Carla): passed via "/spiel passe"
    await play(chat, "/spiel passe", "Spiel 10/36 · Geber Anna · Vorhand Bernd", "eingepasst")
    # G10 (Anna): Null ouvert lost: 46 → −92
    await play(
        chat, "/spiel Bernd null ouvert verloren", "Spiel 11/36 · Geber Bernd · Vorhand Carla"
    )

    # Correction in the middle: game 8 becomes won (+72). Same number, same dealer (Bernd), and
    # the next dealer is still Bernd (corrections never shift later rows).
    await play(
        chat,
        "/korrigieren 8 Anna grand ohne 2 gewonnen",
        "Spiel 11/36 · Geber Bernd · Vorhand Carla",
        "Spiel 8 korrigiert",
        "Anna +72",
    )

    # G11 (Bernd): Herz mit 1 → (1 + 1) × 10 = 20 → Carla +20 (cancelled below)
    await play(chat, "/spiel Carla herz mit 1 gewonnen", "Spiel 12/36 · Geber Carla · Vorhand Anna")
    # G12 (Carla): Kreuz ohne 3 Hand → (3 + 1 + 1) × 12 = 60 → Anna +60
    await play(
        chat, "/spiel Anna kreuz ohne 3 hand gewonnen", "Spiel 13/36 · Geber Anna · Vorhand Bernd"
    )
    before = await export(chat)
    assert [g["nr"] for g in before["games"] if g["declarer"] == "Anna"][-1] == 12

    # Cancellation in the middle: game 11 goes, game 12 moves up to 11; 11 valid games remain
    # and the next deal is unchanged (the last valid row is still G12, dealt by Carla).
    await play(
        chat,
        "/storno 11 ja",
        "Spiel 12/36 · Geber Anna · Vorhand Bernd",
        "Spiel 11 storniert",
        "rücken eine Nummer auf",
    )
    after = await export(chat)
    moved = [g for g in after["games"] if g["declarer"] == "Anna" and g["points"] == {"Anna": 60}]
    assert [g["nr"] for g in moved] == [11]

    # G13 (Anna): Pik mit 1, 70 card points → won, (1 + 1) × 11 = 22 → Bernd +22
    await play(chat, "/spiel Bernd pik mit 1 augen 70", "Spiel 13/36 · Geber Bernd · Vorhand Carla")

    # Rename: display name only, every number stays.
    stand_before = await chat.text("/stand")
    export_before = await export(chat)
    reply = await chat.text("/umbenennen Bernd Bernhard")
    assert "Bernd heißt jetzt Bernhard" in reply
    stand_after = await chat.text("/stand")
    export_after = await export(chat)
    assert stand_after == stand_before.replace("Bernd", "Bernhard")
    assert json.dumps(export_after) == json.dumps(export_before).replace("Bernd", "Bernhard")

    # G14 (Bernhard): Grand mit 2 lost: (2 + 1) × 24 = 72 → −144
    await play(
        chat, "/spiel Carla grand mit 2 verloren", "Spiel 14/36 · Geber Carla · Vorhand Anna"
    )
    # G15 (Carla): Herz mit 2 Hand Schneider angesagt, won → Schneider reached:
    # (2 + 1 + hand 1 + Schneider 1 + angesagt 1) = 6 × 10 = 60 → Anna +60
    await play(
        chat,
        "/spiel Anna herz mit 2 hand schneider angesagt gewonnen",
        "Spiel 15/36 · Geber Anna · Vorhand Bernhard",
        "6 × 10 = 60",
    )
    # G16 (Anna): Karo ohne 1 → (1 + 1) × 9 = 18, entered as won, corrected to lost → −36
    await play(
        chat, "/spiel Bernhard karo ohne 1 gewonnen", "Spiel 16/36 · Geber Bernhard · Vorhand Carla"
    )
    # Correction of the last game: same dealer (Anna), so the next dealer stays Bernhard.
    await play(
        chat,
        "/korrigieren 15 bern karo ohne 1 verloren",
        "Spiel 16/36 · Geber Bernhard · Vorhand Carla",
        "Spiel 15 korrigiert",
        "Bernhard −2 × 18 = −36",
    )

    data = await export(chat)
    assert data["format"] == "skatbot-liste/1"
    assert data["rules"] == "isko"
    assert data["players"] == ["Anna", "Bernhard", "Carla"]

    rows = [row_summary(g) for g in data["games"]]
    assert rows == [
        (1, "valid", "Anna", "Anna", {"Anna": 36}),
        (2, "valid", "Bernhard", "Bernhard", {"Bernhard": -40}),
        (3, "valid", "Carla", "Carla", {"Carla": 72}),
        (4, "valid", "Anna", "Anna", {"Anna": 23}),
        (5, "valid", "Bernhard", "Bernhard", {"Bernhard": -72}),
        (6, "valid", "Carla", None, {}),
        (7, "valid", "Anna", "Carla", {"Carla": 55}),
        (None, "struck", "Bernhard", "Anna", {"Anna": -144}),
        (8, "valid", "Bernhard", "Anna", {"Anna": 72}),  # directly after, same dealer
        (9, "valid", "Carla", None, {}),
        (10, "valid", "Anna", "Bernhard", {"Bernhard": -92}),
        (None, "cancelled", "Bernhard", "Carla", {"Carla": 20}),
        (11, "valid", "Carla", "Anna", {"Anna": 60}),
        (12, "valid", "Anna", "Bernhard", {"Bernhard": 22}),
        (13, "valid", "Bernhard", "Carla", {"Carla": -144}),
        (14, "valid", "Carla", "Anna", {"Anna": 60}),
        (None, "struck", "Anna", "Bernhard", {"Bernhard": 18}),
        (15, "valid", "Anna", "Bernhard", {"Bernhard": -36}),
    ]
    overbid = data["games"][4]
    assert (overbid["value"], overbid["won"], overbid["overbid"], overbid["bid"]) == (
        36,
        False,
        True,
        30,
    )
    passed = data["games"][5]
    assert passed["value"] == 0 and passed["declarer"] is None and passed["points"] == {}
    assert data["games"][6]["announcement"] == "Pik mit 3 Schneider"

    # Valid bookings:
    #   Anna     +36 (G1) +23 (G4) +72 (G8 corrected) +60 (G12) +60 (G15) = 251, 5 won, 0 lost
    #   Bernhard −40 (G2) −72 (G5) −92 (G10) +22 (G13) −36 (G16 corrected) = −218, 1 won, 4 lost
    #   Carla    +72 (G3) +55 (G7) −144 (G14) = −17, 2 won, 1 lost  (G11 +20 cancelled)
    # Lost games in all: 0 + 4 + 1 = 5 → the others lost: Anna 5, Bernhard 1, Carla 4
    #   Anna      251 + 50 × (5 − 0) + 40 × 5 =  251 + 250 + 200 =  701
    #   Bernhard −218 + 50 × (1 − 4) + 40 × 1 = −218 − 150 +  40 = −328
    #   Carla     −17 + 50 × (2 − 1) + 40 × 4 =  −17 +  50 + 160 =  193
    assert data["totals"] == {
        "Anna": totals(251, 5, 0, 5, 701),
        "Bernhard": totals(-218, 1, 4, 1, -328),
        "Carla": totals(-17, 2, 1, 4, 193),
    }

    stand = await chat.text("/stand")
    assert "251 + 50 × (5 − 0) + 40 × 5 = 701" in stand
    assert "−218 + 50 × (1 − 4) + 40 × 1 = −328" in stand
    assert "−17 + 50 × (2 − 1) + 40 × 4 = 193" in stand
    assert "15/36 Spiele" in stand
    assert "Spiel 16/36 · Geber Bernhard · Vorhand Carla" in stand


# --- 4-table ------------------------------------------------------------------------------------


async def test_evening_at_a_four_table(chat: Harness) -> None:
    await play(chat, "/neu Anna Bernd Carla Dora", "Spiel 1/48 · Geber Anna · Vorhand Bernd")

    # H1 (dealer Anna sits out): Kreuz mit 1 → (1 + 1) × 12 = 24 → Bernd +24
    await play(
        chat, "/spiel Bernd kreuz mit 1 gewonnen", "Spiel 2/48 · Geber Bernd · Vorhand Carla"
    )
    # H2 (Bernd deals): Bernd cannot declare; the refusal names him
    refusal = await chat.text("/spiel Bernd grand mit 1 gewonnen")
    assert "⚠️ Bernd gibt und setzt aus" in refusal
    # Grand ohne 1 lost: (1 + 1) × 24 = 48 → −96; all three others get 30, the dealer too
    await play(
        chat,
        "/spiel Carla grand ohne 1 verloren",
        "Spiel 3/48 · Geber Carla · Vorhand Dora",
        "Carla −2 × 48 = −96",
        "Anna, Bernd, Dora je +30",
    )
    # H3 (Carla): Null Hand → 35 → Dora +35
    await play(chat, "/spiel Dora null hand gewonnen", "Spiel 4/48 · Geber Dora · Vorhand Anna")
    # H4 (Dora): Herz mit 1 Hand lost: (1 + 1 + 1) × 10 = 30 → −60 (corrected below to won, +30)
    await play(
        chat, "/spiel Anna herz mit 1 hand verloren", "Spiel 5/48 · Geber Anna · Vorhand Bernd"
    )
    # H5 (Anna): passed
    await play(chat, "/eingepasst", "Spiel 6/48 · Geber Bernd · Vorhand Carla")
    # H6 (Bernd): Pik ohne 2, 61 card points → won: (2 + 1) × 11 = 33 → Anna +33
    await play(
        chat, "/spiel Anna pik ohne 2 augen 61 gewonnen", "Spiel 7/48 · Geber Carla · Vorhand Dora"
    )
    # Correction of game 4 keeps its dealer Dora: Dora as declarer is refused, Anna is fine.
    refusal = await chat.text("/korrigieren 4 Dora herz mit 1 hand gewonnen")
    assert "⚠️ Dora gibt in Spiel 4 und setzt aus" in refusal
    await play(
        chat,
        "/korrigieren 4 Anna herz mit 1 hand gewonnen",
        "Spiel 7/48 · Geber Carla · Vorhand Dora",
        "Anna +30",
    )

    # Override: Dora deals next instead of Carla.
    await play(
        chat, "/geber Dora", "Spiel 7/48 · Geber Dora · Vorhand Anna", "Nächster Geber: Dora"
    )
    refusal = await chat.text("/spiel Dora grand mit 1 gewonnen")
    assert "⚠️ Dora gibt und setzt aus" in refusal
    # H7 (Dora): Karo mit 4 → (4 + 1) × 9 = 45 → Carla +45
    await play(chat, "/spiel Carla karo mit 4 gewonnen", "Spiel 8/48 · Geber Anna · Vorhand Bernd")
    # H8 (Anna): Grand mit 1, 25 card points → lost, declarer Schneider:
    # (1 + 1 + Schneider 1) × 24 = 72 → −144
    await play(
        chat, "/spiel Bernd grand mit 1 augen 25", "Spiel 9/48 · Geber Bernd · Vorhand Carla"
    )
    # H9 (Bernd): Kreuz mit 1, bid 48: played (1 + 1) × 12 = 24 < 48 → overbid, value 48 → −96
    await play(
        chat,
        "/spiel Dora kreuz mit 1 reiz 48 gewonnen",
        "Spiel 10/48 · Geber Carla · Vorhand Dora",
        "überreizt",
    )
    # H10 (Carla): Grand mit 3 → (3 + 1) × 24 = 96 → Anna +96
    await play(chat, "/spiel Anna grand mit 3 gewonnen", "Spiel 11/48 · Geber Dora · Vorhand Anna")
    # H11 (Dora): Herz ohne 4 → (4 + 1) × 10 = 50 → Bernd +50
    await play(
        chat, "/spiel Bernd herz ohne 4 gewonnen", "Spiel 12/48 · Geber Anna · Vorhand Bernd"
    )
    # H12 (Anna): Null ouvert Hand → 59 → Carla +59, then cancelled: Anna deals again
    await play(
        chat, "/spiel Carla null ouvert hand gewonnen", "Spiel 13/48 · Geber Bernd · Vorhand Carla"
    )
    await play(chat, "/storno 12", "Spiel 12/48 · Geber Anna · Vorhand Bernd", "Spiel 12 storniert")
    # H13 (Anna again): Null lost: 23 → −46
    await play(chat, "/spiel Carla null verloren", "Spiel 13/48 · Geber Bernd · Vorhand Carla")

    data = await export(chat)
    assert data["players"] == ["Anna", "Bernd", "Carla", "Dora"]
    rows = [row_summary(g) for g in data["games"]]
    assert rows == [
        (1, "valid", "Anna", "Bernd", {"Bernd": 24}),
        (2, "valid", "Bernd", "Carla", {"Carla": -96}),
        (3, "valid", "Carla", "Dora", {"Dora": 35}),
        (None, "struck", "Dora", "Anna", {"Anna": -60}),
        (4, "valid", "Dora", "Anna", {"Anna": 30}),
        (5, "valid", "Anna", None, {}),
        (6, "valid", "Bernd", "Anna", {"Anna": 33}),
        (7, "valid", "Dora", "Carla", {"Carla": 45}),  # /geber Dora
        (8, "valid", "Anna", "Bernd", {"Bernd": -144}),
        (9, "valid", "Bernd", "Dora", {"Dora": -96}),
        (10, "valid", "Carla", "Anna", {"Anna": 96}),
        (11, "valid", "Dora", "Bernd", {"Bernd": 50}),
        (None, "cancelled", "Anna", "Carla", {"Carla": 59}),
        (12, "valid", "Anna", "Carla", {"Carla": -46}),
    ]
    for g in data["games"]:
        assert g["dealer"] != g["declarer"]  # the dealer never declares at a 4-table
    assert data["games"][9]["overbid"] is True and data["games"][9]["value"] == 48

    # Valid bookings:
    #   Anna   +30 (H4 corrected) +33 (H6) +96 (H10) = 159, 3 won, 0 lost
    #   Bernd  +24 (H1) −144 (H8) +50 (H11) = −70, 2 won, 1 lost
    #   Carla  −96 (H2) +45 (H7) −46 (H13) = −97, 1 won, 2 lost  (H12 +59 cancelled)
    #   Dora   +35 (H3) −96 (H9) = −61, 1 won, 1 lost
    # Lost in all: 0 + 1 + 2 + 1 = 4 → the others lost: Anna 4, Bernd 3, Carla 2, Dora 3
    #   Anna   159 + 50 × (3 − 0) + 30 × 4 =  159 + 150 + 120 = 429
    #   Bernd  −70 + 50 × (2 − 1) + 30 × 3 =  −70 +  50 +  90 =  70
    #   Carla  −97 + 50 × (1 − 2) + 30 × 2 =  −97 −  50 +  60 = −87
    #   Dora   −61 + 50 × (1 − 1) + 30 × 3 =  −61 +   0 +  90 =  29
    assert data["totals"] == {
        "Anna": totals(159, 3, 0, 4, 429),
        "Bernd": totals(-70, 2, 1, 3, 70),
        "Carla": totals(-97, 1, 2, 2, -87),
        "Dora": totals(-61, 1, 1, 3, 29),
    }
    stand = await chat.text("/stand")
    assert "159 + 50 × (3 − 0) + 30 × 4 = 429" in stand
    assert "−97 + 50 × (1 − 2) + 30 × 2 = −87" in stand


async def test_cancelling_the_last_game_gives_its_dealer_back(chat: Harness) -> None:
    await play(chat, "/neu Anna Bernd Carla geber Carla", "Spiel 1/36 · Geber Carla · Vorhand Anna")
    await play(chat, "/spiel Anna grand mit 1 g", "Spiel 2/36 · Geber Anna · Vorhand Bernd")
    await play(chat, "/spiel Bernd grand mit 1 g", "Spiel 3/36 · Geber Bernd · Vorhand Carla")
    await play(chat, "/storno 2", "Spiel 2/36 · Geber Anna · Vorhand Bernd")
    await play(chat, "/storno 1", "Spiel 1/36 · Geber Carla · Vorhand Anna")
    await play(chat, "/eingepasst", "Spiel 2/36 · Geber Anna · Vorhand Bernd")
    data = await export(chat)
    assert [(g["nr"], g["status"], g["dealer"]) for g in data["games"]] == [
        (None, "cancelled", "Carla"),
        (None, "cancelled", "Anna"),
        (1, "valid", "Carla"),
    ]


async def test_dealer_sequence_follows_seat_order_at_a_four_table(chat: Harness) -> None:
    await play(
        chat, "/neu Anna Bernd Carla Dora geber Carla", "Spiel 1/48 · Geber Carla · Vorhand Dora"
    )
    seats = ["Anna", "Bernd", "Carla", "Dora"]
    for n in range(1, 10):
        dealer = seats[(n + 1) % 4]  # game n is dealt by seat (2 + n − 1) mod 4
        declarer = seats[(n + 2) % 4]  # Vorhand declares
        nxt, vorhand = seats[(n + 2) % 4], seats[(n + 3) % 4]
        await play(
            chat, f"/spiel {declarer} null g", f"Spiel {n + 1}/48 · Geber {nxt} · Vorhand {vorhand}"
        )
        assert dealer != declarer
    data = await export(chat)
    assert [g["dealer"] for g in data["games"]] == [seats[(n + 1) % 4] for n in range(1, 10)]
    # 9 × Null won = 9 × 23 = 207 points in all, no lost games
    assert sum(t["game_points"] for t in data["totals"].values()) == 207


async def test_a_correction_keeps_the_dealer_override(chat: Harness) -> None:
    # regression: fixed in fbf6cc8 ("/geber after corrections")
    await play(chat, "/neu Anna Bernd Carla", "Spiel 1/36 · Geber Anna · Vorhand Bernd")
    await play(chat, "/spiel Anna grand mit 1 g", "Spiel 2/36 · Geber Bernd · Vorhand Carla")
    await play(chat, "/geber Carla", "Spiel 2/36 · Geber Carla · Vorhand Anna")
    # docs/rules.md §2: corrections never shift later rows; /geber sets the next dealer
    await play(chat, "/korrigieren 1 Anna grand mit 2 g", "Spiel 2/36 · Geber Carla · Vorhand Anna")


async def test_cancelling_a_game_dealt_after_an_override_gives_its_dealer_back(
    chat: Harness,
) -> None:
    await play(chat, "/neu Anna Bernd Carla", "Spiel 1/36 · Geber Anna · Vorhand Bernd")
    await play(chat, "/spiel Anna grand mit 1 g", "Spiel 2/36 · Geber Bernd · Vorhand Carla")
    await play(chat, "/geber Anna", "Spiel 2/36 · Geber Anna · Vorhand Bernd")
    await play(chat, "/spiel Bernd grand mit 1 g", "Spiel 3/36 · Geber Bernd · Vorhand Carla")
    data = await export(chat)
    assert [g["dealer"] for g in data["games"]] == ["Anna", "Anna"]
    # docs/rules.md §2: cancelling the last game gives its dealer (Anna) back
    await play(chat, "/storno 2", "Spiel 2/36 · Geber Anna · Vorhand Bernd")


async def test_cancelling_the_first_game_after_an_override_at_a_four_table(chat: Harness) -> None:
    await play(chat, "/neu Anna Bernd Carla Dora", "Spiel 1/48 · Geber Anna · Vorhand Bernd")
    await play(chat, "/geber Bernd", "Spiel 1/48 · Geber Bernd · Vorhand Carla")
    await play(chat, "/spiel Anna null g", "Spiel 2/48 · Geber Carla · Vorhand Dora")
    await play(chat, "/storno 1", "Spiel 1/48 · Geber Bernd · Vorhand Carla")
