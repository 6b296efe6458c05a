"""House rules through the chat (docs/rules.md §6, seed 002 "3B3R"): scenarios through the use cases.

Every expected number is computed by hand in the comments. Values: Kreuz mit 1 = 2 × 12 = 24,
Kreuz mit 1 Hand = 3 × 12 = 36, Grand mit 1 Hand = 3 × 24 = 72, Herz mit 9 = 10 × 10 = 100,
Herz mit 10 = 11 × 10 = 110. Lost with skat pickup ×2, Kontra ×2, Re ×2, Bock ×2.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.harness import Harness, Message
from tests.helpers import export_json, ok, refused

TRIGGER = "/spiel Anna kreuz mit 1 kontra re gewonnen"  # Re played → 3B3R; +24 × 4 = +96


async def export(chat: Harness) -> dict[str, Any]:
    return await export_json(chat)


async def house_list(chat: Harness, rules: str = "/regeln haus") -> None:
    await ok(chat, rules)
    await ok(chat, "/neu Anna Bernd Carla", "🎲 kein Bock, kein Ramsch")


async def to_ramsch(chat: Harness) -> None:
    """A fresh house list in Ramsch 1/3: /bock, then three passed Bock games."""
    await house_list(chat)
    await ok(chat, "/bock", "🎲 Bock 1/3 · danach Ramsch")
    await ok(chat, "/eingepasst", "🎲 Bock 2/3")
    await ok(chat, "/eingepasst", "🎲 Bock 3/3")
    await ok(chat, "/eingepasst", "🎲 Ramsch 1/3", "Alle gesund?")


# --- triggers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "reason"),
    [
        # Kreuz mit 1 lost at 60 → −48
        ("/spiel Anna kreuz mit 1 augen 60", "60:60 verloren"),
        # Kontra without Re, lost: −24 × 2 × 2 = −96
        ("/spiel Anna kreuz mit 1 kontra verloren", "Kontra ohne Re verloren"),
        # Re played, won: +96; lost: −192
        ("/spiel Anna kreuz mit 1 kontra re gewonnen", "Re gespielt"),
        ("/spiel Anna kreuz mit 1 kontra re verloren", "Re gespielt"),
        # Herz mit 10 won: +110 > 100
        ("/spiel Anna herz mit 10 gewonnen", "über 100 Punkte"),
    ],
)
async def test_each_trigger_starts_bock(chat: Harness, game: str, reason: str) -> None:
    await house_list(chat)
    await ok(chat, game, f"3B3R ausgelöst: {reason}", "🎲 Bock 1/3 · danach Ramsch")
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "🎲 Bock 2/3")


@pytest.mark.parametrize(
    "game",
    [
        "/spiel Anna herz mit 9 gewonnen",  # +100: not above 100
        "/spiel Anna kreuz mit 1 kontra gewonnen",  # Kontra won: +48
        "/spiel Anna kreuz mit 1 augen 59",  # lost, but not 60:60
        "/spiel Anna kreuz mit 1 verloren",  # −48
    ],
)
async def test_no_trigger(chat: Harness, game: str) -> None:
    await house_list(chat)
    reply = await ok(chat, game, "🎲 kein Bock, kein Ramsch")
    assert "ausgelöst" not in reply


async def test_bock_by_hand(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, "/bock", "von Hand", "🎲 Bock 1/3 · danach Ramsch")
    # Kreuz mit 1 in Bock: 24 × 2 = 48
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "Bock ×2", "🎲 Bock 2/3")


async def test_thresholds_100_and_200(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, "/spiel Anna herz mit 9 gewonnen", "Anna +100", "🎲 kein Bock, kein Ramsch")
    await ok(chat, "/spiel Bernd herz mit 10 gewonnen", "Bernd +110", "über 100 Punkte",
             "🎲 Bock 1/3")  # fmt: skip
    # in Bock: Herz mit 9 → 100 × 2 = 200, not above 200
    reply = await ok(chat, "/spiel Carla herz mit 9 gewonnen", "Carla +200", "🎲 Bock 2/3")
    assert "ausgelöst" not in reply and "ausstehend" not in reply
    # in Bock: Kreuz mit 5 → 6 × 12 = 72 × 2 = 144 (above 100, but Bock is active)
    reply = await ok(chat, "/spiel Anna kreuz mit 5 gewonnen", "Anna +144", "🎲 Bock 3/3")
    assert "ausgelöst" not in reply and "ausstehend" not in reply
    # in Bock: Herz mit 10 → 110 × 2 = 220 > 200 → queued
    await ok(chat, "/spiel Bernd herz mit 10 gewonnen", "Bernd +220", "über 200 Punkte",
             "🎲 Ramsch 1/3 · 1 ausstehend")  # fmt: skip
    # Anna 100 + 144 = 244; Bernd 110 + 220 = 330; Carla 200
    data = await export(chat)
    assert {n: t["score"] for n, t in data["totals"].items()} == {
        "Anna": 244, "Bernd": 330, "Carla": 200,
    }  # fmt: skip


async def test_queue_in_bock_and_in_ramsch(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, TRIGGER, "🎲 Bock 1/3 · danach Ramsch")
    # a trigger during Bock is queued
    await ok(chat, "/spiel Bernd kreuz mit 1 kontra verloren", "Kontra ohne Re verloren",
             "🎲 Bock 2/3 · danach Ramsch · 1 ausstehend")  # fmt: skip
    await ok(chat, "/eingepasst", "🎲 Bock 3/3 · danach Ramsch · 1 ausstehend")
    await ok(chat, "/eingepasst", "🎲 Ramsch 1/3 · 1 ausstehend")
    # a trigger during Ramsch is queued too
    await ok(chat, "/bock", "🎲 Ramsch 1/3 · 2 ausstehend")
    await ok(chat, "/ramsch Anna 55", "Anna −55", "🎲 Ramsch 2/3 · 2 ausstehend")
    await ok(chat, "/ramsch Bernd 55", "🎲 Ramsch 3/3 · 2 ausstehend")
    # the current sequence ended: the next starts with the next game
    await ok(chat, "/ramsch Carla 55", "🎲 Bock 1/3 · danach Ramsch · 1 ausstehend")
    # Bock again: Kreuz mit 1 → 48
    await ok(chat, "/spiel Carla kreuz mit 1 gewonnen", "Carla +48", "Bock ×2")


async def test_kontra_re_with_bock_on_top(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, "/bock", "🎲 Bock 1/3")
    # Kreuz mit 1 lost with pickup, Kontra, Re, Bock: −24 × 2 × 2 × 2 × 2 = −384; Re → queued
    await ok(chat, "/spiel Carla kreuz mit 1 kontra re verloren", "Carla −384", "Kontra ×2",
             "Re ×2", "Bock ×2", "🎲 Bock 2/3 · danach Ramsch · 1 ausstehend")  # fmt: skip
    # Kreuz mit 1 Hand, Kontra, Bock, lost: −36 × 2 × 2 = −144 (no pickup doubling), a trigger
    await ok(chat, "/spiel Anna kreuz mit 1 hand kontra verloren", "Anna −144",
             "🎲 Bock 3/3 · danach Ramsch · 2 ausstehend")  # fmt: skip


async def test_lost_hand_single_lost_with_pickup_doubled(chat: Harness) -> None:
    await house_list(chat)
    # Kreuz mit 1 Hand lost: −36 (hand: single)
    await ok(chat, "/spiel Anna kreuz mit 1 hand verloren", "Anna −36", "verloren Hand: einfach")
    # Kreuz mit 1 lost with pickup: −24 × 2 = −48
    await ok(chat, "/spiel Bernd kreuz mit 1 verloren", "Bernd −48", "verloren mit Skat: ×2")
    data = await export(chat)
    assert [g["points"] for g in data["games"]] == [{"Anna": -36}, {"Bernd": -48}]
    # no Seeger-Fabian: score = bookings
    assert {n: t["score"] for n, t in data["totals"].items()} == {
        "Anna": -36, "Bernd": -48, "Carla": 0,
    }  # fmt: skip


# --- Ramsch and the sick joker ------------------------------------------------------------------


async def test_sick_joker(chat: Harness) -> None:
    await to_ramsch(chat)
    await refused(chat, "/krank Dora")
    await ok(chat, "/krank Anna", "Grand Hand", "🎲 Ramsch 1/3")
    # only the sick player plays, and only Grand Hand without levels or Kontra/Re
    await refused(chat, "/spiel Bernd grand mit 1 hand gewonnen", "Anna")
    await refused(chat, "/spiel Anna herz mit 1 hand gewonnen", "Grand Hand")
    await refused(chat, "/spiel Anna grand mit 1 gewonnen", "Grand Hand")
    await refused(chat, "/spiel Anna grand mit 1 hand schneider gewonnen", "Schneider")
    await refused(chat, "/spiel Anna grand mit 1 hand kontra gewonnen", "Kontra")
    await refused(chat, "/ramsch Bernd 55", "krank")
    await refused(chat, "/krank Bernd", "schon krank")
    # Grand mit 1 Hand won: 3 × 24 = 72; the Ramsch counter holds
    reply = await ok(chat, "/spiel Anna grand mit 1 hand gewonnen", "Anna +72",
                     "zählt nicht als Ramsch", "🎲 Ramsch 1/3")  # fmt: skip
    assert "Bock" not in reply.split("🎲")[0]
    # the joker once per player and Ramsch phase
    await refused(chat, "/krank Anna", "schon krank")
    # another player may still be sick; a lost Grand Hand books single: −72
    await ok(chat, "/krank Bernd", "🎲 Ramsch 1/3")
    await ok(chat, "/spiel Bernd grand mit 1 hand verloren", "Bernd −72", "🎲 Ramsch 1/3")
    await ok(chat, "/ramsch Carla 70", "Carla −70", "🎲 Ramsch 2/3")
    await refused(chat, "/krank Anna", "schon krank")
    await ok(chat, "/krank Carla", "🎲 Ramsch 2/3")
    await ok(chat, "/gesund", "🎲 Ramsch 2/3")  # withdrawn: Ramsch is played
    await ok(chat, "/ramsch Anna 70", "Anna −70", "🎲 Ramsch 3/3")
    await ok(chat, "/ramsch Anna 70", "🎲 kein Bock, kein Ramsch")
    data = await export(chat)
    sick_rows = [g for g in data["games"] if g["declarer"] is not None]
    assert [g["points"] for g in sick_rows] == [{"Anna": 72}, {"Bernd": -72}]
    assert all(g["bock"] is False for g in sick_rows)


async def test_sick_joker_resets_in_the_next_ramsch_phase(chat: Harness) -> None:
    await to_ramsch(chat)
    await ok(chat, "/krank Anna")
    await ok(chat, "/spiel Anna grand mit 1 hand gewonnen", "🎲 Ramsch 1/3")
    await ok(chat, "/bock", "1 ausstehend")
    for _ in range(3):
        await ok(chat, "/ramsch Bernd 60")
    for _ in range(3):
        await ok(chat, "/eingepasst")
    await ok(chat, "/krank Anna", "🎲 Ramsch 1/3")


async def test_sick_game_counts_no_schneider_from_card_points(chat: Harness) -> None:
    await to_ramsch(chat)
    await ok(chat, "/krank Anna")
    out = await chat.say("/spiel Anna grand mit 1 hand augen 95")
    reply = "\n".join(r.text for r in out)
    assert any(r.refusal for r in out) or "Anna +72" in reply, reply


async def test_correcting_the_sick_game_keeps_grand_hand(chat: Harness) -> None:
    await to_ramsch(chat)
    await ok(chat, "/krank Anna")
    await ok(chat, "/spiel Anna grand mit 1 hand gewonnen", "Spiel 4/36")
    await refused(chat, "/korrigieren 4 Anna herz mit 1 hand gewonnen", "Grand Hand")


async def test_ramsch_refuses_normal_play(chat: Harness) -> None:
    await to_ramsch(chat)
    for who in ("Anna", "Bernd", "Carla"):
        await refused(chat, f"/spiel {who} grand mit 1 hand gewonnen", "Ramsch", "/ramsch")
    await refused(chat, "/eingepasst", "Ramsch", "/ramsch")
    await refused(chat, "/spiel passe", "Ramsch")
    # outside Ramsch: /ramsch, /krank and /gesund are refused with the state
    await ok(chat, "/ramsch Anna 55")
    await ok(chat, "/ramsch Anna 55")
    await ok(chat, "/ramsch Anna 55", "🎲 kein Bock, kein Ramsch")
    await refused(chat, "/ramsch Anna 55", "keine Ramsch")
    await refused(chat, "/krank Anna", "Ramsch")
    await refused(chat, "/gesund", "keine Ramsch")


async def test_ramsch_bookings_in_chat_and_export(chat: Harness) -> None:
    await to_ramsch(chat)
    # tie: Bernd and Carla 50 each, one push → −100 each
    await ok(chat, "/ramsch Bernd Carla 50 geschoben 1", "Bernd −100", "Carla −100",
             "50 × 2 = 100", "🎲 Ramsch 2/3")  # fmt: skip
    # one loser with a Jungfrau: −70 × 2 = −140
    await ok(chat, "/ramsch Anna 70 jungfrau 1", "Anna −140", "🎲 Ramsch 3/3")
    # Durchmarsch with one push: +120 × 2 = +240; the Jungfrau is not applied; 240 > 200 → 3B3R
    reply = await ok(chat, "/ramsch durchmarsch Carla geschoben 1 jungfrau 2", "Carla +240",
                     "120 × 2 = 240", "über 200 Punkte")  # fmt: skip
    assert "🎲 Bock 1/3 · danach Ramsch" in reply
    data = await export(chat)
    assert data["rules"] == "haus"
    ramsch = [g for g in data["games"] if g["kind"] == "ramsch"]
    assert [g["points"] for g in ramsch] == [
        {"Bernd": -100, "Carla": -100}, {"Anna": -140}, {"Carla": 240},
    ]  # fmt: skip
    assert all(g["declarer"] is None and g["status"] == "valid" for g in ramsch)
    assert [g["nr"] for g in ramsch] == [4, 5, 6]
    # Anna −140; Bernd −100; Carla −100 + 240 = 140
    assert {n: (t["game_points"], t["score"]) for n, t in data["totals"].items()} == {
        "Anna": (-140, -140), "Bernd": (-100, -100), "Carla": (140, 140),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("message", "why"),
    [
        ("/ramsch Anna 40", "Augen"),  # one loser has more than 40
        ("/ramsch Anna 121", "Augen"),
        ("/ramsch Anna Bernd 61", "Augen"),  # a tie: at most 60 each
        ("/ramsch Anna Anna 50", "Verlierer"),
        ("/ramsch Anna Bernd Carla 45", "40:40:40"),  # three losers only at 40:40:40
        ("/ramsch Anna 55 geschoben 4", "Geschoben"),
        ("/ramsch Anna Bernd 50 jungfrau 2", "Jungfrau"),
        ("/ramsch Anna", "Augen"),
        ("/ramsch durchmarsch", "Durchmarsch"),
        ("/ramsch Dora 55", ""),
    ],
)
async def test_ramsch_refusals(chat: Harness, message: str, why: str) -> None:
    await to_ramsch(chat)
    await refused(chat, message, why)
    await ok(chat, "/stand", "🎲 Ramsch 1/3")  # nothing booked
    data = await export(chat)
    assert all(g["kind"] != "ramsch" for g in data["games"])


# --- start points, corrections ------------------------------------------------------------------


async def test_start_points_in_the_totals(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, "/startpunkte Anna 100 Bernd -20", "Anna 100", "Bernd −20", "Carla 0")
    await ok(chat, TRIGGER, "Anna +96")  # 24 × 2 × 2
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48")  # Bock: 24 × 2
    await refused(chat, "/startpunkte Anna 5", "vor dem ersten Spiel")
    stand = await ok(chat, "/stand", "Start 100 + 96 = 196", "Start −20 + 48 = 28", "🎲 Bock 2/3")
    assert "Seeger" not in stand
    data = await export(chat)
    assert data["totals"] == {
        "Anna": {"start_points": 100, "game_points": 96, "won": 1, "lost": 0, "score": 196},
        "Bernd": {"start_points": -20, "game_points": 48, "won": 1, "lost": 0, "score": 28},
        "Carla": {"start_points": 0, "game_points": 0, "won": 0, "lost": 0, "score": 0},
    }


async def test_cancelling_the_trigger_removes_the_bock_phase(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, TRIGGER, "Anna +96", "🎲 Bock 1/3")
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "🎲 Bock 2/3")
    await ok(chat, "/spiel Carla kreuz mit 1 verloren", "Carla −96", "🎲 Bock 3/3")  # −24×2×2
    await ok(chat, "/storno 1 ja", "🎲 kein Bock, kein Ramsch")
    data = await export(chat)
    valid = [g for g in data["games"] if g["status"] == "valid"]
    # without Bock: Bernd +24, Carla −48
    assert [(g["nr"], g["points"], g["bock"]) for g in valid] == [
        (1, {"Bernd": 24}, False), (2, {"Carla": -48}, False),
    ]  # fmt: skip
    assert {n: t["score"] for n, t in data["totals"].items()} == {
        "Anna": 0, "Bernd": 24, "Carla": -48,
    }  # fmt: skip
    # /spiel is allowed again where Ramsch would have been
    await ok(chat, "/spiel Anna kreuz mit 1 gewonnen", "Anna +24", "🎲 kein Bock, kein Ramsch")


async def test_correcting_the_trigger_away_and_back(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, TRIGGER, "🎲 Bock 1/3")
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48")
    # correct game 1 to a plain won game: no trigger, game 2 is no Bock game any more
    await ok(chat, "/korrigieren 1 Anna kreuz mit 1 gewonnen", "Anna +24",
             "🎲 kein Bock, kein Ramsch")  # fmt: skip
    data = await export(chat)
    assert [g["points"] for g in data["games"] if g["status"] == "valid"] == [
        {"Anna": 24}, {"Bernd": 24},
    ]  # fmt: skip
    # correct game 2 into a lost Kontra: a trigger → Bock from game 3 on
    await ok(chat, "/korrigieren 2 Bernd kreuz mit 1 kontra verloren", "Bernd −96",
             "Kontra ohne Re verloren", "🎲 Bock 1/3")  # fmt: skip
    await ok(chat, "/spiel Carla kreuz mit 1 gewonnen", "Carla +48", "🎲 Bock 2/3")
    data = await export(chat)
    assert [g["status"] for g in data["games"]] == ["struck", "valid", "struck", "valid", "valid"]


async def test_cancelling_a_bock_game_shifts_the_phase(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, TRIGGER)
    for _ in range(3):
        await ok(chat, "/eingepasst")
    await ok(chat, "/stand", "🎲 Ramsch 1/3")
    # cancelling one passed Bock game: one Bock game is left
    await ok(chat, "/storno 2 ja", "🎲 Bock 3/3")
    await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "🎲 Ramsch 1/3")


async def test_krank_is_void_when_its_ramsch_phase_is_cancelled(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, TRIGGER)
    for _ in range(3):
        await ok(chat, "/eingepasst")
    await ok(chat, "/krank Bernd", "🎲 Ramsch 1/3")
    await ok(chat, "/storno 1 ja", "🎲 kein Bock, kein Ramsch")
    await ok(chat, "/bock", "🎲 Bock 1/3")
    for _ in range(3):
        await ok(chat, "/spiel Anna kreuz mit 1 gewonnen")
    reply = await ok(chat, "/stand", "🎲 Ramsch 1/3")
    assert "Alle gesund?" in reply and "krank" not in reply.replace("/krank", ""), reply


# --- the state line, the rules switch -----------------------------------------------------------


async def test_every_reply_shows_the_state_line(chat: Harness) -> None:
    await ok(chat, "/regeln haus")
    messages = [
        "/neu Anna Bernd Carla",
        "/spiel Anna kreuz mit 1 gewonnen",
        "/eingepasst",
        "/korrigieren 1 Anna kreuz mit 2 gewonnen",
        "/storno 2",
        "/geber Carla",
        "/serie 40",
        "/stand",
        "/liste",
        "/bock",
        "/spiel Carla herz mit 1 gewonnen",
        "/spiel Anna herz mit 1 gewonnen",
        "/spiel Bernd herz mit 1 gewonnen",
        "/krank Anna",
        "/gesund",
        "/ramsch Anna 55 geschoben 1",
        "/krank Bernd",
        "/spiel Bernd grand mit 1 hand gewonnen",
    ]
    for message in messages:
        reply = await ok(chat, message)
        assert "🎲 " in reply, (message, reply)


async def test_gesund_reply_shows_the_state_line(chat: Harness) -> None:
    await to_ramsch(chat)
    await ok(chat, "/gesund", "🎲 Ramsch 1/3")


async def test_alle_gesund_has_buttons(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, "/bock")
    await ok(chat, "/eingepasst")
    await ok(chat, "/eingepasst")
    before = set(chat.messages)
    await ok(chat, "/eingepasst", "Alle gesund?")
    # the buttons of the messages this reply sent
    labels = [
        label
        for key, msg in chat.messages.items()
        if key not in before
        for row in msg.buttons
        for label, _ in row
    ]
    assert any("gesund" in label.casefold() for label in labels), labels
    assert any("krank" in label.casefold() for label in labels), labels


def _button(chat: Harness, label: str) -> tuple[Message, str]:
    """The newest bot message with a button ``label``, and that button's callback data."""
    for msg in sorted(chat.messages.values(), key=lambda m: m.message_id, reverse=True):
        for row in msg.buttons:
            for text, data in row:
                if text == label:
                    return msg, data
    raise AssertionError(f"no button {label!r}")


