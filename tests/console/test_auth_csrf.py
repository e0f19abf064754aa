"""The console's CSRF tokens (forumbot.console.csrf): a session's token in a hidden field, checked on return."""

from __future__ import annotations

import re

from forumbot.console.csrf import FIELD, check_csrf, csrf_field, csrf_token, renew


def test_the_hidden_field_carries_the_sessions_token_and_passes_the_check():
    session: dict = {}
    field = str(csrf_field(session))
    value = re.fullmatch(r'<input type="hidden" name="csrf_token" value="([^"]+)">', field).group(1)
    assert value == session[FIELD] == csrf_token(session)  # made once, then kept
    assert len(value) >= 40
    assert check_csrf(session, {FIELD: value})


def test_a_missing_empty_or_wrong_token_fails():
    session: dict = {}
    token = csrf_token(session)
    assert not check_csrf(session, {})
    assert not check_csrf(session, {FIELD: ""})
    assert not check_csrf(session, {FIELD: token[:-1] + ("A" if token[-1] != "A" else "B")})
    assert not check_csrf({}, {FIELD: token})  # a session without one (a new visitor) takes no form
    assert not check_csrf({FIELD: ""}, {FIELD: ""})


def test_renew_makes_the_old_token_worthless():
    session: dict = {}
    old = csrf_token(session)
    renew(session)
    assert not check_csrf(session, {FIELD: old})
    assert check_csrf(session, {FIELD: csrf_token(session)})


def test_two_sessions_have_different_tokens():
    assert csrf_token({}) != csrf_token({})
