"""Hostile input: random text never raises anything but RuleError from the parser, and random
messages and button data never crash a handler nor change a list."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatbot.rules.errors import RuleError
from skatbot.rules.grammar import parse_announcement
from tests.helpers import Bot, export_raw, ok, replies

WORDS = st.sampled_from(
    [
        "grand",
        "null",
        "karo",
        "herz",
        "pik",
        "kreuz",
        "eichel",
        "schellen",
        "mit",
        "ohne",
        "hand",
        "schneider",
        "schwarz",
        "angesagt",
        "sa",
        "swa",
        "ouvert",
        "reiz",
        "r30",
        "gewonnen",
        "verloren",
        "g",
        "v",
        "+",
        "-",
        "augen",
        "m2",
        "o11",
        "99999999999999999999",
        "-0",
        "1e9",
        "½",
        "\x00",
        "\u202e",
        "\u200b",
        "𝟘",
        "٣",
        "ǅ",
        "",
    ]
)
TEXT = st.one_of(
    st.lists(WORDS, max_size=12).map(" ".join),
    st.text(max_size=200),
    st.lists(st.integers(min_value=-(10**30), max_value=10**30).map(str), max_size=6).map(" ".join),
)


@given(TEXT)
@settings(max_examples=1500, deadline=None)
def test_parser_raises_only_rule_errors(text: str) -> None:
    with contextlib.suppress(RuleError):
        parse_announcement(text.split())


MESSAGE = st.one_of(
    st.builds(
        lambda cmd, rest: f"/{cmd} {rest}",
        st.sampled_from(
            [
                "spiel",
                "korrigieren",
                "storno",
                "umbenennen",
                "geber",
                "serie",
                "neu",
                "wert",
                "liste",
                "eingepasst",
                "spiel@skatbot_test_bot",
                "loeschen",
                "turnier",
                "regeln",
            ]
        ),
        TEXT,
    ),
    st.text(max_size=300).map(lambda t: "/" + t),
    st.text(min_size=1001, max_size=1200),
    st.just("/spiel " + "Anna " * 70),
)
CALLBACK = st.one_of(
    st.text(max_size=64),
    st.builds(lambda t: "v1:" + t, st.text(max_size=40)),
    st.sampled_from(["v1:del:", "v1:del:0000000000000000", "v1:x:-1001:1", "v1:del:" + "f" * 64]),
)


@pytest.fixture
async def table(bot: Bot) -> Bot:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand ohne 1 hand gewonnen")
    return bot


async def test_random_messages_and_buttons_change_nothing(table: Bot) -> None:
    bot = table
    before = await export_raw(bot)
    button_msg = bot.api.messages(-1001)[-1].message_id
    errors_before = len([c for c in bot.api.calls if "schiefgegangen" in str(c.params.get("text"))])
    loop = asyncio.get_running_loop()
    inputs: list[tuple[str, str]] = []

    # Hypothesis drives a sync test; collect its examples, then play them through the bot.
    @given(st.one_of(MESSAGE.map(lambda m: ("msg", m)), CALLBACK.map(lambda d: ("cb", d))))
    @settings(
        max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    def collect(item: tuple[str, str]) -> None:
        inputs.append(item)

    await loop.run_in_executor(None, collect)
    assert len(inputs) >= 30
    for kind, value in inputs:
        n = len(bot.api.calls)
        if kind == "msg":
            uid = bot.api.push_message(value, chat_id=-1001, user_id=5)
        else:
            uid = bot.api.push_callback(value, message_id=button_msg, chat_id=-1001, user_id=5)
        await bot.api.wait_confirmed(uid, timeout=15)
        answers = replies(bot.api.calls[n:], -1001, bot.refusals)
        if all(a.refusal for a in answers):  # refused or ignored: nothing changed
            after = await export_raw(bot)
            assert after == before, (kind, value, answers)
        else:
            before = await export_raw(bot)
    crashes = [c for c in bot.api.calls if "schiefgegangen" in str(c.params.get("text"))]
    assert len(crashes) == errors_before, crashes[:3]
    # the bot is still alive and books the next valid game (a random "/serie 5" may have
    # shortened the series legitimately: make room first)
    await ok(bot, "/serie 200")
    await ok(bot, "/spiel Bernd herz mit 2 verloren")
