"""A club's season of tournaments: one desk, one tournament after the other (/turnier ende,
/turniere, ``turnier N`` on the read-only commands), /loeschen at a desk with several
tournaments, and an ended tournament's tables. Whether the bot deletes or closes its topics
when a draw is taken back is Telegram's: tests/handlers/test_tournament_season.py."""

from __future__ import annotations

import datetime as dt
import json
import re

from tests.harness import Harness
from tests.helpers import export_raw, ok, refused
from tests.usecases.tournament import test_table_lists as tl
from tests.usecases.tournament.test_tournament_chat import (
    NAMES,
    ORGANISER,
    SEED,
    export,
    results_message,
)

DESK = -1001
OTHER = {"user_id": 2, "name": "Fremd"}
ANONYMOUS = (DESK, "Skatrunde")  # an anonymous admin: a message on behalf of the group


def hand_ranking(series: list[dict[str, tuple[int, int, int]]]) -> list[tuple[str, int]]:
    """Nobody lost a game: a series scores points + 50 x won whatever the tables."""
    total = {n: sum(s[n][0] + 50 * s[n][1] for s in series) for n in NAMES}
    return sorted(total.items(), key=lambda x: -x[1])


# Herbstskat: points rise with the name's place, Winterskat: they fall. No losses, one won game.
HERBST = [{n: (10 * i, 1, 0) for i, n in enumerate(NAMES)}, {n: (5 * i, 1, 0) for i, n in enumerate(NAMES)}]  # fmt: skip
WINTER = [{n: (10 * (12 - i), 1, 0) for i, n in enumerate(NAMES)}] * 2


async def play(chat: Harness, name: str, series: list[dict[str, tuple[int, int, int]]]) -> None:
    await ok(chat, f"/turnier {name}", f"„{name}“", "Turnierleitung", **ORGANISER)
    await ok(chat, "/teilnehmer " + ", ".join(NAMES), "13 Teilnehmer", **ORGANISER)
    for number, results in enumerate(series, 1):
        await ok(chat, f"/auslosen {SEED}", f"Serie {number}", **ORGANISER)
        await ok(chat, results_message(results), f"Serie {number} ist komplett", **ORGANISER)


async def end(chat: Harness, **who: object) -> str:
    asked = await ok(
        chat,
        "/turnier ende",
        "beenden?",
        "/turnier ende ja",
        **who,  # type: ignore[arg-type]
    )
    assert asked.startswith("❓ "), asked  # a question, not a warning (as /abschluss asks)
    return await ok(chat, "/turnier ende ja", "ist beendet", **who)  # type: ignore[arg-type]


