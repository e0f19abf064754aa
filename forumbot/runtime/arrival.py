"""When an inbound item was sent, as far as anyone can know: a time interval per item.

The bot never sees a message being sent; it reads the forum from time to time. An item (a private
message to the judge, a post in the game thread) was therefore sent

- after the start of the last read of its source that did not see it, and
- before the end of the read that saw it,

narrowed by what the forum itself says (an exact time; a relative phrase such as Discuz!'s
「2 分钟前」, which allows a window; the forum's own order: within a source an item with a larger id was
sent no earlier than one with a smaller id). Where the forum's stated time and the reads disagree
(clocks that differ, or an item the forum made visible late), the forum's time is taken.

An item counts for a deadline when its whole interval lies at or before it, is late when its whole
interval lies after it, and *straddles* it otherwise; a straddling item is settled by
``schedule.straddling`` ("late", the default: it counts only when the forum's own time proves it on
time; "on_time": the sender gets the benefit of the doubt) and listed for the organiser in
``forumbot status``. The runtime makes a read right at each deadline (plus ``schedule.grace``), so
straddles stay rare. Pure functions; no clock is read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

Verdict = Literal["on_time", "late", "straddles"]


@dataclass(frozen=True)
class Interval:
    """``earliest`` <= the instant the item was sent <= ``latest`` (aware UTC datetimes)."""

    earliest: datetime
    latest: datetime

    def verdict(self, deadline: datetime) -> Verdict:
        """"on_time" when the whole interval is at or before ``deadline``, "late" when after it,
        "straddles" otherwise."""
        if self.latest <= deadline:
            return "on_time"
        if self.earliest > deadline:
            return "late"
        return "straddles"

    def counts_for(self, deadline: datetime, straddling: str = "late") -> bool:
        """Whether the item counts as sent by ``deadline`` under the straddling rule ("late" or "on_time")."""
        v = self.verdict(deadline)
        return v == "on_time" or (v == "straddles" and straddling == "on_time")


@dataclass(frozen=True)
class Stated:
    """What the forum says of one item: ``time_utc`` (the earliest instant its text allows) and
    ``precision_seconds`` (the width of the window it allows; 0 for an exact time)."""

    time_utc: datetime
    precision_seconds: float = 0.0


def intervals(stated: Sequence[Stated], read_began_before: datetime | None, read_ended: datetime,
              floor: datetime | None = None) -> list[Interval]:
    """The intervals of the items one read of one source returned, in the forum's own order (oldest id
    first).

    ``read_began_before``: when the previous read of this source began (None: never read);
    ``read_ended``: when this read's answer was complete; ``floor``: the earliest instant of the last
    item of this source stored before (the forum's order carries across reads).
    """
    out: list[tuple[datetime, datetime]] = []
    for s in stated:
        lo_f, hi_f = s.time_utc, s.time_utc + timedelta(seconds=max(0.0, s.precision_seconds))
        lo = max(lo_f, read_began_before) if read_began_before is not None else lo_f
        hi = min(hi_f, read_ended)
        if lo > hi:  # the reads and the forum disagree: the forum's own time wins
            lo, hi = lo_f, hi_f
        out.append((lo, hi))
    # The forum's order: no item was sent before an item with a smaller id, nor after one with a larger.
    running = floor
    for i, (lo, hi) in enumerate(out):
        if running is not None and lo < running:
            lo = running
        running = lo
        out[i] = (lo, max(lo, hi))
    for i in range(len(out) - 2, -1, -1):
        lo, hi = out[i]
        nxt_hi = out[i + 1][1]
        if hi > nxt_hi:
            out[i] = (lo, max(lo, nxt_hi))
    return [Interval(lo, hi) for lo, hi in out]
