"""The game builder: buttons under one message, tapped through its use case (the harness).

Forged and over-long callback data, typed bids (a reply to the builder) and /anheften are
Telegram's business: tests/handlers/test_builder.py."""

from __future__ import annotations

from pathlib import Path

from skatbot.storage import lists as lists_store
from skatbot.storage.database import Database
from tests.harness import Harness, Message, Tapped

CHAT = -1001


def buttons(msg: Message) -> dict[str, str]:
    """label -> callback data of the message's current keyboard."""
    return {label: data for row in msg.buttons for label, data in row}


def labels(msg: Message) -> list[str]:
    return [label for row in msg.buttons for label, _ in row]


class Phone:
    """A player's thumb: taps buttons by label on one bot message."""

    def __init__(
        self,
        chat: Harness,
        message_id: int,
        *,
        user_id: int = 1,
        chat_id: int = CHAT,
        reader: int = 0,
    ):
        self.chat = chat
        self.message_id = message_id
        self.user_id = reader or user_id
        self.chat_id = chat_id
        self.reader = reader  # an ephemeral message of this reader's (message_id: its id)
        self.taps = 0
        self.answer = ""  # the notice of the latest tap

    @property
    def msg(self) -> Message:
        if self.reader:
            return self.chat.ephemeral[(self.chat_id, self.message_id)]
        return self.chat.messages[(self.chat_id, self.message_id)]

    async def tap(self, label: str, *, user_id: int | None = None) -> Tapped:
        """Tap the button labelled exactly ``label`` (a KeyError if the message has none)."""
        data = buttons(self.msg)[label]
        uid = self.user_id if user_id is None else user_id
        tapped = await self.chat.tap(self.msg, data, user_id=uid)
        self.answer = tapped.notice
        self.taps += 1
        return tapped


async def open_builder(chat: Harness, *, user_id: int = 1, chat_id: int = CHAT) -> Phone:
    await chat.say("/spiel", user_id=user_id, chat_id=chat_id)
    msg = chat.last(chat_id)
    assert "Wer spielt?" in msg.text
    return Phone(chat, msg.message_id, user_id=user_id, chat_id=chat_id)


def games(db: Database, chat_id: int = CHAT) -> list[str]:
    """The announcements (or kinds) of the open list's rows, in order."""

    def read(session):  # type: ignore[no-untyped-def]
        lst = lists_store.open_list(session, chat_id)
        assert lst is not None
        loaded = lists_store.load(session, lst)
        return [r.announcement or r.kind for r in loaded.rows]

    return db.run_read(read)


