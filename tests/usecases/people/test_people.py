"""Who is who: /ich, "Das bin ich" under a new list, links across lists and renames, names
matched by spelling, /spieler zusammen and trennen. Forged "Das bin ich" data:
tests/handlers/test_people.py."""

from __future__ import annotations

from skatbot.usecases.people.persons import resolve_people
from tests.harness import Harness
from tests.helpers import ok, refused
from tests.usecases.sheet.test_builder import Phone, buttons

CHAT = -1001


def people(chat: Harness, *names: str, chat_id: int = CHAT) -> list[tuple[str, str]]:
    """(key, display name) of each name, as the resolver says."""

    def read(session):  # type: ignore[no-untyped-def]
        person = resolve_people(session, chat_id)
        return [(person(n).key, person(n).name) for n in names]

    return chat.db.run_read(read)


async def one_list(chat: Harness, command: str = "/neu Anna Bernd Carla") -> None:
    await ok(chat, command)
    await ok(chat, "/spiel Bernd grand ohne 1 hand gewonnen")
    await ok(chat, "/abschluss ja")


async def test_ich_links_an_account_and_the_link_carries_across_lists_and_renames(
    chat: Harness,
) -> None:
    await one_list(chat)
    await ok(chat, "/ich anna", "Du bist Anna ✓", user_id=7, name="Anna Schmidt")
    await ok(chat, "/ich", "Du bist Anna", user_id=7)
    await ok(chat, "/ich Anna", "schon Anna", user_id=7)
    await refused(chat, "/ich Anna", "schon mit Anna Schmidt verknüpft", user_id=8)
    # A new list, and Anna renamed on it: the link stays; both spellings are one person.
    await ok(chat, "/neu Anna Bernd Dora")
    await ok(chat, "/umbenennen Anna Anni")
    anna, anni, bernd = people(chat, "Anna", "Anni", "bernd")
    assert anna == anni and anna[0].startswith("p:") and anni[1] == "Anni"
    assert bernd == ("n:bernd", "Bernd")  # unlinked: matched by spelling, case-insensitive
    listed = await ok(chat, "/spieler", "Anni ✓ Anna Schmidt · auch: Anna · 2 Listen")
    assert "Dora · 1 Liste" in listed and "Bernd · 2 Listen" in listed
    # Another account cannot take it; /ich nicht frees it.
    await ok(chat, "/ich nicht", "gelöst", user_id=7)
    await ok(chat, "/ich Anni", "Du bist Anni ✓", user_id=8)
    # Linking to another name moves the link and says how to merge if both are you.
    await ok(chat, "/ich Bernd", "vorher Anni", "/spieler zusammen Bernd Anni", user_id=8)


async def test_names_without_diacritics_are_the_same_person(chat: Harness) -> None:
    await one_list(chat, "/neu Jürgen Bernd Carla")
    await one_list(chat, "/neu Juergen Bernd Carla")
    await one_list(chat, "/neu JURGEN Bernd Carla")
    a, b, c = people(chat, "Jürgen", "Juergen", "JURGEN")
    assert a == b == c and a[1] == "JURGEN"  # named as on the latest list
    await ok(chat, "/spieler", "JURGEN · auch: Juergen, Jürgen · 3 Listen")


async def test_das_bin_ich_button_under_a_new_list(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    msg = chat.last(CHAT)
    assert "🙋 Das bin ich" in buttons(msg)
    phone = Phone(chat, msg.message_id, user_id=5)
    await phone.tap("🙋 Das bin ich")
    assert set(buttons(phone.msg)) >= {"🙋 Anna", "🙋 Bernd", "🙋 Carla", "Neues Spiel"}
    await phone.tap("🙋 Bernd")
    assert "Du bist Bernd" in phone.answer
    await phone.tap("🙋 Carla", user_id=6)
    assert "Du bist Carla" in phone.answer
    # A second tap on Bernd by someone else is refused (an alert), nothing changes.
    tapped = await phone.tap("🙋 Bernd", user_id=6)
    assert "schon mit" in phone.answer and tapped.alert
    await ok(chat, "/ich", "Du bist Bernd", user_id=5)
    await ok(chat, "/ich", "Du bist Carla", user_id=6)


async def test_merge_and_split_two_spellings(chat: Harness) -> None:
    await one_list(chat, "/neu Fritz Bernd Carla")
    await one_list(chat, "/neu Fritzi Bernd Carla")
    fritz, fritzi = people(chat, "Fritz", "Fritzi")
    assert fritz != fritzi
    await ok(chat, "/spieler zusammen Fritzi Fritz", "Eine Person: Fritzi")
    fritz, fritzi = people(chat, "Fritz", "Fritzi")
    assert fritz == fritzi and fritz[1] == "Fritzi"
    await refused(chat, "/spieler zusammen Fritz Fritzi", "schon eine Person")
    # Two names that sat at one table are two people.
    await refused(chat, "/spieler zusammen Bernd Carla", "zusammen auf einer Liste")
    await refused(chat, "/spieler zusammen Fritz Xaver", "steht auf keiner Liste")
    await refused(chat, "/spieler zusammen Fritz", "Welche Namen")
    await refused(chat, "/spieler quatsch", "kenne ich bei /spieler nicht")
    # Undo: exactly as before.
    await ok(chat, "/spieler trennen Fritzi Fritz", "Getrennt")
    assert people(chat, "Fritz", "Fritzi")[0] != people(chat, "Fritz", "Fritzi")[1]
    await refused(chat, "/spieler trennen Bernd Carla", "mit niemandem zusammengelegt")
    await refused(chat, "/spieler trennen Bernd Fritz", "nicht als eine Person")
    # An account on either side goes with the merge; two different accounts refuse it.
    await ok(chat, "/ich Fritz", user_id=3)
    await ok(chat, "/ich Fritzi", user_id=4)
    await refused(chat, "/spieler zusammen Fritz Fritzi", "verschiedenen Telegram-Konten")
    await ok(chat, "/ich nicht", user_id=4)
    await ok(chat, "/spieler zusammen Fritzi Fritz")
    await ok(chat, "/ich", "Du bist Fritzi", user_id=3)
    await ok(chat, "/spieler trennen Fritz", "Getrennt")
    await ok(chat, "/ich", "Du bist Fritz", user_id=3)  # the account stayed with its row


async def test_people_are_per_place(chat: Harness) -> None:
    await one_list(chat)
    await ok(chat, "/ich Anna", user_id=7)
    await one_list(chat, "/neu Anna Bernd Carla")
    await chat.say("/neu Anna Bernd Carla", chat_id=-2002)
    await ok(chat, "/ich", "keinem Namen", user_id=7, chat_id=-2002)
    (other,) = people(chat, "Anna", chat_id=-2002)
    assert other == ("n:anna", "Anna")
