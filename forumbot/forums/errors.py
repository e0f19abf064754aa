"""Typed errors of the forum layer, so the runtime can retry, wait or tell the organiser.

Every error is a :class:`ForumError`; ``str(error)`` is a one-line message fit for a person (never a secret).
"""

from __future__ import annotations


class ForumError(Exception):
    """Base of every error the forum layer raises."""


class AuthFailed(ForumError):
    """The forum refused the login (wrong user name or password, banned or inactive account)."""


class RateLimited(ForumError):
    """The forum asked us to slow down. ``wait_seconds`` (float, seconds) is how long to wait before retrying."""

    def __init__(self, message: str, wait_seconds: float):
        super().__init__(message)
        self.wait_seconds = float(wait_seconds)


class NotFound(ForumError):
    """The thread, post, forum, conversation or user does not exist (or is invisible to the judge's account)."""


class NotAllowed(ForumError):
    """The forum refused an action to the judge's account (lock without moderator rights, reply to a locked thread)."""


class ForumDown(ForumError):
    """The forum could not be reached or answered with server errors, after the retries."""


class WriteUncertain(ForumDown):
    """A write that may or may not have been done: the forum did not answer it in time (it may still be
    working through it), or answered with something that is neither the expected result nor a refusal.
    The runtime looks for the item again only after the forum's request horizon, and only then resends."""


class LayoutChanged(ForumError):
    """A page did not have the shape the adapter expects: ``url`` of the page and ``missing``, what was not found."""

    def __init__(self, url: str, missing: str):
        super().__init__(f"the page {url} does not look as expected: {missing} not found (has the forum's markup changed?)")
        self.url = url
        self.missing = missing


class BrokenPage(ForumDown):
    """An answer that is not a whole page of the forum: HTML cut short (no ``</html>``), JSON cut short, or
    someone else's page served with HTTP 200 (a proxy's error page). Nothing in it is used — a cut page
    parses into shortened text — and reading it again may succeed, so it is a :class:`ForumDown` (the runtime
    reads again at the next poll). ``url`` and ``missing`` as for :class:`LayoutChanged`."""

    def __init__(self, url: str, missing: str):
        super().__init__(f"the forum's answer to {url} was not a whole page ({missing} missing); it is read again")
        self.url = url
        self.missing = missing


class SendFailed(ForumError):
    """A private message (or post) was not delivered although the forum answered, e.g. a full mailbox.

    ``reason`` is the forum's own explanation when it gave one. ``retry_after_seconds``: when the
    refusal is a quota that frees up with time (a daily conversation limit), how long until a retry
    may succeed; None when only a person can fix it (a full mailbox, an unknown user).
    """

    def __init__(self, message: str, reason: str = "", retry_after_seconds: float | None = None):
        super().__init__(message)
        self.reason = reason
        self.retry_after_seconds = retry_after_seconds


class NoSuchUser(SendFailed):
    """The recipient's account does not exist (a misspelt roster name): retrying cannot help."""


class FloodControl(RateLimited):
    """The forum's flood control refused a write sent too soon after the previous one (phpBB: "You cannot
    make another post so soon after your last."; NodeBB: "You are posting too quickly"). Nothing was
    stored; ``wait_seconds`` is the forum's interval, after which the same write may be sent again."""


class FormTooFresh(RateLimited):
    """The forum refused a form posted too soon after it was fetched (phpBB refuses a form token used in
    the second it was issued: "The submitted form was invalid"). Nothing was stored; retry after
    ``wait_seconds`` with a fresh form."""


class PostTooShort(SendFailed):
    """The forum refused a post or message shorter than its minimum length (phpBB ``min_post_chars``,
    NodeBB ``minimumPostLength``). ``min_length`` is the forum's minimum in characters when it said so."""

    def __init__(self, message: str, reason: str = "", min_length: int | None = None):
        super().__init__(message, reason)
        self.min_length = min_length


class PostQueued(NotAllowed):
    """The forum stored the post but holds it for a moderator's approval (phpBB's newly registered users
    group, NodeBB's post queue): it is not visible and must not be sent again. ``post_id`` when known;
    ``queue_id``: the forum's id of the queued item (NodeBB), or ""."""

    def __init__(self, message: str, post_id: int | None = None, queue_id: str = ""):
        super().__init__(message)
        self.post_id = post_id
        self.queue_id = queue_id


#: what a refusal's reason says when a private message box is full (FlaskBB counts the sender's box)
_BOX_FULL = ("message limit", "mailbox full", "box is full", "quota")


def failure_cause(exc: Exception) -> str:
    """Why a write failed, as the key of the organiser's message (``common/delivery_failed``):
    ``no_account`` (:class:`NoSuchUser`), ``quota`` (a refusal that frees up with time, such as Discuz!'s
    conversations a day), ``mailbox_full`` (a full private message box; FlaskBB counts the judge's),
    ``flood`` (:class:`RateLimited`), ``not_found`` (thread or board gone), ``not_allowed`` (the judge's
    account may not), or ``refused`` (the forum gave no usable reason)."""
    if isinstance(exc, NoSuchUser):
        return "no_account"
    if isinstance(exc, RateLimited):
        return "flood"
    if isinstance(exc, NotFound):
        return "not_found"
    if isinstance(exc, NotAllowed):
        return "not_allowed"
    if isinstance(exc, SendFailed):
        if exc.retry_after_seconds:
            return "quota"
        if any(words in (exc.reason or str(exc)).lower() for words in _BOX_FULL):
            return "mailbox_full"
    return "refused"
