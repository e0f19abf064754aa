"""Death triggers, shared by every ruleset where a death opens a window for someone to act (vampire_village:
the hunter's shot and the sheriff's successor; human_kill: Reimu takes one player with her).

A :class:`Windows` queue holds the windows deaths have opened, first in first out; the ruleset opens one
phase per window (its own deadline and post) and, when the queue is empty, goes on with the game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    """``seat`` may act (``kind``: "shot", "successor"...) because of a death."""

    kind: str
    seat: int


class Windows:
    """The windows waiting to be opened, in the order the deaths made them."""

    def __init__(self) -> None:
        self._queue: list[Window] = []
        self.current: Window | None = None

    def add(self, kind: str, seat: int) -> None:
        """Queue a window (a repeat of one already waiting is ignored)."""
        w = Window(kind, seat)
        if w not in self._queue:
            self._queue.append(w)

    def pop(self) -> Window | None:
        """The next window, now current; None (and no current window) when the queue is empty."""
        self.current = self._queue.pop(0) if self._queue else None
        return self.current

    def waiting(self) -> list[Window]:
        """The windows still queued."""
        return list(self._queue)

    def clear(self) -> None:
        """Forget every window (the game is over)."""
        self._queue.clear()
        self.current = None
