"""The Mini App's JSON API (docs/miniapp-api.md).

Every request: initData checked (``handlers.app_auth``; 401), the start token read (400),
the user a member of its chat (getChatMember, remembered briefly; 403). Reads run in a read
transaction; a booking runs the ``/spiel`` route's own use case in one write transaction
with the chat locked, once per key, and its answer goes to the chat through the outbox like
any ``/spiel`` answer.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import html
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.exc import DBAPIError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from telegram import ChatMember
from telegram.error import TelegramError

from skatbot.handlers import app_auth, runtime
from skatbot.handlers.outbox import handoff
from skatbot.handlers.outbox.target import Target
from skatbot.handlers.routes import ROUTES
from skatbot.rules.errors import RuleError
from skatbot.storage import topic_places
from skatbot.storage.unit import Session
from skatbot.usecases.common.place_kinds import PLAYING, place_of
from skatbot.usecases.common.reply import Asker, Command, Reply, error_text
from skatbot.usecases.sheet import app_view
from skatbot.web.context import WebContext

log = logging.getLogger(__name__)

MAX_BODY = 4096
MEMBER_SECONDS = 60.0  # how long a getChatMember answer is trusted
KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_IN = frozenset({ChatMember.OWNER, ChatMember.ADMINISTRATOR, ChatMember.MEMBER})
_ADMINS = frozenset({ChatMember.OWNER, ChatMember.ADMINISTRATOR})


class ApiError(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


@dataclasses.dataclass(frozen=True)
class Caller:
    """A checked request: who, which chat/topic/list, their standing there."""

    login: app_auth.WebAppLogin
    start: app_auth.Start
    status: str
    title: str

    @property
    def is_admin(self) -> bool:
        return self.status in _ADMINS


def fail(status: int, text: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": text}, status_code=status)


def refusal(err: RuleError) -> str:
    """A rule's refusal as plain German text with its fix (the chat's HTML taken off)."""
    return plain(error_text(err))


def plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", str(text))).strip()


class Members:
    """getChatMember answers (and the chat's title), kept ``MEMBER_SECONDS``."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, int], tuple[float, str, str]] = {}

    async def status(self, web: WebContext, chat_id: int, user_id: int) -> tuple[str, str]:
        now = time.monotonic()
        hit = self._known.get((chat_id, user_id))
        if hit is not None and now - hit[0] < MEMBER_SECONDS:
            return hit[1], hit[2]
        bot = web.app.bot
        try:
            member = await bot.get_chat_member(chat_id, user_id)
            status = str(member.status)
            if status == ChatMember.RESTRICTED and getattr(member, "is_member", False):
                status = ChatMember.MEMBER
            chat = await bot.get_chat(chat_id)
            title = chat.title or chat.full_name or ""
        except TelegramError as err:
            log.info("getChatMember(%s, %s): %s", chat_id, user_id, err)
            status, title = ChatMember.LEFT, ""
        if len(self._known) > 10_000:
            self._known.clear()
        self._known[(chat_id, user_id)] = (now, status, title)
        return status, title


def routes(web: WebContext) -> list[BaseRoute]:
    members = Members()
    token = web.app.bot.token
    key = app_auth.start_key(token)

    async def caller(request: Request) -> Caller:
        header = request.headers.get("authorization", "")
        scheme, _, init_data = header.partition(" ")
        if scheme.lower() != "tma" or not init_data:
            raise ApiError(401, "Bitte die Mini App aus Telegram öffnen.")
        try:
            login = app_auth.check_init_data(init_data.strip(), token, dt.datetime.now(dt.UTC))
        except app_auth.LoginError as err:
            raise ApiError(401, str(err)) from None
        text = login.start_param or request.query_params.get("start", "")
        if not text:
            raise ApiError(400, "Welche Liste? Bitte die Mini App über /app im Chat öffnen.")
        try:
            start = app_auth.read_start(text, key)
        except app_auth.StartError as err:
            raise ApiError(400, f"{err} Bitte /app im Chat neu senden.") from None
        if start.chat_id > 0:  # a private chat: its one user
            ok = start.chat_id == login.user_id
            status, title = (ChatMember.OWNER if ok else ChatMember.LEFT), login.name
        else:
            status, title = await members.status(web, start.chat_id, login.user_id)
        if status not in _IN:
            raise ApiError(403, "Diese Liste sehen nur die Mitglieder ihres Chats.")
        return Caller(login, start, status, title)

    async def place(c: Caller) -> int:
        if not c.start.topic_id:
            return c.start.chat_id
        db = web.app.bot_data.database
        assert db is not None
        return await db.write(lambda s: topic_places.place_id(s, c.start.chat_id, c.start.topic_id))

    def command(c: Caller, place_id: int, words: list[str], update_id: int = 0) -> Command:
        return Command(
            place_id=place_id,
            chat_title=c.title,
            user_id=c.login.user_id,
            user_name=c.login.name,
            update_id=update_id,
            args=tuple(words),
            text=" ".join(["/spiel", *words]),
            is_admin=c.is_admin,
            thread_id=c.start.topic_id,
            telegram_chat_id=c.start.chat_id,
            is_forum=bool(c.start.topic_id),
            bot_username=web.app.bot.username,
        )

    def handle(
        fn: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                return await fn(request)
            except ApiError as err:
                return fail(err.status, err.text)
            except app_view.NoList as err:
                return fail(404, refusal(err))
            except app_view.OtherPlace as err:
                return fail(403, refusal(err))
            except RuleError as err:
                return fail(400, refusal(err))
            except DBAPIError:
                log.exception("database unavailable for the Mini App")
                return fail(
                    503, "Die Datenbank ist gerade nicht erreichbar. Bitte gleich noch einmal."
                )

        return run

    async def body(request: Request) -> dict[str, Any]:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            raise ApiError(413, "Zu viele Daten auf einmal.")
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise ApiError(413, "Zu viele Daten auf einmal.")
        try:
            got = json.loads(data or b"null")
        except ValueError:
            got = None
        if not isinstance(got, dict):
            raise ApiError(400, 'Erwartet: {"text": "Anna grand hand"}.')
        return got

    def words_of(got: dict[str, Any]) -> list[str]:
        text = got.get("text")
        if not isinstance(text, str) or not text.split():
            raise ApiError(400, "Wer hat gespielt und was? Z. B.: Anna grand ohne 1 hand gewonnen")
        return list(runtime.words_of("/spiel " + text))

    def may_write(session: Session, c: Caller, place_id: int, loaded: Any) -> bool:
        if loaded.lst.status != "open":
            return False
        here = place_of(session, command(c, place_id, []))
        if here.kind not in PLAYING:
            return False
        target = spiel_route().targets[0]
        try:
            target.right_for(None).check(session, here, None)
        except RuleError:
            return False
        return True

    async def read(fn: Callable[[Session], Any], *, offload: bool = False) -> Any:
        db = web.app.bot_data.database
        assert db is not None
        return await db.read(fn, offload=offload)

    def listing(session: Session, c: Caller, place_id: int) -> dict[str, Any]:
        loaded = app_view.list_of(session, place_id, c.start.list_id)
        return {
            "ok": True,
            "chat": {"id": c.start.chat_id, "title": c.title, "topic_id": c.start.topic_id},
            "user": {"id": c.login.user_id, "name": c.login.name},
            "may_write": may_write(session, c, place_id, loaded),
            "list": app_view.paper_list(session, loaded),
        }

    @handle
    async def get_list(request: Request) -> Response:
        c = await caller(request)
        place_id = await place(c)
        return JSONResponse(await read(lambda s: listing(s, c, place_id)))

    @handle
    async def post_preview(request: Request) -> Response:
        c = await caller(request)
        words = words_of(await body(request))
        place_id = await place(c)

        def unit(session: Session) -> dict[str, Any]:
            loaded = app_view.list_of(session, place_id, c.start.list_id)
            try:
                return {"ok": True, **app_view.preview(loaded, words)}
            except RuleError as err:
                return {"ok": False, "error": refusal(err)}

        return JSONResponse(await read(unit))

    @handle
    async def post_book(request: Request) -> Response:
        c = await caller(request)
        got = await body(request)
        words = words_of(got)
        key_text = got.get("key")
        if not isinstance(key_text, str) or not KEY.match(key_text):
            raise ApiError(400, "Die Anfrage hat keinen gültigen Schlüssel. Bitte neu laden.")
        place_id = await place(c)
        cmd = command(c, place_id, words, booking_id(c, key_text))
        return await book(c, cmd)

    async def book(c: Caller, cmd: Command) -> Response:
        state = web.app.bot_data
        db = state.database
        assert db is not None
        route = spiel_route()
        use_case = route.use_case
        target = Target(c.start.chat_id, c.start.topic_id or None)
        heading = f"📱 {html.escape(c.login.name or 'Jemand')} über die Mini App"
        asker = Asker(c.login.user_id, heading=heading)

        def unit(session: Session) -> tuple[Reply | None, list[Any]]:
            done = runtime.effect(session, use_case, cmd)
            if done is None:
                return None, []  # this key was booked before
            reply, _ = done
            if reply.refusal:
                raise _Refused(reply)  # rolled back: nothing written
            rows = runtime.stage(session, target, cmd.update_id, runtime.answered(reply, asker))
            return reply, rows

        try:
            reply, rows = await db.write(unit)
        except _Refused as err:
            return fail(400, plain(err.reply.text))
        if reply is not None:
            state.metrics.booked()  # a game booked from the app counts as one from the chat
        if rows:
            state.fairness.changed(target.chat_id)
            handoff.enqueue_stored(web.app.bot, state, rows)
        answer = await read(lambda s: listing(s, c, cmd.place_id))
        lst = answer["list"]
        return JSONResponse(
            {
                "ok": True,
                "booked": reply is not None,
                "nr": lst["rows"][-1]["nr"] if lst["rows"] else None,
                "message": plain(reply.text) if reply is not None else "",
                "list": lst,
            }
        )

    @handle
    async def get_chart(request: Request) -> Response:
        c = await caller(request)
        place_id = await place(c)

        def unit(session: Session) -> bytes:
            return app_view.chart_png(session, app_view.list_of(session, place_id, c.start.list_id))

        png = await read(unit, offload=True)
        return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})

    def spiel_route() -> Any:
        table = web.app.bot_data.routes or ROUTES
        return next(r for r in table if r.name == "spiel" and r.targets)

    return [
        Route("/api/app/list", get_list, methods=["GET"]),
        Route("/api/app/preview", post_preview, methods=["POST"]),
        Route("/api/app/book", post_book, methods=["POST"]),
        Route("/api/app/chart.png", get_chart, methods=["GET"]),
    ]


class _Refused(Exception):
    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.text)
        self.reply = reply


def booking_id(c: Caller, key: str) -> int:
    """The update id a booking's key stands for: negative (Telegram's are positive), the
    same for the same user, chat and key, so a repeated request books nothing more."""
    raw = f"{c.start.chat_id}:{c.start.topic_id}:{c.login.user_id}:{key}".encode()
    return -(int.from_bytes(hashlib.sha256(raw).digest()[:7], "big") + 1)
