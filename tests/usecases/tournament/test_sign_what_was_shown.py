"""A signature confirms the list its message showed: after the table's list was opened,
changed and closed again, a tap on the earlier signing message signs nothing and says why;
the new message's button signs."""

from __future__ import annotations

import re

from tests.harness import Harness
from tests.usecases.tournament.test_table_lists import (
    ELSEWHERE,
    MANAGER,
    PLAIN,
    SEVEN,
    SIGN_LABEL,
    USER,
    claim,
    data_of,
    ok,
    opening_players,
    play_at,
    sign_message,
    tap,
)


async def test_an_earlier_signing_message_signs_nothing_after_a_change(chat: Harness) -> None:
    await ok(chat, "/turnier Vereinsmeisterschaft", PLAIN)
    await ok(chat, "/teilnehmer " + ", ".join(SEVEN), PLAIN)
    await ok(chat, "/serienlaenge 3 4", PLAIN)
    draw = await ok(chat, "/auslosen 99", PLAIN)
    codes = dict(re.findall(r"Tisch (\d) → /tisch (\w+)", draw))
    await ok(chat, f"/tisch {codes['1']}", ELSEWHERE)
    one = opening_players(chat, ELSEWHERE)
    await play_at(chat, ELSEWHERE, one)
    earlier = sign_message(chat, ELSEWHERE, None)
    for i, name in enumerate(one):
        await claim(chat, name, ELSEWHERE, by=USER[one[i - 1]] if i else MANAGER)

    # the management opens the list, corrects a game and closes it again
    await ok(chat, "/oeffnen", ELSEWHERE, user_id=MANAGER)
    await ok(chat, f"/korrigieren 1 {one[1]} null gewonnen", ELSEWHERE, user_id=MANAGER)
    await ok(chat, "/abschluss ja", ELSEWHERE, user_id=MANAGER)
    now = sign_message(chat, ELSEWHERE, None)
    assert now.message_id != earlier.message_id

    notice = await tap(chat, earlier, data_of(earlier, SIGN_LABEL), USER[one[0]])
    assert "wie sie vorher war" in notice and "Nichts wurde unterschrieben" in notice, notice
    assert f"✅ {one[0]}" not in sign_message(chat, ELSEWHERE, None).text
    notice = await tap(chat, now, data_of(now, SIGN_LABEL), USER[one[0]])
    assert notice == f"Danke, {one[0]} – unterschrieben.", notice
