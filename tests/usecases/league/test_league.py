"""League play: a league of 4 teams × 4 players (+1 substitute each) over 2 match days of 3
series. Day 1: West does not appear (4-4-4-0 → four 3-tables), Nord's captain changes the
line-up, a substitution between series 1 and 2 (Dora for Erik) and one during series 2 (Jens
for Inge from game 17). Day 2: Ost starts with 3 players (4-4-4-3 → three 4-tables and a
3-table). Seating checked against the rule (one player of each team per table) and
recomputed from the seed; match points, the day's and the season's table against the hand
computation below. Then refusals: nothing changes."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
from pathlib import Path
from typing import Any

from pypdf import PdfReader
from sqlalchemy import select

from skatbot.rules import league as lg
from skatbot.storage.league_models import MatchDay
from skatbot.storage.schema import metadata
from tests.harness import Harness
from tests.helpers import Reply as Seen
from tests.helpers import ok, refused

LEADER = {"user_id": 1, "name": "Gerd"}
NORD_CAPTAIN = {"user_id": 11, "name": "Anna"}
STRANGER = {"user_id": 99, "name": "Zaungast"}
HOST = {"user_id": 20, "name": "Hugo"}  # runs day 2 in his own chat (a decentral day)
HOST_CHAT = -2002

TEAMS = (
    "/mannschaft Nord: Anna, Bernd, Carla, Dora, Ersatz Erik\n"
    "Süd: Fritz, Gabi, Hans, Inge, Ersatz Jens\n"
    "Ost: Karl, Lena, Max, Nina, Ersatz Otto\n"
    "West: Paul, Quirin, Rosa, Susi, Ersatz Tom"
)

# Day 1 (West absent; four 3-tables, each with one player of Nord, Süd and Ost).
# (game points, won, lost). A team's series sum is Σ (game points + 50 × (won − lost)) of its
# players + 40 × (games lost at its tables by the other players): at every table each other
# team has exactly one player, so that is 40 × (all lost − the team's own lost), whatever the
# seating.
DAY1 = {
    1: {
        "Anna": (300, 3, 1), "Bernd": (250, 2, 0), "Carla": (200, 2, 1), "Erik": (150, 1, 0),
        "Fritz": (400, 4, 0), "Gabi": (100, 1, 1), "Hans": (350, 3, 0), "Inge": (50, 1, 2),
        "Karl": (200, 2, 0), "Lena": (300, 3, 0), "Max": (250, 2, 1), "Nina": (100, 1, 0),
    },
    2: {  # Dora for Erik from series 2; Jens for Inge from game 17
        "Anna": (100, 1, 0), "Bernd": (300, 3, 1), "Carla": (250, 2, 0), "Dora": (200, 2, 0),
        "Fritz": (150, 1, 1), "Gabi": (300, 3, 0), "Hans": (200, 2, 0), "Inge": (80, 1, 0),
        "Jens": (120, 1, 1),
        "Karl": (350, 3, 0), "Lena": (100, 1, 2), "Max": (300, 3, 0), "Nina": (250, 2, 0),
    },
    3: {
        "Anna": (200, 2, 0), "Bernd": (150, 1, 0), "Carla": (300, 3, 1), "Dora": (350, 3, 0),
        "Fritz": (250, 2, 0), "Gabi": (200, 2, 1), "Hans": (100, 1, 0), "Jens": (300, 3, 0),
        "Karl": (150, 1, 1), "Lena": (250, 2, 0), "Max": (200, 2, 0), "Nina": (300, 3, 0),
    },
}  # fmt: skip
# By hand:
# S1: lost 6. Nord 400+350+250+200 = 1200 + 40×(6−2) = 1360; Süd 600+100+500+0 = 1200
#     + 40×(6−3) = 1320; Ost 300+450+300+150 = 1200 + 40×(6−1) = 1400.
#     Ost 3:0, Nord 2:1, Süd 1:2, West (absent) 0:3.
# S2: lost 5. Nord 150+400+350+300 = 1200 + 40×4 = 1360; Süd 150+450+300+130+120 = 1150
#     + 40×3 = 1270; Ost 500+50+450+350 = 1350 + 40×3 = 1470. Ost 3:0, Nord 2:1, Süd 1:2.
# S3: lost 3. Nord 300+200+400+500 = 1400 + 40×2 = 1480; Süd 350+250+150+450 = 1200 + 80 =
#     1280; Ost 150+350+300+450 = 1250 + 80 = 1330. Nord 3:0, Ost 2:1, Süd 1:2.
# Day 1: Ost 8:1 4,200 · Nord 7:2 4,200 · Süd 3:6 3,870 · West 0:9 0.
DAY1_SERIES = {
    1: ["Ost: 1.400 – 1. Platz: 3:0", "Nord: 1.360 – 2. Platz: 2:1",
        "Süd: 1.320 – 3. Platz: 1:2", "West: nicht angetreten: 0:3"],
    2: ["Ost: 1.470 – 1. Platz: 3:0", "Nord: 1.360 – 2. Platz: 2:1",
        "Süd: 1.270 – 3. Platz: 1:2", "West: nicht angetreten: 0:3"],
    3: ["Nord: 1.480 – 1. Platz: 3:0", "Ost: 1.330 – 2. Platz: 2:1",
        "Süd: 1.280 – 3. Platz: 1:2", "West: nicht angetreten: 0:3"],
}  # fmt: skip
DAY1_TABLE = [
    "1. Ost – 8:1 Matchpunkte · 4.200 Spielpunkte",
    "2. Nord – 7:2 Matchpunkte · 4.200 Spielpunkte",
    "3. Süd – 3:6 Matchpunkte · 3.870 Spielpunkte",
    "4. West – 0:9 Matchpunkte · 0 Spielpunkte",
]

# Day 2: Ost plays with Karl, Lena, Max (4-4-4-3); nobody loses a game, so a player's score
# is game points + 50 × won and a team's sum is the sum of those.
D2_PLAYERS = {
    "Nord": ["Anna", "Bernd", "Carla", "Dora"],
    "Süd": ["Fritz", "Gabi", "Hans", "Inge"],
    "Ost": ["Karl", "Lena", "Max"],
    "West": ["Paul", "Quirin", "Rosa", "Susi"],
}
D2_EACH = {  # per series: every player of the team scores the same
    1: {"Nord": (200, 2), "Süd": (250, 2), "Ost": (300, 3), "West": (100, 1)},
    2: {"Nord": (150, 1), "Süd": (100, 1), "Ost": (400, 2), "West": (150, 1)},
    3: {"Nord": (300, 2), "Süd": (200, 2), "Ost": (250, 1), "West": (250, 2)},
}
# S1: Nord 4×300 = 1200, Süd 4×350 = 1400, Ost 3×450 = 1350, West 4×150 = 600
#     → Süd 3:0, Ost 2:1, Nord 1:2, West 0:3
# S2: Nord 4×200 = 800, Süd 4×150 = 600, Ost 3×500 = 1500, West 4×200 = 800
#     → Ost 3:0, Nord and West equal: 1½:1½ each, Süd 0:3
# S3: Nord 4×400 = 1600, Süd 4×300 = 1200, Ost 3×300 = 900, West 4×350 = 1400
#     → Nord 3:0, West 2:1, Süd 1:2, Ost 0:3
# Day 2: Nord 5½:3½ 3,600 · Ost 5:4 3,750 · Süd 4:5 3,200 · West 3½:5½ 2,800
DAY2_SERIES_2 = ["Ost: 1.500 – 1. Platz: 3:0", "Nord: 800 – 2. Platz: 1½:1½",
                 "West: 800 – 2. Platz: 1½:1½", "Süd: 600 – 4. Platz: 0:3"]  # fmt: skip
DAY2_TABLE = [
    "1. Nord – 5½:3½ Matchpunkte · 3.600 Spielpunkte",
    "2. Ost – 5:4 Matchpunkte · 3.750 Spielpunkte",
    "3. Süd – 4:5 Matchpunkte · 3.200 Spielpunkte",
    "4. West – 3½:5½ Matchpunkte · 2.800 Spielpunkte",
]
# Season: Ost 8:1 + 5:4 = 13:5, 4,200 + 3,750 = 7,950; Nord 7:2 + 5½:3½ = 12½:5½, 7,800;
# Süd 3:6 + 4:5 = 7:11, 7,070; West 0:9 + 3½:5½ = 3½:14½, 2,800.
SEASON = [
    "1. Ost – 13:5 Matchpunkte · 7.950 Spielpunkte (2 Spieltage)",
    "2. Nord – 12½:5½ Matchpunkte · 7.800 Spielpunkte (2 Spieltage)",
    "3. Süd – 7:11 Matchpunkte · 7.070 Spielpunkte (2 Spieltage)",
    "4. West – 3½:14½ Matchpunkte · 2.800 Spielpunkte (2 Spieltage)",
]

_ITEM = re.compile(r"^(?P<names>.+) \((?P<team>[^()]+)\)$")


def parse_seating(text: str) -> list[list[tuple[str, str]]]:
    """(first player on the seat, team) per table, from a seating reply."""
    tables = []
    for line in text.splitlines():
        if not line.startswith("Tisch "):
            continue
        items = re.split(r"(?<=\)), ", line.split("): ", 1)[1])
        seats = []
        for item in items:
            found = _ITEM.match(item)
            assert found, item
            seats.append((found.group("names").split(" → ")[0], found.group("team")))
        tables.append(seats)
    return tables


def expected_seating(
    sizes: dict[str, int], seed: str, series: int, lineup: dict[str, list[str]]
) -> list[list[tuple[str, str]]]:
    """The seating recomputed from the seed and the series-1 line-up sizes (rules/league.py),
    with the names of ``lineup`` (slot i = the i-th name)."""
    tables = lg.day_seating(sizes, seed, series)[series - 1]
    return [[(lineup[s.team][s.slot - 1], s.team) for s in table] for table in tables]


def assert_one_per_team(tables: list[list[tuple[str, str]]]) -> None:
    for table in tables:
        teams = [team for _, team in table]
        assert len(teams) == len(set(teams)), tables


def result_lines(results: dict[str, tuple[int, int, int]]) -> str:
    return "\n".join(f"{n} {gp} {w} {lo}" for n, (gp, w, lo) in results.items())


async def setup_league(chat: Harness) -> dict[str, str]:
    await ok(chat, "/liga Landesliga Nord Gruppe 2", "Liga „Landesliga Nord Gruppe 2“ angelegt",
             "3 Serien je Spieltag", **LEADER)  # fmt: skip
    await ok(
        chat, "/liga verlustspiel 0,50 €", "Verlustspielgeld 0,50 € an den Ausrichter", **LEADER
    )
    reply = await ok(chat, TEAMS, "Nord: Anna, Bernd, Carla, Dora, Ersatz Erik", **LEADER)
    assert "/kapitaen K" not in reply, reply  # no code in the group
    # the leader names each captain; the code goes to that person privately
    codes = {"Nord": await captain_code(chat, "Nord", NORD_CAPTAIN)}
    await ok(chat, f"/kapitaen {codes['Nord']}", "Anna ist Kapitän von „Nord“", **NORD_CAPTAIN)
    # the code is used up; only the management hands out another
    await refused(chat, f"/kapitaen {codes['Nord']}", "für Anna bestimmt", **STRANGER)
    await refused(chat, f"/kapitaen {codes['Nord']}", "schon eingelöst", **NORD_CAPTAIN)
    await refused(chat, "/kapitaen Süd", "verwalten Gerd", **STRANGER)
    codes["Süd"] = await captain_code(chat, "Süd", {"user_id": 31, "name": "Fritz"})
    return codes


async def private_code(chat: Harness, command: str, person: dict[str, Any], pattern: str) -> str:
    """The leader answers a message of ``person`` with ``command`` at the desk; the code
    arrives in ``person``'s private chat (they wrote to the bot before)."""
    uid, name = int(person["user_id"]), str(person["name"])
    await chat.say("/start", chat_id=uid, user_id=uid, name=name)
    out = await chat.say(command, reply_to=(uid, name), **LEADER)  # type: ignore[arg-type]
    shown = "\n".join(r.text for r in out)
    assert f"geht privat an {name}" in shown and not re.search(pattern, shown), shown
    found = re.search(pattern, chat.last(uid).text)
    assert found is not None, chat.last(uid).text
    return found.group(1)