async def test_two_tournaments_one_after_the_other_at_one_desk(chat: Harness) -> None:
    await play(chat, "Herbstskat", HERBST)
    herbst = hand_ranking(HERBST)
    assert herbst[0] == ("Moritz", 120 + 60 + 100)
    ranking = await ok(chat, "/rangliste", "1. Moritz – 280 Punkte · 2 gewonnen, 0 verloren")
    assert "Gezeigt" not in ranking  # one running tournament: nothing to tell apart

    # one tournament at a time; ending is for the management and asked first
    await refused(chat, "/turnier Winterskat", "läuft schon", "/turnier ende", **ORGANISER)
    before = await export_raw(chat)
    await refused(chat, "/turnier ende", "verwalten Olga", **OTHER)  # type: ignore[arg-type]
    await refused(chat, "/turnier ende ja", "noch nicht gefragt", **ORGANISER)
    assert await export_raw(chat) == before

    done = await end(chat, **ORGANISER)
    assert "Turnier 1 „Herbstskat“ ist beendet" in done and "Sieg: Moritz (280 Punkte)" in done
    assert "/rangliste turnier 1" in done and "/turnier NAME" in done
    # an ended tournament takes nothing: every managing command says so, nothing changes
    ended = await export_raw(chat)
    assert b'"closed": null' in before and b'"closed": null' not in ended  # says it has ended
    for message in (
        "/teilnehmer Zoe",
        "/entfernen Anna",
        "/auslosen",
        "/ergebnis Anna 1 1 0",
        "/serienlaenge 30 40",
        "/gebuehren startgeld 10 €",
        "/turnier ende",
    ):
        await refused(chat, message, "ist beendet", **ORGANISER)
    assert await export_raw(chat) == ended

    # the next one at the same desk, with the same draw seed: its own tables and ranking
    await play(chat, "Winterskat", WINTER)
    winter = hand_ranking(WINTER)
    assert winter[0] == ("Anna", 2 * (120 + 50))
    ranking = await ok(chat, "/rangliste", "1. Anna – 340 Punkte · 2 gewonnen, 0 verloren")
    assert "Gezeigt: Turnier 2 „Winterskat“" in ranking and "(läuft)" in ranking
    for place, (name, score) in enumerate(winter, 1):  # no ties: every place its own
        assert f"{place}. {name} – {score} Punkte" in ranking, (place, name, ranking)

    # the first stays readable, and says which one it shows
    first = await ok(chat, "/rangliste turnier 1", "1. Moritz – 280 Punkte", "(beendet)")
    assert "Als PDF: /rangliste turnier 1 pdf" in first
    assert "Gezeigt: Turnier 1 „Herbstskat“" in first
    for place, (name, score) in enumerate(herbst, 1):
        assert f"{place}. {name} – {score} Punkte" in first
    old = await chat.say("/export turnier 1")
    assert "Turnier 1 „Herbstskat“" in old[0].text
    data = await export(chat)
    assert data["name"] == "Winterskat" and len(data["series"]) == 2  # type: ignore[arg-type]
    assert data["ranking"][0]["name"] == "Anna"  # type: ignore[index]
    docs = await chat.say("/urkunden turnier 1")
    assert any(r.document for r in docs) and "Herbstskat" in docs[0].text
    cash = await chat.say("/kasse turnier 1")
    assert any(r.document for r in cash) and "Gezeigt: Turnier 1" in cash[0].text

    listing = await ok(chat, "/turniere", "Turniere in")
    assert re.search(r"^1\. Herbstskat – [\d.]+, beendet, 2 Serien · Sieg: Moritz", listing, re.M)
    assert re.search(r"^2\. Winterskat – [\d.]+, läuft, 2 Serien · vorn: Anna", listing, re.M)

    # bad numbers change nothing
    before = await export_raw(chat)
    await refused(chat, "/rangliste turnier 3", "Turnier 3 gibt es", "Turnier 1 bis 2")
    await refused(chat, "/urkunden turnier x", "keine Turniernummer")
    await refused(chat, "/kasse turnier 0", "Turnier 0 gibt es")
    await refused(chat, "/turniere alle", "kenne ich bei /turniere nicht")
    assert await export_raw(chat) == before

    # the season counts every finished tournament's series: 2 tournaments x 2 series x 4 tables
    await ok(chat, "/saison", "16 Serien")

    # an anonymous admin (posting as the group) may end the second one
    chat.set_admins(DESK)
    for text, expected in (("/turnier ende", "beenden?"), ("/turnier ende ja", "ist beendet")):
        await chat.say(text, chat_id=DESK, sender_chat=ANONYMOUS)
        assert expected in chat.last(DESK).text
    await ok(chat, "/turniere", "2. Winterskat", "beendet, 2 Serien · Sieg: Anna")


async def test_loeschen_at_a_desk_deletes_the_tournament_it_names(chat: Harness) -> None:
    three = NAMES[:3]
    for name in ("Herbstskat", "Winterskat"):
        await ok(chat, f"/turnier {name}", **ORGANISER)
        await ok(chat, "/teilnehmer " + ", ".join(three), **ORGANISER)
        await ok(chat, "/auslosen 1", **ORGANISER)
        if name == "Herbstskat":
            await end(chat, **ORGANISER)
    before = await export_raw(chat)
    # a tournament goes for its creator or an admin, everything only for an admin; a
    # member who created nothing deletes nothing; nothing was asked yet
    await refused(chat, "/loeschen alles", "nur die Admins", **ORGANISER)
    stranger = {"user_id": 77, "name": "Fremd"}
    await refused(chat, "/loeschen", "nur die Admins", **stranger)  # type: ignore[arg-type]
    await refused(chat, "/loeschen turnier 1", "nur die Admins", **stranger)  # type: ignore[arg-type]
    chat.set_admins(DESK, 3)
    admin = {"user_id": 3, "name": "Admina"}
    await refused(chat, "/loeschen ja", "noch nicht gefragt", **admin)  # type: ignore[arg-type]
    await refused(chat, "/loeschen turnier 7", "Turnier 7 gibt es", **admin)  # type: ignore[arg-type]
    await refused(chat, "/loeschen quatsch", "verstehe ich bei /loeschen nicht", **admin)  # type: ignore[arg-type]
    assert await export_raw(chat) == before

    asked = await ok(chat, "/loeschen turnier 1", "Turnier 1 „Herbstskat“ löschen?", **admin)  # type: ignore[arg-type]
    assert "3 Teilnehmern, 1 Serie und 0 Ergebnissen" in asked
    assert "Es bleiben: Turnier 2 „Winterskat“" in asked
    gone = await ok(chat, "/loeschen ja", "Gelöscht: Turnier 1 „Herbstskat“", **admin)  # type: ignore[arg-type]
    assert "Es bleiben: Turnier 2" in gone
    listing = await ok(chat, "/turniere")
    assert "Herbstskat" not in listing and "2. Winterskat" in listing
    assert await export_raw(chat) == before  # the running one is untouched
    await refused(chat, "/loeschen ja", "noch nicht gefragt", **admin)  # type: ignore[arg-type]

    # /loeschen alone: the newest; then nothing is left of the desk
    await ok(chat, "/loeschen", "Turnier 2 „Winterskat“ löschen?", **admin)  # type: ignore[arg-type]
    await ok(chat, "/loeschen ja", "kein Turnier mehr", **admin)  # type: ignore[arg-type]
    await ok(chat, "/turniere", "noch kein Turnier")


