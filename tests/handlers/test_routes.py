"""The route table (handlers/routes.py): one list drives handlers, flags, menu."""

from __future__ import annotations

import asyncio
import re

from sqlalchemy.orm import Session
from telegram.ext import CallbackQueryHandler, CommandHandler

from skatbot.app import build_application
from skatbot.handlers.routes import HIDDEN, ROUTES, Kind, button, command, menu
from skatbot.runner import run_polling
from skatbot.storage.database import Database
from skatbot.usecases.common import keyboards
from skatbot.usecases.common.reply import Answer, Command, Reply
from tests.helpers import Bot
from tests.standin.fake_telegram import FakeBotApi, html_to_text

# The only commands kept out of the menu on purpose.
HIDDEN_COMMANDS = {"start", "help"}


def registered_commands(bot: Bot) -> list[str]:
    return [
        name
        for group in sorted(bot.app.handlers)
        for h in bot.app.handlers[group]
        if isinstance(h, CommandHandler)
        for name in sorted(h.commands)
    ]


def menus_sent(bot: Bot) -> list[list[tuple[str, str]]]:
    return [
        [(c["command"], c["description"]) for c in call.params["commands"]]
        for call in bot.api.sent("setMyCommands")
    ]


async def test_every_registered_command_is_in_the_menu_or_explicitly_hidden(bot: Bot) -> None:
    """The drift defect: /entfernen and /serienlaenge answered but were missing from the menu."""
    await bot.say("/hilfe")  # the menu is sent at start, before the first update
    sent = menus_sent(bot)
    assert len(sent) == 2  # group chats and private chats
    for commands in sent:
        in_menu = {name for name, _ in commands}
        missing = set(registered_commands(bot)) - in_menu - HIDDEN_COMMANDS
        assert not missing, f"registered but not in the menu: {sorted(missing)}"
        assert in_menu <= set(registered_commands(bot)), "a menu entry nobody answers"
        assert not in_menu & HIDDEN_COMMANDS
    assert {"entfernen", "serienlaenge", "oeffnen", "abend", "anheften", "loeschen"} <= in_menu


async def test_the_menu_is_what_set_my_commands_receives(bot: Bot) -> None:
    await bot.say("/hilfe")
    assert menus_sent(bot) == [menu(), menu()]
    names = [name for name, _ in menu()]
    assert names[:3] == ["spiel", "eingepasst", "neu"]
    assert len(names) == len(set(names)) <= 100  # Telegram's limit


def test_a_command_route_names_its_menu_text_or_hidden() -> None:
    commands = [r for r in ROUTES if r.kind is Kind.COMMAND]
    hidden = {r.name for r in commands if r.menu is HIDDEN}
    assert hidden == HIDDEN_COMMANDS
    for r in commands:
        assert r.menu is HIDDEN or 1 <= len(r.menu) <= 256, r.name
        assert re.fullmatch(r"[a-z0-9_]{1,32}", r.name)
    # the menu text is not optional: a command line without it does not build
    try:
        command("x", lambda s, c: Reply("x"), write=True)  # type: ignore[call-arg]
    except TypeError:
        pass
    else:
        raise AssertionError("a command without menu text (or HIDDEN) was accepted")


async def test_hilfe_names_every_command_of_the_menu(bot: Bot) -> None:
    pages = [
        await bot.text(f"/hilfe {topic}") for topic in ("", "spiel", "haus", "turnier", "liga")
    ]
    text = "\n".join(pages)
    missing = [name for name, _ in menu() if not re.search(rf"/{name}\b", text)]
    assert not missing, f"in the menu but not in /hilfe: {missing}"


async def test_handler_order_commands_first_spiel_at_the_top(bot: Bot) -> None:
    group0 = bot.app.handlers[0]
    assert isinstance(group0[0], CommandHandler) and group0[0].commands == {"spiel"}
    assert isinstance(group0[1], CommandHandler) and group0[1].commands == {"eingepasst"}
    first_other = next(i for i, h in enumerate(group0) if not isinstance(h, CommandHandler))
    assert all(not isinstance(h, CommandHandler) for h in group0[first_other:])
    # group -1: commands for another bot are dropped before an edit is looked at
    assert [r.name for r in ROUTES if r.group == -1] == ["for another bot", "edited"]
    assert len(bot.app.handlers[-1]) == 2
    # buttons: /loeschen's first, then /abschluss's, the catch-all last
    buttons = [h for h in group0 if isinstance(h, CallbackQueryHandler)]
    assert [h.pattern.pattern for h in buttons][:2] == [r"^v1:del:", r"^v1:(close|keep):"]
    assert buttons[-1].pattern.pattern == r"^"


def first_button_route(data: str) -> str:
    route = next(r for r in ROUTES if r.kind is Kind.CALLBACK and re.match(r.pattern or "", data))
    return route.name


