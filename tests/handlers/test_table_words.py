"""The words a table says, through the real bot and the strict stand-in: a game counted aloud,
counts as words, bids and points as said, the abbreviations of a paper list, names typed
without their hyphen, ``/korrigieren Spiel N``, ``/wert`` without a result, an announcement
without "hand". A count that differs from the bot's is refused and changes nothing."""

from __future__ import annotations

from skatbot.rules.grammar import ABBREVIATIONS
from tests.handlers.test_edits import CHAT, edit, post
from tests.helpers import Bot, game_rows, ok, refused

# Each phrasing that a table used and the bot refused, with the line it books and its booking.
SAID = [
    ("/spiel Anna kreuz ohne 2 spiel 3 hand 4 gewonnen", "Anna: Kreuz ohne 2 Hand", "+48"),
    ("/spiel hans peter kreuz mit vieren gewonnen", "Hans-Peter: Kreuz mit 4", "+60"),
    ("/spiel Carla herz mit 2 gereizt bis 30 gewonnen", "Carla: Herz mit 2", "+30"),
    ("/spiel Anna grand ohne 1 h gewonnen", "Anna: Grand ohne 1 Hand", "+72"),
    ("/spiel HANS-PETER pik mit 1 61 augen", "Hans-Peter: Pik mit 1", "+22"),
    ("/spiel Carla karo mit 2 reizwert 27 gewonnen", "Carla: Karo mit 2", "+27"),
    ("/spiel hanspeter gr m1 schn g", "Hans-Peter: Grand mit 1 Schneider", "+72"),
    ("/spiel Anna pik ohne einem spiel zwei hand drei v", "Anna: Pik ohne 1 Hand", "−66"),
]


async def test_each_phrasing_of_the_table_books(bot: Bot) -> None:
    await ok(bot, "/neu anna hans-peter carla", "Anna, Hans-Peter, Carla")
    for message, line, booking in SAID:
        await ok(bot, message, line, booking)
    assert len(game_rows(bot.db)) == len(SAID)


async def test_a_count_that_differs_is_refused_and_changes_nothing(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand mit 1 gewonnen")
    before = game_rows(bot.db)
    text = await refused(
        bot,
        "/spiel Bernd kreuz ohne 2 spiel 3 hand 5 gewonnen",
        "Gesagt: „hand 5“",
        "ich rechne Hand 4",
        "„ohne 2 spiel 3 hand 4“",
    )
    assert "✅" not in text
    assert game_rows(bot.db) == before
    # the count the refusal gives books
    await ok(bot, "/spiel Bernd kreuz ohne 2 spiel 3 hand 4 gewonnen", "Kreuz ohne 2 Hand", "+48")


async def test_korrigieren_spiel_n(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(bot, "/spiel Anna grand mit 1 gewonnen")
    await ok(bot, "/spiel Bernd herz mit 2 verloren")
    await ok(bot, "/korrigieren Spiel 2 Bernd herz mit 2 gewonnen", "Spiel 2 korrigiert", "+30")


async def test_an_edited_korrigieren_spiel_n_corrects_again(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla", chat_id=CHAT)
    await ok(bot, "/spiel Anna grand mit 1 gewonnen", chat_id=CHAT)
    await ok(bot, "/spiel Bernd herz mit 2 verloren", chat_id=CHAT)
    message_id, answers = await post(bot, "/korrigieren Spiel 2 Bernd herz mit 2 gewonnen")
    assert "Spiel 2 korrigiert" in "\n".join(a.text for a in answers)
    _, answers = await edit(bot, message_id, "/korrigieren Spiel 2 Bernd herz mit 3 gewonnen")
    text = "\n".join(a.text for a in answers)
    assert "Herz mit 3" in text and "+40" in text, text
    assert not any(a.refusal for a in answers), text


async def test_wert_without_a_result_shows_both_bookings(bot: Bot) -> None:
    await ok(bot, "/wert null ouvert", "Null ouvert", "gewonnen: +46", "verloren: −2 × 46 = −92")
    await ok(bot, "/wert kreuz mit 2", "gewonnen: +36", "verloren: −2 × 36 = −72")


async def test_an_announcement_without_hand_is_a_hand_game_and_says_so(bot: Bot) -> None:
    await ok(bot, "/neu Anna Bernd Carla")
    await ok(
        bot,
        "/spiel Anna grand mit 1 schwarz angesagt gewonnen",
        "Grand mit 1 Hand Schwarz angesagt",
        "Hand automatisch gesetzt",
    )


async def test_hilfe_spiel_lists_every_abbreviation(bot: Bot) -> None:
    text = await bot.text("/hilfe spiel")
    listed = text.split("Abkürzungen:")[1].split("\n\n")[0]
    for short, word in ABBREVIATIONS.items():
        assert f"{short} {word}".casefold() in listed.casefold(), (short, listed)
    assert "kreuz ohne 2 spiel 3 hand 4" in text and "gereizt bis 30" in text
