"""An evening of several series through the use cases: /weiter keeps the table, /abend adds
the series up per player (text and PDF), /weiter follows /regeln and the tournament desk."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from skatbot.rules import calendar
from tests.harness import Harness
from tests.helpers import ok
from tests.pdf.helpers import all_text


@pytest.fixture
def chat(chat: Harness) -> Harness:
    """Tables in their text form: these tests read /stand, /liste and the like as a server
    before rich messages shows them (as the ``bot`` fixture's stand-in does)."""
    chat.rich_messages = False
    return chat


def set_created(chat: Harness, list_id: int, when: dt.datetime) -> None:
    with chat.db.write_engine.begin() as conn:
        conn.execute(
            text("UPDATE lists SET created_at = :t WHERE id = :i"), {"t": when, "i": list_id}
        )


def list_ids(chat: Harness, chat_id: int = -1001) -> list[int]:
    with chat.db.write_engine.begin() as conn:
        query = text("SELECT id FROM lists WHERE chat_id = :c ORDER BY id")
        return [row[0] for row in conn.execute(query, {"c": chat_id})]


async def three_series(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/serie 3")
    # Series 1 (3-table: 50 per game won or lost, 40 to each other player per game lost):
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")  # Anna +72
    await ok(chat, "/spiel Bernd herz mit 1 gewonnen")  # Bernd +20
    await ok(chat, "/spiel Carla kreuz mit 2 verloren")  # Carla −72
    # Anna 72 + 50 + 40 = 162 · Bernd 20 + 50 + 40 = 110 · Carla −72 − 50 = −122
    assert "Liste abgeschlossen" in await ok(chat, "/abschluss")
    started = await ok(chat, "/weiter")
    # Same players, same seats, dealer continuing (Anna, Bernd, Carla dealt), series length kept.
    assert "Neue Serie (2. des Abends)" in started
    assert "Anna, Bernd, Carla – 3 Spiele, ISkO" in started
    assert "Spiel 1/3 · Geber Anna · Vorhand Bernd" in started
    assert "/abend" in started
    # Series 2:
    await ok(chat, "/spiel Bernd grand mit 1 gewonnen")  # Bernd +48
    await ok(chat, "/spiel Bernd null gewonnen")  # Bernd +23
    await ok(chat, "/spiel Anna pik ohne 1 verloren")  # Anna −44
    # Anna −44 − 50 = −94 · Bernd 71 + 100 + 40 = 211 · Carla 0 + 40 = 40
    await ok(chat, "/abschluss")
    started = await ok(chat, "/weiter")
    assert "(3. des Abends)" in started and "Geber Anna" in started
    # Series 3: Carla went home, Dora sits in her seat; Anna is written differently.
    await ok(chat, "/umbenennen Carla Dora")
    await ok(chat, "/umbenennen Anna ANNA")
    await ok(chat, "/spiel Dora grand ohne 1 hand gewonnen")  # Dora 72 + 50 = 122, others 0


# Sums of the evening (hand-computed from the comments above):
# Bernd 110 + 211 + 0 = 321 · Dora – + – + 122 = 122 · ANNA 162 − 94 + 0 = 68 ·
# Carla −122 + 40 + – = −82
EXPECTED = [
    "1. Bernd 321 – S1 110 · S2 211 · S3 0",
    "2. Dora 122 – S1 – · S2 – · S3 122",
    "3. ANNA 68 – S1 162 · S2 −94 · S3 0",
    "4. Carla −82 – S1 −122 · S2 40 · S3 –",
]


async def test_abend_adds_up_three_series_linked_by_weiter(chat: Harness) -> None:
    await three_series(chat)
    reply = await ok(chat, "/abend")
    assert "Skatabend vom" in reply and "3 Serien" in reply
    assert "Serie 1: 3 Spiele von 3, abgeschlossen · ISkO, Seeger-Fabian" in reply
    assert "Serie 3: 1 Spiel von 3, läuft" in reply
    assert "Summe der Seeger-Fabian-Wertungen" in reply
    lines = reply.splitlines()
    ranking = [line for line in lines if line[:2] in ("1.", "2.", "3.", "4.")]
    assert ranking == EXPECTED
    assert "– = nicht dabei (zählt 0)" in reply
    assert "/abend pdf" in reply
    # Another chat sees nothing of this evening.
    assert "keine Liste" in await chat.text("/abend", chat_id=-1002)


async def test_abend_pdf_has_the_table_of_the_evening(chat: Harness, tmp_path) -> None:  # type: ignore[no-untyped-def]
    await three_series(chat)
    out = await chat.say("/abend pdf")
    docs = [r.document for r in out if r.document]
    assert len(docs) == 1, [r.text for r in out]
    name, data = docs[0]
    assert name.startswith("skatabend-") and name.endswith(".pdf")
    caption = "\n".join(r.text for r in out)
    assert "Skatabend vom" in caption and "1. Bernd 321" in caption
    (tmp_path / "abend.pdf").write_bytes(data)  # looked at as PNG while writing this
    content = all_text(data)
    assert "Summe der Seeger-Fabian-Wertungen" in content
    for header in ("Platz", "Name", "Serie 1", "Serie 2", "Serie 3", "Summe"):
        assert header in content
    # The ranking rows: place, name, the series (– where missing), the sum.
    flat = " ".join(content.split())
    for row in (
        "1. Bernd 110 211 0 321",
        "2. Dora – – 122 122",
        "3. ANNA 162 −94 0 68",
        "4. Carla −122 40 – −82",
    ):
        assert row in flat, (row, flat)
    assert "– = in dieser Serie nicht dabei, zählt 0." in flat
    assert "Serie 3 läuft noch" in flat
    # One Serienabschluss per series with the calculation.
    assert "Die Serien des Abends" in flat
    assert "72 + 50 × (1 − 0) + 40 × 1 = 162" in flat
    assert "71 + 50 × (2 − 0) + 40 × 1 = 211" in flat


async def test_the_evening_is_the_chain_of_one_berlin_day(chat: Harness) -> None:
    await three_series(chat)
    first, second, third = list_ids(chat)
    # 14 March 2026 is winter time (CET, UTC+1).
    set_created(chat, second, dt.datetime(2026, 3, 14, 19, 0))
    set_created(chat, third, dt.datetime(2026, 3, 14, 21, 0))
    # 23:30 UTC on the 13th is 00:30 on the 14th in Berlin: the same evening.
    set_created(chat, first, dt.datetime(2026, 3, 13, 23, 30))
    reply = await ok(chat, "/abend")
    assert "Skatabend vom 14.03.2026 – 3 Serien" in reply
    # 22:30 UTC on the 13th is 23:30 on the 13th in Berlin: the day before, not this evening.
    set_created(chat, first, dt.datetime(2026, 3, 13, 22, 30))
    reply = await ok(chat, "/abend")
    assert "Skatabend vom 14.03.2026 – 2 Serien" in reply
    assert "1. Bernd 211 – S1 211 · S2 0" in reply
    # A /neu starts a new evening, even on the same day and with the same players.
    set_created(chat, first, dt.datetime(2026, 3, 13, 23, 30))
    await ok(chat, "/spiel ANNA grand mit 1 gewonnen")
    await ok(chat, "/spiel Bernd grand mit 1 gewonnen")
    await ok(chat, "/abschluss")
    await ok(chat, "/neu Anna Bernd Carla")
    reply = await ok(chat, "/abend")
    assert "1 Serie\n" in reply
    assert "1. " in reply and "S1" not in reply


async def test_weiter_follows_regeln_haus(chat: Harness) -> None:
    await ok(chat, "/neu Anna Bernd Carla")
    await ok(chat, "/serie 3")
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen")  # Anna 72 + 50 = 122
    await ok(chat, "/eingepasst")
    await ok(chat, "/eingepasst")
    await ok(chat, "/abschluss")
    assert "gilt ab der nächsten Liste" in await ok(chat, "/regeln haus")
    started = await ok(chat, "/weiter")
    assert "Hausregeln, 3B3R (neu nach /regeln)" in started
    assert "Geber Anna" in started  # three deals: Anna, Bernd, Carla
    # House rules are on in the new series: Kontra is accepted and doubles.
    booked = await ok(chat, "/spiel Bernd grand mit 1 kontra gewonnen")  # 48 × 2 = 96
    assert "Bernd +96" in booked
    assert "Hausregeln" in await ok(chat, "/stand")
    reply = await ok(chat, "/abend")
    assert "Summe der Seeger-Fabian-Wertungen (ISkO) und der Punkte (Hausregeln)" in reply
    assert "Serie 2: 1 Spiel von 3, läuft · Hausregeln, 3B3R" in reply
    assert "1. Anna 122 – S1 122 · S2 0" in reply
    assert "2. Bernd 96 – S1 0 · S2 96" in reply


async def test_weiter_refused_at_a_tournament_desk(chat: Harness) -> None:
    desk = -3001
    await ok(chat, "/neu Anna Bernd Carla", chat_id=desk)
    await ok(chat, "/serie 3", chat_id=desk)
    for _ in range(3):
        await ok(chat, "/eingepasst", chat_id=desk)
    await ok(chat, "/abschluss", chat_id=desk)
    await ok(chat, "/turnier Stadtmeisterschaft", chat_id=desk)
    refused_neu = await chat.text("/neu Anna Bernd Carla", chat_id=desk)
    assert "Turnierleitung" in refused_neu
    # a desk is no place /weiter serves: it says what the chat is and where /weiter works
    refused_weiter = await chat.text("/weiter", chat_id=desk)
    assert "/weiter gilt hier nicht" in refused_weiter
    assert "Turnierleitung" in refused_weiter and "👉" in refused_weiter
    assert len(list_ids(chat, desk)) == 1  # nothing was created
    # a desk keeps no list: /spiel points to the tables and the ranking, not to /neu
    refused_spiel = await chat.text("/spiel Anna grand mit 1 gewonnen", chat_id=desk)
    assert "Turnierleitung" in refused_spiel and "/rangliste" in refused_spiel


async def test_refusals_name_a_fix(chat: Harness) -> None:
    assert "/neu Anna Bernd Carla" in await chat.text("/weiter")
    assert "/neu Anna Bernd Carla" in await chat.text("/abend")
    await ok(chat, "/neu Anna Bernd Carla")
    refused = await chat.text("/weiter")
    assert "Es läuft noch eine Liste" in refused and "/abschluss" in refused
    assert len(list_ids(chat)) == 1
    refused = await chat.text("/abend morgen")
    assert "„morgen“" in refused and "/abend pdf" in refused
    reply = await ok(chat, "/abend")  # an evening of one empty series
    assert "1 Serie" in reply and "1. " in reply


@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(
        min_value=dt.datetime(1997, 1, 1),
        max_value=dt.datetime(2037, 12, 31),
        timezones=st.just(dt.UTC),
    )
)
def test_berlin_fallback_agrees_with_the_time_zone_database(moment: dt.datetime) -> None:
    from zoneinfo import ZoneInfo

    expected = moment.astimezone(ZoneInfo("Europe/Berlin")).date()
    assert (moment + calendar._berlin_offset(moment)).date() == expected
    assert calendar.berlin_date(moment) == expected
