"""Helpers for vampire_village tests: a 14-player table with a fixed draw, transcripts in a few lines."""

from __future__ import annotations

from typing import Any

from forumbot.replay import ReplayResult, parse_transcript, replay

PLAYERS = list("ABCDEFGHIJKLMN")
#: A, B, C vampires; D seer; E cupid; F witch; G guard; H hunter; I elder; J piper; K..N villagers.
ROLES = {"A": "vampire", "B": "vampire", "C": "vampire", "D": "seer", "E": "cupid", "F": "witch", "G": "guard",
         "H": "hunter", "I": "elder", "J": "piper"}
VILLAGERS = "KLMN"


def play(phases: list[Any], players: list[str] | str = PLAYERS, roles: dict[str, str] | None = None, **extra: Any) -> ReplayResult:
    """Replay a vampire_village game. ``phases``: each a dict (a transcript phase entry) or a list of
    [sender, text] private messages. The prologue closes by itself."""
    entries = [p if isinstance(p, dict) else {"messages": p} for p in phases]
    raw = {"ruleset": "vampire_village", "players": list(players), "roles": ROLES if roles is None else roles,
           "phases": entries, **extra}
    return replay(parse_transcript(raw))


def replies_to(result: ReplayResult, name: str, key: str | None = None) -> list[Any]:
    """Every reply to ``name`` (of template ``key``) over the game, in order."""
    return [r for ph in result.phases for r in ph.step.replies
            if r.to == name and (key is None or r.key == f"vampire_village/{key}")]


def posts(result: ReplayResult, key: str | None = None) -> list[Any]:
    """Every post (of template ``key``), in order."""
    return [p for ph in result.phases for p in ph.step.posts if key is None or p.key == f"vampire_village/{key}"]


def reasons(result: ReplayResult, name: str) -> list[str]:
    """The reasons of every rejection sent to ``name``."""
    return [r.data["reason"] for r in replies_to(result, name, "rejected")]


def out_names(result: ReplayResult) -> list[str]:
    """Who left, in order."""
    return [n for ph in result.phases for n in ph.out]


def kinds(result: ReplayResult) -> list[str]:
    """The phase kinds, in order (the prologue first)."""
    return [ph.phase for ph in result.phases]


def votes(target: str, voters: str) -> list[list[str]]:
    """Each of ``voters`` votes for ``target``."""
    return [[v, f"投 {target}"] for v in voters]
