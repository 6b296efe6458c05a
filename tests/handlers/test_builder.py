"""The game builder: buttons under one message, driven by callback queries on the fake Bot API."""

from __future__ import annotations

import re
from pathlib import Path

from skatbot.handlers import registry
from skatbot.handlers.routes import ROUTES, Kind
from skatbot.standin.server import BotMessage
from skatbot.storage import lists as repo
from skatbot.storage.database import Database
from skatbot.usecases.common.reply import Command
from skatbot.usecases.sheet.builder import commands as builder
from tests.helpers import Bot

CHAT = -1001


def buttons(msg: BotMessage) -> dict[str, str]:
    """label -> callback data of the message's current keyboard."""
    return {b["text"]: b["callback_data"] for row in msg.buttons for b in row}


def labels(msg: BotMessage) -> list[str]:
    return [b["text"] for row in msg.buttons for b in row]


class Phone:
    """A player's thumb: taps buttons by label on one bot message."""

    def __init__(self, bot: Bot, message_id: int, *, user_id: int = 1, chat_id: int = CHAT):
        self.bot = bot
        self.message_id = message_id
        self.user_id = user_id
        self.chat_id = chat_id
        self.taps = 0

    @property
    def msg(self) -> BotMessage:
        return self.bot.api.message(self.chat_id, self.message_id)

    async def tap(self, label: str, *, user_id: int | None = None) -> None:
        data = buttons(self.msg)[label]
        await self.data(data, user_id=user_id)
        self.taps += 1

    async def data(self, data: str, *, user_id: int | None = None) -> None:
        uid = self.user_id if user_id is None else user_id
        update_id = self.bot.api.push_callback(
            data, message_id=self.message_id, chat_id=self.chat_id, user_id=uid
        )
        await self.bot.api.wait_confirmed(update_id, timeout=15)


def last_answer(bot: Bot) -> str:
    calls = bot.api.sent("answerCallbackQuery")
    return str(calls[-1].params.get("text", "")) if calls else ""


async def open_builder(bot: Bot, *, user_id: int = 1, chat_id: int = CHAT) -> Phone:
    await bot.say("/spiel", user_id=user_id, chat_id=chat_id)
    msg = bot.api.messages(chat_id)[-1]
    assert "Wer spielt?" in (msg.text or "")
    return Phone(bot, msg.message_id, user_id=user_id, chat_id=chat_id)


def games(db: Database, chat_id: int = CHAT) -> list[str]:
    def read(session):  # type: ignore[no-untyped-def]
        lst = repo.open_list(session, chat_id)
        assert lst is not None
        loaded = repo.load(session, lst)
        return [r.announcement or r.kind for r in loaded.rows]

    return db.run_read(read)


