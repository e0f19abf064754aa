"""Ranking by score with shared ranks (1, 1, 3), as sunlight ranks its players (vampire_village ranks densely, 1, 1, 2,
in its own summary, and does not use this)."""

from __future__ import annotations


def ranks(scores: dict[int, float]) -> dict[int, int]:
    """Seat -> rank by ``scores`` (seat -> points), highest first; equal scores share a rank and the next
    rank skips (1, 1, 3): the rulebooks' 「名次」."""
    ordered = sorted(scores.values(), reverse=True)
    return {seat: ordered.index(v) + 1 for seat, v in scores.items()}
