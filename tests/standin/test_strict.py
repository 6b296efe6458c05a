"""The stand-in is as strict as Telegram: limits, HTML, unchanged edits, callback data, forum
topics, flood control, inline answers and the bot's membership - each driven over HTTP, with
raw ``httpx`` (to read Telegram's exact answer), or with PTB's ``Bot`` (to prove PTB
understands it) over HTTP and in process alike (``transport``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from telegram import (
    Bot,
    InlineQueryResultArticle,
    InputTextMessageContent,
)
from telegram.error import BadRequest, Forbidden, RetryAfter

from skatbot.standin.botapi import BOT_ID
from skatbot.standin.request import InProcessRequest
from tests.standin.fake_telegram import GENERAL_TOPIC, TOPIC_ICON_COLORS, FakeBotApi

GROUP = -1001
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)


class Clock:
    """A hand-moved clock for the flood control."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi() as fake:
        fake.add_chat(GROUP)
        yield fake


@pytest.fixture(params=["http", "in-process"])
def transport(request: pytest.FixtureRequest) -> str:
    """How PTB's ``Bot`` reaches the stand-in: over loopback HTTP (``HTTPXRequest``) or in
    process (``InProcessRequest``, the console's); the answers are the same."""
    return str(request.param)


def ptb(api: FakeBotApi, transport: str) -> Bot:
    if transport == "in-process":
        return Bot(
            api.token, request=InProcessRequest(api), get_updates_request=InProcessRequest(api)
        )
    return Bot(api.token, base_url=f"{api.url}/bot")


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as c:
        yield c


async def call(
    client: httpx.AsyncClient, api: FakeBotApi, method: str, **params: Any
) -> tuple[int, dict[str, Any]]:
    """POST a Bot API call as JSON; returns (HTTP status, answer)."""
    res = await client.post(f"{api.url}/bot{api.token}/{method}", json=params)
    return res.status_code, res.json()


async def refused(
    client: httpx.AsyncClient, api: FakeBotApi, method: str, **params: Any
) -> tuple[int, str]:
    status, answer = await call(client, api, method, **params)
    assert answer["ok"] is False, answer
    assert answer["error_code"] == status
    return status, str(answer["description"])


async def ok(client: httpx.AsyncClient, api: FakeBotApi, method: str, **params: Any) -> Any:
    status, answer = await call(client, api, method, **params)
    assert status == 200 and answer["ok"] is True, answer
    return answer["result"]


def keyboard(*data: str) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": d or "leer", "callback_data": d} for d in data]]}


# -- 1. lengths after entity parsing, in UTF-16 code units -----------------------------------


async def test_text_limit_counts_utf16_after_parsing(
    api: FakeBotApi, client: httpx.AsyncClient
) -> None:
    await ok(client, api, "sendMessage", chat_id=GROUP, text="x" * 4096)
    assert await refused(client, api, "sendMessage", chat_id=GROUP, text="x" * 4097) == (
        400,
        "Bad Request: message is too long",
    )
    # markup and entities are free: 4,096 characters of text in 4,096 x "&amp;" plus tags
    html = "<b>" + "&amp;" * 4096 + "</b>"
    result = await ok(client, api, "sendMessage", chat_id=GROUP, text=html, parse_mode="HTML")
    assert result["text"] == "&" * 4096
    assert result["entities"] == [{"type": "bold", "offset": 0, "length": 4096}]
    # an emoji outside the BMP is 2 code units: 2,049 Python characters are 4,097 units
    await ok(client, api, "sendMessage", chat_id=GROUP, text="🂡" * 2048)
    status, description = await refused(
        client, api, "sendMessage", chat_id=GROUP, text="🂡" * 2048 + "x"
    )
    assert (status, description) == (400, "Bad Request: message is too long")
    assert len(api.messages(GROUP)) == 3  # refused sends leave nothing behind


async def test_empty_text_refused(api: FakeBotApi, client: httpx.AsyncClient) -> None:
    for text, mode in (("", None), ("  \n", None), ("<b> </b>", "HTML")):
        params: dict[str, Any] = {"chat_id": GROUP, "text": text}
        if mode:
            params["parse_mode"] = mode
        assert await refused(client, api, "sendMessage", **params) == (
            400,
            "Bad Request: message text is empty",
        )
    assert api.messages(GROUP) == []


