"""A reply as an outbox row (``storage.outbox``) and back.

``store`` runs inside the transaction of the update's effect: the reply becomes one row for
its place, and each of its posts (``Reply.posts``, messages to other places) a row of its own
(kind "post"), in the order they are to go out. Documents are stored as their bytes. A
rich message (``usecases.common.rich.RichText``) is stored as its text form: a reply resumed after
a restart goes out as text, which Telegram always takes.

What runs after sending (``on_sent``, an edit's ``on_gone``/``render``, a topic's
``on_created``/``on_refused``) is stored when it is a ``Call``: a function by its stable key
(``usecases.common.continuations``), with JSON arguments. A plain closure cannot be stored:
the live delivery still runs it, but a restart before the reply is out delivers the reply
without it (an edit that only a closure could render is left out; logged). A stored key this
version does not know is left out the same way.

A reply for the asker alone keeps its reader and the tap (or ephemeral command) that allows
an ephemeral answer; resumed after a restart, it goes ephemerally if that is still fresh
enough, else publicly (``outbox.ephemeral``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass
from typing import Any

from skatbot.storage import outbox
from skatbot.storage.unit import Session
from skatbot.usecases.common import continuations
from skatbot.usecases.common.reply import (
    ROLES,
    Asker,
    Button,
    Buttons,
    Call,
    CloseTopic,
    Document,
    Edit,
    NewTopic,
    Photo,
    Poll,
    Post,
    Reply,
)

log = logging.getLogger(__name__)

REPLY = "reply"
POST = "post"  # a message to another place; pinned after sending if the payload says so


@dataclass(frozen=True)
class Link:
    """The user's message that booked something, answered by a row's reply: once the reply
    is sent, its id is recorded for that message (``storage.message_links``), so that an
    edit of the user's message can edit the answer too. ``place`` is the command's place,
    ``update_id`` the booking's update."""

    place: int
    message_id: int
    update_id: int


@dataclass(frozen=True)
class Stored:
    """A row just stored, with what the live delivery sends for it (closures included)."""

    row_id: int
    chat_id: int
    thread_id: int | None
    reply: Reply
    pin: bool = False
    update_id: int | None = None
    link: Link | None = None


def store(
    session: Session,
    chat_id: int,
    thread_id: int | None,
    update_id: int | None,
    reply: Reply,
    link: Link | None = None,
) -> list[Stored]:
    """Rows for ``reply`` to ``chat_id``/``thread_id`` and for its posts (recursively);
    ``link`` belongs to the reply's own row."""
    out: list[Stored] = []
    _store(session, out, chat_id, thread_id, update_id, reply, REPLY, pin=False, link=link)
    return out


def _store(
    session: Session,
    out: list[Stored],
    chat_id: int,
    thread_id: int | None,
    update_id: int | None,
    reply: Reply,
    kind: str,
    *,
    pin: bool,
    link: Link | None = None,
) -> None:
    own = _without_posts(reply)
    if _has_content(own) or pin:
        payload, blob = encode(own, pin=pin, link=link)
        row_id = outbox.add(
            session,
            chat_id=chat_id,
            thread_id=thread_id,
            update_id=update_id,
            kind=kind,
            payload=payload,
            blob=blob,
        )
        out.append(Stored(row_id, chat_id, thread_id or None, own, pin, update_id, link))
    for post in reply.posts:
        _store(
            session,
            out,
            post.chat_id,
            post.thread_id or None,
            update_id,
            post.reply,
            POST,
            pin=post.pin,
        )


def _without_posts(reply: Reply) -> Reply:
    if not reply.posts:
        return reply
    from dataclasses import replace

    return replace(reply, posts=())


def _has_content(reply: Reply) -> bool:
    parts = (reply.text, reply.documents, reply.edits, reply.topics, reply.gone_topics)
    return any(parts) or reply.poll is not None or bool(reply.stop_poll)


# --- JSON --------------------------------------------------------------------------------------


def _call(fn: object) -> list[Any] | None:
    if fn is None:
        return None
    if isinstance(fn, Call):
        return [fn.key, list(fn.args)]
    log.debug("a closure cannot be stored in the outbox: %r", fn)
    return None


def _uncall(data: Any) -> Call | None:
    if not data:
        return None
    key = str(data[0])
    if not continuations.known(key):
        # stored by a version that had this key: the reply goes out without it, as one
        # stored with a closure does
        log.warning("outbox: continuation %r is unknown; left out", key)
        return None
    return Call(key, tuple(data[1]))


def _button(button: tuple[str, str]) -> list[Any]:
    """[label, data], with a third item for a ``Button``'s role and state."""
    label, data = button
    if isinstance(button, Button) and (button.role or button.disabled):
        return [label, data, {"role": button.role, "disabled": button.disabled}]
    return [label, data]


def _unbutton(stored: Any) -> tuple[str, str]:
    label, data, *more = stored
    extra = more[0] if more and isinstance(more[0], dict) else {}
    role, disabled = str(extra.get("role", "")), str(extra.get("disabled", ""))
    if role not in ROLES:
        role = ""  # stored by a version that knew another role: shown plainly
    if role or disabled:
        return Button(str(label), str(data), role=role, disabled=disabled)
    return (str(label), str(data))


def _asker(data: Any) -> Asker | None:
    if not data:
        return None
    # [user, tap, since] or, for an ephemeral command, [user, "", since, its id, heading]
    command = int(data[3]) if len(data) > 3 else 0
    heading = str(data[4]) if len(data) > 4 else ""
    return Asker(int(data[0]), str(data[1]), float(data[2]), command, heading)


