"""The signature of every request between a box and its collector."""

from __future__ import annotations

from narrator.tournament.signing import (
    NONCE,
    SIGNATURE,
    Verifier,
    answer_ok,
    make_key,
    normal_key,
    sign_answer,
    sign_request,
)

KEY = "ABCD-EFGH-JKMN-PQRS"
BODY = b'{"round": 1}'


def test_a_signed_request_passes_once_and_a_replay_is_refused() -> None:
    v = Verifier(KEY, now=lambda: 1000.0)
    headers = sign_request(KEY, "POST", "/api/tournament/round", BODY, now=lambda: 1000.0)
    assert v.check("POST", "/api/tournament/round", headers, BODY) is None
    assert v.check("POST", "/api/tournament/round", headers, BODY) == "replayed"


def test_wrong_key_changed_body_path_or_old_time_are_refused() -> None:
    v = Verifier(KEY, now=lambda: 1000.0)
    assert (
        v.check("POST", "/p", sign_request(make_key(), "POST", "/p", BODY, lambda: 1000.0), BODY)
        == "wrong key"
    )
    assert v.check("POST", "/p", sign_request(KEY, "POST", "/p", BODY, lambda: 1000.0), b"{}") == "wrong key"
    assert v.check("POST", "/q", sign_request(KEY, "POST", "/p", BODY, lambda: 1000.0), BODY) == "wrong key"
    old = v.check("POST", "/p", sign_request(KEY, "POST", "/p", BODY, lambda: 700.0), BODY)
    assert old is not None and old.startswith("too old")
    assert v.check("POST", "/p", {}, BODY) == "not signed"


def test_the_key_as_typed_and_the_answer_signed() -> None:
    assert normal_key("abcd efgh-jkmn pqrs") == normal_key(KEY)
    headers = sign_request("abcd efgh jkmn pqrs", "POST", "/p", BODY)
    assert Verifier(KEY).check("POST", "/p", headers, BODY) is None
    signature = sign_answer(KEY, 200, headers[NONCE], b"ok")
    assert answer_ok(KEY, 200, headers[NONCE], b"ok", signature)
    assert not answer_ok(KEY, 200, headers[NONCE], b"ok!", signature)
    assert not answer_ok(make_key(), 200, headers[NONCE], b"ok", signature)
    assert SIGNATURE not in ("", None)