async def test_caption_limit_and_edit_limits(api: FakeBotApi, transport: str) -> None:
    async with ptb(api, transport) as bot:
        await bot.send_document(
            GROUP, b"%PDF", filename="a.pdf", caption="<b>x</b>" * 1024, parse_mode="HTML"
        )
        with pytest.raises(BadRequest, match=r"^Message caption is too long$"):
            await bot.send_document(GROUP, b"%PDF", filename="b.pdf", caption="🂡" * 512 + "x")
        doc = await bot.send_document(GROUP, b"%PDF", filename="c.pdf", caption="🂡" * 512)
        with pytest.raises(BadRequest, match=r"^Message caption is too long$"):
            await bot.edit_message_caption(GROUP, doc.message_id, caption="y" * 1025)
        msg = await bot.send_message(GROUP, "kurz")
        with pytest.raises(BadRequest, match=r"^Message is too long$"):
            await bot.edit_message_text("🂡" * 2049, GROUP, msg.message_id)
    assert [d[0] for d in api.documents(GROUP)] == ["a.pdf", "c.pdf"]
    assert api.message(GROUP, msg.message_id).text == "kurz"


# -- 2. HTML parse mode ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "reason"),
    [
        ("<div>x</div>", 'Unsupported start tag "div" at byte offset 0'),
        ("<br>", 'Unsupported start tag "br" at byte offset 0'),
        ("ä <b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
        ("3 < 4", 'Unsupported start tag "" at byte offset 2'),
        ("x <b", "Unclosed start tag at byte offset 2"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler"'),
        ("Grand & Hand", 'Character "&" at byte offset 6 must be escaped as "&amp;"'),
        ("&nbsp;", 'Character "&" at byte offset 0 must be escaped as "&amp;"'),
    ],
)
async def test_broken_html_refused(
    api: FakeBotApi, client: httpx.AsyncClient, html: str, reason: str
) -> None:
    status, description = await refused(
        client, api, "sendMessage", chat_id=GROUP, text=html, parse_mode="HTML"
    )
    assert status == 400
    assert description.startswith(f"Bad Request: can't parse entities: {reason}")
    assert api.messages(GROUP) == []


async def test_good_html_accepted(api: FakeBotApi, client: httpx.AsyncClient) -> None:
    html = (
        '<b>A</b> &lt;&gt;&amp;&quot;&#228;&#xE4; <a href="https://e.x/?a=1&amp;b=2">l</a> '
        '<pre><code class="language-text">c</code></pre><blockquote expandable>q</blockquote>'
        '<tg-spoiler>s</tg-spoiler><span class="tg-spoiler">t</span>'
    )
    result = await ok(client, api, "sendMessage", chat_id=GROUP, text=html, parse_mode="HTML")
    assert result["text"] == 'A <>&"ää l cqst'
    types = [e["type"] for e in result["entities"]]
    assert types == ["bold", "text_link", "pre", "expandable_blockquote", "spoiler", "spoiler"]
    assert result["entities"][1]["url"] == "https://e.x/?a=1&b=2"
    # without parse_mode nothing is parsed: a bare "&" or "<" is just text
    await ok(client, api, "sendMessage", chat_id=GROUP, text="3 < 4 & 5")


# -- 3. "message is not modified" ------------------------------------------------------------


async def test_unchanged_edits_refused(
    api: FakeBotApi, client: httpx.AsyncClient, transport: str
) -> None:
    msg = await ok(
        client,
        api,
        "sendMessage",
        chat_id=GROUP,
        text="<b>Stand</b>",
        parse_mode="HTML",
        reply_markup=keyboard("a"),
    )
    ident = {"chat_id": GROUP, "message_id": msg["message_id"]}
    same = {"text": "<strong>Stand</strong>", "parse_mode": "HTML", "reply_markup": keyboard("a")}
    assert await refused(client, api, "editMessageText", **ident, **same) == (400, NOT_MODIFIED)
    assert await refused(
        client, api, "editMessageReplyMarkup", **ident, reply_markup=keyboard("a")
    ) == (400, NOT_MODIFIED)
    # the same characters without the bold entity are a change
    await ok(client, api, "editMessageText", **ident, text="Stand", reply_markup=keyboard("a"))
    # a different keyboard alone is a change, removing it too; no keyboard == empty keyboard
    await ok(client, api, "editMessageReplyMarkup", **ident, reply_markup=keyboard("b"))
    await ok(client, api, "editMessageReplyMarkup", **ident)
    assert await refused(
        client, api, "editMessageReplyMarkup", **ident, reply_markup={"inline_keyboard": []}
    ) == (400, NOT_MODIFIED)
    assert api.message(GROUP, msg["message_id"]).edits == 3

    async with ptb(api, transport) as bot:
        doc = await bot.send_document(GROUP, b"%PDF", filename="l.pdf", caption="Liste")
        with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
            await bot.edit_message_caption(GROUP, doc.message_id, caption="Liste")
        await bot.edit_message_caption(
            GROUP, doc.message_id, caption="<i>Liste</i>", parse_mode="HTML"
        )
        with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
            await bot.edit_message_caption(
                GROUP, doc.message_id, caption="<em>Liste</em>", parse_mode="HTML"
            )


# -- 4. callback data, callback answers, the current keyboard in callback queries -------------


async def test_callback_data_bytes_on_every_button(
    api: FakeBotApi, client: httpx.AsyncClient
) -> None:
    await ok(client, api, "sendMessage", chat_id=GROUP, text="k", reply_markup=keyboard("ä" * 32))
    for data in ("ä" * 33, "x" * 65, ""):
        markup = {
            "inline_keyboard": [
                [{"text": "ok", "callback_data": "ok"}],
                [{"text": "B", "callback_data": data}],
            ]
        }
        assert await refused(
            client, api, "sendMessage", chat_id=GROUP, text="k", reply_markup=markup
        ) == (400, "Bad Request: BUTTON_DATA_INVALID")
    msg = api.messages(GROUP)[0]
    ident = {"chat_id": GROUP, "message_id": msg.message_id}
    bad = keyboard("y" * 65)
    for method, extra in (("editMessageText", {"text": "neu"}), ("editMessageReplyMarkup", {})):
        assert await refused(client, api, method, **ident, **extra, reply_markup=bad) == (
            400,
            "Bad Request: BUTTON_DATA_INVALID",
        )
    _, description = await refused(
        client,
        api,
        "sendMessage",
        chat_id=GROUP,
        text="k",
        reply_markup={"inline_keyboard": [[{"text": "nur Text"}]]},
    )
    assert "Text buttons are unallowed in the inline keyboard" in description
    assert msg.text == "k" and msg.edits == 0


async def test_callback_answer_limit_and_current_keyboard(
    api: FakeBotApi, client: httpx.AsyncClient
) -> None:
    msg = await ok(
        client, api, "sendMessage", chat_id=GROUP, text="Wähle", reply_markup=keyboard("alt")
    )
    ident = {"chat_id": GROUP, "message_id": msg["message_id"]}
    await ok(client, api, "editMessageReplyMarkup", **ident, reply_markup=keyboard("neu", "2"))
    api.push_callback("neu", message_id=msg["message_id"], chat_id=GROUP)
    [update] = await ok(client, api, "getUpdates")
    query = update["callback_query"]
    assert query["message"]["reply_markup"] == keyboard("neu", "2")  # after the edit
    assert await refused(
        client, api, "answerCallbackQuery", callback_query_id=query["id"], text="🂡" * 100 + "x"
    ) == (400, "Bad Request: MESSAGE_TOO_LONG")
    # refused: the query is still open, 200 characters are fine, a second answer is too late
    await ok(client, api, "answerCallbackQuery", callback_query_id=query["id"], text="x" * 200)
    assert await refused(client, api, "answerCallbackQuery", callback_query_id=query["id"]) == (
        400,
        TOO_OLD,
    )


# -- 5. forum topics --------------------------------------------------------------------------


async def test_forum_topics(api: FakeBotApi, client: httpx.AsyncClient, transport: str) -> None:
    forum = -1002
    api.add_forum(forum, title="Skatclub")
    async with ptb(api, transport) as bot:
        with pytest.raises(BadRequest, match=r"(?i)not enough rights to create a topic"):
            await bot.create_forum_topic(forum, "Tisch 1")  # the bot is no admin yet
        api.set_admins(forum, [BOT_ID])
        topic = await bot.create_forum_topic(forum, "Tisch 1")
        with pytest.raises(BadRequest, match=r"(?i)the chat is not a forum"):
            await bot.create_forum_topic(GROUP, "Tisch 1")
        chat = await bot.get_chat(forum)
    assert chat.is_forum is True and chat.type == "supergroup"
    assert topic.name == "Tisch 1" and topic.icon_color in TOPIC_ICON_COLORS
    table2 = api.create_topic(forum, "Tisch 2")
    assert api.topics[forum] == {topic.message_thread_id: "Tisch 1", table2: "Tisch 2"}

    one = await ok(
        client,
        api,
        "sendMessage",
        chat_id=forum,
        text="eins",
        message_thread_id=topic.message_thread_id,
    )
    assert one["message_thread_id"] == topic.message_thread_id
    assert one["is_topic_message"] is True
    await ok(client, api, "sendMessage", chat_id=forum, text="allgemein")
    await ok(client, api, "sendMessage", chat_id=forum, text="zwei", message_thread_id=table2)
    # thread ids are message ids of the topics' creation messages: no collisions
    assert len({one["message_id"], topic.message_thread_id, table2}) == 3

    def texts(thread_id: int | None) -> list[str | None]:
        return [m.text for m in api.messages(forum, thread_id=thread_id)]

    assert texts(None) == ["eins", "allgemein", "zwei"]
    assert texts(topic.message_thread_id) == ["eins"]
    assert texts(table2) == ["zwei"]
    assert texts(GENERAL_TOPIC) == ["allgemein"]
    assert [m.thread_id for m in api.messages(forum)] == [topic.message_thread_id, None, table2]

    missing = "Bad Request: message thread not found"
    assert await refused(
        client, api, "sendMessage", chat_id=forum, text="x", message_thread_id=999
    ) == (400, missing)
    # outside a forum Telegram ignores a thread id
    plain = await ok(client, api, "sendMessage", chat_id=GROUP, text="x", message_thread_id=5)
    assert "message_thread_id" not in plain and "is_topic_message" not in plain
    # the General topic is thread 1; its messages carry no thread id; topics start at 2
    general = await ok(
        client, api, "sendMessage", chat_id=forum, text="allgemein 2", message_thread_id=1
    )
    assert "message_thread_id" not in general
    assert min(topic.message_thread_id, table2) >= 2
    async with ptb(api, transport) as bot:
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_document(forum, b"%PDF", filename="x.pdf", message_thread_id=999)
        doc = await bot.send_document(forum, b"%PDF", filename="t.pdf", message_thread_id=table2)
        assert doc.message_thread_id == table2 and doc.is_topic_message
        # edits and pins need no thread id and keep the message in its topic
        edited = await bot.edit_message_text("eins!", forum, one["message_id"])
        assert edited.message_thread_id == topic.message_thread_id  # type: ignore[union-attr]
        assert await bot.pin_chat_message(forum, one["message_id"])
    assert texts(table2) == ["zwei", None]
    assert api.sent("sendMessage")[0].params["message_thread_id"] == topic.message_thread_id


async def test_closed_topics_refuse_posts(api: FakeBotApi, client: httpx.AsyncClient) -> None:
    forum = -1004
    api.add_forum(forum)
    table = api.create_topic(forum, "Tisch 1")
    api.close_topic(forum, table)
    closed = await refused(
        client, api, "sendMessage", chat_id=forum, text="x", message_thread_id=table
    )
    assert closed == (400, "Bad Request: TOPIC_CLOSED")
    await ok(client, api, "sendMessage", chat_id=forum, text="allgemein")  # General is open
    # the bot reopens it (it needs the right to manage topics)
    assert await refused(
        client, api, "reopenForumTopic", chat_id=forum, message_thread_id=table
    ) == (400, "Bad Request: not enough rights to manage topics")
    api.set_admins(forum, [BOT_ID])
    await ok(client, api, "reopenForumTopic", chat_id=forum, message_thread_id=table)
    await ok(client, api, "sendMessage", chat_id=forum, text="y", message_thread_id=table)
    await ok(client, api, "closeForumTopic", chat_id=forum, message_thread_id=table)
    assert (forum, table) in api.closed_topics


async def test_a_lone_surrogate_is_a_bad_request(
    api: FakeBotApi, client: httpx.AsyncClient
) -> None:
    body = b'{"chat_id": -1001, "text": "a\\ud800b"}'  # JSON allows it; UTF-8 cannot hold it
    res = await client.post(
        f"{api.url}/bot{api.token}/sendMessage",
        content=body,
        headers={"Content-Type": "application/json"},
    )
    status, answer = res.status_code, res.json()
    assert status == 400 and answer["ok"] is False
    assert "UTF-8" in answer["description"]


async def test_replies_in_topics(
    api: FakeBotApi, client: httpx.AsyncClient, transport: str
) -> None:
    forum = -1003
    uid = api.push_message("/stand", chat_id=forum, thread_id=77)  # main's helper still works
    [update] = await ok(client, api, "getUpdates", offset=uid)
    user_msg = update["message"]
    assert user_msg["message_thread_id"] == 77 and user_msg["chat"]["is_forum"] is True
    # a reply without message_thread_id lands in the replied-to message's topic (as in Telegram)
    reply = await ok(
        client,
        api,
        "sendMessage",
        chat_id=forum,
        text="Stand",
        reply_parameters={"message_id": user_msg["message_id"]},
    )
    assert reply["message_thread_id"] == 77
    # PTB's reply_text passes the thread itself
    async with ptb(api, transport) as bot:
        from telegram import Message

        message = Message.de_json(user_msg, bot)
        assert message is not None
        sent = await message.reply_text("auch hier")
    assert sent.message_thread_id == 77
    assert [m.text for m in api.messages(forum, thread_id=77)] == ["Stand", "auch hier"]
    assert api.messages(forum, thread_id=GENERAL_TOPIC) == []


# -- 6. flood control -------------------------------------------------------------------------


async def test_flood_control_sliding_window(client: httpx.AsyncClient, transport: str) -> None:
    clock = Clock()
    async with FakeBotApi(group_limit=3, group_window=10.0, clock=clock) as api:
        api.add_chat(GROUP)
        api.add_chat(-2002)
        api.add_chat(42, chat_type="private")
        for _ in range(3):
            # a refused (400) send does not count against the limit
            await refused(client, api, "sendMessage", chat_id=GROUP, text="<b>", parse_mode="HTML")
            await ok(client, api, "sendMessage", chat_id=GROUP, text="x")
            clock.now += 1  # sends at 1000, 1001, 1002
        clock.now = 1002.5
        status, answer = await call(client, api, "sendMessage", chat_id=GROUP, text="x")
        assert status == 429
        assert answer == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 8",  # ceil(1010 - 1002.5)
            "parameters": {"retry_after": 8},
        }
        status, answer = await call(client, api, "sendDocument", chat_id=GROUP, document="x")
        assert status == 429  # documents count too, and are refused before anything else
        # other chats are not affected: another group, a private chat
        await ok(client, api, "sendMessage", chat_id=-2002, text="x")
        for _ in range(5):
            await ok(client, api, "sendMessage", chat_id=42, text="x")
        clock.now = 1009.9999
        _, answer = await call(client, api, "sendMessage", chat_id=GROUP, text="x")
        assert answer["parameters"] == {"retry_after": 1}  # at least one second
        clock.now = 1010.0  # the first send left the window
        await ok(client, api, "sendMessage", chat_id=GROUP, text="frei")
        status, _ = await call(client, api, "sendMessage", chat_id=GROUP, text="x")
        assert status == 429
        assert api.flood_refusals == 4
        assert len(api.messages(GROUP)) == 4

        async with ptb(api, transport) as bot:
            with pytest.raises(RetryAfter) as info:
                await bot.send_message(GROUP, "zu viel")
        assert info.value.retry_after in (1, __import__("datetime").timedelta(seconds=1))


