"""Forum topics (docs/rules.md §10 "Where a list lives"): one club group runs several tables side by
side, each topic with its own list, rules, pinned standings, builder and tournament desk;
every answer goes to the topic it was asked in; General keeps the chat's own list.

Through the real Application and the strict stand-in. Each reply's topic is read from the
Bot API calls (``message_thread_id`` of sendMessage/sendDocument) and from where the stand-in
put the message.
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker

from skatbot.standin.botapi import ApiCall, html_to_text
from skatbot.storage import lists as lists_store
from skatbot.storage import topic_places
from skatbot.storage.database import Database
from skatbot.storage.topic_places import Topic, is_topic_place
from tests.handlers.test_builder import Phone, buttons
from tests.helpers import Bot

FORUM = -1009001
ADMIN, CREATOR, MEMBER = 7, 1, 9


@dataclass
class Out:
    """One thing the bot sent into the forum."""

    method: str
    thread: int | None  # message_thread_id of the call; None: General
    text: str
    document: tuple[str, bytes] | None
    refusal: bool = False  # the bot's mark (Bot.refusals)


def _outs(
    calls: list[ApiCall], chat_id: int = FORUM, refusals: Collection[tuple[int, int]] = ()
) -> list[Out]:
    out = []
    for call in calls:
        if not call.ok or call.params.get("chat_id") != chat_id:
            continue
        if call.method not in ("sendMessage", "sendDocument"):
            continue
        thread = call.params.get("message_thread_id")
        refusal = (chat_id, (call.result or {}).get("message_id")) in refusals
        if call.method == "sendMessage":
            text = html_to_text(str(call.params.get("text", "")))
            out.append(Out(call.method, thread, text, None, refusal))
        else:
            doc = next(iter(call.files.values()), None)
            caption = html_to_text(str(call.params.get("caption", "")))
            out.append(Out(call.method, thread, caption, doc, refusal))
    return out


async def say(
    bot: Bot,
    text: str,
    thread: int | None,
    *,
    user_id: int = CREATOR,
    name: str = "Spieler",
    chat_id: int = FORUM,
) -> list[Out]:
    """Post ``text`` into topic ``thread`` (None: General) and return what the bot sent,
    checking that every message of it went to that same topic."""
    before = len(bot.api.calls)
    if thread is None:
        uid = bot.api.push_message(
            text, chat_id=chat_id, user_id=user_id, first_name=name, chat_type="supergroup"
        )
    else:
        uid = bot.api.push_message(
            text, chat_id=chat_id, user_id=user_id, first_name=name, thread_id=thread
        )
    await bot.api.wait_confirmed(uid, timeout=15)
    out = _outs(bot.api.calls[before:], chat_id, bot.refusals)
    assert out, f"no answer to {text!r} in topic {thread}"
    assert [o.thread for o in out] == [thread] * len(out), (text, out)
    return out


async def text(bot: Bot, message: str, thread: int | None, **kw: int | str) -> str:
    return "\n".join(o.text for o in await say(bot, message, thread, **kw))  # type: ignore[arg-type]


async def ok(bot: Bot, message: str, thread: int | None, *expected: str, **kw: int | str) -> str:
    out = await say(bot, message, thread, **kw)  # type: ignore[arg-type]
    reply = "\n".join(o.text for o in out)
    assert not any(o.refusal for o in out), (message, reply)
    for part in expected:
        assert part in reply, (message, part, reply)
    return reply


async def refused(bot: Bot, message: str, thread: int | None, *expected: str) -> str:
    out = await say(bot, message, thread)
    reply = "\n".join(o.text for o in out)
    assert any(o.refusal for o in out), (message, reply)
    for part in expected:
        assert part in reply, (message, part, reply)
    return reply


async def export(bot: Bot, thread: int | None) -> dict:  # type: ignore[type-arg]
    docs = [o.document for o in await say(bot, "/export", thread) if o.document]
    assert len(docs) == 1
    return json.loads(docs[0][1])  # type: ignore[no-any-return]


def announcements(data: dict) -> list[str]:  # type: ignore[type-arg]
    """The valid games of an /export (``skatbot-liste/1`` JSON): "declarer: game, +/-"."""
    return [
        f"{g['declarer']}: {g['announcement']} {'+' if g['won'] else '-'}"
        for g in data["games"]
        if g["kind"] == "game" and g["status"] == "valid"
    ]


def forum(bot: Bot) -> tuple[int, int]:
    bot.api.add_forum(FORUM, title="Skatclub Herz Dame")
    return bot.api.create_topic(FORUM, "Tisch 1"), bot.api.create_topic(FORUM, "Tisch 2")


# --- two tables side by side ------------------------------------------------------------------


async def test_two_lists_in_two_topics_at_once_every_reply_in_its_topic(bot: Bot) -> None:
    # The club's list from before it used topics: in the chat itself (General).
    await ok(bot, "/neu Xaver Yvonne Zora", None)
    await ok(bot, "/spiel Xaver karo mit 1 gewonnen", None)
    general_before = await export(bot, None)
    t1, t2 = forum(bot)

    await ok(bot, "/neu Anna Bernd Carla", t1, "Anna")
    await ok(bot, "/neu Dora Emil Frieda Gustav", t2, "Dora")
    # Interleaved bookings, pushed all at once (the chat's updates run one after another).
    burst = [
        ("/spiel Anna grand ohne 1 hand gewonnen", t1),
        ("/spiel Emil herz mit 2 verloren", t2),  # Dora deals and sits out
        ("/spiel Bernd kreuz mit 1 gewonnen", t1),
        ("/spiel Frieda null gewonnen", t2),
    ]
    before = len(bot.api.calls)
    ids = [bot.api.push_message(m, chat_id=FORUM, thread_id=t) for m, t in burst]
    for uid in ids:
        await bot.api.wait_confirmed(uid, timeout=15)
    sent = _outs(bot.api.calls[before:], FORUM, bot.refusals)
    assert [o.thread for o in sent] == [t for _, t in burst]
    assert not any(o.refusal for o in sent), sent
    assert "Anna" in sent[0].text and "Emil" in sent[1].text
    assert "Bernd" in sent[2].text and "Frieda" in sent[3].text

    # The button builder in topic 2: it opens there, its taps book into topic 2's list.
    await say(bot, "/spiel", t2, user_id=2)
    builder_msg = bot.api.messages(FORUM, thread_id=t2)[-1]
    assert "Wer spielt?" in (builder_msg.text or "")
    phone = Phone(bot, builder_msg.message_id, user_id=2, chat_id=FORUM)
    await ok(bot, "/spiel Carla pik mit 1 verloren", t1)  # topic 1 goes on meanwhile
    for label in ("Gustav", "Grand", "ohne 1", "gewonnen", "✅ Eintragen"):
        await phone.tap(label)
    assert "Spiel 3/48 · Gustav: Grand ohne 1 – gewonnen" in (phone.msg.text or "")
    assert phone.msg.thread_id == t2
    # "Stand" under the booked game answers in topic 2 with topic 2's players
    before = len(bot.api.calls)
    await phone.data(buttons(phone.msg)["Stand"])
    stand_button = _outs(bot.api.calls[before:])
    assert [o.thread for o in stand_button] == [t2] and "Gustav" in stand_button[0].text

    stand1 = await ok(bot, "/stand", t1, "Anna", "Bernd", "Carla")
    assert "Dora" not in stand1 and "Xaver" not in stand1
    liste2 = await ok(bot, "/liste", t2, "Emil", "Frieda", "Gustav")
    assert "Anna" not in liste2 and "Xaver" not in liste2

    one, two = await export(bot, t1), await export(bot, t2)
    assert announcements(one) == [
        "Anna: Grand ohne 1 Hand +",
        "Bernd: Kreuz mit 1 +",
        "Carla: Pik mit 1 -",
    ]
    assert announcements(two) == ["Emil: Herz mit 2 -", "Frieda: Null +", "Gustav: Grand ohne 1 +"]
    assert one["players"] == ["Anna", "Bernd", "Carla"]

    for thread, names, others in ((t1, "Anna", "Dora"), (t2, "Dora", "Anna")):
        docs = [o.document for o in await say(bot, "/pdf", thread) if o.document]
        assert len(docs) == 1 and docs[0][0].endswith(".pdf")
        pdf = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(docs[0][1])).pages)
        assert names in pdf and others not in pdf

    # General kept the chat's list, untouched by both tables.
    assert await export(bot, None) == general_before
    await ok(bot, "/spiel Yvonne pik mit 1 gewonnen", None, "Yvonne")
    assert announcements(await export(bot, None)) == ["Xaver: Karo mit 1 +", "Yvonne: Pik mit 1 +"]
    # Where the stand-in put everything: nothing of a topic landed in General or elsewhere.
    general = " ".join(m.text or m.caption or "" for m in bot.api.messages(FORUM, thread_id=0))
    assert "Anna" not in general and "Dora" not in general
    assert all("Anna" not in (m.text or "") for m in bot.api.messages(FORUM, thread_id=t2))


async def test_a_topic_without_list_says_so_there_and_stores_nothing(bot: Bot) -> None:
    t1, t2 = forum(bot)
    await ok(bot, "/neu Ottilie Kunigunde Hildegard", t1)
    for command in ("/stand", "/liste", "/export", "/pdf"):
        reply = await text(bot, command, t2)
        assert "/neu" in reply and "Ottilie" not in reply, (command, reply)
    assert "In diesem Thema gibt es noch keine Liste." in await text(bot, "/stand", t2)
    await refused(bot, "/spiel Anna grand hand gewonnen", t2, "/neu")


# --- per-topic settings ------------------------------------------------------------------------


async def test_house_rules_in_one_topic_leave_the_other(bot: Bot) -> None:
    t1, t2 = forum(bot)
    await ok(bot, "/regeln haus", t1, "Hausregeln")
    assert "Regeln in diesem Thema: ISkO" in await ok(bot, "/regeln", t2)
    assert "Regeln in diesem Chat: ISkO" in await ok(bot, "/regeln", None)
    await ok(bot, "/neu Anna Bernd Carla", t1, "🎲 kein Bock, kein Ramsch")
    isko = await ok(bot, "/neu Dora Emil Frieda", t2)
    assert "Bock" not in isko
    await ok(bot, "/bock", t1, "🎲 Bock 1/3")
    await refused(bot, "/bock", t2, "/regeln haus")
    assert (await export(bot, t1))["rules"] != (await export(bot, t2))["rules"]


async def test_pinned_standings_per_topic(bot: Bot) -> None:
    t1, t2 = forum(bot)
    bot.api.set_admins(FORUM, [], owner=ADMIN)
    await ok(bot, "/neu Anna Bernd Carla", t1)
    await ok(bot, "/neu Dora Emil Frieda", t2)
    await say(bot, "/anheften", t1)
    await say(bot, "/anheften", t2)
    pins = [m for m in bot.api.messages(FORUM) if m.pinned]
    assert [m.thread_id for m in pins] == [t1, t2]
    pin1, pin2 = pins
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", t1)
    assert "Anna" in (bot.api.message(FORUM, pin1.message_id).text or "")
    assert "Anna 122" in (bot.api.message(FORUM, pin1.message_id).text or "")
    assert bot.api.message(FORUM, pin2.message_id).edits == 0
    await ok(bot, "/spiel Emil null gewonnen", t2)
    assert "Emil" in (bot.api.message(FORUM, pin2.message_id).text or "")
    assert bot.api.message(FORUM, pin1.message_id).edits == 1


async def test_a_tournament_desk_in_one_topic_and_a_list_in_another(bot: Bot) -> None:
    t1, t2 = forum(bot)
    await ok(bot, "/turnier Vereinsmeisterschaft", t1, "Vereinsmeisterschaft")
    await ok(bot, "/teilnehmer Anna, Bernd, Carla, Dora, Emil, Frieda", t1, "6 Teilnehmer")
    await refused(bot, "/neu Anna Bernd Carla", t1)
    await ok(bot, "/neu Xaver Yvonne Zora", t2, "Xaver")
    assert "Turnier" not in await ok(bot, "/stand", t2)
    assert "Teilnehmer" in await ok(bot, "/teilnehmer", t1)


async def test_an_edited_spiel_in_a_topic_corrects_that_topics_game(bot: Bot) -> None:
    t1, t2 = forum(bot)
    await ok(bot, "/neu Anna Bernd Carla", t1)
    await ok(bot, "/neu Anna Bernd Carla", t2)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", t2)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", t1)
    mine = [m for m in bot.api._messages[FORUM].values() if m.get("text", "").startswith("/spiel")]
    booking_t1 = mine[-1]
    assert booking_t1["message_thread_id"] == t1
    uid = bot.api.push_edit(
        "/spiel Anna grand ohne 2 hand gewonnen", chat_id=FORUM, message_id=booking_t1["message_id"]
    )
    await bot.api.wait_confirmed(uid, timeout=15)
    assert announcements(await export(bot, t2)) == ["Anna: Grand ohne 1 Hand +"]
    assert announcements(await export(bot, t1)) == ["Anna: Grand ohne 2 Hand +"]


async def test_a_builder_opened_by_an_anonymous_admin_in_a_topic_is_worked_by_admins(
    bot: Bot,
) -> None:
    t1, _ = forum(bot)
    bot.api.set_admins(FORUM, [ADMIN])
    await ok(bot, "/neu Anna Bernd Carla", t1)
    group = {"id": FORUM, "type": "supergroup", "title": "Skatclub Herz Dame"}
    uid = bot.api.push_message("/spiel", chat_id=FORUM, thread_id=t1, sender_chat=group)
    await bot.api.wait_confirmed(uid, timeout=15)
    msg = bot.api.messages(FORUM, thread_id=t1)[-1]
    assert "Wer spielt?" in (msg.text or "")
    phone = Phone(bot, msg.message_id, user_id=ADMIN, chat_id=FORUM)
    await phone.tap("Anna", user_id=9)  # a plain member: not theirs
    assert "Wer spielt?" in (phone.msg.text or "")
    await phone.tap("Anna")  # an admin works the group's builder
    assert "Welches Spiel?" in (phone.msg.text or "")


# --- /loeschen ---------------------------------------------------------------------------------


async def test_loeschen_in_one_topic_leaves_the_other_and_general(bot: Bot) -> None:
    await ok(bot, "/neu Xaver Yvonne Zora", None)
    t1, t2 = forum(bot)
    bot.api.set_admins(FORUM, [ADMIN])
    await ok(bot, "/neu Anna Bernd Carla", t1, user_id=CREATOR)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", t1)
    await ok(bot, "/neu Dora Emil Frieda", t2)
    await ok(bot, "/spiel Dora herz mit 2 verloren", t2)
    two, general = await export(bot, t2), await export(bot, None)

    warning = await text(bot, "/loeschen", t1, user_id=ADMIN)
    assert "Alle Daten dieses Themas löschen?" in warning
    assert "1 Liste mit 1 Spiel" in warning
    assert "anderen Themen dieser Gruppe bleiben" in warning
    done = await text(bot, "/loeschen ja", t1, user_id=ADMIN)
    assert done.startswith("🗑 Gelöscht") and "In diesem Thema ist jetzt nichts" in done

    assert "nichts gespeichert" in await text(bot, "/loeschen", t1, user_id=ADMIN)
    assert await export(bot, t2) == two
    assert await export(bot, None) == general
    # the topic starts afresh
    await ok(bot, "/neu Anna Bernd Carla", t1)
    assert announcements(await export(bot, t1)) == []
    # in General, /loeschen names the chat and says the topics' lists stay
    warning = await text(bot, "/loeschen", None, user_id=ADMIN)
    assert "dieses Chats" in warning and "Listen in den Themen" in warning
    await ok(bot, "/loeschen ja", None, user_id=ADMIN)
    assert await export(bot, t2) == two


async def test_a_member_cannot_wipe_a_topic_by_starting_its_newest_list(bot: Bot) -> None:
    """In a topic as in a chat: deleting more than one's own list is for the admins."""
    t1, _t2 = forum(bot)
    bot.api.set_admins(FORUM, [ADMIN])
    await ok(bot, "/neu Anna Bernd Carla", t1)
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen", t1)
    await ok(bot, "/abschluss ja", t1, user_id=MEMBER)
    await ok(bot, "/neu X Y Z", t1, user_id=MEMBER)
    before = await export(bot, t1)
    for message in ("/loeschen", "/loeschen ja"):
        out = await say(bot, message, t1, user_id=MEMBER)
        reply = "\n".join(o.text for o in out)
        assert any(o.refusal for o in out), reply
        assert "Löschen dürfen nur die Admins" in reply and "/loeschen liste" in reply, reply
    assert await export(bot, t1) == before
    gone = await ok(bot, "/loeschen liste ja", t1, "Gelöscht: Liste Nr. 2", user_id=MEMBER)
    assert "Es bleibt 1 Liste mit 1 Spiel" in gone, gone
    assert "Anna" in await text(bot, "/stand", t1)


