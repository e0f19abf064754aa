"""The inbox of the Discuz! adapter: conversations from ``mypm``, messages from ``subop=view``, by ``pmid``.

A mixin of :class:`forumbot.forums.discuz.DiscuzForum` (it uses the adapter's session: ``_read``,
``_uid``, ``http``, ``_clock``, ``zone``, ``_convs``). See that module's docstring for how the inbox is
polled; times are turned into windows by :mod:`forumbot.forums.discuz_time`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from forumbot.forums import discuz_api as api
from forumbot.forums.base import PrivateMessage, SentMessage, fingerprint
from forumbot.forums.discuz_time import UnknownTimeText, parse_relative
from forumbot.forums.errors import LayoutChanged

if TYPE_CHECKING:
    from forumbot.forums._http import Transport

log = logging.getLogger("forumbot.forums.discuz")
_PM_PER_PAGE = 100
# Conversations a page of the inbox list. The list is sorted by the second of each conversation's last
# message only: conversations of the same second come in another order on each page's query, so pages of
# 15 skip one and repeat another (capture mypm-same-second/: 19 ballots in one second, page 2 repeats a
# conversation of page 1 and one is never listed). One page as large as the mobile API allows keeps a
# season's conversations in one query.
_LIST_PER_PAGE = 100
_MAX_PENDING_POLLS = 3


def fp(text: str, length: int = 24) -> str:
    """Letters, digits and CJK of ``text`` only (markup and punctuation ignored), at most ``length``."""
    return "".join(ch for ch in text if ch.isalnum())[:length]


class DiscuzInbox:
    """Reading the judge's private messages and finding the ones it sent."""

    # the session of DiscuzForum this mixin reads with
    http: Transport
    zone: ZoneInfo
    _uid: int
    _convs: dict[int, dict[str, Any]]
    _sent_windows: dict[int, tuple[datetime, datetime]]
    _pm_anchor: tuple[int, datetime] | None
    _clock: Callable[[], datetime]

    if TYPE_CHECKING:
        def _read(self, module: str, params: Mapping[str, Any]) -> api.Answer: ...
        def _url(self, module: str, params: Mapping[str, Any] | None = None, version: int = 4) -> str: ...
        def login(self) -> None: ...
        def sendable(self, text: str) -> str: ...

    def private_messages(self, after_message_id: int | None = None) -> list[PrivateMessage]:
        """Messages received newer than ``after_message_id`` (all when None), oldest first (by pmid).

        The order is the forum's own: ``pmid`` is global to UCenter and grows as messages are stored, so
        seven ballots sent in one second come in the order they were stored, whatever their relative
        times. Each message's time window (``time_utc`` … ``time_utc + time_precision_seconds``) is the
        one its relative text allows, narrowed by that order (:func:`narrow_by_order`): never earlier than
        a lower pmid's earliest instant (this poll's, the last poll's, or a message the judge sent, known
        to the second), never later than a higher pmid's latest. So the windows never contradict the pmid
        order and sorting by ``time_utc`` keeps it.
        """
        after = int(after_message_id or 0)
        rows = self._changed_conversations(after)
        found: list[PrivateMessage] = []
        seen: list[_Msg] = []
        waiting = False
        for plid, row in rows.items():
            known = self._convs.get(plid, {})
            floor = min(after, int(known["last_seen"])) if "last_seen" in known else after
            messages, ok = self._open(row, floor)
            if not ok:
                self.http.sleep(1.0)  # sent in this very second: Discuz! shows it in the view a second later
                messages, ok = self._open(row, floor)
            pending = 0 if ok else int(known.get("pending", 0)) + 1
            if pending and pending < _MAX_PENDING_POLLS:
                waiting = True
            received = [m for m in messages if m.sender_uid != self._uid]
            state = {
                "touid": row["touid"],
                "marker": row["marker"] if not pending else known.get("marker", ""),
                "pending": pending,
                "last_seen": max([m.message.message_id for m in messages] + [int(known.get("last_seen", 0))]),
                "last": max([m.message.message_id for m in received] + [int(known.get("last", 0))]),
            }
            self._convs[plid] = state
            seen.extend(messages)
            found.extend(m.message for m in received if m.message.message_id > after)
        self.inbox_incomplete = waiting  # the runtime does not count this read as having seen the inbox
        if waiting:
            log.info("a private message is not yet readable in its conversation: reading the inbox again next poll")
            return []
        windows = narrow_by_order(
            {m.message.message_id: (m.message.time_utc, m.message.time_utc + timedelta(
                seconds=m.message.time_precision_seconds)) for m in seen}, self._pm_anchors())
        out = []
        for m in sorted(found, key=lambda m: m.message_id):
            lo, hi = windows[m.message_id]
            out.append(replace(m, time_utc=lo, time_precision_seconds=(hi - lo).total_seconds()))
        if windows and (self._pm_anchor is None or max(windows) > self._pm_anchor[0]):
            top = max(windows)
            self._pm_anchor = (top, windows[top][0])
        return out

    def _pm_anchors(self) -> dict[int, tuple[datetime, datetime]]:
        """Windows known better than from relative texts: the messages the judge sent (pmid, from the
        request to the answer) and the highest pmid of the last poll (its earliest instant)."""
        anchors = dict(self._sent_windows)
        if self._pm_anchor is not None:
            pmid, earliest = self._pm_anchor
            anchors.setdefault(pmid, (earliest, datetime.max.replace(tzinfo=earliest.tzinfo)))
        return anchors

    def _changed_conversations(self, after: int) -> dict[int, dict[str, Any]]:
        """The conversations to open: rows that changed, are flagged new, or hold messages past ``after``."""
        to_open: dict[int, dict[str, Any]] = {}
        page = 1
        while True:
            answer = self._read("mypm", {"page": page, "perpage": _LIST_PER_PAGE})
            v = answer.variables
            rows = v.get("list")
            if not isinstance(rows, list):
                raise LayoutChanged(self._url("mypm", {"page": page, "perpage": _LIST_PER_PAGE}), "Variables.list")
            last_needed = False
            for r in rows:
                plid, touid = api.to_int(r.get("plid")), api.to_int(r.get("touid"))
                if plid <= 0 or touid <= 0:
                    continue
                marker = f"{api.to_int(r.get('msgfromid'))}|{fp(api.plain(r.get('message')), 60)}"
                known = self._convs.get(plid)
                row = {"plid": plid, "touid": touid, "marker": marker, "subject": api.plain(r.get("subject")),
                       "tousername": api.plain(r.get("tousername")), "msgfromid": api.to_int(r.get("msgfromid")),
                       "summary": api.plain(r.get("message"))}
                needed = (known is None or known.get("marker") != marker or str(r.get("isnew")) == "1"
                          or known.get("pending") or int(known.get("last", 0)) > after)
                if needed:
                    to_open[plid] = row
                last_needed = needed
            per_page = api.to_int(v.get("perpage"), 15) or 15
            if not rows or not last_needed or page * per_page >= api.to_int(v.get("count")):
                break
            page += 1
        return to_open

    def _open(self, row: Mapping[str, Any], known_last: int) -> tuple[list[_Msg], bool]:
        """Messages of a conversation newer than ``known_last`` (newest page, then older pages as needed),
        and whether the view agrees with the list row (False: the newest message is not visible yet).

        Pages are counted from the newest end on a real X3.5: no ``page`` gives the newest page (full),
        and page 1 holds the oldest leftover (16 messages, 5 a page: 1, 5, 5, 5). A message stored in the
        current second is counted in ``count`` but not shown yet (capture ``gbk-pm-same-second/``).
        """
        messages: dict[int, _Msg] = {}
        page: int | None = None
        newest_page_last: _Msg | None = None
        missing = False
        while True:
            params: dict[str, Any] = {"subop": "view", "touid": row["touid"], "perpage": _PM_PER_PAGE}
            if page is not None:
                params["page"] = page
            started = self._clock()
            answer = self._read("mypm", params)
            ended = self._clock()
            items = answer.variables.get("list")
            if not isinstance(items, list):
                raise LayoutChanged(self._url("mypm", params), "Variables.list of the conversation")
            batch = [self._pm(i, row, started, ended) for i in items]
            for m in batch:
                messages[m.message.message_id] = m
            if page is None:
                newest_page_last = max(batch, key=lambda m: m.message.message_id, default=None)
                page = api.to_int(answer.variables.get("page"), 1)
                count = api.to_int(answer.variables.get("count"))
                per_page = api.to_int(answer.variables.get("perpage")) or _PM_PER_PAGE
                missing = len(items) < min(count, per_page)
            oldest = min((m.message.message_id for m in batch), default=0)
            if page <= 1 or not batch or oldest <= known_last:
                break
            page -= 1
        ok = not missing and newest_page_last is not None and newest_page_last.sender_uid == row["msgfromid"] and (
            fp(newest_page_last.message.body, 12) == fp(row["summary"], 12) or not fp(row["summary"]))
        ordered = sorted(messages.values(), key=lambda m: m.message.message_id)
        return [m for m in ordered if m.message.message_id > known_last], ok

    def _pm(self, item: Mapping[str, Any], row: Mapping[str, Any], started: datetime, ended: datetime) -> _Msg:
        text = api.pm_text(str(item.get("message") or ""))
        stamp = str(item.get("vdateline") or item.get("dateline") or "")
        try:
            window = parse_relative(stamp, started, ended, self.zone)
            when, precision = window.earliest, window.precision_seconds
        except UnknownTimeText:
            log.warning("unknown Discuz! time text %r: using the time it was read", stamp)
            when, precision = started, 0.0
        pm = PrivateMessage(api.to_int(item.get("pmid")), api.plain(item.get("msgfrom")), when,
                            api.plain(item.get("subject")) or row.get("subject", ""), text,
                            api.to_int(item.get("plid")) or row["plid"], precision)
        return _Msg(pm, api.to_int(item.get("msgfromid")))

    def find_sent_pm(self, user: str, subject: str, body: str = "", after_message_id: int | None = None,
                     conversation_id: int | None = None) -> SentMessage | None:
        """The newest message the judge sent to ``user`` whose first line is ``subject`` (and, when ``body``
        is given, the first one newer than ``after_message_id`` whose text is ``subject`` + ``body`` by
        fingerprint), among the newest page of that conversation (conversations on the first two pages of
        the inbox), or None. ``conversation_id`` is not needed (one conversation per pair of users)."""
        if self._uid <= 0:
            self.login()
        row = None
        uid = user[4:] if user.startswith("uid:") else None
        for page in (1, 2):
            rows = self._read("mypm", {"page": page, "perpage": _LIST_PER_PAGE}).variables.get("list") or []
            for r in rows:
                if (uid and str(r.get("touid")) == uid) or api.plain(r.get("tousername")) == user:
                    row = r
                    break
            if row is not None or len(rows) < _LIST_PER_PAGE:
                break
        if row is None:
            return None
        params = {"subop": "view", "touid": api.to_int(row.get("touid")), "perpage": _PM_PER_PAGE}
        want = " ".join(self.sendable(subject).split())
        for attempt in (1, 2):
            items = self._read("mypm", params).variables.get("list") or []
            order = sorted(items, key=lambda i: api.to_int(i.get("pmid")), reverse=not body)
            for item in order:
                if api.to_int(item.get("msgfromid")) != self._uid:
                    continue
                if api.to_int(item.get("pmid")) <= int(after_message_id or 0):
                    continue
                text = api.pm_text(str(item.get("message") or ""))
                first = " ".join(text.strip().split("\n", 1)[0].split())
                matches = fingerprint(text) == fingerprint(f"{subject}\n\n{body}") if body else first == want
                if matches:
                    return SentMessage(api.to_int(item.get("pmid")), api.to_int(item.get("plid")), user, self._clock())
            mine_last = api.to_int(row.get("msgfromid")) == self._uid
            if attempt == 1 and mine_last and fp(api.plain(row.get("message"))).startswith(fp(want)[:12]):
                self.http.sleep(1.0)  # in the list but not yet in the view: sent this very second
                continue
            break
        return None