async def test_six_taps_book_grand_ohne_1_hand_72(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    phone = await open_builder(chat)
    await phone.tap("Anna")
    assert "Welches Spiel?" in phone.msg.text
    await phone.tap("Grand")
    assert "mit 5" not in labels(phone.msg) and "mehr …" not in labels(phone.msg)
    await phone.tap("ohne 1")
    assert "Anna: Grand ohne 1 → 48" in phone.msg.text
    await phone.tap("Hand")
    # the live value, before anything is booked
    assert "Anna: Grand ohne 1 Hand → 72" in phone.msg.text
    assert "✅ Eintragen" not in labels(phone.msg)
    await phone.tap("gewonnen")
    assert "Anna: Grand ohne 1 Hand gewonnen → +72" in phone.msg.text
    assert games(chat.db) == []
    await phone.tap("✅ Eintragen")
    assert phone.taps == 6
    text = phone.msg.text
    assert "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72" in text
    assert "Seeger-Fabian +122" in text
    assert games(chat.db) == ["Grand ohne 1 Hand gewonnen"]
    assert labels(phone.msg) == ["Neues Spiel", "Korrigieren", "Stornieren", "Stand"]
    # the same words as the grammar: the text path gives the same booking
    await chat.say("/spiel Bernd grand ohne 1 hand gewonnen")
    assert games(chat.db)[-1] == "Grand ohne 1 Hand gewonnen"


async def test_finished_builder_books_nothing_again(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    phone = await open_builder(chat)
    for label in ("Anna", "♣ Kreuz", "mit 1", "gewonnen"):
        await phone.tap(label)
    ok = buttons(phone.msg)["✅ Eintragen"]
    await phone.tap("✅ Eintragen")
    # the old data again, by the player and by another: the booked message no longer offers
    # it, and the use case itself (as when two taps race the booking, both on the keyboard
    # before it) books nothing either
    booked = phone.msg
    before = Message(
        booked.chat_id, booked.thread_id, booked.message_id, booked.html, ((("✅", ok),),)
    )
    again = [
        await chat.tap(booked, ok),
        await chat.tap(booked, ok, user_id=2),
        await chat.tap(before, ok),
        await chat.tap(before, ok, user_id=2),
    ]
    assert games(chat.db) == ["Kreuz mit 1 gewonnen"]
    assert [t.replies for t in again] == [[], [], [], []]  # no message sent, none edited
    assert all(t.notice for t in again), again  # answered politely


async def test_other_users_taps_are_refused(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    phone = await open_builder(chat, user_id=1)
    text = phone.msg.text
    await phone.tap("Bernd", user_id=2)
    assert "gehört Spieler" in phone.answer
    assert phone.msg.text == text
    await phone.tap("Bernd")
    assert "Bernd:" in phone.msg.text


async def test_illegal_combinations_are_unreachable(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    phone = await open_builder(chat)
    await phone.tap("Anna")
    await phone.tap("♥ Herz")
    assert "mehr …" in labels(phone.msg)
    await phone.tap("mehr …")
    assert "mit 11" in labels(phone.msg) and "mit 12" not in labels(phone.msg)
    await phone.tap("↩ zurück")
    await phone.tap("mit 2")
    # Schneider angesagt sets Hand, as ouvert does (only a Hand game announces)
    await phone.tap("Schneider angesagt")
    assert {"✓ Hand", "✓ Schneider angesagt"} <= set(labels(phone.msg))
    await phone.tap("✓ Schneider angesagt")
    await phone.tap("Schwarz angesagt")  # implies Schneider angesagt
    assert "✓ Schneider angesagt" in labels(phone.msg)
    await phone.tap("✓ Hand")  # Hand off takes the announcements with it
    assert "✓ Schneider angesagt" not in labels(phone.msg)
    assert "✓ Schwarz angesagt" not in labels(phone.msg)
    assert "✓ Hand" not in labels(phone.msg)
    await phone.tap("Ouvert")  # ouvert sets Hand, Schneider and Schwarz angesagt
    assert {"✓ Hand", "✓ Ouvert", "✓ Schneider angesagt", "✓ Schwarz angesagt"} <= set(
        labels(phone.msg)
    )
    assert "Herz ouvert mit 2 → 90" in phone.msg.text
    # Null: no matadors, no Schneider/Schwarz, bids only up to 59
    await phone.tap("✎ Herz")
    await phone.tap("Null")
    assert not any(
        label.startswith(("mit", "ohne", "Schneider", "Schwarz")) for label in labels(phone.msg)
    )
    assert "Anna: Null ouvert Hand → 59" in phone.msg.text
    await phone.tap("Reiz …")
    assert "59" in labels(phone.msg) and "60" not in labels(phone.msg)


async def test_sitting_out_dealer_is_not_offered(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla Dora geber Carla")
    phone = await open_builder(chat)
    assert labels(phone.msg)[:3] == ["Anna", "Bernd", "Dora"]
    assert "Carla" not in labels(phone.msg)
    assert "Geber Carla (setzt aus)" in phone.msg.text


async def test_bid_buttons(chat: Harness) -> None:
    """The bid buttons; a typed bid (a reply to the builder): tests/handlers/test_builder.py."""
    await chat.say("/neu Anna Bernd Carla")
    phone = await open_builder(chat)
    for label in ("Bernd", "♦ Karo", "mit 1", "Reiz …", "30", "gewonnen"):
        await phone.tap(label)
    assert "Reiz 30" in labels(phone.msg)
    assert "Karo mit 1 Reiz 30 verloren, überreizt → −72" in phone.msg.text
    await phone.tap("Reiz 30")
    await phone.tap("anderer …")
    assert "Antworte auf diese Nachricht" in phone.msg.text


async def test_stale_builder_cannot_book_onto_a_changed_list(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    phone = await open_builder(chat)
    for label in ("Anna", "Grand", "mit 1", "gewonnen"):
        await phone.tap(label)
    await chat.say("/spiel Bernd karo mit 1 gewonnen")
    await phone.tap("✅ Eintragen")
    assert "geändert" in phone.answer
    assert "veraltet" in phone.msg.text
    assert games(chat.db) == ["Karo mit 1 gewonnen"]


async def test_korrigieren_and_stornieren_buttons(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    await chat.say("/spiel Anna grand ohne 1 hand gewonnen")
    booking = Phone(chat, chat.last(CHAT).message_id)
    assert labels(booking.msg) == ["Neues Spiel", "Korrigieren", "Stornieren", "Stand"]
    await booking.tap("Korrigieren")
    fix = Phone(chat, chat.last_for(1).message_id, reader=1)  # for the tapper alone
    assert "Spiel 1 korrigieren" in fix.msg.text
    assert "Anna: Grand ohne 1 Hand gewonnen → +72" in fix.msg.text
    await fix.tap("✓ gewonnen" if "✓ gewonnen" in labels(fix.msg) else "gewonnen")
    await fix.tap("verloren")
    await fix.tap("✅ Eintragen")
    assert "Spiel 1 korrigiert" in chat.last(CHAT).text  # the correction: the group's
    assert "für alle" in fix.msg.text and labels(fix.msg) == []
    assert games(chat.db) == ["Grand ohne 1 Hand gewonnen", "Grand ohne 1 Hand verloren"]
    assert labels(booking.msg) == []  # the struck booking lost its buttons

    fixed = Phone(chat, chat.last(CHAT).message_id)
    await fixed.tap("Stornieren")
    assert labels(fixed.msg) == ["Ja, Spiel 1 stornieren", "Nein"]
    await fixed.tap("Nein")
    assert games(chat.db)[-1] == "Grand ohne 1 Hand verloren"
    assert "Stornieren" in labels(fixed.msg)
    await fixed.tap("Stornieren")
    await fixed.tap("Ja, Spiel 1 stornieren")
    assert games(chat.db)[-1] == "cancel"
    assert "Spiel 1 storniert" in chat.last(CHAT).text
    await fixed.tap("Neues Spiel") if "Neues Spiel" in labels(fixed.msg) else None
    # Stand
    await chat.say("/spiel Bernd pik mit 1 gewonnen")
    last = Phone(chat, chat.last(CHAT).message_id)
    await last.tap("Stand")
    assert "Zwischenstand" in chat.last(CHAT).text


async def test_help_and_forgiving_input(chat: Harness) -> None:
    """The command menu itself (setMyCommands): tests/handlers/test_builder.py."""
    text = await chat.text("/hilfe spiel")
    assert "schellen = karo" in text and "/spiel anna grand ohne 1 hand gewonnen → 72" in text
    assert "anheften" in await chat.text("/hilfe")
    await chat.say("/neu Anna Bernd Carla")
    assert "Meintest du „grand“?" in await chat.text("/spiel Anna grnad ohne 1 g")
    assert "Meintest du Anna?" in await chat.text("/spiel Anan grand ohne 1 g")
    reply = await chat.text("/spiel@skatbot_test_bot an GRAND ohne 1 HAND g")
    assert "Anna +72" in reply
    await chat.say("/spiel@skatbot_test_bot")
    assert "Wer spielt?" in chat.last(CHAT).text


def snapshot(step: str, msg: Message) -> str:
    # a greyed-out button (no data on the wire) as the console shows it
    rows = [
        " ".join(f"[{label}]" if data else f"[{label} ⊘]" for label, data in row)
        for row in msg.buttons
    ]
    body = "\n".join(f"    {line}" for line in msg.text.splitlines())
    keys = "\n".join(f"    {r}" for r in rows) or "    (keine Knöpfe)"
    return f"### {step}\n\n{body}\n\n{keys}\n"


async def test_transcript_fits_a_phone(chat: Harness) -> None:
    """≤ 4 buttons per row, short labels; SKATBOT_WRITE_TRANSCRIPT=1 writes the transcript."""
    import os

    await chat.say("/neu Anna Bernd Carla Dora")
    phone = await open_builder(chat)
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
    # opened by a tap: an ephemeral message only the tapper sees (Bot API 10.2)
    second = Phone(chat, chat.last_for(1).message_id, reader=1)
    shots.append(snapshot("Tipp: Neues Spiel (neue Nachricht, nur für den Tippenden)", second.msg))
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
    booked = Phone(chat, chat.last(CHAT).message_id)  # the booking: the group's
    shots.append(snapshot("Die Buchung (neue Nachricht, für alle)", booked.msg))
    await booked.tap("Stornieren")
    shots.append(snapshot("Tipp: Stornieren", booked.msg))
    for text in shots:
        for line in text.splitlines():
            if line.startswith("    ["):
                assert line.count("[") <= 4, line
    mine = [m for (chat_id, _), m in [*chat.messages.items(), *chat.ephemeral.items()]]
    mine = [m for m in mine if m.chat_id == CHAT]
    assert any(m.buttons for m in mine)
    for msg in mine:
        for row in msg.buttons:
            assert len(row) <= 4
            for label, data in row:
                assert len(label) <= 24, label
                assert len(data.encode()) <= 64
    if os.environ.get("SKATBOT_WRITE_TRANSCRIPT"):
        out = Path(__file__).resolve().parents[3] / "docs" / "builder-transcript.md"
        head = (
            "# Game builder – transcript of a session\n\n"
            "Generated by `SKATBOT_WRITE_TRANSCRIPT=1 pytest "
            "tests/usecases/sheet/test_builder.py -k transcript` (the builder's use cases on "
            "the test harness). "
            "Each step shows the builder message as a player sees it after the tap, then its "
            "button rows. Vierertisch Anna, Bernd, Carla, Dora; Anna deals and sits out, so she "
            "is not offered as declarer. The first builder is opened by `/spiel`, a public "
            "message; the second by a tap on „Neues Spiel“, so it is an ephemeral message that "
            "only the tapper sees (Bot API 10.2 and later, docs/ephemeral.md), whose "
            "„anderer …“ shows the rarer bids (no reply can be typed to it) and whose booking "
            "is a new message for the group.\n\n"
        )
        out.write_text(head + "\n".join(shots))
