"""An in-memory forum: the :class:`~forumbot.forums.base.Forum` interface without HTTP, for tests of
the runtime and for dry runs. Players act through :meth:`MemoryForum.player_pm` and
:meth:`MemoryForum.player_post`; :attr:`down`, :attr:`full_mailboxes`, :attr:`fail_after_write` and
:attr:`late_writes` inject failures; :attr:`write_interval_seconds` paces writes like a real forum."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from forumbot.forums.base import PrivateMessage, SentMessage, ThreadPost, fingerprint
from forumbot.forums.errors import ForumDown, NoSuchUser, NotAllowed, NotFound, SendFailed, WriteUncertain


@dataclass
class _Sent:
    message_id: int
    recipient: str
    subject: str
    body: str
    time_utc: datetime
    conversation_id: int = 0


@dataclass
class MemoryForum:
    """One forum seen by the judge account ``username``. ``clock`` gives the forum's time (UTC).

    ``users``: when not empty, the accounts that exist (a PM to anyone else raises NoSuchUser).
    ``late_writes``: how many of the next writes the forum performs ``late_write_seconds`` after the
    request while the judge gets no answer (WriteUncertain), like an overloaded forum working through its
    queue. ``write_interval_seconds``: the pacing :meth:`write_wait_seconds` reports after each answered write.
    """

    username: str = "judge"
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    down: bool = False
    full_mailboxes: set[str] = field(default_factory=set)
    threads: dict[int, list[ThreadPost]] = field(default_factory=dict)
    inbox: list[PrivateMessage] = field(default_factory=list)
    sent: list[_Sent] = field(default_factory=list)
    users: set[str] = field(default_factory=set)
    subjects: dict[int, str] = field(default_factory=dict)
    requests: int = 0
    edits: int = 0  # posts edited (edits performed, the same text again included)
    _next_id: int = 1
    fail_after_write: bool = False  # the write reaches the forum, then the connection drops
    late_writes: int = 0
    late_write_seconds: float = 10.0
    write_interval_seconds: float = 0.0
    request_horizon_seconds: float = 0.0
    conversations: dict[int, str] = field(default_factory=dict)  # the judge's conversation id -> the other user
    _late: list[tuple[datetime, Callable[[], Any]]] = field(default_factory=list)
    _last_answer: datetime | None = None

    def _id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _req(self) -> None:
        self.requests += 1
        self._catch_up()
        if self.down:
            raise ForumDown("the forum is down (memory forum)")

    def _catch_up(self) -> None:
        """Performs the late writes whose time has come."""
        now = self.clock()
        due = [w for w in self._late if w[0] <= now]
        self._late = [w for w in self._late if w[0] > now]
        for _, perform in due:
            perform()

    def _write(self, perform: Callable[[], Any]) -> Any:
        """Performs a write now, or (``late_writes``) later without answering; paces the next one."""
        if self.late_writes > 0:
            self.late_writes -= 1
            self._late.append((self.clock() + timedelta(seconds=self.late_write_seconds), perform))
            raise WriteUncertain("the forum did not answer the write in time (memory forum)")
        result = perform()
        self._last_answer = self.clock()
        self._written()
        return result

    def write_wait_seconds(self) -> float:
        if self._last_answer is None or self.write_interval_seconds <= 0:
            return 0.0
        left = self._last_answer + timedelta(seconds=self.write_interval_seconds) - self.clock()
        return max(0.0, left.total_seconds())

    def _written(self) -> None:
        if self.fail_after_write:
            self.fail_after_write = False
            raise WriteUncertain("connection lost after the request was sent (memory forum)")

    # --- what players do -----------------------------------------------------------------------------
    def player_pm(self, sender: str, body: str, subject: str = "", at: datetime | None = None,
                  precision: float = 0.0) -> int:
        """``sender`` sends the judge a private message; returns its id. ``at`` and ``precision``: the
        time the forum shows for it (default: now, exact), as :class:`PrivateMessage` has them."""
        m = PrivateMessage(self._id(), sender, at or self.clock(), subject, body, 0, precision)
        self.inbox.append(m)
        return m.message_id

    def player_post(self, thread_id: int, author: str, text: str, at: datetime | None = None) -> int:
        """``author`` posts in the thread; returns the post id."""
        p = ThreadPost(self._id(), author, at or self.clock(), text, text, False)
        self.threads.setdefault(thread_id, []).append(p)
        return p.post_id

    def pms_to(self, user: str) -> list[_Sent]:
        """Private messages the judge sent to ``user``."""
        return [m for m in self.sent if m.recipient == user]

    def posts_by_judge(self, thread_id: int) -> list[ThreadPost]:
        return [p for p in self.threads.get(thread_id, []) if p.author == self.username]

    # --- the interface -----------------------------------------------------------------------------
    @property
    def request_count(self) -> int:
        return self.requests

    def login(self) -> None:
        self._req()

    def whoami(self) -> str:
        self._req()
        return self.username

    def find_user(self, name: str) -> str | None:
        """``name`` when ``users`` is empty (every account exists) or holds it; else None."""
        self._req()
        return name if not self.users or name in self.users else None

    def thread_posts(self, thread_id: int, after_post_id: int | None = None) -> list[ThreadPost]:
        self._req()
        if thread_id not in self.threads:
            raise NotFound(f"thread {thread_id} does not exist")
        return [p for p in self.threads[thread_id] if after_post_id is None or p.post_id > after_post_id]

    def private_messages(self, after_message_id: int | None = None) -> list[PrivateMessage]:
        self._req()
        return [m for m in self.inbox if after_message_id is None or m.message_id > after_message_id]

    def reply(self, thread_id: int, body: str) -> int:
        self._req()
        if thread_id not in self.threads:
            raise NotFound(f"thread {thread_id} does not exist")

        def perform() -> int:
            p = ThreadPost(self._id(), self.username, self.clock(), body, body, False)
            self.threads[thread_id].append(p)
            return p.post_id

        return self._write(perform)

    def edit_post(self, post_id: int, body: str) -> None:
        self._req()
        for posts in self.threads.values():
            for i, p in enumerate(posts):
                if p.post_id == post_id:
                    if p.author != self.username:
                        raise NotAllowed(f"post {post_id} is not the judge's (memory forum)")

                    def perform(posts: list[ThreadPost] = posts, i: int = i, p: ThreadPost = p) -> None:
                        posts[i] = ThreadPost(p.post_id, p.author, p.time_utc, body, body, True)
                        self.edits += 1

                    self._write(perform)
                    return
        raise NotFound(f"post {post_id} does not exist")

    def create_thread(self, forum_id: int, subject: str, body: str) -> int:
        self._req()

        def perform() -> int:
            tid = self._id()
            self.threads[tid] = [ThreadPost(self._id(), self.username, self.clock(), body, body, False)]
            self.subjects[tid] = subject
            return tid

        return self._write(perform)

    def send_pm(self, user: str, subject: str, body: str, conversation_id: int | None = None) -> SentMessage:
        self._req()
        if self.users and user not in self.users:
            raise NoSuchUser(f"the private message to {user!r} was not sent: no such user", "no such user")
        if user in self.full_mailboxes:
            raise SendFailed(f"the private message to {user!r} was not sent: mailbox full", "mailbox full")

        def perform() -> _Sent:
            cid = conversation_id if conversation_id and self.conversations.get(conversation_id) == user else 0
            if not cid:
                cid = self._id()
                self.conversations[cid] = user
            m = _Sent(self._id(), user, subject, body, self.clock(), cid)
            self.sent.append(m)
            return m

        m = self._write(perform)
        return SentMessage(m.message_id, m.conversation_id, user, m.time_utc)

    def find_thread(self, forum_id: int, subject: str) -> int | None:
        self._req()
        found = [tid for tid, sub in self.subjects.items() if sub == subject]
        return found[-1] if found else None

    def find_sent_pm(self, user: str, subject: str, body: str = "", after_message_id: int | None = None,
                     conversation_id: int | None = None) -> SentMessage | None:
        self._req()
        want = fingerprint(body) if body else ""
        mine = [m for m in self.sent if m.recipient == user and m.message_id > (after_message_id or 0)
                and (m.conversation_id == conversation_id if conversation_id else m.subject == subject)
                and (not want or fingerprint(m.body) == want)]
        if not mine:
            return None
        m = mine[0] if body else mine[-1]
        return SentMessage(m.message_id, m.conversation_id, user, m.time_utc)

    def conversations_with(self, user: str) -> set[int]:
        """The judge's conversations with ``user`` (each holding one or more private messages)."""
        return {m.conversation_id for m in self.sent if m.recipient == user}

    def export_cursor(self) -> dict[str, Any]:
        return {}

    def import_cursor(self, data: Mapping[str, Any]) -> None:
        pass

    def close(self) -> None:
        pass
