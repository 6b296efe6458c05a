"""House rules through the chat (docs/rules.md §6, seed 002 "3B3R"): scenarios with the real bot.

Every expected number is computed by hand in the comments. Values: Kreuz mit 1 = 2 × 12 = 24,
Kreuz mit 1 Hand = 3 × 12 = 36, Grand mit 1 Hand = 3 × 24 = 72, Herz mit 9 = 10 × 10 = 100,
Herz mit 10 = 11 × 10 = 110. Lost with skat pickup ×2, Kontra ×2, Re ×2, Bock ×2.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers import Bot, ok, refused

TRIGGER = "/spiel Anna kreuz mit 1 kontra re gewonnen"  # Re played → 3B3R; +24 × 4 = +96


async def export(bot: Bot) -> dict[str, Any]:
    out = await bot.say("/export")
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1, out
    return json.loads(docs[0][1])  # type: ignore[no-any-return]


async def house_list(bot: Bot, rules: str = "/regeln haus") -> None:
    await ok(bot, rules)
    await ok(bot, "/neu Anna Bernd Carla", "🎲 kein Bock, kein Ramsch")


async def to_ramsch(bot: Bot) -> None:
    """A fresh house list in Ramsch 1/3: /bock, then three passed Bock games."""
    await house_list(bot)
    await ok(bot, "/bock", "🎲 Bock 1/3 · danach Ramsch")
    await ok(bot, "/eingepasst", "🎲 Bock 2/3")
    await ok(bot, "/eingepasst", "🎲 Bock 3/3")
    await ok(bot, "/eingepasst", "🎲 Ramsch 1/3", "Alle gesund?")


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
async def test_each_trigger_starts_bock(bot: Bot, game: str, reason: str) -> None:
    await house_list(bot)
    await ok(bot, game, f"3B3R ausgelöst: {reason}", "🎲 Bock 1/3 · danach Ramsch")
    await ok(bot, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "🎲 Bock 2/3")


@pytest.mark.parametrize(
    "game",
    [
        "/spiel Anna herz mit 9 gewonnen",  # +100: not above 100
        "/spiel Anna kreuz mit 1 kontra gewonnen",  # Kontra won: +48
        "/spiel Anna kreuz mit 1 augen 59",  # lost, but not 60:60
        "/spiel Anna kreuz mit 1 verloren",  # −48
    ],
)
async def test_no_trigger(bot: Bot, game: str) -> None:
    await house_list(bot)
    reply = await ok(bot, game, "🎲 kein Bock, kein Ramsch")
    assert "ausgelöst" not in reply


async def test_bock_by_hand(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, "/bock", "von Hand", "🎲 Bock 1/3 · danach Ramsch")
    # Kreuz mit 1 in Bock: 24 × 2 = 48
    await ok(bot, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "Bock ×2", "🎲 Bock 2/3")


async def test_thresholds_100_and_200(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, "/spiel Anna herz mit 9 gewonnen", "Anna +100", "🎲 kein Bock, kein Ramsch")
    await ok(bot, "/spiel Bernd herz mit 10 gewonnen", "Bernd +110", "über 100 Punkte",
             "🎲 Bock 1/3")  # fmt: skip
    # in Bock: Herz mit 9 → 100 × 2 = 200, not above 200
    reply = await ok(bot, "/spiel Carla herz mit 9 gewonnen", "Carla +200", "🎲 Bock 2/3")
    assert "ausgelöst" not in reply and "ausstehend" not in reply
    # in Bock: Kreuz mit 5 → 6 × 12 = 72 × 2 = 144 (above 100, but Bock is active)
    reply = await ok(bot, "/spiel Anna kreuz mit 5 gewonnen", "Anna +144", "🎲 Bock 3/3")
    assert "ausgelöst" not in reply and "ausstehend" not in reply
    # in Bock: Herz mit 10 → 110 × 2 = 220 > 200 → queued
    await ok(bot, "/spiel Bernd herz mit 10 gewonnen", "Bernd +220", "über 200 Punkte",
             "🎲 Ramsch 1/3 · 1 ausstehend")  # fmt: skip
    # Anna 100 + 144 = 244; Bernd 110 + 220 = 330; Carla 200
    data = await export(bot)
    assert {n: t["score"] for n, t in data["totals"].items()} == {
        "Anna": 244, "Bernd": 330, "Carla": 200,
    }  # fmt: skip


async def test_queue_in_bock_and_in_ramsch(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, TRIGGER, "🎲 Bock 1/3 · danach Ramsch")
    # a trigger during Bock is queued
    await ok(bot, "/spiel Bernd kreuz mit 1 kontra verloren", "Kontra ohne Re verloren",
             "🎲 Bock 2/3 · danach Ramsch · 1 ausstehend")  # fmt: skip
    await ok(bot, "/eingepasst", "🎲 Bock 3/3 · danach Ramsch · 1 ausstehend")
    await ok(bot, "/eingepasst", "🎲 Ramsch 1/3 · 1 ausstehend")
    # a trigger during Ramsch is queued too
    await ok(bot, "/bock", "🎲 Ramsch 1/3 · 2 ausstehend")
    await ok(bot, "/ramsch Anna 55", "Anna −55", "🎲 Ramsch 2/3 · 2 ausstehend")
    await ok(bot, "/ramsch Bernd 55", "🎲 Ramsch 3/3 · 2 ausstehend")
    # the current sequence ended: the next starts with the next game
    await ok(bot, "/ramsch Carla 55", "🎲 Bock 1/3 · danach Ramsch · 1 ausstehend")
    # Bock again: Kreuz mit 1 → 48
    await ok(bot, "/spiel Carla kreuz mit 1 gewonnen", "Carla +48", "Bock ×2")


async def test_kontra_re_with_bock_on_top(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, "/bock", "🎲 Bock 1/3")
    # Kreuz mit 1 lost with pickup, Kontra, Re, Bock: −24 × 2 × 2 × 2 × 2 = −384; Re → queued
    await ok(bot, "/spiel Carla kreuz mit 1 kontra re verloren", "Carla −384", "Kontra ×2",
             "Re ×2", "Bock ×2", "🎲 Bock 2/3 · danach Ramsch · 1 ausstehend")  # fmt: skip
    # Kreuz mit 1 Hand, Kontra, Bock, lost: −36 × 2 × 2 = −144 (no pickup doubling), a trigger
    await ok(bot, "/spiel Anna kreuz mit 1 hand kontra verloren", "Anna −144",
             "🎲 Bock 3/3 · danach Ramsch · 2 ausstehend")  # fmt: skip


async def test_lost_hand_single_lost_with_pickup_doubled(bot: Bot) -> None:
    await house_list(bot)
    # Kreuz mit 1 Hand lost: −36 (hand: single)
    await ok(bot, "/spiel Anna kreuz mit 1 hand verloren", "Anna −36", "verloren Hand: einfach")
    # Kreuz mit 1 lost with pickup: −24 × 2 = −48
    await ok(bot, "/spiel Bernd kreuz mit 1 verloren", "Bernd −48", "verloren mit Skat: ×2")
    data = await export(bot)
    assert [g["points"] for g in data["games"]] == [{"Anna": -36}, {"Bernd": -48}]
    # no Seeger-Fabian: score = bookings
    assert {n: t["score"] for n, t in data["totals"].items()} == {
        "Anna": -36, "Bernd": -48, "Carla": 0,
    }  # fmt: skip


# --- Ramsch and the sick joker ------------------------------------------------------------------


async def test_sick_joker(bot: Bot) -> None:
    await to_ramsch(bot)
    await refused(bot, "/krank Dora")
    await ok(bot, "/krank Anna", "Grand Hand", "🎲 Ramsch 1/3")
    # only the sick player plays, and only Grand Hand without levels or Kontra/Re
    await refused(bot, "/spiel Bernd grand mit 1 hand gewonnen", "Anna")
    await refused(bot, "/spiel Anna herz mit 1 hand gewonnen", "Grand Hand")
    await refused(bot, "/spiel Anna grand mit 1 gewonnen", "Grand Hand")
    await refused(bot, "/spiel Anna grand mit 1 hand schneider gewonnen", "Schneider")
    await refused(bot, "/spiel Anna grand mit 1 hand kontra gewonnen", "Kontra")
    await refused(bot, "/ramsch Bernd 55", "krank")
    await refused(bot, "/krank Bernd", "schon krank")
    # Grand mit 1 Hand won: 3 × 24 = 72; the Ramsch counter holds
    reply = await ok(bot, "/spiel Anna grand mit 1 hand gewonnen", "Anna +72",
                     "zählt nicht als Ramsch", "🎲 Ramsch 1/3")  # fmt: skip
    assert "Bock" not in reply.split("🎲")[0]
    # the joker once per player and Ramsch phase
    await refused(bot, "/krank Anna", "schon krank")
    # another player may still be sick; a lost Grand Hand books single: −72
    await ok(bot, "/krank Bernd", "🎲 Ramsch 1/3")
    await ok(bot, "/spiel Bernd grand mit 1 hand verloren", "Bernd −72", "🎲 Ramsch 1/3")
    await ok(bot, "/ramsch Carla 70", "Carla −70", "🎲 Ramsch 2/3")
    await refused(bot, "/krank Anna", "schon krank")
    await ok(bot, "/krank Carla", "🎲 Ramsch 2/3")
    await ok(bot, "/gesund", "🎲 Ramsch 2/3")  # withdrawn: Ramsch is played
    await ok(bot, "/ramsch Anna 70", "Anna −70", "🎲 Ramsch 3/3")
    await ok(bot, "/ramsch Anna 70", "🎲 kein Bock, kein Ramsch")
    data = await export(bot)
    sick_rows = [g for g in data["games"] if g["declarer"] is not None]
    assert [g["points"] for g in sick_rows] == [{"Anna": 72}, {"Bernd": -72}]
    assert all(g["bock"] is False for g in sick_rows)


async def test_sick_joker_resets_in_the_next_ramsch_phase(bot: Bot) -> None:
    await to_ramsch(bot)
    await ok(bot, "/krank Anna")
    await ok(bot, "/spiel Anna grand mit 1 hand gewonnen", "🎲 Ramsch 1/3")
    await ok(bot, "/bock", "1 ausstehend")
    for _ in range(3):
        await ok(bot, "/ramsch Bernd 60")
    for _ in range(3):
        await ok(bot, "/eingepasst")
    await ok(bot, "/krank Anna", "🎲 Ramsch 1/3")


async def test_sick_game_counts_no_schneider_from_card_points(bot: Bot) -> None:
    await to_ramsch(bot)
    await ok(bot, "/krank Anna")
    out = await bot.say("/spiel Anna grand mit 1 hand augen 95")
    reply = "\n".join(r.text for r in out)
    assert any(r.refusal for r in out) or "Anna +72" in reply, reply


async def test_correcting_the_sick_game_keeps_grand_hand(bot: Bot) -> None:
    await to_ramsch(bot)
    await ok(bot, "/krank Anna")
    await ok(bot, "/spiel Anna grand mit 1 hand gewonnen", "Spiel 4/36")
    await refused(bot, "/korrigieren 4 Anna herz mit 1 hand gewonnen", "Grand Hand")


async def test_ramsch_refuses_normal_play(bot: Bot) -> None:
    await to_ramsch(bot)
    for who in ("Anna", "Bernd", "Carla"):
        await refused(bot, f"/spiel {who} grand mit 1 hand gewonnen", "Ramsch", "/ramsch")
    await refused(bot, "/eingepasst", "Ramsch", "/ramsch")
    await refused(bot, "/spiel passe", "Ramsch")
    # outside Ramsch: /ramsch, /krank and /gesund are refused with the state
    await ok(bot, "/ramsch Anna 55")
    await ok(bot, "/ramsch Anna 55")
    await ok(bot, "/ramsch Anna 55", "🎲 kein Bock, kein Ramsch")
    await refused(bot, "/ramsch Anna 55", "keine Ramsch")
    await refused(bot, "/krank Anna", "Ramsch")
    await refused(bot, "/gesund", "keine Ramsch")


async def test_ramsch_bookings_in_chat_and_export(bot: Bot) -> None:
    await to_ramsch(bot)
    # tie: Bernd and Carla 50 each, one push → −100 each
    await ok(bot, "/ramsch Bernd Carla 50 geschoben 1", "Bernd −100", "Carla −100",
             "50 × 2 = 100", "🎲 Ramsch 2/3")  # fmt: skip
    # one loser with a Jungfrau: −70 × 2 = −140
    await ok(bot, "/ramsch Anna 70 jungfrau 1", "Anna −140", "🎲 Ramsch 3/3")
    # Durchmarsch with one push: +120 × 2 = +240; the Jungfrau is not applied; 240 > 200 → 3B3R
    reply = await ok(bot, "/ramsch durchmarsch Carla geschoben 1 jungfrau 2", "Carla +240",
                     "120 × 2 = 240", "über 200 Punkte")  # fmt: skip
    assert "🎲 Bock 1/3 · danach Ramsch" in reply
    data = await export(bot)
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
async def test_ramsch_refusals(bot: Bot, message: str, why: str) -> None:
    await to_ramsch(bot)
    await refused(bot, message, why)
    await ok(bot, "/stand", "🎲 Ramsch 1/3")  # nothing booked
    data = await export(bot)
    assert all(g["kind"] != "ramsch" for g in data["games"])


# --- start points, corrections ------------------------------------------------------------------


async def test_start_points_in_the_totals(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, "/startpunkte Anna 100 Bernd -20", "Anna 100", "Bernd −20", "Carla 0")
    await ok(bot, TRIGGER, "Anna +96")  # 24 × 2 × 2
    await ok(bot, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48")  # Bock: 24 × 2
    await refused(bot, "/startpunkte Anna 5", "vor dem ersten Spiel")
    stand = await ok(bot, "/stand", "Start 100 + 96 = 196", "Start −20 + 48 = 28", "🎲 Bock 2/3")
    assert "Seeger" not in stand
    data = await export(bot)
    assert data["totals"] == {
        "Anna": {"start_points": 100, "game_points": 96, "won": 1, "lost": 0, "score": 196},
        "Bernd": {"start_points": -20, "game_points": 48, "won": 1, "lost": 0, "score": 28},
        "Carla": {"start_points": 0, "game_points": 0, "won": 0, "lost": 0, "score": 0},
    }


async def test_cancelling_the_trigger_removes_the_bock_phase(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, TRIGGER, "Anna +96", "🎲 Bock 1/3")
    await ok(bot, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "🎲 Bock 2/3")
    await ok(bot, "/spiel Carla kreuz mit 1 verloren", "Carla −96", "🎲 Bock 3/3")  # −24×2×2
    await ok(bot, "/storno 1", "🎲 kein Bock, kein Ramsch")
    data = await export(bot)
    valid = [g for g in data["games"] if g["status"] == "valid"]
    # without Bock: Bernd +24, Carla −48
    assert [(g["nr"], g["points"], g["bock"]) for g in valid] == [
        (1, {"Bernd": 24}, False), (2, {"Carla": -48}, False),
    ]  # fmt: skip
    assert {n: t["score"] for n, t in data["totals"].items()} == {
        "Anna": 0, "Bernd": 24, "Carla": -48,
    }  # fmt: skip
    # /spiel is allowed again where Ramsch would have been
    await ok(bot, "/spiel Anna kreuz mit 1 gewonnen", "Anna +24", "🎲 kein Bock, kein Ramsch")


async def test_correcting_the_trigger_away_and_back(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, TRIGGER, "🎲 Bock 1/3")
    await ok(bot, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48")
    # correct game 1 to a plain won game: no trigger, game 2 is no Bock game any more
    await ok(bot, "/korrigieren 1 Anna kreuz mit 1 gewonnen", "Anna +24",
             "🎲 kein Bock, kein Ramsch")  # fmt: skip
    data = await export(bot)
    assert [g["points"] for g in data["games"] if g["status"] == "valid"] == [
        {"Anna": 24}, {"Bernd": 24},
    ]  # fmt: skip
    # correct game 2 into a lost Kontra: a trigger → Bock from game 3 on
    await ok(bot, "/korrigieren 2 Bernd kreuz mit 1 kontra verloren", "Bernd −96",
             "Kontra ohne Re verloren", "🎲 Bock 1/3")  # fmt: skip
    await ok(bot, "/spiel Carla kreuz mit 1 gewonnen", "Carla +48", "🎲 Bock 2/3")
    data = await export(bot)
    assert [g["status"] for g in data["games"]] == ["struck", "valid", "struck", "valid", "valid"]


async def test_cancelling_a_bock_game_shifts_the_phase(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, TRIGGER)
    for _ in range(3):
        await ok(bot, "/eingepasst")
    await ok(bot, "/stand", "🎲 Ramsch 1/3")
    # cancelling one passed Bock game: one Bock game is left
    await ok(bot, "/storno 2", "🎲 Bock 3/3")
    await ok(bot, "/spiel Bernd kreuz mit 1 gewonnen", "Bernd +48", "🎲 Ramsch 1/3")


async def test_krank_is_void_when_its_ramsch_phase_is_cancelled(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, TRIGGER)
    for _ in range(3):
        await ok(bot, "/eingepasst")
    await ok(bot, "/krank Bernd", "🎲 Ramsch 1/3")
    await ok(bot, "/storno 1", "🎲 kein Bock, kein Ramsch")
    await ok(bot, "/bock", "🎲 Bock 1/3")
    for _ in range(3):
        await ok(bot, "/spiel Anna kreuz mit 1 gewonnen")
    reply = await ok(bot, "/stand", "🎲 Ramsch 1/3")
    assert "Alle gesund?" in reply and "krank" not in reply.replace("/krank", ""), reply


# --- the state line, the rules switch -----------------------------------------------------------


async def test_every_reply_shows_the_state_line(bot: Bot) -> None:
    await ok(bot, "/regeln haus")
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
        reply = await ok(bot, message)
        assert "🎲 " in reply, (message, reply)


async def test_gesund_reply_shows_the_state_line(bot: Bot) -> None:
    await to_ramsch(bot)
    await ok(bot, "/gesund", "🎲 Ramsch 1/3")


async def test_alle_gesund_has_buttons(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, "/bock")
    await ok(bot, "/eingepasst")
    await ok(bot, "/eingepasst")
    before = len(bot.api.calls)
    await ok(bot, "/eingepasst", "Alle gesund?")
    labels = []
    for call in bot.api.calls[before:]:
        markup = call.params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []):
            labels.extend(str(b.get("text", "")) for b in row)
    assert any("gesund" in label.casefold() for label in labels), labels
    assert any("krank" in label.casefold() for label in labels), labels


def _button(bot: Bot, label: str) -> tuple[int, str]:
    """(message id, callback data) of the newest bot message with a button ``label``."""
    for msg in reversed(bot.api.messages()):
        for row in msg.buttons:
            for b in row:
                if b.get("text") == label:
                    return msg.message_id, str(b["callback_data"])
    raise AssertionError(f"no button {label!r}")


async def tap(bot: Bot, label: str, user_id: int = 1) -> str:
    message_id, data = _button(bot, label)
    before = len(bot.api.calls)
    uid = bot.api.push_callback(data, message_id=message_id, user_id=user_id)
    await bot.api.wait_confirmed(uid)
    texts = []
    for call in bot.api.calls[before:]:
        if call.method == "sendMessage" or call.method == "answerCallbackQuery":
            texts.append(str(call.params.get("text", "")))
    return "\n".join(texts)


async def test_krank_and_gesund_by_button(bot: Bot) -> None:
    await house_list(bot)
    await ok(bot, "/bock")
    for _ in range(3):
        await ok(bot, "/eingepasst")
    answer = await tap(bot, "Bernd krank")
    assert "Bernd ist krank" in answer
    # The same question again is stale now: the list changed (a sick report was added).
    stale = await tap(bot, "Alle gesund")
    assert "veraltet" in stale
    booked = await bot.text("/spiel Bernd grand mit 1 hand gewonnen")
    assert "Ramsch 1/3" in booked  # the sick game did not advance the Ramsch counter
    answer = await tap(bot, "Alle gesund")
    assert "Alle gesund" in answer and "ramsch" in answer.casefold()


async def test_regeln_haus_after_the_first_game_applies_to_the_next_list(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", "Seeger-Fabian")
    await ok(bot, "/regeln haus", "nächsten Liste")
    reply = await refused(bot, "/spiel Bernd kreuz mit 1 kontra gewonnen", "/regeln haus")
    assert "🎲" not in reply
    await refused(bot, "/bock", "/regeln haus")
    reply = await ok(bot, "/spiel Bernd kreuz mit 1 gewonnen", "Seeger-Fabian")
    assert "🎲" not in reply
    data = await export(bot)
    assert data["rules"] == "isko"
    await ok(bot, "/abschluss ja")
    await ok(bot, "/neu Anna Bernd Carla", "Hausregeln", "🎲 kein Bock, kein Ramsch")
    await ok(bot, "/spiel Bernd kreuz mit 1 kontra gewonnen", "Bernd +48")
    data = await export(bot)
    assert data["rules"] == "haus"
    # and back: /regeln isko now only applies to the next list
    await ok(bot, "/regeln isko", "nächsten Liste")
    await ok(bot, "/spiel Carla kreuz mit 1 kontra re gewonnen", "Carla +96", "🎲 Bock 1/3")


async def test_regeln_haus_before_the_first_game_applies_at_once(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/regeln haus", "ab sofort")
    await ok(bot, "/spiel Anna kreuz mit 1 kontra gewonnen", "Anna +48", "🎲 kein Bock")


async def test_geberrunde(bot: Bot) -> None:
    await house_list(bot, "/regeln haus runde=geberrunde")
    await ok(bot, "/bock", "🎲 Bock: Geberrunde 1/3, Spiel 1/3 · danach Ramsch")
    for i in range(2, 10):
        label = f"Geberrunde {(i - 1) // 3 + 1}/3, Spiel {(i - 1) % 3 + 1}/3"
        await ok(bot, "/eingepasst", f"🎲 Bock: {label}")  # no "Bock 1/9"
    await ok(bot, "/eingepasst", "🎲 Ramsch: Geberrunde 1/3, Spiel 1/3")
    data = await export(bot)
    assert data["rules"] == "haus"
    await refused(bot, "/regeln haus runde=gestern")


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
async def test_isko_refuses_house_commands(bot: Bot, message: str) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await refused(bot, message, "/regeln haus")
    data = await export(bot)
    assert data["games"] == [] and data["rules"] == "isko"
