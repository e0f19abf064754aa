"""The console's logins: who is the organiser behind a request, and the CSRF token of every form.

The interface the pages use (:func:`forumbot.console.app.create_app`): :meth:`ConsoleAuth.middleware` and
:meth:`ConsoleAuth.routes` (login and logout pages) are added to the app; every non-public page asks
:meth:`ConsoleAuth.organiser` (None: the visitor is sent to ``/login?next=``); a steering form is taken only when
:meth:`ConsoleAuth.may_steer` and :meth:`ConsoleAuth.check_csrf` agree, and every form carries
:meth:`ConsoleAuth.csrf_field`.

An organiser logs in with the forum name a season's file lists in ``organisers``, in one of two ways:

- **a sign-in link** sent by private message to that forum account through the outbox of a running season
  the name organises (:mod:`forumbot.console.login_link`: one use, 15 minutes, only in the browser that
  asked for it); the forum's login is the proof;
- **a console password** set with ``forumbot console-password`` and kept as an argon2id hash in the
  console file (:mod:`forumbot.console.passwords`, :mod:`forumbot.console.console_file`).

The session is Starlette's signed cookie (itsdangerous; the secret from ``FORUMBOT_CONSOLE_SECRET`` or the
console file), HttpOnly, SameSite=Lax (a link opened from the forum's private message must carry it: Strict
would drop it on that navigation), Secure whenever the console's address is ``https://``, and good for
:data:`SESSION_SECONDS`, until its organiser logs out (in any browser) or gets a new password: the session
carries the organiser's login epoch, which both change in the console file. Failed logins are throttled per account and per address
(:mod:`forumbot.console.throttle`), and so are requests for links (each sends a private message).
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from forumbot.console import csrf
from forumbot.console.console_file import ConsoleFile, ConsoleFileError
from forumbot.console.login_link import LINK_SECONDS, LinkTokens, sign_in_pm
from forumbot.console.passwords import hash_password, needs_rehash, verify_password
from forumbot.console.throttle import Throttle

log = logging.getLogger("forumbot")

#: how long a login lasts, seconds (the cookie's Max-Age and the signature's age limit)
SESSION_SECONDS = 12 * 3600
COOKIE = "forumbot_console"
#: failed logins allowed per account, and per address, within THROTTLE_SECONDS
ACCOUNT_FAILURES, ADDRESS_FAILURES, THROTTLE_SECONDS = 5, 20, 15 * 60
#: sign-in links asked for per account, and per address, within THROTTLE_SECONDS
ACCOUNT_LINKS, ADDRESS_LINKS = 3, 10
#: the session keys
_WHO, _SINCE, _NONCE, _EPOCH = "organiser", "since", "link_nonce", "epoch"


class ConsoleAuth:
    """Logins of the console over the seasons of ``source`` (a :class:`forumbot.console.source.SeasonSource`:
    who organises what, and each season's store for the sign-in link's private message).

    ``folder``: where the console file lives (the served directory; the season file's folder). ``public_url``:
    the console's address as organisers reach it (``https://console.example.org``): the base of the
    links the bot sends, and ``https://`` makes the cookie Secure. Without it, links are offered only to a
    browser that reached the console on a loopback address (the address in a link must not come from a
    request's Host header, which anyone can write). ``secure``: force the cookie's Secure flag on or off
    (None: from ``public_url``). ``clock``: seconds since the epoch (links, throttles; tests step it)."""

    def __init__(self, source: Any, folder: Path, *, public_url: str | None = None, secure: bool | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.source = source
        self.file = ConsoleFile(folder)
        self.public_url = public_url.rstrip("/") if public_url else None
        self.secure = secure if secure is not None else bool(self.public_url and self.public_url.startswith("https://"))
        self.links = LinkTokens(self.file, clock)
        self.clock = clock
        window = float(THROTTLE_SECONDS)
        self.account_failures = Throttle(ACCOUNT_FAILURES, window, clock)
        self.address_failures = Throttle(ADDRESS_FAILURES, window, clock)
        self.account_links = Throttle(ACCOUNT_LINKS, window, clock)
        self.address_links = Throttle(ADDRESS_LINKS, window, clock)

    # --- the interface ------------------------------------------------------------------------------
    def middleware(self) -> list[Middleware]:
        """The session middleware (signed cookie; see the module docstring). Raises
        :class:`~forumbot.console.console_file.ConsoleFileError` when the console file cannot hold the secret."""
        return [Middleware(SessionMiddleware, secret_key=self.file.secret(), session_cookie=COOKIE,
                           max_age=SESSION_SECONDS, same_site="lax", https_only=self.secure)]

    def routes(self) -> list[BaseRoute]:
        """``/login`` (GET: the page; POST: a password login), ``/login/link`` (POST: ask for a sign-in link),
        ``/login/link/{token}`` (GET: sign in with it) and ``/logout`` (GET: the page; POST: log out)."""
        from forumbot.console import login_pages

        pages = login_pages.LoginPages(self)
        return [
            Route("/login", pages.login, methods=["GET", "POST"]),
            Route("/login/link", pages.ask_link, methods=["POST"]),
            Route("/login/link/{token}", pages.use_link, methods=["GET"]),
            Route("/logout", pages.logout, methods=["GET", "POST"]),
        ]

    def organiser(self, request: Request) -> str | None:
        """The forum name of the organiser logged in on ``request``, or None (nobody is, or the login ended)."""
        session = request.scope.get("session")
        if not session:
            return None
        who, since = session.get(_WHO), session.get(_SINCE)
        if not isinstance(who, str) or not isinstance(since, (int, float)):
            return None
        if not 0 <= self.clock() - since <= SESSION_SECONDS:
            return None
        try:
            if session.get(_EPOCH) != self.file.epoch(who):
                return None  # logged out (in some browser) or a new password since
        except ConsoleFileError as exc:
            log.error("console: %s", exc)
            return None
        return who

    def may_steer(self, request: Request, season_id: str, organisers: list[str]) -> bool:
        """Whether the organiser logged in on ``request`` may see the private pages of season ``season_id`` (its
        name) and give it commands: one of its ``organisers`` (forum names) is logged in."""
        who = self.organiser(request)
        return who is not None and who in organisers

    def csrf_field(self, request: Request) -> Markup:
        """The hidden input holding the session's CSRF token, for every POST form."""
        return csrf.csrf_field(request.session)

    def check_csrf(self, request: Request, form: Any) -> bool:
        """Whether ``form`` (the posted form data) carries the session's CSRF token."""
        return csrf.check_csrf(request.session, form)

    # --- what the login pages use ------------------------------------------------------------------
    def organised(self) -> dict[str, list[Any]]:
        """Forum name -> the season entries (of ``source``) it organises, archived ones included."""
        out: dict[str, list[Any]] = {}
        for entry in self.source.entries():
            if entry.config is not None:
                for name in entry.config.organisers:
                    out.setdefault(name, []).append(entry)
        return out

    def throttled(self, request: Request, name: str, links: bool = False) -> float:
        """Seconds until ``name`` may try (again) from the request's address: 0.0 when it may now."""
        account, address = (self.account_links, self.address_links) if links else \
            (self.account_failures, self.address_failures)
        return max(account.wait(name.casefold()), address.wait(client_address(request)))

    def log_in(self, request: Request, name: str) -> None:
        """Start ``name``'s session on ``request``: a fresh session (nothing of the one before, which a visitor
        may have been handed, survives), a fresh CSRF token."""
        request.session.clear()
        request.session[_WHO] = name
        request.session[_SINCE] = self.clock()
        request.session[_EPOCH] = self.file.epoch(name)
        csrf.renew(request.session)
        self.account_failures.clear(name.casefold())
        log.info("console: %s logged in", name)

    def log_out(self, request: Request) -> None:
        """End the session of ``request`` and every other session of its organiser (in other browsers too)."""
        who = self.organiser(request)
        if who is not None:
            self.file.end_sessions(who)
            log.info("console: %s logged out", who)
        request.session.clear()
        csrf.renew(request.session)

    def password_login(self, request: Request, name: str, password: str) -> bool:
        """Whether ``name`` (an organiser of a season of the console) logs in with ``password``; a failure is
        counted against the account and the address (check :meth:`throttled` first)."""
        known = name in self.organised()
        stored = self.file.password_hash(name) if known else None  # ConsoleFileError: the page says the console failed
        if verify_password(stored, password):
            if stored is not None and needs_rehash(stored):
                self.file.set_password_hash(name, hash_password(password))
            return True
        self.account_failures.fail(name.casefold())
        self.address_failures.fail(client_address(request))
        # a name that organises nothing is not logged: it may be a password typed into the wrong field
        log.warning("console: a failed login as %s from %s", repr(name) if known else "a name that organises no season",
                    client_address(request))
        return False

    def link_base(self, request: Request) -> str | None:
        """The address the links the bot sends start with: ``public_url``, else the request's own when it came
        to a loopback address; None: links cannot be offered (the page says to set ``FORUMBOT_CONSOLE_URL``)."""
        if self.public_url:
            return self.public_url
        host = request.url.hostname or ""
        if host == "localhost" or _loopback(host):
            return str(request.base_url).rstrip("/")
        return None

    def send_link(self, request: Request, name: str) -> str:
        """Send ``name`` a sign-in link by private message, from the judge of a running season it organises.
        Returns what happened: ``"sent"`` (queued in that season's outbox), ``"no_season"`` (the name
        organises no season whose judge is running: nothing sent), ``"no_address"`` (see
        :meth:`link_base`). The request's session gets the nonce the link is bound to. Counts against the
        link throttles."""
        base = self.link_base(request)
        if base is None:
            return "no_address"
        self.account_links.fail(name.casefold())
        self.address_links.fail(client_address(request))
        found = self._sending_season(name)
        if found is None:
            return "no_season"
        config, store = found
        nonce = request.session.get(_NONCE)
        if not isinstance(nonce, str) or not nonce:
            nonce = request.session[_NONCE] = secrets.token_urlsafe(24)
        issued = self.links.issue(name, nonce, config.name)
        sign_in_pm(store, config, name, f"{base}/login/link/{issued.token}", issued.key, int(LINK_SECONDS // 60))
        log.info("console: a sign-in link for %s is queued in season %s", name, config.name)
        return "sent"

    def use_link(self, request: Request, token: str) -> tuple[str | None, str]:
        """Sign in with the link of ``token`` (see :meth:`LinkTokens.redeem`); on success the session is
        ``name``'s. Returns ``(name, "ok")`` or ``(None, why)``."""
        name, why = self.links.redeem(token, request.session.get(_NONCE))
        if name is not None:
            self.log_in(request, name)
        return name, why

    def _sending_season(self, name: str) -> tuple[Any, Any] | None:
        """A season ``name`` organises whose judge runs (not archived nor blocked, started, not over): its config
        and store."""
        for entry in self.organised().get(name, []):
            if entry.done or getattr(entry, "blocked", None):
                continue
            try:
                store = self.source.store(entry.config)
                bot = self.source.bot(entry.config) if store is not None else None
            except Exception as exc:  # a database that cannot be read: try the next season
                log.warning("console: season %s cannot send a sign-in link: %s", entry.config.name, exc)
                continue
            # not before the start: the start queues the thread only into an empty outbox (Bot._outbox_rows)
            if store is None or bot is None or not bot.started or bot.game.finished:
                continue
            return entry.config, store
        return None


def client_address(request: Request) -> str:
    """The address the request came from (behind a proxy: what uvicorn's forwarded-headers support made of
    ``X-Forwarded-For``, see docs/runtime.md)."""
    return request.client.host if request.client else "unknown"


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def safe_next(target: str | None) -> str:
    """Where to go after logging in: ``target`` when it is a path of this console (``/...``, not ``//host``
    nor a scheme), else ``/``: a login link must never send the organiser to another site."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def redirect(target: str) -> Response:
    return RedirectResponse(target, status_code=303)
