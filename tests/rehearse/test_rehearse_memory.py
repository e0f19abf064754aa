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


def test_an_organiser_command_during_a_rehearsal_is_applied_and_the_players_follow_the_bot(tmp_path: Path) -> None:
    given: list[int] = []

    def extend_in_the_second_phase(bot) -> None:
        if bot.game.phase.id == 2 and not given:
            given.append(bot.game.phase.id)
            bot.organiser_command("extend 10s")  # what `forumbot organiser REHEARSAL.toml extend 10s` stores

    bot, table, _ = rehearse_in_memory(rehearsal_config(EXAMPLES / "killer_club.example.toml", tmp_path),
                                       between=extend_in_the_second_phase)
    assert given and bot.game.finished
    assert any(i is not None and i.source == "cli" for _, i in bot.store.inputs())
    assert any(r.kind == "note" for r in bot.store.outbox())  # answered to the command line
    assert table.game is not None and table.game.winner == bot.game.winner
    assert len(table.game.phases) == len(bot.game.phases)


def test_each_player_is_told_only_what_the_judge_sent_him(tmp_path: Path) -> None:
    bot, table, _ = rehearse_in_memory(rehearsal_config(EXAMPLES / "vampire_village.example.toml", tmp_path))
    pms = {}
    for row in bot.store.outbox():
        if row.kind == "pm":
            pms.setdefault(row.recipient, set()).add(row.template)
    assert table.views
    for name, view in table.views.items():
        assert view.inbox and all(r.to == name for r in view.inbox)
        assert {r.key for r in view.inbox} <= pms[name]


def test_the_random_policy_plays_a_rehearsal_to_its_end(tmp_path: Path) -> None:
    bot, table, _ = rehearse_in_memory(rehearsal_config(EXAMPLES / "killer_club.example.toml", tmp_path), "random")
    assert bot.game.finished and table.sent and table.rebuilt == 0


def test_a_duration_is_fitted_to_the_phases_of_one_simulated_game() -> None:
    from forumbot.cli.rehearse import estimated_kinds
    from forumbot.config import load_config

    kinds = estimated_kinds(load_config(EXAMPLES / "killer_club.example.toml"), "heuristic", 0.5)
    assert kinds[0] == "prologue" and "night" in kinds and len(kinds) > 3
