"""A rehearsal of every example season, on the in-memory forum with a clock the test moves (tests/e2e/test_rehearse.py
plays them on FlaskBB): it ends with a winner, the same seed plays the same game, the players and the bot stay in
step, and its posts and private messages are those ``forumbot run`` sends for the same messages in the same phases."""

from __future__ import annotations

from pathlib import Path

import pytest
from rehearse_helpers import (
    EXAMPLES,
    delivered,
    recorded_messages,
    rehearsal_config,
    rehearse_in_memory,
    run_with_messages,
    standings_of,
)

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.toml"))


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=[p.stem.removesuffix(".example") for p in EXAMPLE_FILES])
def test_a_rehearsal_of_each_example_ends_with_a_winner_and_the_same_standings_for_the_same_seed(
        example: Path, tmp_path: Path) -> None:
    first, table, _ = rehearse_in_memory(rehearsal_config(example, tmp_path / "a"))
    again, _, _ = rehearse_in_memory(rehearsal_config(example, tmp_path / "b"))
    assert first.game.finished and first.game.winner is not None
    assert table.rebuilt == 0 and table.failed == 0  # the bot read every command in the order it was played
    assert len(table.sent) > len(first.game.players)  # they played: more than one command each
    assert standings_of(first) == standings_of(again)
    assert delivered(first) == delivered(again)


def test_another_seed_plays_another_game(tmp_path: Path) -> None:
    example = EXAMPLES / "killer_club.example.toml"
    one, _, _ = rehearse_in_memory(rehearsal_config(example, tmp_path / "a", seed=1))
    other, _, _ = rehearse_in_memory(rehearsal_config(example, tmp_path / "b", seed=2))
    assert [(s.name, s.role) for s in standings_of(one)] != [(s.name, s.role) for s in standings_of(other)]


@pytest.mark.parametrize("example", ["killer_club", "human_kill"])
def test_a_rehearsal_posts_and_sends_what_forumbot_run_does_on_the_same_messages(example: str, tmp_path: Path) -> None:
    config = rehearsal_config(EXAMPLES / f"{example}.example.toml", tmp_path / "rehearsal")
    rehearsal, _, _ = rehearse_in_memory(config)
    run = run_with_messages(rehearsal_config(EXAMPLES / f"{example}.example.toml", tmp_path / "run"),
                            recorded_messages(config, rehearsal))
    assert run.game.finished
    assert delivered(run) == delivered(rehearsal)