async def test_an_ended_tournaments_tables_take_no_games(chat: Harness) -> None:
    table_chat = -1002
    await ok(chat, "/turnier Herbstskat", **ORGANISER)
    await ok(chat, "/teilnehmer Anna, Bernd, Carla", **ORGANISER)
    drawn = await ok(chat, "/auslosen 1", **ORGANISER)
    code = re.search(r"/tisch (\w{6})", drawn)
    assert code, drawn
    await ok(chat, f"/tisch {code.group(1)}", "Serie 1 · Tisch 1", chat_id=table_chat)
    await ok(chat, "/spiel Anna grand ohne 1 hand gewonnen", "72", chat_id=table_chat)

    # the desk is no table: /spiel and /stand there point to the tables and the ranking
    for message in ("/spiel Anna grand ohne 1 hand gewonnen", "/stand", "/liste"):
        text = await refused(chat, message, "Turnierleitung", "/rangliste")
        assert "/neu" not in text, text

    done = await end(chat, **ORGANISER)
    assert "1 noch offene Tischliste geschlossen" in done
    told = chat.last(table_chat).text
    assert "Turnier „Herbstskat“ ist beendet" in told and "nimmt keine Spiele mehr an" in told
    before = await export_raw(chat, table_chat)
    text = await refused(
        chat, "/spiel Bernd herz mit 1 verloren", "ist beendet", "keine Spiele", chat_id=table_chat
    )
    assert "Herbstskat" in text
    await refused(chat, "/storno 1", "ist beendet", chat_id=table_chat)
    chat.set_admins(table_chat, 1)
    await refused(chat, "/oeffnen", "ist beendet", chat_id=table_chat)  # not even an admin
    assert await export_raw(chat, table_chat) == before
    await ok(chat, "/liste", "Anna", chat_id=table_chat)  # still readable
    await refused(chat, f"/tisch {code.group(1)}", "ist beendet", chat_id=-1003)


# --- late arrivals and departures -----------------------------------------------------------


def seated(reply: str) -> list[list[str]]:
    return [m.group(1).split(", ") for m in re.finditer(r"^Tisch \d+: (.+)$", reply, re.M)]


