"""The harness delivers through the product's outbox, not a copy of it."""

from __future__ import annotations

import pytest

from skatbot.usecases.common.reply import Edit, Reply
from tests.harness import Harness


async def test_a_reply_goes_out_through_the_outbox(chat: Harness) -> None:
    await chat.say("/neu Anna Bernd Carla")
    assert chat.outbox.busy() is False
    sent = [mid for (c, mid) in chat.messages if c == -1001]
    assert sent, "the list's reply was delivered by the outbox to the wire"
    # the outbox remembers what each message shows once it edited it: the same edit again is
    # not sent (Telegram would answer "message is not modified")
    message = chat.last()
    edit = Edit(message.message_id, "<b>neu</b>")
    await chat._deliver(Reply("", edits=(edit,)), -1001, 0)
    await chat._deliver(Reply("", edits=(edit,)), -1001, 0)
    assert chat.messages[(-1001, message.message_id)].edits == 1


async def test_without_rich_messages_a_table_goes_in_its_text_form(chat: Harness) -> None:
    chat.rich_messages = False
    await chat.say("/neu Anna Bernd Carla")
    await chat.say("/spiel Anna grand ohne 1 hand gewonnen")
    seen = await chat.say("/stand")
    assert [r.method for r in seen] == ["sendMessage"]
    assert chat.outbox.rich_refused.method_unknown  # learnt by the outbox from the wire
    chat.rich_messages = True
    seen = await chat.say("/stand")
    assert [r.method for r in seen] == ["sendRichMessage"]


async def test_an_error_the_outbox_logs_fails_the_test(chat: Harness) -> None:
    def broken(session: object, message_id: int) -> None:
        raise RuntimeError("on_sent broke")

    with pytest.raises(AssertionError, match="on_sent"):
        await chat._deliver(Reply("hallo", on_sent=broken), -1001, 0)
