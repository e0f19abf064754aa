"""CSRF protection for the console's forms: a random token kept in the signed session cookie, written into
every POST form as a hidden field and compared (in constant time) when the form comes back. A page of
another site can make the browser send the cookie, but cannot read the page to learn the token."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping, MutableMapping
from typing import Any

from markupsafe import Markup, escape

#: the form field (and session key) that carries the token
FIELD = "csrf_token"


def csrf_token(session: MutableMapping[str, Any]) -> str:
    """The session's token, made (32 random bytes, URL-safe text) on first use."""
    token = session.get(FIELD)
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(32)
        session[FIELD] = token
    return token


def csrf_field(session: MutableMapping[str, Any]) -> Markup:
    """The hidden ``<input>`` that carries the session's token in a form."""
    return Markup('<input type="hidden" name="{}" value="{}">').format(FIELD, escape(csrf_token(session)))


def check_csrf(session: Mapping[str, Any], form: Mapping[str, Any]) -> bool:
    """Whether ``form`` (the posted fields) carries the session's token. False when either is missing."""
    expected = session.get(FIELD)
    given = form.get(FIELD)
    if not isinstance(expected, str) or not expected or not isinstance(given, str) or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


def renew(session: MutableMapping[str, Any]) -> None:
    """A new token (at login and logout: a token seen before the session changed hands is worthless after)."""
    session[FIELD] = secrets.token_urlsafe(32)