async def captain_code(chat: Harness, team: str, person: dict[str, Any]) -> str:
    return await private_code(chat, f"/kapitaen {team}", person, r"/kapitaen (K\w{7})")


async def host_code(chat: Harness, person: dict[str, Any] = HOST) -> str:
    return await private_code(chat, "/ausrichter", person, r"/ausrichter (A\w{7})")


async def play_series(
    chat: Harness, series: int, results: dict[str, tuple[int, int, int]], **by: int | str
) -> str:
    return await ok(chat, f"/ergebnis serie {series}\n" + result_lines(results), **(by or LEADER))


async def test_a_league_season_of_two_match_days(chat: Harness) -> None:
    await setup_league(chat)

    # --- day 1 -----------------------------------------------------------------------------
    reply = await ok(chat, "/spieltag 1 Reken", "Spieltag 1 in Reken am", **LEADER)
    seed1 = re.search(r"Startwert (\d+)", reply).group(1)  # type: ignore[union-attr]
    played_on = re.search(r"am (\d\d\.\d\d\.\d{4})", reply).group(1)  # type: ignore[union-attr]
    # the captain changes his team's line-up before series 1; the leader reports West absent
    await ok(chat, "/aufstellung Nord: Anna, Bernd, Carla, Erik", "Nord: Anna, Bernd, Carla, Erik",
             **NORD_CAPTAIN)  # fmt: skip
    await ok(chat, "/aufstellung West fehlt", "keine Matchpunkte", **LEADER)
    sizes1 = {"Nord": 4, "Süd": 4, "Ost": 4, "West": 0}
    lineup = {
        "Nord": ["Anna", "Bernd", "Carla", "Erik"],
        "Süd": ["Fritz", "Gabi", "Hans", "Inge"],
        "Ost": ["Karl", "Lena", "Max", "Nina"],
    }
    seen_pairs: set[frozenset[str]] = set()
    for series in (1, 2, 3):
        if series == 2:
            # between series 1 and 2: Dora takes Erik's seat (the captain may do it)
            await ok(chat, "/wechsel Nord Dora für Erik", "Dora spielt ab Serie 2 für Erik",
                     **NORD_CAPTAIN)  # fmt: skip
            lineup["Nord"] = ["Anna", "Bernd", "Carla", "Dora"]
        reply = await ok(chat, "/setzen", f"Serie {series}", **LEADER)
        tables = parse_seating(reply)
        # four 3-tables (4-4-4-0), one player of each team at each, as the seed says
        assert [len(t) for t in tables] == [3, 3, 3, 3]
        assert_one_per_team(tables)
        assert tables == expected_seating(sizes1, seed1, series, lineup)
        for table in tables:
            names = [n for n, _ in table]
            for a in names:
                for b in names:
                    if a < b:
                        pair = frozenset((a, b))
                        assert pair not in seen_pairs, pair  # nobody meets twice
                        seen_pairs.add(pair)
        if series == 2:
            # during series 2: Jens for Inge from game 17, recorded with the game number
            await ok(chat, "/wechsel Süd Jens für Inge spiel 17", "ab Spiel 17 für Inge", **LEADER)
            shown = await ok(chat, "/sitzplan 2", "Inge → Jens ab Spiel 17 (Süd)")
            assert parse_seating(shown) == tables
            lineup["Süd"] = ["Fritz", "Gabi", "Hans", "Jens"]
        reply = await play_series(chat, series, DAY1[series])
        for line in DAY1_SERIES[series]:
            assert line in reply, (line, reply)
    assert all(line in reply for line in DAY1_TABLE), reply
    assert "👉 Freigabe durch die Ligaleitung: /freigeben" in reply
    # the captains confirm (Nord's here), the match report shows it
    await ok(chat, "/bestaetigen", "Nord bestätigt die Ergebnisse von Spieltag 1",
             "Noch offen: Süd, Ost", **NORD_CAPTAIN)  # fmt: skip
    await refused(chat, "/bestaetigen", "Kapitäne", **STRANGER)
    # provisional until approved
    await ok(chat, "/tabelle", "vorläufig: Spieltag 1")
    await ok(chat, "/freigeben", "Spieltag 1 in Reken freigegeben", "Bestätigt von: Nord (Anna)",
             **LEADER)  # fmt: skip
    # locked: no result, substitution or second approval changes it
    await refused(chat, "/ergebnis serie 3\nAnna 999 3 0", "freigegeben", **LEADER)
    await refused(chat, "/wechsel Nord Erik für Dora spiel 20", "freigegeben", **NORD_CAPTAIN)
    await refused(chat, "/freigeben 1", "schon freigegeben", **LEADER)
    day1 = await chat.text("/tabelle 1")
    assert all(line in day1 for line in DAY1_TABLE), day1
    # lost games: 6 + 5 + 3 = 14, at 0,50 € each to the host
    assert (
        "Verlustspielgeld an den Ausrichter (Reken): 14 verlorene Spiele × 0,50 € = 7,00 €" in day1
    )
    assert "(3 von 3 Serien, freigegeben)" in day1
    played = dt.datetime.strptime(played_on, "%d.%m.%Y").date()
    binding = (played + dt.timedelta(days=14)).strftime("%d.%m.%Y")
    assert f"Verbindlich ab {binding} (14 Tage nach dem Spieltag)." in day1, day1

    # the individual ranking: Jens played 20 games of series 2 and 36 of series 3
    ranking = await ok(chat, "/einzelwertung", "Einzelwertung")
    # the minimum: 50 % of the most games (3 × 36 = 108) = 54; Inge played 36 + 16 = 52
    lines = ranking.splitlines()
    jens = next(i for i, line in enumerate(lines) if "Jens (Süd)" in line)
    inge = next(i for i, line in enumerate(lines) if "Inge (Süd)" in line)
    below = lines.index("Unter 54 Spielen (nicht gewertet):")
    assert re.match(r"\d+\. Jens \(Süd\)", lines[jens]) and "in 56 Spielen" in lines[jens]
    assert inge > below and lines[inge].startswith("Inge (Süd)") and "in 52 Spielen" in lines[inge]

    # --- day 2 -----------------------------------------------------------------------------
    # a decentral day: the leader opens it, the host runs it from his own chat, today only
    reply = await ok(chat, "/spieltag 2 Münster", "Spieltag 2 in Münster am", **LEADER)
    seed2 = re.search(r"Startwert (\d+)", reply).group(1)  # type: ignore[union-attr]
    code = await host_code(chat)
    at_host = {"chat_id": HOST_CHAT, **HOST}
    await ok(chat, f"/ausrichter {code}", "Hugo richtet hier Spieltag 2 in Münster aus", **at_host)
    await refused(chat, "/setzen", "richtet hier Hugo", chat_id=HOST_CHAT, **STRANGER)
    # a host's chat runs its day, the desk approves it
    await refused(chat, "/freigeben", "gilt hier nicht", "an der Ligaleitung", **at_host)
    await ok(chat, "/aufstellung Ost: Karl, Lena, Max", "Ost: Karl, Lena, Max", **at_host)
    sizes2 = {"Nord": 4, "Süd": 4, "Ost": 3, "West": 4}
    for series in (1, 2, 3):
        reply = await ok(chat, "/setzen", f"Serie {series}", **at_host)
        tables = parse_seating(reply)
        # Anlage 10, 4-4-4-3: three 4-tables and one 3-table without Ost
        assert [len(t) for t in tables] == [4, 4, 4, 3]
        assert "Ost" not in [team for _, team in tables[3]]
        assert_one_per_team(tables)
        assert tables == expected_seating(sizes2, seed2, series, D2_PLAYERS)
        results = {
            name: (D2_EACH[series][team][0], D2_EACH[series][team][1], 0)
            for team, names in D2_PLAYERS.items()
            for name in names
        }
        reply = await play_series(chat, series, results, **at_host)
        if series == 2:
            assert all(line in reply for line in DAY2_SERIES_2), reply
    assert all(line in reply for line in DAY2_TABLE), reply
    season = await ok(chat, "/tabelle", "vorläufig: Spieltag 2")
    assert [line for line in season.splitlines() if line[:1].isdigit()] == SEASON
    # a league may rank by game points first: day 2 then has Ost (3,750) before Nord (3,600)
    await ok(chat, "/liga reihenfolge spielpunkte", "Tabelle nach Spielpunkten", **LEADER)
    day2 = await chat.text("/tabelle 2")
    assert "1. Ost – 5:4 Matchpunkte · 3.750 Spielpunkte" in day2, day2
    assert "2. Nord – 5½:3½ Matchpunkte · 3.600 Spielpunkte" in day2, day2
    await refused(chat, "/liga reihenfolge zufall", "matchpunkte", **LEADER)
    await ok(chat, "/liga reihenfolge matchpunkte", **LEADER)

    # the documents: the match report of day 1 and the season table as PDFs
    report = await pdf_of(chat, "/tabelle 1 pdf", "spielbericht-landesliga-nord-gruppe-2-1.pdf")
    for part in (
        "Spieltag 1 · Reken · freigegeben",
        "Serie 2 · 4 Tische",
        "Jens ab Spiel 17",
        "Ost 1.400 1. Platz: 3:0",
        "West – nicht angetreten: 0:3",
        "Bestätigung der Mannschaftsführer",
        "Nord – Anna – bestätigt",
        "Startwert " + seed1,
    ):
        assert part in report, (part, report)  # fmt: skip
    table = await pdf_of(chat, "/tabelle pdf", "tabelle-landesliga-nord-gruppe-2.pdf")
    assert "1. Ost 2 13:5 7.950" in table and "4. West 2 3½:14½ 2.800" in table, table