async def test_the_delete_button_in_a_topic_deletes_that_topic(bot: Bot) -> None:
    t1, t2 = forum(bot)
    bot.api.set_admins(FORUM, [ADMIN])
    await ok(bot, "/neu Anna Bernd Carla", t1)
    await ok(bot, "/neu Dora Emil Frieda", t2)
    await say(bot, "/loeschen", t1, user_id=ADMIN)
    ask = bot.api.messages(FORUM, thread_id=t1)[-1]
    before = len(bot.api.calls)
    data = buttons(ask)["🗑 Ja, alles löschen"]
    uid = bot.api.push_callback(data, message_id=ask.message_id, chat_id=FORUM, user_id=ADMIN)
    await bot.api.wait_confirmed(uid, timeout=15)
    out = _outs(bot.api.calls[before:])
    assert [o.thread for o in out] == [t1] and "Gelöscht" in out[0].text
    assert "/neu" in await text(bot, "/stand", t1)
    assert "Dora" in await ok(bot, "/stand", t2)


# --- a reply thread is no topic ----------------------------------------------------------------


async def test_a_reply_in_a_plain_supergroup_uses_the_chats_list(bot: Bot) -> None:
    chat = -1005005
    bot.api.add_chat(chat, chat_type="supergroup")
    await ok(bot, "/neu Anna Bernd Carla", None, chat_id=chat)
    start = bot.api.messages(chat)[-1]
    # In a supergroup without topics a reply carries message_thread_id (its reply thread)
    # but no is_topic_message: it is no place of its own.
    before = len(bot.api.calls)
    message = {
        "message_id": 5000,
        "from": {"id": 1, "is_bot": False, "first_name": "Spieler"},
        "chat": {"id": chat, "type": "supergroup", "title": "Skatrunde"},
        "date": int(time.time()),
        "text": "/spiel Anna grand ohne 1 hand gewonnen",
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        "message_thread_id": start.message_id,
        "reply_to_message": dict(start.obj),
    }
    uid = bot.api.push_update({"message": message})
    await bot.api.wait_confirmed(uid, timeout=15)
    out = _outs(bot.api.calls[before:], chat, bot.refusals)
    assert len(out) == 1 and out[0].thread is None and "Anna" in out[0].text
    assert not out[0].refusal
    assert bot.db.run_read(lambda s: s.scalar(select(func.count()).select_from(Topic))) == 0
    docs = [o.document for o in await say(bot, "/export", None, chat_id=chat) if o.document]
    assert announcements(json.loads(docs[0][1])) == ["Anna: Grand ohne 1 Hand +"]