async def test_flood_control_default_and_off(client: httpx.AsyncClient) -> None:
    async with FakeBotApi() as api:  # the default: 20 per minute and group
        api.add_chat(GROUP)
        for i in range(20):
            await ok(client, api, "sendMessage", chat_id=GROUP, text=f"{i}")
        status, answer = await call(client, api, "sendMessage", chat_id=GROUP, text="21")
        assert (status, answer["description"]) == (429, "Too Many Requests: retry after 60")
    async with FakeBotApi(group_limit=None) as api:
        api.add_chat(GROUP)
        for i in range(30):
            await ok(client, api, "sendMessage", chat_id=GROUP, text=f"{i}")
        assert api.flood_refusals == 0


# -- 7. inline mode ---------------------------------------------------------------------------


def article(result_id: str, title: str = "Grand", text: str = "<b>72</b>") -> dict[str, Any]:
    return {
        "type": "article",
        "id": result_id,
        "title": title,
        "input_message_content": {"message_text": text, "parse_mode": "HTML"},
    }


async def test_answer_inline_query(
    api: FakeBotApi, client: httpx.AsyncClient, transport: str
) -> None:
    assert (await ok(client, api, "getMe"))["supports_inline_queries"] is True
    api.push_inline_query("grand ohne 1 hand", user_id=5)
    [update] = await ok(client, api, "getUpdates")
    query_id = update["inline_query"]["id"]

    async def bad(results: Any) -> str:
        _, description = await refused(
            client, api, "answerInlineQuery", inline_query_id=query_id, results=results
        )
        return description

    assert await bad([article(str(i)) for i in range(51)]) == "Bad Request: RESULTS_TOO_MUCH"
    assert await bad([article("a"), article("a")]) == "Bad Request: RESULT_ID_DUPLICATE"
    assert await bad([article("x" * 65)]) == "Bad Request: RESULT_ID_INVALID"
    assert await bad([article("")]) == "Bad Request: RESULT_ID_EMPTY"
    assert await bad([article("a", title="")]) == "Bad Request: ARTICLE_TITLE_EMPTY"
    assert await bad([{"type": "article", "id": "a", "input_message_content": {}}]) == (
        "Bad Request: can't parse inline query result: Can't find field \"title\""
    )
    assert (await bad([article("a", text="<b>72")])).startswith(
        "Bad Request: can't parse entities: Can't find end tag"
    )
    assert await bad([article("a", text="<b>x</b>" + "🂡" * 2048)]) == (
        "Bad Request: MESSAGE_TOO_LONG"
    )
    assert await bad([article("a", text="<i> </i>")]) == "Bad Request: message text is empty"
    bad_button = {**article("a"), "reply_markup": keyboard("z" * 65)}
    assert await bad([bad_button]) == "Bad Request: BUTTON_DATA_INVALID"
    assert api.inline_answers == []

    # all refusals left the query open: a valid answer (built by PTB) goes through once
    async with ptb(api, transport) as bot:
        result = InlineQueryResultArticle(
            id="ä" * 32,  # 64 bytes
            title="Grand ohne 1 Hand",
            input_message_content=InputTextMessageContent("<b>72</b> Punkte", parse_mode="HTML"),
        )
        assert await bot.answer_inline_query(query_id, [result], cache_time=0)
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_inline_query(query_id, [result])
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_inline_query("iq-unknown", [result])
    [answer] = api.inline_answers
    assert answer["inline_query_id"] == query_id
    assert answer["results"][0]["title"] == "Grand ohne 1 Hand"


