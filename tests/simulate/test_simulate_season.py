"""`forumbot simulate SEASON.toml` answers "is my season file balanced?" (issue 27): the file's ruleset, parameters
and player count; a ruleset id alone plays the rulebook's table size; heuristic play by default, random play with
its caveat in words; a progress line on stderr when the output is not a terminal; the figures named in words."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.cli.simulate_words import LineProgress, deaths_line, extra_line
from forumbot.simulate.run import Summary, wilson

SEASON = '''name = "阳光五人"
ruleset = "sunlight"
players = ["a", "b", "c", "d", "e"]
[params]
win_threshold = 0.5
[forum]
base_url = "http://127.0.0.1:1"
username = "judge"
password_env = "NOPE"
forum_id = 1
'''


def _simulate(*args: str):
    return CliRunner().invoke(app, ["simulate", *args], env={"COLUMNS": "200"})


def test_a_season_file_is_simulated_with_its_ruleset_parameters_and_players(tmp_path: Path) -> None:
    season = tmp_path / "season.toml"
    season.write_text(SEASON, encoding="utf-8")
    res = _simulate(str(season), "--games", "20")
    assert res.exit_code == 0, res.output
    assert "sunlight, 5 players, win_threshold=0.5" in res.stdout
    assert "20 games, heuristic play, skill 0.5" in res.stdout  # heuristic by default
    assert "Answer for season.toml: in 20 simulated games of 5 players under heuristic play" in res.stdout
    assert "Balanced? " in res.stdout and "Random play is a floor" not in res.stdout
    assert "Goods (good)" in res.stdout and "Killers (killer)" in res.stdout


def test_a_ruleset_alone_plays_the_rulebooks_table_size_and_random_play_says_what_it_is() -> None:
    res = _simulate("sunlight", "--games", "10", "--policy", "random")
    assert res.exit_code == 0, res.output
    assert "sunlight, 19 players" in res.stdout
    assert "Random play is a floor, not a forecast" in res.stdout


def test_progress_goes_to_stderr_as_lines_when_not_on_a_terminal() -> None:
    res = _simulate("sunlight", "--games", "20")
    assert res.exit_code == 0, res.output
    lines = res.stderr.splitlines()
    assert lines[0] == "simulate sunlight: 20 games to play"
    assert lines[-1].startswith("simulate sunlight: 20 of 20 games (100%)")
    assert len(lines) >= 4  # a line every tenth at least
    assert "simulate sunlight" not in res.stdout


def test_a_bad_season_file_or_target_is_one_line(tmp_path: Path) -> None:
    season = tmp_path / "season.toml"
    season.write_text(SEASON.replace('ruleset = "sunlight"', 'ruleset = "sunlite"'), encoding="utf-8")
    res = _simulate(str(season), "--games", "2")
    assert res.exit_code == 2 and "Traceback" not in res.output and res.stderr.startswith("error: ")
    res = _simulate("moonlight", "--games", "2")
    assert res.exit_code == 2 and "neither a season file" in res.output


def test_deaths_and_ruleset_figures_are_named_in_words() -> None:
    s = Summary(10, {"good": wilson(5, 10), "killer": wilson(5, 10)}, (5.0, 5.0), (3.0, 3.0),
                {"chosen": 0.13, "voted": 1.0}, 0, 0.0, {"win_index": 0.194})
    assert deaths_line(s) == "deaths per game (mean): chosen by the victim 0.13, voted out 1.00"
    extra = extra_line(s)
    assert extra is not None and extra.startswith("means per game: win index (the share of the goods' ballot points")
    assert extra.endswith(" 0.194")


def test_line_progress_writes_every_few_seconds_or_tenth() -> None:
    now = [0.0]
    said: list[str] = []
    p = LineProgress("x", 1000, said.append, clock=lambda: now[0])
    for _ in range(50):  # 50 games in 50 s: under a tenth, a line every 5 s
        now[0] += 1
        p.advance(1)
    assert len(said) == 1 + 10 and said[-1] == "simulate x: 50 of 1000 games (5%), 50 s so far, about 950 s left"
    p.advance(100)  # past a tenth at once
    assert said[-1].startswith("simulate x: 150 of 1000 games (15%)")


def _answer_of(good: int, killer: int) -> str:
    from forumbot.cli.simulate_words import answer

    games = good + killer
    s = Summary(games, {"good": wilson(good, games), "killer": wilson(killer, games)}, (5.0, 5.0), (3.0, 3.0), {}, 0,
                0.0, {})
    return next(line for line in answer(s, "heuristic", 0.5, 7, "s.toml") if line.startswith("Balanced? "))


def test_the_answer_is_only_as_sure_as_the_games_allow() -> None:
    assert _answer_of(7, 3).startswith("Balanced? Not sure yet: 10 games are too few to tell. Goods are 40 percentage")
    assert "run more games (--games 1000)" in _answer_of(7, 3)
    assert _answer_of(17, 3).startswith("Balanced? Not balanced: Goods win clearly more often")  # sure even with 20
    assert _answer_of(5, 5).startswith("Balanced? Not sure yet")  # 5 to 5 is no proof of balance either
    assert _answer_of(5000, 5000).startswith("Balanced? About even")
    assert _answer_of(530, 470).startswith("Balanced? Close to even: Goods are 6 percentage points ahead")
    assert _answer_of(5800, 4200).startswith("Balanced? Leaning towards Goods (16 percentage points")
    assert _answer_of(5, 0).startswith("Balanced? Leaning towards Goods at least: Goods are 100 percentage points ahead")


def test_a_season_file_outside_the_rulebooks_table_is_noted_and_its_parameters_read_as_written(tmp_path: Path) -> None:
    season = tmp_path / "club.toml"
    season.write_text(SEASON.replace('ruleset = "sunlight"', 'ruleset = "killer_club"')
                      .replace('players = ["a", "b", "c", "d", "e"]', 'players = ["a", "b", "c", "d", "e", "f"]')
                      .replace("win_threshold = 0.5", "vote_in_thread = true\n[params.series]\nlimit = 3"),
                      encoding="utf-8")
    res = _simulate(str(season), "--games", "4")
    assert res.exit_code == 0, res.output
    assert "note: club.toml line 3: players: 6 players, but the rulebook of killer_club" in res.stdout
    assert "killer_club, 6 players, vote_in_thread=true" in res.stdout
    assert "series=" not in res.stdout and "{'" not in res.stdout  # no Python text


def test_the_help_says_what_the_command_does_in_words() -> None:
    res = _simulate("--help")
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())
    assert "Is my season balanced?" in text and "1000 games unless --games" in text
    assert "Wilson" not in text and "1000003" not in text and "GAMES complete games" not in text


def test_one_game_is_one_game() -> None:
    from forumbot.cli.simulate_words import answer

    s = Summary(1, {"good": wilson(1, 1), "killer": wilson(0, 1)}, (5.0, 5.0), (3.0, 3.0), {}, 0, 0.0, {})
    text = " ".join(answer(s, "heuristic", 0.5, 7, "s.toml"))
    assert "in 1 simulated game of 7 players" in text and "1 game is too few to tell" in text
    assert "1 games" not in text


def test_the_bar_on_a_terminal_names_the_ruleset_not_defaults(tmp_path: Path) -> None:
    season = tmp_path / "season.toml"
    season.write_text(SEASON, encoding="utf-8")
    res = CliRunner().invoke(app, ["simulate", str(season), "--games", "3"], env={"COLUMNS": "200", "FORCE_COLOR": "1"})
    assert res.exit_code == 0, res.output
    assert "sunlight" in res.stdout and "defaults" not in res.stdout
