"""What the whole group sees during a scripted evening, before and after ephemeral answers.

Plays one scripted evening of a 4-table (Anna, Bernd, Carla, Dieter; 36 games by default)
through the real bot as the tests drive it (``tests.helpers.running_bot``: the PTB
Application with all handlers, our polling loop and outbox, the strict Bot API stand-in on
loopback, a fresh SQLite database) twice: on a stand-in playing Bot API 10.1 (no ephemeral
messages: the server the bot met until now) and on one playing 10.3. The evening has the
usual share of everything a table does, played as a member would on each server: games
typed as text in the table's phrasings, every sixth game entered with the button builder
(opened by tapping "Neues Spiel" under the last booking, then its buttons: for the one
entering alone on 10.3, the public builder on 10.1), typos and an unknown command, refused
taps (a player tapping another's builder where they can see it, someone else's
"↩️ Rückgängig", the stale question of an ``/abschluss`` asked twice), help and the
calculator picked from the menu (``/hilfe``, ``/wert …``: an ephemeral command where the
server keeps the menu's ``is_ephemeral``, 10.2 on; an ordinary message on 10.1), a strike
and its undo, ``/stand`` now and then, and the closing with its PDF. A tap on an ephemeral
message to someone else cannot happen (nobody else sees it): it is listed apart, not played.

Counted is every Bot API call that puts a message into the group or changes one there
(``sendMessage``, ``sendRichMessage``, ``sendDocument``, ``sendPhoto``; ``editMessageText``,
``editEphemeralMessageText`` and the other edits counted apart), by who sees it:

* **public**: accepted, and the whole group sees it;
* **ephemeral**: accepted as a message only one member sees (the result names its
  ``receiver_user``), or an accepted ``editEphemeralMessage…`` (it changes such a message);
* **refused**: the server refused the call (an error answer), so nobody saw it.

and by kind, decided in this order:

1. **document**: ``sendDocument`` or ``sendPhoto`` (the PDF, the closing's picture);
2. **refusal**: the bot marked the message a refusal (``Outbox.refusals``, the mark the tests
   use), or a message the group does not see (ephemeral or refused) whose text starts with
   the bot's "⚠️" (the outbox marks only the refusals it posts to the group);
3. otherwise the kind of the script's step that caused it: **booking** (anything that changes
   the list: a game typed or the builder's "✅ Eintragen", a strike, its undo),
   **standings** (``/stand``), **builder step** ("Neues Spiel" and the builder's taps
   before "Eintragen"), **help/calculator** (``/hilfe``, ``/wert``), **announcement** (the
   table's own announcements: ``/neu`` and the closing), **other** (what the script sends
   that fits none: an unknown command, a typo the bot does not mark as a refusal).

A tap's passing notice (``answerCallbackQuery``) is not a message and is not counted with
them; the report gives their number apart. A refused tap on the public builder of another
member (10.1) is answered by that notice alone (no message); on 10.3 the builder is its
reader's, so the tap cannot happen. On 10.1 the first builder tapped open is the bot's first
ephemeral try, which the server posts to the group; from then on the bot tries no more, and a
later refused tap is the tap's dialog (a notice shown as an alert), not a message. A stranger's tap
on a signature button needs a tournament table and is not part of a 4-table's evening; it
takes the same path as someone else's "↩️ Rückgängig" (a refused tap's answer).

Deterministic: the script is fixed (no randomness), and the stand-in's flood control is off
(``group_limit=None``; the bot still paces its sends to the tests' ``GROUP_WINDOW``), because
with the tests' half-second window a 429 came or not with the machine's load, and a
refused-and-resent message would count twice. (With it on, the 10.1 run once met a 429: the
bot's pacer did not count its first ephemeral try, which a server before 10.2 posts to the
whole group; it counts now until the server has shown that it knows ephemeral messages.) What the server refuses
here is therefore refused for what it is, never for its timing: on 10.1 the builder's
"✅ Eintragen" shown ``disabled`` (10.3) is refused once, and the bot sends it again without
(its fallback, remembered for the bot).

Usage: PYTHONPATH=. python bench/group_view.py [GAMES]   (default 36)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the helpers

from skatbot.standin.records import ApiCall, BotMessage
from skatbot.standin.versions import API_10_1, API_10_3
from tests.helpers import Bot, fresh_database, running_bot

CHAT = -1001
ANNA, BERND, CARLA, DIETER = 1, 2, 3, 4
NAMES = {ANNA: "Anna", BERND: "Bernd", CARLA: "Carla", DIETER: "Dieter"}

SENDS = ("sendMessage", "sendRichMessage", "sendDocument", "sendPhoto")
EPHEMERAL_EDITS = (
    "editEphemeralMessageText",
    "editEphemeralMessageCaption",
    "editEphemeralMessageReplyMarkup",
)
EDITS = ("editMessageText", "editMessageCaption", "editMessageReplyMarkup", *EPHEMERAL_EDITS)
VISIBILITY = ("public", "ephemeral", "refused")
KINDS = (
    "booking",
    "standings",
    "document",
    "builder step",
    "refusal",
    "help/calculator",
    "announcement",
    "other",
)
MAY_STAY_PUBLIC = {"booking", "standings", "document", "announcement"}

# The table's phrasings for a typed game, in turn (every one a valid booking).
PHRASES = (
    "/spiel {p} karo mit 1 gewonnen",
    "/spiel {p} herz ohne 2 verloren",
    "/spiel {p} grand mit 1 gewonnen",
    "/spiel {p} pik mit 2 hand gewonnen",
    "/spiel {p} null gewonnen",
    "/spiel {p} kreuz ohne 1 gewonnen",
    "/spiel {p} grand ohne 1 hand gewonnen",
    "/spiel {p} herz mit 3 schneider gewonnen",
)
# The builder's taps for one game (the declarer's name is tapped first).
BUILDER_TAPS = ("♣ Kreuz", "mit 1", "gewonnen")


@dataclass(frozen=True)
class Step:
    """One thing a member does: a message, or a tap (``tap``: a label on the message the
    step's ``on`` names: "booking" (the group's newest message offering it), "builder",
    "strike", "old question", "question"). ``menu``: the command is picked from the bot's
    menu (its arguments typed after it), so it goes as an ephemeral command where the server
    keeps the menu's ``is_ephemeral``, else as an ordinary message."""

    kind: str
    user: int
    text: str = ""
    tap: str = ""
    on: str = ""
    menu: bool = False


