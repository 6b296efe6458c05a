"""Both stand-ins (the console's ``BotApiServer`` and the strict ``FakeBotApi``) take and
refuse rich messages as the Bot API documents them (``InputRichMessage``, Rich Message
Limits): up to 32,768 characters of text, up to 500 blocks (table rows count), up to 20
table columns, up to 16 levels of nesting; exactly one of ``html`` and ``markdown``. Each
limit is checked at the limit (taken) and one past it (refused with 400). A server before
Bot API 10.1 answers ``sendRichMessage`` with 404 ``Not Found: method not found``, as the
real telegram-bot-api server does for every method it does not know."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from skatbot.standin.rich import MAX_BLOCKS, MAX_COLUMNS, MAX_DEPTH, MAX_TEXT
from tests.standin.fake_telegram import FakeBotApi
from tests.standin.server import BotApiServer

GROUP = -1001


@pytest.fixture(params=["console", "strict"])
async def api(request: pytest.FixtureRequest) -> AsyncIterator[BotApiServer]:
    server = BotApiServer() if request.param == "console" else FakeBotApi(rich_messages=True)
    async with server:
        server.add_chat(GROUP)
        yield server


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as c:
        yield c


async def call(
    client: httpx.AsyncClient, api: BotApiServer, method: str, **params: Any
) -> tuple[int, dict[str, Any]]:
    res = await client.post(f"{api.url}/bot{api.token}/{method}", json=params)
    return res.status_code, res.json()


async def send(client: httpx.AsyncClient, api: BotApiServer, rich: dict[str, Any]) -> int:
    status, answer = await call(client, api, "sendRichMessage", chat_id=GROUP, rich_message=rich)
    assert answer["ok"] is (status == 200), answer
    return status


def table(rows: int, columns: int = 2) -> str:
    cells = "".join(f"<td>{c}</td>" for c in range(columns))
    return "<table>" + f"<tr>{cells}</tr>" * rows + "</table>"


async def test_text_up_to_32768_characters(api: BotApiServer, client: httpx.AsyncClient) -> None:
    assert await send(client, api, {"html": f"<p>{'x' * MAX_TEXT}</p>"}) == 200
    assert await send(client, api, {"html": f"<p>{'x' * (MAX_TEXT + 1)}</p>"}) == 400
    # markup is not text: the same characters spread over cells and entities still fit
    half = "ä" * (MAX_TEXT // 2)
    assert await send(client, api, {"html": f"<p><b>{half}</b><i>{half}</i></p>"}) == 200


async def test_up_to_500_blocks_table_rows_counted(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    # a heading and a table: 1 + 1 + rows blocks
    rows = MAX_BLOCKS - 2
    assert await send(client, api, {"html": "<h3>Liste</h3>" + table(rows)}) == 200
    assert await send(client, api, {"html": "<h3>Liste</h3>" + table(rows + 1)}) == 400
    paragraphs = "<p>x</p>" * MAX_BLOCKS
    assert await send(client, api, {"html": paragraphs}) == 200
    assert await send(client, api, {"html": paragraphs + "<p>x</p>"}) == 400


async def test_up_to_20_table_columns(api: BotApiServer, client: httpx.AsyncClient) -> None:
    assert await send(client, api, {"html": table(3, MAX_COLUMNS)}) == 200
    assert await send(client, api, {"html": table(3, MAX_COLUMNS + 1)}) == 400


async def test_up_to_16_levels_of_nesting(api: BotApiServer, client: httpx.AsyncClient) -> None:
    def nested(levels: int) -> str:  # <p> is one level, each <b>/<i> one more
        inner = ["b", "i"] * levels
        tags = inner[: levels - 1]
        return (
            "<p>"
            + "".join(f"<{t}>" for t in tags)
            + "x"
            + "".join(f"</{t}>" for t in reversed(tags))
            + "</p>"
        )

    assert await send(client, api, {"html": nested(MAX_DEPTH)}) == 200
    assert await send(client, api, {"html": nested(MAX_DEPTH + 1)}) == 400


async def test_exactly_one_of_html_and_markdown(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    assert await send(client, api, {}) == 400
    assert await send(client, api, {"html": "<p>a</p>", "markdown": "a"}) == 400
    assert await send(client, api, {"html": ""}) == 400


async def test_broken_rich_html_is_refused(api: BotApiServer, client: httpx.AsyncClient) -> None:
    for html in (
        "<p>offen",  # unclosed
        "<p>a</b></p>",  # a stray end tag
        "<script>x</script>",  # not a rich message tag
        "<td>a</td>",  # a cell outside a table
        "<table><tr><td align='oben'>a</td></tr></table>",  # no such alignment
    ):
        assert await send(client, api, {"html": html}) == 400, html
    # nothing was stored
    assert all(c.status == 400 for c in api.calls if c.method == "sendRichMessage")


async def test_a_table_is_read_as_sent(api: BotApiServer, client: httpx.AsyncClient) -> None:
    html = (
        "<h3>Liste 1</h3><table><tr><th>Nr</th><th>Anna</th></tr>"
        '<tr><td>1.</td><td align="right"><b>72</b></td></tr>'
        '<tr><td><s>2.</s></td><td align="right"><s>-48</s></td></tr></table>'
    )
    status, answer = await call(
        client, api, "sendRichMessage", chat_id=GROUP, rich_message={"html": html}
    )
    assert status == 200
    msg = api.message(GROUP, answer["result"]["message_id"])
    assert msg.rich is not None and msg.rich_html == html
    [rows] = msg.rich.tables()
    assert [[c.text for c in r] for r in rows] == [["Nr", "Anna"], ["1.", "72"], ["2.", "-48"]]
    assert [c.header for c in rows[0]] == [True, True]
    assert rows[1][1].right and all(c.struck for c in rows[2])


async def test_a_server_before_10_1_does_not_know_the_method(client: httpx.AsyncClient) -> None:
    for old in (BotApiServer(rich_messages=False), FakeBotApi()):
        async with old:
            old.add_chat(GROUP)
            status, answer = await call(
                client, old, "sendRichMessage", chat_id=GROUP, rich_message={"html": "<p>a</p>"}
            )
            assert (status, answer["description"]) == (404, "Not Found: method not found")
            # editMessageText there knows no rich_message: without text it is empty
            _, sent = await call(client, old, "sendMessage", chat_id=GROUP, text="Stand")
            mid = sent["result"]["message_id"]
            status, answer = await call(
                client,
                old,
                "editMessageText",
                chat_id=GROUP,
                message_id=mid,
                rich_message={"html": "<p>b</p>"},
            )
            assert (status, answer["description"]) == (400, "Bad Request: message text is empty")
            assert old.message(GROUP, mid).text == "Stand"


async def test_rich_edits_and_not_modified(api: BotApiServer, client: httpx.AsyncClient) -> None:
    _, sent = await call(client, api, "sendMessage", chat_id=GROUP, text="Stand")
    ident = {"chat_id": GROUP, "message_id": sent["result"]["message_id"]}
    rich = {"html": table(2)}
    status, _ = await call(client, api, "editMessageText", **ident, rich_message=rich)
    assert status == 200
    assert api.message(GROUP, ident["message_id"]).rich is not None
    if isinstance(api, FakeBotApi):  # the strict one refuses an identical edit, as Telegram
        status, answer = await call(client, api, "editMessageText", **ident, rich_message=rich)
        assert status == 400 and "message is not modified" in answer["description"]
    # a rich edit over a limit is refused and leaves the message as it was
    status, _ = await call(
        client, api, "editMessageText", **ident, rich_message={"html": table(3, MAX_COLUMNS + 1)}
    )
    assert status == 400
    assert len(api.message(GROUP, ident["message_id"]).rich.tables()[0]) == 2  # type: ignore[union-attr]


# -- button rows inside the message (Bot API 10.3) ---------------------------------------------


def row(*buttons: str) -> str:
    return "<p>Liste</p><tg-button-row>" + "".join(buttons) + "</tg-button-row>"


def callback(data: str, label: str = "weiter ▶", more: str = "") -> str:
    return f'<tg-button type="callback_data" data="{data}"{more}>{label}</tg-button>'


@pytest.mark.parametrize(
    ("html", "why"),
    [
        (row(*[callback(f"p{i}") for i in range(9)]), "a row has at most 8 buttons"),
        (row(), "and at least one"),
        (row(callback("x" * 65)), "callback data over 64 bytes"),
        (row(callback("ä" * 33)), "64 bytes, not characters"),
        (row(callback("")), "callback data of at least 1 byte"),
        (row(callback("p1", more=" disabled")), "exactly one action: disabled is one"),
        (row(callback("p1", label="<b>weiter</b>")), "a label is plain text"),
        (row(callback("p1", label=" ")), "a label is not empty"),
        (row('<tg-button type="url" url="https://x.de" style="link">x</tg-button>'), "link style"),
        (row('<tg-button type="callback_game">x</tg-button>'), "a type it does not know"),
        ("<table><tr><td>" + row(callback("p1")) + "</td></tr></table>", "a row inside a block"),
        (row(callback("p1")).replace("<tg-button-row>", '<tg-button-row align="middle">'), ""),
    ],
)
async def test_button_rows_refused_as_telegram_refuses_them(
    api: BotApiServer, client: httpx.AsyncClient, html: str, why: str
) -> None:
    assert await send(client, api, {"html": html}) == 400, why


async def test_button_rows_taken_at_their_limits(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    eight = [callback(f"v1:ls:{i}:{'9' * 50}"[:64]) for i in range(7)]
    html = row(*eight, "<tg-button disabled>◀ zurück (erste Seite)</tg-button>")
    html += row(callback("ä" * 32, more=' style="link"'))  # 64 bytes
    assert await send(client, api, {"html": html}) == 200
