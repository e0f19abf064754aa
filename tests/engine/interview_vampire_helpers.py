"""Helpers for interview_vampire tests: a 12-player table with a fixed draw, transcripts in a few lines."""

from __future__ import annotations

from typing import Any

from forumbot.replay import ReplayResult, parse_transcript, replay

PLAYERS = list("ABCDEFGHIJKL")
#: A is the vampire; everyone else a human.
ROLES = {"A": "vampire"}


def play(phases: list[Any], players: list[str] | str = PLAYERS, roles: dict[str, str] | None = None, **extra: Any) -> ReplayResult:
    """Replay an interview_vampire game. ``phases``: each a dict (a transcript phase entry) or a list
    of [sender, text] private messages. The prologue closes by itself."""
    entries = [p if isinstance(p, dict) else {"messages": p} for p in phases]
    raw = {"ruleset": "interview_vampire", "players": list(players), "roles": ROLES if roles is None else roles,
           "phases": entries, **extra}
    return replay(parse_transcript(raw))


def replies_to(result: ReplayResult, name: str, key: str | None = None) -> list[Any]:
    """Every reply to ``name`` (of template ``key``) over the game, in order."""
    return [r for ph in result.phases for r in ph.step.replies
            if r.to == name and (key is None or r.key == f"interview_vampire/{key}")]


def posts(result: ReplayResult, key: str | None = None) -> list[Any]:
    """Every post (of template ``key``), in order."""
    return [p for ph in result.phases for p in ph.step.posts if key is None or p.key == f"interview_vampire/{key}"]


def reasons(result: ReplayResult, name: str) -> list[str]:
    """The reasons of every rejection sent to ``name``."""
    return [r.data["reason"] for r in replies_to(result, name, "rejected")]


def out_names(result: ReplayResult) -> list[str]:
    """Who left, in order."""
    return [n for ph in result.phases for n in ph.out]


def dawn(result: ReplayResult, name: str) -> list[dict[str, Any]]:
    """The data of every dawn report sent to ``name``."""
    return [r.data for r in replies_to(result, name, "dawn_report")]


def day(votes: dict[str, str]) -> dict[str, Any]:
    """A day phase: each voter posts 投 target in the thread."""
    return {"phase": "day", "posts": [[v, f"投 {t}"] for v, t in votes.items()]}


def night(*messages: tuple[str, str]) -> dict[str, Any]:
    """A night phase of private messages."""
    return {"phase": "night", "messages": [list(m) for m in messages]}


QUIET_DAY: dict[str, Any] = {"phase": "day"}
