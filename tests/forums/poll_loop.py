"""How the bot consumes reads, for the adapters' no-skip tests: a faithful copy of the consumption loop of
:meth:`forumbot.runtime.bot.Bot._poll` and ``_store_read`` without the game.

Per poll: import the stored cursor (a JSON round trip, as the database keeps it); read the inbox with
``pm_after``, then the thread with ``post_after``; a :class:`ForumError` ends the poll, and the ``partial``
it carries is stored with the adapter's cursor but moves neither id cursor; a read that succeeds stores its
items and the cursor and, when complete (for the inbox: not ``inbox_incomplete``) and not empty, moves the
source's id cursor to the highest id read. Items are stored once per (source, id), as the store does;
the judge's own items are left out. ``stored[source][id]`` is the text stored.
"""

from __future__ import annotations

import json
from typing import Any

from forumbot.forums.base import ForumError


class Consumer:
    def __init__(self, forum: Any, judge: str, thread_id: int | None = None):
        self.forum = forum
        self.judge = judge
        self.thread_id = thread_id
        self.cursors: dict[str, Any] = {}
        self.stored: dict[str, dict[int, str]] = {"pm": {}, "thread": {}}
        self.returned_again: list[tuple[str, int]] = []  # items a read returned that were stored already

    def poll(self) -> bool:
        """One poll; True when every source was read."""
        cursor = self.cursors.get("forum_cursor")
        if cursor:
            self.forum.import_cursor(json.loads(cursor))
        sources = ["pm"] + (["thread"] if self.thread_id else [])
        for source in sources:
            try:
                if source == "pm":
                    items: list[Any] = self.forum.private_messages(self.cursors.get("pm_after"))
                else:
                    items = self.forum.thread_posts(self.thread_id, self.cursors.get("post_after"))
            except ForumError as exc:
                partial = list(getattr(exc, "partial", None) or [])
                if partial:
                    self._store(source, partial, complete=False)
                return False
            seen_all = source != "pm" or not getattr(self.forum, "inbox_incomplete", False)
            self._store(source, items, complete=seen_all)
        return True

    def _store(self, source: str, items: list[Any], complete: bool) -> None:
        for item in items:
            if source == "pm":
                key, who, text = item.message_id, item.sender, item.body
            else:
                key, who, text = item.post_id, item.author, item.text
            if who == self.judge:
                continue
            if key in self.stored[source]:
                self.returned_again.append((source, key))
                continue
            self.stored[source][key] = text
        self.cursors["forum_cursor"] = json.dumps(self.forum.export_cursor())
        if complete and items:
            ids = [m.message_id for m in items] if source == "pm" else [p.post_id for p in items]
            self.cursors["pm_after" if source == "pm" else "post_after"] = max(ids)
