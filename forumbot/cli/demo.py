"""``forumbot demo``: a rehearsal (:mod:`forumbot.cli.rehearse`) of a built-in example season.

The example season file of ``--ruleset`` (``forumbot/config_examples/``; default sunlight, with 8 of its players)
is copied into the demo's folder with the options written in (``--players``: the first N of its roster,
``--locale``, ``--seed``) and rehearsed: a local FlaskBB, the bot as ``forumbot run`` runs it, every player
simulated through real private messages and thread posts. It behaves the same on a slow machine as on a fast one:
every phase's clock starts when its opening post is on the forum (docs/runtime.md), and no phase is shorter than
the forum needs (its answers are timed when the players log in). It prints the thread's address, the final
standings and where the season report is, then keeps the forum up for a browser until Ctrl-C. The folder is
deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

import typer

from forumbot.cli.final_standings import print_standings
from forumbot.cli.rehearse import Plan, fail, rehearsal_folder, rehearse_file
from forumbot.cli.root import app

#: players of the demo when --players is not given, per ruleset (else the example's whole roster)
DEMO_PLAYERS = {"sunlight": 8}
#: the demo's speed: the example's 20-hour phases last 10 seconds
DEMO_SPEED = 7200.0
DEMO_FILE = "demo-season.toml"

# The season file's key each of the demo's options is written to.
OPTION_KEYS = {"locale": "--locale", "seed": "--seed", "players": "--players", "ruleset": "--ruleset"}


def demo_data(ruleset: str, players: int | None, locale: str | None, seed: int) -> dict:
    """The example season of ``ruleset`` as TOML data with the demo's options written in. Raises KeyError for a
    ruleset without an example."""
    from forumbot.resources import package_dir
    from forumbot.tomlfile import read_toml_file

    source = package_dir("config_examples") / f"{ruleset}.example.toml"
    if not source.exists():
        raise KeyError(ruleset)
    data = read_toml_file(source)[1]
    count = players if players is not None else DEMO_PLAYERS.get(ruleset)
    if count is not None:
        data["players"] = data["players"][:count] if count <= len(data["players"]) else \
            data["players"] + [f"player{i}" for i in range(len(data["players"]) + 1, count + 1)]
        data["aliases"] = {k: v for k, v in data.get("aliases", {}).items() if k in data["players"]}
    if locale is not None:
        data["locale"] = locale
    data["seed"] = seed
    return data


def write_demo_file(folder: Path, data: dict) -> Path:
    """Write the demo's season file ``data`` into ``folder``; returns its path."""
    import tomlkit

    path = folder / DEMO_FILE
    path.write_text("# Written by `forumbot demo`: an example season with the demo's options.\n" + tomlkit.dumps(data),
                    encoding="utf-8")
    return path


def option_error(path: Path) -> str | None:
    """What the season file validation says of the demo's file ``path`` (e.g. an unknown ``locale``), in the
    options' names, on one line; None when it makes a valid season."""
    from forumbot.config import ConfigError, load_config

    try:
        load_config(path)
    except ConfigError as exc:
        problems = []
        for line in str(exc).splitlines():  # "PATH line N: KEY: what is allowed"
            _, key, message = (line.split(": ", 2) + ["", ""])[:3]
            problems.append(f"{OPTION_KEYS.get(key, key)}: {message}" if message else line)
        return "; ".join(problems)
    return None


@contextlib.contextmanager
def demo_folder(keep: bool) -> Iterator[Path]:
    """A new folder for the demo's season files, database and report; deleted at the end (the database holds every
    private message) unless ``keep``, and then its path is printed."""
    with rehearsal_folder(keep, prefix="forumbot-demo-") as folder:
        yield folder


@app.command("demo")
def demo(
    ruleset: str = typer.Option("sunlight", help="the example season to play: sunlight, killer_club, vampire_village, "
                                "human_kill or interview_vampire"),
    players: int = typer.Option(None, min=1, help="how many of the example's players (sunlight: 8 by default; others: "
                                "the example's roster)"),
    locale: str = typer.Option(None, help="zh-Hans, zh-Hant or en (default: the example's)"),
    seed: int = typer.Option(21, help="the role draw and the players' choices"),
    speed: float = typer.Option(DEMO_SPEED, min=1.0, help="phases this many times shorter than the example's"),
    policy: str = typer.Option("heuristic", help="how the simulated players choose: heuristic or random"),
    wait: bool = typer.Option(True, help="keep the forum up for a browser until Ctrl-C"),
    keep: bool = typer.Option(False, "--keep", help="keep the demo's folder (season files, the SQLite database "
                              "with every post and private message, the report) instead of deleting it at the end"),
    port: int = typer.Option(None, min=1, max=65535, help="the local forum's port (default: a free one)"),
) -> None:
    """Play a whole example season on a local FlaskBB with simulated players (a rehearsal of a built-in example)."""
    from forumbot.simulate.policies import POLICIES

    if policy not in POLICIES:
        raise fail(f"--policy: {policy!r} is not a policy; known: {', '.join(POLICIES)}")
    try:
        data = demo_data(ruleset, players, locale, seed)
    except KeyError:
        from forumbot.engine.ruleset import ruleset_ids

        raise fail(f"--ruleset: no example season for {ruleset!r}; known: {', '.join(ruleset_ids())}") from None
    with tempfile.TemporaryDirectory(prefix="forumbot-demo-check-") as check:  # before the forum starts (it takes a while)
        if problem := option_error(write_demo_file(Path(check), data)):
            raise fail(problem)
    with demo_folder(keep) as folder:
        rehearse_file(write_demo_file(folder, data), Plan(speed=speed, policy=policy, seed=seed, keep=keep, wait=wait,
                                                          port=port), label="Demo", folder=folder)


__all__ = ["demo", "demo_folder", "print_standings"]
