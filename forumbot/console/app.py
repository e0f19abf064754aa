"""The console's Starlette app: :func:`create_app`.

Pages (``?lang=zh-Hans|zh-Hant|en`` on any of them; the season's locale otherwise):

- ``/``: every season (name, ruleset, phase, deadline with a live countdown, paused or not, delivery, problems);
- ``/seasons/{name}``: one season (see :mod:`forumbot.console.season_page`), its reports
  ``/seasons/{name}/report`` and ``/seasons/{name}/report/public``;
- ``POST /seasons/{name}/steer`` (a confirmation page) then ``POST /seasons/{name}/steer/confirm`` (stored):
  the organiser commands of ``forumbot organiser`` (:mod:`forumbot.console.steer`);
- with ``public``: ``/public`` and ``/public/{name}``, read-only pages without a login (phase, deadline, the
  public report), which never show a role or the inbound log.

Every page but the public ones needs an organiser's login (:class:`forumbot.console.auth.ConsoleAuth`); bad
input gets a message page, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from forumbot.console.auth import ConsoleAuth
from forumbot.console.pages import message, page_locale, render
from forumbot.console.source import SeasonSource, SeasonUnavailable
from forumbot.console.view import Overview, overview
from forumbot.resources import package_dir

log = logging.getLogger("forumbot")
STATIC = package_dir("console/static")

Endpoint = Callable[[Request], Awaitable[Response]]


class Console:
    """The pages of one app: ``source`` (the seasons), ``auth`` (logins), ``public`` (the read-only pages)."""

    def __init__(self, source: SeasonSource, auth: ConsoleAuth, public: bool) -> None:
        self.source = source
        self.auth = auth
        self.public = public

    # --- helpers --------------------------------------------------------------------------------------
    def login_redirect(self, request: Request) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)

    def overviews(self) -> list[tuple[Overview, Any]]:
        """Every season's overview, with its bot (None: never ran or cannot be read)."""
        now = datetime.now(UTC)
        out = []
        for entry in self.source.entries():
            bot, why = None, None
            if entry.config is not None:
                try:
                    bot = self.source.bot(entry.config)
                except SeasonUnavailable as exc:
                    why = str(exc)
            out.append((overview(entry, bot, now, why), bot))
        return out

    # --- pages ----------------------------------------------------------------------------------------
    async def seasons(self, request: Request) -> Response:
        """``/``: every season."""
        who = self.auth.organiser(request)
        if who is None:
            return self.login_redirect(request)
        rows = [o for o, _ in self.overviews()]
        locales = {o.locale for o in rows if o.state != "broken"}
        locale = page_locale(request, locales.pop() if len(locales) == 1 else "en")
        return render(request, "seasons", locale, seasons=rows, organiser=who, base="/seasons")


def create_app(source: SeasonSource, *, auth: ConsoleAuth, public: bool = False) -> Starlette:
    """The console over the seasons of ``source``, its logins ``auth``; ``public``: also the read-only pages
    ``/public`` and ``/public/{name}`` (no login)."""
    console = Console(source, auth, public)
    routes: list[Any] = [
        Route("/", guarded(console.seasons)),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        *auth.routes(),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        code = exc.status_code if isinstance(exc, HTTPException) else 404
        return message(request, page_locale(request), "not_found" if code == 404 else "bad_request", status_code=code)

    return Starlette(routes=routes, middleware=auth.middleware(), exception_handlers={HTTPException: not_found})


def guarded(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` whose failures become a message page: a database that cannot be read (503, with its reason),
    anything else (500, logged with its traceback for the operator; the page names no code or path)."""

    async def run(request: Request) -> Response:
        try:
            return await endpoint(request)
        except HTTPException:
            raise
        except SeasonUnavailable as exc:
            return message(request, page_locale(request), "unavailable", status_code=503, detail=str(exc))
        except Exception:
            log.exception("console: %s %s failed", request.method, request.url.path)
            return message(request, page_locale(request), "internal", status_code=500)

    return run