async def pdf_of(chat: Harness, message: str, filename: str) -> str:
    """The text of the PDF the bot sends for ``message`` (kept in $LEAGUE_PDF_DIR if set)."""
    out = await chat.say(message)
    docs = [r.document for r in out if r.document]
    assert docs and docs[0][0] == filename, [r.text for r in out]
    data = docs[0][1]
    if os.environ.get("LEAGUE_PDF_DIR"):
        Path(os.environ["LEAGUE_PDF_DIR"], filename).write_bytes(data)
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


async def test_refusals_change_nothing(chat: Harness) -> None:
    await refused(chat, "/tabelle", "keine Liga", "/liga")
    codes = await setup_league(chat)
    # wrong person: a stranger may not manage, a captain only his own team
    await refused(chat, "/spieltag 1", "verwalten Gerd", **STRANGER)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    await refused(chat, "/setzen", "verwalten Gerd", "👉", **STRANGER)
    await refused(chat, "/freigeben", "verwalten Gerd", "👉", **STRANGER)
    await refused(chat, "/liga mindestens 10", "verwalten Gerd", **STRANGER)
    await refused(chat, "/aufstellung Süd: Fritz, Gabi, Hans, Jens", "Kapitän", **NORD_CAPTAIN)
    await refused(chat, f"/kapitaen {codes['Nord']}", "für Anna bestimmt", **STRANGER)
    # bad input: a player of another team, too few, a number that is no series count
    await refused(chat, "/aufstellung Nord: Anna, Bernd, Fritz, Dora", "spielt nicht für „Nord“",
                  **NORD_CAPTAIN)  # fmt: skip
    await refused(chat, "/aufstellung Nord: Anna, Bernd", "2 Spieler", **NORD_CAPTAIN)
    await refused(chat, "/liga serien 9", "1 bis 6", **LEADER)
    await refused(chat, "/spieltag eins", "Welcher Spieltag", **LEADER)
    await refused(chat, "/spieltag 1", "gibt es schon", **LEADER)
    # wrong moment: a substitution before series 1, results before seating
    await refused(chat, "/wechsel Nord Erik für Anna", "Aufstellung", **LEADER)
    await refused(chat, "/ergebnis Anna 100 1 0", "noch keine Serie", **LEADER)
    # a layout Anlage 10 cannot seat (4-4-3-0: a table would get two teams) is refused
    await ok(chat, "/aufstellung West fehlt", **LEADER)
    await ok(chat, "/aufstellung Ost: Karl, Lena, Max", **LEADER)
    await refused(chat, "/setzen", "4-4-3 lassen sich nicht", "👉", **LEADER)
    assert "noch keine Serie gesetzt" in await chat.text("/sitzplan")
    await ok(chat, "/aufstellung West: Paul, Quirin, Rosa, Susi", **LEADER)
    await ok(chat, "/aufstellung Ost: Karl, Lena, Max, Nina", **LEADER)
    # a team entered after the day was opened is absent on it until it is lined up
    await ok(chat, "/mannschaft Mitte: Ulla, Veit, Wanda", **LEADER)
    assert "Mitte: nicht angetreten" in await chat.text("/aufstellung")
    await ok(chat, "/aufstellung Mitte: Ulla, Veit, Wanda", "Mitte: Ulla, Veit, Wanda", **LEADER)
    await ok(chat, "/aufstellung Mitte fehlt", "„Mitte“ tritt an Spieltag 1", **LEADER)
    text = await chat.text("/aufstellung")
    assert "Nord: Anna, Bernd, Carla, Dora" in text and "Süd: Fritz, Gabi, Hans, Inge" in text
    reply = await ok(chat, "/setzen", "Serie 1", "48 Spiele", **LEADER)
    before = parse_seating(reply)
    # after seating, the line-up of series 1 is fixed
    await refused(chat, "/aufstellung Nord: Anna, Bernd, Carla, Erik", "/wechsel", **NORD_CAPTAIN)
    # more games than the series has; a game number past its end; a name not at a table
    await refused(chat, "/ergebnis Anna 300 40 10", "nur 48", "Nichts wurde gespeichert", **LEADER)
    await refused(chat, "/wechsel Nord Erik für Anna spiel 99", "2 bis 48", **LEADER)
    await refused(chat, "/wechsel Nord Dora für Anna spiel 5", "spielt schon", **LEADER)
    # a league that allows substitutions only between series
    await ok(chat, "/liga wechsel zwischen", "Wechsel nur zwischen den Serien", **LEADER)
    await refused(chat, "/wechsel Nord Erik für Anna spiel 5", "nur zwischen den Serien", **LEADER)
    await refused(chat, "/liga wechsel manchmal", "/liga wechsel zwischen", **LEADER)
    await ok(chat, "/liga wechsel immer", **LEADER)
    await refused(chat, "/ergebnis Erik 100 1 0", "Erik", **LEADER)
    await refused(chat, "/setzen", "fehlen noch Ergebnisse", **LEADER)
    await refused(chat, "/freigeben", "noch nicht fertig", **LEADER)
    # nothing of it changed the seating or entered a result
    assert parse_seating(await chat.text("/sitzplan")) == before
    await refused(chat, "/einzelwertung", "Noch keine fertige Serie")