async def test_a_late_arrival_and_a_departure_with_ranking_and_fees_by_hand(chat: Harness) -> None:
    from skatbot.rules import tournament as tr

    await ok(chat, "/turnier Frühjahrsskat", **ORGANISER)
    await ok(chat, "/teilnehmer " + ", ".join(NAMES), **ORGANISER)
    await ok(chat, "/gebuehren startgeld 10 €\nverlust 0,50 €", **ORGANISER)
    tables1 = seated(await ok(chat, f"/auslosen {SEED}", **ORGANISER))
    # series 1: nobody loses but Moritz (one lost game): his table partners get 40 at a
    # 3-table, 30 at a 4-table; everyone else scores points + 50 x won
    s1 = {n: (10 * i, 1, 0) for i, n in enumerate(NAMES)} | {"Moritz": (60, 1, 1)}
    await ok(chat, results_message(s1), "Serie 1 ist komplett", **ORGANISER)
    moritz_table = next(t for t in tables1 if "Moritz" in t)
    bonus = 40 if len(moritz_table) == 3 else 30
    score1 = {n: p + 50 * (w - v) for n, (p, w, v) in s1.items()}
    score1.update({n: score1[n] + bonus for n in moritz_table if n != "Moritz"})

    # Moritz leaves after series 1, Zoe arrives for series 2; Xaver's arrival is taken back
    left = await ok(
        chat, "/entfernen Moritz", "Moritz ist ab Serie 2 nicht mehr dabei", **ORGANISER
    )
    assert "Serie 1 bleibt gewertet" in left and "Startgeld bleibt" in left
    came = await ok(chat, "/teilnehmer Zoe", "Nachgemeldet: Zoe – ab Serie 2 dabei", **ORGANISER)
    assert "Startgeld 10,00 € je Nachmeldung" in came
    await ok(chat, "/teilnehmer Xaver", "Nachgemeldet: Xaver", **ORGANISER)
    await ok(chat, "/entfernen Xaver", "Nachmeldung von Xaver zurückgenommen", **ORGANISER)
    listing = await ok(chat, "/teilnehmer", "Moritz (abgemeldet ab Serie 2)", "Zoe (ab Serie 2)")
    assert "Xaver" in listing  # in the log only
    assert re.search(r"Zoe: nachgemeldet ab Serie 2, von Olga", listing)
    assert re.search(r"Moritz: abgemeldet ab Serie 2, von Olga", listing)
    assert "Xaver: Nachmeldung (ab Serie 2) zurückgenommen" in listing
    assert "Serie 2: 13 dabei" in listing

    # refusals change nothing
    before = await export_raw(chat)
    await refused(chat, "/entfernen Moritz", "schon abgemeldet (ab Serie 2)", **ORGANISER)
    await refused(chat, "/teilnehmer Moritz", "steht schon", "abgemeldet ab Serie 2", **ORGANISER)
    await refused(chat, "/teilnehmer Zoe", "steht schon", **ORGANISER)
    await refused(chat, "/entfernen Zoe erstatten", "nichts zu erstatten", **ORGANISER)
    await refused(chat, "/teilnehmer Yvonne", "verwalten Olga", **OTHER)  # type: ignore[arg-type]
    await refused(chat, "/entfernen Anna", "verwalten Olga", **OTHER)  # type: ignore[arg-type]
    await refused(chat, "/entfernen Niemand", "kein Teilnehmer", **ORGANISER)
    assert await export_raw(chat) == before

    # series 2 is drawn from its own participants, recomputable with its seed
    drawn = await ok(
        chat, f"/auslosen {SEED}", "Neu dabei: Zoe", "Nicht mehr dabei: Moritz", **ORGANISER
    )
    tables2 = seated(drawn)
    present2 = [n for n in NAMES if n != "Moritz"] + ["Zoe"]
    assert tables2 == tr.draw(present2, SEED, 2, [tables1])
    data = await export(chat)
    assert data["series"][1]["participants"] == sorted(present2)  # type: ignore[index]
    assert [x["action"] for x in data["roster_log"]] == ["leave", "join", "join", "unjoin"]  # type: ignore[union-attr]
    await refused(chat, "/ergebnis Moritz 10 1 0", "kein Teilnehmer", **ORGANISER)

    s2 = {n: (5 * i, 1, 0) for i, n in enumerate(present2)}
    await ok(chat, results_message(s2), "Serie 2 ist komplett", **ORGANISER)
    total = {n: score1.get(n, 0) + (s2[n][0] + 50 if n in s2 else 0) for n in [*NAMES, "Zoe"]}
    order = sorted(total, key=lambda n: -total[n])
    assert len(set(total.values())) == len(total)  # no ties: the order is the scores'
    ranking = await ok(
        chat, "/rangliste", "Gezählt: Summe aller Serien, eine fehlende Serie zählt 0"
    )
    for place, name in enumerate(order, 1):
        assert re.search(rf"^{place}\. {name} – {total[name]} Punkte", ranking, re.M), name
    assert re.search(r"^\d+\. Moritz – .* · 1 von 2 Serien$", ranking, re.M)
    assert re.search(r"^\d+\. Zoe – .* · 1 von 2 Serien$", ranking, re.M)

    # fees: 14 entries of 10 €, Moritz's lost game 0,50 €; no refund unless the organiser says so
    dues = await ok(chat, "/abrechnung", "Einnahmen 140,50 €")
    assert "Moritz: zahlt 10,50 € (Startgeld 10,00 € + 1 verlorenes Spiel 0,50 €)" in dues
    assert "Zoe: zahlt 10,00 € (Startgeld 10,00 €)" in dues
    await ok(
        chat, "/entfernen Moritz erstatten", "Moritz bekommt das Startgeld erstattet", **ORGANISER
    )
    dues = await ok(chat, "/abrechnung", "Einnahmen 130,50 €")
    assert "Moritz: zahlt 0,50 € (1 verlorenes Spiel 0,50 €)" in dues

    # the average rule, from 2 series played: the two with one series are not ranked
    before = await export_raw(chat)
    await refused(
        chat, "/turnierregeln schnitt mindestens x", "kenne ich bei /turnierregeln", **ORGANISER
    )
    await refused(chat, "/turnierregeln schnitt mindestens 0", "gehen nicht", **ORGANISER)
    await refused(chat, "/turnierregeln summe", "verwalten Olga", **OTHER)  # type: ignore[arg-type]
    assert await export_raw(chat) == before
    await ok(
        chat, "/turnierregeln schnitt mindestens 2", "Schnitt je gespielter Serie", **ORGANISER
    )
    ranking = await ok(chat, "/rangliste", "Nicht gewertet (weniger als 2 Serien): Moritz, Zoe")
    both = [n for n in order if n not in ("Moritz", "Zoe")]
    for place, name in enumerate(both, 1):
        average = total[name] / 2
        shown = f"{average:.1f}".replace(".", ",").removesuffix(",0")
        assert f"{place}. {name} – {total[name]} Punkte" in ranking, name
        assert f"Schnitt {shown} aus 2 Serien" in ranking, (name, shown)
    assert "Moritz –" not in ranking
    await ok(chat, "/turnierregeln", "Schnitt je gespielter Serie, gewertet ab 2 Serien")