# --- places ------------------------------------------------------------------------------------


async def test_topic_places_are_stable_distinct_and_outside_telegrams_ids(bot: Bot) -> None:
    def allocate(session):  # type: ignore[no-untyped-def]
        a = topic_places.place_id(session, FORUM, 11)
        b = topic_places.place_id(session, FORUM, 12)
        c = topic_places.place_id(session, -1009002, 11)
        return (
            a,
            b,
            c,
            topic_places.place_id(session, FORUM, 11),
            topic_places.place_id(session, FORUM, 0),
        )

    a, b, c, again, general = bot.db.run_write(allocate)
    assert len({a, b, c}) == 3 and again == a and general == FORUM
    assert all(is_topic_place(p) and p >= 2**53 for p in (a, b, c))
    # Telegram's ids (52 significant bits) are never topic places, users' nor chats'
    for telegram_id in (FORUM, -(2**52) + 1, 2**52 - 1, 1):
        assert not is_topic_place(telegram_id)
    assert bot.db.run_read(lambda s: topic_places.chat_topic_places(s, FORUM)) == [a, b]

    # concurrent first use of one topic by several units (PostgreSQL: several connections)
    async def first_use() -> int:
        return await bot.db.write(lambda s: topic_places.place_id(s, FORUM, 99), offload=True)

    found = await asyncio.gather(*(first_use() for _ in range(4)))
    assert len(set(found)) == 1


