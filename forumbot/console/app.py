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

import inspect
import logging
import re
import secrets
import threading
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from forumbot.console.auth import ConsoleAuth
from forumbot.console.login_link import TEMPLATE as SIGN_IN_TEMPLATE
from forumbot.console.pages import link, message, page_locale, read_form, render
from forumbot.console.source import SeasonSource, SeasonUnavailable
from forumbot.console.view import Overview, Problem, local, overview
from forumbot.language.vocabulary import VERB_WORDS
from forumbot.plain_text import plain
from forumbot.render import duration
from forumbot.resources import package_dir

log = logging.getLogger("forumbot")
STATIC = package_dir("console/static")
#: inbound log rows a page
LOG_PAGE = 100
#: a confirmation's one-time token
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

Endpoint = Callable[[Request], Awaitable[Response]]


class Console:
    """The pages of one app: ``source`` (the seasons), ``auth`` (logins), ``public`` (the read-only pages)."""

    def __init__(self, source: SeasonSource, auth: ConsoleAuth, public: bool, clock: Callable[[], datetime]) -> None:
        #: pages are worked out in worker threads (the event loop keeps answering), one at a time: the seasons held
        #: between pages are brought up to date and read by one page at a time
        self.lock = threading.Lock()
        self.clock = clock
        self.source = source
        self.auth = auth
        self.public = public

    # --- helpers --------------------------------------------------------------------------------------
    def under_lock(self, page: Callable[..., Response], *args: Any) -> Response:
        """``page(*args)`` holding the console's lock (in a worker thread)."""
        with self.lock:
            return page(*args)

    def login_redirect(self, request: Request) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)

    def overviews(self) -> list[tuple[Overview, Any]]:
        """Every season's overview, with its bot (None: never ran or cannot be read)."""
        now = self.clock()
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

    def organisers_season(self, request: Request) -> Response | tuple[str, Any, Any, Any, str]:
        """For a page of one season that needs a login: ``(organiser, entry, loaded, bot, locale)`` — ``loaded``
        and ``bot`` None for a season never run —, or the response to give instead (the login page, a message)."""
        who = self.auth.organiser(request)
        if who is None:
            return self.login_redirect(request)
        entry, loaded, refused = self.season_or_message(request)
        if refused is not None:
            return refused
        bot = loaded.bot if loaded is not None else None
        return who, entry, loaded, bot, page_locale(request, entry.config.locale)

    def season_or_message(self, request: Request, locale: str | None = None) -> tuple[Any, Any, Response | None]:
        """The season of the URL's ``{name}`` and the season as loaded (:meth:`SeasonSource.season`; None: never ran),
        or the message page to answer."""
        key = request.path_params["name"]
        entry = self.source.entry(key)
        if entry is None or entry.config is None:
            return None, None, message(request, page_locale(request, locale or "en"), "no_season", 404, key)
        return entry, self.source.season(entry.config), None

    # --- organiser pages ------------------------------------------------------------------------------
    def seasons(self, request: Request) -> Response:
        """``/``: every season."""
        who = self.auth.organiser(request)
        if who is None:
            return self.login_redirect(request)
        rows = [o for o, _ in self.overviews()]
        for o in rows:
            if o.state == "broken" and not o.ruleset:
                # not a season file: whose it is cannot be told, and its error may quote what it says (a fixed
                # draw of roles): the problem is named, and `forumbot check FILE` says the rest
                o.problems = [Problem(p.key) for p in o.problems]
            elif not self.auth.may_steer(request, o.key, list(o.organisers)):
                # another season's delivery counts move with its night's private messages: not for an organiser
                # elsewhere, who may play in it (what its public page shows, and no more)
                o.problems, o.outbox = [], {}
        locales = {o.locale for o in rows if o.state != "broken"}
        locale = page_locale(request, locales.pop() if len(locales) == 1 else "en")
        return render(request, "seasons", locale, seasons=rows, organiser=who, base="/seasons")

    def season(self, request: Request) -> Response:
        """``/seasons/{name}``: one season, for its organisers (roles, the inbound log, steering)."""
        from forumbot.console.inbound_log import filtered, log_rows
        from forumbot.console.season_page import details

        opened = self.organisers_season(request)
        if isinstance(opened, Response):
            return opened
        who, entry, loaded, bot, locale = opened
        if not self.auth.may_steer(request, entry.key, list(entry.config.organisers)):
            # roles and the inbound log are for this season's organisers: one of another season may play here
            return message(request, locale, "not_yours", 403, entry.config.name, back=link(request, "/"))
        q = request.query_params
        try:
            page = int(q.get("page", "1"))
            if page < 1:
                raise ValueError
        except ValueError:
            return message(request, locale, "bad_page", 400, q.get("page", ""), back=request.url.path)
        o = overview(entry, bot, self.clock())
        found = filtered(log_rows(loaded), q.get("player", ""), q.get("q", ""), q.get("source", "")) if loaded else []
        shown = found[(page - 1) * LOG_PAGE:page * LOG_PAGE]
        steer = bot is not None and self.auth.may_steer(request, entry.key, list(entry.config.organisers))
        return render(request, "season", locale, o=o, bot=bot, organiser=who,
                      d=details(loaded) if bot is not None and bot.started else None,
                      log=shown, found=len(found), page=page, pages=max(1, -(-len(found) // LOG_PAGE)),
                      filters={"player": q.get("player", ""), "q": q.get("q", ""), "source": q.get("source", "")},
                      steer=steer, csrf=self.auth.csrf_field(request), steered=q.get("steered"),
                      sign_in_template=SIGN_IN_TEMPLATE, verb_words=VERB_WORDS[locale],
                      duration=lambda seconds: duration(seconds, locale), when=lambda at: local(at, bot), plain=lambda body: plain(body, entry.config.effective_markup),
                      home="/")

    def report(self, request: Request) -> Response:
        """``/seasons/{name}/report/full/`` and ``.../public/``: the season report so far (``forumbot report``)."""
        if self.auth.organiser(request) is None:
            return self.login_redirect(request)
        return self.report_page(request, request.path_params["view"])

    def report_page(self, request: Request, view: str) -> Response:
        from forumbot.report.data import extract
        from forumbot.report.html import render_page

        if view not in ("full", "public"):
            raise HTTPException(404)
        entry, loaded, refused = self.season_or_message(request)
        if refused is not None:
            return refused
        if view == "full" and not self.auth.may_steer(request, entry.key, list(entry.config.organisers)):
            return message(request, page_locale(request, entry.config.locale), "not_yours", 403, entry.config.name,
                           back=link(request, "/"))
        if loaded is None or not loaded.bot.started:
            return message(request, page_locale(request, entry.config.locale), "not_started", 404, entry.config.name)
        html = render_page("report", extract(loaded.log, public=view == "public"),
                           page_locale(request, entry.config.locale))
        return HTMLResponse(html)

    async def steer(self, request: Request) -> Response:
        """``POST /seasons/{name}/steer``: the confirmation page of an organiser command (nothing stored yet)."""
        return await self.steering(request, confirmed=False)

    async def confirm(self, request: Request) -> Response:
        """``POST /seasons/{name}/steer/confirm``: store the confirmed command; back to the season's page."""
        return await self.steering(request, confirmed=True)

    async def steering(self, request: Request, confirmed: bool) -> Response:
        form = await read_form(request)
        if form is None:
            return message(request, page_locale(request), "bad_request", 400)
        return await run_in_threadpool(self.under_lock, self.steer_form, request, form, confirmed)

    def steer_form(self, request: Request, form: Any, confirmed: bool) -> Response:
        """The steering form ``form`` (posted): its confirmation page, or (``confirmed``) the command stored."""
        from forumbot.console import steer

        opened = self.organisers_season(request)
        if isinstance(opened, Response):
            return opened
        who, entry, _, bot, locale = opened
        back = link(request, f"/seasons/{quote(entry.key)}")
        if not self.auth.check_csrf(request, form):
            return message(request, locale, "csrf", 403, back=back)
        if not self.auth.may_steer(request, entry.key, list(entry.config.organisers)):
            return message(request, locale, "not_allowed", 403, entry.config.name, back=back)
        if bot is None:
            return message(request, locale, "not_started", 409, entry.config.name, back=back)
        try:
            text = str(form.get("command", "")) if confirmed else steer.command_text(form)
            steer.check(bot, text, check_account=not form.get("no_check"))
        except steer.Refused as exc:
            return message(request, locale, "bad_command", 400, refusal=exc.refusal, back=back)
        if not confirmed:
            return render(request, "confirm", locale, o=overview(entry, bot, self.clock()), command=text,
                          irreversible=steer.irreversible(text), token=secrets.token_urlsafe(16),
                          no_check=bool(form.get("no_check")), csrf=self.auth.csrf_field(request), back=back,
                          organiser=who, action=link(request, f"/seasons/{quote(entry.key)}/steer/confirm"))
        token = str(form.get("token", ""))
        if not TOKEN.fullmatch(token):  # the confirmation page's own token (secrets.token_urlsafe)
            return message(request, locale, "csrf", 400, back=back)
        steer.give(bot, text, who, token, self.clock())
        return RedirectResponse(link(request, f"/seasons/{quote(entry.key)}", steered="1"), status_code=303)

    # --- public pages ---------------------------------------------------------------------------------
    def public_seasons(self, request: Request) -> Response:
        """``/public``: every season's phase and deadline (no login; nothing private)."""
        rows = [o for o, _ in self.overviews() if o.state != "broken"]
        for o in rows:
            o.problems, o.outbox = [], {}
        locales = {o.locale for o in rows}
        locale = page_locale(request, locales.pop() if len(locales) == 1 else "en")
        return render(request, "public_seasons", locale, seasons=rows, base="/public", home="/public")

    def public_season(self, request: Request) -> Response:
        """``/public/{name}``: the season's phase, deadline and public report (no login; nothing private)."""
        entry, loaded, refused = self.season_or_message(request)
        if refused is not None:
            return refused
        bot = loaded.bot if loaded is not None else None
        o = overview(entry, bot, self.clock())
        o.problems, o.outbox = [], {}
        return render(request, "public_season", page_locale(request, entry.config.locale), o=o, home="/public",
                      started=bot is not None and bot.started)

    def public_report(self, request: Request) -> Response:
        """``/public/{name}/report/``: the public report (what the thread showed)."""
        return self.report_page(request, "public")


async def report_asset(request: Request) -> Response:
    """A file of the report page's ``assets/`` (its stylesheet, script and chart library)."""
    from forumbot.report.html import ASSETS

    name = request.path_params["asset"]
    path = ASSETS / name
    if "/" in name or name.startswith(".") or not path.is_file():
        raise HTTPException(404)
    return FileResponse(path)


def create_app(source: SeasonSource, *, auth: ConsoleAuth, public: bool = False,
               clock: Callable[[], datetime] | None = None) -> Starlette:
    """The console over the seasons of ``source``, its logins ``auth``; ``public``: also the read-only pages
    ``/public`` and ``/public/{name}`` (no login). ``clock``: UTC now (tests give the season's test clock: an
    organiser command is stamped with it)."""
    console = Console(source, auth, public, clock or (lambda: datetime.now(UTC)))
    routes: list[Any] = [
        Route("/", guarded(console.seasons, console)),
        Route("/seasons/{name}", guarded(console.season, console)),
        Route("/seasons/{name}/report/{view}/", guarded(console.report, console)),
        Route("/seasons/{name}/report/{view}/assets/{asset}", report_asset),
        Route("/seasons/{name}/steer", guarded(console.steer, console), methods=["POST"]),
        Route("/seasons/{name}/steer/confirm", guarded(console.confirm, console), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        *auth.routes(),
    ]
    if public:
        routes += [
            Route("/public", guarded(console.public_seasons, console)),
            Route("/public/{name}", guarded(console.public_season, console)),
            Route("/public/{name}/report/", guarded(console.public_report, console)),
            Route("/public/{name}/report/assets/{asset}", report_asset),
        ]

    async def not_found(request: Request, exc: Exception) -> Response:
        code = exc.status_code if isinstance(exc, HTTPException) else 404
        return message(request, page_locale(request), "not_found" if code == 404 else "bad_request", status_code=code)

    return Starlette(routes=routes, middleware=auth.middleware(), exception_handlers={HTTPException: not_found})


def guarded(endpoint: Callable[[Request], Any], console: Console | None = None) -> Endpoint:
    """``endpoint`` whose failures become a message page: a database that cannot be read (503, with its reason),
    anything else (500, logged with its traceback for the operator; the page names no code or path). A plain
    (not async) endpoint runs in a worker thread under ``console``'s lock: reading a season (1.4 s the first time for
    2,000 messages) never holds up the event loop and the login pages."""

    async def run(request: Request) -> Response:
        try:
            if inspect.iscoroutinefunction(endpoint):
                response: Response = await endpoint(request)
                return response
            assert console is not None  # plain endpoints are the console's pages
            return await run_in_threadpool(console.under_lock, endpoint, request)
        except HTTPException:
            raise
        except SeasonUnavailable as exc:
            # the database's address and error are the operator's business: not for a visitor of a public page
            known = console is not None and console.auth.organiser(request) is not None
            return message(request, page_locale(request), "unavailable", status_code=503,
                           detail=str(exc) if known else "")
        except Exception:
            log.exception("console: %s %s failed", request.method, request.url.path)
            try:
                return message(request, page_locale(request), "internal", status_code=500)
            except Exception:  # the message page itself cannot be drawn: say it in one line
                return PlainTextResponse("the console failed to draw this page; see the operator's log", 500)

    return run