async def tap(chat: Harness, label: str, user_id: int = 1) -> str:
    """Tap the newest button ``label``: the callback's notice and the messages it sent."""
    msg, data = _button(chat, label)
    tapped = await chat.tap(msg, data, user_id=user_id)
    texts = [tapped.notice, *(r.text for r in tapped.replies if r.method == "sendMessage")]
    return "\n".join(texts)


async def test_krank_and_gesund_by_button(chat: Harness) -> None:
    await house_list(chat)
    await ok(chat, "/bock")
    for _ in range(3):
        await ok(chat, "/eingepasst")
    answer = await tap(chat, "Bernd krank")
    assert "Bernd ist krank" in answer
    # The same question again is stale now: the list changed (a sick report was added).
    stale = await tap(chat, "Alle gesund")
    assert "veraltet" in stale
    booked = await chat.text("/spiel Bernd grand mit 1 hand gewonnen")
    assert "Ramsch 1/3" in booked  # the sick game did not advance the Ramsch counter
    answer = await tap(chat, "Alle gesund")
    assert "Alle gesund" in answer and "ramsch" in answer.casefold()


async def test_regeln_haus_after_the_first_game_applies_to_the_next_list(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", "Seeger-Fabian")
    await ok(chat, "/regeln haus", "nächsten Liste")
    reply = await refused(chat, "/spiel Bernd kreuz mit 1 kontra gewonnen", "/regeln haus")
    assert "🎲" not in reply
    await refused(chat, "/bock", "/regeln haus")
    reply = await ok(chat, "/spiel Bernd kreuz mit 1 gewonnen", "Seeger-Fabian")
    assert "🎲" not in reply
    data = await export(chat)
    assert data["rules"] == "isko"
    await ok(chat, "/abschluss ja")
    await ok(chat, "/neu Anna Bernd Carla", "Hausregeln", "🎲 kein Bock, kein Ramsch")
    await ok(chat, "/spiel Bernd kreuz mit 1 kontra gewonnen", "Bernd +48")
    data = await export(chat)
    assert data["rules"] == "haus"
    # and back: /regeln isko now only applies to the next list
    await ok(chat, "/regeln isko", "nächsten Liste")
    await ok(chat, "/spiel Carla kreuz mit 1 kontra re gewonnen", "Carla +96", "🎲 Bock 1/3")


async def test_regeln_haus_before_the_first_game_applies_at_once(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/regeln haus", "ab sofort")
    await ok(chat, "/spiel Anna kreuz mit 1 kontra gewonnen", "Anna +48", "🎲 kein Bock")


async def test_geberrunde(chat: Harness) -> None:
    await house_list(chat, "/regeln haus runde=geberrunde")
    await ok(chat, "/bock", "🎲 Bock: Geberrunde 1/3, Spiel 1/3 · danach Ramsch")
    for i in range(2, 10):
        label = f"Geberrunde {(i - 1) // 3 + 1}/3, Spiel {(i - 1) % 3 + 1}/3"
        await ok(chat, "/eingepasst", f"🎲 Bock: {label}")  # no "Bock 1/9"
    await ok(chat, "/eingepasst", "🎲 Ramsch: Geberrunde 1/3, Spiel 1/3")
    data = await export(chat)
    assert data["rules"] == "haus"
    await refused(chat, "/regeln haus runde=gestern")


@pytest.mark.parametrize(
    "message",
    [
        "/spiel Anna kreuz mit 1 kontra gewonnen",
        "/spiel Anna kreuz mit 1 kontra re gewonnen",
        "/ramsch Anna 55",
        "/ramsch durchmarsch Anna",
        "/bock",
        "/krank Anna",
        "/gesund",
        "/startpunkte Anna 100",
    ],
)
async def test_isko_refuses_house_commands(chat: Harness, message: str) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await refused(chat, message, "/regeln haus")
    data = await export(chat)
    assert data["games"] == [] and data["rules"] == "isko"