def test_every_button_the_bot_makes_has_its_own_route() -> None:
    data = {
        "v1:del:0123456789abcdef": "delete",
        "v1:del:p:0123456789abcdef": "delete",
        "v1:del:l17:0123456789abcdef": "delete",
        "v1:del:t3:0123456789abcdef": "delete",
        "v1:close:7:0123456789abcdef": "close",
        "v1:keep:7:0123456789abcdef": "close",
        "v1:b:12:p:0": "builder",
        "v1:b:12:ok": "builder",
        keyboards.NEW_GAME: "new game",
        keyboards.STAND: "stand",
        "v1:g:3:10": "gesund",
        "v1:kr:3:10:1": "krank",
        "v1:zz:1": "unknown",
        "anything": "unknown",
    }
    # one route per button under a booking (korrigieren, storno: ask, yes, no)
    by_prefix = {"v1:k:": "korrigieren", "v1:s:": "storno", "v1:sj:": "storno ja"}
    by_prefix["v1:sn:"] = "storno nein"
    made = [d for row in keyboards.booking_buttons(5) for _, d in row]
    made += [d for row in keyboards.confirm_cancel_buttons(3, 5, "0" * 16) for _, d in row]
    for d in made:
        prefix = next((p for p in by_prefix if d.startswith(p)), None)
        data.setdefault(d, by_prefix[prefix] if prefix else "?")
    assert {":".join(d.split(":")[:2]) + ":" for d in made if d.count(":") >= 2} == set(by_prefix)
    for d, expected in data.items():
        assert first_button_route(d) == expected, d


async def test_adding_a_command_is_one_function_and_one_route_line(db: Database) -> None:
    # the function ...
    def ping(session: Session, cmd: Command) -> Reply:
        return Reply(f"pong {' '.join(cmd.args)}")

    # ... and the route line
    routes = [*ROUTES, command("ping", ping, "Antwortet mit pong")]

    async with FakeBotApi() as api:
        app = build_application(api.token, db, base_url=f"{api.url}/bot", routes=routes)
        stop = asyncio.Event()
        task = asyncio.create_task(run_polling(app, stop=stop, timeout=2))
        try:
            update_id = api.push_message("/ping Anna", chat_id=-1001)
            await api.wait_confirmed(update_id, timeout=15)
            await app.bot_data.outbox.wait_idle(None, 15)
            texts = [html_to_text(str(c.params["text"])) for c in api.sent("sendMessage", -1001)]
            assert texts == ["pong Anna"]
            for call in api.sent("setMyCommands"):
                assert call.params["commands"][-1] == {
                    "command": "ping",
                    "description": "Antwortet mit pong",
                }
            assert len(api.sent("setMyCommands")) == 2
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)


async def test_adding_a_button_is_one_function_and_one_route_line(db: Database) -> None:
    # the function ...
    def pong(session: Session, cmd: Command) -> Answer:
        return Answer(notice="pong", text=f"gedrückt: {cmd.args[0]}", buttons=())

    # ... and the route line (before the catch-all "unknown", which matches everything)
    line = button("pong", r"^v1:pong$", pong)

    # (a command that offers the button, only to have a message that carries it)
    def offer(session: Session, cmd: Command) -> Reply:
        return Reply("Knopf?", buttons=((("Pong", "v1:pong"),),))

    catch_all = next(i for i, r in enumerate(ROUTES) if r.name == "unknown")
    routes = [*ROUTES[:catch_all], line, *ROUTES[catch_all:], command("offer", offer, HIDDEN)]
    async with FakeBotApi() as api:
        app = build_application(api.token, db, base_url=f"{api.url}/bot", routes=routes)
        stop = asyncio.Event()
        task = asyncio.create_task(run_polling(app, stop=stop, timeout=2))
        try:
            await api.wait_confirmed(api.push_message("/offer", chat_id=-1001), timeout=15)
            await app.bot_data.outbox.wait_idle(None, 15)
            (msg,) = api.messages(-1001)
            tap = api.push_callback("v1:pong", message_id=msg.message_id, chat_id=-1001)
            await api.wait_confirmed(tap, timeout=15)
            await app.bot_data.outbox.wait_idle(None, 15)
            assert [c.params.get("text") for c in api.sent("answerCallbackQuery")] == ["pong"]
            assert html_to_text(api.messages(-1001)[0].text) == "gedrückt: v1:pong"
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)


def test_a_command_cannot_be_routed_twice() -> None:
    from telegram.ext import Application

    from skatbot.handlers.bot_state import CONTEXT_TYPES
    from skatbot.handlers.registry import register
    from skatbot.usecases.place import help as help_ops

    app = Application.builder().token("1:test").context_types(CONTEXT_TYPES).updater(None).build()
    try:
        register(app, [*ROUTES, command("hilfe", help_ops.hilfe, "noch einmal")])
    except ValueError as err:
        assert "hilfe" in str(err)
    else:
        raise AssertionError("a second /hilfe route was accepted")


