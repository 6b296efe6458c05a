"""Heavy commands are shared fairly: the same document asked twice in a row is sent once
(with a note), a member's documents are rate-limited, and a booking's reply never waits
behind a document in the outbox."""

from __future__ import annotations

import asyncio

import pytest

from skatbot.handlers.fairness import Fairness, Repeated, Throttled
from tests.helpers import Bot, ok, refused, replies

CHAT = -1001


@pytest.fixture(autouse=True)
def real_limits(bot: Bot) -> None:
    bot.app.bot_data.fairness = Fairness()  # the product's limits (helpers lift them)


def documents(bot: Bot) -> int:
    return len(bot.api.documents(CHAT))


async def test_the_same_document_twice_in_a_row_is_sent_once(bot: Bot) -> None:
    await bot.say("/vordruck 4")
    assert documents(bot) == 1
    note = await ok(bot, "/vordruck 4", "kommt schon", user_id=2)
    assert "/vordruck 4" in note
    assert documents(bot) == 1
    await bot.say("/vordruck 3")  # another document: sent
    assert documents(bot) == 2


async def test_a_booking_in_between_makes_the_next_pdf_new(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await bot.say("/pdf")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    await bot.say("/pdf")
    assert documents(bot) == 2


async def test_a_member_gets_three_documents_a_minute(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    for command in ("/vordruck 3", "/vordruck 4", "/pdf"):
        await bot.say(command, user_id=5)
    assert documents(bot) == 3
    text = await refused(bot, "/export", "3 Dokumente angefordert", "das nächste in", user_id=5)
    assert " s." in text
    assert documents(bot) == 3
    await bot.say("/export", user_id=6)  # another member is not held back
    assert documents(bot) == 4


async def test_a_booking_reply_does_not_wait_behind_a_document(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    bot.api.fail_next("sendDocument", status=200, delay=1.5)  # a slow upload
    pdf = bot.api.push_message("/vordruck 4", chat_id=CHAT, user_id=3)
    await bot.api.wait_for_call("getUpdates", count=1)
    before = len(bot.api.calls)
    booking = bot.api.push_message("/spiel Anna grand ohne 1 hand gewonnen", chat_id=CHAT)
    for _ in range(100):
        sent = [c for c in bot.api.calls[before:] if c.method == "sendMessage" and c.ok]
        if sent:
            break
        await asyncio.sleep(0.02)
    assert sent, "the booking was not answered"
    assert documents(bot) == 0  # answered while the document's upload was still under way
    await bot.api.wait_confirmed(booking)
    await bot.api.wait_confirmed(pdf)
    assert documents(bot) == 1


async def test_at_most_three_documents_wait_per_chat(bot: Bot) -> None:
    """Slow uploads: documents asked at once by different members (none over their limit)
    queue up to ``PENDING`` in the chat's outbox; the next ask is refused until they are out,
    and every accepted one arrives."""
    await ok(bot, "/neu Anna Bernd Carla")
    bot.api.fail_next("sendDocument", status=200, delay=1.0, times=6)
    asks = ["/vordruck 3", "/vordruck 4", "/pdf", "/export", "/stand bild", "/pdf liste 1"]
    before = len(bot.api.calls)
    pushed = [bot.api.push_message(c, chat_id=CHAT, user_id=10 + i) for i, c in enumerate(asks)]
    for update_id in pushed:
        await bot.api.wait_confirmed(update_id, timeout=15)
    await bot.delivered(CHAT, timeout=60)
    out = replies(bot.api.calls[before:], CHAT, bot.refusals)
    refusals = [r.text for r in out if r.refusal]
    assert refusals, out
    assert all("noch 3 Dokumente unterwegs" in t and "👉" in t for t in refusals), refusals
    sent = documents(bot) + len(bot.api.photos(CHAT))
    assert sent == len(asks) - len(refusals), (sent, refusals)
    await ok(bot, "/vordruck 3", user_id=30)  # the queue is empty again: asking works


async def test_one_member_repeating_a_document_does_not_silence_the_group(bot: Bot) -> None:
    """40 × the same document by one member: one document, one note, the rest unanswered;
    another member's /wert then comes right after that note, not behind 39 of them."""
    pushed = [bot.api.push_message("/vordruck 4", chat_id=CHAT, user_id=7) for _ in range(40)]
    wert = bot.api.push_message("/wert grand ohne 1 hand gewonnen", chat_id=CHAT, user_id=8)
    for update_id in (*pushed, wert):
        await bot.api.wait_confirmed(update_id, timeout=60)
    await bot.delivered(CHAT, timeout=120)
    texts = [
        str(c.params.get("text", ""))
        for c in bot.api.calls
        if c.method == "sendMessage" and c.ok  # a send refused (429) and retried counts once
    ]
    notes = [i for i, t in enumerate(texts) if "kommt schon" in t]
    answer = next(i for i, t in enumerate(texts) if "Grand" in t)
    assert len(notes) == 1, len(notes)
    assert len([n for n in notes if n < answer]) <= 1
    assert documents(bot) == 1


async def test_a_member_over_the_limit_is_told_once(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    asks = ["/vordruck 3", "/vordruck 4", "/pdf", "/export", "/stand bild", "/pdf liste 1"]
    out = [await bot.say(command, user_id=5) for command in asks * 2]
    refusals = [r.text for replies_ in out for r in replies_ if r.refusal]
    assert len(refusals) == 1 and "3 Dokumente angefordert" in refusals[0], refusals
    assert documents(bot) + len(bot.api.photos(CHAT)) == 3
    await bot.say("/export", user_id=6)  # another member is not held back
    assert documents(bot) == 4


def test_notes_once_per_member_and_window() -> None:
    """Fairness alone, on a fake clock: the first repeat and the first refusal of a member
    are told (``quiet`` False), the next ones within the window are not, and after the
    window the member is told again; another member is told on their own."""
    now = [0.0]
    gate = Fairness(clock=lambda: now[0])

    def outcome(user: int, text: str) -> str:
        try:
            gate.admit(CHAT, CHAT, user, text, pending=0)
        except Repeated as held:
            return "quiet repeat" if held.quiet else "repeat"
        except Throttled as held:
            return "quiet limit" if held.quiet else "limit"
        return "sent"

    assert [outcome(1, "/vordruck 4") for _ in range(4)] == [
        "sent",
        "repeat",
        "quiet repeat",
        "quiet repeat",
    ]
    assert outcome(2, "/vordruck 4") == "repeat"  # another member: told once too
    assert [outcome(1, t) for t in ("/pdf", "/export", "/kasse", "/urkunden")] == [
        "sent",
        "sent",
        "limit",
        "quiet limit",
    ]
    now[0] = 61.0  # the window has passed
    assert [outcome(1, "/export"), outcome(1, "/export"), outcome(1, "/export")] == [
        "sent",
        "repeat",
        "quiet repeat",
    ]


def test_the_repeat_note_is_per_place_and_who_runs_it_has_no_member_limit() -> None:
    """Fairness alone: the same words in two places (forum topics) are two documents, again
    in the first place a repeat; an ask not ``limited`` is admitted beyond the member's
    share and not counted, while the chat's pending documents still hold."""
    now = [0.0]
    gate = Fairness(clock=lambda: now[0])
    topic_a, topic_b = 101, 102
    gate.admit(CHAT, topic_a, 1, "/export", pending=0)
    gate.admit(CHAT, topic_b, 2, "/export", pending=0)
    with pytest.raises(Repeated):
        gate.admit(CHAT, topic_a, 3, "/export", pending=0)
    for text in ("/pdf", "/vordruck 3", "/vordruck 4", "/kasse", "/urkunden"):
        gate.admit(CHAT, CHAT, 7, text, pending=0, limited=False)
    assert not gate.over_limit(CHAT, 7)
    with pytest.raises(Throttled):
        gate.admit(CHAT, CHAT, 7, "/rangliste pdf", pending=3, limited=False)