def test_a_topics_first_use_racing_another_finds_its_place(db: Database) -> None:
    """Two instances see a topic for the first time at once (PostgreSQL): the second insert
    waits for the first, fails on the unique key and then finds the first one's place."""
    if db.write_engine.dialect.name != "postgresql":
        pytest.skip("SQLite serialises writers: no two first uses can interleave")
    make = sessionmaker(db.write_engine)
    with make() as first, make() as second:
        place = topic_places.place_id(first, FORUM, 77)  # inserted, not yet committed
        seen: list[int] = []

        def other() -> None:
            seen.append(topic_places.place_id(second, FORUM, 77))  # waits on first's insert
            second.commit()

        thread = threading.Thread(target=other)
        thread.start()
        time.sleep(0.3)
        assert thread.is_alive() and not seen  # blocked on the unique key
        first.commit()
        thread.join(10)
    assert seen == [place]


# --- group -> supergroup ------------------------------------------------------------------------


async def test_a_supergroup_move_takes_every_topics_list_along(bot: Bot) -> None:
    """Forums are always supergroups, so Telegram never moves one; should it, every topic's
    list goes along with the chat's own (the topics are stored here directly, as a group
    cannot have them)."""
    from tests.robustness.test_admin import _migration

    old, new = -4711, -1004711
    await ok(bot, "/neu Xaver Yvonne Zora", None, chat_id=old)

    def topic_list(session):  # type: ignore[no-untyped-def]
        from skatbot.storage.database import ensure_chat

        place = topic_places.place_id(session, old, 5)
        ensure_chat(session, place)
        lists_store.create_list(
            session, place, ["Anna", "Bernd", "Carla"],
            first_dealer=0, series_length=36, rules="isko", seed="abcd", user_id=1,
        )  # fmt: skip
        return place

    place = bot.db.run_write(topic_list)
    for in_old in (True, False):
        uid = _migration(bot, in_old=in_old, old=old, new=new)
        await bot.api.wait_confirmed(uid, timeout=15)
    topics = bot.db.run_read(
        lambda s: s.execute(select(Topic.telegram_chat_id, Topic.thread_id)).all()
    )
    assert [tuple(t) for t in topics] == [(new, 5)]
    assert bot.db.run_write(lambda s: topic_places.place_id(s, new, 5)) == place
    bot.api.add_forum(new)
    bot.api.topics[new][5] = "Tisch 1"
    assert "Anna" in await ok(bot, "/stand", 5, chat_id=new)
    assert "Xaver" in await ok(bot, "/stand", None, chat_id=new)