def evening(games: int = 36) -> list[Step]:
    """The scripted evening: ``games`` games and everything around them."""
    steps = [Step("announcement", ANNA, "/neu Anna Bernd Carla Dieter")]
    for n in range(1, games + 1):
        player = NAMES[1 + n % 4]  # never the dealer, who sits out (game n: player n - 1)
        user = 1 + n % 4  # someone at the table enters it, not always the declarer
        if n % 6 == 3:  # the button builder, opened by "Neues Spiel" under the last booking
            steps.append(Step("builder step", user, tap="Neues Spiel", on="booking"))
            if n == 3:  # someone else taps the builder of another (if they see it): refused
                steps.append(Step("builder step", 1 + (user % 4), tap=player, on="builder"))
            steps.append(Step("builder step", user, tap=player, on="builder"))
            steps += [Step("builder step", user, tap=label, on="builder") for label in BUILDER_TAPS]
            steps.append(Step("booking", user, tap="✅ Eintragen", on="builder"))
            continue
        if n % 9 == 5:  # a typo first (an unknown name), then the game as meant
            steps.append(Step("other", user, PHRASES[n % 8].format(p=player[:-1] + "x")))
        if n == 8:
            steps.append(Step("other", user, "/spile Anna karo mit 1 gewonnen"))  # unknown command
        if n == 14:
            steps.append(Step("other", user, "/spiel Bernd karo gewonen"))  # a misspelt result
        steps.append(Step("booking", user, PHRASES[n % 8].format(p=player.lower())))
        if n == 4:  # a strike of the game just booked, a stranger's tap, the undo
            steps.append(Step("booking", ANNA, f"/storno {n}"))
            steps.append(Step("booking", BERND, tap="Rückgängig", on="strike"))
            steps.append(Step("booking", ANNA, tap="Rückgängig", on="strike"))
        if n in (2, 20):
            steps.append(Step("help/calculator", user, "/hilfe", menu=True))
        if n in (6, 30):
            steps.append(Step("help/calculator", user, "/wert grand hand ohne 2", menu=True))
        if n == 25:
            steps.append(Step("help/calculator", user, "/hilfe spiel", menu=True))
        if n % 12 == 0:
            steps.append(Step("standings", user, "/stand"))
    steps.append(Step("standings", DIETER, "/stand"))
    steps.append(Step("announcement", ANNA, "/abschluss"))
    steps.append(Step("announcement", ANNA, "/abschluss"))  # asked again: the first is stale
    steps.append(Step("announcement", CARLA, tap="", on="old question"))
    steps.append(Step("announcement", ANNA, tap="", on="question"))
    return steps


