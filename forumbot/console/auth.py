"""The console's logins: who is the organiser behind a request, and the CSRF token of every form.

The interface the pages use (:func:`forumbot.console.app.create_app`): :meth:`ConsoleAuth.middleware` and
:meth:`ConsoleAuth.routes` (login and logout pages) are added to the app; every non-public page asks
:meth:`ConsoleAuth.organiser` (None: the visitor is sent to ``/login?next=``); a steering form is taken only when
:meth:`ConsoleAuth.may_steer` and :meth:`ConsoleAuth.check_csrf` agree, and every form carries
:meth:`ConsoleAuth.csrf_field`.

This body is a placeholder that logs nobody in (every organiser page redirects to the login page, and
``/login`` says that logins are not available); the sign-in link by private message, password hashing,
sessions and throttling replace it.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Route


class ConsoleAuth:
    """Logins of the console. Subclasses (and tests' doubles) override every method."""

    def middleware(self) -> list[Middleware]:
        """Middleware the app runs first (sessions, ...)."""
        return []

    def routes(self) -> list[BaseRoute]:
        """The login and logout pages (``/login``, ``/logout``)."""

        async def login(request: Request) -> PlainTextResponse:
            return PlainTextResponse("logins are not available in this build of the console", status_code=503)

        return [Route("/login", login, methods=["GET", "POST"])]

    def organiser(self, request: Request) -> str | None:
        """The forum name of the organiser logged in on ``request``, or None (nobody is)."""
        return None

    def may_steer(self, request: Request, season_id: str, organisers: list[str]) -> bool:
        """Whether the organiser logged in on ``request`` may give commands to season ``season_id`` (its
        name), whose organisers are ``organisers`` (forum names)."""
        who = self.organiser(request)
        return who is not None and who in organisers

    def csrf_field(self, request: Request) -> Markup:
        """The hidden input holding the CSRF token, for every POST form."""
        return Markup("")

    def check_csrf(self, request: Request, form: Any) -> bool:
        """Whether ``form`` (the posted form data) carries the request's CSRF token."""
        return False
