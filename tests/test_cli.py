"""`skatbot wert ANSAGE... [--json]` (docs/rules.md §1): the calculator."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from skatbot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_wert_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "wert", "grand", "ohne", "1", "hand", "gewonnen", "--json")
    assert code == 0
    assert err == ""
    last = out.strip().splitlines()[-1]
    assert json.loads(last) == {"value": 72, "score": 72, "won": True, "overbid": False}
    assert "Grand ohne 1, Spiel 2, Hand 3 → 3 × 24 = 72" in out


def test_wert_json_flag_anywhere(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "wert", "--json", "grand ohne 1 hand gewonnen")
    assert code == 0
    assert json.loads(out.strip().splitlines()[-1])["value"] == 72


# argv words, value, score, won, overbid
CASES = [
    (["kreuz", "mit", "2", "gewonnen"], 36, 36, True, False),
    (["karo", "mit", "1", "reiz", "30", "gewonnen"], 36, -72, False, True),
    (["null", "ouvert", "hand", "verloren"], 59, -118, False, False),
    (["Kreuz", "m1", "hand", "sa", "augen", "85"], 60, -120, False, False),
    (["grand ouvert mit 4 +"], 264, 264, True, False),
]


@pytest.mark.parametrize(("words", "value", "score", "won", "overbid"), CASES)
def test_wert_json_cases(
    capsys: pytest.CaptureFixture[str],
    words: list[str],
    value: int,
    score: int,
    won: bool,
    overbid: bool,
) -> None:
    code, out, _ = run(capsys, "wert", *words, "--json")
    assert code == 0
    result = json.loads(out.strip().splitlines()[-1])
    assert result == {"value": value, "score": score, "won": won, "overbid": overbid}


def test_wert_text_output_marks_overbid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "wert", "karo", "mit", "1", "reiz", "30", "gewonnen")
    assert code == 0
    assert "überreizt" in out
    assert "−2 × 36 = −72" in out
    assert "{" not in out  # no JSON without --json


def test_wert_invalid_bid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "wert", "herz", "mit", "1", "reiz", "19", "gewonnen")
    assert code != 0
    assert "18" in err and "20" in err
    assert "Reizwert" in err
    assert out == ""


def test_wert_grand_mit_5(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "wert", "grand", "mit", "5", "gewonnen")
    assert code != 0
    assert "4" in err
    assert out == ""


@pytest.mark.parametrize(
    "words",
    [[], ["grnad", "mit", "1", "+"], ["kreuz", "mit", "1", "gewonnen", "augen", "50"]],
)
def test_wert_errors_go_to_stderr(capsys: pytest.CaptureFixture[str], words: list[str]) -> None:
    code, out, err = run(capsys, "wert", *words)
    assert code != 0
    assert err.startswith("Fehler:")
    assert out == ""


def test_wert_ouvert_says_what_was_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "wert", "kreuz", "ouvert", "mit", "2", "gewonnen")
    assert code == 0
    assert "automatisch" in out


# --- usage ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["--help"], "Aufruf: skatbot [-h] BEFEHL ..."),
        (["-h"], "Aufruf: skatbot [-h] BEFEHL ..."),
        (["wert", "--help"], "Aufruf: skatbot wert [-h] [--json] ANSAGE..."),
        (["wert", "-h"], "Aufruf: skatbot wert [-h] [--json] ANSAGE..."),
        (["wert", "grand", "--help"], "Aufruf: skatbot wert [-h] [--json] ANSAGE..."),
        (["console", "--help"], "Aufruf: skatbot console [-h] [--out OUT]"),
        (["run", "--help"], "Aufruf: skatbot run [-h]"),
        (["webhook", "--help"], "Aufruf: skatbot webhook [-h]"),
        (["sicherung", "--help"], "Aufruf: skatbot sicherung [-h] [--ersetzen] DATEI"),
        (["wiederherstellen", "-h"], "Aufruf: skatbot wiederherstellen [-h] [--ersetzen] DATEI"),
        (["umzug", "--help"], "Aufruf: skatbot umzug [-h] ZIEL-URL"),
    ],
)
def test_help_prints_usage_and_exits_0(tmp_path: Path, argv: list[str], usage: str) -> None:
    done = skatbot(*argv, cwd=tmp_path)  # a console started by mistake would stay in tmp_path
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith(usage), done.stdout
    assert "Fehler" not in done.stdout


def test_help_names_every_command_in_german() -> None:
    out = skatbot("--help").stdout
    for line in ("Befehle:", "Optionen:", "diese Hilfe zeigen und beenden",
                 "wert            ein Spiel berechnen, ohne es einzutragen",
                 "sicherung       die Datenbank sichern, während der Bot läuft",
                 "wiederherstellen\n", "umzug           alles in eine andere, leere Datenbank",
                 "Hilfe zu einem Befehl: skatbot BEFEHL --help"):  # fmt: skip
        assert line in out, out
    wert = skatbot("wert", "--help").stdout
    assert "skatbot wert grand ohne 1 hand gewonnen" in wert
    assert "--json      Ergebnis als JSON (letzte Zeile)" in wert


def test_help_examples_work() -> None:
    """The examples that `skatbot wert --help` shows are accepted as they are written."""
    wert = skatbot("wert", "--help").stdout
    examples = [line.split("skatbot wert ", 1)[1] for line in wert.splitlines()
                if line.startswith("  skatbot wert ")]  # fmt: skip
    assert len(examples) == 3
    for example in examples:
        done = skatbot("wert", *example.split())
        assert done.returncode == 0, (example, done.stderr)


def test_unknown_command_is_a_usage_error(tmp_path: Path) -> None:
    done = skatbot("bogus", cwd=tmp_path)
    assert done.returncode == 2
    assert "Aufruf: skatbot" in done.stderr


# --- the README's sample output -------------------------------------------

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_transcript() -> list[tuple[str, list[str]]]:
    """The commands of the README's console block, each with the lines shown after it."""
    text = README.read_text(encoding="utf-8")
    block = text.split("```console\n", 1)[1].split("```", 1)[0]
    runs: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        else:
            runs[-1][1].append(line)
    return runs