@dataclass
class Tally:
    """Counts by (kind, visibility), new messages and edits apart, and the steps' log."""

    sends: Counter[tuple[str, str]] = field(default_factory=Counter)
    edits: Counter[tuple[str, str]] = field(default_factory=Counter)
    unplayed: list[str] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)
    notices: int = 0
    flood_refusals: int = 0

    def public(self, kind: str) -> int:
        return self.sends[kind, "public"]

    def total(self, visibility: str) -> int:
        """New messages of every kind with that visibility."""
        return sum(self.sends[kind, visibility] for kind in KINDS)

    def edited(self, visibility: str) -> int:
        """Edits of every kind with that visibility."""
        return sum(self.edits[kind, visibility] for kind in KINDS)


def _callback_data(msg: BotMessage, label: str) -> str | None:
    """The data of the first button whose label contains ``label`` ("" is the first)."""
    for row in msg.buttons:
        for button in row:
            if label in str(button.get("text", "")) and "callback_data" in button:
                return str(button["callback_data"])
    return None


def _newest(bot: Bot, contains: str) -> BotMessage | None:
    """The newest group message whose text contains ``contains``."""
    for msg in reversed(bot.api.messages(CHAT)):
        if contains in (msg.text or ""):
            return msg
    return None


def _newest_offering(bot: Bot, label: str) -> BotMessage | None:
    """The newest group message with a button labelled ``label``."""
    for msg in reversed(bot.api.messages(CHAT)):
        if _callback_data(msg, label) is not None:
            return msg
    return None


def _builder_of(bot: Bot, user: int) -> BotMessage | None:
    """The builder the tap of ``user`` just opened: the newest sent of an ephemeral one to
    them (Bot API 10.3) and one in the group (the fallback: public)."""
    shown = [*bot.api.ephemeral_messages(CHAT, user), *bot.api.messages(CHAT)]
    builders = [m for m in shown if "Wer spielt?" in (m.text or "")]
    return max(builders, key=lambda m: m.seq, default=None)


def _declared_ephemeral(bot: Bot, text: str) -> bool:
    """Whether the server keeps the menu's ``is_ephemeral`` for the command of ``text``
    (one before 10.2 drops it: the member's app then sends an ordinary message)."""
    name = text.split(maxsplit=1)[0].lstrip("/")
    return any(
        c.get("command") == name and c.get("is_ephemeral") is True
        for commands in bot.api.commands.values()
        for c in commands
    )


