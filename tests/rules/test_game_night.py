"""Game nights planned in the chat: the start as typed (rules/game_night.py) and the seating of
the yes-votes (rules/seating.py)."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from skatbot.rules.calendar import berlin_moment, berlin_time
from skatbot.rules.errors import GameNightError, RuleError
from skatbot.rules.game_night import MAX_DAYS_AHEAD, GameNightStart, format_start, parse_start
from skatbot.rules.seating import MAX_TABLES, SeatingKind, seat
from skatbot.rules.tournament import draw

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
#: Saturday 5 December 2026, 08:40 in Germany.
NOW = dt.datetime(2026, 12, 5, 8, 40, tzinfo=BERLIN)


def at(month: int, day: int, hour: int, minute: int = 0, year: int = 2026) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=BERLIN)


# --------------------------------------------------------------------------- the start


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("Di 19:00", at(12, 8, 19)),
        ("/spielabend Di 19:00", at(12, 8, 19)),
        ("/spielabend@skatbot Di. 19:00", at(12, 8, 19)),
        ("Dienstag 19 Uhr", at(12, 8, 19)),
        ("dienstags 19.30 Uhr", at(12, 8, 19, 30)),
        ("morgen 19:30", at(12, 6, 19, 30)),
        ("übermorgen 18h", at(12, 7, 18)),
        ("heute 20 Uhr", at(12, 5, 20)),
        ("heute Abend 8", at(12, 5, 20)),
        ("Sa 8 Uhr abends", at(12, 5, 20)),
        ("Sa 15:00", at(12, 5, 15)),  # a weekday counts today
        ("Sonnabend 15:00", at(12, 5, 15)),
        ("19 Uhr 30", at(12, 5, 19, 30)),  # no day: today
        ("12.12. 19:00", at(12, 12, 19)),
        ("12.12 19:00", at(12, 12, 19)),
        ("12.12.26 19:00", at(12, 12, 19)),
        ("am 12.12.2026, um 19:00 Uhr", at(12, 12, 19)),
        ("Fr 19h", at(12, 11, 19)),
        ("am kommenden Freitag um 19 Uhr", at(12, 11, 19)),
        ("FR 19UHR", at(12, 11, 19)),
        ("Di 8.12. 19:00", at(12, 8, 19)),
        ("8.1. 19:00", at(1, 8, 19, year=2027)),  # past this year: next year's
        ("Mo 29.3. 02:30", at(3, 29, 2, 30, year=2027)),  # the day after the clocks change
    ],
)
def test_the_start_as_players_type_it(text: str, start: dt.datetime) -> None:
    parsed = parse_start(text, NOW)
    assert parsed.at == start
    assert parsed.at.utcoffset() == start.utcoffset()


def test_format_writes_weekday_date_and_clock() -> None:
    assert format_start(at(12, 8, 19)) == "Di 8.12. 19:00"
    assert format_start(at(1, 8, 9, 5, year=2027)) == "Fr 8.1. 09:05"
    assert format_start(dt.datetime(2026, 12, 8, 18, tzinfo=dt.UTC)) == "Di 8.12. 19:00"
    start = GameNightStart(dt.datetime(2026, 7, 7, 17, tzinfo=dt.UTC))
    assert str(start) == "Di 7.7. 19:00"  # summer time
    assert start.unix_time == int(dt.datetime(2026, 7, 7, 17, tzinfo=dt.UTC).timestamp())
    with pytest.raises(ValueError):
        GameNightStart(dt.datetime(2026, 7, 7, 19))


REFUSALS = [
    ("", "Wann soll gespielt werden?"),
    ("   ", "Wann soll gespielt werden?"),
    ("Di", "Die Uhrzeit fehlt."),
    ("morgen", "Die Uhrzeit fehlt."),
    ("Dinstag 19:00", "„Dinstag“ kenne ich nicht. Meinst du Dienstag?"),
    ("Dinstag 19:00", "/spielabend Dienstag 19:00"),
    ("Kegeln 19:00", "„Kegeln“ kenne ich nicht."),
    ("Di 25:00", "25:00 ist keine Uhrzeit."),
    ("Di 19:75", "19:75 ist keine Uhrzeit."),
    ("31.2. 19:00", "Den 31.2. gibt es nicht."),
    ("12.13. 19:00", "Den 12.13. gibt es nicht."),
    ("Mo 8.12. 19:00", "Der 8.12. ist ein Dienstag, kein Montag."),
    ("morgen Di 19:00", "Der 6.12. ist ein Sonntag, kein Dienstag."),
    ("morgen 12.12. 19:00", "Zwei Tage angegeben"),
    ("Di Mi 19:00", "Zwei Wochentage angegeben."),
    ("Di 19:00 20:00", "Zwei Uhrzeiten angegeben."),
    ("heute 8 Uhr", "Sa 5.12. 08:00 ist schon vorbei. Meinst du abends?"),
    ("Sa 8:00", "/spielabend Sa 5.12. 20:00"),
    ("Sa 08:40", "Sa 5.12. 08:40 ist schon vorbei."),  # the very minute: gone
    ("heute 0:30", "/spielabend Sa 5.12. 12:30"),
    ("4.12. 19:00", "Fr 4.12. 19:00 ist schon vorbei."),  # yesterday, not next year
    ("5.12. 8:00", "ist schon vorbei"),
    ("1.7. 19:00", "ist schon vorbei"),
    ("1.12.2026 19:00", "ist schon vorbei."),
    ("10.6.2027 19:00", "Der 10.6.2027 ist mehr als 180 Tage hin."),
    ("28.3. 2:30", "in der Nacht der Zeitumstellung"),  # skipped when summer time starts
]


@pytest.mark.parametrize(("text", "says"), REFUSALS)
def test_a_start_that_cannot_be_is_refused_in_german(text: str, says: str) -> None:
    with pytest.raises(GameNightError) as refused:
        parse_start(text, NOW)
    assert says in str(refused.value)
    assert refused.value.fix  # every refusal names what to do instead
    assert isinstance(refused.value, RuleError)  # handlers show it unchanged


@pytest.mark.parametrize(("text", "says"), REFUSALS)
def test_the_command_a_refusal_names_works(text: str, says: str) -> None:
    """The fix is followed literally: the ``/spielabend …`` it names is accepted."""
    with pytest.raises(GameNightError) as refused:
        parse_start(text, NOW)
    for command in re.findall(r"/spielabend (.+?[0-9]{2}:[0-9]{2})", refused.value.fix):
        parse_start(command, NOW)


def test_a_past_start_on_a_weekday_is_offered_a_week_later() -> None:
    late = dt.datetime(2026, 12, 8, 21, tzinfo=BERLIN)  # Tuesday evening, after the game night
    with pytest.raises(GameNightError) as refused:
        parse_start("Di 19:00", late)
    assert refused.value.fix == "Für nächste Woche: /spielabend Di 15.12. 19:00"


def test_the_hour_shown_twice_when_summer_time_ends_is_refused() -> None:
    october = dt.datetime(2026, 10, 1, 12, tzinfo=BERLIN)
    with pytest.raises(GameNightError, match="Zeitumstellung"):
        parse_start("25.10. 2:30", october)
    assert parse_start("25.10. 3:00", october).at == dt.datetime(2026, 10, 25, 3, tzinfo=BERLIN)


NOWS = st.datetimes(
    min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2090, 1, 1), timezones=st.just(dt.UTC)
)


@given(now=NOWS, minutes=st.integers(1, MAX_DAYS_AHEAD * 24 * 60))
# the horizon's last minute, just after midnight in Berlin: a day more by the calendar
@example(now=dt.datetime(2000, 11, 1, 22, 0, tzinfo=dt.UTC), minutes=MAX_DAYS_AHEAD * 24 * 60)
def test_the_formatted_start_reads_back_to_the_same_moment(now: dt.datetime, minutes: int) -> None:
    wall = berlin_time(now + dt.timedelta(minutes=minutes)).replace(second=0, microsecond=0)
    start = berlin_moment(wall.date(), wall.time())
    assume(start is not None)  # the hour the clocks change is refused, tested above
    assert start is not None
    assume(now < start <= now + dt.timedelta(days=MAX_DAYS_AHEAD))
    assert parse_start(format_start(start), now).at == start


WORDS = st.sampled_from(
    ["Di", "Dienstag", "morgen", "heute", "abends", "um", "Uhr", "19", "19:30", "12.12.", "8.1",
     "25:00", "31.2.", "Fr.", "h", "19.30", "30", ",", "x", "2.2.2030", "0", "24"]
)  # fmt: skip


@given(now=NOWS, text=st.one_of(st.text(max_size=30), st.lists(WORDS, max_size=5).map(" ".join)))
def test_any_text_is_a_start_in_the_horizon_or_a_german_refusal(
    now: dt.datetime, text: str
) -> None:
    try:
        start = parse_start(text, now).at
    except GameNightError as refused:
        assert refused.problem and refused.fix
        return
    assert now < start <= now + dt.timedelta(days=MAX_DAYS_AHEAD)
    assert start.second == 0


@pytest.mark.parametrize(
    ("day", "clock", "expected"),
    [
        (dt.date(2026, 12, 8), dt.time(19), "2026-12-08T18:00:00+00:00"),
        (dt.date(2026, 7, 7), dt.time(19), "2026-07-07T17:00:00+00:00"),
        (dt.date(2026, 3, 29), dt.time(2, 30), None),  # skipped
        (dt.date(2026, 3, 29), dt.time(3), "2026-03-29T01:00:00+00:00"),
        (dt.date(2026, 10, 25), dt.time(2, 30), None),  # shown twice
        (dt.date(2026, 10, 25), dt.time(3), "2026-10-25T02:00:00+00:00"),
    ],
)
@pytest.mark.parametrize("tz_database", [True, False])
def test_berlin_moment_with_and_without_a_time_zone_database(
    day: dt.date,
    clock: dt.time,
    expected: str | None,
    tz_database: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not tz_database:

        def missing(key: str) -> zoneinfo.ZoneInfo:
            raise zoneinfo.ZoneInfoNotFoundError(key)

        monkeypatch.setattr(zoneinfo, "ZoneInfo", missing)
    moment = berlin_moment(day, clock)
    if expected is None:
        assert moment is None
    else:
        assert moment is not None
        assert moment.astimezone(dt.UTC).isoformat() == expected


# --------------------------------------------------------------------------- the seating


def people(n: int) -> list[str]:
    return [f"Spieler {i:03d}" for i in range(n)]


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (13, (4, 3, 3, 3)),
    ],
)
def test_yes_votes_sit_at_three_and_four_tables(n: int, sizes: tuple[int, ...]) -> None:
    seating = seat(people(n), "4711")
    assert seating.kind is SeatingKind.TABLES
    assert seating.plan.sizes == sizes
    assert seating.plan.waiting == ()
    assert seating.starts_lists


@pytest.mark.parametrize("n", [0, 1, 2])
def test_fewer_than_three_votes_make_no_table(n: int) -> None:
    seating = seat(people(n), "4711")
    assert seating.kind is SeatingKind.TOO_FEW
    assert seating.plan.tables == ()
    assert not seating.starts_lists
    assert "für einen Tisch braucht es 3" in seating.text
    assert "Warte auf weitere Zusagen" in seating.text


def test_five_votes_make_a_four_table_and_one_waiting_or_a_five_table() -> None:
    votes = ["Erika", "Bernd", "Anna", "Dora", "Carla"]
    seating = seat(votes, "4711")
    assert seating.kind is SeatingKind.FIVE
    assert seating.plan.sizes == (4,)
    assert seating.plan.waiting == ("Carla",)  # the last to vote waits
    assert seating.alternative is not None
    assert seating.alternative.sizes == (5,)
    assert sorted(seating.alternative.tables[0]) == sorted(votes)
    assert seating.starts_lists  # the 4-table's list
    assert "Carla wartet" in seating.text
    assert "der Geber und der dritte nach ihm aus" in seating.text


def test_more_tables_than_the_bot_starts_point_to_the_tournament_desk() -> None:
    assert seat(people(4 * MAX_TABLES), "4711").kind is SeatingKind.TABLES
    crowd = seat(people(4 * MAX_TABLES + 1), "4711")
    assert crowd.kind is SeatingKind.TOO_MANY
    assert not crowd.starts_lists
    assert "/turnier" in crowd.text
    assert sum(crowd.plan.sizes) == 4 * MAX_TABLES + 1


def test_the_answer_names_the_tables() -> None:
    assert seat(people(11), "4711").text == "11 Zusagen – 2 Vierertische und ein Dreiertisch."
    assert seat(people(3), "4711").text == "3 Zusagen – ein Dreiertisch."


@pytest.mark.parametrize(
    ("votes", "says"),
    [
        (["Anna", "Bernd", "anna"], "Zwei Zusagen heißen „anna“."),
        (["Anna", "Bernd", "Anna", "Dora"], "Zwei Zusagen heißen „Anna“."),
        (["Anna", " ", "Carla"], "Eine Zusage hat keinen Namen."),
    ],
)
def test_votes_that_are_no_seats_are_refused(votes: list[str], says: str) -> None:
    with pytest.raises(GameNightError, match=says):
        seat(votes, "4711")


SEEDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)


@given(votes=st.integers(0, 200).flatmap(lambda n: st.permutations(people(n))), seed=SEEDS)
def test_every_vote_is_seated_once_or_waits(votes: list[str], seed: str) -> None:
    seating = seat(votes, seed)
    seated = [name for table in seating.plan.tables for name in table]
    assert all(3 <= size <= 5 for size in seating.plan.sizes)
    assert len(seating.plan.waiting) <= 1
    assert seat(votes, seed) == seating  # deterministic for a seed and an order
    if len(votes) < 3:
        assert seating.kind is SeatingKind.TOO_FEW
        assert seated == [] and seating.plan.waiting == ()
        return
    assert sorted(seated + list(seating.plan.waiting)) == sorted(votes)
    if seating.alternative is not None:
        assert sorted(seating.alternative.tables[0]) == sorted(votes)
    if len(votes) != 5:
        # as the tournament draw seats its first series, whatever the vote order
        assert [list(t) for t in seating.plan.tables] == draw(votes, seed, 1)
        assert seat(sorted(votes), seed).plan == seating.plan
