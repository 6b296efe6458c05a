"""`skatbot wert ANSAGE... [--json]` (SPEC §1): the calculator."""

from __future__ import annotations

import json

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
