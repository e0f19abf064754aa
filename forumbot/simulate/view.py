"""What one simulated player knows: the :class:`View` a policy decides from.

The information rule is the bot's own (see the brief's "a player's private information is a rule
too"): a player learns exactly what the judge sends him — his private messages (role PM, results,
refusals) — and what is posted in the game thread. Both are the engine's outputs
(:class:`~forumbot.engine.types.Reply` to his account, :class:`~forumbot.engine.types.Post`), kept
here as the template key and data the bot would render; nothing else of the game state is reachable.

One controlled exception models what a simulator does not play, the table talk:
:meth:`View.hunch` returns, with probability ``skill``, a living player of a camp hostile to the
viewer's — how well the talk gives the bad camp away (``--skill``). Policies use it for day votes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from forumbot.engine.types import Post, Reply


@dataclass
class View:
    """One player's knowledge. ``seat``/``name``: who he is. ``ruleset``: the ruleset id.
    ``inbox``: every private message the judge sent him, in order; ``posts``: every thread post, in
    order (shared by all views of a game). ``phase``: the current phase's ``(kind, round)``;
    ``alive``: the living seats (public: deaths are announced). Filled by the simulator as the game
    runs; read-only for policies."""

    seat: int
    name: str
    ruleset: str
    inbox: list[Reply] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    phase: tuple[str, int] = ("prologue", 0)
    alive: tuple[int, ...] = ()
    #: the policy's memory for the current phase (emptied when a phase opens) and for the game
    scratch: dict[str, Any] = field(default_factory=dict)
    memory: dict[str, Any] = field(default_factory=dict)
    _hunch: Callable[[random.Random, float], int | None] | None = field(default=None, repr=False)

    _by_key: dict[str, list[dict[str, Any]]] = field(default_factory=dict, repr=False)

    def receive(self, reply: Reply) -> None:
        """The simulator delivers a private message to him."""
        self.inbox.append(reply)
        self._by_key.setdefault(reply.key, []).append(reply.data)

    @property
    def role(self) -> str | None:
        """His role as his latest role PM (``<ruleset>/role``) states it (a converted player gets a new
        one), else None."""
        data = self.last(f"{self.ruleset}/role")
        return str(data["role"]) if data is not None and "role" in data else None

    def last(self, key: str) -> dict[str, Any] | None:
        """The data of the latest private message with template ``key`` ("<ruleset>/<name>"), or None."""
        got = self._by_key.get(key)
        return got[-1] if got else None

    def received(self, key: str) -> list[dict[str, Any]]:
        """The data of every private message with template ``key``, oldest first (do not modify)."""
        return self._by_key.get(key, [])

    def hunch(self, rng: random.Random, skill: float) -> int | None:
        """The table-talk model: with probability ``skill`` a random living player whose camp is
        hostile to the viewer's (else None). Draws ``rng.random()`` only when such a player lives, then
        ``rng.choice``."""
        return self._hunch(rng, skill) if self._hunch is not None else None
