"""Every phase a ruleset opens is one of its declared ``phase_kinds`` (what season schedules may name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forumbot.engine.ruleset import get_ruleset, ruleset_ids
from forumbot.replay import load_transcript, replay

TRANSCRIPTS = sorted((Path(__file__).parent.parent / "transcripts").glob("*.yaml"))


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_phases_opened_are_declared(path):
    result = replay(load_transcript(path))
    declared = type(result.game.ruleset).phase_kinds
    if declared:
        assert {ph.kind for ph in result.game.phases} <= set(declared)


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_rulesets_declare_their_phases(ruleset):
    assert "prologue" in get_ruleset(ruleset).phase_kinds
