"""The database URL means what it says: the forms the README lists run the drivers it names,
every other form is refused with one German line giving the form to write - and that form
works."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from skatbot.storage.database import (
    DEFAULT_URL,
    Database,
    DatabaseSetupError,
    legacy_notice,
    sync_url,
)
from tests.helpers import PG_URL

ROOT = Path(__file__).resolve().parents[2]


def readme_forms() -> list[str]:
    """The URL forms of the README's table "Database URL" (first column, each `…` quoted)."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Database URL", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [form for row in rows for form in re.findall(r"`([a-z+]+):", row.split("|")[1])]


def test_the_readme_lists_exactly_the_accepted_forms() -> None:
    assert sorted(set(readme_forms())) == sorted(
        [
            "sqlite",
            "sqlite+pysqlite",
            "postgresql+psycopg",
            "postgresql",
            "sqlite+aiosqlite",
            "postgresql+asyncpg",
        ]
    )
    for form in readme_forms():
        sync_url(f"{form}:///x.db" if form.startswith("sqlite") else f"{form}://u@h/db")


@pytest.mark.parametrize(
    ("url", "driver"),
    [
        ("sqlite:///{tmp}/a.db", "pysqlite"),
        ("sqlite+pysqlite:///{tmp}/a.db", "pysqlite"),
        ("sqlite+aiosqlite:///{tmp}/a.db", "pysqlite"),
    ],
)
def test_sqlite_forms_run_on_sqlite3(tmp_path: Path, url: str, driver: str) -> None:
    db = Database(url.format(tmp=tmp_path))
    try:
        assert db.write_engine.dialect.driver == driver
        assert db.run_read(lambda s: s.execute(text("SELECT sqlite_version()")).scalar())
    finally:
        db.dispose()


@pytest.mark.parametrize("form", ["postgresql", "postgresql+psycopg", "postgresql+asyncpg"])
def test_postgresql_forms_run_on_psycopg(form: str) -> None:
    pytest.importorskip("psycopg")
    assert sync_url(f"{form}://u@h/db").drivername == "postgresql+psycopg"
    if not PG_URL:
        return
    rest = PG_URL.split("://", 1)[1]
    db = Database(f"{form}://{rest}")
    try:
        assert db.write_engine.dialect.driver == "psycopg"
        assert db.run_read(lambda s: s.execute(text("SELECT 1")).scalar()) == 1
    finally:
        db.dispose()


@pytest.mark.parametrize(
    ("url", "fix"),
    [
        (
            "postgresql+psycopg2://skat:geheim@db:5433/verein",
            "postgresql+psycopg://skat:***@db:5433/verein",
        ),
        ("postgres://skat@db/verein", "postgresql+psycopg://skat@db/verein"),
        ("postgresql+pg8000://skat@db/verein", "postgresql+psycopg://skat@db/verein"),
        ("sqlite+pysqlcipher:///verein.db", "sqlite:///verein.db"),
    ],
)
def test_other_driver_names_are_refused_with_the_form_to_write(url: str, fix: str) -> None:
    with pytest.raises(DatabaseSetupError) as refused:
        sync_url(url)
    message = str(refused.value)
    assert message.endswith(f"SKATBOT_DATABASE_URL so schreiben: {fix}"), message
    assert "geheim" not in message  # the password is not shown
    assert sync_url(fix.replace("***", "geheim")).drivername in ("sqlite", "postgresql+psycopg")


@pytest.mark.parametrize("url", ["mysql://skat@db/verein", "oracle://x@y/z", "kein-url"])
def test_other_databases_are_refused_in_german(url: str) -> None:
    with pytest.raises(DatabaseSetupError) as refused:
        sync_url(url)
    assert "sqlite:///skatbot.db (SQLite) oder postgresql+psycopg://user@host/db" in str(
        refused.value
    )


def test_the_older_spellings_say_what_runs() -> None:
    assert legacy_notice("sqlite+aiosqlite:///verein.db") == (
        "SKATBOT_DATABASE_URL schreibt „sqlite+aiosqlite“, skatbot verwendet aber Pythons "
        "sqlite3; bitte so schreiben: sqlite:///verein.db"
    )
    assert legacy_notice("postgresql+asyncpg://skat:pw@db/verein") == (
        "SKATBOT_DATABASE_URL schreibt „postgresql+asyncpg“, skatbot verwendet aber psycopg 3; "
        "bitte so schreiben: postgresql+psycopg://skat:***@db/verein"
    )
    assert legacy_notice(DEFAULT_URL) is None
    assert legacy_notice("postgresql+psycopg://skat@db/verein") is None


def skatbot(url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"SKATBOT_DATABASE_URL": url, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "skatbot", "console"],
        input="/hilfe\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def test_the_start_refuses_and_the_fix_works(tmp_path: Path) -> None:
    done = skatbot("sqlite+pysqlcipher:///verein.db", tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "Die Datenbank-URL „sqlite+pysqlcipher://…“ nennt einen Treiber, den skatbot nicht "
        "verwendet. SKATBOT_DATABASE_URL so schreiben: sqlite:///verein.db\n"
    )
    assert not (tmp_path / "verein.db").exists()
    fixed = skatbot("sqlite:///verein.db", tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stderr == ""
    assert "/spiel" in fixed.stdout
    assert (tmp_path / "verein.db").exists()


def test_an_older_spelling_starts_and_says_what_runs(tmp_path: Path) -> None:
    done = skatbot("sqlite+aiosqlite:///verein.db", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "/spiel" in done.stdout
    assert "bitte so schreiben: sqlite:///verein.db" in done.stderr
