r"""Terminal front end: chat with the bot through the in-process Bot API, no Telegram needed.

Every input line is sent as a group message (first to chat -1001 "Skatrunde"). Special lines:

* ``# ...``        a comment, ignored (``#`` and a space)
* ``!N``           press the N-th button (1-based, row by row) of the bot's latest message
                   with buttons in the current chat (those inside a rich message first,
                   then its inline keyboard)
* ``Name> text``   send ``text`` as another player (each name gets its own user id);
                   ``Name> !N`` presses a button as that player
* ``#chat [text]`` switch to the group chat ``chat`` (made on first use), and send ``text``
                   there: a tournament desk and its tables side by side; in a forum chat
                   that is its General topic
* ``#chat/TOPIC [text]`` the same in a forum topic of ``chat`` (the chat becomes a forum
                   supergroup): ``TOPIC`` is a topic's number (1 is General) or its full
                   name; a new name opens a topic of that name (one word)
* ``@Name text``   send ``text`` as ``Name`` in their private chat with the bot (a role's
                   code comes there); a link button ``t.me/<bot>?start=…`` tapped with
                   ``Name> !N`` opens that private chat with ``/start …``, as Telegram does
* ``~/wert …``     an ephemeral command (Bot API 10.2: only the bot receives it, the answer
                   only the sender sees): ``Name> ~/wert grand mit 1``, for a command the
                   bot declared ``is_ephemeral`` (/hilfe, /wert, /ich, /statistik)
* ``?N``           vote for option N of the latest poll in the current chat (``?1 3``: several
                   options, ``?`` alone takes the vote back); ``Name> ?N`` as that player
* ``text \``       a line ending in a backslash goes on in the next line (one message)
* ``!ende``        quit (as does the end of the input, Ctrl+D)

Messages are printed as plain text, rich messages (``/darstellung tabelle``) with their tables
as aligned columns, those to another chat or topic than the current one behind ``[#chat]``
or ``[#chat/topic]``; topics the bot opens, closes or deletes get a line each; inline
keyboards as ``  [Label] [Label]`` (a disabled button as ``[Label ⊘]``), documents and photos
(PNG pictures) are written to ``out_dir``. An ephemeral message (Bot API 10.2: only one
member sees it) is marked with its one reader, ``[nur Anna] …``, its edits ``✎ [nur Anna] …``;
``Anna> !N`` presses a button of the latest message Anna sees, her ephemeral ones included.
In a terminal the console shows a one-line hint and a prompt. Beside it the bot may serve
its web app (``beside``: the Mini App on 127.0.0.1, ``skatbot.web.offline``); what is booked
there is printed as the chat's messages are, without waiting for a typed line.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from skatbot.handlers.bot_state import SkatApplication
from skatbot.runner import run_polling
from skatbot.standin.botapi import (
    GENERAL_THREAD_ID,
    GENERAL_TOPIC,
    ApiCall,
    BotApi,
    BotMessage,
    html_to_text,
)
from skatbot.standin.rich import parse_rich

__all__ = ["run_console"]

CHAT_ID = -1001
CHAT_TITLE = "Skatrunde"
DEFAULT_USER = "Spieler"
HINT = (
    "Schreib wie im Chat (/hilfe) · Knopf drücken: !1 · als anderer Spieler: Bernd> /spiel … · "
    "nur für dich: Anna> ~/wert … · "
    "anderer Chat: #tisch1 … · Forumsthema: #verein/2 … · privat: @Anna /start · "
    "mehrzeilig: Zeile mit \\ enden · "
    "Ende: !ende oder Strg+D"
)
QUIT = {"!ende", "!quit", "!q"}
_CHAT_RE = re.compile(r"^#([^\s#/]{1,32})(/?)(.*)$", re.S)
_PRIVATE_RE = re.compile(r"^@([^\s@>]{1,32})\s*(.*)$", re.S)
# A deep link into the bot's private chat (a link button), its payload sent as /start PAYLOAD
_START_LINK_RE = re.compile(r"^https://t\.me/[\w]+\?start=([\w-]{1,64})$")
_GENERAL_NAMES = {"1", "allgemein", "general"}

_PRINTED_METHODS = {
    "sendmessage",
    "editmessagetext",
    "sendrichmessage",
    "editmessagereplymarkup",
    "editmessagecaption",
    "senddocument",
    "sendphoto",
    "answercallbackquery",
    "editephemeralmessagetext",
    "editephemeralmessagecaption",
    "editephemeralmessagereplymarkup",
    "sendpoll",
    "stoppoll",
}
_TOPIC_METHODS = {
    "createforumtopic": "🗂 Neues Thema",
    "closeforumtopic": "🔒 Thema geschlossen:",
    "reopenforumtopic": "🔓 Thema wieder offen:",
    "deleteforumtopic": "🗑 Thema gelöscht:",
}
# A player's name as people write it at the table: "Anna Maria", "Peter M.", "Hans-Jürgen";
# single spaces only, so a plain sentence with a ">" in it is rarely taken for a name.
_NAMED_USER_RE = re.compile(r"^([A-Za-zÄÖÜäöüß](?:[\wÄÖÜäöüß.'-]| (?=[^\s>])){0,31})>\s*(.*)$")


def _start_reader(stdin: TextIO, loop: asyncio.AbstractEventLoop) -> asyncio.Queue[str | None]:
    """Read lines in a daemon thread (works for pipes and TTYs); ``None`` marks EOF."""
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(item: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # loop already closed
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def reader() -> None:
        try:
            for line in iter(stdin.readline, ""):
                put(line)
        except (OSError, ValueError):
            pass
        put(None)

    threading.Thread(target=reader, name="standin-stdin", daemon=True).start()
    return queue


def _buttons(markup: Any) -> list[list[dict[str, Any]]]:
    if not isinstance(markup, dict):
        return []
    rows = markup.get("inline_keyboard")
    if not isinstance(rows, list):
        return []
    return [[b for b in row if isinstance(b, dict)] for row in rows if isinstance(row, list)]


def _label(button: dict[str, Any]) -> str:
    return (
        f"[{button.get('text', '')} ⊘]" if "disabled" in button else f"[{button.get('text', '')}]"
    )


def _keyboard_lines(markup: Any) -> list[str]:
    return ["  " + " ".join(_label(b) for b in row) for row in _buttons(markup) if row]


def _safe_filename(name: str) -> str:
    name = Path(name.replace("\\", "/")).name
    name = re.sub(r"[\x00-\x1f]", "_", name).strip(" .")
    return name or "dokument"


def _chat_id_of(key: str) -> int:
    """A chat's id from its name, not the order of first use: a later session on the same
    database finds the chat's lists again."""
    return -1_002_000_000_000 - zlib.crc32(key.encode())


