"""The :class:`~forumbot.forums.base.Forum` adapter for phpBB 3.3 (prosilver, English), through its HTML forms.

Session
    ``ucp.php?mode=login`` with the form's hidden ``creation_time``/``form_token``/``sid`` and "remember me";
    cookies ``phpbb3_<random>_{u,k,sid}`` (httpx's jar; no name is hard-coded). A page showing a guest
    (the login link instead of ``#username_logged_in``) logs in again, once per call.

Reading
    ``viewtopic.php?t=T&start=N`` pages of ``posts_per_page`` posts (10 by default), oldest first, with
    the exact time of each post (``<time datetime>``) and "Last edited by" under an edited one. The cursor
    remembers, per thread, the last post returned and the ``start`` of its page: a poll that finds nothing
    new is one GET (the page's pagination says whether a later page exists). Without a usable hint,
    ``viewtopic.php?p=ID`` shows the page holding that post.

    The inbox lists messages newest first by id (message ids are global and grow); a poll reads its first
    page and opens only the messages newer than the last one processed (``mode=view``: the message's
    text, sender and the minute it was sent; phpBB shows PM times to the minute only, so
    ``time_precision_seconds`` is 60). Later inbox pages are read only while a whole page is new.

Writing
    Every write fetches its form first (a fresh ``creation_time``/``form_token`` pair: phpBB refuses a pair
    used in the second it was issued, and refuses the same pair twice within its flood interval — which is
    also what makes a re-sent form never double a post). The post goes at least ``form_min_age_seconds``
    (1.1 s) after the form was fetched and ``min_write_interval_seconds`` after the answer to the previous
    write (phpBB's flood control, 15 s by default, shared by posts and private messages; it compares whole
    seconds from the stamp of the previous post, so counting from the answer is enough). Refusals become
    typed errors (:func:`refusal`): :class:`FloodControl`, :class:`FormTooFresh`, :class:`PostTooShort`,
    :class:`PostQueued` (newly registered users' posts wait for approval), :class:`NotAllowed` (a locked
    topic, missing permissions), :class:`NotFound`. A flood refusal or a refused form token is retried
    once with a fresh form after the wait (neither stored anything).

    Private messages go to the recipient's user id (``address_list[u][ID]=to``; ids are looked up once on
    the member's profile page). phpBB answers a sent message with a page linking to it: its id is the
    proof. Messages have no conversations here (``conversation_id`` 0); each one carries its subject.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar
from urllib.parse import quote

import httpx

from forumbot.forums import phpbb_pages as pages
from forumbot.forums._http import Transport
from forumbot.forums.base import PrivateMessage, SentMessage, ThreadPost, fingerprint, stored_subject
from forumbot.forums.errors import (
    AuthFailed,
    FloodControl,
    FormTooFresh,
    ForumError,
    LayoutChanged,
    NoSuchUser,
    NotAllowed,
    NotFound,
    PostQueued,
    PostTooShort,
    SendFailed,
    WriteUncertain,
)
from forumbot.forums.html_text import require_whole_page

log = logging.getLogger(__name__)
T = TypeVar("T")
_CURSOR_KIND = "phpbb/1"
FLOOD_SECONDS = 15.0  # phpBB's default flood_interval (ACP → Posting → Flood interval)
SUBJECT_LIMIT = 120  # characters: the subject field's maxlength on phpBB's forms
FORM_MIN_AGE_SECONDS = 1.1  # phpBB refuses a form token used in the second it was issued
_FOLDERS = {"inbox": "inbox", "outbox": "outbox", "sentbox": "sentbox"}
_FIND_SENT_OPENED = 6  # messages opened at most by find_sent_pm


def refusal(common: pages.PageCommon, what: str, flood_seconds: float) -> ForumError | None:
    """The typed error for phpBB's refusal shown on a page (form errors or the message box), None when
    the page shows none. ``what`` says what was refused ("the reply in thread 3")."""
    reasons = [*common.errors, common.message] if common.message else list(common.errors)
    text = " ".join(reasons)
    if "approved by a moderator" in text:
        return PostQueued(f"{what} was stored but waits for a moderator's approval (the judge's account is in "
                          f"a group whose posts are queued, e.g. Newly registered users): {text}")
    if not text or ("successfully" in common.message and not common.errors):
        return None
    if "so soon after your last" in text:
        return FloodControl(f"{what} was refused by the forum's flood control: {text}", flood_seconds)
    if "submitted form was invalid" in text:
        return FormTooFresh(f"{what} was refused: {text} (a form token used within a second of being issued, "
                            "or one already used)", FORM_MIN_AGE_SECONDS)
    if "too few characters" in text or ("at least" in text and "character" in text):
        match = re.search(r"at least (\d+) character", text)
        return PostTooShort(f"{what} was refused as too short: {text}", text, int(match.group(1)) if match else None)
    if "approved by a moderator" in text:
        return PostQueued(f"{what} was stored but waits for a moderator's approval (the judge's account is in "
                          f"a group whose posts are queued, e.g. Newly registered users): {text}")
    if "does not exist" in text:
        return NotFound(f"{what}: {text}")
    if ("locked" in text or "not authorised" in text or "cannot" in text or "You need to login" in text
            or "not allowed" in text):
        return NotAllowed(f"{what} was refused: {text}")
    return SendFailed(f"{what} was refused: {text}", text)


def _utcnow() -> datetime:
    return datetime.now(UTC)


class PhpBBForum:
    """A phpBB 3.3 forum seen through one account. See :class:`forumbot.forums.base.Forum` for the methods.

    ``base_url`` is the board's folder (``https://forum.example.com/phpBB3``); ``min_write_interval_seconds``
    the board's flood interval (15 s by default; 0 when the judge's group may ignore it);
    ``form_min_age_seconds`` the least age of a form token when posted. ``transport``, ``sleep``,
    ``monotonic`` and ``clock`` (aware UTC now) can be replaced in tests.
    """

    engine = "phpbb"

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        timeout_seconds: float = 20.0,
        min_write_interval_seconds: float = FLOOD_SECONDS,
        retries: int = 3,
        backoff_seconds: float = 0.5,
        request_horizon_seconds: float = 60.0,
        form_min_age_seconds: float = FORM_MIN_AGE_SECONDS,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        clock: Callable[[], datetime] = _utcnow,
    ):
        self.base_url = base_url.rstrip("/")
        self.username = username
        self.__password = password
        self.request_horizon_seconds = float(request_horizon_seconds)
        self.http = Transport(self.base_url, timeout_seconds=timeout_seconds,
                              min_write_interval_seconds=min_write_interval_seconds, retries=retries,
                              backoff_seconds=backoff_seconds, sleep=sleep, clock=monotonic, transport=transport)
        self.flood_seconds = float(min_write_interval_seconds) or FLOOD_SECONDS
        self.form_min_age_seconds = float(form_min_age_seconds)
        self._monotonic = monotonic
        self._clock = clock
        self._user: str | None = None
        self._logged_in = False
        self._uids: dict[str, tuple[int, str]] = {}
        self._threads: dict[int, dict[str, int]] = {}
        self.inbox_usage_seen: tuple[int | None, int | None] = (None, None)

    def __repr__(self) -> str:
        return f"PhpBBForum({self.base_url!r}, user={self.username!r})"

    # -- session ---------------------------------------------------------------------------------------

    @property
    def request_count(self) -> int:
        """HTTP requests sent so far (retries included)."""
        return self.http.request_count

    def close(self) -> None:
        """Closes the HTTP connections."""
        self.http.close()

    def write_wait_seconds(self) -> float:
        """Seconds until the next write may start by the flood interval, counted from the previous answer."""
        return self.http.write_wait_seconds()

    def login(self) -> None:
        """Logs in with a fresh session; a refused form token (seen live now and then on the login form)
        is answered by one more try with a fresh form. Raises AuthFailed, ForumDown or LayoutChanged."""
        try:
            self._login()
        except AuthFailed as exc:
            if "submitted form was invalid" not in str(exc):
                raise
            log.info("phpBB refused the login form's token: trying once more with a fresh form")
            self._login()

    def _login(self) -> None:
        self.http.clear_cookies()
        self._logged_in, self._user = False, None
        path = "/ucp.php?mode=login"
        fetched = self._monotonic()
        page = self.http.get(path)
        form = pages.parse_form(page.text, self._abs(path), "form#login")
        if form.common.user is not None:
            self._logged_in, self._user = True, form.common.user
            return
        self.http.sleep(fetched + FORM_MIN_AGE_SECONDS - self._monotonic())
        fields = {**form.values, "username": self.username, "password": self.__password, "autologin": "on",
                  "viewonline": "on", "login": "Login"}
        fields.pop("redirect", None)
        last_write = self.http._last_write_end  # a login is no post: it does not move the flood interval
        answer = self.http.post(path, fields)
        self.http._last_write_end = last_write
        if answer.status_code in (301, 302, 303):
            self._logged_in = True
            self._user = None
            return
        common = pages.parse_common_page(answer.text, self._abs(path)) if answer.status_code == 200 else None
        detail = "; ".join(common.errors) if common and common.errors else (common.message if common else "")
        raise AuthFailed(f"the forum at {self.base_url} refused the login of {self.username!r}: "
                         f"{detail or f'HTTP {answer.status_code}'}")

    def _age(self, fetched: float, min_age: float | None = None) -> None:
        """Sleeps until a form fetched at ``fetched`` (monotonic) is ``min_age`` old (``form_min_age_seconds``
        by default) and the write interval has passed: both waits at once."""
        age = self.form_min_age_seconds if min_age is None else min_age
        wait = max(self.http.write_wait_seconds(), fetched + age - self._monotonic())
        self.http.sleep(wait)

    def whoami(self) -> str:
        """The user name the forum shows for the logged-in account."""
        if self._user is None:
            self._page("/index.php", pages.parse_common_page)
        assert self._user is not None
        return self._user

    def _abs(self, path: str) -> str:
        return path if path.startswith("http") else self.base_url + path

    def _path(self, href: str) -> str:
        """A link of a page (``./viewtopic.php?...``, absolute or rooted) as a path for the transport."""
        href = href.replace("&amp;", "&")
        href = href.removeprefix(self.base_url)
        if href.startswith("./"):
            href = href[1:]
        elif href.startswith("http"):
            href = "/" + href.split("/", 3)[-1]
        return re.sub(r"([?&])sid=[0-9a-f]+&?", r"\1", href).rstrip("?&")

    def _get(self, path: str) -> tuple[httpx.Response, pages.PageCommon]:
        """A logged-in GET (logs in again once when the page shows a guest). Raises NotFound on 404."""
        if not self._logged_in:
            self.login()
        for attempt in (1, 2):
            response = self.http.get(path)
            if response.status_code not in (200, 404):
                if response.status_code == 403:
                    raise NotAllowed(f"the forum refuses {self._abs(path)} to {self.username!r} (HTTP 403)")
                raise LayoutChanged(self._abs(path), f"HTTP 200 (got {response.status_code})")
            # a cut page parses into shorter messages; a proxy's error page has no prosilver frame
            require_whole_page(response.text, self._abs(path), 'id="phpbb"')
            common = pages.parse_common_page(response.text, self._abs(path))
            if common.user is not None:
                self._user = common.user
                if response.status_code == 404:
                    raise NotFound(f"{self._abs(path)}: {common.message or 'HTTP 404'}")
                return response, common
            if attempt == 1:
                log.info("the phpBB session of %s expired: logging in again", self.username)
                self.login()
        raise AuthFailed(f"the forum at {self.base_url} shows {self.username!r} logged out right after logging in")

    def _page(self, path: str, parse: Callable[[str, str], T]) -> T:
        response, _ = self._get(path)
        return parse(response.text, self._abs(path))

    def find_user(self, name: str) -> str | None:
        """The account ``name`` as the forum spells it (its profile page), or None (HTTP 404 "The requested
        user does not exist."). phpBB matches names without regard to case."""
        found = self._profile(name)
        return found[1] if found else None

    def _profile(self, name: str) -> tuple[int, str] | None:
        if name in self._uids:
            return self._uids[name]
        try:
            uid, spelt = self._page(f"/memberlist.php?mode=viewprofile&un={quote(name, safe='')}", pages.parse_profile)
        except NotFound:
            return None
        self._uids[name] = (uid, spelt)
        return uid, spelt

    # -- reading ---------------------------------------------------------------------------------------

    def thread_posts(self, thread_id: int, after_post_id: int | None = None) -> list[ThreadPost]:
        """Posts newer than ``after_post_id`` (all when None), oldest first. Raises NotFound."""
        tid, after = int(thread_id), int(after_post_id or 0)
        hint = self._threads.get(tid)
        if not after:
            path = f"/viewtopic.php?t={tid}"
        elif hint and hint["post"] == after:
            path = f"/viewtopic.php?t={tid}" + (f"&start={hint['start']}" if hint["start"] else "")
        else:
            path = self._locate(tid, after)
        found: list[ThreadPost] = []
        relocated, first = False, True
        while True:
            topic = self._topic_page(tid, path)
            if first and after and topic.start > 0 and topic.posts[0].post_id > after and not relocated:
                path, relocated = self._locate(tid, after), True  # posts were deleted: pages moved
                continue
            first = False
            found.extend(p for p in topic.posts if p.post_id > after)
            if topic.next_url is None:
                break
            path = self._path(topic.next_url)
        self._threads[tid] = {"post": topic.posts[-1].post_id, "start": topic.start}
        return found

    def _topic_page(self, tid: int, path: str) -> pages.TopicPage:
        try:
            response, _ = self._get(path)
        except NotFound:
            raise NotFound(f"thread {tid} does not exist on {self.base_url}") from None
        return pages.parse_topic(response.text, self._abs(path))

    def _locate(self, tid: int, post_id: int) -> str:
        """The path of the page of thread ``tid`` holding ``post_id`` (the first page when it is gone):
        ``viewtopic.php?p=ID`` shows that page, whose pagination tells its start."""
        try:
            response, _ = self._get(f"/viewtopic.php?p={post_id}")
        except NotFound:
            return f"/viewtopic.php?t={tid}"
        topic = pages.parse_topic(response.text, self._abs(f"/viewtopic.php?p={post_id}"))
        return f"/viewtopic.php?t={tid}" + (f"&start={topic.start}" if topic.start else "")

    def private_messages(self, after_message_id: int | None = None) -> list[PrivateMessage]:
        """Messages received newer than ``after_message_id`` (all when None), oldest first. A forum error
        while opening them carries the messages read so far as ``partial``."""
        after = int(after_message_id or 0)
        me = self.whoami() if self._user is None else self._user
        new_ids: list[int] = []
        path: str | None = "/ucp.php?i=pm&folder=inbox"
        while path is not None:
            folder = self._page(path, pages.parse_folder)
            if path == "/ucp.php?i=pm&folder=inbox":
                self.inbox_usage_seen = (folder.used, folder.limit)
            fresh = [r.message_id for r in folder.rows if r.message_id > after]
            new_ids.extend(fresh)
            more = folder.rows and len(fresh) == len(folder.rows) and folder.next_url is not None
            path = self._path(folder.next_url) if more and folder.next_url else None
        found: list[PrivateMessage] = []
        for mid in sorted(set(new_ids)):
            try:
                message = self._page(f"/ucp.php?i=pm&mode=view&f=0&p={mid}", pages.parse_message)
            except NotFound:
                continue
            except ForumError as exc:
                exc.partial = list(found)  # type: ignore[attr-defined]
                raise
            if message.sender == me:
                continue
            found.append(PrivateMessage(message.message_id, message.sender, message.time_utc, message.subject,
                                        message.text, 0, 60.0))
        return found

    def inbox_folder_usage(self) -> tuple[int | None, int | None]:
        """(messages in the judge's inbox, the folder's limit) from "Folder is N% full"."""
        folder = self._page("/ucp.php?i=pm&folder=inbox", pages.parse_folder)
        self.inbox_usage_seen = (folder.used, folder.limit)
        return folder.used, folder.limit

    def judge_groups(self) -> list[str]:
        """The user groups of the judge's account, as its UCP lists them ("Registered users", ...)."""
        response, _ = self._get("/ucp.php?i=ucp_groups&mode=membership")
        soup = pages.soup_of(response.text)
        return [a.get_text(" ", strip=True) for a in soup.select("ul.topiclist li.row a.forumtitle")]

    def moderates(self, thread_id: int) -> bool:
        """Whether the topic page offers the judge the moderator tools (needed to lock the thread)."""
        response, _ = self._get(f"/viewtopic.php?t={int(thread_id)}")
        return "mode=topic_view" in response.text

    # -- writing ---------------------------------------------------------------------------------------

    def _form(self, path: str, selector: str = "form#postform") -> tuple[pages.FormPage, float]:
        """A write's form, fetched now: (its fields, the monotonic instant it was fetched). Raises the
        page's refusal (a locked topic, no permission, not found) when it shows no form."""
        fetched = self._monotonic()
        try:
            response, common = self._get(path)
        except NotFound as exc:
            raise NotFound(str(exc)) from None
        if common.token is None:
            error = refusal(common, f"opening {self._abs(path)}", self.flood_seconds)
            sorry = pages.soup_of(response.text).select_one("#cp-main p strong")
            if error is None and sorry is not None and "not authorised" in sorry.get_text():
                error = NotAllowed(f"the forum does not let {self.username!r} use {self._abs(path)}: "
                                   f"{sorry.get_text(' ', strip=True)}")
            raise error or LayoutChanged(self._abs(path), f"the form '{selector}' with its form token")
        return pages.parse_form(response.text, self._abs(path), selector), fetched

    def _write(self, path: str, fields: Mapping[str, str], what: str, action: str | None = None,
               keep: tuple[str, ...] | None = ("creation_time", "form_token")) -> httpx.Response:
        """Fetches the form at ``path``, posts ``fields`` with its token when old enough and the write
        interval passed; a flood refusal or a refused token (neither stored anything) is retried once with
        a fresh form after the wait. Returns a redirect or a page without a refusal; raises the typed
        refusal otherwise."""
        retried = False
        min_age = self.form_min_age_seconds
        while True:
            form, fetched = self._form(path)
            token = {k: v for k, v in form.values.items() if keep is None or k in keep}
            self._age(fetched, min_age)
            answer = self.http.post(self._path(action or form.action) if (action or form.action) else path,
                                    {**token, **fields})
            if answer.status_code in (301, 302, 303):
                if "mode=login" in answer.headers.get("location", ""):
                    self._logged_in = False
                    if not retried:
                        retried = True
                        continue
                return answer
            if answer.status_code != 200:
                raise WriteUncertain(f"the forum answered HTTP {answer.status_code} when asked to {what}; "
                                     "it may or may not have been done")
            common = pages.parse_common_page(answer.text, self._abs(path))
            error = refusal(common, what, self.flood_seconds)
            if isinstance(error, PostQueued) or error is None:
                if error is not None:
                    raise error
                return answer
            if isinstance(error, (FloodControl, FormTooFresh)) and not retried:
                retried = True
                log.info("phpBB refused %s (%s): waiting %.0f s and sending it again", what, type(error).__name__,
                         error.wait_seconds)
                if isinstance(error, FormTooFresh):
                    min_age = max(min_age, FORM_MIN_AGE_SECONDS)
                else:
                    self.http.sleep(error.wait_seconds)
                continue
            raise error

    def reply(self, thread_id: int, body: str) -> int:
        """Posts a reply; returns its post id. Raises NotFound, NotAllowed (locked topic), PostQueued,
        PostTooShort, FloodControl or SendFailed."""
        tid = int(thread_id)
        answer = self._write(f"/posting.php?mode=reply&t={tid}", {"message": body, "post": "Submit"},
                             f"the reply in thread {tid}")
        post_id = pages.post_id_from_url(answer.headers.get("location", ""))
        if post_id is None:
            raise WriteUncertain(f"the forum did not say which post the reply in thread {tid} became "
                                 f"(HTTP {answer.status_code}); it may or may not have been posted")
        return post_id

    def create_thread(self, forum_id: int, subject: str, body: str) -> int:
        """Opens a topic in board ``forum_id``; returns its id. Raises NotFound, NotAllowed, PostQueued or SendFailed."""
        fid = int(forum_id)
        answer = self._write(f"/posting.php?mode=post&f={fid}", {"subject": subject, "message": body, "post": "Submit"},
                             f"the new thread in board {fid}")
        location = answer.headers.get("location", "")
        tid = pages.query_int(location, "t")
        if tid is None and pages.post_id_from_url(location) is not None:
            tid = self._thread_of_post(pages.post_id_from_url(location) or 0)
        if tid is None:
            raise WriteUncertain(f"the forum did not say which thread it opened in board {fid}")
        return tid

    def _thread_of_post(self, post_id: int) -> int | None:
        response, _ = self._get(f"/viewtopic.php?p={post_id}")
        soup = pages.soup_of(response.text)
        link = soup.select_one("h2.topic-title a[href]")
        return pages.query_int(pages.attr(link, "href"), "t") if link is not None else None

    def edit_post(self, post_id: int, body: str) -> None:
        """Replaces the text of one of the judge's posts (subject and options kept; the form's other fields
        are sent back). Raises NotFound or NotAllowed."""
        pid = int(post_id)
        try:
            answer = self._write(f"/posting.php?mode=edit&p={pid}", {"message": body, "post": "Submit"},
                                 f"the edit of post {pid}", keep=None)
        except (SendFailed, FormTooFresh) as exc:
            raise NotAllowed(f"post {pid} was not edited: {exc}") from None
        if pages.post_id_from_url(answer.headers.get("location", "")) != pid:
            raise NotAllowed(f"post {pid} was not edited (HTTP {answer.status_code}, no redirect to the post)")

    def lock_thread(self, thread_id: int) -> None:
        """Locks the topic (moderator tools, confirmed). Raises NotFound, or NotAllowed without moderator rights."""
        self._set_lock(int(thread_id), True)

    def unlock_thread(self, thread_id: int) -> None:
        """Unlocks the topic. Raises NotFound, or NotAllowed without moderator rights."""
        self._set_lock(int(thread_id), False)

    def _set_lock(self, tid: int, locked: bool) -> None:
        action = "lock" if locked else "unlock"
        path = f"/mcp.php?t={tid}&quickmod=1&action={action}"
        response, common = self._get(path)
        if "confirm" not in response.text or pages.soup_of(response.text).select_one("input[name=confirm]") is None:
            error = refusal(common, f"{action}ing thread {tid}", self.flood_seconds)
            raise error if isinstance(error, (NotFound, NotAllowed)) else NotAllowed(
                f"the forum did not offer to {action} thread {tid}: {error or 'no moderator rights?'}")
        form = pages.parse_form(response.text, self._abs(path), "form#confirm")
        answer = self.http.post(self._path(form.action) or path, {**form.values, "confirm": "Yes"})
        if answer.status_code in (301, 302, 303):
            answer = self.http.get(self._path(answer.headers["location"]))
        text = answer.text
        done = "has been locked" if locked else "has been unlocked"
        if done not in text:
            common = pages.parse_common_page(text, self._abs(path))
            raise NotAllowed(f"the forum did not {action} thread {tid}: {common.message or 'no confirmation'}")

    def send_pm(self, user: str, subject: str, body: str, conversation_id: int | None = None) -> SentMessage:
        """Sends a private message to ``user`` (phpBB has no conversations: ``conversation_id`` is ignored)
        and returns the message's id from phpBB's answer. Raises NoSuchUser, SendFailed (refused),
        FloodControl, PostTooShort or WriteUncertain."""
        found = self._profile(user)
        if found is None:
            raise NoSuchUser(f"the private message to {user!r} was not sent: the forum has no such user",
                             "no such user")
        uid, _ = found
        subject = stored_subject(subject, SUBJECT_LIMIT)  # phpBB trims it; its form takes 120 characters
        fields = {f"address_list[u][{uid}]": "to", "subject": subject, "message": body, "post": "Submit"}
        try:
            answer = self._write("/ucp.php?i=pm&mode=compose", fields, f"the private message to {user!r}",
                                 action="/ucp.php?i=pm&mode=compose&action=post")
        except NotAllowed as exc:
            raise SendFailed(str(exc), str(exc)) from None
        mid = pages.sent_message_id(answer.text)
        if mid is None:
            raise WriteUncertain(f"the forum did not confirm the private message to {user!r}; it may or may not "
                                 "have been sent")
        return SentMessage(mid, 0, user, _answer_time(answer, self._clock))

    def find_thread(self, forum_id: int, subject: str) -> int | None:
        """The newest topic the judge opened in board ``forum_id`` with exactly ``subject`` (the board's
        first page), or None."""
        me = self.whoami()
        rows = self._page(f"/viewforum.php?f={int(forum_id)}", pages.parse_board)
        mine = [r.thread_id for r in rows if r.author == me and r.subject == subject]
        return max(mine) if mine else None

    def find_sent_pm(self, user: str, subject: str, body: str = "", after_message_id: int | None = None,
                     conversation_id: int | None = None) -> SentMessage | None:
        """The judge's first message to ``user`` newer than ``after_message_id`` with ``subject`` whose
        text matches ``body`` (by :func:`~forumbot.forums.base.fingerprint`; the newest when ``body`` is
        empty), from the first pages of the outbox (not yet delivered) and the sent box; or None."""
        after = int(after_message_id or 0)
        want_subject = stored_subject(subject, SUBJECT_LIMIT)
        candidates: list[tuple[int, int]] = []  # (message id, folder id)
        for folder, fid in (("outbox", -2), ("sentbox", -1)):
            rows = self._page(f"/ucp.php?i=pm&folder={folder}", pages.parse_folder).rows
            candidates += [(r.message_id, fid) for r in rows
                           if r.message_id > after and r.party == user and stored_subject(r.subject) == want_subject]
        if not candidates:
            return None
        want = fingerprint(body) if body else ""
        ordered = sorted(candidates) if body else sorted(candidates, reverse=True)
        for mid, fid in ordered[:_FIND_SENT_OPENED]:
            message = self._page(f"/ucp.php?i=pm&mode=view&f={fid}&p={mid}", pages.parse_message)
            if not want or fingerprint(message.text) == want or fingerprint(_bbcode_plain(body)) == fingerprint(message.text):
                return SentMessage(mid, 0, user, message.time_utc)
        return None

    # -- cursor ----------------------------------------------------------------------------------------

    def export_cursor(self) -> dict[str, Any]:
        """Polling memory as JSON-able data: per thread the last post returned and its page's start."""
        return {"kind": _CURSOR_KIND, "base_url": self.base_url,
                "threads": {str(k): dict(v) for k, v in self._threads.items()}}

    def import_cursor(self, data: Mapping[str, Any]) -> None:
        """Restores :meth:`export_cursor` output; data of another engine, version or forum is ignored."""
        if not data or data.get("kind") != _CURSOR_KIND or data.get("base_url") != self.base_url:
            return
        try:
            threads = {int(k): {"post": int(v["post"]), "start": int(v["start"])} for k, v in data["threads"].items()}
        except (KeyError, TypeError, ValueError, AttributeError):
            return
        self._threads = threads


def _bbcode_plain(body: str) -> str:
    """``body`` without BBCode tags (how a sent message's text reads back)."""
    return re.sub(r"\[/?[a-z*]+(?:=[^\]]*)?\]", "", body)


def _answer_time(answer: httpx.Response, clock: Callable[[], datetime]) -> datetime:
    """When the forum answered (its ``Date`` header; our clock without one)."""
    try:
        return parsedate_to_datetime(answer.headers["date"]).astimezone(UTC)
    except (KeyError, TypeError, ValueError):
        return clock()
