"""``/app``: the Mini App's button for this chat (or, where it is not set up, how to set it up).

The button itself is a marker (``keyboards.app_button``): the outbox makes it the link signed
for the chat it is sent to, so no login or code of one person ever goes into a group.
"""

from __future__ import annotations

from skatbot.storage.unit import Session
from skatbot.usecases.common.keyboards import app_button
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Command, Reply

OPEN_TEXT = (
    "📱 <b>Mini App</b>: die Liste wie auf Papier, ein Spiel zusammenklicken – "
    "Wert und Stand sehen, bevor es eingetragen wird – und der Verlauf als Bild.\n"
    "👉 Auf den Knopf tippen."
)
SETUP_TEXT = (
    "📱 Die Mini App ist bei diesem Bot noch nicht eingerichtet.\n"
    "👉 Wer den Bot betreibt: bei @BotFather mit /newapp eine Mini App anlegen (Adresse: "
    "die öffentliche https-Adresse des Bots mit /app am Ende), ihren Kurznamen als "
    "SKATBOT_MINIAPP und die Adresse als SKATBOT_PUBLIC_URL eintragen und den Bot neu "
    "starten. Anleitung: docs/miniapp.md im skatbot-Paket."
)


LOCAL_TEXT = (
    "📱 <b>Mini App</b> auf diesem Rechner: {url}\n"
    "👉 Zum Öffnen den Link mit der Anmeldung nehmen, den die Konsole beim Start gezeigt hat "
    "(🌐 …); die Anmeldung gilt 24 Stunden und nur für dich."
)


def app(session: Session, place: Place, cmd: Command) -> Reply:
    if not cmd.app_ready and cmd.local_app_url is not None:
        # No Telegram to open it with a login of its own: the address only, never a login
        # into the chat (the console printed the console user's login where only they see it).
        return Reply(LOCAL_TEXT.format(url=cmd.local_app_url))
    if not cmd.app_ready:
        return Reply(SETUP_TEXT)
    return Reply(OPEN_TEXT, buttons=((app_button(cmd.thread_id),),))
