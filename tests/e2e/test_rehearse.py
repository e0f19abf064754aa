"""``forumbot rehearse`` on a real FlaskBB: one forum for several rehearsals of a small sunlight season (the
example's first six players), the bot run as ``forumbot run`` runs it and every player simulated through the forum.

- the same seed plays the same game (the standings), with an organiser's ``forumbot organiser FILE extend 10s``
  given from another process during the first one (it reaches the rehearsal's database and is answered);
- a rehearsal's posts and private messages are those ``forumbot run``'s bot sends for the same messages in the same
  phases (on the in-memory forum: tests/rehearse/rehearse_helpers.py).

Load-proof: the rehearsal's phases are never shorter than the forum needs (timed at the players' logins), every
wait here is on progress, and nothing is timed."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
import tomlkit
from season_driver import wait_for

from forumbot.cli.rehearse import Plan, rehearse_on
from forumbot.config import load_config
from forumbot.runtime.store import Store, make_engine
from forumbot.tomlfile import read_toml_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rehearse"))  # the in-memory rehearsal's helpers
from rehearse_helpers import EXAMPLES, delivered, recorded_messages, run_with_messages, standings_of

pytestmark = pytest.mark.e2e

PLAYERS = 6


def small_season(folder: Path) -> Path:
    """The sunlight example with its first six players, as an organiser would cut it down."""
    data = read_toml_file(EXAMPLES / "sunlight.example.toml")[1]
    data["players"] = data["players"][:PLAYERS]
    data["seed"] = 5
    path = folder / "my-season.toml"
    path.write_text(tomlkit.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def forum(tmp_path_factory: pytest.TempPathFactory):
    from forumbot.testforum import start_forum

    config = load_config(small_season(tmp_path_factory.mktemp("season")))
    with start_forum(players=[*config.players, *config.organisers], judge=config.forum.username) as running:
        yield running


def _extend_when_running(folder: Path, done: list[str]) -> None:
    """Once the rehearsal's first vote round is open (its database shows it), `forumbot organiser FILE extend 10s`."""
    path = folder / "rehearsal.toml"

    def phases() -> int:
        try:
            config = load_config(path)
            store = Store.find_season(make_engine(config.database_url), config.name)
        except Exception:  # not written yet
            return 0
        return 0 if store is None else sum(r.kind == "deadline" for r, _ in store.inputs())

    wait_for(lambda: phases() >= 1, "the rehearsal's first phase to close", phases)
    out = subprocess.run([sys.executable, "-m", "forumbot", "organiser", str(path), "extend", "10s"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)
    done.append(out.stdout + out.stderr)


def test_rehearsals_on_one_forum_play_the_same_game_for_a_seed_and_post_what_forumbot_run_does(
        forum, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = small_season(tmp_path)
    speed = Plan(speed=100_000.0, wait=False)  # every phase at the floor this forum needs

    first_folder = tmp_path / "first"
    first_folder.mkdir()
    said: list[str] = []
    organiser = threading.Thread(target=_extend_when_running, args=(first_folder, said), daemon=True)
    organiser.start()
    first = rehearse_on(forum, first_folder, source, speed)
    organiser.join(timeout=600)
    out = capsys.readouterr().out
    assert said and said[0].startswith("stored at"), said
    assert any(i is not None and i.source == "cli" and i.text == "extend 10s" for _, i in first.store.inputs())
    assert any(r.kind == "note" for r in first.store.outbox()), "the organiser's command was not answered"
    assert f"The game thread: {forum.base_url}/topic/{first.thread_id}" in out
    assert "Winner: " in out and (first_folder / "report" / "index.html").is_file()

    second_folder = tmp_path / "second"
    second_folder.mkdir()
    second = rehearse_on(forum, second_folder, source, speed)
    assert first.game.finished and second.game.finished and second.game.winner is not None
    assert standings_of(first) == standings_of(second)

    config = load_config(second_folder / "rehearsal.toml")
    replayed = tmp_path / "run"
    replayed.mkdir()
    run_config = config.model_copy(update={"database": f"sqlite:///{replayed / 'run.db'}"})
    run = run_with_messages(run_config, recorded_messages(config, second))
    assert delivered(run) == delivered(second)