class Player:
    """Plays the steps, keeping the messages that later taps land on."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.on: dict[str, BotMessage] = {}
        self.questions: list[BotMessage] = []

    def _target(self, name: str) -> BotMessage | None:
        api = self.bot.api
        if name == "booking":
            return _newest_offering(self.bot, "Neues Spiel")
        if name in ("builder", "strike"):
            kept = self.on.get(name)
            if kept is None:
                return None
            if kept.receiver is not None:  # an ephemeral builder, as its reader sees it now
                return api.ephemeral.message(CHAT, kept.receiver, kept.ephemeral_id or 0)
            return api.message(CHAT, kept.message_id)
        if name == "old question":
            return self.questions[0] if self.questions else None
        return self.questions[-1] if self.questions else None

    async def play(self, step: Step) -> str:
        """Play ``step``: "played"; "unplayed" when its button was not there; "unseen" when
        it is a tap on an ephemeral message to someone else (nobody else can see, let alone
        tap, it: the step does not happen)."""
        api = self.bot.api
        if step.text:
            name = NAMES[step.user]
            if step.menu and _declared_ephemeral(self.bot, step.text):
                update_id = api.push_ephemeral_command(
                    step.text, chat_id=CHAT, user_id=step.user, first_name=name
                )
            else:
                update_id = api.push_message(
                    step.text, chat_id=CHAT, user_id=step.user, first_name=name
                )
            await api.wait_confirmed(update_id, timeout=15)
            self._remember(step)
            return "played"
        msg = self._target(step.on)
        if msg is not None and msg.receiver not in (None, step.user):
            return "unseen"
        data = None if msg is None else _callback_data(msg, step.tap)
        if msg is None or data is None:
            return "unplayed"
        update_id = api.push_callback(
            data,
            message_id=msg.message_id,
            chat_id=CHAT,
            user_id=step.user,
            first_name=NAMES[step.user],
            ephemeral_message_id=msg.ephemeral_id if msg.receiver is not None else None,
        )
        await api.wait_confirmed(update_id, timeout=15)
        if step.on == "booking" and step.tap == "Neues Spiel":
            builder = _builder_of(self.bot, step.user)
            if builder is not None:
                self.on["builder"] = builder
        return "played"

    def _remember(self, step: Step) -> None:
        if step.text == "/spiel":
            builder = _newest(self.bot, "Wer spielt?")
            if builder is not None:
                self.on["builder"] = builder
        elif step.text.startswith("/storno"):
            strike = _newest(self.bot, "storniert")
            if strike is not None:
                self.on["strike"] = strike
        elif step.text == "/abschluss":
            question = _newest(self.bot, "abschließen?")
            if question is not None:
                self.questions.append(question)


def _text(call: ApiCall) -> str:
    rich = call.params.get("rich_message")
    if isinstance(rich, dict):
        return str(rich.get("html", ""))
    return str(call.params.get("text") or call.params.get("caption") or "")


def _visibility(call: ApiCall) -> str:
    if not call.ok:
        return "refused"
    if call.method in EPHEMERAL_EDITS:  # its result is True: the message is one reader's
        return "ephemeral"
    result = call.result if isinstance(call.result, dict) else {}
    return "ephemeral" if "receiver_user" in result else "public"


def classify(call: ApiCall, step_kind: str, refusals: set[tuple[int, int]]) -> str:
    """The kind of one send or edit (the order of the module doc)."""
    if call.method in ("sendDocument", "sendPhoto"):
        return "document"
    result = call.result if isinstance(call.result, dict) else {}
    if (CHAT, result.get("message_id")) in refusals:
        return "refusal"
    if _visibility(call) != "public" and _text(call).lstrip().startswith("⚠"):
        return "refusal"
    return step_kind


def count(
    calls: list[ApiCall], step_kind: str, refusals: set[tuple[int, int]], tally: Tally
) -> None:
    """Add the sends and edits into the group among ``calls`` to ``tally``."""
    for call in calls:
        if call.method == "answerCallbackQuery" and call.ok:
            tally.notices += 1
            continue
        if call.params.get("chat_id") != CHAT:
            continue
        if call.method in SENDS:
            into = tally.sends
        elif call.method in EDITS:
            into = tally.edits
        else:
            continue
        into[classify(call, step_kind, refusals), _visibility(call)] += 1


async def measure(bot: Bot, steps: list[Step]) -> Tally:
    """Play ``steps`` on ``bot`` and count what each put into the group."""
    tally = Tally()
    player = Player(bot)
    spans: list[tuple[int, int, str]] = []
    for step in steps:
        before = len(bot.api.calls)
        played = await player.play(step)
        if played == "unplayed":
            tally.unplayed.append(f"{step.on}: {step.tap or 'first button'}")
        elif played == "unseen":
            tally.unseen.append(f"{NAMES[step.user]} on the {step.on}: {step.tap}")
        await bot.delivered(CHAT)
        spans.append((before, len(bot.api.calls), step.kind))
    refusals = set(bot.refusals)  # the marks of every step, read once the evening is over
    for start, end, kind in spans:
        count(bot.api.calls[start:end], kind, refusals, tally)
    tally.flood_refusals = bot.api.flood_refusals
    return tally


async def run(
    api_version: tuple[int, int], games: int, folder: Path, *, admin: bool = False
) -> Tally:
    """One evening on a server of ``api_version``; with ``admin`` the group has made the bot
    an administrator first (its ``my_chat_member`` update), so it may answer a typist alone."""
    folder.mkdir()
    db = fresh_database(folder)
    try:
        # both servers know rich messages (10.1): the standings go out as a rich table
        # and flood control is off (the bot still paces itself to the tests' GROUP_WINDOW):
        # with the tests' half-second window a 429 comes or not with the machine's speed
        async with running_bot(
            db, api_version=api_version, rich_messages=True, group_limit=None
        ) as bot:
            if admin:
                promoted = bot.api.push_my_chat_member(CHAT, "administrator")
                await bot.api.wait_confirmed(promoted, timeout=15)
            return await measure(bot, evening(games))
    finally:
        db.dispose()


def still_public(after: Tally) -> list[str]:
    """Kinds other than bookings, standings, documents and announcements still public."""
    return [k for k in KINDS if k not in MAY_STAY_PUBLIC and after.public(k)]


def _row(
    name: str,
    before: Counter[tuple[str, str]],
    after: Counter[tuple[str, str]],
    kinds: Iterator[str] | tuple[str, ...],
) -> list[str]:
    lines = []
    for kind in kinds:
        b = [before[kind, v] for v in VISIBILITY]
        a = [after[kind, v] for v in VISIBILITY]
        if not any(b) and not any(a):
            continue
        lines.append(
            f"| {name}{kind} | {b[0]} / {b[1]} / {b[2]} | {a[0]} / {a[1]} / {a[2]} "
            f"| {a[0] - b[0]:+d} |"
        )
    return lines


def report(before: Tally, after: Tally, games: int) -> str:
    """The markdown table of both runs and the goal check."""
    lines = [
        f"Evening of a 4-table, {games} games: sends into the group, public / ephemeral / refused",
        "",
        "| kind | before: Bot API 10.1 | after: Bot API 10.3 | public, difference |",
        "|---|---|---|---|",
    ]
    lines += _row("", before.sends, after.sends, KINDS)
    b, a = ([t.total(v) for v in VISIBILITY] for t in (before, after))
    lines.append(
        f"| **all sends** | {b[0]} / {b[1]} / {b[2]} | {a[0]} / {a[1]} / {a[2]} | {a[0] - b[0]:+d} |"
    )
    lines += _row("edit: ", before.edits, after.edits, KINDS)
    b, a = ([t.edited(v) for v in VISIBILITY] for t in (before, after))
    lines.append(
        f"| **all edits** | {b[0]} / {b[1]} / {b[2]} | {a[0]} / {a[1]} / {a[2]} | {a[0] - b[0]:+d} |"
    )
    lines.append("")
    lines.append(
        f"tap notices (answerCallbackQuery, not messages): before {before.notices}, "
        f"after {after.notices}; flood refusals (429): before {before.flood_refusals}, "
        f"after {after.flood_refusals}"
    )
    for name, tally in (("before", before), ("after", after)):
        if tally.unplayed:
            lines.append(f"taps not played {name} (button not there): {', '.join(tally.unplayed)}")
        if tally.unseen:
            lines.append(
                f"taps that cannot happen {name} (an ephemeral message to someone else): "
                + ", ".join(tally.unseen)
            )
    rest = still_public(after)
    verdict = "met" if not rest else "not yet met"
    lines.append(
        "goal (only bookings, standings, documents and the table's announcements stay "
        f"public): {verdict}"
        + (
            ""
            if not rest
            else "; still public after: " + ", ".join(f"{k} {after.public(k)}" for k in rest)
        )
    )
    return "\n".join(lines)


async def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before = await run(API_10_1, games, Path(tmp) / "before")
        after = await run(API_10_3, games, Path(tmp) / "after")
        admin = await run(API_10_3, games, Path(tmp) / "admin", admin=True)
    print(report(before, after, games))
    print()
    print("The same evening on Bot API 10.3 with the bot an administrator of the group:")
    print()
    print(report(before, admin, games))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 36))
