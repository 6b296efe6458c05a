"""The house buttons before a Ramsch: "Alle gesund" and "NAME krank" (what /gesund and
/krank do, tapped). The Command goes through whole: its data names the list and the
question, and the booking is the sheet's (``book``)."""

from __future__ import annotations

import re

from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Answer, Command
from skatbot.usecases.house.house_rules import health_tap
from skatbot.usecases.sheet.builder.flow import UNKNOWN

DATA_HEALTH = re.compile(r"v1:(g|kr):([0-9]{1,10}):([0-9]{1,6})(?::([0-9]))?")


def _data(cmd: Command) -> str:
    return cmd.args[0] if cmd.args else ""


def gesund(session: Session, place: Place, cmd: Command) -> Answer:
    """ "Alle gesund" (``v1:g:<list id>:<rows>``)."""
    m = DATA_HEALTH.fullmatch(_data(cmd))
    if m is None or m.group(1) != "g":
        return Answer(notice=UNKNOWN)
    reply = health_tap(session, place, cmd, int(m.group(2)), int(m.group(3)), None)
    return Answer(notice="Eingetragen.", send=reply)


def krank(session: Session, place: Place, cmd: Command) -> Answer:
    """ "NAME krank" (``v1:kr:<list id>:<rows>:<seat>``)."""
    m = DATA_HEALTH.fullmatch(_data(cmd))
    if m is None or m.group(1) != "kr" or m.group(4) is None:
        return Answer(notice=UNKNOWN)
    reply = health_tap(session, place, cmd, int(m.group(2)), int(m.group(3)), int(m.group(4)))
    return Answer(notice="Eingetragen.", send=reply)
