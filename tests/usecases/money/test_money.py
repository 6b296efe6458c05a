"""Money through the chat: /einsatz and /abrechnung at a table, the tournament's
/gebuehren, /preise, /abrechnung, /kasse and the prize on the certificates. Every amount is
computed by hand in the comments."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.harness import Harness
from tests.helpers import export_raw, ok, refused
from tests.pdf.helpers import all_text


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


async def _document(chat: Harness, message: str) -> tuple[str, bytes, str]:
    out = await chat.say(message)
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1, [r.text for r in out]
    name, data = docs[0]
    return name, data, "\n".join(r.text for r in out)


async def _export(chat: Harness) -> dict[str, Any]:
    return json.loads(await export_raw(chat))  # type: ignore[no-any-return]


async def _two_games(chat: Harness) -> None:
    # Anna Grand ohne 1 Hand won: +72, Seeger-Fabian +122; Bernd Kreuz mit 2 lost: −72, −122,
    # Anna and Carla +40 each → Anna 162, Bernd −122, Carla 40.
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")
    await ok(chat, "/spiel Bernd kreuz mit 2 verloren", "Stand: Anna 162 · Carla 40 · Bernd −122")


async def test_three_table_pairwise_settlement(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await _two_games(chat)
    await ok(
        chat, "/einsatz 1 ct", "1 ct pro Punkt, paarweise", "laufende Liste und alle folgenden"
    )
    # (3 × 162 − 80) = 406 ct; (3 × −122 − 80) = −446; (3 × 40 − 80) = 40.
    text = await ok(
        chat,
        "/abrechnung",
        "Anna (162): +4,06 €",
        "Bernd (−122): −4,46 €",
        "Carla (40): +0,40 €",
        "2 Überweisungen",
        "Bernd → Anna: 4,06 €",
        "Bernd → Carla: 0,40 €",
    )
    assert "Kasse" not in text
    money = (await _export(chat))["money"]
    assert money["balances_cents"] == {"Anna": 406, "Bernd": -446, "Carla": 40}
    assert money["transfers"] == [
        {"from": "Bernd", "to": "Anna", "cents": 406},
        {"from": "Bernd", "to": "Carla", "cents": 40},
    ]
    _, pdf, _ = await _document(chat, "/pdf")
    page = all_text(pdf)
    assert "Abrechnung" in page and "Bernd → Anna: 4,06 €" in page


async def test_four_table_pairwise_and_pot(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla Dora")
    # Dealer Anna sits out. Bernd Kreuz mit 2 lost: −122, the other three +30 each;
    # Carla Grand ohne 1 Hand won: +122 → Anna 30, Bernd −122, Carla 152, Dora 30.
    await ok(chat, "/spiel Bernd kreuz mit 2 verloren")
    await ok(chat, "/spiel Carla grand ohne 1 hand gewonnen")
    await ok(chat, "/einsatz 1 ct paarweise")
    # Σ = 90, n = 4: Anna 120 − 90 = 30, Bernd −488 − 90 = −578, Carla 608 − 90 = 518, Dora 30.
    await ok(
        chat,
        "/abrechnung",
        "Anna (30): +0,30 €",
        "Bernd (−122): −5,78 €",
        "Carla (152): +5,18 €",
        "3 Überweisungen",
        "Bernd → Carla: 5,18 €",
        "Bernd → Dora: 0,30 €",
    )
    await ok(chat, "/einsatz 50 ct verlustspiel", "50 ct pro verlorenem Spiel in die Kasse")
    await ok(chat, "/abrechnung", "Bernd (1 verl.): zahlt 0,50 €", "In der Kasse: 0,50 €")
    await ok(chat, "/einsatz 1 ct kasse")
    await ok(chat, "/abrechnung", "Bernd (−122): zahlt 1,22 €", "Carla (152): zahlt nichts")
    money = (await _export(chat))["money"]
    assert money["method"] == "kasse" and money["pot_cents"] == 122


async def test_a_stake_holds_for_the_following_lists_and_earlier_lists_keep_theirs(
    chat: Harness,
) -> None:
    await ok(chat, "/einsatz 1 ct", "für alle Listen")
    await ok(chat, "/neu Anna Bernd Carla")
    await _two_games(chat)
    await ok(chat, "/abschluss ja")
    await ok(chat, "/einsatz 2 ct", "ab der nächsten Liste")
    await ok(chat, "/abrechnung", "Endstand", "1 ct pro Punkt", "Bernd → Anna: 4,06 €")
    await ok(chat, "/weiter")
    await ok(chat, "/spiel Bernd grand ohne 1 hand gewonnen")
    # Bernd 122, Anna 0, Carla 0: Σ 122; Bernd (366 − 122) × 2 = 488 ct, the others −244.
    await ok(chat, "/abrechnung", "2 ct pro Punkt", "Bernd (122): +4,88 €", "Anna (0): −2,44 €")
    await ok(chat, "/einsatz", "2 ct pro Punkt, paarweise")
    await ok(chat, "/einsatz aus", "Ohne Einsatz")
    await refused(chat, "/abrechnung", "kein Einsatz festgelegt", "/einsatz 1 ct")


async def test_a_stake_set_after_closing_covers_that_list(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await _two_games(chat)
    await ok(chat, "/abschluss ja")
    await ok(chat, "/einsatz 1 ct", "zuletzt gespielte Liste")
    await ok(chat, "/abrechnung", "Bernd → Anna: 4,06 €")


async def test_bad_money_input_is_refused_and_changes_nothing(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await _two_games(chat)
    await refused(chat, "/abrechnung", "kein Einsatz festgelegt")
    before = await export_raw(chat)
    await refused(chat, "/einsatz -1 ct", "nicht negativ")
    await refused(chat, "/einsatz 1", "Cent oder Euro?", "1 ct oder 1 €")
    await refused(chat, "/einsatz 1 ct kasse paarweise", "nur eines")
    await refused(chat, "/einsatz viel", "kein Betrag")
    await refused(
        chat, "/abrechnung morgen", "kenne ich bei /abrechnung nicht", "/abrechnung abend"
    )
    await refused(chat, "/gebuehren startgeld 10 €", "gilt hier nicht", "an der Turnierleitung")
    await refused(chat, "/kasse", "gilt hier nicht", "an der Turnierleitung")
    assert await export_raw(chat) == before  # no "money" part: no stake was ever stored


async def test_help_explains_money(chat: Harness) -> None:
    text = await ok(chat, "/hilfe geld", "/einsatz 1 ct", "/abrechnung", "/gebuehren", "/preise")
    assert "100 %" in text
    await ok(chat, "/hilfe", "/einsatz", "/abrechnung")
    await ok(chat, "/hilfe turnier", "/gebuehren", "/preise", "/kasse")


# --- tournament ---------------------------------------------------------------------------------

RESULTS = [
    # seed 4711, 7 participants: Tisch 1 Frieda, Gustav, Dora, Anna; Tisch 2 Emil, Carla, Bernd
    "/ergebnis Frieda 500 12 2",
    "/ergebnis Gustav 300 8 6",
    "/ergebnis Dora 100 5 4",
    "/ergebnis Anna -50 3 5",
    "/ergebnis Emil 400 12 3",
    "/ergebnis Carla 200 8 5",
    "/ergebnis Bernd 50 4 3",
]


async def _tournament(chat: Harness) -> None:
    await ok(chat, "/turnier Vereinspreisskat")
    await ok(chat, "/teilnehmer Anna, Bernd, Carla, Dora, Emil, Frieda, Gustav")
    await ok(chat, "/gebuehren startgeld 10 €", "Startgeld: 10,00 € pro Teilnehmer")
    await ok(
        chat,
        "/gebuehren verlust 0,50 € ab 4 1 €\nverlust vierer 0,50 € ab 5 1 €\ntisch vierer 1 €",
        "Verlustspielgeld Dreiertisch: 0,50 € je verlorenem Spiel, ab dem 4. 1,00 €",
        "Verlustspielgeld Vierertisch: 0,50 € je verlorenem Spiel, ab dem 5. 1,00 €",
        "Tischgeld: 0,00 € am Dreiertisch, 1,00 € am Vierertisch",
    )
    await ok(chat, "/preise 50 % 30 % 20 %", "1. 50 % = 35,00 €")  # pot: 7 × 10 €
    await ok(chat, "/preise serie 5 €", "Serienpreise (je Serie): 1. 5,00 €")
    await ok(chat, "/auslosen 4711", "Tisch 1: Frieda, Gustav, Dora, Anna")
    for line in RESULTS:
        await ok(chat, line)


async def test_tournament_fees_prizes_cash_report_and_certificates(chat: Harness) -> None:
    await _tournament(chat)
    # Lost-game fees: 4-table (1,00 € from the 5th): Frieda 2 → 1,00; Gustav 6 → 4 × 0,50 +
    # 2 × 1 = 4,00; Dora 4 → 2,00; Anna 5 → 3,00. 3-table (1,00 € from the 4th): Emil 3 →
    # 1,50; Carla 5 → 3 × 0,50 + 2 × 1 = 3,50; Bernd 3 → 1,50. Sum 16,50 €; table fee 4 × 1 €.
    # Income 70 + 16,50 + 4 = 90,50 €; the series prize (5 €, Frieda) leaves a pot of 85,50 €:
    # 42,75 / 25,65 / 17,10 € for Frieda, Emil, Gustav.
    await ok(
        chat,
        "/abrechnung",
        "Anna: zahlt 14,00 € (Startgeld 10,00 € + 5 verlorene Spiele 3,00 € + Tischgeld 1,00 €)",
        "Carla: zahlt 13,50 € (Startgeld 10,00 € + 5 verlorene Spiele 3,50 €)",
        "Gustav: zahlt 15,00 €",
        "Preis 17,10 € → bekommt 2,10 €",
        "Frieda: zahlt 12,00 €",
        "Preis 47,75 € → bekommt 35,75 €",
        "Einnahmen 90,50 € · Auszahlungen 90,50 € · Saldo 0,00 €",
    )
    name, pdf, text = await _document(chat, "/kasse")
    assert re.fullmatch(r"kassenbericht-[a-z0-9-]+-\d{4}-\d\d-\d\d\.pdf", name), name
    assert "Verlustspielgeld: 16,50 €" in text and "Serienpreise: 5,00 €" in text
    page = all_text(pdf)
    for part in (
        "Kassenbericht",
        "Startgeld (7 × 10,00 €)",
        "Verlustspielgeld Serie 1 (28 verlorene Spiele)",
        "Summe Einnahmen",
        "90,50 €",
        "1. Platz: Frieda",
        "42,75 €",
        "Serie 1, 1. Platz: Frieda",
        "Saldo",
    ):
        assert part in page, part
    _, certificates, _ = await _document(chat, "/urkunden 3")
    pages = all_text(certificates)
    assert "Preis: 42,75 €" in pages and "Preis: 25,65 €" in pages and "Preis: 17,10 €" in pages
    money = (await _export(chat))["money"]
    assert money["income_cents"] == {"entry": 7000, "lost_games": 1650, "table": 400}
    assert money["balance_cents"] == 0
    assert [p["cents"] for p in money["payouts"]] == [4275, 2565, 1710, 500]


async def test_a_prize_equal_to_the_dues_says_nothing_is_owed(chat: Harness) -> None:
    await ok(chat, "/turnier Kleiner Preisskat")
    await ok(chat, "/teilnehmer Anna, Bernd, Carla")
    await ok(chat, "/gebuehren startgeld 10 €")
    await ok(chat, "/preise 10 €")
    await ok(chat, "/auslosen 1")
    await ok(chat, "/ergebnis Anna 300 5 0\nBernd 100 2 1\nCarla 0 1 2")
    text = await ok(
        chat, "/abrechnung", "Anna: zahlt 10,00 € (Startgeld 10,00 €) · Preis 10,00 € → quitt"
    )
    assert "→ zahlt 0,00 €" not in text, text


async def test_tournament_money_is_for_its_managers_and_validated(chat: Harness) -> None:
    await ok(chat, "/turnier Vereinspreisskat")
    await refused(chat, "/gebuehren startgeld 10 €", "verwalten", user_id=2, name="Gast")
    await refused(chat, "/preise 100 €", "verwalten", user_id=2, name="Gast")
    await ok(chat, "/gebuehren", "Startgeld: 0,00 €", user_id=2, name="Gast")  # reading is open
    await refused(chat, "/preise 50 % 30 % 10 %", "ergeben 90 %, nicht 100 %", "Nichts wurde")
    await refused(chat, "/preise 100 € 50 %", "nicht gemischt")
    await refused(chat, "/gebuehren startgeld -5 €", "nicht negativ")
    await refused(chat, "/gebuehren startgeld 0,505 €", "auf den Cent genau")
    await refused(
        chat, "/gebuehren startgeld 5 €\nverlust 0,50 € ab 4", "Zeile 2", "fehlt der Betrag"
    )
    await ok(chat, "/gebuehren", "Startgeld: 0,00 €")  # the refused message stored nothing
    await refused(chat, "/gebuehren eintritt 5 €", "kenne ich bei /gebuehren nicht")
    await refused(chat, "/einsatz 1 ct", "/einsatz gilt hier nicht", "Turnierleitung")
    await ok(chat, "/preise 100 € 60 € 40 €", "1. 100,00 € · 2. 60,00 € · 3. 40,00 €")
    text = await ok(chat, "/preise")
    assert "1. 100,00 €" in text


async def test_loeschen_deletes_the_stakes_too(chat: Harness) -> None:
    chat.set_admins(-1001, 1)
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/einsatz 1 ct")
    await ok(chat, "/loeschen")
    await ok(chat, "/loeschen ja")
    await ok(chat, "/einsatz", "Einsatz: keiner")


async def test_the_evening_is_settled_once_over_all_its_series(chat: Harness) -> None:
    await ok(chat, "/einsatz 1 ct")
    await ok(chat, "/neu Anna Bernd Carla")
    await _two_games(chat)  # series 1: 406, −446, 40 ct (see the three-table test)
    await ok(chat, "/abschluss ja")
    await ok(chat, "/weiter")
    # Series 2: Carla Null won: +23, Seeger-Fabian +73; Σ = 73 → Carla 3 × 73 − 73 = 146,
    # Anna and Bernd −73 each. Evening: Anna 406 − 73 = 333, Bernd −446 − 73 = −519,
    # Carla 40 + 146 = 186 (sum 0); Bernd pays both.
    await ok(chat, "/spiel Carla null gewonnen")
    text = await ok(
        chat,
        "/abrechnung abend",
        "Abrechnung des Abends (2 Serien)",
        "Einsatz: 1 ct pro Punkt, paarweise",
        "Anna: +3,33 €",
        "Bernd: −5,19 €",
        "Carla: +1,86 €",
        "Zahlungen: 2 Überweisungen",
        "Bernd → Anna: 3,33 €",
        "Bernd → Carla: 1,86 €",
    )
    assert "Ohne Einsatz" not in text
    # The latest list alone stays what it was.
    await ok(chat, "/abrechnung", "Carla (73): +1,46 €", "Anna (0): −0,73 €")


async def test_an_evening_without_stakes_or_with_mixed_methods_is_refused(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await _two_games(chat)
    before = await export_raw(chat)
    await refused(
        chat, "/abrechnung abend", "Keine Serie dieses Abends hat einen Einsatz", "/einsatz 1 ct"
    )
    await ok(chat, "/einsatz 1 ct kasse")  # covers the running list
    await ok(chat, "/abschluss ja")
    await ok(chat, "/weiter")
    await ok(chat, "/einsatz 1 ct")  # the new list: pairwise
    await ok(chat, "/spiel Carla null gewonnen")
    await refused(chat, "/abrechnung abend", "teils paarweise, teils in die Kasse", "/pdf")
    await refused(chat, "/abrechnung woche", "/abrechnung abend")
    assert before != await export_raw(chat)  # the games went in; the refusals changed nothing
