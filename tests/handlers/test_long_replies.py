"""No reply is lost to Telegram's limits: long answers arrive complete in several messages,
each within 4,096 characters (the stand-in refuses anything longer), and a PDF never depends
on a text fitting."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from skatbot.handlers.html_split import MAX_CAPTION, MAX_TEXT, plain_length, split_html
from tests.helpers import Bot
from tests.usecases.tournament.test_tournament_chat import ORGANISER, parse_tables, results_message

# 32 characters each, as long as a name may be
NAMES = [
    "Hans-Joachim-Friedrich-Wilhelmsx",
    "Marie-Luise-Charlotte-Amalia-Xyz",
    "Karl-Theodor-Maximilian-Ottokarx",
    "Anna-Katharina-Elisabeth-Sophiex",
]


def sent_ok(bot: Bot, before: int) -> None:
    """Telegram refused nothing since call ``before`` (no text too long, no broken HTML).
    The stand-in predates rich messages: the bot's one try of sendRichMessage (404, then the
    text form) is no refusal of a reply."""
    calls = bot.api.calls[before:]
    refused = [
        (c.method, c.error)
        for c in calls
        if not c.ok
        and c.method != "getUpdates"
        and not (c.method == "sendRichMessage" and c.status == 404)
    ]
    assert refused == []


async def test_liste_alle_of_48_games_with_long_names_arrives_complete(bot: Bot) -> None:
    await bot.say("/neu " + " ".join(NAMES))
    for n in range(48):
        declarer = NAMES[(n + 1) % 4]  # Vorhand: the dealer (seat n % 4) sits out
        suit = ["karo", "herz", "pik", "kreuz", "grand"][n % 5]
        outcome = "gewonnen" if n % 3 else "verloren"
        await bot.say(f"/spiel {declarer} {suit} mit {1 + n % 2} hand {outcome}")
    for nr in (3, 9, 15, 21, 27, 33, 39, 45):  # eight corrections
        declarer = NAMES[nr % 4]  # game nr was dealt by seat (nr - 1) % 4
        await bot.say(f"/korrigieren {nr} {declarer} grand ohne 1 schneider gewonnen")
    before = len(bot.api.calls)
    out = await bot.say("/liste alle")
    assert len(out) >= 2  # more than one message's worth
    for reply in out:
        assert plain_length(reply.html) <= MAX_TEXT
    text = "\n".join(r.text for r in out)
    numbers = [int(m) for m in re.findall(r"^ ?(\d+)\. ", text, re.M)]
    assert numbers == list(range(1, 49))  # every row present, once, in order
    assert len(re.findall(r"^ ?✗ ", text, re.M)) == 8  # and every struck row
    assert "Stand: " in out[-1].text  # the standings close the last message
    sent_ok(bot, before)


async def test_teilnehmer_200_and_rangliste_for_1000(bot: Bot) -> None:
    names = [f"Spieler{i:04d}" for i in range(1000)]
    await bot.say("/turnier Großes Preisskat", **ORGANISER)
    # the first message with 200 names: its confirmation lists them all
    before = len(bot.api.calls)
    out = await bot.say("/teilnehmer " + ", ".join(names[:200]), **ORGANISER)
    confirmation = "\n".join(r.text for r in out)
    assert "200 Teilnehmer eingetragen" in confirmation
    assert all(f"{i}. {names[i - 1]}" in confirmation for i in range(1, 201))
    sent_ok(bot, before)
    for start in range(200, 1000, 250):
        await bot.say("/teilnehmer " + ", ".join(names[start : start + 250]), **ORGANISER)

    drawn = "\n".join(r.text for r in await bot.say("/auslosen 4711", **ORGANISER))
    tables = parse_tables(drawn)
    assert sorted(n for t in tables for n in t) == names  # all 250 tables arrived
    seated = [n for t in tables for n in t]
    for start in range(0, 1000, 100):  # 100 result lines per message
        rows = {n: (i, 1, 0) for i, n in enumerate(seated[start : start + 100], start)}
        await bot.say(results_message(rows), **ORGANISER)

    before = len(bot.api.calls)
    out = await bot.say("/rangliste")
    assert len(out) >= 10
    ranking = "\n".join(r.text for r in out)
    places = re.findall(r"^(\d+)\. (Spieler\d{4}) – ", ranking, re.M)
    assert [int(p) for p, _ in places] == list(range(1, 1001))
    assert sorted(n for _, n in places) == names
    sent_ok(bot, before)

    out = await bot.say("/rangliste pdf")
    docs = [r for r in out if r.document]
    assert len(docs) == 1 and len(out) == 1  # the summary rides on the PDF as its caption
    assert plain_length(docs[0].html) <= MAX_CAPTION
    assert "alle 1000 Plätze stehen im PDF" in docs[0].text
    pdf = PdfReader(io.BytesIO(docs[0].document[1]))  # type: ignore[index]
    text = "\n".join(page.extract_text() for page in pdf.pages)
    assert all(name in text for name in (names[0], names[499], names[999]))


def test_split_keeps_tags_and_lines_whole() -> None:
    html = "\n".join(f"<b>{i}.</b> Hans &amp; <i>Grete</i> {'x' * 60}" for i in range(300))
    parts = split_html(html)
    assert len(parts) > 1
    for part in parts:
        assert plain_length(part) <= MAX_TEXT
        assert part.count("<b>") == part.count("</b>") and part.count("<i>") == part.count("</i>")
    assert "\n".join(parts) == html  # cut only at line ends


def test_split_counts_utf16_and_cuts_a_single_long_line_at_spaces() -> None:
    emoji_line = "🂡" * 3000  # 6,000 UTF-16 units, no space: cut hard
    parts = split_html(emoji_line)
    assert [plain_length(p) for p in parts] == [4096, 1904]
    words = " ".join(["Wort"] * 2000)  # one line of 9,999 characters
    parts = split_html(words)
    assert all(plain_length(p) <= MAX_TEXT for p in parts)
    assert " ".join(p.strip() for p in parts) == words