async def test_a_host_runs_a_decentral_day_on_its_date_only(chat: Harness) -> None:
    await setup_league(chat)
    at_host = {"chat_id": HOST_CHAT, **HOST}
    await refused(chat, "/spieltag 1 Reken 31.02.2027", "kein Datum", **LEADER)
    await ok(chat, "/spieltag 1 Reken 01.01.2020", "am 01.01.2020", **LEADER)
    code = await host_code(chat)
    # the code is for that date only: refused today, the host's chat stays unlinked
    await refused(chat, f"/ausrichter {code}", "gilt nur am 01.01.2020", **at_host)
    await refused(chat, "/setzen", "gilt hier nicht", "/ausrichter CODE", **at_host)
    await refused(chat, "/ausrichter AFALSCH1", "kenne ich nicht", **at_host)
    # a day played today: linked; the next day (its date moved back a day) it is refused
    await ok(chat, "/spieltag 2 Münster", **LEADER)
    code = await host_code(chat)
    await ok(chat, f"/ausrichter {code}", "richtet hier Spieltag 2", **at_host)
    await refused(chat, f"/ausrichter {code}", "schon eingelöst", chat_id=-2003, **HOST)  # used up
    seating = await ok(chat, "/setzen", "Spieltag 2 in Münster · Serie 1", **at_host)
    table_code = re.search(r"/tisch (L\w{6})", seating).group(1)  # type: ignore[union-attr]

    def yesterday(session: Any) -> None:
        day = session.scalars(select(MatchDay).where(MatchDay.number == 2)).one()
        day.play_date = day.play_date - dt.timedelta(days=1)

    chat.db.run_write(yesterday)
    # the day over, the host's chat runs nothing of it (its line-up is refused with its date)
    await refused(chat, "/setzen", "gilt hier nicht", **at_host)
    await refused(chat, "/ergebnis Anna 100 1 0", "gilt hier nicht", **at_host)
    await refused(chat, "/aufstellung Nord fehlt", "nur an diesem Tag", **at_host)
    await ok(chat, "/sitzplan", "Serie 1", **at_host)  # reading goes on
    await refused(chat, f"/tisch {table_code}", "gelten nur am", chat_id=-3005, **LEADER)


