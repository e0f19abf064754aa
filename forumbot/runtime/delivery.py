"""Delivering the outbox: in order per destination, at the forum's pace, between reads, and never twice.

- **Order: the thread first.** Rows to one destination — the thread (the new thread, posts), the edits of
  one post (a running vote count), or one recipient of private messages — go out in the order they were
  queued. Across destinations the thread comes first, then edits: a post that opens or closes a phase
  never waits behind replies, reminders or count edits queued before it, so a result post is on the forum within a poll interval, the grace and one write interval of its
  deadline however many replies wait. Private messages follow in the order they were queued. A row that
  cannot go yet holds back only the rows behind it to its destination. After every write the outbox is
  looked at again from the top, so a row queued meanwhile or let go by :meth:`Bot.held` because of what was
  just sent (the prologue's thread waits for the role PMs) goes in the same run while time remains.
- **Pace.** The adapter says how long the next write must wait (:meth:`Forum.write_wait_seconds`,
  counted from the answer to the previous write: Discuz! needs 16 s). Delivery waits that long only
  when the wait ends before the next read is due (``until``); otherwise it stops and the next cycle
  goes on after reading the forum. Reading and deadlines therefore never wait for the outbox.
- **Uncertain writes.** A write that got no answer, or an answer that is neither the result nor a
  refusal (:class:`WriteUncertain`, or any other forum error during the write), may still be performed
  by the forum. The row stays ``sending`` and the moment the bot gave up on it is stored (``gave_up_at``);
  it is looked for on the forum only once the forum's request horizon (``request_horizon_seconds`` of the
  adapter) has passed since that moment, and sent again only if it is not there. A row found ``sending``
  with no such moment (the process died during the request, or the worker that claimed it did) waits the
  claim plus the adapter's request timeout (:meth:`Delivery.request_timeout`), and no less than the start
  of this process (one send may be several requests, all ended by then), plus the horizon; that instant is
  stored as its ``gave_up_at``, so a process restarted again before the horizon ends does not start it anew. A refused
  row (``failed``) is looked for the same way before each retry.
- **One stuck row holds only its destination.** A check ("was it written?") or a write that fails makes
  only its destination wait (an uncertain write: the request horizon), and from its second failure in a
  row on, with no answer from the forum to it between them, that destination backs off: 10 s, then twice
  as long after each further failure, at most 5 minutes (:data:`DEST_BACKOFF_SECONDS`); while it waits the
  other destinations go on. The forum as a whole is held back only when it says so (HTTP 429, or 503 with ``Retry-After``:
  :class:`RateLimited`), or for the rest of one run when :data:`MAX_TROUBLES` destinations that had not
  failed lately fail in a row with no answer between them (a forum that is down costs three requests a
  cycle, and each failing destination one more a backoff).
- **Claims are fenced.** A row is claimed (``sending``) by a compare-and-set on its status and attempts as
  read (:meth:`Store.claim_outbox`, under ``forumbot serve`` in the transaction that checks the lease):
  when two processes judge one season, only one claims a row and only the claimer sends it; the other
  skips it.
- **Edits.** An ``edit`` row replaces the text of the judge's post ``forum_ref`` (a running vote count).
  An uncertain edit is simply done again after the horizon: writing the same text twice changes nothing.
  An edit the forum refuses (NotFound, NotAllowed: a post too old to edit) becomes a new post.
- **Pictures.** A post whose row carries a picture (``image_json``: a vote round's chart, option
  ``vote_chart_images``) goes, on a forum whose adapter takes images (:class:`ImageForum`: Discuz!), in
  two writes: the picture is uploaded and the forum's id for it is stored in the row (``image_ref``)
  *before* the post naming it is written. An attempt after a crash or an uncertain write looks for the
  post first (by its text, as any post) and, if it is not there, posts it naming the stored upload: the
  picture is never uploaded twice for a post that has its id, and the post is never written twice. Only
  a crash between the upload's answer and storing its id leaves an upload no post uses (an "orphan"; the
  forum never shows it; Discuz! keeps it among the user's unused attachments, which its daily clean-up
  removes); the next attempt uploads the picture again. A forum that refuses the picture (no permission,
  too large) or a machine that cannot draw it gets the post without it (``image_ref`` 0, logged). Other
  forums get the text only, said once in the log.
- **Settled rows.** A private message to an account that does not exist is ``undeliverable`` at once
  (the organisers are told once, it is not retried); rows still failing when the game is over are
  settled the same way, so ``run`` can stop with a summary of what was not delivered.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from forumbot.forums.base import ImageForum, SentMessage, fingerprint
from forumbot.forums.errors import (
    ForumError,
    NoSuchUser,
    NotAllowed,
    NotFound,
    RateLimited,
    SendFailed,
)
from forumbot.runtime.store import OutboxRow, aware

if TYPE_CHECKING:
    from forumbot.runtime.bot import Bot

log = logging.getLogger("forumbot")

#: attempts at a row the forum refuses (a full mailbox...) before it is left for the organiser
MAX_ATTEMPTS = 5
#: attempts at a row refused by a quota that frees up with time (a daily conversation limit)
MAX_QUOTA_ATTEMPTS = 72
#: failed checks or uncertain writes in a row (no forum answer between them), each to a destination that had
#: not failed lately, after which the run ends: the forum fails whatever is asked; the rest waits a cycle
MAX_TROUBLES = 3
#: a destination whose check or write failed twice in a row waits this long before the next try, doubled at
#: each further failure...
DEST_BACKOFF_SECONDS = 10.0
#: ...up to this
MAX_DEST_BACKOFF_SECONDS = 300.0
#: the request timeout of an HTTP adapter that does not say (the forum settings' ``timeout_seconds``)
DEFAULT_TIMEOUT_SECONDS = 20.0
# what one try at a row did (Delivery._attempt)
_DONE, _HELD, _STUCK, _STOP = object(), object(), object(), object()
#: a BBCode tag ([b], [/table], [color=red], [*]): not part of the text a forum shows
_BBCODE_TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.I)
#: the request horizon of an adapter that does not say
DEFAULT_HORIZON_SECONDS = 60.0

__all__ = ["MAX_ATTEMPTS", "MAX_QUOTA_ATTEMPTS", "Delivery", "fingerprint"]


def destination(row: OutboxRow) -> str:
    """Rows to one destination keep their order: ``"thread"`` (the new thread, posts), ``"edit:POST"`` (the
    edits of one judge's post: a running vote count, whose edit stuck on an unanswered request must not hold
    the posts that open and close phases) or ``"pm:NAME"``."""
    if row.kind == "pm":
        return f"pm:{row.recipient}"
    return f"edit:{row.forum_ref}" if row.kind == "edit" else "thread"


def _what(row: OutboxRow) -> str:
    """What a log line at INFO or above says of ``row``: its kind, never its id (outbox ids count every private
    message queued, so two ids in the shared log tell how many went between them: at night, to the night's
    roles). DEBUG has the id."""
    return {"pm": "a private message", "thread": "the new thread", "edit": "an edit of a post"}.get(row.kind, "a post")


def _rank(dest: str) -> int:
    """The thread's posts first, then edits of posts, then private messages (:meth:`Delivery._queue`)."""
    return 0 if dest == "thread" else 1 if dest.startswith("edit:") else 2


