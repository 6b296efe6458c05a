"""/spielabend on the use cases (the harness): the poll, the votes, closing by command and
at the time, the seating's answers and the lists it starts, in a plain group and a forum."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from skatbot.rules.seating import seat
from skatbot.storage import game_nights as store
from skatbot.storage import lists as lists_store
from skatbot.usecases.common.names import clean_name, neu_line
from skatbot.usecases.gamenight.nights import close_due, distinct_name, vote
from tests.harness import Harness

CHAT = -1001
PROPOSER, ADMIN, MEMBER = 1, 7, 9
NAMES = ["Anna", "Bernd", "Carla", "Dora", "Erik", "Frieda", "Gerd", "Hanna", "Ines"]
NAMES += [f"Gast{i}" for i in range(1, 41)]


async def plan(chat: Harness, when: str = "morgen 19:00", **kw: object) -> str:
    """Plan a night; the id of its poll."""
    out = await chat.text(f"/spielabend {when}", **kw)  # type: ignore[arg-type]
    assert "Spielabend" in out, out
    return list(chat.polls)[-1]


async def votes(
    chat: Harness, poll_id: str, names: list[str], yes: bool = True, first: int = 100
) -> None:
    """Each name votes (yes or no) with its own user id, from ``first`` on."""
    for i, name in enumerate(names, first):
        counted = await chat.db.write(
            lambda s, i=i, name=name: vote(s, poll_id, i, name, "", (0,) if yes else (1,))
        )
        assert counted


async def test_a_night_posts_its_start_as_a_date_time_and_a_poll(chat: Harness) -> None:
    seen = await chat.say("/spielabend morgen 19:00")
    announcement, poll = seen
    assert re.search(
        r'<tg-time unix="\d+" format="wdt">\w\w \d+\.\d+\. 19:00</tg-time>', announcement.html
    )
    assert poll.method == "sendPoll"
    assert "Ich bin dabei" in poll.text and "Ich kann nicht" in poll.text
    night = await chat.db.read(lambda s: store.open_night(s, CHAT))
    assert night is not None and night.poll_id in chat.polls and night.message_id


async def test_four_yes_votes_close_into_one_list_here(chat: Harness) -> None:
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:4])
    await votes(chat, poll_id, ["Zora"], yes=False, first=300)
    out = await chat.text("/spielabend schliessen")
    assert "4 Zusagen – ein Vierertisch." in out, out
    assert "Tisch 1 spielt hier" in out and "Neue Liste" in out
    running = await chat.db.read(lambda s: lists_store.open_list(s, CHAT))
    assert running is not None
    assert (CHAT, chat.polls[poll_id][1]) in chat.stopped_polls  # the poll is closed too
    again = await chat.text("/spielabend schliessen")
    assert "kein Spielabend offen" in again


async def test_a_changed_vote_counts_as_changed(chat: Harness) -> None:
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:4])
    await chat.db.write(lambda s: vote(s, poll_id, 100, "Anna", "", (1,)))  # Anna: no after all
    out = await chat.text("/spielabend schliessen")
    assert "3 Zusagen – ein Dreiertisch." in out and "Anna" not in out.split("Neue Liste")[0]


async def test_seven_in_a_forum_get_two_topics_with_their_lists(chat: Harness) -> None:
    chat.add_forum(CHAT)
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:7])
    await chat.text("/spielabend schliessen")
    assert sorted(n.split(" · ")[1] for n in chat.topic_names.values()) == ["Tisch 1", "Tisch 2"]
    sizes = []
    for chat_id, thread in chat.topic_names:
        place = await chat._place(chat_id, thread)
        lst = await chat.db.read(lambda s, place=place: lists_store.open_list(s, place))
        assert lst is not None
        sizes.append(lst.series_length)  # 36 for a 3-table, 48 for a 4-table
    assert sorted(sizes) == [36, 48]


async def test_eight_in_a_plain_group_start_one_list_and_name_the_other(chat: Harness) -> None:
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:8])
    out = await chat.text("/spielabend schliessen")
    assert "2 Vierertische" in out and "Tisch 1 spielt hier" in out
    assert re.search(r"Tisch 2: /neu \w+ \w+ \w+ \w+", out), out


@pytest.mark.parametrize(
    ("n", "says"),
    [
        (0, "Noch keine Zusage – für einen Tisch braucht es 3."),
        (2, "Erst 2 Zusagen – für einen Tisch braucht es 3."),
        (5, "Erik wartet (zuletzt zugesagt)"),
        (33, "So viele Listen startet der Bot nicht auf einmal"),
    ],
)
async def test_awkward_numbers_get_what_works(chat: Harness, n: int, says: str) -> None:
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:n])
    out = await chat.text("/spielabend schliessen")
    assert says in out, out
    running = await chat.db.read(lambda s: lists_store.open_list(s, CHAT))
    assert (running is not None) == (n == 5)  # five: the 4-table's list starts; 33: none


async def test_two_voters_of_one_name_are_told_apart(chat: Harness) -> None:
    poll_id = await plan(chat)
    for i, last in enumerate(["Meier", "Schulz", ""]):
        await chat.db.write(lambda s, i=i, last=last: vote(s, poll_id, 200 + i, "Anna", last, (0,)))
    out = await chat.text("/spielabend schliessen")
    assert "Anna" in out and "Anna S." in out and "Anna 2" in out, out


async def test_a_night_closes_by_itself_at_its_start(chat: Harness) -> None:
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:3])
    night = await chat.db.read(lambda s: store.by_poll(s, poll_id))
    assert night is not None
    early = await chat.db.write(lambda s: close_due(s, night.starts_at - dt.timedelta(seconds=1)))
    assert early == []
    due = await chat.db.write(lambda s: close_due(s, night.starts_at))
    assert [(c, t) for c, t, _ in due] == [(CHAT, 0)]
    assert "3 Zusagen – ein Dreiertisch." in due[0][2].text
    assert await chat.db.write(lambda s: close_due(s, night.starts_at)) == []  # once
    late = await chat.db.write(lambda s: vote(s, poll_id, 999, "Zora", "", (0,)))
    assert not late  # a vote after the close counts for nothing


async def test_a_night_survives_a_restart_as_stored(chat: Harness) -> None:
    """Due-ness is read from the database: a night whose time passed while the bot was down
    is found at the next look."""
    poll_id = await plan(chat)
    past = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    await chat.db.write(
        lambda s: s.execute(
            update(store.GameNightRow)
            .where(store.GameNightRow.poll == poll_id)
            .values(starts_at=past)
        )
    )
    due = await chat.db.write(lambda s: close_due(s, dt.datetime.now(dt.UTC)))
    assert len(due) == 1


async def test_closing_early_is_for_the_proposer_and_admins(chat: Harness) -> None:
    chat.set_admins(CHAT, ADMIN)
    await plan(chat, user_id=PROPOSER, name="Paul")
    refused = await chat.text("/spielabend schliessen", user_id=MEMBER, name="Mia")
    assert "Früher schließen dürfen nur Paul und die Admins" in refused
    assert await chat.db.read(lambda s: store.open_night(s, CHAT)) is not None
    closed = await chat.text("/spielabend schliessen", user_id=ADMIN, name="Ada")
    assert "Umfrage geschlossen" in closed


async def test_one_night_at_a_time_and_only_in_a_group(chat: Harness) -> None:
    await plan(chat)
    second = await chat.text("/spielabend übermorgen 20:00")
    assert "schon ein Spielabend geplant" in second and "/spielabend schliessen" in second
    private = await chat.text("/spielabend morgen 19:00", chat_id=5)
    assert "in der Gruppe geplant" in private


async def test_a_running_list_with_games_keeps_its_place(chat: Harness) -> None:
    """A plain group keeps one running list: the night's first table does not replace one
    with games; the answer says so and gives every table its /neu line."""
    await chat.text("/neu Xaver Yvonne Zora")
    await chat.text("/spiel Yvonne grand mit 1 g")
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:3])
    out = await chat.text("/spielabend schliessen")
    assert "Tisch 1 kann hier nicht starten: Es läuft noch eine Liste" in out, out
    assert re.search(r"Tisch 1: /neu \w+ \w+ \w+", out), out


async def test_not_at_a_tournament_desk(chat: Harness) -> None:
    await chat.text("/turnier Herbstpreis", chat_id=-1003)
    out = await chat.text("/spielabend morgen 19:00", chat_id=-1003)
    assert "/spielabend gilt hier nicht" in out and "Turnierleitung" in out


async def test_a_start_typed_wrong_gets_the_rules_answer(chat: Harness) -> None:
    out = await chat.text("/spielabend Dinstag 19:00")
    assert "Meinst du Dienstag? Zum Beispiel: /spielabend Dienstag 19:00" in out
    assert not chat.polls


# --- any number of votes ------------------------------------------------------------------------

FIRST_NAMES = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40
)


@given(
    voters=st.lists(st.tuples(FIRST_NAMES, FIRST_NAMES), max_size=60),
    seed=st.text("abc123", min_size=1, max_size=8),
)
def test_any_voters_names_make_seats(voters: list[tuple[str, str]], seed: str) -> None:
    """Whatever Telegram names the voters (empty, alike but for case, long, the same), each
    yes-vote becomes a name a list takes, and the seating never refuses them."""
    names: list[str] = []
    for first, last in voters:
        names.append(distinct_name(first, last, {n.casefold() for n in names}))
    assert len({n.casefold() for n in names}) == len(names)
    assert all(clean_name(n) == n for n in names)  # a list takes each as it is
    assert all(neu_line([n]).split(None, 1)[1].strip("„“") == n for n in names)
    seating = seat(names, seed)
    seated = [n for table in seating.plan.tables for n in table] + list(seating.plan.waiting)
    assert sorted(seated) == (sorted(names) if len(names) >= 3 else [])
    assert seating.text


PLANNED = itertools.count(-2000, -1)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(n=st.integers(0, 40), forum=st.booleans())
async def test_any_number_of_votes_gets_a_clear_answer_and_the_lists_that_work(
    chat: Harness, n: int, forum: bool
) -> None:
    """Closing with any number of yes-votes: a German answer that names the tables or what
    works, and exactly the lists the seating starts (a topic each in a forum; in a plain
    group the first table's list, the others' /neu lines)."""
    where = next(PLANNED)
    if forum:
        chat.add_forum(where)
    topics_before = len(chat.topic_names)
    poll_id = await plan(chat, chat_id=where)
    await votes(chat, poll_id, [f"Spieler{i}" for i in range(n)])
    out = await chat.text("/spielabend schliessen", chat_id=where)
    seating = seat([f"Spieler{i}" for i in range(n)], "x")
    assert "Umfrage geschlossen" in out and seating.text.split(" – ")[0] in out
    tables = len(seating.plan.tables) if seating.starts_lists else 0
    running = await chat.db.read(lambda s: lists_store.open_list(s, where))
    if forum:
        assert len(chat.topic_names) - topics_before == tables
        assert running is None
    else:
        assert (running is not None) == (tables > 0)
        assert out.count("/neu ") == max(0, tables - 1)
    if n < 3:
        assert "braucht es 3" in out
    if n > 32:
        assert "/turnier" in out


async def test_a_yes_given_twice_keeps_its_place_a_yes_after_a_no_goes_to_the_back(
    chat: Harness,
) -> None:
    """Five: the last to say yes waits. A redelivered yes is no new yes."""
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:5])  # Anna first ... Erik last
    await chat.db.write(lambda s: vote(s, poll_id, 100, "Anna", "", (0,)))  # again: no change
    assert "Erik wartet" in await chat.text("/spielabend schliessen")
    poll_id = await plan(chat)
    await votes(chat, poll_id, NAMES[:5])
    await chat.db.write(lambda s: vote(s, poll_id, 100, "Anna", "", (1,)))
    await chat.db.write(lambda s: vote(s, poll_id, 100, "Anna", "", (0,)))  # back: now last
    assert "Anna wartet" in await chat.text("/spielabend schliessen")


async def test_a_group_that_allows_no_polls_is_told_what_to_do(chat: Harness) -> None:
    chat.no_polls.add(CHAT)
    out = await chat.text("/spielabend morgen 19:00")
    assert "Die Umfrage darf ich hier nicht senden" in out and "/spielabend schliessen" in out
    closed = await chat.text("/spielabend schliessen")
    assert "Noch keine Zusage" in closed
