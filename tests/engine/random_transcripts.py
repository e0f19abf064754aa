"""Replaying randomly generated transcripts, which may run past the end of the game or leave it
paused when a phase ends (both legal for random input, both errors for a transcript)."""

from __future__ import annotations

from typing import Any

from forumbot.replay import ReplayResult, TranscriptError, parse_transcript, replay


def replay_random(raw: dict[str, Any]) -> ReplayResult:
    """Replay ``raw``; phases after the end are dropped, a pause left at a phase's end is resumed
    by the first organiser at the end of that phase."""
    raw = {**raw, "phases": [dict(p) for p in raw["phases"]]}
    for _ in range(len(raw["phases"]) + 2):
        try:
            return replay(parse_transcript(raw))
        except TranscriptError as exc:
            number = int(str(exc).split(":")[0].split()[1])
            if "already over" in str(exc):
                raw["phases"] = raw["phases"][: number - 1]
            elif "paused" in str(exc):
                entry = raw["phases"][number - 1]
                entry["organiser"] = [*entry.get("organiser", []), [raw["organisers"][0], "继续"]]
            else:
                raise
    raise AssertionError("could not replay a random transcript")