# --- main's first topic tests, on the helpers above --------------------------------------------


async def test_two_tables_in_two_topics_of_one_group(bot: Bot) -> None:
    bot.api.add_forum(FORUM, title="Skatclub")
    # the chat's list from before topics stays where it was (General)
    assert "Neue Liste" in await text(bot, "/neu Olga Paul Quirin", None)
    t1 = bot.api.create_topic(FORUM, "Tisch 1")
    t2 = bot.api.create_topic(FORUM, "Tisch 2")
    assert "Neue Liste" in await text(bot, "/neu Anna Bernd Carla", t1)
    assert "Neue Liste" in await text(bot, "/neu Dora Emil Frieda Gustav", t2)
    # interleaved entries: each lands in its own topic's list
    assert "Spiel 1/36" in await text(bot, "/spiel Anna grand ohne 1 hand gewonnen", t1)
    assert "Spiel 1/48" in await text(bot, "/spiel Emil herz mit 2 verloren", t2)
    refused = await text(bot, "/spiel Anna karo mit 1 g", t2)
    assert "spielt in dieser Liste nicht mit" in refused
    assert "Spiel 2/36" in await text(bot, "/spiel Bernd pik ohne 1 gewonnen", t1)
    stand1 = await text(bot, "/stand", t1)
    assert "Anna" in stand1 and "Emil" not in stand1
    stand2 = await text(bot, "/liste", t2)
    assert "Emil" in stand2 and "Anna" not in stand2
    assert "Olga" in await text(bot, "/stand", None)
    # the button builder opens in the topic
    assert "Wer spielt?" in await text(bot, "/spiel", t1)
    # exports per topic
    e1, e2, e0 = await export(bot, t1), await export(bot, t2), await export(bot, None)
    assert e1["players"] == ["Anna", "Bernd", "Carla"] and len(e1["games"]) == 2
    assert e2["players"] == ["Dora", "Emil", "Frieda", "Gustav"] and len(e2["games"]) == 1
    assert e0["players"] == ["Olga", "Paul", "Quirin"] and e0["games"] == []
    # the PDF of a topic goes to the topic (say() checks every reply's thread)
    assert any(o.document for o in await say(bot, "/pdf", t2))