async def test_six_taps_book_grand_ohne_1_hand_72(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    await phone.tap("Anna")
    assert "Welches Spiel?" in (phone.msg.text or "")
    await phone.tap("Grand")
    assert "mit 5" not in labels(phone.msg) and "mehr …" not in labels(phone.msg)
    await phone.tap("ohne 1")
    assert "Anna: Grand ohne 1 → 48" in (phone.msg.text or "")
    await phone.tap("Hand")
    # the live value, before anything is booked
    assert "Anna: Grand ohne 1 Hand → 72" in (phone.msg.text or "")
    assert "✅ Eintragen" not in labels(phone.msg)
    await phone.tap("gewonnen")
    assert "Anna: Grand ohne 1 Hand gewonnen → +72" in (phone.msg.text or "")
    assert games(bot.db) == []
    await phone.tap("✅ Eintragen")
    assert phone.taps == 6
    text = phone.msg.text or ""
    assert "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72" in text
    assert "Seeger-Fabian +122" in text
    assert games(bot.db) == ["Grand ohne 1 Hand gewonnen"]
    assert labels(phone.msg) == ["Neues Spiel", "Korrigieren", "Stornieren", "Stand"]
    # the same words as the grammar: the text path gives the same booking
    await bot.say("/spiel Bernd grand ohne 1 hand gewonnen")
    assert games(bot.db)[-1] == "Grand ohne 1 Hand gewonnen"


async def test_finished_builder_books_nothing_again(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    for label in ("Anna", "♣ Kreuz", "mit 1", "gewonnen"):
        await phone.tap(label)
    ok = buttons(phone.msg)["✅ Eintragen"]
    await phone.tap("✅ Eintragen")
    before = len(bot.api.sent("sendMessage"))
    await phone.data(ok)
    await phone.data(ok, user_id=2)
    assert games(bot.db) == ["Kreuz mit 1 gewonnen"]
    assert len(bot.api.sent("sendMessage")) == before
    assert last_answer(bot)  # answered politely


async def test_other_users_taps_are_refused(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot, user_id=1)
    text = phone.msg.text
    await phone.tap("Bernd", user_id=2)
    assert "gehört Spieler" in last_answer(bot)
    assert phone.msg.text == text
    await phone.tap("Bernd")
    assert "Bernd:" in (phone.msg.text or "")


async def test_forged_data_is_refused_and_changes_nothing(bot: Bot, tmp_path: Path) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/neu Xaver Yvonne Zora", chat_id=-2002)
    other = await open_builder(bot, chat_id=-2002)
    other_id = buttons(other.msg)["Xaver"].split(":")[2]
    phone = await open_builder(bot)
    bid = buttons(phone.msg)["Anna"].split(":")[2]
    text, edits = phone.msg.text, phone.msg.edits
    forged = [
        "hallo",
        "v2:b:1:p:0",
        f"v1:b:{bid}:p:7",
        f"v1:b:{bid}:p:99999999999",
        f"v1:b:{bid}:m:+12",
        f"v1:b:{bid}:ok",
        f"v1:b:{other_id}:p:0",
        "v1:sj:1",
        "v1:k:999",
        "x" * 64,
    ]
    for data in forged:
        await phone.data(data)
        assert last_answer(bot), data
    assert phone.msg.text == text and phone.msg.edits == edits
    assert games(bot.db) == []
    assert len(bot.api.sent("editMessageText")) == 0

    # behind the first check (data on the message): the use case refuses on its own too
    def forge(data: str, message_id: int | None) -> str:
        cmd = Command(CHAT, "", 1, "Spieler", 10_000 + len(data), (data,), data, message_id)
        # the use case of the route the data takes (the builder's: behind its admin check)
        route = next(
            r for r in ROUTES if r.kind is Kind.CALLBACK and re.match(r.pattern or "", data)
        )
        run = builder.builder_tap if route.name == "builder" else route.use_case
        return bot.db.run_write(lambda s: run(s, cmd)).notice  # type: ignore[operator, arg-type, union-attr]

    assert forge(f"v1:b:{other_id}:p:0", phone.message_id) == builder.NOT_HERE
    assert forge(f"v1:b:{bid}:p:7", phone.message_id) == builder.STALE
    assert forge(f"v1:b:{bid}:m:+3", phone.message_id) == builder.STALE  # not offered yet
    assert forge(f"v1:b:{bid}:ok", phone.message_id) == builder.STALE
    assert forge(f"v1:b:{bid}:p:0", phone.message_id + 1) == builder.NOT_HERE
    assert forge("v9:zz", phone.message_id) == builder.UNKNOWN
    assert games(bot.db) == []


async def test_illegal_combinations_are_unreachable(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    await phone.tap("Anna")
    await phone.tap("♥ Herz")
    assert "mehr …" in labels(phone.msg)
    await phone.tap("mehr …")
    assert "mit 11" in labels(phone.msg) and "mit 12" not in labels(phone.msg)
    await phone.tap("↩ zurück")
    await phone.tap("mit 2")
    # no Schneider angesagt without Hand
    assert "Schneider angesagt" not in labels(phone.msg)
    assert "Schwarz angesagt" not in labels(phone.msg)
    await phone.tap("Hand")
    assert "Schneider angesagt" in labels(phone.msg)
    await phone.tap("Schwarz angesagt")  # implies Schneider angesagt
    assert "✓ Schneider angesagt" in labels(phone.msg)
    await phone.tap("✓ Hand")  # Hand off takes the announcements with it
    assert "Schneider angesagt" not in labels(phone.msg)
    assert "✓ Schwarz angesagt" not in labels(phone.msg)
    await phone.tap("Ouvert")  # ouvert sets Hand, Schneider and Schwarz angesagt
    assert {"✓ Hand", "✓ Ouvert", "✓ Schneider angesagt", "✓ Schwarz angesagt"} <= set(
        labels(phone.msg)
    )
    assert "Herz ouvert mit 2 → 90" in (phone.msg.text or "")
    # Null: no matadors, no Schneider/Schwarz, bids only up to 59
    await phone.tap("✎ Herz")
    await phone.tap("Null")
    assert not any(
        label.startswith(("mit", "ohne", "Schneider", "Schwarz")) for label in labels(phone.msg)
    )
    assert "Anna: Null ouvert Hand → 59" in (phone.msg.text or "")
    await phone.tap("Reiz …")
    assert "59" in labels(phone.msg) and "60" not in labels(phone.msg)


async def test_sitting_out_dealer_is_not_offered(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla Dora geber Carla")
    phone = await open_builder(bot)
    assert labels(phone.msg)[:3] == ["Anna", "Bernd", "Dora"]
    assert "Carla" not in labels(phone.msg)
    assert "Geber Carla (setzt aus)" in (phone.msg.text or "")


async def test_bid_buttons_and_typed_bid(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    for label in ("Bernd", "♦ Karo", "mit 1", "Reiz …", "30", "gewonnen"):
        await phone.tap(label)
    assert "Reiz 30" in labels(phone.msg)
    assert "Karo mit 1 Reiz 30 verloren, überreizt → −72" in (phone.msg.text or "")
    await phone.tap("Reiz 30")
    await phone.tap("anderer …")
    assert "Antworte auf diese Nachricht" in (phone.msg.text or "")
    update_id = bot.api.push_message("19", chat_id=CHAT, user_id=1, reply_to=phone.message_id)
    await bot.api.wait_confirmed(update_id)
    assert "19 ist kein Reizwert" in bot.api.messages(CHAT)[-1].text  # type: ignore[operator]
    update_id = bot.api.push_message("18", chat_id=CHAT, user_id=1, reply_to=phone.message_id)
    await bot.api.wait_confirmed(update_id)
    assert "Karo mit 1 Reiz 18 gewonnen → +18" in (phone.msg.text or "")
    await phone.tap("✅ Eintragen")
    assert games(bot.db) == ["Karo mit 1 Reiz 18 gewonnen"]


async def test_stale_builder_cannot_book_onto_a_changed_list(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    phone = await open_builder(bot)
    for label in ("Anna", "Grand", "mit 1", "gewonnen"):
        await phone.tap(label)
    await bot.say("/spiel Bernd karo mit 1 gewonnen")
    await phone.tap("✅ Eintragen")
    assert "geändert" in last_answer(bot)
    assert "veraltet" in (phone.msg.text or "")
    assert games(bot.db) == ["Karo mit 1 gewonnen"]


async def test_korrigieren_and_stornieren_buttons(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    booking = Phone(bot, bot.api.messages(CHAT)[-1].message_id)
    assert labels(booking.msg) == ["Neues Spiel", "Korrigieren", "Stornieren", "Stand"]
    await booking.tap("Korrigieren")
    fix = Phone(bot, bot.api.messages(CHAT)[-1].message_id)
    assert "Spiel 1 korrigieren" in (fix.msg.text or "")
    assert "Anna: Grand ohne 1 Hand gewonnen → +72" in (fix.msg.text or "")
    await fix.tap("✓ gewonnen" if "✓ gewonnen" in labels(fix.msg) else "gewonnen")
    await fix.tap("verloren")
    await fix.tap("✅ Eintragen")
    assert "Spiel 1 korrigiert" in (fix.msg.text or "")
    assert games(bot.db) == ["Grand ohne 1 Hand gewonnen", "Grand ohne 1 Hand verloren"]
    assert labels(booking.msg) == []  # the struck booking lost its buttons

    fixed = Phone(bot, fix.message_id)
    await fixed.tap("Stornieren")
    assert labels(fixed.msg) == ["Ja, Spiel 1 stornieren", "Nein"]
    await fixed.tap("Nein")
    assert games(bot.db)[-1] == "Grand ohne 1 Hand verloren"
    assert "Stornieren" in labels(fixed.msg)
    await fixed.tap("Stornieren")
    await fixed.tap("Ja, Spiel 1 stornieren")
    assert games(bot.db)[-1] == "cancel"
    assert "Spiel 1 storniert" in (bot.api.messages(CHAT)[-1].text or "")
    await fixed.tap("Neues Spiel") if "Neues Spiel" in labels(fixed.msg) else None
    # Stand
    await bot.say("/spiel Bernd pik mit 1 gewonnen")
    last = Phone(bot, bot.api.messages(CHAT)[-1].message_id)
    await last.tap("Stand")
    assert "Serienabschluss" in (bot.api.messages(CHAT)[-1].text or "")


async def test_anheften_keeps_the_standings_up_to_date(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/anheften")
    pinned = bot.api.messages(CHAT)[-1]
    assert pinned.pinned and "Stand" in (pinned.text or "")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    assert "Anna 122" in (bot.api.message(CHAT, pinned.message_id).text or "")
    await bot.say("/storno 1")
    assert "Anna 122" not in (bot.api.message(CHAT, pinned.message_id).text or "")
    # the pinned message is deleted: bookings go on, and it is not edited again
    bot.api.message(CHAT, pinned.message_id).deleted = True
    reply = await bot.text("/spiel Bernd karo mit 1 gewonnen")
    assert "Bernd +18" in reply

    def edit_calls() -> int:  # failed ones included
        return sum(c.method == "editMessageText" for c in bot.api.calls)

    edits = edit_calls()
    assert "Carla" in await bot.text("/spiel Carla karo mit 1 gewonnen")
    assert edit_calls() == edits


async def test_help_menu_and_forgiving_input(bot: Bot) -> None:
    text = await bot.text("/hilfe spiel")
    assert "schellen = karo" in text and "/spiel anna grand ohne 1 hand gewonnen → 72" in text
    assert "anheften" in await bot.text("/hilfe")
    # runner.run_polling does not call post_init (reported); call it as Application.run_* would
    await registry.post_init(bot.app)
    assert len(bot.api.commands) == 2  # group and private scopes
    commands = {c["command"] for cmds in bot.api.commands.values() for c in cmds}
    assert {"spiel", "anheften", "hilfe"} <= commands
    await bot.say("/neu Anna Bernd Carla")
    assert "Meintest du „grand“?" in await bot.text("/spiel Anna grnad ohne 1 g")
    assert "Meintest du Anna?" in await bot.text("/spiel Anan grand ohne 1 g")
    reply = await bot.text("/spiel@skatbot_test_bot an GRAND ohne 1 HAND g")
    assert "Anna +72" in reply
    await bot.say("/spiel@skatbot_test_bot")
    assert "Wer spielt?" in (bot.api.messages(CHAT)[-1].text or "")


def snapshot(step: str, msg: BotMessage) -> str:
    rows = [" ".join(f"[{b['text']}]" for b in row) for row in msg.buttons]
    body = "\n".join(f"    {line}" for line in (msg.text or "").splitlines())
    keys = "\n".join(f"    {r}" for r in rows) or "    (keine Knöpfe)"
    return f"### {step}\n\n{body}\n\n{keys}\n"


async def test_transcript_fits_a_phone(bot: Bot) -> None:
    """≤ 4 buttons per row, short labels; SKATBOT_WRITE_TRANSCRIPT=1 writes the transcript."""
    import os

    await bot.say("/neu Anna Bernd Carla Dora")
    phone = await open_builder(bot)
    shots = [snapshot("/spiel", phone.msg)]
    path = [
        "Bernd",
        "Grand",
        "ohne 1",
        "Hand",
        "gewonnen",
        "✅ Eintragen",
    ]
    for label in path:
        await phone.tap(label)
        shots.append(snapshot(f"Tipp {phone.taps}: {label}", phone.msg))
    await phone.tap("Neues Spiel")
    second = Phone(bot, bot.api.messages(CHAT)[-1].message_id)
    shots.append(snapshot("Tipp: Neues Spiel (neue Nachricht)", second.msg))
    for label in (
        "Carla",
        "♥ Herz",
        "mehr …",
        "mit 5",
        "Hand",
        "Schneider angesagt",
        "Reiz …",
        "anderer …",
        "↩ zurück",
        "60",
        "verloren",
        "✅ Eintragen",
    ):
        await second.tap(label)
        shots.append(snapshot(f"Tipp: {label}", second.msg))
    await second.tap("Stornieren")
    shots.append(snapshot("Tipp: Stornieren", second.msg))
    for text in shots:
        for line in text.splitlines():
            if line.startswith("    ["):
                assert line.count("[") <= 4, line
    for msg in bot.api.messages(CHAT):
        for row in msg.buttons:
            assert len(row) <= 4
            for b in row:
                assert len(b["text"]) <= 24, b["text"]
                assert len(b["callback_data"].encode()) <= 64
    if os.environ.get("SKATBOT_WRITE_TRANSCRIPT"):
        out = Path(__file__).resolve().parents[2] / "docs" / "builder-transcript.md"
        head = (
            "# Game builder – transcript of a session\n\n"
            "Generated by `SKATBOT_WRITE_TRANSCRIPT=1 pytest "
            "tests/handlers/test_builder.py -k transcript` (the real bot on the fake Bot API). "
            "Each step shows the builder message as a player sees it after the tap, then its "
            "button rows. Vierertisch Anna, Bernd, Carla, Dora; Anna deals and sits out, so she "
            "is not offered as declarer.\n\n"
        )
        out.write_text(head + "\n".join(shots))
