"""An in-memory forum: the :class:`~forumbot.forums.base.Forum` interface without HTTP, for tests of
the runtime and for dry runs. Players act through :meth:`MemoryForum.player_pm` and
:meth:`MemoryForum.player_post`; :attr:`down` and :attr:`full_mailboxes` inject failures."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from forumbot.forums.base import PrivateMessage, SentMessage, ThreadPost
from forumbot.forums.errors import ForumDown, NotFound, SendFailed


@dataclass
class _Sent:
    message_id: int
    recipient: str
    subject: str
    body: str
    time_utc: datetime


@dataclass
class MemoryForum:
    """One forum seen by the judge account ``username``. ``clock`` gives the forum's time (UTC)."""

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
    _next_id: int = 1
    fail_after_write: bool = False  # the write reaches the forum, then the connection drops

    def _id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _req(self) -> None:
        self.requests += 1
        if self.down:
            raise ForumDown("the forum is down (memory forum)")

    def _written(self) -> None:
        if self.fail_after_write:
            self.fail_after_write = False
            raise ForumDown("connection lost after the request was sent (memory forum)")

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
        p = ThreadPost(self._id(), self.username, self.clock(), body, body, False)
        self.threads[thread_id].append(p)
        self._written()
        return p.post_id

    def edit_post(self, post_id: int, body: str) -> None:
        self._req()

    def lock_thread(self, thread_id: int) -> None:
        self._req()

    def unlock_thread(self, thread_id: int) -> None:
        self._req()

    def create_thread(self, forum_id: int, subject: str, body: str) -> int:
        self._req()
        tid = self._id()
        self.threads[tid] = [ThreadPost(self._id(), self.username, self.clock(), body, body, False)]
        self.subjects[tid] = subject
        self._written()
        return tid

    def send_pm(self, user: str, subject: str, body: str) -> SentMessage:
        self._req()
        if user in self.full_mailboxes:
            raise SendFailed(f"the private message to {user!r} was not sent: mailbox full", "mailbox full")
        m = _Sent(self._id(), user, subject, body, self.clock())
        self.sent.append(m)
        self._written()
        return SentMessage(m.message_id, 0, user, m.time_utc)

    def find_thread(self, forum_id: int, subject: str) -> int | None:
        self._req()
        found = [tid for tid, sub in self.subjects.items() if sub == subject]
        return found[-1] if found else None

    def find_sent_pm(self, user: str, subject: str) -> SentMessage | None:
        self._req()
        for m in reversed(self.sent):
            if m.recipient == user and m.subject == subject:
                return SentMessage(m.message_id, 0, user, m.time_utc)
        return None

    def export_cursor(self) -> dict[str, Any]:
        return {}

    def import_cursor(self, data: Mapping[str, Any]) -> None:
        pass

    def close(self) -> None:
        pass
