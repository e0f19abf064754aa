"""Running vote counts in the game thread (issue 13): when a vote is cast by posts in the thread, the
judge posts the count — each target with its voters in order, who has not voted, time left, "counted
through post #N" — every ``schedule.vote_count_every`` new votes and at ``schedule.vote_count_before``
(e.g. ["12h", "1h"]) before the deadline. The first count of a vote is a new post; later ones edit it in
place (``schedule.vote_count_edit``), so the thread is not flooded. The post says that rhythm (「每新增 3 票更新一次」):
a count edited "as votes come" would be read as live, and with ``vote_count_every = 3`` it stays as it was
for two more votes (issue 28, seen on a real Discuz!).

The count is derived from game state (:func:`forumbot.engine.votecount.vote_count`); the rhythm and the
clock live here. What was counted is a cursor written in the same transaction as the outbox row, so a
crash never doubles a count post; an edit re-sent after a crash writes the same text again (edits are
idempotent). A count not yet sent is rewritten in place rather than followed by an edit.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from forumbot.engine.votecount import vote_count
from forumbot.language.numbers import parse_duration
from forumbot.runtime.store import OutboxRow

if TYPE_CHECKING:
    from forumbot.runtime.bot import Bot

log = logging.getLogger("forumbot")

CURSOR = "vote_count"
TEMPLATE = "common/vote_count"


def time_left(left: timedelta) -> int:
    """The time left as a count says it, in seconds: whole seconds under a minute (55 s is not "0 minutes"),
    else whole minutes, rounded down (a count never promises more time than there is)."""
    seconds = max(0, int(left.total_seconds()))
    return seconds if seconds < 60 else seconds // 60 * 60


class VoteCounts:
    """Decides when ``bot``'s thread vote is counted in the thread, and queues the count.

    Cursor ``vote_count``: phase id -> ``{"n": counts queued, "votes": vote actions counted by the last
    one, "marks": indices of the fixed times done}``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def _marks(self, pid: int, dl: datetime) -> list[tuple[int, datetime]]:
        """The fixed count times of phase ``pid`` (index, time), those after the phase opened."""
        opened = self.bot.phase_clock.visible_at(pid) or self.bot.timing.opened_at[pid]  # counted from its post
        offsets = sorted((parse_duration(t) for t in self.bot.config.schedule.vote_count_before), reverse=True)
        return [(i, dl - off) for i, off in enumerate(offsets) if dl - off > opened]

    def next_time(self) -> datetime | None:
        """When the next fixed count is due (None: none, or no vote is cast in the thread now)."""
        dl = self.bot.deadline()
        if dl is None or vote_count(self.bot.game) is None:
            return None
        pid = self.bot.game.phase.id
        done = self.bot.store.cursor(CURSOR, {}).get(str(pid), {}).get("marks", [])
        due = [at for i, at in self._marks(pid, dl) if i not in done]
        return min(due) if due else None

    def run(self) -> None:
        """Queue a count of the current thread vote if one is due now."""
        bot = self.bot
        count = vote_count(bot.game)
        dl = bot.deadline()
        if count is None or dl is None:
            return
        now, pid, sch = bot.clock(), count.phase_id, bot.config.schedule
        state = dict(bot.store.cursor(CURSOR, {}))
        mine = dict(state.get(str(pid), {"n": 0, "votes": 0, "marks": []}))
        actions = bot.vote_actions.get(pid, 0)
        marks = [i for i, at in self._marks(pid, dl) if at <= now and i not in mine["marks"]]
        every = sch.vote_count_every
        if not marks and not (every > 0 and actions - mine["votes"] >= every):
            return
        prefix = f"{bot.store.season_id}:count:{pid}:"
        rows = [r for r in bot.store.outbox() if r.key.startswith(prefix)]
        posted = [r for r in rows if r.kind == "post" and r.status == "sent"]
        if rows and not posted and rows[-1].status != "pending":
            return  # the first count is on its way (or refused): wait for it before editing it
        data: dict[str, Any] = {**count.data(bot.game), "round": bot.game.phase.round,
                                "through": bot.last_thread_post, "edited_in_place": sch.vote_count_edit,
                                "left": time_left(dl - now), "every": every,
                                # the fixed count times this vote has (those before it opened are skipped)
                                "before": [int((dl - at).total_seconds()) for _, at in self._marks(pid, dl)]}
        body = bot._render(TEMPLATE, data)
        mine = {"n": mine["n"] + 1, "votes": actions, "marks": sorted(mine["marks"] + marks)}
        state[str(pid)] = mine
        last = rows[-1] if rows else None
        if sch.vote_count_edit and last is not None and last.id is not None and last.status == "pending":
            bot.store.set_body_and_cursor(last.id, body, CURSOR, state)  # not sent yet: send the newer count
        elif sch.vote_count_edit and posted:
            for r in rows:  # an older edit still to be retried would put back an older count
                if r.kind == "edit" and r.status == "failed" and r.id is not None:
                    bot.store.update_outbox(r.id, status="superseded", next_attempt_at=None)
            bot.store.queue([OutboxRow(season_id=0, key=f"{prefix}{mine['n']}", kind="edit", template=TEMPLATE,
                                       body=body, forum_ref=posted[-1].forum_ref)], {CURSOR: state})
        else:
            bot.store.queue([OutboxRow(season_id=0, key=f"{prefix}{mine['n']}", kind="post", template=TEMPLATE,
                                       body=body)], {CURSOR: state})
        log.info("vote count queued (phase %d, %d votes)", pid, count.votes)
