"""The small interface every forum engine implements (FlaskBB now; Discuz!, phpBB, Discourse, NodeBB later).

Identifiers
    Post, message, thread and forum ids are ``int``: every engine surveyed (FlaskBB, Discuz!, phpBB,
    Discourse, NodeBB) numbers them with integers that grow with time, so "after id N" means "newer than N"
    and the runtime can store them as plain numbers. User names are ``str`` (CJK allowed).

Times
    Every ``time_utc`` is a timezone-aware :class:`datetime.datetime` in UTC.

Polling
    ``thread_posts(thread_id, after_post_id)`` and ``private_messages(after_message_id)`` are correct from
    the ids alone: the runtime stores the last id it has *processed* and passes it back. To keep a poll in
    which nothing changed at one request per thread and one for the inbox, an adapter remembers where it
    was (which page, which conversations it has seen). That memory is the *cursor*: ``export_cursor()``
    returns it as plain JSON-able data, ``import_cursor(data)`` puts it back after a restart. A missing or
    stale cursor only costs extra requests, never a lost or repeated post.

Reads that saw too little
    An adapter whose inbox read knows it missed a message it saw listed (Discuz! shows a message sent in
    the current second in the list before the conversation; a FlaskBB conversation page or a NodeBB room
    older than the list, a cache's copy) sets ``inbox_incomplete = True`` after
    ``private_messages``: the runtime then does not count that read as having seen the inbox up to its
    start (see :mod:`forumbot.runtime.arrival`).

Errors
    Every method may raise the errors of :mod:`forumbot.forums.errors`: :class:`ForumDown` (unreachable
    after the retries), :class:`RateLimited` (with ``wait_seconds``), :class:`AuthFailed`,
    :class:`LayoutChanged` (a page not understood, with its URL and what was missing); methods that name a
    thread, post or user raise :class:`NotFound`; writes refused by the forum raise :class:`NotAllowed`
    or :class:`SendFailed`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from forumbot.forums.errors import (  # noqa: F401  (re-exported: one import for adapter users)
    AuthFailed,
    ForumDown,
    ForumError,
    LayoutChanged,
    NoSuchUser,
    NotAllowed,
    NotFound,
    RateLimited,
    SendFailed,
    WriteUncertain,
)


def fingerprint(text: str, length: int = 40) -> str:
    """Letters, digits and CJK of ``text`` only (at most ``length``): the same for a Markdown/BBCode body
    and the plain text the forum shows of it. How the runtime recognises its own post or message."""
    return "".join(ch for ch in text if ch.isalnum())[:length]


def stored_subject(subject: str, limit: int | None = None) -> str:
    """``subject`` as a forum stores and shows it: on one line, whitespace runs (newlines, tabs, spaces)
    collapsed to one space, stripped (FlaskBB shows it stripped, phpBB trims what a form sends, Discuz!
    trims a message, whose first line is the subject), and at most ``limit`` characters where the forum
    cuts it (phpBB: 120). An adapter sends it so and compares by it when it looks for what it sent."""
    one = " ".join(subject.split())
    return one[:limit].rstrip() if limit is not None else one


@dataclass(frozen=True)
class ThreadPost:
    """One post of a thread.

    ``text`` is what the player meant: quotes, signatures and markup removed, paragraphs separated by a
    blank line and line breaks kept. ``raw_html`` is the post body as the forum rendered it. ``edited`` is
    true when the forum shows the post as modified at the time it was read (later edits are not seen: a
    poll never re-reads old posts). ``time_precision_seconds``: as for :class:`PrivateMessage` (Discuz!
    gives a post's time to the second: 1).
    """

    post_id: int
    author: str
    time_utc: datetime
    text: str
    raw_html: str
    edited: bool
    time_precision_seconds: float = 0.0


@dataclass(frozen=True)
class PrivateMessage:
    """One private message received by the judge's account (never one it sent itself).

    ``message_id`` is stable and grows with time; ``body`` is plain text like :attr:`ThreadPost.text`.
    ``conversation_id`` is the engine's thread of messages holding it (for information; may be 0).
    ``time_precision_seconds`` is how uncertain ``time_utc`` is: engines that show only a relative time
    ("3 分钟前", Discuz!) give the earliest instant the text allows as ``time_utc`` (the sender gets the
    benefit of the doubt at a deadline) and the width of the window here; 0 means exact.
    """

    message_id: int
    sender: str
    time_utc: datetime
    subject: str
    body: str
    conversation_id: int = 0
    time_precision_seconds: float = 0.0


@dataclass(frozen=True)
class SentMessage:
    """Proof that a private message was stored by the forum: its id in the judge's own box and when."""

    message_id: int
    conversation_id: int
    recipient: str
    time_utc: datetime


@runtime_checkable
class Forum(Protocol):
    """A forum as the judge's account sees it. All ids are ``int``; all times are UTC; errors as above.

    Only what the bot uses: locking a thread is not part of it (the bot never locks; a thread a moderator locked
    shows as :class:`NotAllowed` on :meth:`reply`). The FlaskBB, Discuz!, phpBB and NodeBB adapters keep a
    ``lock_thread`` / ``unlock_thread`` of their own, with which their tests reproduce a locked thread.
    """

    @property
    def request_count(self) -> int:
        """HTTP requests sent so far (retries and redirects included)."""
        ...

    def login(self) -> None:
        """Logs in (again). Other methods call it by themselves, first and when the session has expired.

        Raises :class:`AuthFailed` when the forum refuses the credentials.
        """
        ...

    def whoami(self) -> str:
        """The user name the forum shows for the logged-in account."""
        ...

    def find_user(self, name: str) -> str | None:
        """The account ``name`` as the forum spells it, or None when no such account exists. Used by
        ``forumbot check --forum`` to check the roster before a season. Raises ForumError when the
        forum does not say."""
        ...

    def thread_posts(self, thread_id: int, after_post_id: int | None = None) -> list[ThreadPost]:
        """Posts of the thread newer than ``after_post_id`` (all when ``None``), oldest first.

        Raises :class:`NotFound` when the thread does not exist.
        """
        ...

    def private_messages(self, after_message_id: int | None = None) -> list[PrivateMessage]:
        """Messages received newer than ``after_message_id`` (all when ``None``), oldest first.

        Does not depend on the forum's "unread" flag.
        """
        ...

    def reply(self, thread_id: int, body: str) -> int:
        """Posts ``body`` (forum markup) in the thread; returns the new post id.

        Raises :class:`NotFound`, :class:`NotAllowed` (e.g. locked thread) or :class:`SendFailed`.
        """
        ...

    def edit_post(self, post_id: int, body: str) -> None:
        """Replaces the text of one of the judge's own posts. Raises :class:`NotFound` or :class:`NotAllowed`."""
        ...

    def create_thread(self, forum_id: int, subject: str, body: str) -> int:
        """Opens a new thread in the forum (board) ``forum_id``; returns its thread id."""
        ...

    def send_pm(self, user: str, subject: str, body: str, conversation_id: int | None = None) -> SentMessage:
        """Sends a private message and checks that the forum stored it. With ``conversation_id`` (the
        judge's conversation with ``user``, from an earlier :class:`SentMessage`) the message goes inside
        it where the engine allows replies; otherwise (or when it is gone) a new conversation is started
        with ``subject``.

        Raises :class:`NoSuchUser` when the account does not exist, :class:`SendFailed` when the forum
        refused it (full mailbox, ...), :class:`WriteUncertain` when it may or may not have been stored.
        """
        ...

    def find_thread(self, forum_id: int, subject: str) -> int | None:
        """The newest thread the judge opened in board ``forum_id`` with exactly ``subject``, or None
        (also when the engine cannot tell). Used after a crash to learn whether the season's thread
        was created before creating it again."""
        ...

    def find_sent_pm(self, user: str, subject: str, body: str = "", after_message_id: int | None = None,
                     conversation_id: int | None = None) -> SentMessage | None:
        """The judge's first private message to ``user`` newer than ``after_message_id`` whose text has the
        :func:`fingerprint` of ``body`` (the newest one with ``subject`` when ``body`` is empty), looked
        for in ``conversation_id`` when given, else in the newest conversation with ``subject``; or None.

        Used after an uncertain write (a crash, a dropped connection, an unanswered request) to learn
        whether it reached the forum before sending again. Looks at the newest sent messages only.
        """
        ...

    def write_wait_seconds(self) -> float:
        """Seconds (≥ 0) before the next write may start by the forum's pacing rule, counted from the
        answer to the previous write (Discuz!: 16 s). The runtime waits it between reads."""
        ...

    def export_cursor(self) -> dict[str, Any]:
        """The adapter's polling memory as plain JSON-able data (see the module docstring)."""
        ...

    def import_cursor(self, data: Mapping[str, Any]) -> None:
        """Restores memory from :meth:`export_cursor`; data of another engine or version is ignored."""
        ...

    def close(self) -> None:
        """Closes the HTTP connections."""
        ...


@runtime_checkable
class ImageForum(Protocol):
    """A forum that takes pictures with a post (Discuz!: attachments). The runtime uploads a picture,
    stores the id the forum gave it, then writes the post naming it: two writes, so that a post retried
    after a crash names the same upload (see :mod:`forumbot.runtime.delivery`). Adapters without the two
    methods (FlaskBB, phpBB, NodeBB, the memory forum) post text only."""

    def upload_image(self, thread_id: int, filename: str, data: bytes) -> int:
        """Uploads ``data`` (PNG bytes) as a picture for a post in the thread; returns the forum's id of it
        (> 0), which no post uses yet. Raises :class:`NotAllowed` (the account or board may not upload
        pictures, the type is not allowed), :class:`SendFailed` (too large, refused for another reason),
        :class:`RateLimited`, :class:`WriteUncertain`/:class:`ForumDown` (it may or may not be stored)."""
        ...

    def reply_with_images(self, thread_id: int, body: str, image_ids: list[int]) -> int:
        """As :meth:`Forum.reply`, with the uploaded pictures ``image_ids`` shown in the post after the
        text; returns the new post id. The post's text (:attr:`ThreadPost.text`) is ``body`` as read back."""
        ...