def test_every_lazy_route_names_a_use_case_that_exists() -> None:
    """A lazy route imports its module at the first call: a misspelt target would only show
    when someone types the command. Resolve them all here."""
    import importlib
    import inspect

    from skatbot.handlers.routes import Lazy
    from skatbot.usecases.common.rights import Right, _resolve
    from skatbot.usecases.common.serving import resolve

    declared = [r for r in ROUTES if r.targets]
    named = [r for r in ROUTES if isinstance(r.run, Lazy)]
    assert len(named) + len(declared) >= 60  # every use case
    for route in declared:  # the parser, the use case and each right's checks
        for target in route.targets:
            for path in (target.run, target.parse):
                if path is not None:
                    assert callable(resolve(path)), f"{route.name}: {path}"
            for right in target.rights:
                assert isinstance(right, Right)
                for check in right.checks.values():
                    assert callable(_resolve(check)), f"{route.name}: {check}"
        assert callable(route.use_case)
    for route in named:
        assert isinstance(route.run, Lazy)
        module, _, name = route.run.path.partition(":")
        target = getattr(importlib.import_module(module), name, None)
        assert callable(target), f"{route.name}: {route.run.path}"
        assert not inspect.iscoroutinefunction(target)  # run by the runtime, not by PTB
        assert route.use_case is target  # the route runs the function itself, unwrapped
    glued = [r for r in ROUTES if hasattr(r.run, "lazy_target")]
    assert len(glued) >= 5  # the PTB callbacks but admin's
    for route in glued:
        module, _, name = route.run.lazy_target.partition(":")  # type: ignore[union-attr]
        target = getattr(importlib.import_module(module), name, None)
        assert callable(target), f"{route.name}: {route.run.lazy_target}"  # type: ignore[union-attr]
        # a PTB callback stays one (run by PTB)
        assert inspect.iscoroutinefunction(target) and inspect.iscoroutinefunction(route.run)


def test_a_start_does_not_import_the_features_it_does_not_need() -> None:
    """What `skatbot run` imports before it polls (the app with every route registered):
    the feature modules, PDF, pictures, rating and Alembic wait for their first use."""
    import subprocess
    import sys

    script = (
        "import sys, skatbot.cli, skatbot.app\n"
        "from skatbot.app import build_application\n"
        "from skatbot.handlers.registry import register\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert "skatbot.handlers.routes" in loaded  # the script did load the routes
    for module in (
        "skatbot.usecases.sheet.list_changes",
        "skatbot.usecases.sheet.spiel",
        "skatbot.usecases.sheet.booking",
        "skatbot.usecases.sheet.builder.flow",
        "skatbot.handlers.builder",
        "skatbot.usecases.money.stakes",
        "skatbot.usecases.season.season_table",
        "skatbot.usecases.season.statistics",
        "skatbot.usecases.tournament.desk",
        "skatbot.usecases.place.documents",
        "skatbot.pdf.base",
        "skatbot.charts",
        "fpdf",
        "PIL",
        "openskill",
        "alembic",
    ):
        assert module not in loaded, module


# The reads whose answer is always a document (PDF, JSON, picture): fairness gates them.
DOCUMENT_READS = {"vordruck", "pdf", "urkunden", "kasse", "export"}


def test_every_route_that_always_answers_with_a_document_is_flagged() -> None:
    assert {r.name for r in ROUTES if r.document} == DOCUMENT_READS
    for route in ROUTES:
        if route.document:  # a document's read runs in a worker thread and writes nothing
            assert route.heavy and not route.write, route.name


def test_fairness_keeps_no_list_of_commands_of_its_own() -> None:
    import ast
    import inspect as inspect_module

    from skatbot.handlers import fairness

    tree = ast.parse(inspect_module.getsource(fairness))
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    # (the words that ask any heavy read for a document, "/abend pdf", are no command list)
    commands = {r.name for r in ROUTES if r.kind is Kind.COMMAND}
    named = sorted((literals - fairness.DOCUMENT_WORDS) & commands)
    assert named == [], f"fairness.py names commands; flag their routes document=True: {named}"


async def test_a_route_flagged_document_is_shared_fairly(db: Database) -> None:
    from skatbot.handlers.fairness import Fairness

    def leaflet(session: Session, cmd: Command) -> Reply:
        return Reply("Blatt")

    routes = [*ROUTES, command("blatt", leaflet, HIDDEN, heavy=True, document=True)]
    async with FakeBotApi() as api:
        app = build_application(api.token, db, base_url=f"{api.url}/bot", routes=routes)
        app.bot_data.fairness = Fairness()
        stop = asyncio.Event()
        task = asyncio.create_task(run_polling(app, stop=stop, timeout=2))
        try:
            for _ in range(2):
                await api.wait_confirmed(api.push_message("/blatt", chat_id=-1001), timeout=15)
                await app.bot_data.outbox.wait_idle(None, 15)
            texts = [html_to_text(str(c.params["text"])) for c in api.sent("sendMessage", -1001)]
            assert texts[0] == "Blatt"
            assert "kommt schon" in texts[1]
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)