def _buttons(rows: Buttons | None) -> list[Any]:
    return [[_button(b) for b in row] for row in rows or ()]


def _unbuttons(rows: Any) -> Buttons:
    return tuple(tuple(_unbutton(b) for b in row) for row in rows or ())


def encode(
    reply: Reply, *, pin: bool = False, link: Link | None = None
) -> tuple[str, bytes | None]:
    """The reply as (JSON text, documents' bytes)."""
    docs = []
    blob = bytearray()
    for doc in reply.documents:
        docs.append(
            {
                "filename": doc.filename,
                "caption": doc.caption,
                "photo": isinstance(doc, Photo),
                "size": len(doc.data),
            }
        )
        blob += doc.data
    edits = []
    for edit in reply.edits:
        if edit.render is not None and not isinstance(edit.render, Call):
            log.debug("an edit rendered by a closure is not stored: message %s", edit.message_id)
            continue
        edits.append(
            {
                "message_id": edit.message_id,
                "text": edit.text,
                "buttons": _buttons(edit.buttons),
                "on_gone": _call(edit.on_gone),
                "render": _call(edit.render),
                "every": edit.every,
                **({"receiver": edit.receiver} if edit.receiver else {}),  # ephemeral: whose
            }
        )
    topics = [
        {
            "chat_id": topic.chat_id,
            "name": topic.name,
            "on_created": _call(topic.on_created),
            "on_refused": _call(topic.on_refused),
        }
        for topic in reply.topics
        if isinstance(topic.on_created, Call)
    ]
    payload: dict[str, Any] = {"text": reply.text}
    if reply.buttons:
        payload["buttons"] = _buttons(reply.buttons)
    if docs:
        payload["documents"] = docs
    if edits:
        payload["edits"] = edits
    if topics:
        payload["topics"] = topics
    if reply.gone_topics:
        payload["gone_topics"] = [[gone.chat_id, gone.thread_id] for gone in reply.gone_topics]
    if reply.on_sent is not None:
        payload["on_sent"] = _call(reply.on_sent)
    if reply.poll is not None:
        poll = reply.poll
        payload["poll"] = [poll.question, list(poll.options), _call(poll.on_sent)]
    if reply.stop_poll:
        payload["stop_poll"] = reply.stop_poll
    if reply.refusal:
        payload["refusal"] = True
    if reply.for_asker:  # its reader and the tap, so a restart still knows whom it is for
        asker = reply.asker
        reader: list[Any] = []
        if asker is not None:
            reader = [asker.user_id, asker.callback_query_id, asker.since]
            if asker.ephemeral_message_id:  # the ephemeral command it answers
                reader += [asker.ephemeral_message_id, asker.heading]
        payload["for_asker"] = reader
    if pin:
        payload["pin"] = True
    if link is not None:
        payload["link"] = [link.place, link.message_id, link.update_id]
    if reply.instead is not None:  # a fallback message: its text and buttons
        post = reply.instead
        inner, _ = encode(dataclasses.replace(post.reply, documents=()))
        payload["instead"] = [post.chat_id, post.thread_id, json.loads(inner)]
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")), bytes(blob) or None


def decode(payload: str, blob: bytes | None) -> tuple[Reply, bool, Link | None]:
    """The reply of a stored row, whether to pin it after sending, and its ``Link``."""
    data = json.loads(payload)
    documents: list[Document] = []
    at = 0
    for doc in data.get("documents", ()):
        size = int(doc["size"])
        content = (blob or b"")[at : at + size]
        at += size
        kind = Photo if doc.get("photo") else Document
        documents.append(kind(str(doc["filename"]), content, str(doc.get("caption", ""))))
    edits = []
    for e in data.get("edits", ()):
        render = _uncall(e.get("render"))
        if e.get("render") and render is None:
            continue  # its text was to come from what is unknown now
        edits.append(
            Edit(
                int(e["message_id"]),
                e.get("text"),
                _unbuttons(e.get("buttons")),
                on_gone=_uncall(e.get("on_gone")),
                render=render,
                every=float(e.get("every", 0.0)),
                receiver=int(e.get("receiver", 0)),
            )
        )
    topics = []
    for t in data.get("topics", ()):
        created = _uncall(t["on_created"])
        if created is None:
            continue  # a topic is created for what opens it
        topics.append(
            NewTopic(int(t["chat_id"]), str(t["name"]), created, _uncall(t.get("on_refused")))
        )
    reply = Reply(
        str(data.get("text", "")),
        documents=tuple(documents),
        buttons=_unbuttons(data.get("buttons")),
        edits=tuple(edits),
        on_sent=_uncall(data.get("on_sent")),
        refusal=bool(data.get("refusal", False)),
        for_asker="for_asker" in data,
        asker=_asker(data.get("for_asker")),
        topics=tuple(topics),
        gone_topics=tuple(
            CloseTopic(int(chat), int(thread)) for chat, thread in data.get("gone_topics", ())
        ),
    )
    poll = data.get("poll")
    if poll:
        question, options, on_sent = poll
        made = Poll(str(question), tuple(str(o) for o in options), _uncall(on_sent))
        reply = dataclasses.replace(reply, poll=made)
    if data.get("stop_poll"):
        reply = dataclasses.replace(reply, stop_poll=int(data["stop_poll"]))
    instead = data.get("instead")
    if instead:
        inner, _, _ = decode(json.dumps(instead[2]), None)
        reply = dataclasses.replace(reply, instead=Post(int(instead[0]), int(instead[1]), inner))
    linked = data.get("link")
    link = Link(*(int(n) for n in linked)) if linked else None
    return reply, bool(data.get("pin", False)), link
