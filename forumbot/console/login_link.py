"""One-time sign-in links, sent to an organiser's forum account by private message.

A link is ``<console>/login/link/<token>``, the token 32 random bytes in hex. The console file
(:mod:`forumbot.console.console_file`) keeps only the SHA-256 of the token, with the organiser it signs in,
the SHA-256 of the nonce of the browser session that asked for it, and its expiry. A link signs in once
(its record is removed when used), before its expiry, and only in the browser that asked for it: a link
read by someone else (another organiser looking at the season's outbox, a forum administrator reading the
judge's messages) is worthless to them, and a link sent because a stranger typed an organiser's name
does not sign the organiser in anywhere but in the stranger's browser, which never sees the link.

The private message goes through the season's outbox (:meth:`forumbot.runtime.store.Store.queue`) with an
idempotency key of its own, so the season's delivery sends it once, in order, with its retries and checks:
nothing lost, nothing doubled. The token is stored before the message is queued: a crash between the two
leaves a record no link points to, which expires.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from forumbot.config import SeasonConfig
from forumbot.console.console_file import ConsoleFile
from forumbot.render import renderer
from forumbot.runtime.store import OutboxRow, Store

#: how long a sign-in link works, seconds
LINK_SECONDS = 15 * 60
#: the outbox template name of a sign-in private message (the console's outbox page shows its text hidden)
TEMPLATE = "console/sign_in_link"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class IssuedLink:
    """A link just made: ``token`` (goes into the link only), ``key`` (the outbox idempotency key of its
    private message), ``expires`` (seconds since the epoch)."""

    token: str
    key: str
    expires: float


class LinkTokens:
    """The sign-in links of one console file. ``clock``: seconds since the epoch (default :func:`time.time`:
    links outlive a restart, so their expiry is wall-clock time)."""

    def __init__(self, file: ConsoleFile, clock: Callable[[], float] = time.time, seconds: float = LINK_SECONDS) -> None:
        self.file, self.clock, self.seconds = file, clock, seconds

    def issue(self, name: str, nonce: str, season: str) -> IssuedLink:
        """A new link that signs ``name`` in, in the browser whose session holds ``nonce``, sent by
        ``season``'s judge. Expired links are dropped from the file at the same time."""
        token = secrets.token_hex(32)
        key = f"console-sign-in:{secrets.token_hex(12)}"
        now = self.clock()
        expires = now + self.seconds

        def edit(data: dict[str, Any]) -> None:
            links = data.setdefault("links", {})
            for digest in [d for d, rec in links.items() if rec.get("expires", 0) <= now]:
                del links[digest]
            links[_digest(token)] = {"name": name, "nonce": _digest(nonce), "expires": expires, "season": season,
                                     "key": key}

        self.file.change(edit)
        return IssuedLink(token, key, expires)

    def redeem(self, token: str, nonce: str | None) -> tuple[str | None, str]:
        """Use the link of ``token`` in the browser whose session holds ``nonce``: ``(name, "ok")`` once,
        and the link is gone; else ``(None, why)``, why one of ``"unknown"`` (never issued, or used
        already), ``"expired"`` (removed now) and ``"other_browser"`` (kept: it still works in the browser
        that asked for it)."""
        digest = _digest(token)
        now = self.clock()

        def edit(data: dict[str, Any]) -> tuple[str | None, str]:
            links = data.get("links", {})
            rec = links.get(digest)
            if not isinstance(rec, dict):
                return None, "unknown"
            if rec.get("expires", 0) <= now:
                del links[digest]
                return None, "expired"
            if not nonce or not hmac.compare_digest(str(rec.get("nonce", "")), _digest(nonce)):
                return None, "other_browser"
            del links[digest]
            return str(rec["name"]), "ok"

        return self.file.change(edit)


def sign_in_pm(store: Store, config: SeasonConfig, recipient: str, link: str, key: str,
               minutes: int = LINK_SECONDS // 60) -> None:
    """Queue the private message that carries ``link`` to ``recipient`` in the season of ``store`` (its
    config ``config``: locale, markup, template overrides), under the idempotency key ``key``: queued once,
    however often this is called. The text is the season's ``common/console_sign_in`` template."""
    r = renderer(config.locale, config.effective_markup, config.template_dir,
                 charset=config.forum.charset if config.forum.engine == "discuz" else None,
                 tables=config.forum.engine != "phpbb")
    context = {"season": config.name}
    row = OutboxRow(season_id=store.season_id, key=key, kind="pm", template=TEMPLATE, recipient=recipient,
                    subject=r.render("common/pm_subject", {}, **context).strip(),
                    body=r.render("common/console_sign_in", {"link": link, "minutes": minutes,
                                                             "organiser": recipient}, **context))
    store.queue([row])
