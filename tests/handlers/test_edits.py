"""Edited messages: an edited /spiel corrects its booking once and edits the
bot's reply; edits that cannot be applied are refused with the /korrigieren line that works;
edits of every other message are ignored; a redelivered edit changes nothing twice.

Values: Grand ohne 1 Hand = 3 × 24 = 72, Grand ohne 2 Hand = 4 × 24 = 96,
Kreuz mit 1 = 2 × 12 = 24, Kreuz mit 2 = 3 × 12 = 36, Herz mit 1 = 2 × 10 = 20.
"""

from __future__ import annotations

from typing import Any

from telegram import Update

from skatbot.standin.records import JSONDict
from tests.handlers.test_builder import open_builder
from tests.helpers import Bot, Reply, export_json, replies

CHAT = -1001
GAME_72 = "/spiel Anna grand ohne 1 hand gewonnen"
GAME_96 = "/spiel Anna grand ohne 2 hand gewonnen"


async def post(bot: Bot, text: str, *, chat_id: int = CHAT) -> tuple[int, list[Reply]]:
    """Send a user message; (its message id, the bot's answers)."""
    before = len(bot.api.calls)
    update_id = bot.api.push_message(text, chat_id=chat_id)
    raw = next(u for u in bot.api.pending_updates if u["update_id"] == update_id)
    await bot.api.wait_confirmed(update_id, timeout=15)
    return int(raw["message"]["message_id"]), replies(bot.api.calls[before:], chat_id, bot.refusals)


async def edit(
    bot: Bot, message_id: int, text: str, *, chat_id: int = CHAT
) -> tuple[JSONDict, list[Reply]]:
    """The user edits their message to ``text``; (the edited_message update, the answers)."""
    before = len(bot.api.calls)
    update_id = bot.api.push_edit(text, chat_id=chat_id, message_id=message_id)
    raw = next(u for u in bot.api.pending_updates if u["update_id"] == update_id)
    await bot.api.wait_confirmed(update_id, timeout=15)
    return raw, replies(bot.api.calls[before:], chat_id, bot.refusals)


def calls_since(bot: Bot, before: int, chat_id: int = CHAT) -> list[str]:
    return [c.method for c in bot.api.calls[before:] if c.params.get("chat_id") == chat_id]


async def export(bot: Bot) -> dict[str, Any]:
    return await export_json(bot)


def rows(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(g["nr"], g["status"], g["declarer"], g["value"]) for g in data["games"]]


def reply_id(bot: Bot) -> int:
    """The id of the bot's newest message in the chat."""
    return bot.api.messages(CHAT)[-1].message_id


def only_refusal(answers: list[Reply]) -> str:
    assert [a.method for a in answers] == ["sendMessage"], answers
    assert answers[0].refusal, answers
    assert "⚠️ Bearbeitung nicht übernommen" in answers[0].text, answers[0].text
    return answers[0].text


# --- the example ------------------------------------------------------------------------


