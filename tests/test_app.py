"""The Bot API clients the application is built with."""

from __future__ import annotations

import ssl

from skatbot.app import bot_api_requests, build_application
from skatbot.storage.database import Database


def test_both_clients_verify_tls_with_one_shared_context() -> None:
    requests, get_updates = bot_api_requests()
    # PTB keeps the keyword arguments it builds its httpx client from.
    tls = requests._client_kwargs["verify"]
    assert isinstance(tls, ssl.SSLContext)
    assert get_updates._client_kwargs["verify"] is tls
    assert tls.verify_mode == ssl.CERT_REQUIRED
    assert tls.check_hostname
    assert tls.cert_store_stats()["x509_ca"] > 50  # a CA bundle is loaded


def test_a_request_timeout_applies_to_the_replies_client_only() -> None:
    requests, get_updates = bot_api_requests(0.25)
    assert requests.read_timeout == 0.25
    assert get_updates.read_timeout != 0.25  # getUpdates long-polls with its own timeout


def test_the_handlers_share_one_typed_state(db: Database) -> None:
    """``bot_data`` is a ``BotState``, filled at build: what every handler reads from it."""
    from skatbot.handlers.bot_state import BotState
    from skatbot.handlers.routes import ROUTES, allowed_updates, command
    from skatbot.usecases.place import help as help_ops

    routes = [*ROUTES, command("probe", help_ops.hilfe, "Probe")]
    app = build_application("1:TEST", db, group_limit=7, routes=routes)
    state = app.bot_data
    assert isinstance(state, BotState)
    assert state.database is db
    assert state.outbox.pacer.group_limit == 7  # the paced outbox, not the default one
    assert list(state.routes) == routes
    assert list(state.allowed_updates) == allowed_updates(routes)
    assert state.pruner is None  # started by post_init, not at build
    assert not state.redelivered_on_failure  # long polling: a failure is told at once
