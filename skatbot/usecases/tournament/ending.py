"""``/turnier ende``: the tournament ends (asked first): its open table lists close, the
pinned standings stay as they were, and the answer names the winners."""

from __future__ import annotations

from html import unescape

from skatbot.storage import questions
from skatbot.storage import tournament as trepo
from skatbot.storage.tournament_models import Tournament
from skatbot.storage.unit import Session
from skatbot.usecases.common import confirm
from skatbot.usecases.common.confirm import Shown
from skatbot.usecases.common.place_kinds import Place
from skatbot.usecases.common.reply import Reply
from skatbot.usecases.tournament import tables, tournament_season
from skatbot.usecases.tournament.bridge import command_at
from skatbot.usecases.tournament.results import ranking_of, series_span


def _shown(session: Session, t: Tournament) -> Shown:
    """The tournament as the question to end it names it."""
    _, complete, incomplete = ranking_of(t, trepo.load_series(session, t))
    counted = f"gewertet {series_span(complete)}" if complete else "noch keine Serie vollständig"
    if incomplete:
        counted += f", {series_span(incomplete)} unvollständig"
    return Shown(
        f"tournament:{t.id}",
        questions.thing_state(session, "tournaments", t.id),
        unescape(f"{tournament_season.contents(session, t)} ({counted})"),
    )


def ende(session: Session, place: Place, *, confirmed: bool) -> Reply:
    """``/turnier ende`` asks, ``/turnier ende ja`` ends (the management's: the route's
    right)."""
    t = tournament_season.running_at(place)
    if not confirmed:
        return _ask(session, place, t)
    return _end(session, place, t)


def _ask(session: Session, place: Place, t: Tournament) -> Reply:
    _, complete, incomplete = ranking_of(t, trepo.load_series(session, t))
    confirm.ask(session, command_at(place), confirm.END_TOURNAMENT, _shown(session, t))
    lines = [f"❓ <b>{tournament_season.label(t)} beenden?</b>"]
    if complete:
        lines.append(f"Gewertet: {series_span(complete)}.")
    else:
        lines.append("Noch keine Serie ist vollständig – die Rangliste bleibt leer.")
    if incomplete:
        lines.append(
            f"⚠️ {series_span(incomplete)} unvollständig: fehlende Ergebnisse "
            "werden nicht mehr nachgetragen (/fehlend)."
        )
    lines.append(
        "Danach nimmt das Turnier nichts mehr an (keine Ergebnisse, keine Spiele an seinen "
        f"Tischen); lesbar bleiben {tournament_season.READABLE}. Das nächste Turnier: /turnier NAME."
    )
    lines.append("👉 Zum Bestätigen: /turnier ende ja")
    return Reply("\n".join(lines))


def _end(session: Session, place: Place, t: Tournament) -> Reply:
    ranked, complete, _ = ranking_of(t, trepo.load_series(session, t))
    # the sender's own question, about this tournament as it was then
    confirm.answer(
        session,
        command_at(place),
        confirm.END_TOURNAMENT,
        lambda _target: _shown(session, t),
        again="/turnier ende",
        undone="nichts beendet",
    )
    trepo.close_tournament(t, place.asker.user_id)
    tournament_season.forget_pinned(session, t)
    closed, posts = tables.close_tables(session, t)
    lines = [f"🏁 <b>{tournament_season.label(t)} ist beendet</b> ({tournament_season.dates(t)})."]
    if closed:
        lines.append(
            f"{closed} noch offene Tischliste{'n' if closed != 1 else ''} geschlossen – "
            "dort wird nichts mehr gebucht."
        )
    if ranked:
        lines.append(
            f"Gewertet: {series_span(complete)}. Sieg: {tournament_season.winners(ranked)}"
        )
    n = t.number
    lines.append(
        f"Lesen: /rangliste turnier {n} · /urkunden turnier {n} · /kasse turnier {n} · "
        f"/export turnier {n} · alle Turniere: /turniere"
    )
    lines.append("Das nächste Turnier hier: /turnier NAME")
    return Reply("\n".join(lines), posts=posts)
