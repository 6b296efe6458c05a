"""The console plays everything the chat can: several chats (#chat), buttons as another
player (Name> !N), messages over several lines (a line ending in a backslash), and in a
terminal a one-line hint and a prompt. Through the real command line in a subprocess."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from skatbot.standin.console import HINT
from tests.test_cli import skatbot


def test_two_chats_side_by_side(tmp_path: Path) -> None:
    lines = "\n".join(
        [
            "/neu Anna Bernd Carla",
            "#tisch2 /neu Dora Emil Fritz",
            "Dora> /spiel Dora grand mit 1 g",
            "#Skatrunde /stand",
            "#tisch2",
            "/stand",
        ]
    )
    done = skatbot("console", stdin=lines + "\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Neue Liste: Anna, Bernd, Carla" in out and "Neue Liste: Dora, Emil, Fritz" in out
    first, second = out.split("> #Skatrunde /stand", 1)
    assert "Dora: Grand mit 1 – gewonnen" in first
    stand_here, rest = second.split("(jetzt im Chat #tisch2)", 1)
    assert "Anna 0" in stand_here and "Dora" not in stand_here  # each chat its own list
    assert "Dora 98" in rest


def test_a_button_as_another_player_and_a_message_over_lines(tmp_path: Path) -> None:
    lines = "\n".join(
        [
            "#Turnier /turnier Preisskat",
            "/teilnehmer Anna, \\",
            "Bernd, \\",
            "Carla",
            "/serienlaenge 1 1",
            "/auslosen 4711",
        ]
    )
    done = skatbot("console", stdin=lines + "\n", cwd=tmp_path)
    assert "3 Teilnehmer eingetragen: Anna, Bernd, Carla" in done.stdout, done.stdout
    code = done.stdout.split("Tisch 1 → /tisch ", 1)[1].split()[0]
    table = "\n".join(
        [
            # the management (the console's own user, who made the tournament) links the
            # table; a code typed by a stranger is refused
            f"#tisch1 /tisch {code}",
            "Bernd> /spiel Bernd null g",
            "Anna> /abschluss",
            # the sign message: [✍️ Unterschreiben] / [✍️ Carla] [✍️ Bernd] [✍️ Anna] (the
            # seats of draw 4711); Carla says who she is at the table, the management
            # confirms it ([✅ Ja, stimmt] [❌ Nein]), then she taps her name
            "Carla> /ich Carla",
            "!1",
            "Carla> !2",
        ]
    )
    done = skatbot("console", stdin=table + "\n", cwd=tmp_path)
    assert "  [✍️ Carla] [✍️ Bernd] [✍️ Anna]" in done.stdout, done.stdout
    assert "(Carla drückt [✍️ Carla])\n  ⓘ Danke, Carla – unterschrieben." in done.stdout


def test_players_whose_names_have_spaces_and_dots(tmp_path: Path) -> None:
    lines = "\n".join(
        [
            "/neu Anna Maria, Peter M., Bernd",
            "Peter M.> /spiel Peter M. grand mit 1 g",
            "Anna Maria> /ich Anna Maria",
            "Peter M.> /ich Anna Maria",
            "Anna Maria> !1",  # [Neues Spiel] under the last booking, tapped as Anna Maria
        ]
    )
    done = skatbot("console", stdin=lines + "\n", cwd=tmp_path)
    out = done.stdout
    assert "✅ Spiel 1/36 · Peter M.: Grand mit 1 – gewonnen" in out, out
    assert "Du bist Anna Maria ✓" in out, out
    # Peter M. is another person than Anna Maria: her name is taken
    after = out.split("> Peter M.> /ich Anna Maria", 1)[1]
    assert "Du bist Anna Maria ✓" not in after.split("\n> ", 1)[0], after
    assert "(Anna Maria drückt [Neues Spiel])" in out, out


def test_a_player_is_the_same_person_in_a_later_session(tmp_path: Path) -> None:
    # the console keeps its database in the working folder: Bernd of the first session is
    # Bernd of the next (a table signed in a later session counts for the right person)
    first = skatbot("console", stdin="/neu Anna Bernd Carla\nBernd> /ich Bernd\n", cwd=tmp_path)
    assert "Du bist Bernd ✓" in first.stdout, first.stdout
    later = skatbot("console", stdin="Carla> /ich\nBernd> /ich\n", cwd=tmp_path)
    carla, bernd = later.stdout.split("> Bernd> /ich", 1)
    assert "noch mit keinem Namen verknüpft" in carla, later.stdout
    assert "Du bist Bernd." in bernd, later.stdout


def test_a_terminal_gets_a_hint_and_a_prompt(tmp_path: Path) -> None:
    main, child = pty.openpty()
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SKATBOT_"))
    }
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    code = "import sys; from skatbot.cli import main; sys.exit(main())"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "console"],
        stdin=child, stdout=child, stderr=subprocess.DEVNULL, cwd=tmp_path, env=environment,
    )  # fmt: skip
    os.close(child)
    seen = b""

    def read_until(marker: bytes, timeout: float = 60) -> None:
        nonlocal seen
        end = time.time() + timeout
        while marker not in seen and time.time() < end:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:
                    break

    try:
        read_until(b"#Skatrunde> ")
        os.write(main, b"!ende\n")
        proc.wait(60)
    finally:
        os.close(main)
        if proc.poll() is None:
            proc.kill()
    text = seen.decode(errors="replace")
    assert HINT in text.replace("\r", "")
    assert "#Skatrunde> " in text
    assert proc.returncode == 0


def test_a_role_code_reaches_its_person_in_the_private_chat(tmp_path: Path) -> None:
    """The league's code goes to the named person alone: the link button opens a private
    chat (Name> !N), where only that person gets the code; @Name writes there."""
    first = "\n".join(
        [
            "#liga /liga Kreisliga",
            "#liga /mannschaft Nord: Anna, Bernd, Carla, Dora",
            "#liga Anna> /ich Anna",
            "#liga /kapitaen Nord Anna",
            "#liga Bernd> !1",
            "#liga Anna> !1",
        ]
    )
    done = skatbot("console", stdin=first + "\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    group, taps = out.split("> #liga Bernd> !1", 1)
    assert "der Code geht privat an Anna" in group and "/kapitaen K" not in group, group
    bernd, anna = taps.split("> #liga Anna> !1", 1)
    assert "[@Bernd]" in bernd and "für Anna bestimmt" in bernd, bernd
    assert "[@Anna]" in anna and "/kapitaen K" in anna, anna
    code = anna.split("/kapitaen ", 1)[1].split()[0]
    # a later session on the same database: Anna redeems it in her private chat
    done = skatbot("console", stdin=f"@Anna /kapitaen {code}\n", cwd=tmp_path)
    assert "Anna ist Kapitän von „Nord“" in done.stdout, done.stdout