async def test_an_edited_spiel_corrects_its_booking_once(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    message_id, answers = await post(bot, GAME_72)
    assert "3 × 24 = 72" in answers[0].text
    answer_id = reply_id(bot)

    raw, answers = await edit(bot, message_id, GAME_96)
    # the bot's own reply is edited; no new message
    assert [(a.method) for a in answers] == ["editMessageText"], answers
    shown = bot.api.message(CHAT, answer_id)
    assert shown.edits == 1
    assert "Nachricht bearbeitet" in (shown.text or "")
    assert "4 × 24 = 96" in (shown.text or "")
    assert "Spiel 1/36" in (shown.text or "")
    # the buttons under it now act on the correction (not on the struck row)
    data = await export(bot)
    assert rows(data) == [(None, "struck", "Anna", 72), (1, "valid", "Anna", 96)]
    assert data["totals"]["Anna"]["game_points"] == 96
    assert data["games"][0]["dealer"] == data["games"][1]["dealer"] == "Anna"

    # Telegram delivers the same edit again: nothing changes, nothing is sent
    before = len(bot.api.calls)
    await bot.app.process_update(Update.de_json(raw, bot.app.bot))
    assert calls_since(bot, before) == []
    assert rows(await export(bot)) == rows(data)
    assert bot.api.message(CHAT, answer_id).edits == 1


async def test_the_same_message_edited_twice_corrects_the_current_row(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    message_id, _ = await post(bot, GAME_72)
    answer_id = reply_id(bot)
    first, _ = await edit(bot, message_id, GAME_96)
    _, answers = await edit(bot, message_id, "/spiel Bernd kreuz mit 1 gewonnen")
    assert [a.method for a in answers] == ["editMessageText"]
    assert "Bernd +24" in (bot.api.message(CHAT, answer_id).text or "")
    expected = [
        (None, "struck", "Anna", 72),
        (None, "struck", "Anna", 96),
        (1, "valid", "Bernd", 24),
    ]
    assert rows(await export(bot)) == expected
    # the first edit delivered again, late: it is not applied a second time
    before = len(bot.api.calls)
    await bot.app.process_update(Update.de_json(first, bot.app.bot))
    assert calls_since(bot, before) == []
    assert rows(await export(bot)) == expected


async def test_an_edit_to_the_same_game_changes_and_says_nothing(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    message_id, _ = await post(bot, GAME_72)
    before = len(bot.api.calls)
    await edit(bot, message_id, "/spiel anna Grand ohne 1 Hand gewonnen")  # same game
    assert calls_since(bot, before) == []
    assert rows(await export(bot)) == [(1, "valid", "Anna", 72)]


# --- other commands are not run again -----------------------------------------------------------


async def test_edited_storno_and_other_commands_are_ignored(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    for game in ("Anna", "Bernd", "Carla"):
        await bot.say(f"/spiel {game} kreuz mit 1 gewonnen")
    storno_id, _ = await post(bot, "/storno 1 ja")
    data = await export(bot)
    assert [g["status"] for g in data["games"]] == ["cancelled", "valid", "valid"]

    stand_id, _ = await post(bot, "/stand")
    neu_id, _ = await post(bot, "/geber Carla")
    before = len(bot.api.calls)
    await edit(bot, storno_id, "/storno 1 ")  # PTB would run it again: game 2 cancelled
    await edit(bot, storno_id, "/storno 2")
    await edit(bot, stand_id, "/stand")
    await edit(bot, neu_id, "/neu Xaver Yvonne Zora")
    await edit(bot, storno_id, "/spiel@otherbot Anna grand ohne 2 hand gewonnen")
    await edit(bot, stand_id, "ach so")
    assert calls_since(bot, before) == []
    assert rows(await export(bot)) == rows(data)


async def test_an_edited_typed_bid_is_ignored(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    for label in ("Bernd", "♦ Karo", "mit 1", "Reiz …", "anderer …"):
        await phone.tap(label)
    asking = phone.msg.text
    assert "Antworte auf diese Nachricht" in (asking or "")
    update_id = bot.api.push_message("19", chat_id=CHAT, reply_to=phone.message_id)
    raw = next(u for u in bot.api.pending_updates if u["update_id"] == update_id)
    await bot.api.wait_confirmed(update_id, timeout=15)
    assert "19 ist kein Reizwert" in (bot.api.messages(CHAT)[-1].text or "")
    before = len(bot.api.calls)
    await edit(bot, int(raw["message"]["message_id"]), "18")  # not taken as the bid
    assert calls_since(bot, before) == []
    assert phone.msg.text == asking


# --- refusals -----------------------------------------------------------------------------------


async def test_an_edit_on_a_closed_list_is_refused_with_the_line(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    message_id, _ = await post(bot, GAME_72)
    await bot.say("/abschluss ja")
    data = await export(bot)
    answer_id = reply_id(bot)

    _, answers = await edit(bot, message_id, GAME_96)
    text = only_refusal(answers)
    assert "Die Liste ist abgeschlossen; Spiel 1 bleibt, wie es war." in text
    assert "/korrigieren 1 Anna grand ohne 2 hand gewonnen" in text
    assert rows(await export(bot)) == rows(data) == [(1, "valid", "Anna", 72)]
    assert bot.api.message(CHAT, answer_id).edits == 0


async def test_an_edit_refused_by_the_grammar_changes_nothing(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Bernd kreuz mit 1 gewonnen")
    message_id, _ = await post(bot, GAME_72)
    _, answers = await edit(bot, message_id, "/spiel Anna grand ohne 2 hand gewonnen schwarz x")
    text = only_refusal(answers)
    assert "Spiel 2 bleibt, wie es war." in text
    assert "Zum Korrigieren: /korrigieren 2 Anna grand ohne 2 hand gewonnen schwarz x" in text
    _, answers = await edit(bot, message_id, "/spiel Zora grand ohne 2 hand gewonnen")
    text = only_refusal(answers)
    assert "Zora" in text and "/korrigieren 2 Zora grand ohne 2 hand gewonnen" in text
    _, answers = await edit(bot, message_id, "/spiel")
    assert "/korrigieren 2 Anna grand ohne 1 hand gewonnen" in only_refusal(answers)
    assert rows(await export(bot)) == [(1, "valid", "Bernd", 24), (2, "valid", "Anna", 72)]


async def test_an_edit_of_a_message_that_booked_nothing_is_refused(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    message_id, answers = await post(bot, "/spiel Anna grund ohne 1 hand gewonnen")
    assert answers[0].refusal, answers
    _, answers = await edit(bot, message_id, GAME_72)
    text = only_refusal(answers)
    assert "kein Spiel eingetragen" in text
    assert f"Als neue Nachricht schicken: {GAME_72}" in text
    assert rows(await export(bot)) == []


async def test_an_edit_of_a_cancelled_game_is_refused(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    message_id, _ = await post(bot, GAME_72)
    await bot.say("/storno 1")
    _, answers = await edit(bot, message_id, GAME_96)
    text = only_refusal(answers)
    assert "storniert" in text and f"Neu eintragen: {GAME_96}" in text
    assert rows(await export(bot)) == [(None, "cancelled", "Anna", 72)]


async def test_an_edited_korrigieren_keeps_its_number(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna kreuz mit 1 gewonnen")
    await bot.say("/spiel Bernd kreuz mit 1 gewonnen")
    fix_id, _ = await post(bot, "/korrigieren 1 Anna kreuz mit 2 gewonnen")
    answer_id = reply_id(bot)
    _, answers = await edit(bot, fix_id, "/korrigieren 2 Anna kreuz mit 2 gewonnen")
    text = only_refusal(answers)
    assert "Nummer" in text and "/korrigieren 1 Anna kreuz mit 2 gewonnen" in text

    _, answers = await edit(bot, fix_id, "/korrigieren 1 Anna herz mit 1 gewonnen")
    assert [a.method for a in answers] == ["editMessageText"]
    assert "Anna +20" in (bot.api.message(CHAT, answer_id).text or "")
    assert rows(await export(bot)) == [
        (None, "struck", "Anna", 24),
        (None, "struck", "Anna", 36),
        (1, "valid", "Anna", 20),
        (2, "valid", "Bernd", 24),
    ]


# --- the place in the list ----------------------------------------------------------------------


async def test_an_edit_in_the_middle_keeps_later_numbers_and_dealers(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla Dora")
    ids = []
    for who in ("Bernd", "Carla", "Dora", "Anna", "Bernd"):
        message_id, _ = await post(bot, f"/spiel {who} kreuz mit 1 gewonnen")
        ids.append((message_id, reply_id(bot)))
    before = await export(bot)
    valid = [(g["nr"], g["dealer"], g["declarer"]) for g in before["games"]]
    assert [d for _, d, _ in valid] == ["Anna", "Bernd", "Carla", "Dora", "Anna"]

    # game 2: Bernd dealt, so he cannot be the declarer at a table of four
    _, answers = await edit(bot, ids[1][0], "/spiel Bernd herz mit 1 gewonnen")
    assert "/korrigieren 2 Bernd herz mit 1 gewonnen" in only_refusal(answers)
    _, answers = await edit(bot, ids[1][0], "/spiel Dora herz mit 1 verloren")
    assert [a.method for a in answers] == ["editMessageText"]
    assert "Dora −2 × 20 = −40" in (bot.api.message(CHAT, ids[1][1]).text or "")

    data = await export(bot)
    after = [(g["nr"], g["dealer"], g["declarer"]) for g in data["games"] if g["nr"]]
    assert after == [(1, "Anna", "Bernd"), (2, "Bernd", "Dora"), *valid[2:]]
    assert [g["status"] for g in data["games"]] == [
        "valid", "struck", "valid", "valid", "valid", "valid"
    ]  # fmt: skip
    # later replies are untouched, the next dealer is still Bernd
    assert all(bot.api.message(CHAT, r).edits == 0 for _, r in (ids[0], *ids[2:]))
    assert "Geber Bernd" in await bot.text("/stand")


async def test_an_edited_eingepasst_books_the_game_instead(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    message_id, _ = await post(bot, "/eingepasst")
    await bot.say("/spiel Bernd kreuz mit 1 gewonnen")
    await edit(bot, message_id, "/eingepasst")  # the same: nothing
    _, answers = await edit(bot, message_id, "/spiel Carla kreuz mit 1 gewonnen")
    assert [a.method for a in answers] == ["editMessageText"]
    data = await export(bot)
    assert [(g["nr"], g["kind"], g["status"]) for g in data["games"]] == [
        (None, "pass", "struck"),
        (1, "game", "valid"),
        (2, "game", "valid"),
    ]


async def test_an_edit_whose_reply_never_arrived_answers_anew(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    shown = len(bot.api.messages(CHAT))
    bot.api.fail_next("sendMessage", status=403, description="Forbidden: bot was kicked")
    message_id, _ = await post(bot, GAME_72)
    assert len(bot.api.messages(CHAT)) == shown  # booked, but the reply never arrived
    _, answers = await edit(bot, message_id, GAME_96)
    assert [a.method for a in answers] == ["sendMessage"]
    assert "4 × 24 = 96" in answers[0].text
    answer_id = reply_id(bot)
    # that new message is the one a later edit changes
    _, answers = await edit(bot, message_id, GAME_72)
    assert [a.method for a in answers] == ["editMessageText"]
    assert "3 × 24 = 72" in (bot.api.message(CHAT, answer_id).text or "")


# --- house rules --------------------------------------------------------------------------------


async def test_an_edit_a_later_house_rules_row_depends_on_is_refused(bot: Bot) -> None:
    await bot.say("/regeln haus")
    await bot.say("/neu Anna Bernd Carla")
    trigger_id, answers = await post(bot, "/spiel Anna kreuz mit 1 kontra re gewonnen")
    assert "Bock 1/3" in answers[0].text
    for _ in range(3):
        await bot.say("/eingepasst")
    assert "Ramsch: Bernd 60 Augen" in await bot.text("/ramsch Bernd 60")
    data = await export(bot)

    _, answers = await edit(bot, trigger_id, "/spiel Anna kreuz mit 1 gewonnen")
    text = only_refusal(answers)
    assert "Bock-/Ramsch-Ablauf" in text and "Spiel 1 bleibt, wie es war." in text
    assert "betroffen: Spiel 5 (Ramsch außerhalb der Ramsch-Phase)" in text  # hangs on it
    # the way that keeps every game, written out (an edit's text is no line to send again)
    assert "/korrigieren 1 Anna kreuz mit 1 gewonnen wie gespielt" in text
    assert "/storno" not in text and "/spiel Anna" not in text
    assert "Zum Korrigieren: /korrigieren 1 Anna kreuz mit 1 gewonnen" in text
    assert await export(bot) == data
    # /korrigieren refuses the same (the edit is exactly /korrigieren)
    assert "Bock-/Ramsch-Ablauf" in await bot.text("/korrigieren 1 Anna kreuz mit 1 gewonnen")

    # an edit that keeps the trigger is applied: Re still played, now Kreuz mit 2 → +36 × 4
    _, answers = await edit(bot, trigger_id, "/spiel Anna kreuz mit 2 kontra re gewonnen")
    assert [a.method for a in answers] == ["editMessageText"]
    games = (await export(bot))["games"]
    assert [(g["nr"], g["status"], g["points"]) for g in games[:2]] == [
        (None, "struck", {"Anna": 96}),
        (1, "valid", {"Anna": 144}),
    ]
