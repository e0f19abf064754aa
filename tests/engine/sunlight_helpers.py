"""Helpers for sunlight tests: build a transcript in a few lines and replay it."""

from __future__ import annotations

from typing import Any

from forumbot.replay import ReplayResult, parse_transcript, replay


def play(phases: list[Any], players: str | list[str] = "ABCDEFG", killer: str = "C", **extra: Any) -> ReplayResult:
    """Replay a sunlight game. ``phases``: each a dict (PhaseEntry) or a list of [sender, text]
    private messages."""
    entries = [p if isinstance(p, dict) else {"messages": p} for p in phases]
    raw = {"ruleset": "sunlight", "players": list(players), "roles": {killer: "killer"}, "phases": entries, **extra}
    return replay(parse_transcript(raw))


def replies_to(result: ReplayResult, name: str) -> list[Any]:
    """Every reply to ``name`` over the game, in order."""
    return [r for ph in result.phases for r in ph.step.replies if r.to == name]


def posts(result: ReplayResult) -> list[Any]:
    """Every post, in order."""
    return [p for ph in result.phases for p in ph.step.posts]


