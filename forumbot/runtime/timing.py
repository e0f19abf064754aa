"""When each phase opened and how much its deadline moved: rebuilt from the game's inputs and their
times (organiser extensions, time spent paused)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from forumbot.engine.game import Game
from forumbot.engine.types import Step


@dataclass
class Timing:
    """``opened_at``: phase id -> UTC time it opened; ``extra``: phase id -> time added to its
    deadline; ``paused_since``: set while the organiser has paused the game."""

    opened_at: dict[int, datetime] = field(default_factory=dict)
    extra: dict[int, timedelta] = field(default_factory=dict)
    paused_since: datetime | None = None
    last_deadline: datetime | None = None
    last_closed: int | None = None  # the phase the last deadline closed

    def observe(self, kind: str, at: datetime, step: Step, game: Game, opened_at: datetime | None = None) -> None:
        """Account for one applied input of ``kind`` at time ``at`` and what it produced. A phase it
        opens opened at ``opened_at`` when given (a deadline handled after an outage), else at ``at``."""
        if kind == "start":
            self.opened_at[0] = at
        if kind == "deadline":
            self.last_deadline = at
        for e in step.events:
            if e.kind == "deadline":
                self.last_closed = e.data["phase_id"]
            if e.kind == "phase_opened":
                self.opened_at[e.data["phase_id"]] = opened_at or at
            elif e.kind == "deadline_extended":
                pid = e.data["phase_id"]
                self.extra[pid] = self.extra.get(pid, timedelta(0)) + timedelta(seconds=e.data["seconds"])
            elif e.kind == "game_paused" and self.paused_since is None:
                self.paused_since = at
            elif e.kind == "game_resumed" and self.paused_since is not None:
                pid = game.phase.id
                self.extra[pid] = self.extra.get(pid, timedelta(0)) + (at - self.paused_since)
                self.paused_since = None
