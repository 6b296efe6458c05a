"""A second console session on the same database books anew (no update id is reused)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from skatbot.app import build_application
from skatbot.standin.botapi import BotApi
from skatbot.standin.console import run_console
from skatbot.storage.database import Database


async def session(db: Database, lines: str, out_dir: Path) -> list[str]:
    stdout = io.StringIO()

    def build_app(api: BotApi):  # type: ignore[no-untyped-def]
        return build_application(api.token, db, bot_api=api, rate_limit=False)

    code = await asyncio.wait_for(
        run_console(build_app, stdin=io.StringIO(lines), stdout=stdout, out_dir=out_dir), 30
    )
    assert code == 0
    return stdout.getvalue().splitlines()


async def test_a_later_session_is_not_taken_for_a_redelivery(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    try:
        first = await session(
            db, "/neu Anna Bernd Carla\n/spiel Bernd grand ohne 1 hand gewonnen\n", tmp_path
        )
        assert any("Spiel 1/36" in line for line in first)
        second = await session(db, "/spiel Carla kreuz mit 2 gewonnen\n", tmp_path)
        assert any("Spiel 2/36 · Carla: Kreuz mit 2" in line for line in second), second
    finally:
        db.dispose()


async def test_each_reply_is_printed_before_the_next_line(tmp_path: Path) -> None:
    """The poller keeps a long poll open while replies go out; the console must not hold a
    reply back behind that unfinished getUpdates (a /pdf used to appear after the next line)."""
    db = Database(f"sqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    try:
        lines = await session(db, "/neu Anna Bernd Carla\n/pdf\n/stand\n", tmp_path)
    finally:
        db.dispose()
    pdf, stand = lines.index("> /pdf"), lines.index("> /stand")
    assert any("gespeichert" in line for line in lines[pdf:stand]), lines


async def test_the_output_folder_is_created_for_its_owner_only(tmp_path: Path) -> None:
    import stat

    db = Database(f"sqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    out = tmp_path / "ausgabe"
    try:
        lines = await session(db, "/neu Anna Bernd Carla\n/pdf\n", out)
        assert any("gespeichert" in line for line in lines), lines
        assert stat.S_IMODE(out.stat().st_mode) == 0o700
    finally:
        db.dispose()


async def test_the_console_shows_tables_as_aligned_columns(tmp_path: Path) -> None:
    """Text form first (as the README shows); /darstellung tabelle: the rich message's
    tables as aligned columns, struck rows struck."""
    db = Database(f"sqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    script = (
        "/neu Anna Bernd Carla\n/spiel Anna grand ohne 1 hand gewonnen\n"
        "/spiel Bernd kreuz mit 2 verloren\n/korrigieren 2 Bernd kreuz mit 3 verloren\n"
        "/stand\n/darstellung tabelle\n/liste\n/stand\n"
    )
    try:
        lines = await session(db, script, tmp_path)
    finally:
        db.dispose()
    first = lines.index("> /stand")
    assert lines[first + 2].startswith("1. Anna")  # text form
    table = lines[lines.index("> /liste") :]
    header = next(line for line in table if line.startswith("Nr "))
    assert [c.strip() for c in header.split("│")] == [
        "Nr",
        "Geber",
        "Spiel",
        "Wert",
        "Anna",
        "Bernd",
        "Carla",
    ]
    rows = table[table.index(header) + 2 : table.index(header) + 5]

    def bars(row: str) -> list[int]:  # display columns of the separators (strokes take none)
        shown = row.replace("\u0336", "")
        return [i for i, ch in enumerate(shown) if ch == "│"]

    assert len({tuple(bars(row)) for row in rows}) == 1  # the columns line up
    assert "\u0336" in rows[1]  # the corrected game is struck
    stand = lines[len(lines) - lines[::-1].index("> /stand") :]
    assert any(line.startswith("Platz│Spieler") for line in stand)  # a compact table


async def test_the_console_shows_and_presses_a_row_of_page_buttons(tmp_path: Path) -> None:
    """A long /liste in table form: the page buttons are a row inside the rich message,
    printed under it (a greyed-out one marked ⊘), and ``!N`` presses them; the page is an
    edit of the same message."""
    db = Database(f"sqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    deals = "/eingepasst\n" * 21
    try:
        lines = await session(
            db, f"/darstellung tabelle\n/neu Anna Bernd Carla\n{deals}/liste\n!1\n!1\n", tmp_path
        )
    finally:
        db.dispose()
    listed = lines[lines.index("> /liste") :]
    assert "[◀ zurück] [Ende ▶ ⊘]" in listed
    assert "(drückt [◀ zurück])" in listed
    assert "✎ Liste (ISkO, Seeger-Fabian)" in listed
    assert "Zeilen 1–20 von 21 · alle: /liste alle" in listed
    assert listed[-3:] == [
        "[◀ Anfang ⊘] [weiter ▶]",
        "> !1",
        "⚠ Knopf [◀ Anfang] ist gesperrt und tut nichts.",
    ]


async def test_a_player_asks_for_themselves_alone(tmp_path: Path) -> None:
    """``Anna> ~/wert …`` is an ephemeral command (Bot API 10.2): only the bot receives it,
    and its answer is printed for Anna alone; a command that is no ephemeral one is refused
    with the ones that are."""
    db = Database(f"sqlite:///{tmp_path / 'skatbot.db'}")
    db.migrate()
    try:
        lines = await session(db, "Anna> ~/wert grand mit 1\n~/neu Anna Bernd Carla\n", tmp_path)
    finally:
        db.dispose()
    asked = lines.index("> Anna> ~/wert grand mit 1")
    answer = lines[asked + 1]
    assert answer.startswith("[nur Anna] ") and "Grand mit 1" in answer, lines[asked:]
    refused = lines[lines.index("> ~/neu Anna Bernd Carla") + 1]
    assert refused.startswith("⚠") and "/wert" in refused, refused
    assert not any("Neue Liste" in line for line in lines), lines