async def test_inline_mode_off(client: httpx.AsyncClient) -> None:
    async with FakeBotApi(inline=False) as api:
        assert (await ok(client, api, "getMe"))["supports_inline_queries"] is False
        with pytest.raises(RuntimeError, match="inline mode is off"):
            api.push_inline_query("grand")


# -- 8. the bot's membership ------------------------------------------------------------------


async def test_kicked_and_left_bot_cannot_send(api: FakeBotApi, transport: str) -> None:
    api.add_chat(-1004, chat_type="supergroup")
    async with ptb(api, transport) as bot:
        await bot.send_message(GROUP, "da")
        api.push_my_chat_member(GROUP, "kicked")
        with pytest.raises(Forbidden, match=r"^Forbidden: bot was kicked from the group chat$"):
            await bot.send_message(GROUP, "weg")
        with pytest.raises(Forbidden, match="kicked from the group chat"):
            await bot.send_document(GROUP, b"%PDF", filename="x.pdf")
        assert (await bot.get_chat_member(GROUP, bot.id)).status == "kicked"
        api.push_my_chat_member(GROUP, "member")
        await bot.send_message(GROUP, "wieder da")
        api.push_my_chat_member(GROUP, "left")
        with pytest.raises(Forbidden, match=r"^Forbidden: bot is not a member of the group chat$"):
            await bot.send_message(GROUP, "weg")
        api.push_my_chat_member(GROUP, "administrator")
        await bot.send_message(GROUP, "als Admin")

        api.push_my_chat_member(-1004, "kicked")
        with pytest.raises(Forbidden, match="kicked from the supergroup chat"):
            await bot.send_message(-1004, "weg")
    assert [m.text for m in api.messages(GROUP)] == ["da", "wieder da", "als Admin"]
    updates = [u["my_chat_member"] for u in api.pending_updates]
    assert [(u["old_chat_member"]["status"], u["new_chat_member"]["status"]) for u in updates] == [
        ("member", "kicked"),
        ("kicked", "member"),
        ("member", "left"),
        ("left", "administrator"),
        ("member", "kicked"),
    ]


async def test_json_and_form_encodings_agree(api: FakeBotApi, client: httpx.AsyncClient) -> None:
    """PTB sends form fields (JSON-encoded non-strings): a thread id arrives as an int."""
    api.add_forum(-1005)
    thread = api.create_topic(-1005, "Tisch")
    res = await client.post(
        f"{api.url}/bot{api.token}/sendMessage",
        data={"chat_id": "-1005", "text": "42", "message_thread_id": json.dumps(thread)},
    )
    assert res.json()["result"]["message_thread_id"] == thread
    assert res.json()["result"]["text"] == "42"
