"""Pictures for the chat: a series' running scores (``/stand bild``,
``/abschluss``) and a player's season (``/statistik NAME``).

Builds the ``charts.Chart`` data here; ``skatbot.charts`` (Pillow) is imported only when a
picture is rendered, never at start.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from skatbot.rules.statistics import SeriesRef, running_scores
from skatbot.storage import lists as lists_store
from skatbot.storage.unit import Session
from skatbot.usecases.common import texts
from skatbot.usecases.common.names import ascii_spelling
from skatbot.usecases.common.reply import Photo, Reply

MAX_CAPTION_NAME = 64
# what the curve counts, by whether the list plays house rules (the PDF names it too)
CURVE_LABEL = {False: "Seeger-Fabian", True: "Punkte mit Startpunkten"}


def series_photo(session: Session, loaded: lists_store.LoadedList) -> Photo:
    """The running scores of the list, one line per player: what ``/stand`` showed after
    each game (Seeger-Fabian, or start points + bookings under house rules)."""
    from skatbot.charts import Chart, Line, render_png, x_step

    sheet = loaded.sheet
    lst = loaded.lst
    number = lists_store.list_number(session, lst)
    running = running_scores(sheet)
    lines = tuple(
        Line(name, tuple(r[seat] for r in running)) for seat, name in enumerate(sheet.players)
    )
    state = "abgeschlossen" if lst.status == "closed" else "läuft"
    score = CURVE_LABEL[sheet.house is not None]
    chart = Chart(
        title=f"Liste {number}: Verlauf des Stands",
        subtitle=f"{sheet.games_played}/{sheet.series_length} Spiele, {state} · {score}",
        x_label="Spiele",
        lines=lines,
        x_step=x_step(len(running) - 1, sheet.table_size),
    )
    day = (lst.closed_at or lst.created_at or dt.datetime.now(dt.UTC)).date().isoformat()
    kind = "abschluss" if lst.status == "closed" else "stand"
    return Photo(
        f"skatliste-{number}-{kind}-{day}.png",
        render_png(chart),
        f"Verlauf des Stands, Liste {number} ({texts.games(sheet.games_played)})",
    )


def with_series_photo(session: Session, loaded: lists_store.LoadedList, reply: Reply) -> Reply:
    """``reply`` with the series picture after its documents."""
    photo = series_photo(session, loaded)
    return dataclasses.replace(reply, documents=(*reply.documents, photo))


def file_slug(name: str) -> str:
    """A name in a file name: ASCII letters and digits, words joined by "-" ("Jürgen M." →
    "juergen-m"; "player" if nothing is left)."""
    import re

    slug = "-".join(re.findall(r"[a-z0-9]+", ascii_spelling(name)))[:32].strip("-")
    return slug or "spieler"


def season_photo(name: str, year: int, results: list[SeriesRef]) -> Photo:
    """A player's season: the Seeger-Fabian sum after each series (line) and each series'
    score (bars), the series in the order they were played."""
    from skatbot.charts import Chart, Line, render_png

    total = 0
    values = [0]
    for r in results:
        total += r.score
        values.append(total)
    ticks: tuple[tuple[int, str], ...] = ()
    if len(results) <= 12:
        days = [(i, f"{r.day.day:02d}.{r.day.month:02d}.") for i, r in enumerate(results, 1)]
        ticks = ((0, ""), *days)
    chart = Chart(
        title=f"{name} – Saison {year}",
        subtitle=f"Seeger-Fabian: Summe nach jeder Serie · {texts.series_count(len(results))}",
        x_label="Serien" if not ticks else "Serien (Tag)",
        lines=(Line(name, tuple(values)),),
        x_ticks=ticks,
        bars=tuple(r.score for r in results),
        bar_label="eine Serie (+/−)",
    )
    shown = name if len(name) <= MAX_CAPTION_NAME else name[: MAX_CAPTION_NAME - 1] + "…"
    return Photo(
        f"saison-{year}-{file_slug(name)}.png",  # one file per player, told apart
        render_png(chart),
        f"Saison {year} von {shown}: Seeger-Fabian nach jeder Serie",
    )