async def test_rules_and_deletion_are_per_topic(bot: Bot) -> None:
    bot.api.add_forum(FORUM, title="Skatclub")
    t1 = bot.api.create_topic(FORUM, "Tisch 1")
    t2 = bot.api.create_topic(FORUM, "Tisch 2")
    bot.api.set_admins(FORUM, [1])
    await say(bot, "/regeln haus", t1)
    await say(bot, "/neu Anna Bernd Carla", t1)
    await say(bot, "/neu Dora Emil Frieda", t2)
    assert (await export(bot, t1))["rules"] == "haus"
    assert (await export(bot, t2))["rules"] == "isko"
    await say(bot, "/loeschen", t1)
    confirm = [m for m in bot.api.messages(FORUM, thread_id=t1) if m.buttons]
    data = confirm[-1].buttons[0][0]["callback_data"]
    uid = bot.api.push_callback(data, message_id=confirm[-1].message_id, chat_id=FORUM)
    await bot.api.wait_confirmed(uid, timeout=15)
    assert "gibt es noch keine Liste" in await text(bot, "/stand", t1)
    assert "Dora" in await text(bot, "/stand", t2)


async def test_a_reply_thread_in_an_ordinary_supergroup_is_no_topic(bot: Bot) -> None:
    chat = -1007
    await bot.say("/neu Anna Bernd Carla", chat_id=chat)
    # a reply in a supergroup without topics carries message_thread_id, but no is_topic_message
    uid = bot.api.push_update(
        {
            "message": {
                "message_id": 9001,
                "message_thread_id": 1,
                "from": {"id": 1, "is_bot": False, "first_name": "Spieler"},
                "chat": {"id": chat, "type": "supergroup", "title": "Skatrunde"},
                "date": 0,
                "text": "/spiel Anna grand ohne 1 hand gewonnen",
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
            }
        }
    )
    await bot.api.wait_confirmed(uid, timeout=15)
    stand = await bot.text("/stand", chat_id=chat)
    assert "Anna 122" in stand  # booked into the chat's own list


async def test_start_in_a_topic_is_the_group_greeting(bot: Bot) -> None:
    """A topic's place id is no Telegram id: /start in a topic answers as in a group."""
    t1, _ = forum(bot)
    greeting = await text(bot, "/start", t1)
    assert "Füge mich einer Gruppe hinzu" not in greeting
    before = len(bot.api.calls)
    uid = bot.api.push_message("/start", chat_id=4242, user_id=4242, chat_type="private")
    await bot.api.wait_confirmed(uid, timeout=15)
    private = " ".join(o.text for o in _outs(bot.api.calls[before:], 4242))
    assert "Füge mich einer Gruppe hinzu" in private