def narrow_by_order(windows: Mapping[int, tuple[datetime, datetime]],
                    anchors: Mapping[int, tuple[datetime, datetime]] | None = None) -> dict[int, tuple[datetime, datetime]]:
    """``{pmid: (earliest, latest)}`` narrowed so that a higher pmid is never earlier than a lower one.

    ``windows`` are the windows the relative texts allow; ``anchors`` more windows (messages the judge
    sent, a previous poll's) that bound the others but are not returned. A message stored after another
    (higher pmid) was sent no earlier than the other's earliest instant and the other no later than its
    latest. A window that would become empty (clock skew) keeps its own earliest instant.
    """
    merged = dict(windows)
    for pmid, (a, b) in (anchors or {}).items():  # an anchor also narrows its own message's window
        if pmid in merged and max(a, merged[pmid][0]) <= min(b, merged[pmid][1]):
            merged[pmid] = (max(a, merged[pmid][0]), min(b, merged[pmid][1]))
        elif pmid not in merged:
            merged[pmid] = (a, b)
    order = sorted(merged)
    lo: dict[int, datetime] = {}
    hi: dict[int, datetime] = {}
    floor = None
    for pmid in order:
        floor = merged[pmid][0] if floor is None else max(floor, merged[pmid][0])
        lo[pmid] = floor
    ceiling = None
    for pmid in reversed(order):
        ceiling = merged[pmid][1] if ceiling is None else min(ceiling, merged[pmid][1])
        hi[pmid] = ceiling
    out = {}
    for pmid in windows:
        a, b = lo[pmid], hi[pmid]
        out[pmid] = (a, b) if a <= b else (windows[pmid][0], max(windows[pmid][0], b))
    return out


class _Msg:
    """A message of a conversation: the PrivateMessage and its sender's uid."""

    __slots__ = ("message", "sender_uid")

    def __init__(self, message: PrivateMessage, sender_uid: int):
        self.message = message
        self.sender_uid = sender_uid