# --- a draw taken back ------------------------------------------------------------------------


async def desk_export(chat: Harness, chat_id: int) -> bytes:
    """The /export document of the desk ``chat_id`` (there must be one)."""
    docs = [r.document for r in await chat.say("/export", chat_id=chat_id) if r.document]
    assert docs
    return docs[0][1]


async def test_a_draw_undone_and_redrawn(chat: Harness) -> None:
    forum = tl.FORUM
    chat.add_forum(forum)
    chat.set_admins(forum, tl.MANAGER)
    await tl.setup_desk(chat, forum)
    first = seated(await tl.ok(chat, "/auslosen 4711", forum))
    threads = {thread for thread, _ in tl.table_topics(chat, 1).values()}
    assert len(threads) == 4
    assert "Serie 1: 0/4 Tische" in tl.pinned(chat, forum).text

    # refusals change nothing: wrong person, not asked, a wrong word
    before = await desk_export(chat, forum)
    await tl.refused(chat, "/auslosen zurück", forum, None, "verwalten", user_id=999)
    await tl.refused(chat, "/auslosen zurück ja", forum, None, "noch nicht gefragt")
    await tl.refused(chat, "/auslosen zurück quatsch", forum, None, "kenne ich")
    assert await desk_export(chat, forum) == before

    asked = await tl.ok(chat, "/auslosen zurück", forum)
    assert asked.startswith("❓ Auslosung von Serie 1 zurücknehmen?"), asked  # a question
    assert "/auslosen zurück ja" in asked
    done = await tl.ok(chat, "/auslosen zurück ja", forum)
    assert "Auslosung von Serie 1 zurückgenommen" in done
    assert {(forum, t) for t in threads} <= chat.closed_topics  # the bot's topics go
    assert "Serie 1: 0/4" not in tl.pinned(chat, forum).text  # the pinned one follows
    assert json.loads(await desk_export(chat, forum))["series"] == []

    # redrawn: the same seed and participants give the same tables, in new topics
    again = seated(await tl.ok(chat, "/auslosen 4711", forum))
    assert again == first
    topics = tl.table_topics(chat, 1)
    assert len(topics) == 4 and not threads & {t for t, _ in topics.values()}

    # taken back again: these topics go too (deleted, or closed where the bot may not
    # delete them: tests/handlers/test_tournament_season.py)
    await tl.ok(chat, "/auslosen zurück", forum)
    await tl.ok(chat, "/auslosen zurück ja", forum)
    assert {(forum, t) for t, _ in topics.values()} <= chat.closed_topics

    # after the first game at a table it is refused with the reason
    await tl.ok(chat, "/auslosen 4711", forum)
    thread, players = tl.table_topics(chat, 1)[1]
    assert thread not in {t for t, _ in topics.values()}
    declarer = players[1]
    await tl.ok(chat, f"/spiel {declarer} {tl.WON}", forum, thread, user_id=tl.USER[declarer])
    before = await desk_export(chat, forum)
    await tl.refused(chat, "/auslosen zurück", forum, None, "an Tisch 1 ist schon gespielt worden")
    assert await desk_export(chat, forum) == before


async def test_a_draw_with_codes_undone_and_refused_after_a_result(chat: Harness) -> None:

    await tl.ok(chat, "/turnier Vereinsmeisterschaft", tl.PLAIN)
    await tl.ok(chat, "/teilnehmer " + ", ".join(NAMES[:7]), tl.PLAIN)
    drawn = await tl.ok(chat, "/auslosen 99", tl.PLAIN)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", drawn))
    await tl.ok(chat, f"/tisch {codes['1']}", tl.ELSEWHERE)
    # a late arrival after the draw plays "from the next series": still so after taking it back
    await tl.ok(chat, "/teilnehmer Zoe", tl.PLAIN)
    await tl.ok(chat, "/entfernen Gustav", tl.PLAIN)  # leaves "after series 1"
    await tl.ok(chat, "/auslosen zurück", tl.PLAIN)
    done = await tl.ok(chat, "/auslosen zurück ja", tl.PLAIN)
    assert "Zoe ab Serie 1" in done and "Gustav gestrichen" in done
    told = [m.text for m in tl.messages(chat, tl.ELSEWHERE)]
    assert any("Serie 1 · Tisch 1 gilt nicht mehr" in t for t in told), told
    await tl.refused(chat, f"/tisch {codes['2']}", tl.OTHER, None, "kenne ich nicht")
    await tl.refused(chat, "/spiel Anna grand ohne 1 hand g", tl.ELSEWHERE, None, "keine Liste")

    drawn = seated(await tl.ok(chat, "/auslosen 99", tl.PLAIN))
    assert {n for table in drawn for n in table} == {*NAMES[:6], "Zoe"}
    await tl.ok(chat, "/ergebnis Anna 10 1 0", tl.PLAIN)
    before = await export_raw(chat, tl.PLAIN)
    await tl.refused(chat, "/auslosen zurück", tl.PLAIN, None, "1 Ergebnis eingetragen")
    assert await export_raw(chat, tl.PLAIN) == before
    await tl.refused(chat, "/auslosen zurück", -1009199, None, "gilt hier nicht")  # no desk


