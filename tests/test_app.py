"""The Bot API clients the application is built with."""

from __future__ import annotations

import ssl

from skatbot.app import bot_api_requests


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