async def test_loeschen_at_the_desk_takes_the_league_along(chat: Harness) -> None:
    chat.set_admins(-1001, LEADER["user_id"])
    await setup_league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    await ok(chat, "/setzen", **LEADER)
    await ok(chat, "/ergebnis Anna 100 1 0", **LEADER)

    def league_rows(session: Any) -> int:
        return sum(
            len(session.execute(select(table)).all())
            for table in metadata().sorted_tables
            if table.name.startswith("league")
        )

    assert chat.db.run_read(league_rows) > 0
    await ok(chat, "/loeschen", **LEADER)
    await ok(chat, "/loeschen ja", "Gelöscht", **LEADER)
    assert chat.db.run_read(league_rows) == 0
    await refused(chat, "/tabelle", "keine Liga")


async def test_a_table_reports_itself_from_its_own_list(chat: Harness) -> None:
    """/tisch CODE of the seating opens the table's list in its own chat; /abschluss there
    enters its totals as the table's results (provisional) and tells the desk."""
    await setup_league(chat)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    reply = await ok(chat, "/setzen", "/tisch L", **LEADER)
    tables = parse_seating(reply)
    code = re.search(r"Tisch 1 \(4er, 48 Spiele, /tisch (L\w{6})\)", reply).group(1)  # type: ignore[union-attr]
    names = [name for name, _ in tables[0]]
    table_chat = {"chat_id": -3001, **NORD_CAPTAIN}
    await refused(chat, f"/tisch {code}", "Kapitäne", chat_id=-3001, **STRANGER)
    await ok(chat, f"/tisch {code}", "Serie 1 · Tisch 1", *names, **table_chat)
    await refused(chat, f"/tisch {code}", "schon auf einer Liste", chat_id=-3002, **NORD_CAPTAIN)
    # seat 1 deals the first game, seat 2 the second
    await ok(chat, f"/spiel {names[1]} grand ohne 1 hand gewonnen", **table_chat)  # 72
    await ok(chat, f"/spiel {names[2]} herz mit 2 verloren", **table_chat)  # −2 × 30
    await ok(chat, "/abschluss ja", "an die Ligaleitung gemeldet (vorläufig", **table_chat)
    desk = chat.last(-1001).text
    assert "Spieltag 1 in Reken · Serie 1 · Tisch 1" in desk and "meldet (vorläufig)" in desk
    assert f"{names[1]}: 72 Spielpunkte, 1 gewonnen, 0 verloren – eingetragen" in desk, desk
    assert f"{names[2]}: −60 Spielpunkte, 0 gewonnen, 1 verloren – eingetragen" in desk, desk
    assert f"{names[0]}: 0 Spielpunkte, 0 gewonnen, 0 verloren – eingetragen" in desk, desk
    assert "Es fehlen noch 12" in desk, desk
    # the desk's own view agrees: the table's four are in, the others missing
    await refused(chat, "/setzen", "fehlen noch Ergebnisse", **LEADER)
    missing = await chat.text("/freigeben", **LEADER)
    assert all(name not in missing for name in names), missing
    # a table with a substitution during the series: its list closes, the results are not
    # taken over (one name per seat) and the table is told to use /ergebnis
    code2 = re.search(r"Tisch 2 \(4er, 48 Spiele, /tisch (L\w{6})\)", reply).group(1)  # type: ignore[union-attr]
    second = {"chat_id": -3003, **NORD_CAPTAIN}
    await ok(chat, f"/tisch {code2}", "Serie 1 · Tisch 2", **second)
    out_name, team = tables[1][0]
    sub = {"Nord": "Erik", "Süd": "Jens", "Ost": "Otto", "West": "Tom"}[team]
    await ok(chat, f"/wechsel {team} {sub} für {out_name} spiel 2", "ab Spiel 2", **LEADER)
    await ok(chat, f"/spiel {tables[1][1][0]} grand ohne 1 hand gewonnen", **second)
    closed = await ok(chat, "/abschluss ja", "Liste abgeschlossen", **second)
    assert "Tisch 2: nicht an die Ligaleitung übernommen" in closed, closed
    assert "Wechsel während der Serie" in closed and "/ergebnis" in closed, closed
    # the chat's next list is the next seating's (/tisch CODE), not one of its own
    await refused(chat, "/neu Ute Vera Wim", "/tisch CODE aus dem Sitzplan", **second)
    assert tables[1][1][0] in await chat.text("/freigeben", **LEADER)  # still missing


