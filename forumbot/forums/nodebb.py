"""The :class:`~forumbot.forums.base.Forum` adapter for NodeBB 4, through its REST API (``/api/v3``) and read
routes (``/api/topic``, ``/api/category``, ``/api/user``, ``/api/config``); chats are the private messages.

Session
    Either a bearer token (``auth = "token"``: an administrator issues it for the judge's uid in the ACP,
    *API Access*; the secret of the settings is then the token) or the judge's password (``auth =
    "session"``): ``GET /api/config`` gives the ``csrf_token`` and the ``express.sid`` cookie, ``POST
    /api/v3/utilities/login`` logs in, a second ``/api/config`` gives the logged-in session's token, sent as
    ``x-csrf-token`` on every write. A bearer request carries no cookie (NodeBB demands CSRF of a bearer
    write that also carries a session cookie). The User-Agent has no "bot" in it: NodeBB takes such a
    client for a crawler, gives it no CSRF token and drops its session (the login still answers 200).
    Every request asks for ``lang=en-GB`` so refusals come in the English :mod:`.nodebb_api` reads.

Reading
    ``GET /api/topic/{tid}?page=N``: ``postsPerPage`` posts a page (20), each with ``pid``, ``index`` (0
    for the first post), exact ``timestamp`` and ``edited`` (ms, 0 when never edited) and rendered HTML.
    The cursor remembers the last post returned and its index, so a poll with nothing new is one GET of
    that page; ``pagination.pageCount`` tells whether later pages exist.

    The inbox is ``GET /api/v3/chats``: rooms by latest activity, each with a teaser of its last message
    (sender, time). Only rooms whose teaser changed, or that hold messages the runtime has not yet
    acknowledged (ids above the ``after_message_id`` passed in), are opened: ``GET
    /api/v3/chats/{roomId}/messages`` gives the newest 50, oldest first; older ones are read while all of
    a page is new. Message ids (``mid``) grow across rooms. A poll with nothing new is one GET.

Writing
    NodeBB spaces posts by ``postDelay`` (10 s; 120 s, ``newbiePostDelay``, while the account's reputation is
    below 3; administrators and the category's moderators are exempt) and chat messages by
    ``chatMessageDelay`` (2 s; 120 s for a newbie), each counted in milliseconds from the previous one. The
    adapter keeps two clocks, counted from the answer to the previous write of that kind;
    :meth:`write_wait_seconds` gives the shorter wait (the runtime asks without knowing the kind) and a
    write still sleeps what its own kind needs. A refused delay raises :class:`RateLimited` and raises that
    clock's interval to the delay NodeBB named. A post held in the post queue (HTTP 202) raises
    :class:`.errors.PostQueued`; the same text to the same thread is not queued twice by this adapter.
    A private message longer than the forum's ``maximumChatMessageLength`` (``/api/config``; 1000 when it
    does not say; ``max_chat_length`` lowers it) goes as several chat messages; the subject is its first
    line, in bold, and each part of a split message starts with it and its number (``**subject** (2/2)``).
"""

from __future__ import annotations

import html
import json
import logging
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import httpx

from forumbot.forums import nodebb_api as api
from forumbot.forums._http import Transport
from forumbot.forums.base import PrivateMessage, SentMessage, ThreadPost, fingerprint, stored_subject
from forumbot.forums.errors import (
    AuthFailed,
    BrokenPage,
    LayoutChanged,
    NoSuchUser,
    NotAllowed,
    NotFound,
    PostQueued,
    RateLimited,
    WriteUncertain,
)

log = logging.getLogger(__name__)

#: No "bot", "spider", "crawl" nor a library's name: NodeBB's spider list would treat the judge as a crawler
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) ForumJudge/0.1"
_CURSOR_KIND = "nodebb/1"
_ROOMS_PER_PAGE = 50
_MAX_ROOM_PAGES = 20
_MESSAGES_PER_PAGE = 50  # what GET /chats/{roomId}/messages returns (chatsAPI.listMessages)
_MAX_MESSAGE_PAGES = 40
_FIND_THREAD_PAGES = 3


def _at(ms: Any) -> datetime:
    return datetime.fromtimestamp(api.to_int(ms) / 1000.0, UTC)


def _newbie_delay(cfg: dict[str, Any]) -> str:
    """``newbiePostDelay`` as this forum has it, for the check's warnings: the value of its ``/api/config``
    when the forum lists it there; else (NodeBB 4 does not show its post delays to a user: a recorded
    ``/api/config``, tests/forums/nodebb/captures) no number, as the stock 120 s may not be this forum's."""
    value = cfg.get("newbiePostDelay")
    if value is not None and api.to_int(value, -1) >= 0:
        return f"newbiePostDelay ({api.to_int(value)} s on this forum)"
    return ("newbiePostDelay (which the forum does not show the judge: 120 s in a stock NodeBB; the administrator "
            "sees it in ACP → Settings → Posts → Posting Restrictions)")