class _Console:
    def __init__(self, api: BotApi, stdout: TextIO, out_dir: Path):
        self.api = api
        self.stdout = stdout
        self.out_dir = out_dir
        self.printed = 0  # index into api.calls: everything before it is printed
        self._shown: set[int] = set()  # printed calls at or after ``printed``
        self.user_ids: dict[str, int] = {DEFAULT_USER: 1}
        self.chat = CHAT_TITLE  # the current chat: its name as typed after "#"
        self.chat_ids: dict[str, int] = {CHAT_TITLE.casefold(): CHAT_ID}
        self.titles: dict[int, str] = {CHAT_ID: CHAT_TITLE}
        self.thread: int | None = None  # the current forum topic (None: General, or no forum)
        self.topic_names: dict[tuple[int, int], str] = {}  # also of topics deleted since

    @property
    def chat_id(self) -> int:
        return self.chat_ids[self.chat.casefold()]

    def switch(self, name: str) -> None:
        """Make ``name`` the current chat (a new group chat on first use), outside topics."""
        key = name.casefold()
        if key not in self.chat_ids:
            self.chat_ids[key] = _chat_id_of(key)
            self.titles[self.chat_ids[key]] = name
        self.chat = self.titles[self.chat_ids[key]]
        self.thread = None

    def new_chat_of(self, line: str) -> int | None:
        """The id of the chat ``line`` makes (``#name …`` for a name not used yet), else None."""
        chat = _CHAT_RE.match(line)
        if chat is None or chat.group(1).casefold() in self.chat_ids:
            return None
        return _chat_id_of(chat.group(1).casefold())

    def topic_name(self, chat_id: int, thread: int) -> str:
        name = self.api.topics.get(chat_id, {}).get(thread)
        if name is not None:
            self.topic_names[(chat_id, thread)] = name
        return self.topic_names.get((chat_id, thread), str(thread))

    def place(self, chat_id: int, thread: int | None) -> str:
        """``#chat`` or ``#chat/topic``: how the console names a chat or a topic of it;
        ``@Name`` a person's private chat with the bot."""
        if chat_id > 0 and chat_id in self.titles:
            return f"@{self.titles[chat_id]}"
        title = self.titles.get(chat_id, str(chat_id))
        return f"#{title}" if thread is None else f"#{title}/{self.topic_name(chat_id, thread)}"

    def enter_topic(self, spec: str) -> str | None:
        """Go to the topic ``spec`` starts with (a number, a topic's full name, or a new
        one-word name) of the current chat, which becomes a forum; returns the rest of
        ``spec`` (the message), or None if there is no such topic (said why)."""
        chat_id = self.chat_id
        if not self.api.is_forum(chat_id):
            self.api.make_forum(chat_id, title=self.chat)
        topics = self.api.topics.get(chat_id, {})
        word, _, rest = spec.partition(" ")
        if not word or word[0] in "/!":  # "#verein/ /stand": no topic named
            hint = f"👉 #{self.chat}/2 … oder #{self.chat}/Name … {self.topics_hint()}"
            self.write(f"⚠ Welches Thema? {hint}")
            return None
        if word.casefold() in _GENERAL_NAMES:
            self.thread = None
            return rest.strip()
        if word.isdigit():
            if int(word) not in topics:
                where = self.place(chat_id, None)
                self.write(f"⚠ {where} hat kein Thema {word}. {self.topics_hint()}")
                return None
            self.thread = int(word)
            return rest.strip()
        named = [
            (len(name), thread)
            for thread, name in topics.items()
            if spec.casefold().startswith(name.casefold())
            and spec[len(name) : len(name) + 1] in ("", " ", "\n")
        ]
        if named:
            length, self.thread = max(named)
            return spec[length:].strip()
        self.thread = self.api.new_topic(chat_id, word)
        self.write(f"🗂 Neues Thema {self.place(chat_id, self.thread)} (#{self.chat}/{self.thread})")
        return rest.strip()

    def topics_hint(self) -> str:
        topics = self.api.topics.get(self.chat_id, {})
        known = ", ".join(f"{thread} {name}" for thread, name in sorted(topics.items()))
        return f"Themen: 1 Allgemein{', ' + known if known else ''}"

    @property
    def prompt(self) -> str:
        return f"{self.place(self.chat_id, self.thread)}> "

    closed = False  # the reader of stdout went away (``skatbot console | head``)

    def prompt_now(self) -> None:
        """The prompt, in a terminal: no newline, the input follows on the same line."""
        if self.closed:
            return
        try:
            self.stdout.write(self.prompt)
            self.stdout.flush()
        except BrokenPipeError:
            self.closed = True

    def write(self, text: str = "") -> None:
        if self.closed:
            return
        try:
            self.stdout.write(text + "\n")
            self.stdout.flush()
        except BrokenPipeError:
            # End quietly: nobody reads any more. Point the descriptor at /dev/null so that
            # the interpreter's own flush at exit does not complain either.
            self.closed = True
            with contextlib.suppress(OSError, ValueError, AttributeError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self.stdout.fileno())

    def user_id(self, name: str) -> int:
        """The user who writes as ``name``: the same in every session on the same database
        (a number taken from the name, not the order of first use), so Bernd who said /ich
        yesterday is Bernd today."""
        if name not in self.user_ids:
            self.user_ids[name] = 1000 + zlib.crc32(name.casefold().encode()) % 1_000_000_000
        return self.user_ids[name]

    def last_keyboard_message(self, name: str = DEFAULT_USER) -> BotMessage | None:
        """The latest message with buttons that ``name`` sees here: the group's, or one of
        the ephemeral messages to them."""
        here = GENERAL_TOPIC if self.thread is None else self.thread
        own = [
            m
            for m in self.api.ephemeral_messages(self.chat_id, self.user_id(name))
            if (m.thread_id or 0) == here
        ]
        seen = sorted([*self.api.messages(self.chat_id, thread_id=here), *own], key=lambda m: m.seq)
        for msg in reversed(seen):
            if any(msg.all_buttons):  # inside a rich message too
                return msg
        return None

    def flush_calls(self) -> None:
        # Print the finished calls in order; a still running one that prints something stops
        # the output (it is printed next time). A long poll (getUpdates) that is still
        # waiting prints nothing, so the replies behind it are not held up.
        calls = self.api.calls
        contiguous = True
        for index in range(self.printed, len(calls)):
            call = calls[index]
            if call.status == 0:
                if call.method.lower() in _PRINTED_METHODS or call.method.lower() in _TOPIC_METHODS:
                    break
                contiguous = False
                continue
            if index not in self._shown:
                self._shown.add(index)
                self.print_call(call)
            if contiguous:
                self.printed = index + 1
        self._shown = {index for index in self._shown if index >= self.printed}

    def has_news(self) -> bool:
        """Whether ``flush_calls`` would print something now."""
        shown = _PRINTED_METHODS | _TOPIC_METHODS.keys()
        calls = self.api.calls
        for index in range(self.printed, len(calls)):
            call = calls[index]
            if call.method.lower() in shown:
                if call.status == 0:
                    return False  # printed once it is done, in order
                if index not in self._shown:
                    return True
        return False

    def print_call(self, call: ApiCall) -> None:
        method = call.method.lower()
        if method in _TOPIC_METHODS:
            if call.ok:  # a refusal is the bot's business: it falls back to /tisch CODE
                self.print_topic(call)
            return
        if method not in _PRINTED_METHODS:
            return
        chat = str(call.params.get("chat_id", ""))
        if chat and method != "answercallbackquery":
            known = chat.lstrip("-").isdigit() and int(chat) in self.titles
            thread = _thread_of(call)
            here = known and int(chat) == self.chat_id and thread == self.thread
            if not here:
                self.write(f"[{self.place(int(chat), thread)}]" if known else f"[#{chat}]")
        if not call.ok:
            self.write(f"⚠ {call.method} fehlgeschlagen: {call.error}")
            return
        if "ephemeral" in method:
            self.print_ephemeral_edit(call)
            return
        if method == "stoppoll":
            self.print_poll(call.result if isinstance(call.result, dict) else {}, closed=True)
            return
        if method == "answercallbackquery":
            text = call.params.get("text")
            if text:
                self.write(f"  ⓘ {text}")
            return
        result = call.result if isinstance(call.result, dict) else {}
        if method in ("senddocument", "sendphoto"):
            self.save_document(call, result)
            return
        if method == "sendpoll":
            self.print_poll(result.get("poll") or {}, closed=False)
            return
        if method == "editmessagereplymarkup":
            self.write("✎ (Knöpfe geändert)")
        else:
            text = result.get("text") if method != "editmessagecaption" else result.get("caption")
            if "rich_message" in result:  # a table: aligned columns
                text = parse_rich({"html": result["rich_message"]["html"]}).plain()
            prefix = "✎ " if method.startswith("edit") else ""
            self.write(prefix + _reader(result) + str(text or ""))
        for line in _keyboard_lines(result.get("reply_markup")):
            self.write(line)

    def print_poll(self, poll: dict[str, Any], *, closed: bool) -> None:
        """A poll the bot posted (its options numbered, to vote with ``?N``) or stopped (the
        votes per option)."""
        options = poll.get("options") or []
        if closed:
            counts = ", ".join(f"{o.get('text')} {o.get('voter_count', 0)}" for o in options)
            self.write(f"📊 Umfrage beendet: {poll.get('question', '')} – {counts}")
            return
        self.write(f"📊 {poll.get('question', '')}")
        for number, option in enumerate(options, 1):
            self.write(f"  ({number}) {option.get('text', '')}")
        self.write("  (abstimmen: ?1, ?2 …)")

    def vote(self, line: str, name: str) -> int | None:
        """``?N``: ``name`` votes for option N (``?1 3`` several, ``?`` takes it back) of the
        latest open poll in the current chat."""
        here = GENERAL_TOPIC if self.thread is None else self.thread
        polls = [
            self.api.polls[m.poll_id]
            for m in self.api.messages(self.chat_id, thread_id=here)
            if m.poll_id is not None
        ]
        if not polls:
            self.write("⚠ Hier gibt es keine Umfrage.")
            return None
        poll = polls[-1]
        words = line[1:].replace(",", " ").split()
        if not all(w.isdigit() for w in words):
            self.write("⚠ Antwort-Nummer erwartet, z. B. ?1")
            return None
        chosen = [int(w) - 1 for w in words]
        try:
            update_id = self.api.push_poll_answer(
                poll.poll_id, chosen, user_id=self.user_id(name), first_name=name
            )
        except RuntimeError as exc:
            self.write(f"⚠ Geht nicht: {exc}")
            return None
        who = "" if name == DEFAULT_USER else f"{name} "
        picked = ", ".join(poll.options[i] for i in chosen) or "zurückgenommen"
        self.write(f"({who}stimmt ab: {picked})")
        return update_id

    def print_ephemeral_edit(self, call: ApiCall) -> None:
        """An edit of an ephemeral message (the Bot API answers only True): what the bot
        sent, marked with its reader."""
        params = call.params
        receiver = params.get("receiver_user_id")
        reader = f"[nur {self.api.user_name(receiver)}] " if isinstance(receiver, int) else ""
        method = call.method.lower()
        if method == "editephemeralmessagereplymarkup":
            self.write(f"✎ {reader}(Knöpfe geändert)")
        else:
            key = "caption" if method == "editephemeralmessagecaption" else "text"
            raw = params.get(key)
            text = html_to_text(str(raw or "")) if params.get("parse_mode") else str(raw or "")
            if params.get("rich_message") is not None and key == "text":
                with contextlib.suppress(ValueError):
                    text = parse_rich(params["rich_message"]).plain()
            self.write(f"✎ {reader}{text}")
        for line in _keyboard_lines(params.get("reply_markup")):
            self.write(line)

    def print_topic(self, call: ApiCall) -> None:
        """A topic the bot opened, closed, reopened or deleted, with how to write there."""
        method = call.method.lower()
        chat_id = int(call.params.get("chat_id", 0))
        if method == "createforumtopic":
            thread = int(call.result["message_thread_id"])
        else:
            thread = int(call.params.get("message_thread_id", 0))
        where = self.place(chat_id, thread)
        title = self.titles.get(chat_id, str(chat_id))
        if method == "createforumtopic":
            self.write(f"{_TOPIC_METHODS[method]} {where} (#{title}/{thread})")
        else:
            self.write(f"{_TOPIC_METHODS[method]} {where}")

    def save_document(self, call: ApiCall, result: dict[str, Any]) -> None:
        """Write a sent document or photo to ``out_dir`` and say where."""
        part = "photo" if "photo" in result else "document"
        doc = result.get("document") or {}
        upload = None
        ref = call.params.get(part)
        if isinstance(ref, str) and ref.startswith("attach://"):
            upload = call.files.get(ref[len("attach://") :])
        upload = upload or call.files.get(part)
        filename = _safe_filename(str(doc.get("file_name") or (upload[0] if upload else "")))
        content = upload[1] if upload else b""
        # The documents carry names and scores: a new folder is its owner's alone.
        self.out_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = self.out_dir / filename
        path.write_bytes(content)
        mark = "🖼" if part == "photo" else "📄"
        self.write(f"{mark} {filename} gespeichert: {path}")
        if result.get("receiver_user"):
            self.write(f"  {_reader(result).strip()}")
        if result.get("caption"):
            self.write(f"  {result['caption']}")
        for line in _keyboard_lines(result.get("reply_markup")):
            self.write(line)

    def push_private(self, name: str, text: str) -> int | None:
        """``text`` from ``name`` in their private chat with the bot (the current chat stays)."""
        if not text:
            self.write(f"⚠ Was soll {name} privat schreiben? 👉 @{name} /start")
            return None
        user_id = self.user_id(name)
        self.titles[user_id] = name
        return self.api.push_message(
            text,
            chat_id=user_id,
            user_id=user_id,
            first_name=name,
            chat_type="private",
            chat_title=name,
        )

    def push_line(self, line: str) -> int | None:
        """Push one input line as an update; returns its update_id (None if nothing sent)."""
        private = _PRIVATE_RE.match(line)
        if private is not None:
            return self.push_private(private.group(1), private.group(2).strip())
        chat = _CHAT_RE.match(line)
        if chat is not None:
            before = self.chat, self.thread
            self.switch(chat.group(1))
            line = chat.group(3).strip()
            if chat.group(2):
                entered = self.enter_topic(line)
                if entered is None:  # no such topic: stay where we were
                    self.chat, self.thread = before
                    return None
                line = entered
            if not line:
                here = "im Chat" if self.thread is None else "im Thema"
                self.write(f"(jetzt {here} {self.place(self.chat_id, self.thread)})")
                return None
        if self.thread is not None and self.thread not in self.api.topics.get(self.chat_id, {}):
            gone = self.place(self.chat_id, self.thread)
            self.write(
                f"⚠ Das Thema {gone} gibt es nicht mehr. 👉 #{self.chat} … schreibt ins Allgemeine."
            )
            return None
        name = DEFAULT_USER
        match = _NAMED_USER_RE.match(line)
        if match and match.group(2):
            name, line = match.group(1), match.group(2)
        if line.startswith("!"):
            return self.tap(line, name)
        if line.startswith("?") and (len(line) == 1 or line[1].isdigit()):
            return self.vote(line, name)
        if line.startswith("~/"):
            return self.ask_alone(line[1:], name)
        return self.api.push_message(
            line,
            chat_id=self.chat_id,
            user_id=self.user_id(name),
            first_name=name,
            chat_title=self.chat,
            chat_type="supergroup" if self.api.is_forum(self.chat_id) else "group",
            thread_id=self.thread,
        )

    def ask_alone(self, text: str, name: str) -> int | None:
        """``~/wert …``: ``text`` as an ephemeral command of ``name`` (Bot API 10.2): only the
        bot receives it, and it may answer ``name`` alone. As in Telegram only for a command
        the bot declared ``is_ephemeral``, in a group, outside forum topics here."""
        if self.thread is not None:
            self.write("⚠ „Nur für mich“ (~/…) geht hier nur im Chat, nicht in einem Thema.")
            return None
        try:
            return self.api.push_ephemeral_command(
                text,
                chat_id=self.chat_id,
                user_id=self.user_id(name),
                first_name=name,
                chat_type="supergroup" if self.api.is_forum(self.chat_id) else "group",
                chat_title=self.chat,
            )
        except RuntimeError:
            declared = sorted(
                {
                    f"/{c['command']}"
                    for commands in self.api.commands.values()
                    for c in commands
                    if c.get("is_ephemeral") is True
                }
            )
            command = text.split(maxsplit=1)[0] if text.strip() else "/"
            self.write(
                f"⚠ {command} gibt es nicht „nur für mich“. "
                + (f"👉 So geht es: {', '.join(f'~{c}' for c in declared)}" if declared else "")
            )
            return None

    def tap(self, line: str, name: str) -> int | None:
        """``!N``: press button N of the latest keyboard in the current chat as ``name``."""
        if line.startswith("!"):
            try:
                number = int(line[1:].strip())
            except ValueError:
                self.write("⚠ Knopf-Nummer erwartet, z. B. !1")
                return None
            found = self.last_keyboard_message(name)
            if found is None:
                self.write("⚠ Keine Nachricht mit Knöpfen vorhanden.")
                return None
            buttons = [b for row in found.all_buttons for b in row]
            if not 1 <= number <= len(buttons):
                self.write(f"⚠ Es gibt nur {len(buttons)} Knöpfe.")
                return None
            button = buttons[number - 1]
            if "disabled" in button:  # Telegram sends nothing for a disabled button
                self.write(f"⚠ Knopf [{button.get('text', '')}] ist gesperrt und tut nichts.")
                return None
            data = button.get("callback_data")
            link = _START_LINK_RE.match(str(button.get("url", "")))
            if data is None and link is not None:  # Telegram opens the bot's private chat
                self.write(f"({name} drückt [{button.get('text', '')}]: privater Chat @{name})")
                return self.push_private(name, f"/start {link.group(1)}")
            if data is None:
                self.write(f"⚠ Knopf [{button.get('text', '')}] löst nichts im Chat aus.")
                return None
            who = "" if name == DEFAULT_USER else f"{name} "
            self.write(f"({who}drückt [{button.get('text', '')}])")
            return self.api.push_callback(
                str(data),
                message_id=found.message_id,
                chat_id=self.chat_id,
                user_id=self.user_id(name),
                first_name=name,
                ephemeral_message_id=found.ephemeral_id,
            )
        return None