# --- the ranking of one series and its ties ---------------------------------------------------


async def test_rangliste_serie_2_equals_the_hand_computation_with_every_tie_break(
    chat: Harness,
) -> None:
    import hashlib

    seven = NAMES[:7]
    await ok(chat, "/turnier Sommerskat", **ORGANISER)
    await ok(chat, "/teilnehmer " + ", ".join(seven), **ORGANISER)
    await ok(chat, "/preise serie 20 € 10 €", **ORGANISER)
    await ok(chat, f"/auslosen {SEED}", **ORGANISER)
    await ok(chat, results_message({n: (10, 1, 0) for n in seven}), "komplett", **ORGANISER)
    tables = seated(await ok(chat, f"/auslosen {SEED}", **ORGANISER))
    (p1, p2, p3, p4), (q1, q2, q3) = sorted(tables, key=len, reverse=True)
    # Seeger-Fabian by hand: points + 50 x (won - lost) + 30 (4-table) / 40 (3-table) for
    # every game the others at the table lost. Only p2 (4-table) and q1 (3-table) lose one.
    s2 = {
        p1: (20, 1, 0),  # 20 + 50 + 30 = 100, 1 won
        p2: (0, 3, 1),  # 0 + 100 + 0 = 100, 3 won: ahead of every other 100
        p3: (40, 2, 0),  # 40 + 100 + 30 = 170
        p4: (-30, 2, 0),  # -30 + 100 + 30 = 100, 2 won, 0 lost: ahead of q1 (1 lost)
        q1: (50, 2, 1),  # 50 + 50 + 0 = 100, 2 won, 1 lost
        q2: (0, 1, 0),  # 0 + 50 + 40 = 90
        q3: (0, 1, 0),  # 90, 1 won, 0 lost: a full tie with q2, the lot decides
    }
    await ok(chat, results_message(s2), "Serie 2 ist komplett", **ORGANISER)
    seed = (await export(chat))["seed"]
    lot = sorted([q2, q3], key=lambda n: hashlib.sha256(f"{seed}\n{n}".encode()).hexdigest())
    expected = [(p3, 170, 2, 0), (p2, 100, 3, 1), (p4, 100, 2, 0), (q1, 100, 2, 1)]
    expected += [(p1, 100, 1, 0), (lot[0], 90, 1, 0), (lot[1], 90, 1, 0)]

    ranking = await ok(chat, "/rangliste serie 2", "Serie 2 – Sommerskat")
    shown = [x for x in ranking.splitlines() if x[:1].isdigit()]
    assert shown == [
        f"{i}. {n} – {score} Punkte · {won} gewonnen, {lost} verloren"
        for i, (n, score, won, lost) in enumerate(expected, 1)
    ], ranking
    assert f"Gleichstand bei {lot[0]} und {lot[1]}: Platz durch Los (Startwert {seed})" in ranking
    # the series prizes follow this ranking
    money = (await export(chat))["money"]
    assert [p for p in money["payouts"] if p["series"] == 2] == [
        {"place": 1, "name": p3, "cents": 2000, "series": 2},
        {"place": 2, "name": p2, "cents": 1000, "series": 2},
    ]
    # the settlement pays the same winners (series 1's prizes went by lot: added as exported)
    won: dict[str, int] = {}
    for p in money["payouts"]:
        won[p["name"]] = won.get(p["name"], 0) + p["cents"]
    dues = await ok(chat, "/abrechnung")
    for name in (p3, p2):
        euros = f"{won[name] // 100},{won[name] % 100:02d} €"
        assert re.search(rf"^{name}: .*Preis {euros} → bekommt {euros}$", dues, re.M), dues
    # series 1: seven full ties (10 points, 1 won each), every place by lot, and said so
    first = await ok(chat, "/rangliste serie 1")
    assert "Plätze durch Los" in first

    before = await export_raw(chat)
    for message, expected_text in (
        ("/rangliste serie 3", "Serie 3 gibt es nicht"),
        ("/rangliste serie x", "Welche Serie?"),
        ("/rangliste serie", "Welche Serie?"),
        ("/rangliste serie 1 2", "Welche Serie?"),
    ):
        await refused(chat, message, expected_text)
    assert await export_raw(chat) == before
    await ok(chat, f"/auslosen {SEED}", **ORGANISER)
    await refused(chat, "/rangliste serie 3", "Serie 3 ist noch unvollständig", "/fehlend")


