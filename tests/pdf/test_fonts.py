from __future__ import annotations

from skatbot.pdf.fonts import (
    BOLD_FILE,
    LICENSE_FILE,
    REGULAR_FILE,
    font_dir,
    missing_characters,
    printable,
)


def test_font_files_and_licence_are_present() -> None:
    directory = font_dir()
    assert (directory / REGULAR_FILE).stat().st_size > 100_000
    assert (directory / BOLD_FILE).stat().st_size > 100_000
    licence = (directory / LICENSE_FILE).read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Reserved Font Name Liberation" in licence
    assert "DISCLAIMER" in licence


def test_names_in_many_scripts_are_printable() -> None:
    for name in ("Łukasz", "Şule", "Đorđe", "Σοφία", "Юрий", "Jürgen Größe"):
        assert printable(name) == (name, False)
        assert missing_characters(name) == set()


def test_emoji_are_removed() -> None:
    assert printable("Anna 🃏") == ("Anna", True)
    assert missing_characters("Anna 🃏") == {"🃏"}
    assert printable("🂡 Bernd") == ("Bernd", True)


def test_emoji_sequences_leave_no_joiners_or_selectors() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    text, removed = printable(f"Carla {family} ❤\ufe0f Dora")
    assert removed
    assert text == "Carla Dora"
    assert "\u200d" in missing_characters(family)
    assert "\ufe0f" in missing_characters("❤\ufe0f")


def test_decomposed_letters_are_composed() -> None:
    assert printable("S\u0327ule") == ("Şule", False)
