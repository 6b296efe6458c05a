"""Both stand-ins (the console's ``BotApiServer`` and the strict ``FakeBotApi``) know ephemeral
messages as the Bot API documents them ("Ephemeral Messages and Commands", 10.2 and 10.3):
a group message only its receiver sees, sent within 15 seconds of the receiver's tap or
ephemeral command, or at any time by an administrator bot; edited and deleted by
chat, receiver and ``ephemeral_message_id``. An older server (``api_version``) does not know
them: before 10.2 the parameters are ignored - the message goes to the whole group - and the
methods are 404; a 10.2 server ignores 10.3's ``ephemeral_message_parameters``, disabled
buttons and rich button rows. The console marks an ephemeral message with its one reader."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from telegram import Update
from telegram.ext import Application, ApplicationBuilder, CallbackQueryHandler, ContextTypes

from skatbot.standin.botapi import BotApi
from skatbot.standin.console import _Console
from skatbot.standin.rich import parse_rich
from skatbot.standin.versions import API_10_1, API_10_2, API_10_3
from tests.standin.fake_telegram import FakeBotApi
from tests.standin.server import BotApiServer

GROUP = -1001
ANNA, BERND = 7, 8
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


class Clock:
    """The stand-ins' time source, moved by hand (no waiting in tests)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as c:
        yield c


def stand_in(
    kind: str, clock: Clock, version: tuple[int, int] = API_10_3, *, rich_messages: bool = True
) -> BotApiServer:
    if kind == "console":
        return BotApiServer(clock=clock, api_version=version)
    return FakeBotApi(clock=clock, api_version=version, rich_messages=rich_messages)