# --- seating by the ranking -------------------------------------------------------------------


async def test_a_setzliste_seats_the_top_4_of_series_1_at_table_1(chat: Harness) -> None:
    await ok(chat, "/turnier Herbstskat", **ORGANISER)
    await ok(chat, "/teilnehmer " + ", ".join(NAMES), **ORGANISER)
    before = await export_raw(chat)
    await refused(chat, "/auslosen setzliste", "braucht es eine Rangliste", **ORGANISER)
    assert await export_raw(chat) == before
    await ok(chat, f"/auslosen {SEED}", **ORGANISER)
    s1 = {n: (10 * i, 1, 0) for i, n in enumerate(NAMES)}  # Moritz first ... Anna last
    await ok(chat, results_message(dict(list(s1.items())[:12])), **ORGANISER)
    before = await export_raw(chat)
    await refused(
        chat,
        "/auslosen setzliste",
        "fehlen noch Ergebnisse von Moritz.",
        "dann /auslosen setzliste",
        **ORGANISER,
    )
    assert await export_raw(chat) == before
    await ok(chat, results_message({"Moritz": s1["Moritz"]}), "komplett", **ORGANISER)
    before = await export_raw(chat)
    await refused(chat, "/auslosen setzliste", "verwalten Olga", **OTHER)  # type: ignore[arg-type]
    await refused(chat, "/auslosen setzliste 7", "Höchstens ein Startwert", **ORGANISER)
    assert await export_raw(chat) == before
    await ok(chat, "/teilnehmer Zoe", "ab Serie 2", **ORGANISER)  # no place yet: seated last

    drawn = await ok(
        chat, "/auslosen setzliste", "Setzliste nach der Rangliste (Serie 1)", **ORGANISER
    )
    by_rank = sorted(NAMES, key=lambda n: -s1[n][0])  # no losses: points + 50 decide
    assert seated(drawn) == [by_rank[0:4], by_rank[4:8], by_rank[8:11], [*by_rank[11:13], "Zoe"]]
    assert seated(drawn)[0] == ["Moritz", "Lena", "Karl", "Jonas"]
    assert "Ohne Platz, nach dem Los dahinter: Zoe" in drawn
    assert (await export(chat))["series"][1]["seed"] == "setzliste"
    # reproducible: taken back and seated again, the same tables
    await ok(chat, "/auslosen zurück", **ORGANISER)
    await ok(chat, "/auslosen zurück ja", **ORGANISER)
    assert seated(await ok(chat, "/auslosen setzliste", **ORGANISER)) == seated(drawn)


async def test_a_setzliste_keeps_teams_apart(chat: Harness) -> None:
    seven = NAMES[:7]  # Anna ... Gustav
    await ok(chat, "/turnier Mannschaftsskat", **ORGANISER)
    entries = [f"{n} [Nord]" if n in ("Frieda", "Gustav") else n for n in seven]
    await ok(chat, "/teilnehmer " + ", ".join(entries), **ORGANISER)
    await ok(chat, f"/auslosen {SEED}", **ORGANISER)
    s1 = {n: (10 * i, 1, 0) for i, n in enumerate(seven)}  # Gustav, Frieda, Emil, ... Anna
    await ok(chat, results_message(s1), "komplett", **ORGANISER)
    drawn = await ok(chat, "/auslosen setzliste", "Teams: kein Tisch mit zwei", **ORGANISER)
    # blocks would be Gustav Frieda Emil Dora | Carla Bernd Anna: Frieda (Nord, the lower of
    # the two) swaps with the best-ranked seat of table 2 that fits, Carla
    assert seated(drawn) == [["Gustav", "Emil", "Dora", "Carla"], ["Frieda", "Bernd", "Anna"]]


# --- documents carry their tournament ---------------------------------------------------------


