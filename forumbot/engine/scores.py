"""Ranking by score, shared by the rulesets that score players (sunlight, vampire_village)."""

from __future__ import annotations


def ranks(scores: dict[int, float]) -> dict[int, int]:
    """Seat -> rank by ``scores`` (seat -> points), highest first; equal scores share a rank and the next
    rank skips (1, 1, 3): the rulebooks' 「名次」."""
    ordered = sorted(scores.values(), reverse=True)
    return {seat: ordered.index(v) + 1 for seat, v in scores.items()}
