"""The inbox of the Discuz! adapter: conversations from ``mypm``, messages from ``subop=view``, by ``pmid``.

A mixin of :class:`forumbot.forums.discuz.DiscuzForum` (it uses the adapter's session: ``_read``,
``_uid``, ``http``, ``_clock``, ``zone``, ``_convs``). See that module's docstring for how the inbox is
polled; times are turned into windows by :mod:`forumbot.forums.discuz_time`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from forumbot.forums import discuz_api as api
from forumbot.forums.base import PrivateMessage, SentMessage
from forumbot.forums.discuz_time import UnknownTimeText, parse_relative
from forumbot.forums.errors import LayoutChanged

log = logging.getLogger("forumbot.forums.discuz")
_PM_PER_PAGE = 100
_MAX_PENDING_POLLS = 3


def fp(text: str, length: int = 24) -> str:
    """Letters, digits and CJK of ``text`` only (markup and punctuation ignored), at most ``length``."""
    return "".join(ch for ch in text if ch.isalnum())[:length]


class DiscuzInbox:
    """Reading the judge's private messages and finding the ones it sent."""

    def private_messages(self, after_message_id: int | None = None) -> list[PrivateMessage]:
        """Messages received newer than ``after_message_id`` (all when None), oldest first (by pmid)."""
        after = int(after_message_id or 0)
        rows = self._changed_conversations(after)
        found: list[PrivateMessage] = []
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
            found.extend(m.message for m in received if m.message.message_id > after)
        if waiting:
            log.info("a private message is not yet readable in its conversation: reading the inbox again next poll")
            return []
        return sorted(found, key=lambda m: m.message_id)

    def _changed_conversations(self, after: int) -> dict[int, dict[str, Any]]:
        """The conversations to open: rows that changed, are flagged new, or hold messages past ``after``."""
        to_open: dict[int, dict[str, Any]] = {}
        page = 1
        while True:
            answer = self._read("mypm", {"page": page})
            v = answer.variables
            rows = v.get("list")
            if not isinstance(rows, list):
                raise LayoutChanged(self._url("mypm", {"page": page}), "Variables.list")
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
        and whether the view agrees with the list row (False: the newest message is not visible yet)."""
        messages: dict[int, _Msg] = {}
        page: int | None = None
        newest_page_last: _Msg | None = None
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
            oldest = min((m.message.message_id for m in batch), default=0)
            if page <= 1 or not batch or oldest <= known_last:
                break
            page -= 1
        ok = newest_page_last is not None and newest_page_last.sender_uid == row["msgfromid"] and (
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

    def find_sent_pm(self, user: str, subject: str) -> SentMessage | None:
        """The newest message the judge sent to ``user`` whose first line is ``subject``, among the newest
        page of that conversation (conversations on the first two pages of the inbox), or None."""
        if self._uid <= 0:
            self.login()
        row = None
        uid = user[4:] if user.startswith("uid:") else None
        for page in (1, 2):
            rows = self._read("mypm", {"page": page}).variables.get("list") or []
            for r in rows:
                if (uid and str(r.get("touid")) == uid) or api.plain(r.get("tousername")) == user:
                    row = r
                    break
            if row is not None or len(rows) < 15:
                break
        if row is None:
            return None
        params = {"subop": "view", "touid": api.to_int(row.get("touid")), "perpage": _PM_PER_PAGE}
        want = " ".join(subject.split())
        for attempt in (1, 2):
            items = self._read("mypm", params).variables.get("list") or []
            for item in sorted(items, key=lambda i: api.to_int(i.get("pmid")), reverse=True):
                if api.to_int(item.get("msgfromid")) != self._uid:
                    continue
                text = api.pm_text(str(item.get("message") or ""))
                first = " ".join(text.strip().split("\n", 1)[0].split())
                if first == want:
                    return SentMessage(api.to_int(item.get("pmid")), api.to_int(item.get("plid")), user, self._clock())
            mine_last = api.to_int(row.get("msgfromid")) == self._uid
            if attempt == 1 and mine_last and fp(api.plain(row.get("message"))).startswith(fp(want)[:12]):
                self.http.sleep(1.0)  # in the list but not yet in the view: sent this very second
                continue
            break
        return None


class _Msg:
    """A message of a conversation: the PrivateMessage and its sender's uid."""

    __slots__ = ("message", "sender_uid")

    def __init__(self, message: PrivateMessage, sender_uid: int):
        self.message = message
        self.sender_uid = sender_uid
