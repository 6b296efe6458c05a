"""A name at a table is linked only with the table's consent: a non-player who says
``/ich Carla`` (or taps "Das bin ich" on Carla) in a table's chat does not become Carla. The
claim waits for a player of the table already linked, or the management; until then it signs
nothing, and the real Carla, once confirmed, signs for herself."""

from __future__ import annotations

import re

from tests.harness import Harness
from tests.usecases.tournament.test_table_lists import (
    SIGN_LABEL,
    WON,
    claim,
    data_of,
    messages,
    ok,
    refused,
    sign_message,
    tap,
)
from tests.usecases.tournament.test_table_rights import (
    DESK,
    EVIL,
    MANAGER,
    OUTSIDER,
    STRANGERS,
    TABLE_CHAT,
    USER,
    closed_table,
    draw,
)

MALLORY = OUTSIDER


async def test_claiming_a_name_does_not_sign_for_it(chat: Harness) -> None:
    players = await closed_table(chat)
    carla = players[2]
    first = data_of(sign_message(chat, TABLE_CHAT, None), SIGN_LABEL)
    # Mallory, no player of this table, claims Carla's name and taps "Unterschreiben"
    text = await ok(chat, f"/ich {carla}", TABLE_CHAT, user_id=MALLORY)
    assert "Stimmt das?" in text and "Du bist" not in text, text
    mallory_claim = chat.last(TABLE_CHAT, with_buttons=True)
    for data in (first, f"{first}:2"):
        notice = await tap(chat, sign_message(chat, TABLE_CHAT, None), data, MALLORY)
        assert "Unterschreiben kann nur, wer hier mit seinem Namen verknüpft ist" in notice
    # nor may he (or another stranger) confirm his own claim
    assert "jemand anderes" in await tap(chat, mallory_claim, "Ja, stimmt", MALLORY)
    assert "Bestätigen können nur" in await tap(chat, mallory_claim, "Ja, stimmt", STRANGERS[0])
    # "Das bin ich" on Carla's seat is a claim too, never a link
    opening = next(m for (c, _), m in chat.messages.items() if c == TABLE_CHAT and m.buttons)
    await chat.tap(opening, "Das bin ich", user_id=STRANGERS[1], name="Eve")  # the seats
    tapped = await chat.tap(opening, f"🙋 {carla}", user_id=STRANGERS[1], name="Eve")
    assert "bestätigt" in tapped.notice and "Stimmt das?" in tapped.text, tapped
    notice = await tap(chat, sign_message(chat, TABLE_CHAT, None), first, STRANGERS[1])
    assert "Unterschreiben kann nur" in notice, notice

    # the real Carla is not refused: her claim waits too, and a linked player confirms it
    await claim(chat, players[0], TABLE_CHAT, user_id=USER[players[0]])  # by the management
    text = await ok(chat, f"/ich {carla}", TABLE_CHAT, user_id=USER[carla])
    assert "schon mit" not in text and "Stimmt das?" in text, text
    carla_claim = chat.last(TABLE_CHAT, with_buttons=True)
    assert await tap(chat, carla_claim, "Ja, stimmt", USER[players[0]]) == "Bestätigt."
    notice = await tap(chat, sign_message(chat, TABLE_CHAT, None), first, USER[carla])
    assert notice == f"Danke, {carla} – unterschrieben.", notice
    # Mallory's claim is void now: confirming it later links nobody
    assert "erledigt" in await tap(chat, mallory_claim, "Ja, stimmt", MANAGER)
    assert "Du bist noch mit keinem Namen verknüpft" in await chat.text(
        "/ich", chat_id=TABLE_CHAT, user_id=MALLORY
    )


async def test_a_player_linked_at_the_desk_needs_no_confirmation(chat: Harness) -> None:
    players = await closed_table(chat)
    await ok(chat, f"/ich {players[1]}", DESK, user_id=USER[players[1]])
    text = await ok(chat, f"/ich {players[1]}", TABLE_CHAT, user_id=USER[players[1]])
    assert f"Du bist {players[1]}" in text, text
    # a claim may be turned down by a player of the table
    await ok(chat, f"/ich {players[0]}", TABLE_CHAT, user_id=MALLORY)
    pending = chat.last(TABLE_CHAT, with_buttons=True)
    assert await tap(chat, pending, "Nein", USER[players[1]]) == "Abgelehnt."


async def test_a_name_claimed_before_the_chat_became_a_table_signs_nothing(
    chat: Harness,
) -> None:
    codes, invites = await draw(chat)
    drawn = next(m.text for m in messages(chat, DESK) if "ausgelost" in m.text)
    table_one = dict(re.findall(r"Tisch (\d): (.+)", drawn))["1"].split(", ")
    carla = table_one[0]
    # in his own group, where /ich is free, Mallory makes himself "Carla" ...
    await ok(chat, "/neu " + " ".join(table_one), EVIL, user_id=MALLORY)
    await ok(chat, f"/ich {carla}", EVIL, user_id=MALLORY)
    await ok(chat, f"/spiel {carla} {WON}", EVIL, user_id=MALLORY)
    await ok(chat, "/abschluss", EVIL, user_id=MALLORY)  # asks: the series is not over
    await chat.tap(chat.last(EVIL, with_buttons=True), "Ja, abschließen", user_id=MALLORY)
    # ... which does not make him a player who may link table 1 with its code
    await refused(chat, f"/tisch {codes['1']}", EVIL, None, "verknüpfen nur", user_id=MALLORY)
    # with the desk's link button (whoever tapped it) the table plays there, but his old
    # link signs nothing
    await ok(chat, f"/start {invites['1']}", EVIL, user_id=MALLORY)
    for i in range(3):
        await ok(chat, f"/spiel {table_one[(i + 1) % 3]} {WON}", EVIL, user_id=MALLORY)
    await ok(chat, "/abschluss", EVIL, user_id=MALLORY)
    msg = sign_message(chat, EVIL, None)
    for data in (data_of(msg, SIGN_LABEL), f"{data_of(msg, SIGN_LABEL)}:0"):
        notice = await tap(chat, msg, data, MALLORY)
        assert "Unterschreiben kann nur, wer hier mit seinem Namen verknüpft ist" in notice
