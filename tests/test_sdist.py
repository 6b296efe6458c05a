"""The source distribution is whole: built, a wheel built from it alone, installed into a
fresh venv, and the installed ``skatbot`` runs the console - a list, a game and a PDF (the
fonts travel in the package) - answering in German.

Offline: both builds run without isolation (hatchling from the test's environment, no
index), and the fresh venv sees the test environment's packages for the dependencies only
(a ``.pth`` line); ``skatbot`` itself is imported from the venv, which the test checks.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=240, **kw
    )  # type: ignore[call-overload]
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done  # type: ignore[no-any-return]


def test_the_sdist_installs_and_runs_the_console(tmp_path: Path) -> None:
    pytest.importorskip("build")
    pytest.importorskip("hatchling")
    dist = tmp_path / "dist"
    run(
        sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", dist, ROOT, cwd=ROOT
    )
    (sdist,) = dist.glob("skatbot-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        for needed in (
            "LICENSE",
            "README.md",
            "CHANGELOG.md",
            "pyproject.toml",
            "docs/operations.md",
        ):
            assert needed in names, needed
        assert "fonts/LiberationSans-Regular.ttf" in names
        assert not any("__pycache__" in n for n in names)
        tar.extractall(tmp_path / "src", filter="data")
    (src,) = (tmp_path / "src").iterdir()

    # The wheel from the unpacked sdist alone: what pip does with it.
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, src, cwd=src)
    (wheel,) = dist.glob("skatbot-*.whl")

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "-q",
        "--no-deps",
        wheel,
        cwd=tmp_path,
    )
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=tmp_path)
    deps = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site.stdout.strip()) / "skatbot-test-deps.pth").write_text("\n".join(sorted(deps)) + "\n")

    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    where = run(python, "-c", "import skatbot; print(skatbot.__file__)", cwd=tmp_path, env=env)
    assert where.stdout.startswith(str(venv)), where.stdout  # not the source tree

    env["SKATBOT_DATABASE_URL"] = f"sqlite:///{tmp_path / 'verein.db'}"
    done = run(
        venv / "bin" / "skatbot",
        "console",
        "--out",
        tmp_path / "out",
        cwd=tmp_path,
        env=env,
        input="/neu Anna Bernd Carla\n/spiel Anna grand mit 1 gewonnen\n/pdf\n",
    )
    assert done.stderr == ""
    assert "Anna" in done.stdout and "Grand" in done.stdout
    assert "Spiel 1" in done.stdout, done.stdout
    pdfs = list((tmp_path / "out").rglob("*.pdf"))
    assert len(pdfs) == 1 and pdfs[0].read_bytes().startswith(b"%PDF"), pdfs
