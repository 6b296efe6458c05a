"""The list and the standings as native tables (rich messages, Bot API 10.1), through the
real bot and the strict stand-in: a full 4-table list with long names and corrections is one
rich table within the limits; a server before 10.1 gets the text form and nothing is lost;
the pinned standings are edited in place as a table; /darstellung text keeps the text."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest

from skatbot.handlers.outbox import rich as wire
from skatbot.standin.rich import MAX_BLOCKS, MAX_TEXT, parse_rich
from skatbot.storage.database import Database
from skatbot.usecases.common.rich import Cell, Heading, RichDoc, Table
from tests.helpers import GROUP_WINDOW, Bot
from tests.standin.fake_telegram import ApiCall, FakeBotApi, html_to_text

CHAT = -1001
# four names of 32 characters (the longest a name may be)
NAMES = [
    "Annabella-Maximiliane-Hohenzolle",
    "Bernhard-Friedrich-Wilhelm-Ostho",
    "Carlotta-Henriette-Sophie-Lauten",
    "Dorothea-Wilhelmine-Charlotte-Ko",
]
GAMES = [
    "grand ohne 1 hand gewonnen",
    "kreuz mit 2 verloren",
    "herz ohne 1 gewonnen",
    "null gewonnen",
    "pik mit 1 schneider gewonnen",
    "karo mit 1 reiz 30 gewonnen",  # overbid
]


@pytest.fixture
async def rich_bot(db: Database) -> AsyncIterator[Bot]:
    async with FakeBotApi(group_window=GROUP_WINDOW, rich_messages=True) as api:
        b = Bot(api, db)
        await b.start()
        try:
            yield b
        finally:
            await b.shutdown()


def calls(bot: Bot, method: str, since: int = 0) -> list[ApiCall]:
    return [c for c in bot.api.calls[since:] if c.method == method]


async def full_evening(bot: Bot) -> None:
    """48 games at a 4-table (the dealer sits out), 4 corrections, 1 cancelled game."""
    await bot.say("/neu " + " ".join(NAMES))
    await bot.say("/serie 48")
    for i in range(48):
        # the dealer of game i is seat i % 4; one of the three others declares
        declarer = NAMES[(i + 1 + i % 3) % 4]
        await bot.say(f"/spiel {declarer} {GAMES[i % len(GAMES)]}")
    for nr in (3, 17, 30, 44):
        declarer = NAMES[(nr + nr % 3) % 4]  # game nr was i = nr - 1
        await bot.say(f"/korrigieren {nr} {declarer} grand mit 2 gewonnen")
    await bot.say("/storno 20 ja")
    await bot.say(f"/spiel {NAMES[2]} grand ohne 2 gewonnen")  # the 48th valid game
    assert "48/48" in await bot.text("/stand")


async def test_a_full_list_is_one_rich_table_within_the_limits(rich_bot: Bot) -> None:
    bot = rich_bot
    await full_evening(bot)
    before = len(bot.api.calls)
    await bot.say("/liste alle")
    [sent] = calls(bot, "sendRichMessage", before)
    assert sent.ok and not calls(bot, "sendMessage", before)
    content = parse_rich(sent.params["rich_message"])
    [table] = content.tables()
    header = [c.text for c in table[0]]
    assert header == ["Nr", "Geber", "Spiel", "Wert", *NAMES]
    body = table[1:]
    assert len(body) == 48 + 4 + 1  # every game, the struck rows of the corrections and /storno
    struck = [r for r in body if all(c.struck for c in r if c.text)]
    assert len(struck) == 5
    assert any("überreizt" in r[2].text for r in body)
    # the running sums: the last sum in each player's column is the player's score
    score = {}
    for seat, name in enumerate(NAMES):
        sums = [r[4 + seat].text for r in body if r[4 + seat].text and not r[4 + seat].struck]
        score[name] = sums[-1]
    stand = await bot.text("/stand")
    for name, points in score.items():
        assert f"{name}" in stand and points.replace("−", "-").lstrip("-").isdigit()
    assert content.chars <= MAX_TEXT and content.block_count <= MAX_BLOCKS
    print(
        f"\n48-game 4-table list: {content.chars} characters, {content.block_count} blocks, "
        f"{len(header)} columns, {len(sent.params['rich_message']['html'])} bytes of HTML"
    )


async def test_the_same_list_falls_back_to_text_on_a_server_before_10_1(bot: Bot) -> None:
    await full_evening(bot)  # the ``bot`` fixture's stand-in predates rich messages
    before = len(bot.api.calls)
    out = await bot.say("/liste alle")
    refused = calls(bot, "sendRichMessage")
    assert [c.status for c in refused] == [404]  # tried once: the method is unknown there
    assert not calls(bot, "sendRichMessage", before)  # remembered for the bot
    text = "\n".join(r.text for r in out)
    for nr in range(1, 49):
        assert f"{nr:>2}. " in text  # nothing lost: every game is in the text form
    assert text.count("(korrigiert)") == 4 and "(storniert)" in text


async def test_pinned_standings_are_edited_in_place_as_a_table(rich_bot: Bot) -> None:
    bot = rich_bot
    await bot.say(f"/neu {NAMES[0]} Bernd Carla")
    await bot.say("/anheften")
    [pinned] = [m for m in bot.api.messages(CHAT) if m.pinned]
    assert pinned.rich is not None
    await bot.say(f"/spiel {NAMES[0]} grand ohne 1 hand gewonnen")
    edits = [
        c for c in calls(bot, "editMessageText") if c.params.get("message_id") == pinned.message_id
    ]
    assert edits and all("rich_message" in c.params and c.ok for c in edits)
    now = bot.api.message(CHAT, pinned.message_id)
    assert now.rich is not None and now.edits == len(edits)
    [table] = now.rich.tables()
    assert [c.text for c in table[1]][:3] == ["1.", NAMES[0], "122"]
    assert len([m for m in bot.api.messages(CHAT) if m.pinned]) == 1  # no second message


async def test_an_identical_rich_edit_is_not_modified(rich_bot: Bot) -> None:
    bot = rich_bot
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/anheften")
    [pinned] = [m for m in bot.api.messages(CHAT) if m.pinned]
    html = pinned.rich_html
    status = await bot.app.bot.do_api_request(
        "editMessageText",
        {
            "chat_id": CHAT,
            "message_id": pinned.message_id,
            "rich_message": {"html": html + "<p>x</p>"},
        },
    )
    assert status
    from telegram.error import BadRequest

    with pytest.raises(BadRequest, match="not modified"):
        await bot.app.bot.do_api_request(
            "editMessageText",
            {
                "chat_id": CHAT,
                "message_id": pinned.message_id,
                "rich_message": {"html": html + "<p>x</p>"},
            },
        )


async def test_darstellung_text_keeps_the_text_form(rich_bot: Bot) -> None:
    bot = rich_bot
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    reply = await bot.text("/darstellung text")
    assert "als Text" in reply
    before = len(bot.api.calls)
    stand = await bot.text("/stand")
    assert not calls(bot, "sendRichMessage", before)
    assert "1. Anna 122 – 1 gew., 0 verl." in stand
    await bot.say("/darstellung tabelle")
    before = len(bot.api.calls)
    await bot.say("/stand")
    assert calls(bot, "sendRichMessage", before)
    out = await bot.say("/darstellung bunt")
    assert out[0].refusal and "/darstellung tabelle" in out[0].text


async def closed_list(bot: Bot) -> None:
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/serie 3")
    for _ in range(3):
        await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    await bot.say("/abschluss")
    confirm = [m for m in bot.api.messages(CHAT) if m.buttons][-1]
    data = confirm.buttons[0][0]["callback_data"]
    uid = bot.api.push_callback(data, message_id=confirm.message_id, chat_id=CHAT)
    await bot.api.wait_confirmed(uid, timeout=15)


async def test_a_closed_list_is_shown_as_a_table(rich_bot: Bot) -> None:
    bot = rich_bot
    await closed_list(bot)
    before = len(bot.api.calls)
    out = await bot.say("/liste")
    [sent] = calls(bot, "sendRichMessage", before)
    assert "Serie abgeschlossen" in html_to_text(out[0].text) or "abgeschlossen" in out[0].text
    assert len(parse_rich(sent.params["rich_message"]).tables()[0]) == 4


# -- cutting to the limits ----------------------------------------------------------------------


def _table(rows: int, width: int = 30) -> Table:
    cell = "x" * width
    return Table(
        ("Nr", "A", "B"),
        tuple((Cell(str(i)), Cell(cell), Cell(cell)) for i in range(rows)),
    )


def test_a_table_over_the_limits_is_cut_by_rows_and_every_part_fits() -> None:
    doc = RichDoc((Heading("Liste"), _table(1200)))
    parts = wire.split(doc)
    assert len(parts) > 2
    rows = []
    for part in parts:
        size = wire.measure(part)
        assert size.fits(), size
        content = parse_rich(wire.input_rich_message(part))  # the stand-in takes each part
        assert content.block_count <= MAX_BLOCKS and content.chars <= MAX_TEXT
        for table in content.tables():
            assert [c.text for c in table[0]] == ["Nr", "A", "B"]  # header repeated
            rows.extend(int(r[0].text) for r in table[1:])
    assert rows == list(range(1200))  # every row once, in order


def test_long_cells_cut_by_characters() -> None:
    doc = RichDoc((_table(200, width=120),))  # 200 rows of 241 characters: over 32,768
    parts = wire.split(doc)
    assert len(parts) == 2
    assert all(wire.measure(p).chars <= wire.MAX_TEXT for p in parts)


def test_too_many_columns_is_no_rich_message() -> None:
    from skatbot.usecases.common.rich import RichText

    wide = Table(tuple(f"S{i}" for i in range(21)), ((tuple(Cell("1") for _ in range(21))),))
    assert wire.parts_of(RichText("Text", RichDoc((wide,)))) is None


async def test_a_chat_that_refuses_the_format_gets_text_from_then_on(rich_bot: Bot) -> None:
    bot = rich_bot
    other = -1002
    for chat in (CHAT, other):
        await bot.say("/neu Anna Bernd Carla", chat_id=chat)
    bot.api.fail_next(
        "sendRichMessage", status=400, description="Bad Request: RICH_MESSAGE_INVALID"
    )
    out = await bot.say("/stand", chat_id=CHAT)
    assert [r.method for r in out] == ["sendMessage"] and "Zwischenstand" in out[0].text
    before = len(bot.api.calls)
    await bot.say("/stand", chat_id=CHAT)
    assert not calls(bot, "sendRichMessage", before)  # remembered for this chat
    await bot.say("/stand", chat_id=other)
    assert [c.ok for c in calls(bot, "sendRichMessage", before)] == [True]  # not for others


@pytest.mark.parametrize(
    "refusal",
    [
        # The documentation names no error texts for rich messages: whatever Telegram says
        # when it will not take one, the list must still arrive.
        "Bad Request: TABLE_CELL_INVALID",
        'Bad Request: can\'t parse entities: unsupported start tag "td" at byte offset 40',
        "Bad Request: BLOCKS_TOO_MUCH",
    ],
)
async def test_any_refusal_of_a_rich_message_still_sends_the_text(
    rich_bot: Bot, refusal: str
) -> None:
    bot = rich_bot
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    bot.api.fail_next("sendRichMessage", status=400, description=refusal)
    out = await bot.say("/liste")
    assert [r.method for r in out] == ["sendMessage"]  # the text form, nothing lost
    assert "Anna" in out[0].text and "72" in out[0].text
    # a refusal the bot does not know is not taken for the chat's answer for good
    before = len(bot.api.calls)
    await bot.say("/liste")
    assert [c.ok for c in calls(bot, "sendRichMessage", before)] == [True]


async def test_the_evening_and_the_season_as_tables(rich_bot: Bot) -> None:
    bot = rich_bot
    await closed_list(bot)
    before = len(bot.api.calls)
    await bot.say("/abend")
    [evening] = calls(bot, "sendRichMessage", before)
    [table] = parse_rich(evening.params["rich_message"]).tables()
    assert [c.text for c in table[0]] == ["Platz", "Spieler", "S1", "Summe"]
    assert [c.text for c in table[1]][1:] == ["Anna", "366", "366"]
    before = len(bot.api.calls)
    await bot.say("/saison")
    [season] = calls(bot, "sendRichMessage", before)
    [table] = parse_rich(season.params["rich_message"]).tables()
    assert [c.text for c in table[0]][:3] == ["Platz", "Spieler", "Wertung"]
    assert table[1][1].text == "Anna"


async def test_a_tournament_ranking_as_a_table(rich_bot: Bot) -> None:
    from tests.usecases.tournament.test_tournament_chat import (
        ORGANISER,
        SEED,
        SERIES_1,
        results_message,
        setup_tournament,
    )

    bot = rich_bot
    await setup_tournament(bot)
    await bot.say(f"/auslosen {SEED}", **ORGANISER)  # type: ignore[arg-type]
    await bot.say(results_message(SERIES_1), **ORGANISER)  # type: ignore[arg-type]
    before = len(bot.api.calls)
    await bot.say("/rangliste")
    [sent] = calls(bot, "sendRichMessage", before)
    [table] = parse_rich(sent.params["rich_message"]).tables()
    assert [c.text for c in table[0]] == ["Platz", "Spieler", "Punkte", "gew.", "verl."]
    assert [c.text for c in table[1]] == ["1.", "Anna", "200", "2", "0"]
    assert len(table) == 1 + 13


async def test_the_settlement_as_tables(rich_bot: Bot) -> None:
    bot = rich_bot
    await bot.say("/neu Anna Bernd Carla")
    await bot.say("/spiel Anna grand ohne 1 hand gewonnen")
    await bot.say("/spiel Bernd kreuz mit 2 verloren")
    await bot.say("/einsatz 1 ct")
    before = len(bot.api.calls)
    await bot.say("/abrechnung")
    [sent] = calls(bot, "sendRichMessage", before)
    balances, transfers = parse_rich(sent.params["rich_message"]).tables()
    assert [[c.text for c in row] for row in balances] == [
        ["Spieler", "Punkte", "Saldo"],
        ["Anna", "162", "+4,06 €"],
        ["Bernd", "−122", "−4,46 €"],
        ["Carla", "40", "+0,40 €"],
    ]
    assert [[c.text for c in row] for row in transfers][1:] == [
        ["Bernd", "Anna", "4,06 €"],
        ["Bernd", "Carla", "0,40 €"],
    ]


async def test_the_desk_standings_become_a_table_after_a_report(
    rich_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skatbot.usecases.tournament import tables as tournament_tables
    from tests.handlers.test_table_lists import (
        ELSEWHERE,
        PLAIN,
        SEVEN,
        SIGN_LABEL,
        USER,
        data_of,
        ok,
        opening_players,
        play_at,
        sign_message,
        tap,
    )

    monkeypatch.setattr(tournament_tables, "STANDINGS_EDIT_SECONDS", 0.3)
    bot = rich_bot
    await ok(bot, "/turnier Vereinsmeisterschaft", PLAIN)
    await ok(bot, "/teilnehmer " + ", ".join(SEVEN), PLAIN)
    await ok(bot, "/serienlaenge 3 4", PLAIN)
    draw = await ok(bot, "/auslosen 99", PLAIN)
    code = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", draw))["1"]
    await ok(bot, f"/tisch {code}", ELSEWHERE)
    players = opening_players(bot, ELSEWHERE)
    await play_at(bot, ELSEWHERE, players)
    await bot.delivered()
    [desk_pin] = [m for m in bot.api.messages(PLAIN) if m.pinned]
    assert desk_pin.rich is None  # nothing reported yet: a line, no table
    for seat, name in enumerate(players):
        await ok(bot, f"/ich {name}", PLAIN, user_id=USER[name])  # a signature needs the link
        msg = sign_message(bot, ELSEWHERE, None)
        await tap(bot, msg, f"{data_of(msg, SIGN_LABEL)}:{seat}", USER[name])
    await bot.delivered()
    await asyncio.sleep(0.5)  # the desk's edits are coalesced (here over 0.3 s)
    await bot.delivered()
    now = bot.api.message(PLAIN, desk_pin.message_id)
    assert now.rich is not None, now.text
    [table] = now.rich.tables()
    assert [c.text for c in table[0]] == ["Platz", "Spieler", "Punkte", "gew.", "verl."]
    assert sorted(r[1].text for r in table[1:]) == sorted(players)


async def test_a_rich_message_is_a_step_of_its_outbox_row(rich_bot: Bot) -> None:
    """A stored reply resumed after a restart does not send its rich message again: like a
    text part, each rich message is a recorded step of the row."""
    from skatbot.handlers.outbox.delivery import Delivery
    from skatbot.handlers.outbox.steps import Steps
    from skatbot.handlers.outbox.target import Target
    from skatbot.usecases.common.rich import RichText

    bot = rich_bot
    await bot.say("/neu Anna Bernd Carla")
    doc = RichDoc((Table(("Nr",), ((Cell("1."),),)),))
    outbox = bot.app.bot_data.outbox
    # the row recorded its first send as accepted (message 4242) before the restart
    steps = Steps(bot.db, row_id=0, done={0: 4242})
    resumed = Delivery(bot.app.bot, outbox, bot.db, Target(CHAT), steps)
    before = len(bot.api.calls)
    assert await resumed.send_text(RichText("Nr\n1.", doc)) == 4242
    assert not calls(bot, "sendRichMessage", before) and not calls(bot, "sendMessage", before)
    # a step not yet made is made, and recorded
    fresh = Delivery(bot.app.bot, outbox, bot.db, Target(CHAT), Steps(bot.db, row_id=0))
    sent = await fresh.send_text(RichText("Nr\n1.", doc))
    [rich_call] = calls(bot, "sendRichMessage", before)
    assert rich_call.ok and fresh.steps is not None and fresh.steps.done == {0: sent}