async def forum_ok(chat: Harness, text: str, **kw: Any) -> list[Seen]:
    """Send ``text``: answered, and not refused; the replies."""
    out = await chat.say(text, **kw)
    assert out and not any(r.refusal for r in out), (text, [r.text for r in out])
    return out


async def test_in_a_forum_every_table_gets_its_topic(chat: Harness) -> None:
    """At a desk in a forum, /setzen creates a topic per table with its list open; closing a
    list there reports to the desk (General)."""
    forum, leader = -1009301, LEADER["user_id"]
    chat.add_forum(forum)
    chat.set_admins(forum, leader)
    desk_kw = {"chat_id": forum, "user_id": leader}
    await forum_ok(chat, "/liga Kreisliga", **desk_kw)
    await forum_ok(chat, TEAMS, **desk_kw)
    await forum_ok(chat, "/spieltag 1 Reken", **desk_kw)
    seating = (await forum_ok(chat, "/setzen", **desk_kw))[0].text  # then the topics' openings
    assert "eigenes Thema" in seating, seating
    topics = {name: thread for (f, thread), name in chat.topic_names.items() if f == forum}
    assert sorted(topics) == [f"Kreisliga · Tag 1 S1 Tisch {i}" for i in (1, 2, 3, 4)], topics
    tables = parse_seating(seating)
    assert len(tables) == 4, seating

    def in_thread(thread: int) -> list[str]:
        found = [m for (c, _), m in chat.messages.items() if c == forum and m.thread_id == thread]
        return [m.text for m in sorted(found, key=lambda m: m.message_id)]

    for number, table in enumerate(tables, 1):
        thread = topics[f"Kreisliga · Tag 1 S1 Tisch {number}"]
        opening = in_thread(thread)[0]
        assert f"Serie 1 · Tisch {number}" in opening, opening
        assert all(name in opening for name, _ in table), (table, opening)
    thread = topics["Kreisliga · Tag 1 S1 Tisch 1"]
    names = [name for name, _ in tables[0]]
    at_table = {"chat_id": forum, "thread_id": thread, "user_id": leader}
    await forum_ok(chat, f"/spiel {names[1]} grand ohne 1 hand gewonnen", **at_table)
    closed = "\n".join(r.text for r in await forum_ok(chat, "/abschluss ja", **at_table))
    assert "an die Ligaleitung gemeldet" in closed, closed
    desk = in_thread(0)
    report = next(t for t in reversed(desk) if "meldet (vorläufig)" in t)
    assert "Serie 1 · Tisch 1" in report and f"{names[1]}: 72 Spielpunkte, 1 gewonnen" in report


