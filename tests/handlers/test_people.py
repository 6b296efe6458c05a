"""Who is who: /ich, "Das bin ich" under a new list, links across lists and renames, names
matched by spelling, /spieler zusammen and trennen - through the real bot."""

from __future__ import annotations

from skatbot.usecases.people.persons import resolve_people
from tests.handlers.test_builder import Phone, buttons, last_answer
from tests.helpers import Bot, ok, refused

CHAT = -1001


def people(bot: Bot, *names: str, chat_id: int = CHAT) -> list[tuple[str, str]]:
    """(key, display name) of each name, as the resolver says."""

    def read(session):  # type: ignore[no-untyped-def]
        person = resolve_people(session, chat_id)
        return [(person(n).key, person(n).name) for n in names]

    return bot.db.run_read(read)


async def one_list(bot: Bot, command: str = "/neu Anna Bernd Carla") -> None:
    await ok(bot, command)
    await ok(bot, "/spiel Bernd grand ohne 1 hand gewonnen")
    await ok(bot, "/abschluss ja")


async def test_ich_links_an_account_and_the_link_carries_across_lists_and_renames(
    bot: Bot,
) -> None:
    await one_list(bot)
    await ok(bot, "/ich anna", "Du bist Anna ✓", user_id=7, name="Anna Schmidt")
    await ok(bot, "/ich", "Du bist Anna", user_id=7)
    await ok(bot, "/ich Anna", "schon Anna", user_id=7)
    await refused(bot, "/ich Anna", "schon mit Anna Schmidt verknüpft", user_id=8)
    # A new list, and Anna renamed on it: the link stays; both spellings are one person.
    await ok(bot, "/neu Anna Bernd Dora")
    await ok(bot, "/umbenennen Anna Anni")
    anna, anni, bernd = people(bot, "Anna", "Anni", "bernd")
    assert anna == anni and anna[0].startswith("p:") and anni[1] == "Anni"
    assert bernd == ("n:bernd", "Bernd")  # unlinked: matched by spelling, case-insensitive
    listed = await ok(bot, "/spieler", "Anni ✓ Anna Schmidt · auch: Anna · 2 Listen")
    assert "Dora · 1 Liste" in listed and "Bernd · 2 Listen" in listed
    # Another account cannot take it; /ich nicht frees it.
    await ok(bot, "/ich nicht", "gelöst", user_id=7)
    await ok(bot, "/ich Anni", "Du bist Anni ✓", user_id=8)
    # Linking to another name moves the link and says how to merge if both are you.
    await ok(bot, "/ich Bernd", "vorher Anni", "/spieler zusammen Bernd Anni", user_id=8)


async def test_names_without_diacritics_are_the_same_person(bot: Bot) -> None:
    await one_list(bot, "/neu Jürgen Bernd Carla")
    await one_list(bot, "/neu Juergen Bernd Carla")
    await one_list(bot, "/neu JURGEN Bernd Carla")
    a, b, c = people(bot, "Jürgen", "Juergen", "JURGEN")
    assert a == b == c and a[1] == "JURGEN"  # named as on the latest list
    await ok(bot, "/spieler", "JURGEN · auch: Juergen, Jürgen · 3 Listen")


async def test_das_bin_ich_button_under_a_new_list(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    msg = bot.api.messages(CHAT)[-1]
    assert "🙋 Das bin ich" in buttons(msg)
    phone = Phone(bot, msg.message_id, user_id=5)
    await phone.tap("🙋 Das bin ich")
    assert set(buttons(phone.msg)) >= {"🙋 Anna", "🙋 Bernd", "🙋 Carla", "Neues Spiel"}
    await phone.tap("🙋 Bernd")
    assert "Du bist Bernd" in last_answer(bot)
    await phone.tap("🙋 Carla", user_id=6)
    assert "Du bist Carla" in last_answer(bot)
    # A second tap on Bernd by someone else is refused (an alert), nothing changes.
    await phone.tap("🙋 Bernd", user_id=6)
    assert "schon mit" in last_answer(bot)
    await ok(bot, "/ich", "Du bist Bernd", user_id=5)
    await ok(bot, "/ich", "Du bist Carla", user_id=6)
    # Forged data (not on the message) changes nothing.
    await phone.data("v1:me:999:0", user_id=9)
    await ok(bot, "/ich", "keinem Namen", user_id=9)


async def test_merge_and_split_two_spellings(bot: Bot) -> None:
    await one_list(bot, "/neu Fritz Bernd Carla")
    await one_list(bot, "/neu Fritzi Bernd Carla")
    fritz, fritzi = people(bot, "Fritz", "Fritzi")
    assert fritz != fritzi
    await ok(bot, "/spieler zusammen Fritzi Fritz", "Eine Person: Fritzi")
    fritz, fritzi = people(bot, "Fritz", "Fritzi")
    assert fritz == fritzi and fritz[1] == "Fritzi"
    await refused(bot, "/spieler zusammen Fritz Fritzi", "schon eine Person")
    # Two names that sat at one table are two people.
    await refused(bot, "/spieler zusammen Bernd Carla", "zusammen auf einer Liste")
    await refused(bot, "/spieler zusammen Fritz Xaver", "steht auf keiner Liste")
    await refused(bot, "/spieler zusammen Fritz", "Welche Namen")
    await refused(bot, "/spieler quatsch", "kenne ich bei /spieler nicht")
    # Undo: exactly as before.
    await ok(bot, "/spieler trennen Fritzi Fritz", "Getrennt")
    assert people(bot, "Fritz", "Fritzi")[0] != people(bot, "Fritz", "Fritzi")[1]
    await refused(bot, "/spieler trennen Bernd Carla", "mit niemandem zusammengelegt")
    await refused(bot, "/spieler trennen Bernd Fritz", "nicht als eine Person")
    # An account on either side goes with the merge; two different accounts refuse it.
    await ok(bot, "/ich Fritz", user_id=3)
    await ok(bot, "/ich Fritzi", user_id=4)
    await refused(bot, "/spieler zusammen Fritz Fritzi", "verschiedenen Telegram-Konten")
    await ok(bot, "/ich nicht", user_id=4)
    await ok(bot, "/spieler zusammen Fritzi Fritz")
    await ok(bot, "/ich", "Du bist Fritzi", user_id=3)
    await ok(bot, "/spieler trennen Fritz", "Getrennt")
    await ok(bot, "/ich", "Du bist Fritz", user_id=3)  # the account stayed with its row


async def test_people_are_per_place(bot: Bot) -> None:
    await one_list(bot)
    await ok(bot, "/ich Anna", user_id=7)
    await one_list(bot, "/neu Anna Bernd Carla")
    await bot.say("/neu Anna Bernd Carla", chat_id=-2002)
    await ok(bot, "/ich", "keinem Namen", user_id=7, chat_id=-2002)
    (other,) = people(bot, "Anna", chat_id=-2002)
    assert other == ("n:anna", "Anna")
