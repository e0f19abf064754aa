"""The :class:`~forumbot.forums.base.Forum` adapter for FlaskBB 3.0 with the conversations plugin (HTML only).

How it reads
    Topic pages hold 10 posts, oldest first; post ids grow. The cursor remembers, per thread, the last post
    returned and its page, so a poll that finds nothing new is one GET of that page (its pagination tells
    whether a later page exists). Without a usable hint, ``GET /post/{id}`` (a redirect to the page holding
    that post) finds the place in one request.

    The inbox lists conversations by latest activity with the time and an excerpt of their last message.
    The cursor remembers that "marker" per conversation; only conversations whose marker changed are
    opened, and later inbox pages are read only while the last row of a page still needs reading (or was
    opened by the previous poll, which moved it up). Opening a conversation marks it read in FlaskBB; the
    adapter never uses that flag.

How it writes
    Every form needs the session's CSRF token; it is read from the last page fetched (it lasts an hour).
    A session found dropped (the page shows a guest, or a redirect to the login page) is renewed by
    logging in again, once per call.

Limits of FlaskBB (3.0.0rc5, conversations 3.0.7)
    The message quota is checked on the *sender's* box only: a full box makes FlaskBB refuse silently (a
    redirect to the inbox with a flashed alert); :meth:`send_pm` detects it and raises :class:`SendFailed`.
    A recipient's full box does not stop delivery in FlaskBB.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar
from urllib.parse import quote, urlsplit

import httpx

from forumbot.forums import flaskbb_pages as pages
from forumbot.forums._http import Transport
from forumbot.forums.base import PrivateMessage, SentMessage, ThreadPost, fingerprint, stored_subject
from forumbot.forums.errors import (
    AuthFailed,
    ForumError,
    LayoutChanged,
    NoSuchUser,
    NotAllowed,
    NotFound,
    SendFailed,
    WriteUncertain,
)
from forumbot.forums.html_text import require_whole_page


class _HasCommon(Protocol):
    """A parsed page that carries what every page shows (user menu, CSRF token, alerts)."""

    @property
    def common(self) -> pages.PageCommon: ...


T = TypeVar("T", bound="pages.PageCommon | _HasCommon")
_CSRF_MAX_AGE = 30 * 60.0  # seconds; FlaskBB's tokens last an hour
_CURSOR_KIND = "flaskbb/1"
SUBJECT_LIMIT = 255  # characters: the conversations' subject column (String(255))
_PAGE_MARK = "flaskbb-navbar"  # on every page FlaskBB renders (Aurora's navbar), not on a proxy's error page


class FlaskBBForum:
    """A FlaskBB forum seen through one account. See :class:`forumbot.forums.base.Forum` for the methods.

    ``base_url`` like ``http://127.0.0.1:8080``; ``timeout_seconds`` per request;
    ``min_write_interval_seconds`` between writes; ``retries`` / ``backoff_seconds`` for transient failures;
    ``request_horizon_seconds``: how long after a request timed out the forum may still perform it.
    """

    engine = "flaskbb"

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        timeout_seconds: float = 20.0,
        min_write_interval_seconds: float = 0.0,
        retries: int = 3,
        backoff_seconds: float = 0.5,
        request_horizon_seconds: float = 60.0,
    ):
        self.base_url = base_url.rstrip("/")
        self.request_horizon_seconds = float(request_horizon_seconds)
        self.username = username
        self.__password = password
        self.http = Transport(
            self.base_url,
            timeout_seconds=timeout_seconds,
            min_write_interval_seconds=min_write_interval_seconds,
            retries=retries,
            backoff_seconds=backoff_seconds,
        )
        self._user: str | None = None
        self._logged_in = False
        self._csrf: str | None = None
        self._csrf_at = 0.0
        self._threads: dict[int, dict[str, int]] = {}
        self._convs: dict[int, dict[str, Any]] = {}
        self._viewed: list[int] = []
        self._unsettled = False  # the last inbox read did not finish: the next one lists every page
        #: the last inbox read saw a conversation page older than the list (see base.Forum): not complete
        self.inbox_incomplete = False

    def __repr__(self) -> str:
        return f"FlaskBBForum({self.base_url!r}, user={self.username!r})"

    # -- session ---------------------------------------------------------------------------------------

    @property
    def request_count(self) -> int:
        """HTTP requests sent so far (retries and redirects included)."""
        return self.http.request_count

    def close(self) -> None:
        """Closes the HTTP connections."""
        self.http.close()

    def write_wait_seconds(self) -> float:
        """Seconds until the next write may start (``min_write_interval_seconds`` after the last answer)."""
        return self.http.write_wait_seconds()

    def login(self) -> None:
        """Logs in with a fresh session. Raises AuthFailed, RateLimited, ForumDown or LayoutChanged."""
        self.http.clear_cookies()
        self._logged_in = False
        self._csrf = None
        url = "/auth/login"
        form = self.http.get(url)
        common = pages.parse_common(pages.soup_of(form.text), self._abs(url))
        if common.user is not None:  # a remember-me cookie survived: already in
            self._mark_logged_in(common)
            return
        if not common.csrf:
            raise LayoutChanged(self._abs(url), "the login form's csrf_token")
        answer = self.http.post(
            url,
            {"login": self.username, "password": self.__password, "remember_me": "y", "csrf_token": common.csrf},
        )
        if answer.status_code in (301, 302, 303):
            self._logged_in = True
            self._user = None
            return
        problems = pages.form_errors(answer.text) if answer.status_code == 200 else []
        detail = "; ".join(problems) or f"HTTP {answer.status_code}"
        raise AuthFailed(f"the forum at {self.base_url} refused the login of {self.username!r}: {detail}")

    def whoami(self) -> str:
        """The user name the forum shows for the logged-in account."""
        if self._user is None:
            self._page("/", pages.parse_common_page)
        assert self._user is not None
        return self._user

    def find_user(self, name: str) -> str | None:
        """``name`` if the forum has an account of exactly that name (its profile page ``/user/NAME``),
        None when that page is 404. Raises ForumError when the page cannot be read."""
        try:
            self._page(f"/user/{quote(name, safe='')}", pages.parse_common_page)
        except NotFound:
            return None
        return name

    def _mark_logged_in(self, common: pages.PageCommon) -> None:
        self._logged_in = True
        self._user = common.user
        if common.csrf:
            self._csrf, self._csrf_at = common.csrf, time.monotonic()

    def _abs(self, path: str) -> str:
        return path if path.startswith("http") else self.base_url + path

    def _page(self, path: str, parse: Callable[[str, str], T]) -> T:
        """GETs a page that needs the login, parses it, logs in again once if the session was dropped."""
        if not self._logged_in:
            self.login()
        for attempt in (1, 2):
            response = self.http.get(path)
            final = str(response.url)
            if response.status_code == 404 or pages.missing_object(response.text):
                raise NotFound(f"{self._abs(path)} does not exist on the forum")
            if response.status_code == 403:
                raise NotAllowed(f"the forum refuses {self._abs(path)} to {self.username!r} (HTTP 403)")
            if urlsplit(final).path.startswith("/auth/login"):
                parsed = None
            else:
                if response.status_code != 200:
                    raise LayoutChanged(final, f"HTTP 200 (got {response.status_code})")
                require_whole_page(response.text, final, _PAGE_MARK)  # a cut page parses into shorter messages
                parsed = parse(response.text, final)
                common = parsed if isinstance(parsed, pages.PageCommon) else parsed.common
                if common.user is not None:
                    self._mark_logged_in(common)
                    return parsed
            if attempt == 1:
                self.login()
        raise AuthFailed(f"the forum at {self.base_url} shows {self.username!r} logged out right after logging in")

    def _token(self, form_path: str) -> str:
        if self._csrf is None or time.monotonic() - self._csrf_at > _CSRF_MAX_AGE:
            self._page(form_path, pages.parse_common_page)
        if self._csrf is None:
            raise LayoutChanged(self._abs(form_path), "a csrf_token")
        return self._csrf

    def _submit(self, path: str, data: Mapping[str, str], form_path: str) -> httpx.Response:
        """POSTs a form; on a dropped session or stale token logs in / refreshes the token and retries once."""
        if not self._logged_in:
            self.login()
        for attempt in (1, 2):
            answer = self.http.post(path, {**data, "csrf_token": self._token(form_path)})
            location = answer.headers.get("location", "")
            dropped = answer.status_code in (301, 302, 303) and "/auth/login" in location
            if not dropped and answer.status_code != 400:
                return answer
            if attempt == 1:
                self._csrf = None
                if dropped:
                    self.login()
        detail = "its session was dropped" if dropped else "the form token was refused (HTTP 400)"
        raise AuthFailed(f"the forum at {self.base_url} would not accept a form from {self.username!r}: {detail}")

    def _refusal(self, answer: httpx.Response, what: str) -> str:
        """The forum's reason for refusing a write: flashed alerts after the redirect, or the form's errors.
        Raises WriteUncertain when the answer gives none (neither the expected result nor a refusal)."""
        status = answer.status_code
        if answer.status_code in (301, 302, 303):
            answer = self.http.get(answer.headers["location"])
        reasons = pages.form_errors(answer.text) if answer.status_code == 200 else []
        if not reasons:
            raise WriteUncertain(f"the forum answered HTTP {status} without the result or a reason when asked to "
                                 f"{what}; it may or may not have been done")
        return "; ".join(reasons)

    # -- reading ---------------------------------------------------------------------------------------

    def thread_posts(self, thread_id: int, after_post_id: int | None = None) -> list[ThreadPost]:
        """Posts newer than ``after_post_id`` (all when None), oldest first. Raises NotFound."""
        thread_id = int(thread_id)
        after = int(after_post_id or 0)
        hint = self._threads.get(thread_id)
        if not after:
            page = 1
        elif hint and hint["post"] == after:
            page = hint["page"]
        else:
            page = self._locate(thread_id, after)
        found: list[ThreadPost] = []
        relocated = False
        first = True  # the page that should hold ``after``: if it starts past it, posts were deleted
        while True:
            try:
                topic = self._topic_page(thread_id, page)
            except NotFound:
                if page == 1 or relocated:
                    raise
                page, relocated = self._locate(thread_id, after), True  # posts were deleted: pages moved
                continue
            if first and page > 1 and after and topic.posts[0].post_id > after and not relocated:
                page, relocated = self._locate(thread_id, after), True
                continue
            first = False
            found.extend(p for p in topic.posts if p.post_id > after)
            if topic.page >= topic.last_page:
                break
            page = topic.page + 1
        self._threads[thread_id] = {"post": topic.posts[-1].post_id, "page": topic.page}
        return found

    def _topic_page(self, thread_id: int, page: int) -> pages.TopicPage:
        path = f"/topic/{thread_id}" + (f"?page={page}" if page > 1 else "")
        try:
            return self._page(path, pages.parse_topic)
        except NotFound:
            raise NotFound(f"thread {thread_id} (page {page}) does not exist on {self.base_url}") from None

    def _locate(self, thread_id: int, post_id: int) -> int:
        """The page of ``thread_id`` holding ``post_id`` (1 when that post is gone: read from the start)."""
        if not self._logged_in:
            self.login()
        answer = self.http.get(f"/post/{post_id}", follow=False)
        if answer.status_code == 404 or pages.missing_object(answer.text):
            return 1
        location = answer.headers.get("location", "")
        if answer.status_code not in (301, 302, 303) or pages.thread_id_from_url(location) is None:
            raise LayoutChanged(self._abs(f"/post/{post_id}"), "a redirect to the topic page holding the post")
        if pages.thread_id_from_url(location) != thread_id:
            raise NotFound(f"post {post_id} is not in thread {thread_id}")
        return pages.page_from_url(location)

    def private_messages(self, after_message_id: int | None = None) -> list[PrivateMessage]:
        """Messages received newer than ``after_message_id`` (all when None), oldest first. A forum error
        while opening the conversations carries the messages read so far as ``partial`` (the runtime
        keeps them; the conversations opened are remembered in the cursor)."""
        after = int(after_message_id or 0)
        me = self.whoami() if self._user is None else self._user
        to_open: dict[int, pages.InboxRow | None] = {}
        # After a read that did not finish, conversations were opened (moved up) or listed and not opened:
        # the rule below for stopping at a page no longer holds, so every page is listed once.
        deep, self._unsettled = self._unsettled, True
        page = 1
        while True:
            inbox = self._page("/conversations/inbox" + (f"?page={page}" if page > 1 else ""), pages.parse_inbox)
            for row in inbox.rows:
                known = self._convs.get(row.conversation_id)
                if known is None or known["marker"] != row.marker or known["last"] > after:
                    to_open[row.conversation_id] = row
            last = inbox.rows[-1] if inbox.rows else None
            more = deep or (last is not None and (last.conversation_id in to_open or last.conversation_id in self._viewed))
            if inbox.page >= inbox.last_page or not more:
                break
            page = inbox.page + 1
        for cid, known in self._convs.items():  # the caller went back: re-read what it has not processed
            if known["last"] > after:
                to_open.setdefault(cid, None)
        found: list[PrivateMessage] = []
        stale = False
        for cid, listed in to_open.items():
            try:
                conv = self._page(f"/conversations/{cid}/view", pages.parse_conversation)
            except NotFound:
                self._convs.pop(cid, None)
                continue
            except ForumError as exc:  # keep what was read: the conversations opened are in the cursor
                exc.partial = sorted(found, key=lambda m: m.message_id)  # type: ignore[attr-defined]
                self._viewed = list(dict.fromkeys([*self._viewed, *to_open]))
                raise
            received = [m for m in conv.messages if m.author != me]
            for m in received:
                if m.message_id > after:
                    found.append(PrivateMessage(m.message_id, m.author, m.time_utc, conv.subject, m.text, cid))
            marker = listed.marker if listed else self._convs.get(cid, {}).get("marker", "")
            if listed is not None and max(m.time_utc for m in conv.messages) < listed.last_time_utc:
                # the page is older than the list (a cache's copy): its newest message is not on it; open it
                # again next poll, and this read must not count as complete (a higher id would pass it)
                stale, marker = True, ""
            self._convs[cid] = {"marker": marker, "last": max((m.message_id for m in received), default=0)}
        self._viewed, self._unsettled = list(to_open), False
        self.inbox_incomplete = stale
        return sorted(found, key=lambda m: m.message_id)

    def inbox_usage(self) -> tuple[int | None, int | None]:
        """(conversations in the judge's box, quota or None when the quota is off), from the inbox header."""
        inbox = self._page("/conversations/inbox", pages.parse_inbox)
        return inbox.count, inbox.quota

    # -- writing ---------------------------------------------------------------------------------------

    def reply(self, thread_id: int, body: str) -> int:
        """Posts a reply; returns its post id. Raises NotFound, NotAllowed (locked thread) or SendFailed."""
        path = f"/topic/{int(thread_id)}/post/new"
        answer = self._submit(path, {"content": body, "submit": "Reply"}, form_path=path)
        if answer.status_code == 404 or pages.missing_object(answer.text):
            raise NotFound(f"thread {thread_id} does not exist on {self.base_url}")
        post_id = pages.post_id_from_url(answer.headers.get("location", ""))
        if answer.status_code in (301, 302, 303) and post_id is not None:
            return post_id
        reason = self._refusal(answer, "store the reply")
        if answer.status_code in (301, 302, 303):
            raise NotAllowed(f"the forum refused the reply in thread {thread_id}: {reason}")
        raise SendFailed(f"the reply in thread {thread_id} was not posted: {reason}", reason)

    def create_thread(self, forum_id: int, subject: str, body: str) -> int:
        """Opens a thread in board ``forum_id``; returns the thread id. Raises NotFound, NotAllowed or SendFailed."""
        path = f"/{int(forum_id)}/topic/new"
        answer = self._submit(path, {"title": subject, "content": body, "submit": "Post topic"}, form_path=path)
        if answer.status_code == 404 or pages.missing_object(answer.text):
            raise NotFound(f"forum (board) {forum_id} does not exist on {self.base_url}")
        location = answer.headers.get("location", "")
        thread_id = pages.thread_id_from_url(location)
        if answer.status_code in (301, 302, 303) and thread_id is not None:
            return thread_id
        reason = self._refusal(answer, "open the thread")
        if answer.status_code in (301, 302, 303):
            raise NotAllowed(f"the forum refused a new thread in board {forum_id}: {reason}")
        raise SendFailed(f"the thread was not created in board {forum_id}: {reason}", reason)

    def edit_post(self, post_id: int, body: str) -> None:
        """Replaces the text of a post (the first post of a thread too). Raises NotFound or NotAllowed."""
        if not self._logged_in:
            self.login()
        path = f"/post/{int(post_id)}/edit"
        first = self.http.get(path, follow=False)
        if first.status_code == 404 or pages.missing_object(first.text):
            raise NotFound(f"post {post_id} does not exist on {self.base_url}")
        location = first.headers.get("location", "")
        if "/auth/login" in location:
            self.login()
            first = self.http.get(path, follow=False)
            location = first.headers.get("location", "")
        if first.status_code in (301, 302, 303) and "/edit" in location:
            path = urlsplit(location).path  # the first post is edited through its topic
            form = self._page(path, pages.parse_post_form)
        elif first.status_code == 200:
            form = pages.parse_post_form(first.text, self._abs(path))
            self._csrf, self._csrf_at = form.common.csrf, time.monotonic()
        else:
            reason = self._refusal(first, "open the editor")
            raise NotAllowed(f"the forum does not let {self.username!r} edit post {post_id}: {reason}")
        values = {k: v for k, v in form.values.items() if k != "csrf_token"}
        values.update(content=body, submit="Save")
        answer = self._submit(path, values, form_path=path)
        if answer.status_code not in (301, 302, 303) or "/edit" in answer.headers.get("location", ""):
            raise NotAllowed(f"post {post_id} was not edited: {self._refusal(answer, 'save the edit')}")

    def lock_thread(self, thread_id: int) -> None:
        """Locks the thread. Raises NotFound, or NotAllowed without moderator rights."""
        self._set_lock(int(thread_id), True)

    def unlock_thread(self, thread_id: int) -> None:
        """Unlocks the thread. Raises NotFound, or NotAllowed without moderator rights."""
        self._set_lock(int(thread_id), False)

    def _set_lock(self, thread_id: int, locked: bool) -> None:
        action = "lock" if locked else "unlock"
        answer = self._submit(f"/topic/{thread_id}/{action}", {}, form_path=f"/topic/{thread_id}")
        if answer.status_code == 404 or pages.missing_object(answer.text):
            raise NotFound(f"thread {thread_id} does not exist on {self.base_url}")
        topic = self._topic_page(thread_id, 1)
        if topic.locked is not locked:
            reason = "; ".join(text for level, text in topic.common.flashes if level in ("danger", "warning"))
            raise NotAllowed(f"the forum did not {action} thread {thread_id}: {reason or 'no moderator rights?'}")

    def send_pm(self, user: str, subject: str, body: str, conversation_id: int | None = None) -> SentMessage:
        """Sends ``body`` to ``user``: inside the judge's conversation ``conversation_id`` when given (and
        still there), else as a new conversation with ``subject``; checks it is stored and returns the proof.
        Raises NoSuchUser, SendFailed (refused, e.g. the judge's box is full) or WriteUncertain."""
        if conversation_id:
            try:
                return self._reply_pm(int(conversation_id), user, body)
            except NotFound:
                pass  # the judge's copy was deleted: start a new conversation
        # FlaskBB shows the subject stripped and refuses a blank one ("A Subject is required.")
        subject = stored_subject(subject, SUBJECT_LIMIT) or stored_subject(body, 60) or "-"
        fields = {"to_user": user, "subject": subject, "message": body, "send_message": "Start Conversation"}
        answer = self._submit("/conversations/new", fields, form_path="/conversations/new")
        location = answer.headers.get("location", "")
        if answer.status_code not in (301, 302, 303) or not location.rstrip("/").endswith("/conversations/sent"):
            reason = self._refusal(answer, "send the message")
            if "does not exist" in reason:
                raise NoSuchUser(f"the private message to {user!r} was not sent: {reason}", reason)
            raise SendFailed(f"the private message to {user!r} was not sent: {reason}", reason)
        found = self.find_sent_pm(user, subject, body)
        if found is None:
            raise WriteUncertain(f"the forum said the message to {user!r} was sent but it is not in the sent box")
        return found

    def _reply_pm(self, conversation_id: int, user: str, body: str) -> SentMessage:
        path = f"/conversations/{conversation_id}/view"
        answer = self._submit(path, {"message": body, "submit": "Send Message"}, form_path=path)
        if answer.status_code == 404:
            raise NotFound(f"conversation {conversation_id} does not exist on {self.base_url}")
        location = answer.headers.get("location", "")
        if answer.status_code not in (301, 302, 303) or not urlsplit(location).path.rstrip("/").endswith(path):
            reason = self._refusal(answer, "send the message")
            raise SendFailed(f"the private message to {user!r} was not sent: {reason}", reason)
        conv = self._page(path, pages.parse_conversation)  # the message just sent: the newest of ours with its text
        want = fingerprint(body)
        mine = [m for m in conv.messages if m.author == self._user and fingerprint(m.text) == want]
        if not mine:
            raise WriteUncertain(f"the forum said the message to {user!r} was sent but it is not in the conversation")
        return SentMessage(mine[-1].message_id, conversation_id, user, mine[-1].time_utc)

    def find_thread(self, forum_id: int, subject: str) -> int | None:
        """The newest thread the judge opened in board ``forum_id`` with exactly ``subject`` (first page
        of the board), or None."""
        board = self._page(f"/forum/{forum_id}", pages.parse_board)
        for row in board.rows:
            if row.author != self._user or row.subject != subject:
                continue
            direct = pages.thread_id_from_url(row.href)
            if direct is not None:
                return direct
            answer = self.http.get(row.href, follow=False)
            location = answer.headers.get("location", "")
            if answer.status_code in (301, 302, 303) and pages.thread_id_from_url(location) is not None:
                return pages.thread_id_from_url(location)
            raise LayoutChanged(self._abs(row.href), "a redirect to the topic of the board's first post link")
        return None

    def find_sent_pm(self, user: str, subject: str, body: str = "", after_message_id: int | None = None,
                     conversation_id: int | None = None) -> SentMessage | None:
        """The judge's first message to ``user`` newer than ``after_message_id`` whose text matches ``body``
        (by :func:`~forumbot.forums.base.fingerprint`; any text when empty), in conversation
        ``conversation_id`` or else in the newest conversation of the sent box's first page with ``user``
        and ``subject``; None when there is none."""
        cid = conversation_id
        if not cid:
            sent = self._page("/conversations/sent", pages.parse_inbox)
            want = stored_subject(subject, SUBJECT_LIMIT) or stored_subject(body, 60) or "-"
            row = next((r for r in sent.rows if r.to_user == user and stored_subject(r.subject) == want), None)
            if row is None:
                return None
            cid = row.conversation_id
        try:
            conv = self._page(f"/conversations/{cid}/view", pages.parse_conversation)
        except NotFound:
            return None
        want = fingerprint(body) if body else ""
        after = int(after_message_id or 0)
        mine = [m for m in conv.messages if m.author == self._user and m.message_id > after
                and (not want or fingerprint(m.text) == want)]
        if not mine:
            return None
        m = mine[0] if body else mine[-1]
        return SentMessage(m.message_id, cid, user, m.time_utc)

    # -- cursor ----------------------------------------------------------------------------------------

    def export_cursor(self) -> dict[str, Any]:
        """Polling memory as JSON-able data: thread hints and the conversations seen."""
        return {
            "kind": _CURSOR_KIND,
            "base_url": self.base_url,
            "threads": {str(k): dict(v) for k, v in self._threads.items()},
            "conversations": {str(k): dict(v) for k, v in self._convs.items()},
            "viewed": list(self._viewed),
            "unsettled": self._unsettled,
        }

    def import_cursor(self, data: Mapping[str, Any]) -> None:
        """Restores :meth:`export_cursor` output; data from another engine, version or forum is ignored."""
        if not data or data.get("kind") != _CURSOR_KIND or data.get("base_url") != self.base_url:
            return
        try:
            threads = {int(k): {"post": int(v["post"]), "page": int(v["page"])} for k, v in data["threads"].items()}
            convs = {int(k): {"marker": str(v["marker"]), "last": int(v["last"])} for k, v in data["conversations"].items()}
            viewed = [int(c) for c in data.get("viewed", [])]
            unsettled = bool(data.get("unsettled", False))
        except (KeyError, TypeError, ValueError, AttributeError):
            return
        self._threads, self._convs, self._viewed, self._unsettled = threads, convs, viewed, unsettled