@pytest.fixture(params=["console", "strict"])
async def api(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[BotApiServer]:
    async with stand_in(request.param, clock) as server:
        meet(server)
        yield server


@pytest.fixture
async def strict(clock: Clock) -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(clock=clock, rich_messages=True) as server:
        meet(server)
        yield server


def meet(api: BotApi) -> None:
    """Anna and Bernd have written in the group (they are its members)."""
    api.push_message("Hallo", chat_id=GROUP, user_id=ANNA, first_name="Anna")
    api.push_message("Moin", chat_id=GROUP, user_id=BERND, first_name="Bernd")


async def call(
    client: httpx.AsyncClient, api: BotApiServer, method: str, **params: Any
) -> tuple[int, dict[str, Any]]:
    res = await client.post(f"{api.url}/bot{api.token}/{method}", json=params)
    answer: dict[str, Any] = res.json()
    assert answer["ok"] is (res.status_code == 200), answer
    return res.status_code, answer


async def refused(client: httpx.AsyncClient, api: BotApiServer, method: str, **params: Any) -> str:
    status, answer = await call(client, api, method, **params)
    assert status >= 400, answer
    return str(answer["description"])


KEYBOARD = {"inline_keyboard": [[{"text": "Unterschreiben", "callback_data": "sign"}]]}


async def tap(
    client: httpx.AsyncClient, api: BotApiServer, user: int = ANNA, name: str = "Anna"
) -> str:
    """A public message with a button, pressed by ``user``: the callback query's id."""
    _, sent = await call(
        client, api, "sendMessage", chat_id=GROUP, text="Liste", reply_markup=KEYBOARD
    )
    update_id = api.push_callback(
        "sign",
        message_id=sent["result"]["message_id"],
        chat_id=GROUP,
        user_id=user,
        first_name=name,
    )
    return query_id(api, update_id)


def query_id(api: BotApi, update_id: int) -> str:
    update = next(u for u in api.pending_updates if u["update_id"] == update_id)
    return str(update["callback_query"]["id"])


def ephemeral(receiver: int = ANNA, **more: Any) -> dict[str, Any]:
    return {"ephemeral_message_parameters": {"receiver_user_id": receiver, **more}}


# -- sending ----------------------------------------------------------------------------------


async def test_an_answer_to_a_tap_only_its_tapper_sees(
    api: BotApiServer, client: httpx.AsyncClient, clock: Clock
) -> None:
    query = await tap(client, api)
    clock.now += 15  # "within 15 seconds of the incoming eligible action": 15 s is still in
    status, answer = await call(
        client,
        api,
        "sendMessage",
        chat_id=GROUP,
        text="Du bist Anna – für Bernd unterschreibt Bernd selbst.",
        **ephemeral(ANNA, callback_query_id=query),
    )
    assert status == 200
    message = answer["result"]
    assert message["message_id"] == 0  # "0 for ephemeral messages"
    assert message["ephemeral_message_id"] == 1
    assert message["receiver_user"]["id"] == ANNA
    assert [m.text for m in api.messages(GROUP)] == ["Liste"]  # the group sees nothing new
    (only,) = api.ephemeral_messages(GROUP, ANNA)
    assert only.text == "Du bist Anna – für Bernd unterschreibt Bernd selbst."
    assert api.ephemeral_messages(GROUP, BERND) == []


@pytest.mark.parametrize("version", [API_10_2, API_10_3])
async def test_the_10_2_parameters(
    version: tuple[int, int], client: httpx.AsyncClient, clock: Clock
) -> None:
    # 10.3 "replaced" them, but a server keeps reading a replaced parameter (as
    # reply_to_message_id after 7.0): both versions take them
    async with stand_in("strict", clock, version) as api:
        meet(api)
        query = await tap(client, api)
        status, answer = await call(
            client,
            api,
            "sendMessage",
            chat_id=GROUP,
            text="Nur für dich",
            receiver_user_id=ANNA,
            callback_query_id=query,
        )
        assert status == 200 and answer["result"]["receiver_user"]["id"] == ANNA
        assert api.ignored_params == []


async def test_an_admin_bot_needs_no_tap(strict: FakeBotApi, client: httpx.AsyncClient) -> None:
    text = "Bernd, du bist als Nächster dran."
    status, answer = await refused_or_sent(client, strict, text)
    assert (status, answer) == (400, "Bad Request: BOT_NOT_ADMIN")
    strict.set_admins(GROUP, [4242])
    status, _ = await refused_or_sent(client, strict, text)
    assert status == 200
    assert strict.ephemeral_messages(GROUP, BERND)[0].text == text


async def refused_or_sent(
    client: httpx.AsyncClient, api: BotApiServer, text: str
) -> tuple[int, str]:
    status, answer = await call(
        client, api, "sendMessage", chat_id=GROUP, text=text, **ephemeral(BERND)
    )
    return status, str(answer.get("description", ""))


async def test_documents_photos_and_rich_messages_too(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    query = await tap(client, api)
    res = await client.post(
        f"{api.url}/bot{api.token}/sendDocument",
        data={
            "chat_id": str(GROUP),
            "caption": "Deine Abrechnung",
            "receiver_user_id": str(ANNA),
            "callback_query_id": query,
        },
        files={"document": ("abrechnung.pdf", b"%PDF-1.4 x")},
    )
    assert res.status_code == 200, res.text
    assert res.json()["result"]["receiver_user"]["id"] == ANNA
    assert api.documents(GROUP) == []  # not the group's document
    status, answer = await call(
        client,
        api,
        "sendRichMessage",
        chat_id=GROUP,
        rich_message={"html": "<p>Dein Stand: 120</p>"},
        **ephemeral(ANNA, callback_query_id=query),
    )
    assert status == 200 and answer["result"]["ephemeral_message_id"] == 2


async def test_an_ephemeral_command_is_answered_ephemerally(
    api: BotApiServer, client: httpx.AsyncClient, clock: Clock
) -> None:
    commands = [
        {"command": "hilfe", "description": "Hilfe", "is_ephemeral": True},
        {"command": "stand", "description": "Stand"},
    ]
    assert (await call(client, api, "setMyCommands", commands=commands))[0] == 200
    _, listed = await call(client, api, "getMyCommands")
    assert listed["result"][0]["is_ephemeral"] is True
    with pytest.raises(RuntimeError, match="not declared"):
        api.push_ephemeral_command("/stand", chat_id=GROUP, user_id=ANNA)
    update_id = api.push_ephemeral_command("/hilfe", chat_id=GROUP, user_id=ANNA)
    incoming = next(u for u in api.pending_updates if u["update_id"] == update_id)["message"]
    assert incoming["message_id"] == 0 and incoming["ephemeral_message_id"] == 1
    reply = {"reply_parameters": {"ephemeral_message_id": 1}}
    # another member cannot be answered with Anna's command
    assert await refused(
        client, api, "sendMessage", chat_id=GROUP, text="x", **ephemeral(BERND), **reply
    ) == ("Bad Request: message to be replied not found")
    # "A reply to an ephemeral message must itself be an ephemeral message"
    assert await refused(client, api, "sendMessage", chat_id=GROUP, text="x", **reply) == (
        "Bad Request: a reply to an ephemeral message must be ephemeral"
    )
    status, _ = await call(
        client, api, "sendMessage", chat_id=GROUP, text="Hilfe …", **ephemeral(ANNA), **reply
    )
    assert status == 200
    clock.now += 15.5  # "may only be replied to within 15 seconds of being sent"
    assert await refused(
        client, api, "sendMessage", chat_id=GROUP, text="y", **ephemeral(ANNA), **reply
    ) == ("Bad Request: message to be replied not found")


# -- refusals ---------------------------------------------------------------------------------


async def test_only_in_groups(api: BotApiServer, client: httpx.AsyncClient) -> None:
    api.push_message("/start", chat_id=ANNA, user_id=ANNA, chat_type="private")
    assert await refused(client, api, "sendMessage", chat_id=ANNA, text="x", **ephemeral(ANNA)) == (
        "Bad Request: BOT_NOT_ADMIN"
    )


async def test_a_stale_unknown_or_foreign_tap(
    api: BotApiServer, client: httpx.AsyncClient, clock: Clock
) -> None:
    query = await tap(client, api)
    send = {"chat_id": GROUP, "text": "x"}
    assert await refused(
        client, api, "sendMessage", **send, **ephemeral(BERND, callback_query_id=query)
    ) == ("Bad Request: USER_ID_INVALID")
    assert (
        await refused(
            client, api, "sendMessage", **send, **ephemeral(ANNA, callback_query_id="123")
        )
        == TOO_OLD
    )
    clock.now += 15.1
    assert (
        await refused(
            client, api, "sendMessage", **send, **ephemeral(ANNA, callback_query_id=query)
        )
        == TOO_OLD
    )


async def test_the_receiver_must_be_a_member_and_no_bot(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    query = await tap(client, api)
    send = {"chat_id": GROUP, "text": "x"}
    assert await refused(
        client, api, "sendMessage", **send, **ephemeral(4242, callback_query_id=query)
    ) == ("Bad Request: USER_IS_BOT")
    api.remove_member(GROUP, ANNA)  # Anna left the group after tapping
    assert await refused(
        client, api, "sendMessage", **send, **ephemeral(ANNA, callback_query_id=query)
    ) == ("Bad Request: USER_NOT_PARTICIPANT")


async def test_parameters_that_cannot_be_read(api: BotApiServer, client: httpx.AsyncClient) -> None:
    query = await tap(client, api)
    send = {"chat_id": GROUP, "text": "x"}
    missing = {"ephemeral_message_parameters": {"callback_query_id": query}}
    assert await refused(client, api, "sendMessage", **send, **missing) == (
        'Bad Request: can\'t find field "receiver_user_id"'
    )
    assert await refused(
        client, api, "sendMessage", **send, ephemeral_message_parameters=[ANNA]
    ) == ("Bad Request: object expected as ephemeral message parameters")
    assert await refused(client, api, "sendMessage", **send, callback_query_id=query) == (
        "Bad Request: receiver_user_id must be specified for an ephemeral message"
    )


async def test_shown_in_place_of_the_tapped_message(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    query = await tap(client, api)
    send = {"chat_id": GROUP, "text": "Der Bauplan, nur für dich"}
    replace = {"replace_callback_query_message": True}
    assert await refused(client, api, "sendMessage", **send, **ephemeral(ANNA, **replace)) == (
        "Bad Request: replace_callback_query_message can be used only for a callback query "
        "from a regular message"
    )
    status, answer = await call(
        client, api, "sendMessage", **send, **ephemeral(ANNA, callback_query_id=query, **replace)
    )
    assert status == 200
    (shown,) = api.ephemeral_messages(GROUP, ANNA)
    assert shown.replaces == api.messages(GROUP)[-1].message_id  # for Anna only
    # a tap on the ephemeral message itself: "Must be False for callback queries from
    # ephemeral messages, which must be edited using regular editEphemeralMessage… methods"
    await call(
        client,
        api,
        "editEphemeralMessageReplyMarkup",
        chat_id=GROUP,
        receiver_user_id=ANNA,
        ephemeral_message_id=answer["result"]["ephemeral_message_id"],
        reply_markup=KEYBOARD,
    )
    inner = query_id(
        api,
        api.push_callback(
            "sign",
            message_id=0,
            chat_id=GROUP,
            user_id=ANNA,
            ephemeral_message_id=answer["result"]["ephemeral_message_id"],
        ),
    )
    assert await refused(
        client, api, "sendMessage", **send, **ephemeral(ANNA, callback_query_id=inner, **replace)
    ) == (
        "Bad Request: replace_callback_query_message can be used only for a callback query "
        "from a regular message"
    )


# -- edits, deletion, the callback query --------------------------------------------------------


async def test_edit_and_delete(api: BotApiServer, client: httpx.AsyncClient) -> None:
    query = await tap(client, api)
    _, sent = await call(
        client,
        api,
        "sendMessage",
        chat_id=GROUP,
        text="Schritt 1",
        reply_markup=KEYBOARD,
        **ephemeral(ANNA, callback_query_id=query),
    )
    which = {
        "chat_id": GROUP,
        "receiver_user_id": ANNA,
        "ephemeral_message_id": sent["result"]["ephemeral_message_id"],
    }
    status, answer = await call(
        client, api, "editEphemeralMessageText", **which, text="<b>Schritt 2</b>", parse_mode="HTML"
    )
    assert (status, answer["result"]) == (200, True)
    (msg,) = api.ephemeral_messages(GROUP, ANNA)
    assert (msg.text, msg.edits, msg.reply_markup) == ("Schritt 2", 1, None)
    assert [m.text for m in api.messages(GROUP)] == ["Liste"]  # the group's message is as it was
    assert await refused(
        client, api, "editEphemeralMessageText", **{**which, "receiver_user_id": BERND}, text="x"
    ) == ("Bad Request: message to edit not found")
    status, _ = await call(
        client, api, "editEphemeralMessageReplyMarkup", **which, reply_markup=KEYBOARD
    )
    assert status == 200 and api.ephemeral_messages(GROUP, ANNA)[0].buttons
    assert (await call(client, api, "deleteEphemeralMessage", **which))[0] == 200
    assert api.ephemeral_messages(GROUP, ANNA) == []
    assert await refused(client, api, "deleteEphemeralMessage", **which) == (
        "Bad Request: message to delete not found"
    )
    assert await refused(client, api, "editEphemeralMessageText", **which, text="x") == (
        "Bad Request: message to edit not found"
    )


async def test_strict_edits_as_strict_as_the_groups(
    strict: FakeBotApi, client: httpx.AsyncClient
) -> None:
    query = await tap(client, strict)
    _, sent = await call(
        client,
        strict,
        "sendMessage",
        chat_id=GROUP,
        text="Schritt 1",
        **ephemeral(ANNA, callback_query_id=query),
    )
    which = {
        "chat_id": GROUP,
        "receiver_user_id": ANNA,
        "ephemeral_message_id": sent["result"]["ephemeral_message_id"],
    }
    assert (
        await refused(client, strict, "editEphemeralMessageText", **which, text="Schritt 1")
    ).startswith("Bad Request: message is not modified")
    assert await refused(client, strict, "editEphemeralMessageText", **which, text="x" * 4097) == (
        "Bad Request: message is too long"
    )


async def test_the_tap_is_still_answered_once(
    strict: FakeBotApi, client: httpx.AsyncClient
) -> None:
    # an ephemeral answer is no answerCallbackQuery: the query stays open, and is answered once
    query = await tap(client, strict)
    await call(
        client,
        strict,
        "sendMessage",
        chat_id=GROUP,
        text="x",
        **ephemeral(ANNA, callback_query_id=query),
    )
    assert (await call(client, strict, "answerCallbackQuery", callback_query_id=query))[0] == 200
    assert await refused(client, strict, "answerCallbackQuery", callback_query_id=query) == TOO_OLD
    # and an answered query may still be followed by an ephemeral message (within 15 s)
    status, _ = await call(
        client,
        strict,
        "sendMessage",
        chat_id=GROUP,
        text="y",
        **ephemeral(ANNA, callback_query_id=query),
    )
    assert status == 200


async def test_ephemeral_sends_are_not_counted_by_the_flood_control(
    clock: Clock, client: httpx.AsyncClient
) -> None:
    async with FakeBotApi(clock=clock, group_limit=2) as api:
        meet(api)
        api.set_admins(GROUP, [4242])
        for text in ("eins", "zwei"):
            assert (await call(client, api, "sendMessage", chat_id=GROUP, text=text))[0] == 200
        status, _ = await call(
            client, api, "sendMessage", chat_id=GROUP, text="nur Anna", **ephemeral(ANNA)
        )
        assert status == 200
        status, _ = await call(client, api, "sendMessage", chat_id=GROUP, text="drei")
        assert status == 429


# -- older servers ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["console", "strict"])
async def test_before_10_2_the_message_goes_to_the_whole_group(
    kind: str, clock: Clock, client: httpx.AsyncClient
) -> None:
    async with stand_in(kind, clock, API_10_1) as api:
        meet(api)
        query = await tap(client, api)
        status, answer = await call(
            client,
            api,
            "sendMessage",
            chat_id=GROUP,
            text="Nur für Anna gemeint",
            receiver_user_id=ANNA,
            callback_query_id=query,
        )
        # a server ignores parameters it does not know: no error, a public message
        assert status == 200 and answer["result"]["message_id"] > 0
        assert "receiver_user" not in answer["result"]
        assert api.messages(GROUP)[-1].text == "Nur für Anna gemeint"
        assert api.ephemeral_messages(GROUP) == []
        assert api.ignored_params == [
            ("sendMessage", "receiver_user_id"),
            ("sendMessage", "callback_query_id"),
        ]
        which = {"chat_id": GROUP, "receiver_user_id": ANNA, "ephemeral_message_id": 1}
        for method in ("editEphemeralMessageText", "deleteEphemeralMessage"):
            status, answer = await call(client, api, method, **which, text="x")
            assert (status, answer["description"]) == (404, "Not Found: method not found")
        # BotCommand.is_ephemeral: an unknown field, the command an ordinary one
        commands = [{"command": "hilfe", "description": "Hilfe", "is_ephemeral": True}]
        await call(client, api, "setMyCommands", commands=commands)
        _, listed = await call(client, api, "getMyCommands")
        assert listed["result"] == [{"command": "hilfe", "description": "Hilfe"}]
        with pytest.raises(RuntimeError):
            api.push_ephemeral_command("/hilfe", chat_id=GROUP, user_id=ANNA)
        # ReplyParameters without message_id: the field is required before 10.2
        assert await refused(
            client,
            api,
            "sendMessage",
            chat_id=GROUP,
            text="x",
            reply_parameters={"ephemeral_message_id": 1},
        ) == ('Bad Request: can\'t find field "message_id"')


async def test_a_10_2_server_ignores_the_10_3_parameters(
    clock: Clock, client: httpx.AsyncClient
) -> None:
    async with stand_in("strict", clock, API_10_2) as api:
        meet(api)
        query = await tap(client, api)
        params = ephemeral(ANNA, callback_query_id=query)
        status, answer = await call(
            client, api, "sendMessage", chat_id=GROUP, text="an alle", **params
        )
        assert status == 200 and answer["result"]["message_id"] > 0
        status, answer = await call(
            client,
            api,
            "sendRichMessage",
            chat_id=GROUP,
            rich_message={"html": "<p>an alle</p>"},
            receiver_user_id=ANNA,
        )
        assert status == 200 and answer["result"]["message_id"] > 0  # 10.2: not on rich ones
        assert api.ignored_params == [
            ("sendMessage", "ephemeral_message_parameters"),
            ("sendRichMessage", "receiver_user_id"),
        ]
        assert api.ephemeral_messages(GROUP) == []


@pytest.mark.parametrize("version", [API_10_2, API_10_3])
async def test_disabled_buttons_from_10_3(
    version: tuple[int, int], clock: Clock, client: httpx.AsyncClient
) -> None:
    disabled = {"text": "Eintragen", "disabled": {}}
    both = {"text": "Weiter", "callback_data": "next", "disabled": {}}
    async with stand_in("strict", clock, version) as api:
        meet(api)
        status, answer = await call(
            client,
            api,
            "sendMessage",
            chat_id=GROUP,
            text="Spiel",
            reply_markup={"inline_keyboard": [[disabled]]},
        )
        if version >= API_10_3:
            assert status == 200
            assert api.messages(GROUP)[-1].buttons == [[disabled]]
        else:  # an unknown field: a button with no action left
            assert answer["description"] == (
                "Bad Request: can't parse inline keyboard button: Text buttons are unallowed "
                "in the inline keyboard"
            )
        await call(
            client,
            api,
            "sendMessage",
            chat_id=GROUP,
            text="Spiel",
            reply_markup={"inline_keyboard": [[both]]},
        )
        live = {"text": "Weiter", "callback_data": "next"}
        assert api.messages(GROUP)[-1].buttons == [[both if version >= API_10_3 else live]]


ROW = (
    '<tg-button-row align="center"><tg-button type="callback_data" data="p2" style="primary">'
    "Weiter</tg-button><tg-button disabled>Zurück</tg-button></tg-button-row>"
)


@pytest.mark.parametrize("version", [API_10_2, API_10_3])
async def test_rich_button_rows_and_compact_tables_from_10_3(
    version: tuple[int, int], clock: Clock, client: httpx.AsyncClient
) -> None:
    html = "<table compact><tr><td>Anna</td><td>120</td></tr></table>" + ROW
    async with stand_in("strict", clock, version) as api:
        meet(api)
        status, answer = await call(
            client, api, "sendRichMessage", chat_id=GROUP, rich_message={"html": html}
        )
        if version < API_10_3:
            assert answer["description"] == (
                "Bad Request: can't parse rich message: unsupported tag <tg-button-row>"
            )
            content = parse_rich({"html": html.replace(ROW, "")}, version)
            assert content.blocks[0].compact is False  # an attribute it does not know
            return
        assert status == 200
        content = parse_rich({"html": html}, version)
        assert content.blocks[0].compact is True
        (row,) = content.button_rows()
        assert [(b.text, b.callback_data, b.style, b.disabled) for b in row] == [
            ("Weiter", "p2", "primary", False),
            ("Zurück", None, None, True),
        ]
        assert content.plain().splitlines()[-1] == "[Weiter] [Zurück ⊘]"


@pytest.mark.parametrize(
    ("row", "error"),
    [
        ("<tg-button-row></tg-button-row>", "a button row has 1-8 buttons"),
        (
            "<tg-button-row>"
            + '<tg-button type="callback_data" data="x">x</tg-button>' * 9
            + "</tg-button-row>",
            "a button row has 1-8 buttons",
        ),
        (
            '<tg-button-row><tg-button type="url" url="https://x.de" style="link">x</tg-button>'
            "</tg-button-row>",
            "bad button style",
        ),
        (
            '<tg-button-row><tg-button type="callback_data" data="">x</tg-button></tg-button-row>',
            "BUTTON_DATA_INVALID",
        ),
    ],
)
async def test_rich_button_rows_as_documented(row: str, error: str) -> None:
    from skatbot.standin.rich import RichError

    with pytest.raises(RichError, match=error):
        parse_rich({"html": row})


# -- the console ------------------------------------------------------------------------------


async def test_the_console_marks_the_one_reader(tmp_path: Path, clock: Clock) -> None:
    api = BotApi(clock=clock)
    meet(api)
    out = io.StringIO()
    console = _Console(api, out, tmp_path)
    console.user_ids["Anna"] = ANNA
    bot = f"/bot{api.token}"
    sent = await api.answer(
        f"{bot}/sendMessage", {"chat_id": GROUP, "text": "Liste", "reply_markup": KEYBOARD}, {}
    )
    assert sent[0] == 200
    query = query_id(api, console.push_line("Anna> !1") or 0)
    await api.answer(
        f"{bot}/sendMessage",
        {
            "chat_id": GROUP,
            "text": "Wer spielt? Tipp an:",
            "reply_markup": KEYBOARD,
            **ephemeral(ANNA, callback_query_id=query),
        },
        {},
    )
    which = {"chat_id": GROUP, "receiver_user_id": ANNA, "ephemeral_message_id": 1}
    await api.answer(f"{bot}/editEphemeralMessageText", {**which, "text": "Anna spielt."}, {})
    console.flush_calls()
    printed = out.getvalue().splitlines()
    assert "[nur Anna] Wer spielt? Tipp an:" in printed
    assert "✎ [nur Anna] Anna spielt." in printed
    assert printed.count("  [Unterschreiben]") == 2  # the group's keyboard and Anna's
    # Anna's "!1" presses her own (ephemeral) message's button, Bernd's the group's
    await api.answer(
        f"{bot}/editEphemeralMessageReplyMarkup", {**which, "reply_markup": KEYBOARD}, {}
    )
    anna_tap = console.push_line("Anna> !1") or 0
    tapped = next(u for u in api.pending_updates if u["update_id"] == anna_tap)["callback_query"]
    assert tapped["message"]["message_id"] == 0 and tapped["message"]["ephemeral_message_id"] == 1
    bernd_tap = console.push_line("Bernd> !1") or 0
    tapped = next(u for u in api.pending_updates if u["update_id"] == bernd_tap)["callback_query"]
    assert tapped["message"]["message_id"] > 0


async def test_the_console_shows_a_disabled_button_and_does_not_press_it(
    tmp_path: Path,
) -> None:
    api = BotApi()
    meet(api)
    out = io.StringIO()
    console = _Console(api, out, tmp_path)
    markup = {"inline_keyboard": [[{"text": "Eintragen", "disabled": {}}]]}
    await api.answer(
        f"/bot{api.token}/sendMessage",
        {"chat_id": GROUP, "text": "Spiel", "reply_markup": markup},
        {},
    )
    console.flush_calls()
    assert console.push_line("!1") is None
    assert out.getvalue().splitlines()[-2:] == [
        "  [Eintragen ⊘]",
        "⚠ Knopf [Eintragen] ist gesperrt und tut nichts.",
    ]


# -- through PTB -------------------------------------------------------------------------------


async def test_through_a_ptb_application(strict: FakeBotApi) -> None:
    """PTB 22.8 knows Bot API 10.0: the parameters go as ``api_kwargs``, the new methods
    through ``do_api_request``."""
    seen: list[int] = []

    async def tapped(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        chat_id, user_id = query.message.chat.id, query.from_user.id
        sent = await context.bot.send_message(
            chat_id,
            "Nur für dich",
            api_kwargs={
                "ephemeral_message_parameters": {
                    "receiver_user_id": user_id,
                    "callback_query_id": query.id,
                }
            },
        )
        ephemeral_id = int(sent.api_kwargs["ephemeral_message_id"])
        seen.append(ephemeral_id)
        done = await context.bot.do_api_request(
            "editEphemeralMessageText",
            api_kwargs={
                "chat_id": chat_id,
                "receiver_user_id": user_id,
                "ephemeral_message_id": ephemeral_id,
                "text": "Erledigt",
            },
        )
        assert done is True
        await query.answer()

    app: Application[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder().token(strict.token).base_url(f"{strict.url}/bot").build()
    )
    app.add_handler(CallbackQueryHandler(tapped))
    async with app:
        sent = await app.bot.send_message(GROUP, "Liste", reply_markup=None)
        strict.push_callback("sign", message_id=sent.message_id, chat_id=GROUP, user_id=ANNA)
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        try:
            await strict.wait_for_call("answerCallbackQuery")
        finally:
            await app.updater.stop()
            await app.stop()
    assert seen == [1]
    (msg,) = strict.ephemeral_messages(GROUP, ANNA)
    assert (msg.text, msg.edits) == ("Erledigt", 1)
    assert [m.text for m in strict.messages(GROUP)] == ["Liste"]


async def test_rich_messages_never_took_the_10_2_parameters(
    api: BotApiServer, client: httpx.AsyncClient
) -> None:
    query = await tap(client, api)
    status, answer = await call(
        client,
        api,
        "sendRichMessage",
        chat_id=GROUP,
        rich_message={"html": "<p>an alle</p>"},
        receiver_user_id=ANNA,
        callback_query_id=query,
    )
    assert status == 200 and answer["result"]["message_id"] > 0
    assert api.ignored_params == [
        ("sendRichMessage", "receiver_user_id"),
        ("sendRichMessage", "callback_query_id"),
    ]