async def test_an_association_counting_two_match_points_per_team_beaten(chat: Harness) -> None:
    await setup_league(chat)
    before = await chat.say("/liga", **LEADER)
    await refused(chat, "/liga matchpunkte 2", "verwalten Gerd", **STRANGER)
    await refused(chat, "/liga matchpunkte 0", "Matchpunkte je geschlagener Mannschaft", **LEADER)
    await refused(chat, "/liga matchpunkte ²", "/liga matchpunkte 2", **LEADER)
    assert [r.text for r in await chat.say("/liga", **LEADER)] == [r.text for r in before]
    await ok(chat, "/liga matchpunkte 2", "2 Matchpunkte je geschlagener Mannschaft", **LEADER)
    await ok(chat, "/spieltag 1 Reken", **LEADER)
    await ok(chat, "/aufstellung West fehlt", **LEADER)
    await ok(chat, "/setzen", **LEADER)
    # Series 1 of day 1 with Dora in Erik's place (by hand, as in DAY1's comment; 6 games lost
    # in all): Ost 1,200 + 40 × (6 − 1) = 1,400; Nord 1,200 + 40 × 4 = 1,360; Süd 1,200 + 40 × 3
    # = 1,320; absent West last. Two points per team beaten: 6:0, 4:2, 2:4, 0:6.
    results = dict(DAY1[1])
    results["Dora"] = results.pop("Erik")  # the line-up for series 1 is the first four here
    reply = await play_series(chat, 1, results)
    assert "Ost: 1.400 – 1. Platz: 6:0" in reply and "Nord: 1.360 – 2. Platz: 4:2" in reply, reply
    assert "Süd: 1.320 – 3. Platz: 2:4" in reply and "nicht angetreten: 0:6" in reply, reply