class NodeBBForum:
    """A NodeBB 4 forum seen through the judge's account. See :class:`forumbot.forums.base.Forum`.

    ``base_url`` is the forum root (``https://forum.example.com``); ``secret`` the password (``auth =
    "session"``) or the bearer token (``auth = "token"``); ``min_write_interval_seconds`` the spacing of
    posts (NodeBB's ``postDelay``, 10 s; 0 for an administrator judge) and ``chat_interval_seconds`` of chat
    messages (``chatMessageDelay``, 2 s); ``max_chat_length`` a chat message's most characters when lower than
    the forum's ``maximumChatMessageLength`` (None: the forum's, as ``/api/config`` gives it after the login;
    :data:`~forumbot.forums.nodebb_api.MAX_CHAT_LENGTH` until then or when it does not say).
    ``transport``, ``sleep`` and ``monotonic`` can be replaced in tests.
    """

    engine = "nodebb"

    def __init__(
        self,
        base_url: str,
        username: str,
        secret: str,
        *,
        auth: str = "session",
        timeout_seconds: float = 20.0,
        min_write_interval_seconds: float = api.POST_DELAY,
        chat_interval_seconds: float = api.CHAT_DELAY,
        max_chat_length: int | None = None,
        retries: int = 3,
        backoff_seconds: float = 0.5,
        login_lock_seconds: float = 3600.0,
        request_horizon_seconds: float = 60.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        if auth not in ("session", "token"):
            raise ValueError(f"auth must be 'session' or 'token', not {auth!r}")
        self.base_url = base_url.rstrip("/")
        self.username = username
        self.__secret = secret
        self.auth = auth
        self.http = Transport(self.base_url, timeout_seconds=timeout_seconds, min_write_interval_seconds=0.0,
                              retries=retries, backoff_seconds=backoff_seconds, sleep=sleep, clock=monotonic,
                              transport=transport)
        self.http.client.headers["User-Agent"] = USER_AGENT
        self.post_interval = float(min_write_interval_seconds)
        self.chat_interval = float(chat_interval_seconds)
        self.chat_length_setting = int(max_chat_length) if max_chat_length else None
        self.max_chat_length = self.chat_length_setting or api.MAX_CHAT_LENGTH
        self.login_lock_seconds = float(login_lock_seconds)
        self.request_horizon_seconds = float(request_horizon_seconds)
        self._sleep = sleep
        self._monotonic = monotonic
        self._last_post: float | None = None
        self._last_chat: float | None = None
        self._last_room: float | None = None  # NodeBB spaces new chat rooms by the chat delay too, on their own
        self._csrf = ""
        self._uid = 0
        self._user: str | None = None
        self._config: dict[str, Any] = {}
        self._refused: tuple[float, str] | None = None
        self._uids: dict[str, tuple[int, str]] = {}  # name -> (uid, name as the forum spells it)
        self._threads: dict[int, dict[str, int]] = {}  # tid -> {"pid", "index"} of the last post returned
        self._rooms: dict[int, dict[str, Any]] = {}  # roomId -> {"marker", "last"} (last: newest mid from others)
        #: the last inbox read saw a room older than the chat list's teaser (see base.Forum): not complete
        self.inbox_incomplete = False
        self._queued: dict[str, str] = {}  # "tid:fingerprint" -> NodeBB's queue id
        self._newbie: bool | None = None  # held to NodeBB's newbie chat delay? (asked on a chat refusal)

    def __repr__(self) -> str:
        return f"NodeBBForum({self.base_url!r}, user={self.username!r}, auth={self.auth!r})"

    # -- transport ---------------------------------------------------------------------------------------

    @property
    def request_count(self) -> int:
        """HTTP requests sent so far (retries included)."""
        return self.http.request_count

    def close(self) -> None:
        """Closes the HTTP connections."""
        self.http.close()

    def _wait(self, last: float | None, interval: float) -> float:
        if last is None or interval <= 0:
            return 0.0
        return max(0.0, last + interval + api.PACING_MARGIN - self._monotonic())

    def write_wait_seconds(self) -> float:
        """Seconds until the next write may start: the shorter of the post and the chat wait (a write of
        the other kind still sleeps what it needs)."""
        return min(self._wait(self._last_post, self.post_interval), self._wait(self._last_chat, self.chat_interval))

    def _headers(self, write: bool) -> dict[str, str]:
        if self.auth == "token":
            self.http.clear_cookies()  # a bearer write with a session cookie would need CSRF
            return {"Authorization": f"Bearer {self.__secret}"}
        return {"x-csrf-token": self._csrf} if write and self._csrf else {}

    def _get(self, path: str, params: Mapping[str, Any] | None = None) -> api.Answer:
        query = {**(params or {}), "lang": "en-GB"}
        return api.parse_answer(self._send_get(path, query))

    def _send_get(self, path: str, query: Mapping[str, Any]) -> httpx.Response:
        headers = self._headers(False)
        if headers:
            self.http.client.headers.update(headers)
        try:
            return self.http.get(path, params=query)
        finally:
            for key in headers:
                self.http.client.headers.pop(key, None)

    def _read(self, path: str, params: Mapping[str, Any] | None = None, *, what: str) -> Any:
        """A logged-in GET answering 200 with JSON; logs in again once when NodeBB says the session is gone.
        Raises NotFound (404), NotAllowed (403), LayoutChanged (not JSON)."""
        if self._uid <= 0:
            self.login()
        answer = self._get(path, params)
        if answer.status in (401, 403) and self._relogin_needed(answer):
            self.login()
            answer = self._get(path, params)
        if answer.status == 404:
            raise NotFound(f"{what} does not exist on {self.base_url} ({answer.message or 'HTTP 404'})")
        if answer.status in (401, 403):
            raise NotAllowed(f"{what}: the forum refused the judge's account ({answer.message or answer.status})")
        if not answer.json and answer.ok:  # cut JSON or a proxy's page with 200: read again at the next poll
            raise BrokenPage(f"{self.base_url}{path}", f"a JSON answer (got HTTP {answer.status}: {answer.text[:100]!r})")
        if not answer.json or not answer.ok or answer.data is None:
            raise LayoutChanged(f"{self.base_url}{path}", f"a JSON answer (got HTTP {answer.status}: {answer.text[:100]!r})")
        return answer.data

    def _relogin_needed(self, answer: api.Answer) -> bool:
        """NodeBB refused the request for the session: 401, or a session write's 403 — a plain-text
        "Forbidden" when the CSRF token or the session cookie is gone (nothing was done)."""
        low = (answer.message or answer.text).lower()
        if answer.status == 403 and not answer.json:
            return self.auth == "session"
        return answer.status == 401 or "csrf" in low or "logged in" in low or "login session" in low

    def _write(self, method: str, path: str, body: Mapping[str, Any] | None, *, what: str,
               kind: str = "post") -> api.Answer:
        """A paced JSON write; a refusal for a lost session or CSRF token (which NodeBB did not act on)
        logs in again and sends it once more. Returns the answer, refused or not."""
        if self._uid <= 0:
            self.login()
        answer = self._write_once(method, path, body, kind)
        if answer.status in (401, 403) and self._relogin_needed(answer):
            self.login()
            answer = self._write_once(method, path, body, kind)
        return answer

    def _write_once(self, method: str, path: str, body: Mapping[str, Any] | None, kind: str,
                    expect_json: bool = True) -> api.Answer:
        last, interval = {"chat": (self._last_chat, self.chat_interval), "room": (self._last_room, self.chat_interval),
                          "post": (self._last_post, self.post_interval)}.get(kind, (None, 0.0))
        wait = self._wait(last, interval)
        if wait > 0:
            log.debug("waiting %.1f s before the next %s", wait, kind)
            self._sleep(wait)
        headers = {"Content-Type": "application/json", **self._headers(True)}
        content = json.dumps(body or {}, ensure_ascii=False).encode("utf-8")
        try:
            response = self.http.post(path, content=content, headers=headers, params={"lang": "en-GB"},
                                      method=method)
        finally:
            if kind == "chat":
                self._last_chat = self._monotonic()
            elif kind == "room":
                self._last_room = self._monotonic()
            elif kind == "post":
                self._last_post = self._monotonic()
        answer = api.parse_answer(response)
        if not answer.json and expect_json and answer.status not in (401, 403):  # 403 "Forbidden": CSRF, not done
            raise WriteUncertain(f"the forum answered {method} {path} with HTTP {answer.status} and no JSON "
                                 f"({answer.text[:80]!r}); the write may or may not have been done")
        return answer

    def _raise_for(self, answer: api.Answer, what: str, *, chat: bool = False) -> None:
        error = api.refusal(answer, what)
        if chat and isinstance(error, RateLimited) and self._chat_newbie():
            error = api.refusal(answer, what, chat=True)
        if isinstance(error, RateLimited):  # learn the forum's real delay for this kind of write
            if chat:
                self.chat_interval = max(self.chat_interval, error.wait_seconds)
            else:
                self.post_interval = max(self.post_interval, error.wait_seconds)
        raise error

    def _chat_newbie(self) -> bool:
        """Whether NodeBB holds the judge to ``newbieChatMessageDelay`` (120 s) rather than
        ``chatMessageDelay`` (2 s): not an administrator or moderator, reputation below 3 (the chat refusal
        does not say which delay it applied). Asked once, on the first chat refusal."""
        if self._newbie is None:
            try:
                status = self.judge_status()
            except (NotFound, NotAllowed, LayoutChanged):
                return True
            self._newbie = not status["privileged"] and api.to_int(status["reputation"]) < 3
        return self._newbie

    def judge_status(self) -> dict[str, Any]:
        """The judge's standing as NodeBB's profile page shows it to the judge (``GET /api/user/{slug}``):
        ``{uid, username, reputation, postcount, groups, administrator, global_moderator, moderator,
        privileged}`` (privileged: an administrator or a moderator, exempt from the post queue, the new-user
        and newbie chat delays and recipients' chat restrictions). Raises NotFound, NotAllowed."""
        if self._uid <= 0:
            self.login()
        slug = str(self.account().get("userslug") or self.whoami())
        data = self._read(f"/api/user/{quote(slug, safe='')}", what=f"the profile of {slug}")
        if not isinstance(data, dict):
            raise LayoutChanged(f"{self.base_url}/api/user/{slug}", "a profile")
        admin, gmod = bool(data.get("isAdmin")), bool(data.get("isGlobalModerator"))
        mod = bool(data.get("isModerator"))
        return {"uid": self._uid, "username": self.whoami(), "reputation": api.to_int(data.get("reputation")),
                "postcount": api.to_int(data.get("postcount")),
                "groups": [html.unescape(str(g)) for g in data.get("groupTitleArray") or []],
                "administrator": admin, "global_moderator": gmod, "moderator": mod,
                "privileged": admin or gmod or mod}

    # -- session ---------------------------------------------------------------------------------------

    def login(self) -> None:
        """Logs in (session) or checks the token, and reads who the judge is. Raises AuthFailed (also
        while a refused login's wait runs: NodeBB locks an account after ``loginAttempts`` failures an
        hour), ForumDown."""
        if self._refused is not None:
            left = self._refused[0] + self.login_lock_seconds - self._monotonic()
            if left > 0:
                raise AuthFailed(f"{self._refused[1]} (not trying again for {left / 60:.0f} min: NodeBB locks an "
                                 "account after 5 failed logins)")
        self._uid, self._user, self._csrf = 0, None, ""
        if self.auth == "token":
            answer = self._get("/api/config")
            self._take_config(answer)
            if self._uid <= 0:
                self._refuse(f"the forum at {self.base_url} did not accept the judge's bearer token (HTTP "
                             f"{answer.status}: {answer.message or 'a guest session'}); issue one for the judge's "
                             "uid in the ACP (Settings → API Access)")
            return
        self.http.clear_cookies()
        answer = self._get("/api/config")
        if not answer.json or not isinstance(answer.data, dict):
            raise LayoutChanged(f"{self.base_url}/api/config", "a JSON configuration (is this a NodeBB forum?)")
        self._csrf = str(answer.data.get("csrf_token") or "")
        if not self._csrf:
            raise AuthFailed(f"the forum at {self.base_url} gave no CSRF token: it takes this client for a crawler "
                             "(its User-Agent) or refuses guests")
        login = self._write_once("POST", "/api/v3/utilities/login",
                                 {"username": self.username, "password": self.__secret}, kind="login",
                                 expect_json=False)
        if not login.ok:  # a wrong password: HTTP 403, plain text "[[error:invalid-login-credentials]]"
            self._refuse(f"the forum at {self.base_url} refused the login of {self.username!r} (HTTP "
                         f"{login.status}: {login.message or login.text[:80]}): wrong user name or password, or "
                         "a locked account")
        self._take_config(self._get("/api/config"))
        if self._uid <= 0:
            self._refuse(f"the forum at {self.base_url} did not keep the session of {self.username!r} after the "
                         "login (a User-Agent NodeBB takes for a crawler does this)")

    def _take_config(self, answer: api.Answer) -> None:
        data = answer.data if answer.json and isinstance(answer.data, dict) else {}
        self._config = data
        self._uid = api.to_int(data.get("uid"))
        forum_limit = api.to_int(data.get("maximumChatMessageLength"))
        if forum_limit > 0:  # the forum's own limit, when it says (a setting may only lower it)
            setting = self.chat_length_setting
            self.max_chat_length = min(setting, forum_limit) if setting else forum_limit
        if self.auth == "session":
            self._csrf = str(data.get("csrf_token") or "")
        if self._uid > 0:
            self._refused = None
            self._user = None

    def _refuse(self, message: str) -> None:
        self._refused = (self._monotonic(), message)
        raise AuthFailed(message)

    def account(self) -> dict[str, Any]:
        """The judge as NodeBB shows it (``GET /api/user/uid/{uid}``): ``uid``, ``username``, ``reputation``,
        ``groupTitleArray``, ``isAdmin``-like flags where the forum gives them (logs in if needed)."""
        if self._uid <= 0:
            self.login()
        data = self._read(f"/api/user/uid/{self._uid}", what=f"user {self._uid}")
        if isinstance(data, dict):
            self._user = html.unescape(str(data.get("username") or self.username))
            return data
        raise LayoutChanged(f"{self.base_url}/api/user/uid/{self._uid}", "a user object")

    def whoami(self) -> str:
        """The user name the forum shows for the logged-in account."""
        if self._user is None:
            self.account()
        assert self._user is not None
        return self._user

    def config(self) -> dict[str, Any]:
        """NodeBB's ``/api/config`` as the judge sees it (``postsPerPage``, ``maximumChatMessageLength``, …)."""
        if self._uid <= 0:
            self.login()
        return dict(self._config)

    def check_report(self, players: int | None = None) -> list[str]:
        """Lines for ``forumbot forum-check``: the forum's settings that matter to a season (from
        ``/api/config``) and the judge's standing (:meth:`judge_status`), with a WARNING and the setting to
        change for each that will slow or stop the judge or the players. ``players``: role PMs on day 1."""
        cfg, status = self.config(), self.judge_status()
        signed = "a bearer token" if self.auth == "token" else "a session"
        first = (f"NodeBB: {api.to_int(cfg.get('postsPerPage'), 20)} posts a page, post queue "
                 f"{'on' if cfg.get('postQueue') else 'off'}, minimumPostLength {cfg.get('minimumPostLength', '?')}, "
                 f"chat {'disabled' if cfg.get('disableChat') else 'on'} (maximumChatMessageLength "
                 f"{cfg.get('maximumChatMessageLength', '?')}); signed in with {signed}.")
        lines = [first]
        roles = [r for r, on in (("administrator", status["administrator"]), ("global moderator",
                 status["global_moderator"]), ("moderator", status["moderator"])) if on]
        lines.append(f"Judge account: uid {status['uid']}, reputation {status['reputation']}, {status['postcount']} posts, "
                     f"groups {', '.join(status['groups']) or 'none'}; {' and '.join(roles) or 'not a moderator'}.")
        if cfg.get("disableChat"):
            lines.append("  WARNING: chats are disabled (ACP → Settings → Chat): the judge cannot send roles or read "
                         "commands by private message.")
        newbie = _newbie_delay(cfg)
        if not status["privileged"]:
            lines.append("  WARNING: the judge is neither an administrator nor a moderator. NodeBB then puts its "
                         "first posts in the post queue (postQueue, until reputation ≥ postQueueReputationThreshold), "
                         f"spaces its posts by postDelay or {newbie} while reputation < 3 and its "
                         "chat messages by newbieChatMessageDelay (120 s), and players' chat settings can refuse it. "
                         "Make the judge a Global Moderator (ACP → Manage → Groups → Global Moderators) or a "
                         "moderator of the game's category.")
            if status["reputation"] < 3 and players:
                lines.append(f"  With these delays, day 1's {players} role messages take at least "
                             f"{players * 2} minutes.")
        else:
            lines.append("  The judge is exempt from the post queue, postDelay, the new-user delays and players' "
                         "chat restrictions; its chat messages are 2 s apart (chatMessageDelay)"
                         + (": min_write_interval_seconds = 0 may be set (posts need no spacing)."
                            if self.post_interval > 0 and (status["administrator"] or status["moderator"]) else "."))
        least = api.to_int(cfg.get("minimumPostLength"), api.MIN_POST_LENGTH)
        if least > 2:
            lines.append(f"  WARNING: minimumPostLength is {least}: NodeBB refuses a player's short vote such as "
                         "\"投 李四\" or \"vote x\"; set it to 1 (ACP → Settings → Posts → Posting Restrictions).")
        if cfg.get("postQueue"):
            lines.append("  WARNING: the post queue is on: a new player's first post waits for a moderator's approval "
                         "and counts only from then; switch it off for the game's category or the forum "
                         "(ACP → Settings → Posts → Post Queue), or approve quickly. Players with reputation below 3 "
                         f"also wait {newbie} between posts unless it is lowered.")
        return lines

    def _lookup(self, name: str) -> tuple[int, str] | None:
        if name in self._uids:
            return self._uids[name]
        if self._uid <= 0:
            self.login()
        answer = self._get(f"/api/user/username/{quote(name, safe='')}")
        if answer.status == 404:
            return None
        if not answer.ok or not isinstance(answer.data, dict) or api.to_int(answer.data.get("uid")) <= 0:
            raise NotAllowed(f"the forum did not say whether the account {name!r} exists "
                             f"(HTTP {answer.status}: {answer.message or answer.text[:60]})")
        found = (api.to_int(answer.data["uid"]), html.unescape(str(answer.data.get("username") or name)))
        self._uids[name] = found
        return found

    def find_user(self, name: str) -> str | None:
        """The account ``name`` as the forum spells it (``GET /api/user/username/{name}``), or None (404)."""
        found = self._lookup(name)
        return found[1] if found else None

    # -- reading a thread ------------------------------------------------------------------------------

    def _per_page(self) -> int:
        return api.to_int(self._config.get("postsPerPage"), 20) or 20

    def _topic_page(self, tid: int, page: int) -> dict[str, Any]:
        data = self._read(f"/api/topic/{tid}", {"page": page}, what=f"thread {tid}")
        if not isinstance(data, dict) or not isinstance(data.get("posts"), list):
            raise LayoutChanged(f"{self.base_url}/api/topic/{tid}?page={page}", "posts")
        return data

    def thread_posts(self, thread_id: int, after_post_id: int | None = None) -> list[ThreadPost]:
        """Posts of the thread newer than ``after_post_id``, oldest first (see the module docstring).
        Raises NotFound."""
        tid = int(thread_id)
        after = int(after_post_id) if after_post_id is not None else None
        page = 1
        hint = self._threads.get(tid)
        if after is not None and hint is not None and hint["pid"] <= after:
            page = hint["index"] // self._per_page() + 1
        elif after is not None:
            page = self._page_of(tid, after)
        out: dict[int, ThreadPost] = {}
        last: tuple[int, int] | None = None
        located = after is None or page == 1  # reading forward from where the post ``after`` is
        for _ in range(10_000):
            data = self._topic_page(tid, page)
            posts = [p for p in data["posts"] if isinstance(p, dict)]
            pages = api.to_int((data.get("pagination") or {}).get("pageCount"), 1)
            if not posts and page > max(pages, 1) and not located:  # the thread shrank below the hint's page
                page = max(pages, 1)
                continue
            if not located and posts and all(api.to_int(p.get("pid")) > after for p in posts):  # type: ignore[operator]
                page -= 1  # posts were purged and the thread moved: step back until the known post shows
                located = page == 1
                continue
            located = True
            for p in posts:
                pid = api.to_int(p.get("pid"))
                if pid <= 0:
                    continue
                if last is None or api.to_int(p.get("index")) >= last[1]:
                    last = (pid, api.to_int(p.get("index")))
                if (after is None or pid > after) and not api.to_int(p.get("deleted")):
                    out[pid] = self._post(p)
            if page >= pages or not posts:
                break
            page += 1
        if last is not None:  # the hint: the post with the highest index read, wherever the poll began
            self._threads[tid] = {"pid": last[0], "index": last[1]}
        return [out[k] for k in sorted(out)]

    def _page_of(self, tid: int, pid: int) -> int:
        """The page holding post ``pid`` (``GET /api/v3/posts/{pid}/index``), 1 when the forum cannot say."""
        answer = self._get(f"/api/v3/posts/{pid}/index")
        if answer.ok and isinstance(answer.data, dict) and "index" in answer.data:
            return api.to_int(answer.data.get("index")) // self._per_page() + 1
        return 1

    def _post(self, p: Mapping[str, Any]) -> ThreadPost:
        user: Mapping[str, Any] = p["user"] if isinstance(p.get("user"), dict) else {}
        content = str(p.get("content") or "")
        return ThreadPost(api.to_int(p.get("pid")), html.unescape(str(user.get("username") or "")),
                          _at(p.get("timestamp")), api.post_text(content), content, api.to_int(p.get("edited")) > 0)

    # -- the inbox -------------------------------------------------------------------------------------

    def private_messages(self, after_message_id: int | None = None) -> list[PrivateMessage]:
        """Chat messages the judge received with ``mid`` above ``after_message_id``, oldest first (see the
        module docstring); the judge's own messages and NodeBB's system messages are left out."""
        after = int(after_message_id) if after_message_id is not None else 0
        out: dict[int, PrivateMessage] = {}
        stale = False
        for page in range(1, _MAX_ROOM_PAGES + 1):
            data = self._read("/api/v3/chats", {"page": page, "perPage": _ROOMS_PER_PAGE}, what="the chat list")
            rooms = [r for r in (data.get("rooms") if isinstance(data, dict) else None) or [] if isinstance(r, dict)]
            opened_last = False
            for room in rooms:
                rid = api.to_int(room.get("roomId"))
                marker = self._marker(room)
                known = self._rooms.get(rid)
                if known is not None and known["marker"] == marker and known["last"] <= after:
                    opened_last = False
                    continue
                since = min(known["last"], after) if known else after
                newest, latest = self._read_room(rid, since, out, after)
                teaser: Mapping[str, Any] = room["teaser"] if isinstance(room.get("teaser"), dict) else {}
                if latest < api.to_int(teaser.get("timestamp")):
                    # the room's answer is older than the list's teaser (a cache's copy): read it again next
                    # poll, and this read must not count as complete (a higher mid would pass the missing one)
                    stale, marker = True, ""
                self._rooms[rid] = {"marker": marker, "last": newest}
                opened_last = True
            if len(rooms) < _ROOMS_PER_PAGE or not opened_last:
                break
        self.inbox_incomplete = stale
        return [out[k] for k in sorted(out)]

    @staticmethod
    def _marker(room: Mapping[str, Any]) -> str:
        teaser: Mapping[str, Any] = room["teaser"] if isinstance(room.get("teaser"), dict) else {}
        return f"{api.to_int(teaser.get('timestamp'))}:{api.to_int(teaser.get('fromuid'))}"

    def _read_room(self, rid: int, since: int, out: dict[int, PrivateMessage], after: int) -> tuple[int, int]:
        """Reads room ``rid`` back to the first message at or below ``since``; adds the received messages above
        ``after`` to ``out``; returns the newest received mid (``since`` when none) and the timestamp (ms) of
        the room's newest message shown, the judge's own included (0 when none)."""
        newest, latest = since, 0
        for page in range(_MAX_MESSAGE_PAGES):
            data = self._read(f"/api/v3/chats/{rid}/messages", {"start": page * _MESSAGES_PER_PAGE},
                              what=f"chat room {rid}")
            messages = [m for m in (data.get("messages") if isinstance(data, dict) else None) or []
                        if isinstance(m, dict)]
            for m in messages:
                mid = api.to_int(m.get("mid") or m.get("messageId"))
                latest = max(latest, api.to_int(m.get("timestamp")))
                if mid <= 0 or api.to_int(m.get("fromuid")) == self._uid or m.get("system") or m.get("deleted"):
                    continue
                newest = max(newest, mid)
                if mid > after:
                    sender: Mapping[str, Any] = m["fromUser"] if isinstance(m.get("fromUser"), dict) else {}
                    out[mid] = PrivateMessage(mid, html.unescape(str(sender.get("username") or "")),
                                              _at(m.get("timestamp")), "", api.post_text(str(m.get("content") or "")),
                                              rid)
            mids = [api.to_int(m.get("mid") or m.get("messageId")) for m in messages]
            if len(messages) < _MESSAGES_PER_PAGE or (mids and min(mids) <= since):
                break
        return newest, latest

    # -- writing ---------------------------------------------------------------------------------------

    def reply(self, thread_id: int, body: str) -> int:
        """Posts ``body`` (Markdown) in the thread; returns the new post id. Raises NotFound, NotAllowed
        (locked thread, no privilege), :class:`.errors.PostQueued`, RateLimited (post delays),
        :class:`.errors.PostTooShort` or SendFailed."""
        tid = int(thread_id)
        what = f"the reply in thread {tid}"
        self._not_queued_again(tid, body, what)
        answer = self._write("POST", f"/api/v3/topics/{tid}", {"content": body}, what=what)
        self._check_queued(answer, tid, body, what)
        pid = api.to_int((answer.data or {}).get("pid")) if isinstance(answer.data, dict) else 0
        if answer.ok and pid > 0:
            index = api.to_int(answer.data.get("index"), -1)
            hint = self._threads.get(tid)
            if index >= 0 and (hint is None or index == hint["index"] + 1):
                self._threads[tid] = {"pid": max(pid, hint["pid"] if hint else 0), "index": index}
            return pid
        if answer.ok:
            raise WriteUncertain(f"{what}: the forum answered without a post id")
        self._raise_for(answer, what)
        raise AssertionError  # pragma: no cover (_raise_for raises)

    def _not_queued_again(self, tid: int, body: str, what: str) -> None:
        key = f"{tid}:{fingerprint(body)}"
        if key in self._queued:
            raise PostQueued(f"{what} is already in NodeBB's post queue (id {self._queued[key]}) waiting for a "
                                 "moderator; not sent again", queue_id=self._queued[key])

    def _check_queued(self, answer: api.Answer, tid: int, body: str, what: str) -> None:
        data = answer.data if isinstance(answer.data, dict) else {}
        if answer.status == 202 or data.get("queued"):
            qid = str(data.get("id") or "")
            self._queued[f"{tid}:{fingerprint(body)}"] = qid
            raise PostQueued(
                f"{what} was put in NodeBB's post queue (id {qid}) and shows only once a moderator approves it; "
                "exempt the judge: make it a member of a group in groupsExemptFromPostQueue (administrators, "
                "Global Moderators), a moderator of the category, or give it reputation ≥ "
                "postQueueReputationThreshold; or switch postQueue off", queue_id=qid)

    def create_thread(self, forum_id: int, subject: str, body: str) -> int:
        """Opens a topic in category ``forum_id`` (cid); returns its tid. Raises as :meth:`reply`."""
        cid = int(forum_id)
        what = f"the new thread in category {cid}"
        self._not_queued_again(-cid, body, what)
        answer = self._write("POST", "/api/v3/topics", {"cid": cid, "title": subject, "content": body}, what=what)
        self._check_queued(answer, -cid, body, what)
        data = answer.data if isinstance(answer.data, dict) else {}
        tid = api.to_int(data.get("tid"))
        if answer.ok and tid > 0:
            return tid
        if answer.ok:
            raise WriteUncertain(f"{what}: the forum answered without a thread id")
        if answer.status == 404 or "category does not exist" in answer.message.lower():
            raise NotFound(f"{what} was refused: {answer.message or 'HTTP 404'} (no such category)")
        self._raise_for(answer, what)
        raise AssertionError  # pragma: no cover

    def edit_post(self, post_id: int, body: str) -> None:
        """Replaces the text of one of the judge's posts (``PUT /api/v3/posts/{pid}``). Raises NotFound or
        NotAllowed (another's post, the edit window of ``postEditDuration`` passed)."""
        pid = int(post_id)
        what = f"the edit of post {pid}"
        answer = self._write("PUT", f"/api/v3/posts/{pid}", {"content": body}, what=what, kind="edit")
        if answer.ok:
            return
        if answer.status == 404 or "post does not exist" in answer.message.lower():
            raise NotFound(f"{what} was refused: {answer.message or 'HTTP 404'}")
        error = api.refusal(answer, what)
        raise error if isinstance(error, (NotFound, RateLimited, NotAllowed)) else NotAllowed(str(error))

    def lock_thread(self, thread_id: int) -> None:
        """Locks the thread (``PUT /api/v3/topics/{tid}/lock``). Raises NotAllowed without moderator rights."""
        self._lock(int(thread_id), "PUT", "lock")

    def unlock_thread(self, thread_id: int) -> None:
        """Unlocks the thread (``DELETE /api/v3/topics/{tid}/lock``). Raises NotAllowed without moderator rights."""
        self._lock(int(thread_id), "DELETE", "unlock")

    def _lock(self, tid: int, method: str, verb: str) -> None:
        what = f"{verb}ing thread {tid}"
        answer = self._write(method, f"/api/v3/topics/{tid}/lock", None, what=what, kind="moderation")
        if answer.ok:
            return
        if answer.status == 404 or "does not exist" in answer.message.lower():
            raise NotFound(f"{what} was refused: {answer.message or 'HTTP 404'}")
        raise NotAllowed(f"{what} was refused: {answer.message or answer.status} (the judge needs moderator rights)")

    def find_thread(self, forum_id: int, subject: str) -> int | None:
        """The newest topic the judge opened in category ``forum_id`` titled ``subject`` (spaces collapsed),
        from the first pages of ``GET /api/category/{cid}``; or None."""
        cid, want = int(forum_id), " ".join(subject.split())
        if self._uid <= 0:
            self.login()
        found: list[tuple[int, int]] = []
        for page in range(1, _FIND_THREAD_PAGES + 1):
            data = self._read(f"/api/category/{cid}", {"page": page}, what=f"category {cid}")
            topics = [t for t in (data.get("topics") if isinstance(data, dict) else None) or [] if isinstance(t, dict)]
            for t in topics:
                if api.to_int(t.get("uid")) == self._uid and " ".join(html.unescape(str(t.get("title") or "")).split()) == want:
                    found.append((api.to_int(t.get("timestamp")), api.to_int(t.get("tid"))))
            pages = api.to_int((data.get("pagination") or {}).get("pageCount"), 1) if isinstance(data, dict) else 1
            if found or page >= pages:
                break
        return max(found)[1] if found else None

    def _room_with(self, uid: int) -> int:
        """The judge's private chat room with ``uid`` (``GET /api/v3/users/{uid}/chat``), 0 when none."""
        answer = self._get(f"/api/v3/users/{uid}/chat")
        if answer.status in (401, 403) and self._relogin_needed(answer):
            self.login()
            answer = self._get(f"/api/v3/users/{uid}/chat")
        if answer.ok and isinstance(answer.data, dict):
            return api.to_int(answer.data.get("roomId"))
        return 0

    def send_pm(self, user: str, subject: str, body: str, conversation_id: int | None = None) -> SentMessage:
        """Sends ``subject`` (a bold first line) and ``body`` as chat messages to ``user`` in the judge's
        private room with them (``conversation_id``, else the one NodeBB knows, else a new room); returns the
        last message sent. Raises NoSuchUser, SendFailed (the recipient's chat settings), RateLimited (chat
        delays), NotAllowed (chat disabled, privileges, reputation)."""
        what = f"the private message to {user!r}"
        target = self._lookup(user)
        if target is None:
            raise NoSuchUser(f"{what} was refused: no account of that name on {self.base_url}", "no-user")
        uid, name = target
        subject = stored_subject(subject)  # a bold first line: "** x**" is not bold
        parts = api.chat_parts(subject, body, self.max_chat_length)
        rid = int(conversation_id or 0) or self._room_with(uid)
        if rid <= 0:
            rid = self._new_room(uid, what)
        mid, stamp = 0, 0
        for i, part in enumerate(parts):
            answer = self._write("POST", f"/api/v3/chats/{rid}", {"message": part}, what=what, kind="chat")
            if answer.status in (400, 403, 404) and i == 0 and conversation_id and (
                    "room" in answer.message.lower() or answer.status == 404):
                rid = self._room_with(uid) or self._new_room(uid, what)  # the given room is gone or not ours
                answer = self._write("POST", f"/api/v3/chats/{rid}", {"message": part}, what=what, kind="chat")
            data = answer.data if isinstance(answer.data, dict) else {}
            if not answer.ok:
                if i > 0:
                    log.warning("%s: part %d of %d refused", what, i + 1, len(parts))
                self._raise_for(answer, what, chat=True)
            mid = api.to_int(data.get("mid") or data.get("messageId"))
            stamp = api.to_int(data.get("timestamp"))
            if mid <= 0:
                raise WriteUncertain(f"{what}: the forum answered without a message id")
        return SentMessage(mid, rid, name, _at(stamp) if stamp else datetime.now(UTC))

    def _new_room(self, uid: int, what: str) -> int:
        answer = self._write("POST", "/api/v3/chats", {"uids": [uid]}, what=what, kind="room")
        data = answer.data if isinstance(answer.data, dict) else {}
        rid = api.to_int(data.get("roomId"))
        if answer.ok and rid > 0:
            return rid
        if answer.ok:
            raise WriteUncertain(f"{what}: the forum opened a chat room but gave no id")
        self._raise_for(answer, what, chat=True)
        raise AssertionError  # pragma: no cover

    def find_sent_pm(self, user: str, subject: str, body: str = "", after_message_id: int | None = None,
                     conversation_id: int | None = None) -> SentMessage | None:
        """The judge's first chat message to ``user`` above ``after_message_id`` whose text has the
        fingerprint of ``subject`` + ``body`` (the newest whose first line is ``subject`` when ``body`` is
        empty), in ``conversation_id`` or the private room with ``user``; for a message sent in several
        parts, the last part that follows it. None when not found."""
        target = self._lookup(user)
        if target is None:
            return None
        uid, name = target
        rid = int(conversation_id or 0) or self._room_with(uid)
        if rid <= 0:
            return None
        try:
            data = self._read(f"/api/v3/chats/{rid}/messages", {"start": 0}, what=f"chat room {rid}")
        except NotFound:
            return None
        mine = [m for m in (data.get("messages") if isinstance(data, dict) else None) or []
                if isinstance(m, dict) and api.to_int(m.get("fromuid")) == self._uid]
        after = int(after_message_id or 0)
        subject = stored_subject(subject)  # a bold first line: "** x**" is not bold
        parts = api.chat_parts(subject, body, self.max_chat_length)
        want = fingerprint(parts[0])
        title = fingerprint(subject)
        hits = []
        for i, m in enumerate(mine):
            mid = api.to_int(m.get("mid") or m.get("messageId"))
            seen = fingerprint(api.post_text(str(m.get("content") or "")))
            if mid > after and (seen == want if body else seen.startswith(title)):
                hits.append(i)
        if not hits:
            return None
        start = hits[0] if body else hits[-1]
        last = mine[min(start + len(parts) - 1, len(mine) - 1)] if body else mine[start]
        if body and start + len(parts) - 1 >= len(mine):
            return None  # only some parts arrived: the message is sent again whole
        return SentMessage(api.to_int(last.get("mid") or last.get("messageId")), rid, name, _at(last.get("timestamp")))

    # -- cursor ----------------------------------------------------------------------------------------

    def export_cursor(self) -> dict[str, Any]:
        """Polling memory as JSON-able data: per thread the last post and its index, per chat room its
        teaser marker and newest received mid, and the posts waiting in the post queue."""
        return {"kind": _CURSOR_KIND, "base_url": self.base_url,
                "threads": {str(k): dict(v) for k, v in self._threads.items()},
                "rooms": {str(k): dict(v) for k, v in self._rooms.items()},
                "queued": dict(self._queued)}

    def import_cursor(self, data: Mapping[str, Any]) -> None:
        """Restores :meth:`export_cursor` output; data from another engine, version or forum is ignored."""
        if not data or data.get("kind") != _CURSOR_KIND or data.get("base_url") != self.base_url:
            return
        try:
            threads = {int(k): {"pid": int(v["pid"]), "index": int(v["index"])} for k, v in data["threads"].items()}
            rooms = {int(k): {"marker": str(v["marker"]), "last": int(v["last"])} for k, v in data["rooms"].items()}
            queued = {str(k): str(v) for k, v in (data.get("queued") or {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            return
        self._threads, self._rooms, self._queued = threads, rooms, queued