def shown_in(shown: list[str], actual: list[str]) -> bool:
    """``shown`` is ``actual`` with runs of lines left out where it says ``...``."""
    pattern = "".join("(?:.*\n)*" if line == "..." else re.escape(line) + "\n" for line in shown)
    return re.fullmatch(pattern, "".join(f"{line}\n" for line in actual)) is not None


def test_readme_transcript_is_what_the_bot_prints(tmp_path: Path) -> None:
    runs = readme_transcript()
    assert [cmd.split(" | ")[-1] if " | " in cmd else cmd.split()[:2] for cmd, _ in runs] == [
        "skatbot console",
        ["skatbot", "wert"],
    ]
    env = {"SKATBOT_DATABASE_URL": f"sqlite:///{tmp_path / 'readme.db'}"}
    for command, shown in runs:
        if " | " in command:  # printf '...' | skatbot console
            printf, program = command.split(" | ")
            stdin = shlex.split(printf)[1].replace("\\n", "\n")
            done = skatbot(*shlex.split(program)[1:], stdin=stdin, cwd=tmp_path, env=env)
        else:
            done = skatbot(*shlex.split(command)[1:], cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        actual = done.stdout.splitlines()
        assert "..." not in actual
        assert shown_in(shown, actual), "\n".join(["README:", *shown, "", "printed:", *actual])
        assert len([s for s in shown if s != "..."]) >= len(actual) - 1  # one line left out


def test_shown_in_is_strict() -> None:
    assert shown_in(["a", "...", "d"], ["a", "b", "c", "d"])
    assert shown_in(["a", "b"], ["a", "b"])
    assert not shown_in(["a", "b"], ["a", "b", "c"])
    assert not shown_in(["a", "...", "d"], ["a", "b", "c", "e"])
    assert not shown_in(["a", "x"], ["a", "b"])


# --- a database whose driver is missing -----------------------------------

NO_PSYCOPG = "import sys; sys.modules['psycopg'] = None; "
PG = "postgresql+psycopg://skatbot@127.0.0.1:9/skatbot"
INSTALL = (
    "PostgreSQL braucht den Treiber psycopg, der nicht installiert ist: pip install "
    "'.[postgres]' im Quellordner von skatbot (oder pip install 'psycopg[binary]').\n"
)


@pytest.mark.parametrize(
    ("argv", "env"),
    [
        (["console"], {}),
        ([], {}),  # no token: the console, after saying so on stdout
        (["run"], {"TELEGRAM_BOT_TOKEN": "123:abc"}),
        ([], {"TELEGRAM_BOT_TOKEN": "123:abc"}),
        (
            ["webhook", "--url", "https://bot.example.org/tg", "--port", "9"],
            {"TELEGRAM_BOT_TOKEN": "123:abc", "SKATBOT_WEBHOOK_SECRET": "s3cret"},
        ),
    ],
)
def test_missing_postgres_driver_is_one_line_and_exit_2(
    tmp_path: Path, argv: list[str], env: dict[str, str]
) -> None:
    done = skatbot(*argv, env={"SKATBOT_DATABASE_URL": PG, **env}, cwd=tmp_path, prelude=NO_PSYCOPG)
    assert done.returncode == 2, done.stderr
    assert done.stderr == INSTALL
    assert "Traceback" not in done.stdout + done.stderr


def test_the_blocked_import_is_what_the_check_sees(tmp_path: Path) -> None:
    """Without the block the same URL gets past the driver check (and fails later, on the
    connection to a port nobody listens on): the test above really simulates the driver."""
    pytest.importorskip("psycopg")
    done = skatbot("console", env={"SKATBOT_DATABASE_URL": PG}, cwd=tmp_path, stdin="")
    assert "psycopg, der nicht installiert ist" not in done.stderr
    assert done.stderr == (
        "PostgreSQL auf 127.0.0.1:9 ist nicht erreichbar: Rechnername und Port in "
        "SKATBOT_DATABASE_URL prüfen und ob der Server läuft.\n"
    )
    assert done.returncode == 2


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("not a url", "SKATBOT_DATABASE_URL ist keine Datenbank-URL"),
        ("oracle+nichtda://x/y", "Die Datenbank „oracle+nichtda“ kennt skatbot nicht"),
    ],
)
def test_unusable_database_url_is_one_line(tmp_path: Path, url: str, message: str) -> None:
    done = skatbot("console", env={"SKATBOT_DATABASE_URL": url}, cwd=tmp_path, stdin="")
    assert done.returncode == 2
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr


# --- start-up errors: one German line, exit 2, no traceback -----------------------------------


def _postgres_listens() -> bool:
    import socket

    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", 5432)) == 0


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "sqlite:////nonexistent-i28/dir/skatbot.db",
            "Den Ordner /nonexistent-i28/dir für die SQLite-Datenbank gibt es nicht: erst anlegen "
            "(mkdir -p /nonexistent-i28/dir) oder SKATBOT_DATABASE_URL ändern.",
        ),
        (
            "postgresql+psycopg://postgres@nosuchhost.invalid:5432/skatbot",
            "PostgreSQL auf nosuchhost.invalid:5432 ist nicht erreichbar: Rechnername und Port "
            "in SKATBOT_DATABASE_URL prüfen und ob der Server läuft.",
        ),
    ],
)
def test_start_up_errors_are_one_german_line(tmp_path: Path, url: str, message: str) -> None:
    if url.startswith("postgresql"):
        pytest.importorskip("psycopg")
    done = skatbot("console", env={"SKATBOT_DATABASE_URL": url}, cwd=tmp_path, stdin="")
    assert (done.returncode, done.stderr) == (2, message + "\n")
    assert "Traceback" not in done.stdout + done.stderr


def test_an_unknown_postgres_database_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    if not _postgres_listens():
        pytest.skip("no PostgreSQL on 127.0.0.1:5432")
    url = "postgresql+psycopg://postgres@127.0.0.1:5432/skatbot_no_such_database"
    done = skatbot("console", env={"SKATBOT_DATABASE_URL": url}, cwd=tmp_path, stdin="")
    assert done.returncode == 2
    assert done.stderr == (
        "Die PostgreSQL-Datenbank „skatbot_no_such_database“ gibt es auf 127.0.0.1:5432 nicht: "
        "erst anlegen (createdb skatbot_no_such_database) oder SKATBOT_DATABASE_URL ändern.\n"
    )


def test_console_into_head_ends_quietly(tmp_path: Path) -> None:
    """``skatbot console | head -1``: the reader goes away, the console ends with 0 and says
    nothing on stderr."""
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SKATBOT_"))
    }
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    code = "import sys; from skatbot.cli import main; sys.exit(main())"
    shell = f"{sys.executable} -c '{code}' console | head -1"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", shell],
        input="/hilfe\n/hilfe\n/hilfe\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
        timeout=60,
        check=False,
    )
    assert done.stdout == "> /hilfe\n"
    assert done.stderr == "" and done.returncode == 0, done.stderr


def skatbot(
    *argv: str,
    stdin: str = "",
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    prelude: str = "",
) -> subprocess.CompletedProcess[str]:
    """The real command line (what the `skatbot` script runs) in a subprocess."""
    environment = {
        k: v for k, v in os.environ.items()
        if not k.startswith(("TELEGRAM_", "SKATBOT_"))
    }  # fmt: skip
    environment.update(env or {})
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    code = prelude + "import sys; from skatbot.cli import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=60,
        check=False,
    )
