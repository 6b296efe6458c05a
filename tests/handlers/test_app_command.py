"""``/app`` through the real bot and the strict stand-in: the Mini App's button is signed
for the chat it goes to, a t.me link in a group and a web_app button in a private chat, and
where nothing is set up the admin is told how."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from skatbot.handlers.app_auth import read_start, start_key
from skatbot.handlers.miniapp import AppLinks
from skatbot.usecases.common.keyboards import app_button
from tests.helpers import Bot, ok

GROUP = -1001
ANNA = 7


def last_markup(bot: Bot, chat_id: int) -> dict:  # type: ignore[type-arg]
    call = next(
        c
        for c in reversed(bot.api.calls)
        if c.method == "sendMessage" and c.params.get("chat_id") == chat_id
    )
    markup = call.params.get("reply_markup") or {}
    return markup if isinstance(markup, dict) else {}


def configure(
    bot: Bot, *, url: str | None = "https://skat.example.org", name: str | None = "liste"
) -> None:
    bot.app.bot_data.public_url = url
    bot.app.bot_data.miniapp_name = name


async def test_unconfigured_says_how_to_set_it_up(bot: Bot) -> None:
    text = await ok(bot, "/app", "SKATBOT_MINIAPP", "SKATBOT_PUBLIC_URL")
    assert "nicht eingerichtet" in text
    assert not last_markup(bot, GROUP)


async def test_in_a_group_a_signed_tme_link(bot: Bot) -> None:
    configure(bot)
    await ok(bot, "/app", "Mini App")
    [[button]] = last_markup(bot, GROUP)["inline_keyboard"]
    assert "web_app" not in button  # Telegram refuses web_app buttons in groups
    link = urlsplit(button["url"])
    assert (link.scheme, link.netloc) == ("https", "t.me")
    assert link.path == f"/{bot.app.bot.username}/liste"
    start = parse_qs(link.query)["startapp"][0]
    assert len(start) <= 512 and all(c.isalnum() or c in "_-" for c in start)
    bound = read_start(start, start_key(bot.api.token))
    assert (bound.chat_id, bound.topic_id, bound.list_id) == (GROUP, 0, 0)


async def test_in_a_private_chat_a_web_app_button(bot: Bot) -> None:
    configure(bot)
    update_id = bot.api.push_message("/app", chat_id=ANNA, user_id=ANNA, chat_type="private")
    await bot.api.wait_confirmed(update_id, timeout=15)
    [[button]] = last_markup(bot, ANNA)["inline_keyboard"]
    url = urlsplit(button["web_app"]["url"])
    assert f"{url.scheme}://{url.netloc}{url.path}" == "https://skat.example.org/app"
    bound = read_start(parse_qs(url.query)["start"][0], start_key(bot.api.token))
    assert bound.chat_id == ANNA


async def test_private_only_public_url_group_only_app_name(bot: Bot) -> None:
    configure(bot, name=None)  # an address, but no Mini App registered: no group link
    assert "nicht eingerichtet" in await ok(bot, "/app")
    configure(bot, url=None)  # a registered Mini App, no address: groups get the link
    await ok(bot, "/app", "Mini App")
    assert last_markup(bot, GROUP)["inline_keyboard"][0][0]["url"].startswith("https://t.me/")


async def test_the_stand_in_refuses_web_app_buttons_in_groups(bot: Bot) -> None:
    import pytest
    from telegram.error import BadRequest

    await ok(bot, "/hilfe")
    markup = {
        "inline_keyboard": [[{"text": "App", "web_app": {"url": "https://skat.example.org/app"}}]]
    }
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_TYPE_INVALID"):
        await bot.app.bot.send_message(GROUP, "x", reply_markup=markup)  # type: ignore[arg-type]


def test_a_marker_is_left_out_where_not_set_up(bot: Bot) -> None:
    links = bot.app.bot_data.outbox.buttons.app_link
    assert isinstance(links, AppLinks)
    configure(bot, url=None, name=None)
    assert links(app_button()[1], GROUP) is None and links(app_button()[1], ANNA) is None
    keyboard = bot.app.bot_data.outbox.buttons.markup(((app_button(),),), GROUP)
    assert keyboard is None


async def test_liste_carries_the_button_where_set_up(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/liste")
    assert not last_markup(bot, GROUP)  # not set up: no button, no dead end
    configure(bot)
    await ok(bot, "/liste")
    [[button]] = last_markup(bot, GROUP)["inline_keyboard"]
    assert button["url"].startswith(f"https://t.me/{bot.app.bot.username}/liste?startapp=")


async def test_the_builder_offers_the_app_where_set_up(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel")
    plain = last_markup(bot, GROUP)["inline_keyboard"]
    assert not any("url" in b for row in plain for b in row)
    configure(bot)
    await ok(bot, "/spiel")
    rows = last_markup(bot, GROUP)["inline_keyboard"]
    assert [[b["text"] for b in r] for r in rows[:-1]] == [[b["text"] for b in r] for r in plain]
    [app] = rows[-1]
    assert app["text"] == "📱 In der Mini App eintragen" and app["url"].startswith("https://t.me/")