def _reader(result: dict[str, Any]) -> str:
    """``[nur Anna] `` for an ephemeral message (only Anna sees it), else nothing."""
    receiver = result.get("receiver_user")
    if not isinstance(receiver, dict):
        return ""
    return f"[nur {receiver.get('first_name') or receiver.get('id')}] "


def _thread_of(call: ApiCall) -> int | None:
    """The forum topic of a sent or edited message (None: outside topics, or General)."""
    result = call.result if isinstance(call.result, dict) else {}
    if result.get("is_topic_message") and result.get("message_thread_id"):
        return int(result["message_thread_id"])
    raw = call.params.get("message_thread_id")
    if raw and str(raw).isdigit() and int(raw) != GENERAL_THREAD_ID:
        return int(raw)  # a failed send into a topic
    return None


async def run_console(
    build_app: Callable[[BotApi], SkatApplication],
    *,
    stdin: TextIO,
    stdout: TextIO,
    out_dir: Path,
    wait_timeout: float = 60.0,
    beside: Callable[[SkatApplication], contextlib.AbstractAsyncContextManager[object]]
    | None = None,
) -> int:
    """Run the bot against the in-process Bot API and chat with it through
    ``stdin``/``stdout``.

    ``build_app(api)`` must return a ``telegram.ext.Application`` with ``.updater(None)``
    that calls the console's ``BotApi`` in process (``build_application(api.token, db,
    bot_api=api)``, or ``.token(api.token)`` with ``.request`` and ``.get_updates_request``
    each an ``InProcessRequest(api)``): no socket, no server. Returns 0 at EOF, 1 if the bot
    stopped on its own.

    ``beside(app)`` runs alongside while the bot runs (the web app on 127.0.0.1): what the
    bot sends on its own account then (a booking from the browser) is printed as it comes,
    not only after the next typed line. An ``OSError`` entering it (a port taken) is said in
    one line and the console goes on without it.
    """
    out_dir = Path(out_dir)
    # Update ids go on from the clock, not from 1: a bot remembers processed update ids in
    # its database (exactly-once), and a later console session on the same database must
    # not look like a redelivery of the earlier one's updates (Telegram never reuses ids).
    # No flood control: the console is one human typing; pacing is the bot's job and is
    # tested against the strict stand-in of the test suite, not here.
    api = BotApi(first_update_id=time.time_ns() // 1_000_000)
    # whoever sits at the terminal owns its chats (an admin: /loeschen, /oeffnen work);
    # "Name> …" writes as a plain member, to try what members may do
    api.chat_owner = 1
    app = build_app(api)
    db = app.bot_data.database
    from skatbot.usecases.common.display import default_display

    async def text_first(chat_id: int) -> None:
        """Every chat of the console shows text first, as the README does (its tables
        as aligned columns after /darstellung tabelle)."""
        if db is not None:
            await db.write(lambda session: default_display(session, chat_id, "text"))

    await text_first(CHAT_ID)
    if db is not None:
        # the chats of earlier sessions on this database exist again (a table's report
        # to the desk of yesterday's session is delivered, not "chat not found")
        from skatbot.storage.chats import known_chat_ids

        for known in await db.read(known_chat_ids):
            if known != CHAT_ID:
                api.add_chat(known, title=f"Chat {known}")
        # and so do their forum topics with lists, by number (their names are not kept)
        from skatbot.storage.topic_places import topics_with_lists

        for forum, thread in await db.read(topics_with_lists):
            if not api.is_forum(forum):
                api.make_forum(forum, title=f"Chat {forum}")
            api.new_topic(forum, f"Thema {thread}", thread_id=thread)
    stop = asyncio.Event()
    poller = asyncio.create_task(run_polling(app, stop=stop, timeout=10), name="standin-poll")
    # Started, its command menu registered, before the first line: an ephemeral command
    # (``~/wert …``) exists only for the commands the menu declares so, as in Telegram.
    for _ in range(3000):
        if app.running or poller.done():
            break
        await asyncio.sleep(0.01)
    console = _Console(api, stdout, out_dir)
    queue = _start_reader(stdin, asyncio.get_running_loop())
    echo = not _isatty(stdin)
    if not echo:
        console.write(HINT)
    code = 0
    pending: list[str] = []  # the lines of a message that goes on ("… \\")
    extras = contextlib.AsyncExitStack()
    busy = asyncio.Lock()  # held while a typed line is processed and printed
    if beside is not None:
        # The page may be opened before anything is typed: the chat exists from the start
        api.add_chat(CHAT_ID, title=CHAT_TITLE)
        try:
            await extras.enter_async_context(beside(app))
        except OSError as err:
            console.write(
                f"⚠ Die Web-Seite startet nicht ({err.strerror or err}); die Konsole läuft ohne sie."
            )
        else:
            extras.push_async_callback(
                _cancel,
                asyncio.create_task(_print_unasked(console, busy, echo), name="standin-print"),
            )
    try:
        while True:
            if not echo and not pending:
                console.prompt_now()
            line_task = asyncio.ensure_future(queue.get())
            await asyncio.wait({line_task, poller}, return_when=asyncio.FIRST_COMPLETED)
            if not line_task.done():
                line_task.cancel()
                console.write("⚠ Der Bot wurde beendet.")
                code = 1
                break
            raw = line_task.result()
            if raw is None or console.closed:
                break
            line = raw.strip()
            console.flush_calls()  # output of background jobs since the last line
            if line.endswith("\\"):
                pending.append(line[:-1].rstrip())
                continue
            if pending:
                line = "\n".join([*pending, line]).strip()
                pending = []
            if not line or line == "#" or line.startswith("# "):
                continue
            if line.casefold() in QUIT:
                break
            if echo:
                console.write("> " + line.replace("\n", "\n  "))
            async with busy:
                api.close_due_polls()  # a poll whose time is up closes (its update goes first)
                new_chat = console.new_chat_of(line)
                if new_chat is not None:
                    await text_first(new_chat)
                update_id = console.push_line(line)
                if update_id is None:
                    continue
                waiter = asyncio.ensure_future(_answered(app, api, update_id, wait_timeout))
                await asyncio.wait({waiter, poller}, return_when=asyncio.FIRST_COMPLETED)
                if not waiter.done():
                    waiter.cancel()
                    console.flush_calls()
                    console.write("⚠ Der Bot wurde beendet.")
                    code = 1
                    break
                if waiter.exception() is not None:
                    console.write("⚠ Keine Antwort vom Bot (Zeitüberschreitung).")
                console.flush_calls()
    finally:
        await extras.aclose()
        stop.set()
        try:
            await asyncio.wait_for(poller, 15)
        except Exception as exc:
            console.write(f"⚠ Fehler beim Beenden: {exc!r}")
            code = code or 1
        console.flush_calls()
    return 0 if console.closed else code


async def _print_unasked(console: _Console, busy: asyncio.Lock, echo: bool) -> None:
    """Print what the bot sends while nobody types (a booking from the web page), between
    the typed lines; in a terminal on its own lines, the prompt shown again after it."""
    while True:
        await asyncio.sleep(0.2)
        if busy.locked() or console.closed:
            continue
        if not console.has_news():
            continue
        async with busy:
            if not echo:
                console.write()
            console.flush_calls()
            if not echo:
                console.prompt_now()


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _answered(app: SkatApplication, api: BotApi, update_id: int, timeout: float) -> None:
    """The update is committed (confirmed) and its replies have left the outbox (every
    chat's: a table's report goes to the desk)."""
    await api.wait_confirmed(update_id, timeout)
    await app.bot_data.outbox.wait_idle(None, timeout)


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
