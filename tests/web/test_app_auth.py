"""The Mini App's login and start token, checked against Telegram's documented procedure."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from urllib.parse import quote

import pytest

from skatbot.handlers.app_auth import (
    START_LENGTH,
    LoginError,
    StartError,
    check_init_data,
    read_start,
    sign_init_data,
    sign_start,
    start_key,
)

TOKEN = "123456:ABC-telegram-test-token"
NOW = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)


def documented(fields: dict[str, str], token: str = TOKEN) -> str:
    """initData built step by step as core.telegram.org/bots/webapps describes it."""
    secret_key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    digest = hmac.new(secret_key, check.encode(), hashlib.sha256).hexdigest()
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in fields.items()) + f"&hash={digest}"


def fields(when: dt.datetime = NOW, **extra: str) -> dict[str, str]:
    user = {"id": 4711, "first_name": "Anna", "last_name": "Schmidt", "language_code": "de"}
    return {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(user, separators=(",", ":")),
        "auth_date": str(int(when.timestamp())),
        **extra,
    }


def test_documented_init_data_is_accepted() -> None:
    login = check_init_data(documented(fields(start_param="abc_1-2")), TOKEN, NOW)
    assert (login.user_id, login.name, login.start_param) == (4711, "Anna Schmidt", "abc_1-2")
    assert login.auth_date == NOW


def test_signature_field_takes_part_in_the_hash_like_any_other() -> None:
    login = check_init_data(documented(fields(signature="c2lnbmF0dXJl")), TOKEN, NOW)
    assert login.user_id == 4711


def test_sign_init_data_agrees_with_the_documented_procedure() -> None:
    made = sign_init_data(TOKEN, 4711, "Anna", NOW, start_param="x")
    from urllib.parse import parse_qsl

    got = dict(parse_qsl(made))
    given = got.pop("hash")
    assert documented(got).rsplit("hash=", 1)[1] == given
    assert check_init_data(made, TOKEN, NOW).start_param == "x"


@pytest.mark.parametrize(
    "forge",
    [
        lambda s: s.replace("Anna", "Anne"),  # a field changed
        lambda s: s[:-1] + ("0" if s[-1] != "0" else "1"),  # the hash changed
        lambda s: s.rsplit("&hash=", 1)[0],  # no hash
        lambda s: s + "&user=%7B%22id%22%3A1%7D",  # a key twice
        lambda s: "",
        lambda s: "x" * 9000,
    ],
)
def test_forged_init_data_is_refused(forge: object) -> None:
    good = documented(fields())
    assert callable(forge)
    with pytest.raises(LoginError):
        check_init_data(forge(good), TOKEN, NOW)


def test_another_bots_token_is_refused() -> None:
    with pytest.raises(LoginError):
        check_init_data(documented(fields(), token="999:other"), TOKEN, NOW)


def test_freshness() -> None:
    old = documented(fields(NOW - dt.timedelta(hours=24, seconds=1)))
    with pytest.raises(LoginError, match="abgelaufen"):
        check_init_data(old, TOKEN, NOW)
    assert check_init_data(documented(fields(NOW - dt.timedelta(hours=23))), TOKEN, NOW)
    assert check_init_data(documented(fields(NOW + dt.timedelta(minutes=4))), TOKEN, NOW)
    with pytest.raises(LoginError):
        check_init_data(documented(fields(NOW + dt.timedelta(minutes=6))), TOKEN, NOW)


def test_start_token_round_trip_and_telegram_limits() -> None:
    key = start_key(TOKEN)
    for chat, topic, lst in [(-1001234567890123, 0, 0), (42, 77, 9), (-(2**63), 2**32 - 1, 1)]:
        token = sign_start(chat, topic, lst, key)
        assert len(token) == START_LENGTH <= 512
        assert all(c.isascii() and (c.isalnum() or c in "_-") for c in token)
        got = read_start(token, key)
        assert (got.chat_id, got.topic_id, got.list_id) == (chat, topic, lst)


def test_start_token_is_bound_to_its_key_and_its_chat() -> None:
    key = start_key(TOKEN)
    token = sign_start(-100, 0, 0, key)
    with pytest.raises(StartError):
        read_start(token, start_key("999:other"))
    # initData's secret key is another key: a start token is no initData signature
    assert key != hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    other = sign_start(-200, 0, 0, key)
    forged = other[:12] + token[12:]  # another chat's id with this tag
    with pytest.raises(StartError):
        read_start(forged, key)
    for bad in ["", "A" * START_LENGTH, token[:-1], token + "A", token[:-2] + "!!"]:
        with pytest.raises(StartError):
            read_start(bad, key)