class Delivery:
    """Sends the outbox of ``bot``'s season through ``bot.forum``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.hold_until: datetime | None = None  # the forum asked to slow down (Retry-After)
        self.write_seconds = 0.0  # how long a write (or a look for one) takes, averaged: not started too late
        self._done_this_run = 0
        self._streak = 0  # failures in a row in this run of destinations that had not failed lately (no answer between)
        #: destination -> (failures in a row, no new try before): a destination whose check or write fails
        #: backs off, alone (kept in memory: a restarted bot tries each destination at once)
        self._troubles: dict[str, tuple[int, datetime]] = {}
        self.failed_writes = 0  # writes refused or unanswered since start (for metrics)
        self._said_no_images = False
        #: when this process began delivering the season: a request of a process that died (or of a worker
        #: whose season this one took) ended before it, however long that process spent on it
        clock = getattr(bot, "clock", None)
        self.started: datetime | None = clock() if clock is not None else None

    @property
    def store(self):
        return self.bot.store

    @property
    def forum(self):
        return self.bot.forum

    def horizon(self) -> timedelta:
        """How long after the bot gave up on a request the forum may still perform it (the adapter's request
        horizon)."""
        return timedelta(seconds=float(getattr(self.forum, "request_horizon_seconds", DEFAULT_HORIZON_SECONDS)))

    def run(self, until: datetime | None = None) -> None:
        """Send what can go before ``until`` (the next read; None: no limit): the thread's rows first, then
        private messages, in order per destination (see the module docstring).

        Each write is followed by a new look at the outbox from its top, so a post queued meanwhile, or a
        row :meth:`Bot.held` let go because of the rows just sent (the prologue's thread waits for the role
        PMs), goes in this run while time remains; the run ends when nothing more can go. Never raises
        forum errors: a row the forum refuses is marked failed, an uncertain one is left ``sending`` to be
        looked for after the request horizon and its destination backs off, and a forum that asks to slow
        down (or fails every request) ends the run."""
        if self.hold_until is not None and self.bot.clock() < self.hold_until:
            return
        self._retry_failed()
        self._done_this_run = 0
        self._streak = 0
        stuck: set[str] = set()  # destinations that wait for a later run (horizon, backoff, a lost claim)
        checked: set[int] = set()  # sending rows looked for on the forum in this run and not found there
        while True:
            held: set[str] = set()  # destinations whose first row waits in this look at the outbox
            for row in self._queue(stuck):
                dest = destination(row)
                if dest in stuck or dest in held:
                    continue
                outcome = self._attempt(row, until, checked)
                if outcome is _STOP:
                    return
                if outcome is _HELD:
                    held.add(dest)
                elif outcome is _STUCK:
                    stuck.add(dest)
                else:  # a row left the queue: look again from the top
                    break
            else:
                return  # nothing more can go in this run

    def _queue(self, stuck: set[str]) -> list[OutboxRow]:
        """The rows to try, best first: the thread's (the posts that open and close phases, whatever
        replies wait), then edits of posts (running counts), then private messages in the order they were queued; a destination still backing
        off not at all (it is added to ``stuck``). Rows of one destination keep their order."""
        now = self.bot.clock()
        rows = []
        for row in self.store.outbox(("pending", "sending")):
            dest = destination(row)
            trouble = self._troubles.get(dest)
            if trouble is not None and now < trouble[1]:
                stuck.add(dest)
                continue
            rows.append(row)
        return sorted(rows, key=lambda r: (_rank(destination(r)), r.id))

    def _attempt(self, row: OutboxRow, until: datetime | None, checked: set[int]) -> object:
        """One try at ``row``, the first waiting row of its destination: looked for on the forum if an
        earlier attempt may have reached it, else claimed and sent. Returns :data:`_DONE` (it left the
        queue: sent, found, refused, settled), :data:`_HELD` (its destination waits for the rest of this
        look at the outbox), :data:`_STUCK` (for the rest of this run) or :data:`_STOP` (end the run)."""
        dest = destination(row)
        if row.kind in ("post", "edit") and self.bot.thread_id is None:
            return _HELD  # posts wait for the thread to exist
        if row.status == "sending" and row.id not in checked:
            ready = self._look_after(row)
            if ready is not None and row.gave_up_at is None:
                # the claim of a process that died: its request had ended by the time this one started. Stored,
                # so that a later restart counts the horizon from here, not from its own start (a bot restarted
                # more often than the horizon would otherwise never look)
                ended = ready - self.horizon()
                self.store.update_outbox(row.id, gave_up_at=ended)
                row.gave_up_at = ended
            if ready is not None and self.bot.clock() < ready:
                return _STUCK  # the forum may still be performing it: look only after its horizon
            if not self._in_time(until):
                return _STOP
            try:
                found = self._timed(self._verify, row)
            except RateLimited as exc:  # the forum is overloaded: every destination waits
                self.hold_until = self.bot.clock() + timedelta(seconds=exc.wait_seconds)
                log.warning("delivery: the forum asks to slow down; next request in %.0f s", exc.wait_seconds)
                return _STOP
            except ForumError as exc:
                healthy = dest not in self._troubles
                log.warning("delivery: could not check an earlier attempt at %s (%s); its destination "
                            "waits %.0f s", _what(row), type(exc).__name__, self._trouble(dest))
                log.debug("outbox row %d: %s", row.id, exc)
                return self._troubled(healthy)
            self._answered(dest)  # the forum answered the look: this destination works
            if found is not None:
                self._sent(row, found)
                return _DONE
            assert row.id is not None  # a stored outbox row
            checked.add(row.id)
        if self.bot.held(row):
            return _HELD  # the game's clock holds it (its phase is not visible yet)
        if row.kind == "pm" and self._pms_held():
            return _HELD  # the account's conversations-a-day limit, reached by another season
        if not self._pace(until):
            return _STOP
        try:
            claimed = self.store.claim_outbox(row, self.bot.clock())
        except BaseException:
            self._paced(wrote=False)
            raise
        if not claimed:
            self._paced(wrote=False)
            log.warning("delivery: %s was taken or settled by another process since it was read; "
                        "not sent (is a second bot judging this season?)", _what(row))
            log.debug("outbox row %d: claimed or settled by another process", row.id)
            return _STUCK
        try:
            result = self._timed(self._send_paced, row)
        except NoSuchUser as exc:
            self._answered(dest)
            self._settle(row, exc)
            return _DONE
        except RateLimited as exc:  # refused, so not done: send it again after the wait
            self.store.update_outbox(row.id, status="pending", attempts=row.attempts)
            self.hold_until = self.bot.clock() + timedelta(seconds=exc.wait_seconds)
            log.warning("delivery: the forum asks to slow down; next write in %.0f s", exc.wait_seconds)
            return _STOP
        except (NotFound, NotAllowed) as exc:
            self._answered(dest)
            if row.kind == "edit":  # the forum will not edit it (a time limit, the post gone): post it anew
                log.info("delivery: the forum refused to edit post %s (%s); posting the text anew", row.forum_ref,
                         type(exc).__name__)
                self.store.update_outbox(row.id, kind="post", status="pending", forum_ref=None)
                return _DONE  # the post goes next, in its place in the thread's order
            self._failed(row, exc)
            return _DONE
        except SendFailed as exc:
            self._answered(dest)
            self._failed(row, exc)
            return _DONE
        except ForumError as exc:
            self.failed_writes += 1
            healthy = dest not in self._troubles
            self.store.update_outbox(row.id, gave_up_at=self.bot.clock())  # the horizon counts from here
            log.warning("delivery: %s may or may not have been written (%s); looking for it on "
                        "the forum in %.0f s", _what(row), type(exc).__name__,
                        max(self.horizon().total_seconds(), self._trouble(dest)))
            log.debug("outbox row %d: %s", row.id, exc)
            return self._troubled(healthy)
        self._answered(dest)
        self._sent(row, result)
        return _DONE

    def _look_after(self, row: OutboxRow) -> datetime | None:
        """When a row found ``sending`` may be looked for on the forum: the request horizon after the bot gave
        up on its last attempt (``gave_up_at``); when that is not recorded (the process died during the
        request, or a worker that claimed it did), after the claim plus the request timeout, and no sooner
        than this process started (the request ended by then), plus the horizon. None: at once (no attempt
        recorded)."""
        if row.gave_up_at is not None:
            return aware(row.gave_up_at) + self.horizon()
        if row.last_attempt_at is not None:
            # one send may be several requests (a re-sent form, a login, a flood wait): its last one may have
            # begun long after the claim, but it ended by the time this process started
            timeout = aware(row.last_attempt_at) + timedelta(seconds=self.request_timeout())
            return max(timeout, self.started or timeout) + self.horizon()
        return None

    def request_timeout(self) -> float:
        """Seconds after which the adapter gives up on a request: its ``request_timeout_seconds`` when it says,
        else its HTTP transport's timeout (``forum.timeout_seconds``, 20 s by default); an adapter without
        HTTP (the in-memory forum) never waits on one: 0."""
        said = getattr(self.forum, "request_timeout_seconds", None)
        if said is not None:
            return float(said)
        http = getattr(self.forum, "http", None)
        if http is None:
            return 0.0
        timeout = getattr(getattr(http, "client", None), "timeout", None)  # an httpx.Timeout
        values = [v for v in (getattr(timeout, name, None) for name in ("connect", "read", "write", "pool"))
                  if isinstance(v, int | float)]
        return float(max(values)) if values else DEFAULT_TIMEOUT_SECONDS

    def _trouble(self, dest: str) -> float:
        """A check or a write to ``dest`` failed: it backs off from the second failure in a row on
        (:data:`DEST_BACKOFF_SECONDS`, doubling with each further one, at most :data:`MAX_DEST_BACKOFF_SECONDS`;
        an uncertain write also waits the request horizon). Returns the wait in seconds."""
        failures = self._troubles.get(dest, (0, self.bot.clock()))[0] + 1
        wait = 0.0 if failures == 1 else min(DEST_BACKOFF_SECONDS * 2 ** (failures - 2), MAX_DEST_BACKOFF_SECONDS)
        self._troubles[dest] = (failures, self.bot.clock() + timedelta(seconds=wait))
        return wait

    def _troubled(self, healthy: bool) -> object:
        """After a failed check or write: its destination waits (:data:`_STUCK`). When :data:`MAX_TROUBLES`
        destinations that had not failed lately (``healthy``) fail in a row with no forum answer between
        them, the forum is failing whatever is asked, and the run ends (:data:`_STOP`); a destination
        failing again says nothing of the others."""
        if healthy:
            self._streak += 1
        return _STOP if self._streak >= MAX_TROUBLES else _STUCK

    def _answered(self, dest: str) -> None:
        """The forum answered a write to ``dest`` (done or refused) or a look for one: its backoff ends."""
        self._streak = 0
        self._troubles.pop(dest, None)

    def _pace(self, until: datetime | None) -> bool:
        """Wait for the forum's write spacing if that and a write end before ``until``; False: stop for
        this cycle (the next read comes first). Under ``forumbot serve`` the spacing is shared by the
        seasons writing with the same account on the same forum (``bot.pace``, :mod:`forumbot.serve.pacing`):
        its slot is taken here and given back by :meth:`_paced` after the write."""
        ask = getattr(self.forum, "write_wait_seconds", None)
        wait = float(ask()) if ask else 0.0
        pace = getattr(self.bot, "pace", None)
        if pace is not None:
            timeout = None if until is None else (until - self.bot.clock()).total_seconds()
            if (timeout is not None and timeout <= 0) or not pace.acquire(timeout):
                return False
            wait = max(wait, pace.wait_seconds())
        if not self._in_time(until, wait):
            self._paced(wrote=False)
            return False
        if wait > 0:
            self.bot.sleep(wait)
        return True

    def _paced(self, wrote: bool) -> None:
        pace = getattr(self.bot, "pace", None)
        if pace is not None:
            pace.release(wrote)

    def _pms_held(self) -> bool:
        pace = getattr(self.bot, "pace", None)
        return pace is not None and pace.pms_held()

    def _send_paced(self, row: OutboxRow) -> int | SentMessage:
        try:
            return self._send(row)
        except SendFailed as exc:
            wait = getattr(exc, "retry_after_seconds", None)
            pace = getattr(self.bot, "pace", None)
            if wait and row.kind == "pm" and pace is not None:
                pace.hold_pms(float(wait))  # a quota of the account: every season's private messages wait
            raise
        finally:
            self._paced(wrote=True)

    def _in_time(self, until: datetime | None, wait: float = 0.0) -> bool:
        """Can a forum operation (after ``wait`` seconds) end before ``until``, judging by recent ones?
        The first operation of a run only needs to start before it, so delivery always moves on."""
        if until is None:
            return True
        expected = self.write_seconds if self._done_this_run else 0.0
        return self.bot.clock() + timedelta(seconds=wait + expected) < until

    def _timed(self, operation, row: OutboxRow):
        """Runs ``operation(row)``; the time answered operations take is averaged (failures and timeouts
        are not: one held request must not stop delivery)."""
        began = self.bot.clock()
        try:
            result = operation(row)
        finally:
            self._done_this_run += 1
        took = (self.bot.clock() - began).total_seconds()
        self.write_seconds = took if not self.write_seconds else 0.7 * self.write_seconds + 0.3 * took
        return result

    def _conversation(self, recipient: str | None) -> int | None:
        """The forum conversation of the latest private message sent to ``recipient`` (None: none yet)."""
        for r in reversed(self.store.outbox(("sent",))):
            if r.kind == "pm" and r.recipient == recipient and r.conversation_id:
                return r.conversation_id
        return None

    def _send(self, row: OutboxRow) -> int | SentMessage:
        if row.kind == "pm":
            return self.forum.send_pm(row.recipient, row.subject, self.bot.body_for(row),
                                      conversation_id=self._conversation(row.recipient))
        if row.kind == "thread":
            forum_id = self.bot.config.forum.forum_id
            thread_id = self.forum.create_thread(forum_id, row.subject, self.bot.body_for(row))
            self.bot.thread_id = thread_id
            self.store.set_thread(thread_id)
            return thread_id
        if row.kind == "edit":
            assert row.forum_ref is not None
            self.forum.edit_post(row.forum_ref, row.body)
            return row.forum_ref
        thread_id = self.bot.thread_id
        assert thread_id is not None  # posts wait for the thread (run)
        body = self.bot.body_for(row)
        images = self._images(row, thread_id)
        if images:
            assert isinstance(self.forum, ImageForum)  # _images uploads only to one
            return self.forum.reply_with_images(thread_id, body, images)
        return self.forum.reply(thread_id, body)

    def _images(self, row: OutboxRow, thread_id: int) -> list[int]:
        """The forum ids of the pictures post ``row`` names: its stored upload, else the picture drawn and
        uploaded now and its id stored before the post is written (see the module docstring). [] when the
        post goes without. Raises what the upload raises except a refusal (NotAllowed, SendFailed)."""
        if not row.image_json:
            return []
        if row.image_ref is not None:
            return [row.image_ref] if row.image_ref > 0 else []
        if not isinstance(self.forum, ImageForum):
            if not self._said_no_images:
                self._said_no_images = True
                log.info("vote_chart_images: the %s forum takes no images with a post; vote rounds are posted "
                         "as text only", getattr(self.forum, "engine", type(self.forum).__name__))
            return []
        from forumbot.vote_chart import ChartUnavailable

        assert row.id is not None  # a stored outbox row
        try:
            png = self.bot.vote_chart(row)
        except ChartUnavailable as exc:
            log.warning("the vote chart of a post cannot be drawn (%s): the post goes without it", exc)
            log.debug("outbox row %d: no vote chart", row.id)
            self.store.update_outbox(row.id, image_ref=0)
            return []
        try:
            ref = self.forum.upload_image(thread_id, f"vote-{row.id}.png", png)
        except (NotAllowed, SendFailed) as exc:
            log.warning("the forum refused the vote chart of a post (%s): the post goes without it", exc)
            log.debug("outbox row %d: vote chart refused", row.id)
            self.store.update_outbox(row.id, image_ref=0)
            return []
        self.store.update_outbox(row.id, image_ref=ref)  # before the post names it: a retry reuses this upload
        row.image_ref = ref
        return [ref]

    def _before(self, row: OutboxRow) -> int | None:
        """The forum id of the last row to the same destination sent before ``row`` was queued: the
        forum item ``row`` became, if it did, is newer than that."""
        refs = [r.forum_ref for r in self.store.outbox(("sent",))
                if r.id < row.id and destination(r) == destination(row) and r.kind in ("pm", "post") and r.forum_ref]
        return max(refs) if refs else None

    def _verify(self, row: OutboxRow) -> int | SentMessage | None:
        """Did an earlier attempt at ``row`` reach the forum? Its forum id (or the message), or None."""
        if row.kind == "pm":
            return self.forum.find_sent_pm(row.recipient, row.subject, row.body, after_message_id=self._before(row),
                                           conversation_id=self._conversation(row.recipient))
        if row.kind == "post":
            wants = {fingerprint(row.body)}
            if self.bot.config.effective_markup == "bbcode":  # the forum shows "[b]Round 3[/b]" as "Round 3"
                wants.add(fingerprint(_BBCODE_TAG.sub("", row.body)))
            for post in self.forum.thread_posts(self.bot.thread_id, self._before(row)):
                if post.author == self.bot.config.forum.username and fingerprint(post.text) in wants:
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

    def _sent(self, row: OutboxRow, result: int | SentMessage) -> None:
        ref, conversation = (result.message_id, result.conversation_id or None) if isinstance(result, SentMessage) \
            else (result, None)
        self.store.update_outbox(row.id, status="sent", forum_ref=ref, conversation_id=conversation,
                                 sent_at=self.bot.clock(), last_error=None)
        what = {"pm": f"private message to {row.recipient}", "post": "post", "thread": "new thread",
                "edit": "edit of post"}[row.kind]
        # Private messages only at DEBUG: their recipients and number tell the teams (INFO is shared).
        log.log(logging.DEBUG if row.kind == "pm" else logging.INFO, "sent %s (forum id %d)", what, ref)

    def _failed(self, row: OutboxRow, exc: Exception) -> None:
        self.failed_writes += 1
        attempts = row.attempts + 1
        wait = getattr(exc, "retry_after_seconds", None)
        limit = MAX_QUOTA_ATTEMPTS if wait else MAX_ATTEMPTS
        retry = None
        if attempts < limit:
            retry = self.bot.clock() + timedelta(seconds=wait or 600 * attempts)
        self.store.update_outbox(row.id, status="failed", last_error=(str(exc) or type(exc).__name__)[:500], next_attempt_at=retry)
        if row.kind == "pm":  # the recipient at DEBUG only; the organisers are told by PM and in `status`
            log.warning("delivery of a private message failed (attempt %d of %d)", attempts, limit)
            log.debug("delivery of outbox row %d to %s failed: %s", row.id, row.recipient, exc)
        else:
            log.warning("delivery failed (attempt %d of %d): %s", attempts, limit, exc)
        if attempts == 1 and row.template != "common/delivery_failed":
            self.bot.notify_failure(row, exc, limit)  # once per row, not at every retry

    def _settle(self, row: OutboxRow, exc: Exception) -> None:
        """``row`` never will be delivered (no such account): settled, the organisers told once."""
        self.store.update_outbox(row.id, status="undeliverable", last_error=(str(exc) or type(exc).__name__)[:500], next_attempt_at=None)
        log.warning("%s cannot be delivered and is not retried (the organisers are told)", _what(row).capitalize())
        log.debug("outbox row %d to %s: %s", row.id, row.recipient, exc)
        if row.template != "common/delivery_failed":
            self.bot.notify_failure(row, exc, row.attempts + 1, final=True)

    def _retry_failed(self) -> None:
        """Failed rows whose retry time has come are looked for on the forum, then sent again."""
        now = self.bot.clock()
        for row in self.store.outbox(("failed",)):
            if row.next_attempt_at is not None and now >= aware(row.next_attempt_at):
                self.store.update_outbox(row.id, status="sending", next_attempt_at=None)

    def settle_at_game_over(self) -> list[OutboxRow]:
        """When the game is over and nothing else waits: rows still failing are settled (undeliverable).
        Returns every row that was not delivered (undeliverable or cancelled), for the summary."""
        if self.store.outbox(("pending", "sending")):
            return []
        for row in self.store.outbox(("failed",)):
            self.store.update_outbox(row.id, status="undeliverable", next_attempt_at=None)
        return self.store.outbox(("undeliverable", "cancelled"))
