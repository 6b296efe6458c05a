"""The chat's pictures (skatbot/charts.py): valid PNGs of the promised size, one colour and
marker per player, safe with odd input; and a bot start that loads no chart library."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from skatbot.charts import COLORS, HEIGHT, WIDTH, Chart, Line, nice_step, render_png, x_step
from tests.test_cli import skatbot

# SKATBOT_CHARTS_DIR=/tmp/x keeps the rendered pictures for looking at them
KEEP = os.environ.get("SKATBOT_CHARTS_DIR")


def rendered(chart: Chart, name: str) -> Image.Image:
    data = render_png(chart)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1024 * 1024  # Telegram takes 10 MB; a phone should not wait for it
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        (Path(KEEP) / f"{name}.png").write_bytes(data)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    return image.convert("RGB")


def walk(start: int, steps: list[int], n: int) -> tuple[int, ...]:
    values = [start]
    for i in range(n):
        values.append(values[-1] + steps[i % len(steps)])
    return tuple(values)


def colour_pixels(image: Image.Image, colour: tuple[int, int, int]) -> int:
    counts = image.getcolors(maxcolors=WIDTH * HEIGHT) or []
    return sum(n for n, c in counts if c == colour)


def test_a_full_four_player_series() -> None:
    lines = (
        Line("Anna", walk(0, [72, -96, 0, 48], 48)),
        Line("Bernd", walk(0, [-48, 30, 30, 0], 48)),
        Line("Carla", walk(0, [0, 40, -92, 130], 48)),
        Line("Dora", walk(0, [23, 23, -46, 0], 48)),
    )
    chart = Chart("Liste 3: Verlauf des Stands", "48/48 Spiele", "Spiele", lines, x_step=4)
    image = rendered(chart, "series-4")
    for colour in COLORS[:4]:  # every player's colour is drawn, and plenty of it
        assert colour_pixels(image, colour) > 2000, colour
    assert colour_pixels(image, COLORS[4]) == 0  # no fifth player, no fifth colour


def test_odd_input_renders() -> None:
    cases = {
        "empty": Chart("Leer", "", "Spiele", (Line("Anna", (0,)), Line("Bernd", (0,)))),
        "names": Chart(
            "Namen 🃏 mit Emoji und sehr langem Titel, der nicht auf eine Zeile passt, gar nicht",
            "Untertitel",
            "Spiele",
            (
                Line("Łukasz", (0, 10, -5)),
                Line("Σοφία 🃏", (0, -20, 15)),
                Line("Ein-sehr-langer-Name-mit-32-Zeic", (0, 5, 5)),
                Line("🃏🃏", (0, 0, 0)),
            ),
        ),
        "huge": Chart("Groß", "", "Spiele", (Line("A", (0, 99_999, -99_999)),)),
        "six": Chart(
            "Sechs", "", "Serien", tuple(Line(f"S{i}", walk(0, [i * 10, -5], 30)) for i in range(6))
        ),
        "season": Chart(
            "Anna – Saison 2026",
            "Seeger-Fabian",
            "Serien (Tag)",
            (Line("Anna", (0, 260, 122, 162, 162)),),
            x_ticks=((0, ""), (1, "05.03."), (2, "05.03."), (3, "10.04."), (4, "20.05.")),
            bars=(260, -138, 40, 0),
            bar_label="eine Serie (+/−)",
        ),
    }
    for name, chart in cases.items():
        rendered(chart, name)


@pytest.mark.parametrize(
    ("span", "step"), [(0, 10), (7, 2), (100, 20), (250, 50), (1_000, 200), (1_234, 250)]
)
def test_nice_step(span: int, step: int) -> None:
    assert nice_step(span) == step


def test_x_step_is_a_multiple_of_the_table() -> None:
    assert x_step(4, 3) == 3
    assert x_step(36, 3) == 3
    assert x_step(48, 4) == 4
    assert x_step(200, 3) % 3 == 0 and 200 / x_step(200, 3) <= 12


def test_a_bot_start_imports_no_chart_library(tmp_path: Path) -> None:
    """A start, a booking and /stand load neither Pillow nor our chart code (nor matplotlib):
    they come with the first picture."""
    watched = ("PIL", "skatbot.charts", "skatbot.usecases.sheet.pictures", "matplotlib")
    prelude = (
        "import atexit, sys; atexit.register(lambda: print('LOADED', sorted(m for m in "
        f"{watched!r} if m in sys.modules), file=sys.stderr)); "
    )
    done = skatbot(
        "console",
        "--out",
        str(tmp_path / "out"),
        stdin="/neu Anna Bernd Carla\n/spiel Anna grand mit 1 gewonnen\n/stand\n",
        env={"SKATBOT_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"},
        cwd=tmp_path,
        prelude=prelude,
    )
    assert done.returncode == 0, done.stderr
    assert "Anna 98" in done.stdout  # it did run: 48 + 50
    assert "LOADED []" in done.stderr, done.stderr
    # and the picture loads them
    done = skatbot(
        "console",
        "--out",
        str(tmp_path / "out"),
        stdin="/stand bild\n",
        env={"SKATBOT_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"},
        cwd=tmp_path,
        prelude=prelude,
    )
    assert "LOADED ['PIL', 'skatbot.charts', 'skatbot.usecases.sheet.pictures']" in done.stderr
    assert list((tmp_path / "out").glob("skatliste-1-stand-*.png"))


def test_the_value_labels_keep_clear_of_the_first_markers() -> None:
    """Every line starts at 0 at the plot's left edge, where its marker sits: the value
    label "0" beside it stays readable, with a gap to the widest marker (a diamond, a
    triangle)."""
    chart = Chart(
        "Liste 1",
        "4/48 Spiele",
        "Spiele",
        tuple(
            Line(name, (0, *values))
            for name, values in (
                ("Anna", (30, 30, -60)),
                ("Bernd", (-120, -120, 6)),
                ("Carla", (30, 103, 133)),
                ("Dora", (30, 103, 132)),
            )
        ),
    )
    image = Image.open(io.BytesIO(render_png(chart))).convert("RGB")
    pixels = image.load()
    assert pixels is not None

    def coloured(x: int, y: int) -> bool:
        r, g, b = pixels[x, y]
        return max(r, g, b) - min(r, g, b) > 60

    def text(x: int, y: int) -> bool:
        r, g, b = pixels[x, y]
        return max(r, g, b) - min(r, g, b) < 14 and max(r, g, b) < 170

    plot_rows = range(HEIGHT // 3, HEIGHT)  # below the legend, whose markers stand further left
    left_edge = min(x for y in plot_rows for x in range(WIDTH) if coloured(x, y))
    marker_rows = [
        y for y in plot_rows if any(coloured(x, y) for x in range(left_edge, left_edge + 8))
    ]
    band = range(min(marker_rows) - 20, max(marker_rows) + 20)
    label_right = max(x for y in band for x in range(left_edge) if text(x, y))
    assert left_edge - label_right >= 6, (label_right, left_edge)
