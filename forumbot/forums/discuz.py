"""The :class:`~forumbot.forums.base.Forum` adapter for Discuz! X3.4 / X3.5, through the mobile JSON API.

Session
    Logs in with ``module=login`` (API version 3 by default: X3.5 answers a version-4 login with an HTTP
    503 page even when it succeeded, so whatever the login answers, the session is confirmed by a
    follow-up call showing ``member_uid``). Cookies keep the site's random prefix (httpx's jar; no name is
    hard-coded). The ``formhash`` of the latest answer is sent with every write; a stale one (HTTP 503
    "illegal characters") or a missing one (``submit_invalid``) is read again and the write sent once more.
    An answer showing a guest re-logs in once per call. A refused login is not tried again for
    ``login_lock_seconds`` (15 min): Discuz! locks the IP after 5 failed logins in 15 minutes.

Reading
    ``viewthread`` pages of ``posts_per_page`` posts; the page of a known post is ``(position-1)//ppp+1``;
    the cursor remembers the last post returned and its position, so a poll with nothing new is one GET.
    A page past the end repeats the last page: posts are de-duplicated by ``pid`` and reading stops at
    the last page by ``maxposition``. Without a hint the page is found by bisection on ``pid``.

    The inbox (``mypm``) lists conversations, latest activity first, with the last message's sender and
    summary; only conversations whose row changed (or flagged new) are opened (``subop=view``, newest page
    first). Messages are ordered by ``pmid``. A message sent in the current second shows in the list but
    not yet in the conversation: the adapter waits a second and looks again, else returns nothing this
    poll (so no later ``pmid`` can overtake it). PMs carry only relative times: see :mod:`.discuz_time`.

Writing
    Writes are paced (``min_write_interval_seconds``, 16 s counted from the answer to the previous write:
    the site's 15 s flood control, shared by posts and PMs, compares whole seconds, see
    :data:`.discuz_api.FLOOD_SECONDS`); a flood refusal is retried once after the wait, then raised as
    :class:`RateLimited`. :meth:`write_wait_seconds` tells the runtime how long the next write must
    wait. Discuz! private messages have no subject of their own (a conversation has the subject of its
    first message), so the subject is the first line of the body; :meth:`find_sent_pm` looks for it there.
    On a GBK site every text is sent GBK-safe (:mod:`.gbk_text`: X3.5 shows ``&#NNN;`` literally); a
    reply shorter than the site's ``minpostsize`` (bytes in its charset) is padded; :meth:`find_thread`
    reads the board's list (``module=forumdisplay``).

Behaviour of a real X3.5 (UTF-8 and GBK) is recorded in ``tests/forums/discuz/captures/`` and replayed
by the tests. Unverified against a real Discuz!
    :meth:`edit_post` and :meth:`lock_thread` use the classic web forms (there is no mobile module for
    them); each checks its effect by reading the thread again.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import httpx

from forumbot.forums import discuz_api as api
from forumbot.forums._http import Transport
from forumbot.forums.base import SentMessage, ThreadPost, stored_subject
from forumbot.forums.discuz_pm import DiscuzInbox, fp
from forumbot.forums.errors import (
    AuthFailed,
    BrokenPage,
    ForumDown,
    ForumError,
    LayoutChanged,
    NoSuchUser,
    NotAllowed,
    NotFound,
    SendFailed,
)
from forumbot.forums.gbk_text import gbk_safe

log = logging.getLogger(__name__)
_CURSOR_KIND = "discuz/1"
_FIND_THREAD_PAGES = 3
_SENT_WINDOWS_KEPT = 50
_DEFAULT_MIN_POST_BYTES = 10  # Discuz!'s default minpostsize
_LOGIN_REFUSED = ("login_invalid", "login_password_invalid", "login_question_invalid", "login_strike",
                  "location_login_failed", "login_user_locked")


def _utcnow() -> datetime:
    return datetime.now(UTC)


class DiscuzForum(DiscuzInbox):
    """A Discuz! X forum seen through one account. See :class:`forumbot.forums.base.Forum` for the methods.

    ``base_url`` is the site root (``https://bbs.example.com``); ``charset`` "auto" (from ``?check``),
    "utf-8" or "gbk": how form fields are encoded; ``site_time_zone`` the zone of the site's local times;
    ``login_api_version`` 3 or 4; ``posts_per_page`` the ``ppp`` asked for; ``min_post_bytes`` the site's
    ``minpostsize`` (None: read from the thread's web page, else Discuz!'s default 10). ``transport``, ``sleep``,
    ``monotonic`` and ``clock`` (aware UTC now) can be replaced in tests.
    """

    engine = "discuz"

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        timeout_seconds: float = 20.0,
        min_write_interval_seconds: float = api.FLOOD_SECONDS,
        retries: int = 3,
        backoff_seconds: float = 0.5,
        charset: str = "auto",
        site_time_zone: str = "Asia/Shanghai",
        login_api_version: int = 3,
        posts_per_page: int = 50,
        login_lock_seconds: float = 900.0,
        min_post_bytes: int | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        clock: Callable[[], datetime] = _utcnow,
        request_horizon_seconds: float = 60.0,
    ):
        self.base_url = base_url.rstrip("/")
        self.username = username
        self.__password = password
        self.http = Transport(self.base_url, timeout_seconds=timeout_seconds,
                              min_write_interval_seconds=min_write_interval_seconds, retries=retries,
                              backoff_seconds=backoff_seconds, sleep=sleep, clock=monotonic, transport=transport)
        self.flood_seconds = float(min_write_interval_seconds) or api.FLOOD_SECONDS
        self.charset_setting = charset.lower()
        self.zone = ZoneInfo(site_time_zone)
        self.login_api_version = int(login_api_version)
        self.ppp = int(posts_per_page)
        self.login_lock_seconds = float(login_lock_seconds)
        self._monotonic = monotonic
        self._clock = clock
        self._site: dict[str, Any] | None = None
        self._charset: str | None = None
        self._uid = 0
        self._user: str | None = None
        self._group: tuple[str, str] = ("", "")
        self._formhash = ""
        self._cookiepre = ""
        self._refused: tuple[float, str] | None = None
        self._threads: dict[int, dict[str, int]] = {}
        self._convs: dict[int, dict[str, Any]] = {}
        self._post_place: dict[int, tuple[int, int]] = {}  # pid -> (tid, fid)
        self._first_post: dict[int, tuple[int, str]] = {}  # tid -> (pid of its first post, thread subject)
        self._thread_fid: dict[int, int] = {}  # tid -> the board (fid) it is in
        self._learned_min_post: int | None = None  # the site's minpostsize, read after a too-short refusal
        self.min_post_bytes = min_post_bytes
        self._sent_windows: dict[int, tuple[datetime, datetime]] = {}  # pmid -> (request, answer) of our sends
        self._pm_anchor: tuple[int, datetime] | None = None  # the highest pmid read and its earliest instant
        self._write_started = clock()
        self.request_horizon_seconds = float(request_horizon_seconds)  # how late the site may still do a request

    def __repr__(self) -> str:
        return f"DiscuzForum({self.base_url!r}, user={self.username!r})"

    # -- transport ---------------------------------------------------------------------------------------

    @property
    def request_count(self) -> int:
        """HTTP requests sent so far (retries included)."""
        return self.http.request_count

    def close(self) -> None:
        """Closes the HTTP connections."""
        self.http.close()

    def write_wait_seconds(self) -> float:
        """Seconds until the next write may start (0 when it may start now): the pacing rule, asked
        without sleeping."""
        return self.http.write_wait_seconds()

    def _url(self, module: str, params: Mapping[str, Any] | None = None, version: int = 4) -> str:
        query = {"version": version, "module": module, **(params or {})}
        return f"{self.base_url}{api.API}?{urlencode(query)}"

    def _get(self, module: str, params: Mapping[str, Any] | None = None, *, version: int = 4) -> api.Answer:
        query = {"version": str(version), "module": module, **{k: str(v) for k, v in (params or {}).items()}}
        answer = api.parse_answer(self.http.get(api.API, params=query))
        self._note(answer)
        if answer.error == "mobile_is_closed":
            raise api.closed_error()
        if not answer.json:  # cut JSON or an HTML page (a proxy's error page): read again at the next poll
            raise BrokenPage(self._url(module, params, version), f"a JSON answer (got HTTP {answer.status}: "
                             f"{answer.page[:120]!r})")
        return answer

    def _post(self, module: str, params: Mapping[str, Any], fields: Mapping[str, str], *, version: int = 4) -> api.Answer:
        query = {"version": str(version), "module": module, **{k: str(v) for k, v in params.items()}}
        if self._send_charset() == "gbk":
            body = gbk_form(fields)
            response = self.http.post(api.API, params=query, content=body, keep_5xx=True,
                                      headers={"Content-Type": "application/x-www-form-urlencoded; charset=GBK"})
        else:
            response = self.http.post(api.API, dict(fields), params=query, keep_5xx=True)
        answer = api.parse_answer(response)
        self._note(answer)
        if answer.error == "mobile_is_closed":
            raise api.closed_error()
        return answer

    def _note(self, answer: api.Answer) -> None:
        if answer.json:
            if answer.formhash:
                self._formhash = answer.formhash
            if answer.variables.get("cookiepre"):
                self._cookiepre = str(answer.variables["cookiepre"])
            if self._charset is None and answer.charset:
                self._charset = answer.charset.lower()

    def sendable(self, text: str) -> str:
        """``text`` as this forum will store it: unchanged on a UTF-8 site; on a GBK site with what GBK
        lacks replaced or marked (:func:`.gbk_text.gbk_safe`), as every text the adapter sends is."""
        return gbk_safe(text) if self._send_charset() == "gbk" else text

    def _send_charset(self) -> str:
        if self.charset_setting in ("utf-8", "utf8"):
            return "utf-8"
        if self.charset_setting in ("gbk", "gb2312", "gb18030"):
            return "gbk"
        if self._charset is None:
            self.site_info()
        return "gbk" if (self._charset or "").startswith("gb") else "utf-8"

    def site_info(self) -> dict[str, Any]:
        """``GET ?check``: ``{discuzversion, charset, version, pluginversion, ...}`` (empty when the site
        answers nothing, as a fresh install does). Cached."""
        if self._site is None:
            response = self.http.get(api.API + "?check")
            text = api.decode(response).strip()
            try:
                data = json.loads(text) if text else {}
            except ValueError:
                data = {}
            self._site = data if isinstance(data, dict) else {}
            if self._site.get("error") == "mobile_is_closed":
                raise api.closed_error()
            charset = str(self._site.get("charset") or "").lower()
            if charset:
                self._charset = charset
        return self._site

    # -- session ---------------------------------------------------------------------------------------

    def login(self) -> None:
        """Logs in with a fresh session and confirms it. Raises AuthFailed (also while a refused login's
        lock-out wait runs), NotAllowed (mobile API closed), ForumDown."""
        if self._refused is not None:
            left = self._refused[0] + self.login_lock_seconds - self._monotonic()
            if left > 0:
                raise AuthFailed(f"{self._refused[1]} (not trying again for {left / 60:.0f} min: Discuz! locks "
                                 "the IP after 5 failed logins in 15 minutes)")
        self.http.clear_cookies()
        self._uid, self._user, self._formhash = 0, None, ""
        self.site_info()
        version = self.login_api_version
        self._get("login", version=version)  # guest cookies (saltkey) and the guest formhash, as the apps do
        fields = {"username": self.username, "password": self.__password, "formhash": self._formhash,
                  "questionid": "0", "answer": "", "cookietime": "2592000"}
        try:
            answer = self._post("login", {"loginsubmit": "yes", "loginfield": "username"}, fields, version=version)
        except NotGbk as exc:
            self._refuse(f"the forum at {self.base_url} is a GBK site and {exc}: check forum.username and the password")
            raise  # pragma: no cover (_refuse raises)
        val = answer.messageval
        if answer.json and (val in _LOGIN_REFUSED or (val.startswith("login_") and val != "login_succeed"
                                                       and "seccode" not in val and "seccheck" not in val)):
            hint = "" if self.username.isascii() else (
                f"; the name is sent as {self._send_charset().upper()}: if the site's charset is another, set "
                "forum.charset")
            self._refuse(f"the forum at {self.base_url} refused the login of {self.username!r} ({val}): "
                         f"wrong user name or password, or a locked account{hint}")
        if answer.json and val in api._CAPTCHA:
            self._refuse(f"the forum at {self.base_url} asks for a captcha at the login of {self.username!r} ({val}); "
                         "ask the administrator to switch the login captcha off (防灌水 → 验证码 → 登录); exempting "
                         "the judge's user group cannot work for the login (the group is unknown before it)")
        if not self._confirm():
            if not answer.json and answer.status == 200:  # cut short or a proxy's page: not the forum's refusal
                raise BrokenPage(self._url("login", {"loginsubmit": "yes"}, version),
                                 f"a JSON answer (got {answer.page[:80]!r})")
            detail = val or (f"HTTP {answer.status}" + (f": {answer.page[:100]}" if answer.page else ""))
            self._refuse(f"the forum at {self.base_url} did not log {self.username!r} in ({detail})")

    def _refuse(self, message: str) -> None:
        self._refused = (self._monotonic(), message)
        raise AuthFailed(message)

    def _confirm(self) -> bool:
        """A follow-up call: True (and who we are noted) when the session is logged in."""
        answer = self._get("forumindex")
        if answer.uid <= 0:
            return False
        v = answer.variables
        self._uid = answer.uid
        self._user = api.plain(v.get("member_username")) or self.username
        group = v.get("group")
        group = group if isinstance(group, dict) else {}
        self._group = (str(v.get("groupid") or ""), api.plain(group.get("grouptitle")))
        self._refused = None
        return True

    def whoami(self) -> str:
        """The user name the forum shows for the logged-in account."""
        if self._user is None:
            self.login()
        assert self._user is not None
        return self._user

    def account(self) -> dict[str, Any]:
        """``{uid, username, groupid, grouptitle, cookiepre}`` of the logged-in judge (logs in if needed)."""
        self.whoami()
        return {"uid": self._uid, "username": self._user, "groupid": self._group[0], "grouptitle": self._group[1],
                "cookiepre": self._cookiepre}

    def find_user(self, name: str) -> str | None:
        """The account ``name`` as the forum spells it, or None: ``module=profile&username=NAME`` answers
        the member's ``space`` (``uid`` > 0; X3.5 adds ``home_no_privilege`` for a guest), or
        ``space_does_not_exist``. The name is sent in the site's charset (a name GBK cannot write is no
        account of a GBK site). Raises ForumError when the answer says neither."""
        if self._uid <= 0:
            self.login()
        try:
            query = urlencode({"version": "4", "module": "profile", "username": name}, encoding=self._send_charset())
        except UnicodeEncodeError:
            return None
        answer = api.parse_answer(self.http.get(f"{api.API}?{query}"))
        self._note(answer)
        if not answer.json:
            raise LayoutChanged(self._url("profile", {"username": name}), f"a JSON answer (got HTTP {answer.status})")
        space = answer.variables.get("space") or {}
        if api.to_int(space.get("uid")) > 0:
            return str(space.get("username") or name)
        if answer.messageval == "space_does_not_exist":
            return None
        raise NotAllowed(f"the forum did not say whether the account {name!r} exists "
                         f"({answer.messageval or 'no member in the answer'})")

    def _read(self, module: str, params: Mapping[str, Any], version: int = 4) -> api.Answer:
        """A logged-in GET; logs in again once when the answer shows a guest."""
        if self._uid <= 0:
            self.login()
        answer = self._get(module, params, version=version)
        if answer.uid <= 0 or api.is_login_needed(answer):
            log.info("the Discuz! session of %s expired: logging in again", self.username)
            self.login()
            answer = self._get(module, params, version=version)
            if answer.uid <= 0 or api.is_login_needed(answer):
                raise AuthFailed(f"the forum at {self.base_url} shows {self.username!r} logged out right after logging in")
        return answer

    def _write(self, module: str, params: Mapping[str, Any], fields: Mapping[str, str], what: str) -> api.Answer:
        """A logged-in POST with the formhash; re-sent once after a stale formhash, a dropped session or flood
        control (none of which stored anything). Returns the JSON answer; raises ForumDown on other pages."""
        if self._uid <= 0:
            self.login()
        fixed: set[str] = set()
        while True:
            self.http.sleep(self.http.write_wait_seconds())  # pace here, so that the start is known
            self._write_started = self._clock()
            answer = self._post(module, params, {**fields, "formhash": self._formhash})
            if not answer.json:
                if answer.stale_formhash and "formhash" not in fixed:
                    fixed.add("formhash")
                    self._get("forumindex")
                    continue
                raise ForumDown(f"the forum at {self.base_url} answered {what} with HTTP {answer.status} "
                                f"({answer.page[:120]!r}); it may or may not have been done")
            val = answer.messageval
            if val == "submit_invalid" and "formhash" not in fixed:
                fixed.add("formhash")
                self._get("forumindex")
                continue
            if (answer.uid <= 0 or api.is_login_needed(answer)) and "login" not in fixed:
                fixed.add("login")
                self.login()
                continue
            if val in api._FLOOD and "flood" not in fixed:
                fixed.add("flood")
                log.info("flood control of the forum: waiting %.0f s", self.flood_seconds)
                self.http.sleep(self.flood_seconds)
                continue
            return answer

    # -- reading the thread ----------------------------------------------------------------------------

    def thread_posts(self, thread_id: int, after_post_id: int | None = None) -> list[ThreadPost]:
        """Posts newer than ``after_post_id`` (all when None), oldest first. Raises NotFound."""
        tid, after = int(thread_id), int(after_post_id or 0)
        pages: dict[int, tuple[list[dict[str, Any]], int]] = {}

        def fetch(page: int) -> tuple[list[dict[str, Any]], int]:
            if page not in pages:
                pages[page] = self._thread_page(tid, page)
            return pages[page]

        hint = self._threads.get(tid)
        if not after:
            page = 1
        elif hint and hint["pid"] == after:
            page = (hint["position"] - 1) // self.ppp + 1
        else:
            page = self._locate(tid, after, fetch)
        found: dict[int, dict[str, Any]] = {}
        positions: dict[int, int] = {}
        while True:
            posts, last_page = fetch(page)
            fresh = [p for p in posts if api.to_int(p.get("pid")) not in positions]
            for p in posts:
                positions[api.to_int(p.get("pid"))] = api.to_int(p.get("position"))
            for p in fresh:
                if api.to_int(p.get("pid")) > after:
                    found[api.to_int(p.get("pid"))] = p
            if page >= last_page or (posts and not fresh):  # the last page, or a page past the end repeating it
                break
            page += 1
        result = [self._thread_post(p) for _, p in sorted(found.items())]
        if result:
            last = result[-1].post_id
            self._threads[tid] = {"pid": last, "position": positions[last]}
        elif after in positions:
            self._threads[tid] = {"pid": after, "position": positions[after]}
        return result

    def _thread_page(self, tid: int, page: int) -> tuple[list[dict[str, Any]], int]:
        """(postlist, last page by ``maxposition``) of one page of the thread."""
        answer = self._read("viewthread", {"tid": tid, "page": page, "ppp": self.ppp})
        v = answer.variables
        thread = v.get("thread")
        if not isinstance(thread, dict) or not thread.get("tid"):
            if answer.messageval:
                error = api.refusal(answer, f"reading thread {tid}", flood_wait=self.flood_seconds)
                if isinstance(error, (NotFound, NotAllowed)):
                    raise error
                raise NotFound(f"thread {tid} cannot be read on {self.base_url} ({answer.messageval})")
            raise NotFound(f"thread {tid} does not exist on {self.base_url}")
        posts = v.get("postlist")
        if not isinstance(posts, list):
            raise LayoutChanged(self._url("viewthread", {"tid": tid, "page": page}), "Variables.postlist")
        fid = api.to_int(thread.get("fid") or v.get("fid"))
        if fid:
            self._thread_fid[tid] = fid
        for p in posts:
            self._post_place[api.to_int(p.get("pid"))] = (tid, fid)
            if str(p.get("first")) == "1":
                self._first_post[tid] = (api.to_int(p.get("pid")), api.plain(thread.get("subject")))
        count = api.to_int(thread.get("maxposition")) or api.to_int(thread.get("replies")) + 1
        return posts, max(1, math.ceil(count / self.ppp))

    def _locate(self, tid: int, pid: int, fetch: Callable[[int], tuple[list[dict[str, Any]], int]]) -> int:
        """The page that holds ``pid`` (or the earliest page that could): bisection on the pids of pages."""
        lo, hi = 1, fetch(1)[1]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            posts = fetch(mid)[0]
            first = min((api.to_int(p.get("pid")) for p in posts), default=None)
            if first is not None and first <= pid:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _thread_post(self, p: Mapping[str, Any]) -> ThreadPost:
        raw = str(p.get("message") or "")
        text, edited = api.post_text(raw)
        author = api.plain(p.get("author")) or ("匿名" if str(p.get("anonymous")) == "1" else "")
        when = datetime.fromtimestamp(api.to_int(p.get("dbdateline")), UTC)
        return ThreadPost(api.to_int(p.get("pid")), author, when, text, raw, edited, 1.0)  # dbdateline: whole seconds

    # -- writing ---------------------------------------------------------------------------------------

    def reply(self, thread_id: int, body: str) -> int:
        """Posts ``body`` (BBCode) in the thread; returns the new pid. Raises NotFound, NotAllowed,
        RateLimited (flood control still on after one wait) or SendFailed."""
        return self._reply(int(thread_id), body, [])

    def reply_with_images(self, thread_id: int, body: str, image_ids: list[int]) -> int:
        """Posts ``body`` with the pictures ``image_ids`` (attachment ids from :meth:`upload_image`) shown
        after it, as the web editor does: ``[attachimg]AID[/attachimg]`` in the message and
        ``attachnew[AID][description]`` in the form, which moves the upload from the judge's unused
        attachments to the post (capture ``utf8-attach/``). Raises as :meth:`reply`."""
        return self._reply(int(thread_id), body, [int(a) for a in image_ids])

    def _reply(self, tid: int, body: str, aids: list[int]) -> int:
        what = f"the reply in thread {tid}"
        tags = "".join(f"\n[attachimg]{aid}[/attachimg]" for aid in aids)
        extra = {f"attachnew[{aid}][description]": "" for aid in aids}
        least = self._least_post_bytes(tid)
        answer = self._write("sendreply", {"tid": tid, "replysubmit": "yes"},
                             {"message": self._pad(body, least) + tags, **extra}, what)
        if answer.messageval == "post_message_tooshort":  # the site's minimum is more than we knew
            learned = self._web_post_limits(tid)
            least = learned if learned is not None and learned > least else max(2 * least, self._bytes(body) + 10)
            self._learned_min_post = least
            answer = self._write("sendreply", {"tid": tid, "replysubmit": "yes"},
                                 {"message": self._pad(body, least) + tags, **extra}, what)
        pid = api.to_int(answer.variables.get("pid"))
        if answer.messageval in ("post_reply_succeed", "post_reply_mod_succeed") and pid > 0:
            if answer.messageval.endswith("mod_succeed"):
                log.warning("%s is held for moderation by the forum", what)
            self._post_place[pid] = (tid, 0)
            return pid
        raise api.refusal(answer, what, flood_wait=self.flood_seconds)

    def upload_image(self, thread_id: int, filename: str, data: bytes) -> int:
        """Uploads ``data`` (a PNG picture) for a post in thread ``thread_id``; returns its attachment id
        (aid), unused until a post names it (:meth:`reply_with_images`).

        As the Discuz! apps do: ``module=checkpost&version=3&submodule=checkpost`` gives the judge's
        ``allowperm`` in the thread's board (``allowupload`` per extension: "0" not allowed, "-1" allowed up to the
        group's limit, N bytes; ``uploadhash``), then ``module=forumupload`` (the web uploader,
        ``misc.php?mod=swfupload``) takes a multipart form ``uid``, ``hash``, ``Filedata`` and answers
        ``DISCUZUPLOAD|status|aid|isimage|sizelimit`` (capture ``utf8-attach/``). The upload is not counted
        by the site's flood control, so it is not paced. Raises NotAllowed (no permission for pictures or
        PNG, in this board or group), SendFailed (too large, daily quota, refused), NotFound, ForumDown,
        WriteUncertain."""
        tid = int(thread_id)
        fid, perm = self._upload_permission(tid)
        where = f"a picture for thread {tid}"
        allowed = perm.get("allowupload")
        png = str(allowed.get("png", "0")) if isinstance(allowed, dict) else "0"
        if png == "0":
            raise NotAllowed(f"{where} cannot be uploaded: the judge's user group may not upload PNG attachments in "
                             f"board {fid} (ask the administrator: docs/discuz.md, pictures with vote results)")
        if api.to_int(png) > 0 and len(data) > api.to_int(png):
            raise SendFailed(f"{where} is {len(data)} bytes, more than the {api.to_int(png)} bytes the board allows",
                             "attach_too_large")
        response = self.http.post(api.API, {"uid": str(self._uid), "hash": str(perm.get("uploadhash") or "")},
                                  params={"version": "4", "module": "forumupload", "fid": str(fid), "type": "image",
                                          "simple": "1"},
                                  files={"Filedata": (filename, data, "image/png")}, paced=False)
        return _upload_answer(api.decode(response), response.status_code, where)

    def upload_permission(self, thread_id: int | None = None, forum_id: int | None = None) -> tuple[int, dict[str, Any]]:
        """(fid, ``allowperm``) of the judge in the board of ``thread_id`` (else board ``forum_id``): for
        ``forumbot check``. Raises NotFound, NotAllowed, LayoutChanged, ValueError without either."""
        if thread_id is not None:
            return self._upload_permission(int(thread_id))
        if forum_id is None:
            raise ValueError("upload_permission needs a thread_id or a forum_id")
        answer = self._read("checkpost", {"fid": int(forum_id), "submodule": "checkpost"}, version=3)
        perm = answer.variables.get("allowperm")
        if not isinstance(perm, dict):
            raise LayoutChanged(self._url("checkpost", {"fid": forum_id, "submodule": "checkpost"}, 3), "Variables.allowperm")
        return int(forum_id), perm

    def _upload_permission(self, tid: int) -> tuple[int, dict[str, Any]]:
        """(fid, ``allowperm``) of thread ``tid`` for the judge: the board from the thread (read once), then
        ``module=checkpost&version=3&fid=F&submodule=checkpost`` (X3.5's version-3 ``viewthread`` fails with a
        PHP error page, capture ``utf8-attach/``). Raises NotFound, NotAllowed, LayoutChanged."""
        fid = self._thread_fid.get(tid, 0)
        if not fid:
            answer = self._read("viewthread", {"tid": tid, "page": 1, "ppp": 1})
            thread = answer.variables.get("thread")
            if not isinstance(thread, dict) or not thread.get("tid"):
                raise NotFound(f"thread {tid} does not exist on {self.base_url} ({answer.messageval or 'no thread'})")
            fid = api.to_int(thread.get("fid") or answer.variables.get("fid"))
            self._thread_fid[tid] = fid
        answer = self._read("checkpost", {"fid": fid, "submodule": "checkpost"}, version=3)
        perm = answer.variables.get("allowperm")
        if not isinstance(perm, dict):
            raise LayoutChanged(self._url("checkpost", {"fid": fid, "submodule": "checkpost"}, 3), "Variables.allowperm")
        return fid, perm

    def find_thread(self, forum_id: int, subject: str) -> int | None:
        """The newest thread the judge opened in board ``forum_id`` with ``subject`` (spaces collapsed), or
        None. ``module=forumdisplay&fid=F`` lists a board's threads, latest activity first, ``tpp`` (20) a
        page, each with ``tid``, ``subject``, ``author``, ``authorid`` and ``dbdateline``; the first
        ``_FIND_THREAD_PAGES`` pages are read. A new-thread request that timed out on our side may still
        have created the thread on a real X3.5 (capture ``dup-thread/``): the runtime asks this before
        opening it again. Raises NotFound (no such board), NotAllowed, LayoutChanged."""
        fid = int(forum_id)
        if self._uid <= 0:
            self.login()
        want = " ".join(self.sendable(subject).split())  # as the forum stored it (GBK-safe on a GBK site)
        found: list[tuple[int, int]] = []
        for page in range(1, _FIND_THREAD_PAGES + 1):
            rows, per_page = self._board_page(fid, page)
            for r in rows:
                mine = api.to_int(r.get("authorid")) == self._uid or api.plain(r.get("author")) == self.whoami()
                if mine and " ".join(api.plain(r.get("subject")).split()) == want:
                    found.append((api.to_int(r.get("dbdateline")), api.to_int(r.get("tid"))))
            if found or len(rows) < per_page:
                break
        return max(found)[1] if found else None

    def _board_page(self, fid: int, page: int) -> tuple[list[dict[str, Any]], int]:
        """(``forum_threadlist``, threads a page) of one page of board ``fid``. A guest's answer is used as
        is when it lists threads (boards are usually readable); otherwise the judge logs in again once."""
        params = {"fid": fid, "page": page}
        answer = self._get("forumdisplay", params)
        rows = answer.variables.get("forum_threadlist")
        if not isinstance(rows, list) and (answer.uid <= 0 or api.is_login_needed(answer)):
            self.login()
            answer = self._get("forumdisplay", params)
            rows = answer.variables.get("forum_threadlist")
        if not isinstance(rows, list):
            if answer.messageval:
                raise api.refusal(answer, f"listing board {fid}", flood_wait=self.flood_seconds)
            raise LayoutChanged(self._url("forumdisplay", params), "Variables.forum_threadlist")
        return [r for r in rows if isinstance(r, dict)], api.to_int(answer.variables.get("tpp"), 20) or 20

    def create_thread(self, forum_id: int, subject: str, body: str) -> int:
        """Opens a thread in board ``forum_id`` (fid); returns its tid. Raises NotFound, NotAllowed,
        RateLimited or SendFailed."""
        fid = int(forum_id)
        what = f"the new thread in board {fid}"
        message = self._pad(body, self._least_post_bytes(0))
        answer = self._write("newthread", {"fid": fid, "topicsubmit": "yes"}, {"subject": subject, "message": message},
                             what)
        tid = api.to_int(answer.variables.get("tid"))
        if answer.messageval in ("post_newthread_succeed", "post_newthread_mod_succeed") and tid > 0:
            pid = api.to_int(answer.variables.get("pid"))
            self._thread_fid[tid] = fid
            if pid > 0:
                self._post_place[pid] = (tid, fid)
                self._first_post[tid] = (pid, subject)
            return tid
        raise api.refusal(answer, what, flood_wait=self.flood_seconds)

    def send_pm(self, user: str, subject: str, body: str, conversation_id: int | None = None) -> SentMessage:
        """Sends ``subject`` (as the first line) and ``body`` to ``user`` (a user name, or ``uid:123``).

        Discuz! keeps one conversation per pair of users, so ``conversation_id`` is not needed.
        Raises ConversationLimit (a SendFailed), SendFailed (unknown user, refused), RateLimited, NotAllowed.
        """
        target = {"touid": user[4:]} if user.startswith("uid:") and user[4:].isdigit() else {"username": user}
        what = f"the private message to {user!r}"
        subject = stored_subject(subject)  # the first line: Discuz! trims the message, find_sent_pm reads one line
        message = f"{subject}\n\n{body}" if subject else body
        answer = self._write("sendpm", {"pmsubmit": "yes"}, {**target, "message": message}, what)
        pmid = api.to_int(answer.variables.get("pmid"))
        if answer.messageval == "do_success":
            if pmid > 0:
                now = self._clock()
                self._sent_windows[pmid] = (self._write_started, now)
                for old in sorted(self._sent_windows)[:-_SENT_WINDOWS_KEPT]:
                    del self._sent_windows[old]
                return SentMessage(pmid, 0, user, now)
            found = self.find_sent_pm(user, subject) if subject else None
            if found is not None:
                return found
            raise SendFailed(f"the forum said {what} was sent but gave no message id and it is not in the conversation")
        raise api.refusal(answer, what, flood_wait=self.flood_seconds)

    def edit_post(self, post_id: int, body: str) -> None:
        """Replaces the text of one of the judge's posts through the web form (no mobile module; unverified
        on a real Discuz!); checks the result by reading the post again. Raises NotFound or NotAllowed.

        The first post of a thread is sent with the thread's subject: Discuz! refuses an edit of a first
        post without one (``post_sm_isnull``). The edited post shows no "edited" note through the mobile
        API (a real X3.5 omits it), so :attr:`ThreadPost.edited` stays false there."""
        pid = int(post_id)
        if pid not in self._post_place:
            raise NotFound(f"post {pid} was not read by this adapter yet (read its thread first)")
        tid, fid = self._post_place[pid]
        if not fid or tid not in self._first_post:
            page = self._read("viewthread", {"tid": tid, "page": 1, "ppp": 1}).variables
            thread = page.get("thread") or {}
            fid = fid or api.to_int(thread.get("fid"))
            first = next((p for p in page.get("postlist") or [] if str(p.get("first")) == "1"), None)
            if first is not None:
                self._first_post[tid] = (api.to_int(first.get("pid")), api.plain(thread.get("subject")))
        first_pid, subject = self._first_post.get(tid, (0, ""))
        self._web_form("forum.php", {"mod": "post", "action": "edit", "extra": "", "editsubmit": "yes"},
                       {"fid": str(fid), "tid": str(tid), "pid": str(pid), "page": "1",
                        "subject": subject if pid == first_pid else "",
                        "message": self._pad(body, self._least_post_bytes(tid)), "wysiwyg": "0",
                        "delattachop": "0"})
        self._threads.pop(tid, None)
        now = {p.post_id: p for p in self.thread_posts(tid)}
        if pid not in now or fp(now[pid].text, 40) != _bbcodefp(self.sendable(body)):
            raise NotAllowed(f"post {pid} was not edited (the judge may lack the right, or the edit time ran out)")

    def _bytes(self, text: str) -> int:
        return len(self.sendable(text).encode("gbk" if self._send_charset() == "gbk" else "utf-8"))

    def _pad(self, body: str, least: int) -> str:
        """``body`` with ideographic spaces added until it has ``least`` bytes in the site's charset: Discuz!
        refuses shorter posts (``post_message_tooshort``; "投 王五" is 10 bytes in UTF-8 but 7 in GBK,
        capture season-gbk/065). The spaces show as nothing and are not trimmed by PHP."""
        missing = least - self._bytes(body)
        if missing <= 0:
            return body
        per = 2 if self._send_charset() == "gbk" else 3
        return body + "\n" + "\u3000" * math.ceil(max(0, missing - 1) / per)

    def _least_post_bytes(self, tid: int) -> int:
        """The least bytes (site charset) a post of the judge must have: the ``min_post_bytes`` setting,
        else what a refusal taught (the thread's web page), else Discuz!'s default ``minpostsize`` (10)."""
        if self.min_post_bytes is not None:
            return self.min_post_bytes
        return self._learned_min_post if self._learned_min_post is not None else _DEFAULT_MIN_POST_BYTES

    def _web_post_limits(self, tid: int) -> int | None:
        """``minpostsize`` as the thread's web page tells the judge (``var postminchars``; 0 when its group
        is exempt, ``var disablepostctrl``), or None when the page says nothing."""
        try:
            response = self.http.get("/forum.php", params={"mod": "viewthread", "tid": tid})
        except ForumError:
            return None
        page = api.decode(response)
        least = re.search(r"var\s+postminchars\s*=\s*parseInt\('(\d+)'\)", page)
        exempt = re.search(r"var\s+disablepostctrl\s*=\s*parseInt\('(\d+)'\)", page)
        if exempt and exempt.group(1) != "0":
            return 0
        return int(least.group(1)) if least else None

    def lock_thread(self, thread_id: int) -> None:
        """Closes the thread (web moderation form; unverified on a real Discuz!). Raises NotAllowed."""
        self._set_closed(int(thread_id), True)

    def unlock_thread(self, thread_id: int) -> None:
        """Opens the thread again (web moderation form; unverified on a real Discuz!). Raises NotAllowed."""
        self._set_closed(int(thread_id), False)

    def _set_closed(self, tid: int, closed: bool) -> None:
        answer = self._read("viewthread", {"tid": tid, "page": 1, "ppp": 1})
        thread = answer.variables.get("thread") or {}
        if not thread:
            raise NotFound(f"thread {tid} does not exist on {self.base_url}")
        self._web_form("forum.php", {"mod": "topicadmin", "action": "moderate", "optgroup": "4", "modsubmit": "yes"},
                       {"fid": str(thread.get("fid") or ""), "moderate[]": str(tid),
                        "operations[]": "close" if closed else "open", "reason": "", "sendreasonpm": "0"})
        after = self._read("viewthread", {"tid": tid, "page": 1, "ppp": 1}).variables.get("thread") or {}
        if (str(after.get("closed")) not in ("", "0")) is not closed:
            raise NotAllowed(f"the forum did not {'lock' if closed else 'unlock'} thread {tid}: no moderator rights?")

    def _web_form(self, path: str, params: Mapping[str, str], fields: Mapping[str, str]) -> None:
        if self._uid <= 0:
            self.login()
        data = {**fields, "formhash": self._formhash}
        if self._send_charset() == "gbk":
            body = gbk_form(data)
            self.http.post("/" + path, params=dict(params), content=body, keep_5xx=True,
                           headers={"Content-Type": "application/x-www-form-urlencoded; charset=GBK"})
        else:
            self.http.post("/" + path, data, params=dict(params), keep_5xx=True)

    # -- cursor ----------------------------------------------------------------------------------------

    def export_cursor(self) -> dict[str, Any]:
        """Polling memory as JSON-able data: thread hints (pid, position) and conversations seen."""
        return {"kind": _CURSOR_KIND, "base_url": self.base_url,
                "threads": {str(k): dict(v) for k, v in self._threads.items()},
                "conversations": {str(k): dict(v) for k, v in self._convs.items()},
                "pm_anchor": [self._pm_anchor[0], self._pm_anchor[1].isoformat()] if self._pm_anchor else None,
                "sent": {str(k): [a.isoformat(), b.isoformat()] for k, (a, b) in self._sent_windows.items()}}

    def import_cursor(self, data: Mapping[str, Any]) -> None:
        """Restores :meth:`export_cursor` output; data from another engine, version or forum is ignored."""
        if not data or data.get("kind") != _CURSOR_KIND or data.get("base_url") != self.base_url:
            return
        try:
            threads = {int(k): {"pid": int(v["pid"]), "position": int(v["position"])} for k, v in data["threads"].items()}
            convs = {int(k): {"touid": int(v["touid"]), "marker": str(v["marker"]), "pending": int(v["pending"]),
                              "last_seen": int(v["last_seen"]), "last": int(v["last"])}
                     for k, v in data["conversations"].items()}
            anchor = data.get("pm_anchor")
            pm_anchor = (int(anchor[0]), datetime.fromisoformat(anchor[1])) if anchor else None
            sent = {int(k): (datetime.fromisoformat(a), datetime.fromisoformat(b))
                    for k, (a, b) in (data.get("sent") or {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            return
        self._threads, self._convs = threads, convs
        self._pm_anchor, self._sent_windows = pm_anchor, sent


class NotGbk(NoSuchUser):
    """A user name or password (not a text, which is made GBK-safe) has characters GBK cannot write: no
    account of that name can exist on a GBK site."""


#: Form fields holding text the bot wrote: made GBK-safe on a GBK site (other fields must encode as they are)
_TEXT_FIELDS = ("message", "subject")


def gbk_form(fields: Mapping[str, str]) -> bytes:
    """A form body for a GBK site: ``message`` and ``subject`` through :func:`.gbk_text.gbk_safe` (a real
    X3.5 shows ``&#NNN;`` literally, so nothing is sent as an entity), other fields encoded strictly.
    Raises :class:`NotGbk` for a name or password GBK cannot write."""
    safe = {k: gbk_safe(v) if k in _TEXT_FIELDS else v for k, v in fields.items()}
    for key, value in safe.items():
        try:
            value.encode("gbk")
        except UnicodeEncodeError:
            what = "the password" if key == "password" else f"{key} {value!r}"
            raise NotGbk(f"{what} cannot be written in GBK (no such account can exist there)", "not_gbk") from None
    return urlencode(safe, encoding="gbk").encode("ascii")


#: ``forumupload`` statuses (Discuz!'s ``forum_upload::uploadmsg``) that say the account or board may not
#: upload this: the extension is not allowed (1) or banned (4), no permission (6), not a picture (7)
_UPLOAD_NOT_ALLOWED = {1: "PNG is not an allowed attachment type", 4: "PNG attachments are banned in this board",
                       6: "the judge's user group may not upload attachments (or its daily number is used up)",
                       7: "the file was not taken for a picture"}
_UPLOAD_FAILED = {2: "the upload did not arrive whole", 3: "larger than the group's largest attachment",
                  5: "larger than the board's largest PNG", 8: "the site could not store it", 9: "the site could not store it",
                  11: "the group's daily attachment size is used up", 12: "its name was refused", 13: "too many pixels"}


def _upload_answer(text: str, status: int, where: str) -> int:
    """The aid of a ``forumupload`` answer ``DISCUZUPLOAD|status|aid|isimage|sizelimit``, or the error.
    An empty answer is the uploader's refusal of the upload hash (a guest session, another account's
    hash); HTTP 403 is Discuz!'s refusal of a client it takes for a robot."""
    parts = text.strip().split("|")
    if status == 403:
        raise NotAllowed(f"{where} was refused with HTTP 403 (Discuz! takes the client for a robot)")
    if len(parts) < 3 or parts[0] != "DISCUZUPLOAD":
        if not text.strip():
            raise NotAllowed(f"{where} was refused: the forum did not accept the upload hash (session or account)")
        raise LayoutChanged(f"{api.API}?module=forumupload", f"DISCUZUPLOAD|status|aid (got {text[:80]!r})")
    code, aid = api.to_int(parts[1], -1), api.to_int(parts[2])
    if code == 0 and aid > 0:
        return aid
    limit = f" (limit {parts[4]})" if len(parts) > 4 and parts[4] not in ("", "0") else ""
    if code in _UPLOAD_NOT_ALLOWED:
        raise NotAllowed(f"{where} was refused: {_UPLOAD_NOT_ALLOWED[code]} (upload status {code}); ask the "
                         "administrator (docs/discuz.md, pictures with vote results)")
    reason = _UPLOAD_FAILED.get(code, "refused")
    raise SendFailed(f"{where} was refused: {reason}{limit} (upload status {code})", f"upload_{code}")


def _bbcodefp(body: str) -> str:
    return fp(re.sub(r"\[/?[a-z*]+(?:=[^\]]*)?\]", "", body, flags=re.I), 40)
