"""The login and logout pages of the console (:class:`forumbot.console.auth.ConsoleAuth` routes them).

``/login`` shows two forms: a console password, and a sign-in link by private message. Every form carries the
session's CSRF token and is refused without it (403). A refused login says why on the page (wrong name or
password: 401; too many failures: 429, with how long to wait) and never which of the name or the password
was wrong. Words in ``templates/<locale>/console/login_words.html``; structure in
``templates/html/console/login.html``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from forumbot.console.auth import redirect, safe_next
from forumbot.console.pages import message, page_locale, read_form, render

if TYPE_CHECKING:
    from forumbot.console.auth import ConsoleAuth

log = logging.getLogger("forumbot")
#: the longest name or password a form takes (longer: refused before any work)
MAX_FIELD = 200


class LoginPages:
    """The page handlers of ``auth``."""

    def __init__(self, auth: ConsoleAuth) -> None:
        self.auth = auth

    def locale(self, request: Request) -> str:
        """``?lang=``, else the seasons' locale when they share one, else English."""
        locales = set()
        try:
            locales = {e.config.locale for e in self.auth.source.entries() if e.config is not None}
        except Exception:  # a directory that cannot be read: the page still shows
            locales = set()
        return page_locale(request, locales.pop() if len(locales) == 1 else "en")

    def page(self, request: Request, status: int = 200, *, note: str | None = None, error: str | None = None,
             name: str = "", wait: float = 0.0, template: str = "login", **more: Any) -> Response:
        return render(request, template, self.locale(request), status_code=status,
                      organiser=self.auth.organiser(request), csrf=self.auth.csrf_field(request),
                      next=safe_next(request.query_params.get("next")), note=note, error=error, name=name,
                      minutes=max(1, math.ceil(wait / 60)), **more)

    async def _form(self, request: Request) -> dict[str, str] | None:
        """The posted fields (strings, trimmed to :data:`MAX_FIELD`), or None when the CSRF token is missing or wrong."""
        form = await read_form(request)
        if form is None:  # a body that is not a form: refused as a form without its token
            return None
        fields = {k: v[:MAX_FIELD] for k, v in form.items() if isinstance(v, str)}
        return fields if self.auth.check_csrf(request, fields) else None

    def _safely(self, page: Callable[..., Response], request: Request, *args: Any) -> Response:
        """``page(request, *args)``; a failure (the console file cannot be read or written, a season's database
        does not answer) is the console's message page, logged for the operator: never a traceback."""
        try:
            return page(request, *args)
        except Exception:
            log.exception("console: %s %s failed", request.method, request.url.path)
            return message(request, self.locale(request), "internal", status_code=500)

    # Each page reads its form in the event loop and does the rest in a worker thread: an argon2 check, the
    # console file under its lock, a season read to send a link (seconds, the first time, for a long season)
    # never hold up the other pages.
    async def login(self, request: Request) -> Response:
        """GET: the login page (already logged in: its note says who). POST: a password login."""
        form = None if request.method == "GET" else await self._form(request)
        return await run_in_threadpool(self._safely, self._login, request, form)

    def _login(self, request: Request, form: dict[str, str] | None) -> Response:
        if request.method == "GET":
            return self.page(request)
        if form is None:
            return self.page(request, 403, error="csrf")
        name, password = form.get("name", "").strip(), form.get("password", "")
        if not name or not password:
            return self.page(request, 400, error="empty", name=name)
        if wait := self.auth.throttled(request, name):
            return self.page(request, 429, error="throttled", name=name, wait=wait)
        if not self.auth.password_login(request, name, password):
            return self.page(request, 401, error="wrong", name=name)
        self.auth.log_in(request, name)
        return redirect(safe_next(form.get("next")))

    async def ask_link(self, request: Request) -> Response:
        """POST: send a sign-in link to the organiser named in the form."""
        return await run_in_threadpool(self._safely, self._ask_link, request, await self._form(request))

    def _ask_link(self, request: Request, form: dict[str, str] | None) -> Response:
        if form is None:
            return self.page(request, 403, error="csrf")
        name = form.get("name", "").strip()
        if not name:
            return self.page(request, 400, error="empty_name")
        if wait := self.auth.throttled(request, name, links=True):
            return self.page(request, 429, error="throttled_links", name=name, wait=wait)
        what = self.auth.send_link(request, name)
        if what == "no_address":
            return self.page(request, 400, error="no_address", name=name)
        # the same answer whether or not the name organises a season: the page does not tell who organises
        return self.page(request, 200, note="link_sent", name=name)

    async def use_link(self, request: Request) -> Response:
        """GET ``/login/link/{token}``: sign in with a link, then on to the seasons."""
        return await run_in_threadpool(self._safely, self._use_link, request)

    def _use_link(self, request: Request) -> Response:
        token = str(request.path_params.get("token", ""))[:MAX_FIELD]
        name, why = self.auth.use_link(request, token)
        if name is None:
            status = 409 if why == "other_browser" else 410 if why == "expired" else 404
            return self.page(request, status, error=f"link_{why}")
        return redirect("/")

    async def logout(self, request: Request) -> Response:
        """GET: a page with the logout button (a form, so no other site can log an organiser out). POST: log out."""
        form = None if request.method == "GET" else await self._form(request)
        return await run_in_threadpool(self._safely, self._logout, request, form)

    def _logout(self, request: Request, form: dict[str, str] | None) -> Response:
        if request.method == "GET":
            return self.page(request, template="logout")
        if form is None:
            return self.page(request, 403, error="csrf", template="logout")
        self.auth.log_out(request)
        return self.page(request, note="logged_out")