async def test_documents_carry_the_tournaments_name_and_date(chat: Harness) -> None:
    import io

    from pypdf import PdfReader

    from skatbot.pdf.base import format_date_long

    await play(chat, "Herbstskat Süd", HERBST[:1])
    await ok(chat, "/gebuehren startgeld 5 €", **ORGANISER)
    await end(chat, **ORGANISER)
    await ok(chat, "/turnier Winterskat", **ORGANISER)
    day = (await export(chat, DESK))["created"]  # the running one's date: the same day here
    held = format_date_long(dt.date.fromisoformat(str(day)))
    for command, kind in (
        ("/rangliste turnier 1 pdf", "rangliste"),
        ("/kasse turnier 1", "kassenbericht"),
        ("/urkunden turnier 1", "urkunden"),
    ):
        out = await chat.say(command)
        docs = [r.document for r in out if r.document]
        assert docs, (command, [r.text for r in out])
        name, data = docs[0]
        assert name == f"{kind}-herbstskat-sued-{day}.pdf", name
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
        text = " ".join(text.split())
        assert "Herbstskat Süd" in text, (kind, text[:300])
        assert (f"Turnier vom {held}" if kind != "urkunden" else f"am {held}") in text, text[:300]


async def test_hilfe_turnier_describes_the_whole_season(chat: Harness) -> None:
    page = await ok(chat, "/hilfe turnier")
    steps = [
        "1. Anlegen",
        "2. Auslosen",
        "3. Spielen",
        "4. Nachmeldungen",
        "5. Rangliste",
        "6. Ende",
    ]
    assert [page.index(s) for s in steps] == sorted(page.index(s) for s in steps)
    for part in (
        "/turnier ende ja", "/turniere", "/rangliste turnier 1", "/auslosen zurück ja",
        "/auslosen setzliste", "/rangliste serie 2", "/turnierregeln schnitt", "erstatten",
        "/loeschen turnier 1", "Turnierleitung",
    ):  # fmt: skip
        assert part in page, part
    assert "Turniertisch" not in page and "Schreibtisch" not in page
    drawing = await ok(
        chat, "/hilfe auslosung", "Setzliste", "Platz 1–4 an Tisch 1", "„participants“"
    )
    assert "Turniertisch" not in drawing


async def test_the_next_draw_button_follows_an_undone_draw_and_an_ended_tournament(
    chat: Harness,
) -> None:
    from skatbot.usecases.tournament import tables as tournament_tables

    await tl.ok(chat, "/turnier Vereinsmeisterschaft", tl.PLAIN)
    await tl.ok(chat, "/teilnehmer " + ", ".join(tl.SEVEN), tl.PLAIN)
    await tl.ok(chat, "/serienlaenge 3 4", tl.PLAIN)
    drawn = await tl.ok(chat, "/auslosen 99", tl.PLAIN)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", drawn))
    for code, where in ((codes["1"], tl.ELSEWHERE), (codes["2"], tl.OTHER)):
        await tl.ok(chat, f"/tisch {code}", where)
        players = tl.opening_players(chat, where)
        await tl.play_at(chat, where, players)
        for seat, name in enumerate(players):
            await tl.claim(chat, name, where)  # signing needs it (the management confirms)
            msg = tl.sign_message(chat, where, None)
            await tl.tap(chat, msg, f"{tl.data_of(msg, tl.SIGN_LABEL)}:{seat}", tl.USER[name])
    button = [m for m in tl.messages(chat, tl.PLAIN) if m.buttons][-1]
    data = tl.data_of(button, tournament_tables.DRAW_LABEL)
    assert "Ausgelost" in await tl.tap(chat, button, data, tl.MANAGER)
    assert "Serie 2 ausgelost" in tl.messages(chat, tl.PLAIN)[-1].text
    assert "gilt nicht mehr" in await tl.tap(chat, button, data, tl.MANAGER)  # used up

    # taken back: the answer carries the one-tap draw of series 2 again
    await tl.ok(chat, "/auslosen zurück", tl.PLAIN)
    await tl.ok(chat, "/auslosen zurück ja", tl.PLAIN)
    button = [m for m in tl.messages(chat, tl.PLAIN) if m.buttons][-1]
    assert "zurückgenommen" in button.text
    assert "Ausgelost" in await tl.tap(
        chat, button, tl.data_of(button, tl.tournament_tables.DRAW_LABEL), tl.MANAGER
    )
    assert "Serie 2 ausgelost" in tl.messages(chat, tl.PLAIN)[-1].text
    await tl.ok(chat, "/auslosen zurück", tl.PLAIN)
    await tl.ok(chat, "/auslosen zurück ja", tl.PLAIN)
    button = [m for m in tl.messages(chat, tl.PLAIN) if m.buttons][-1]
    data = tl.data_of(button, tournament_tables.DRAW_LABEL)
    await tl.ok(chat, "/turnier ende", tl.PLAIN)
    await tl.ok(chat, "/turnier ende ja", tl.PLAIN)
    assert "gilt nicht mehr" in await tl.tap(chat, button, data, tl.MANAGER)  # ended
    assert len(json.loads(await desk_export(chat, tl.PLAIN))["series"]) == 1
