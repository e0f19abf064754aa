"""Delivering the outbox: in order, at the forum's pace, each row verified on the forum before it is
sent again after an interrupted attempt (a crash, a dropped connection), so nothing is doubled."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from forumbot.forums.errors import ForumError, NotAllowed, NotFound, SendFailed
from forumbot.runtime.store import OutboxRow, aware

if TYPE_CHECKING:
    from forumbot.runtime.bot import Bot

log = logging.getLogger("forumbot")

#: attempts at a row the forum refuses (a full mailbox...) before it is left for the organiser
MAX_ATTEMPTS = 5
#: attempts at a row refused by a quota that frees up with time (a daily conversation limit)
MAX_QUOTA_ATTEMPTS = 72


def fingerprint(text: str, length: int = 40) -> str:
    """Letters, digits and CJK of ``text`` only: the same for a Markdown/BBCode body and the plain
    text the forum shows of it."""
    return "".join(ch for ch in text if ch.isalnum())[:length]


class Delivery:
    """Sends the outbox of ``bot``'s season through ``bot.forum``."""

    def __init__(self, bot: "Bot") -> None:
        self.bot = bot

    @property
    def store(self):
        return self.bot.store

    @property
    def forum(self):
        return self.bot.forum

    def run(self) -> None:
        """Send every pending row in order; stop at the first forum error that is not the row's own
        fault (the forum is down, rate limits): the next cycle goes on from there."""
        self._retry_failed()
        for row in self.store.outbox(("pending", "sending")):
            if row.kind == "post" and self.bot.thread_id is None:
                return  # posts wait for the thread to exist
            if row.status == "sending":
                try:
                    ref = self._verify(row)
                except ForumError as exc:
                    log.warning("delivery paused: %s", exc)
                    return
                if ref is not None:
                    self._sent(row, ref)
                    continue
            self.store.update_outbox(row.id, status="sending", attempts=row.attempts + 1, last_attempt_at=self.bot.clock())
            try:
                ref = self._send(row)
            except (SendFailed, NotFound, NotAllowed) as exc:
                self._failed(row, exc)
                continue
            except ForumError as exc:
                log.warning("delivery paused: %s", exc)
                return
            self._sent(row, ref)

    def _send(self, row: OutboxRow) -> int:
        if row.kind == "pm":
            return self.forum.send_pm(row.recipient, row.subject, row.body).message_id
        if row.kind == "thread":
            forum_id = self.bot.config.forum.forum_id
            thread_id = self.forum.create_thread(forum_id, row.subject, row.body)
            self.bot.thread_id = thread_id
            self.store.set_thread(thread_id)
            return thread_id
        return self.forum.reply(self.bot.thread_id, row.body)

    def _verify(self, row: OutboxRow) -> int | None:
        """Did an attempt interrupted by a crash or a dropped connection reach the forum? Its forum id, or None."""
        if row.kind == "pm":
            found = self.forum.find_sent_pm(row.recipient, row.subject)
            return found.message_id if found else None
        if row.kind == "post":
            sent = [r.forum_ref for r in self.store.outbox(("sent",)) if r.kind == "post" and r.forum_ref]
            after = max(sent) if sent else None
            want = fingerprint(row.body)
            for post in self.forum.thread_posts(self.bot.thread_id, after):
                if post.author == self.bot.config.forum.username and fingerprint(post.text) == want:
                    return post.post_id
            return None
        if row.kind == "thread":
            if self.bot.thread_id is None:
                found = self.forum.find_thread(self.bot.config.forum.forum_id, row.subject)
                if found is not None:
                    self.bot.thread_id = found
                    self.store.set_thread(found)
            return self.bot.thread_id
        return None

    def _sent(self, row: OutboxRow, ref: int) -> None:
        self.store.update_outbox(row.id, status="sent", forum_ref=ref, sent_at=self.bot.clock(), last_error=None)
        what = {"pm": f"private message to {row.recipient}", "post": "post", "thread": "new thread"}[row.kind]
        # Private messages only at DEBUG: their recipients and number tell the teams (INFO is shared).
        log.log(logging.DEBUG if row.kind == "pm" else logging.INFO, "sent %s (forum id %d)", what, ref)

    def _failed(self, row: OutboxRow, exc: Exception) -> None:
        attempts = row.attempts + 1
        wait = getattr(exc, "retry_after_seconds", None)
        limit = MAX_QUOTA_ATTEMPTS if wait else MAX_ATTEMPTS
        retry = None
        if attempts < limit:
            retry = self.bot.clock() + timedelta(seconds=wait or 600 * attempts)
        self.store.update_outbox(row.id, status="failed", last_error=str(exc)[:500], next_attempt_at=retry)
        if row.kind == "pm":  # the recipient at DEBUG only; the organisers are told by PM and in `status`
            log.warning("delivery of a private message (outbox row %d) failed (attempt %d of %d)", row.id, attempts, limit)
            log.debug("delivery to %s failed: %s", row.recipient, exc)
        else:
            log.warning("delivery failed (attempt %d of %d): %s", attempts, limit, exc)
        if attempts == 1 and row.template != "common/delivery_failed":
            self.bot.notify_failure(row, exc, limit)  # once per row, not at every retry

    def _retry_failed(self) -> None:
        now = self.bot.clock()
        for row in self.store.outbox(("failed",)):
            if row.next_attempt_at is not None and now >= aware(row.next_attempt_at):
                self.store.update_outbox(row.id, status="pending", next_attempt_at=None)

