"""``forumbot simulate``: play many games of one ruleset and print how often each camp wins."""

from __future__ import annotations

import contextlib
import importlib
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import typer
import yaml
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn
from rich.table import Table

from forumbot.cli.outcome import camp_name
from forumbot.cli.root import app
from forumbot.cli.simulate_words import (
    RANDOM_CAVEAT,
    TABLE_SIZES,
    LineProgress,
    answer,
    deaths_line,
    extra_line,
    games_words,
    shown_params,
)
from forumbot.engine.game import SetupError
from forumbot.engine.ruleset import get_ruleset, ruleset_ids
from forumbot.simulate.play import GameResult
from forumbot.simulate.policies import POLICIES
from forumbot.simulate.run import (
    Spec,
    Summary,
    game_seed,
    plot_sweep,
    process_pool,
    run,
    summarise,
    sweep_points,
    transcript,
    write_csv,
)


def _value(text: str) -> Any:
    """A parameter value as written on the command line: 3, 0.25, true, text."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _pairs(items: list[str], what: str) -> list[tuple[str, str]]:
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{item!r}: write {what} as key=value")
        out.append((key.strip(), value))
    return out


EXTRA_HINT = "pip install 'forumbot[simulate]' (in a checkout: .venv/bin/pip install -e '.[simulate]')"


def _require(module: str, what: str) -> None:
    """Exit 2 with one line saying how to install ``module`` (of the optional extra ``simulate``) when it
    cannot be imported: ``pip install .`` leaves the simulator's libraries out."""
    try:
        importlib.import_module(module)
    except ImportError:
        typer.echo(f"forumbot simulate needs {module} for {what}, which is in the optional extra "
                   f"'simulate': {EXTRA_HINT}", err=True)
        raise typer.Exit(2) from None


def _target(target: str, players: int | None) -> tuple[str, str, dict[str, Any], int, list[str]]:
    """What ``forumbot simulate TARGET`` plays: (ruleset id, its name in the answer, the season file's parameters,
    players a game, notes to print first). A season file (``*.toml``, or any existing file) gives its ruleset,
    ``params`` and player count; a ruleset id gives the rulebook's table size (:data:`TABLE_SIZES`) when
    ``--players`` is not given. A bad season file or an unknown ruleset ends the command with one line (exit 2)."""
    from forumbot.config import ConfigError, load_config

    path = Path(target)
    if target in ruleset_ids() and not path.is_file():
        return target, target, {}, players or TABLE_SIZES.get(target, get_ruleset(target).min_players), []
    if path.suffix != ".toml" and not path.is_file():
        raise typer.BadParameter(f"{target!r} is neither a season file (SEASON.toml) nor a ruleset; rulesets: "
                                 f"{', '.join(ruleset_ids())}", param_hint="SEASON.toml|RULESET")
    try:
        c = load_config(path)
    except ConfigError as exc:
        for line in str(exc).splitlines():
            typer.echo(f"error: {line}", err=True)
        raise typer.Exit(2) from None
    # a player count outside the rulebook's table: the figures are of a game the rulebook did not write
    notes = [f"note: {path.name} {w}" for w in c.warnings if re.match(r"(?:line \d+: )?players: ", w)]
    if c.roles:  # the simulator deals at random: a fixed draw would play one deal a thousand times
        notes.append(f"note: {path.name} fixes some roles (roles = ...); each simulated game draws them at random.")
    return c.ruleset, path.name, dict(c.params), players or len(c.players), notes


def _label(point: dict[str, Any], keys: list[str]) -> str:
    return ", ".join(f"{k}={point[k]}" for k in keys) or "defaults"


def _table(title: str, caption: str, s: Summary) -> Table:
    # wide enough for the title and caption on one line each when the terminal is: rich wraps them at the
    # table's width, which the columns alone make narrower than the title
    t = Table(title=title, caption=caption, title_justify="left", caption_justify="left",
              min_width=max(len(title), len(caption)) + 2)
    for col in ("camp", "wins", "win rate", "95% interval (Wilson)"):
        t.add_column(col, justify="left" if col == "camp" else "right")
    for camp, r in s.camps.items():
        if camp == "none" and not r.wins:
            continue
        word = "no camp (a draw)" if camp == "none" else camp_name(camp, "en")
        t.add_row(f"{word} ({camp})" if word.lower() != camp else word, str(r.wins), f"{r.rate:.1%}",
                  f"{r.low:.1%} – {r.high:.1%}")
    return t


@app.command("simulate")
def simulate_command(
    target: str = typer.Argument(..., metavar="SEASON.toml|RULESET",
                                 help="your season file (its ruleset, parameters and player count), or a ruleset id: "
                                      + ", ".join(ruleset_ids())),
    players: int = typer.Option(None, "--players", "-n", min=1,
                                help="players per game (default: the season file's players, or the rulebook's table size)"),
    games: int = typer.Option(1000, "--games", "-g", min=1, help="how many games to play (more: surer figures, longer "
                                                                "run; for each choice of --sweep)"),
    param: list[str] = typer.Option([], "--param", help="a ruleset parameter, key=value (repeatable; over the season file's)"),
    sweep: list[str] = typer.Option([], "--sweep", help="a parameter to vary, key=a,b,c (repeatable: every combination)"),
    policy: str = typer.Option("heuristic", help="how players play: heuristic (each role uses what it knows) or random "
                                                 "(a floor: nobody reads anyone)"),
    skill: float = typer.Option(0.5, min=0.0, max=1.0, help="heuristic: how well the village reads the table talk (0..1)"),
    seed: int = typer.Option(0, help="the same seed plays the same games (the same figures); another seed, other games"),
    jobs: int = typer.Option(1, min=1, help="worker processes (the figures do not depend on it)"),
    out: Path = typer.Option(None, "--out", help="write games.csv (every game) and sweep PNG plots into this folder"),
    scheduler: str = typer.Option(None, "--scheduler", help="run on a Dask cluster at this address (tcp://host:8786)"),
    transcripts: int = typer.Option(0, min=0, help="with --out: also write the first N games of each point as replay transcripts (YAML)"),
) -> None:
    """Is my season balanced? Plays many games of your season file, answers in words.

    Plays whole games of your season file (its ruleset, parameters and number of players; 1000 games unless
    --games says otherwise) with simulated players through the bot's own rules, and prints how often each camp
    wins, how sure that figure is (a range that holds the true rate 95 times in 100), how long a game lasts, how
    players die, and the answer in words; with few games it says it cannot tell yet.

    Example: forumbot simulate season.toml --games 200 (docs/simulate.md)."""
    console = Console()
    ruleset, what, season_params, players, notes = _target(target, players)
    if policy not in POLICIES:
        raise typer.BadParameter(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}", param_hint="--policy")
    params = {**season_params, **{k: _value(v) for k, v in _pairs(param, "--param")}}
    swept = {k: [_value(x) for x in re.split(r"\s*,\s*", v) if x.strip() != ""] for k, v in _pairs(sweep, "--sweep")}
    known = get_ruleset(ruleset).Params.model_fields
    for key, values in swept.items():
        if key not in known:
            raise typer.BadParameter(f"unknown parameter {key!r}; {ruleset}'s parameters are {', '.join(known)}",
                                     param_hint="--sweep")
        if not values:
            raise typer.BadParameter(f"{key}= has no values: write --sweep {key}=a,b,c (comma-separated)",
                                     param_hint="--sweep")
    points = sweep_points(params, swept)
    _require("statsmodels", "its win-rate intervals")
    if out is not None and swept:
        _require("matplotlib", "the --sweep plots of --out")
    if scheduler:
        _require("dask.distributed", "--scheduler")
    keys = list(swept)
    rows: list[tuple[dict[str, Any], GameResult]] = []
    summaries: list[Summary] = []
    for note in notes:
        console.print(note)
    with contextlib.ExitStack() as stack:
        pool = stack.enter_context(process_pool(jobs)) if jobs > 1 and not scheduler else None
        _play(console, ruleset, players, games, policy, skill, seed, jobs, scheduler, points, keys, rows, summaries, pool)
    if len(summaries) == 1:
        for line in answer(summaries[0], policy, skill, players, what):
            console.print(line, highlight=False)
    elif policy == "random":
        console.print(RANDOM_CAVEAT, highlight=False)
    if out is not None:
        write_csv(out / "games.csv", rows)
        written = [out / "games.csv"]
        for k, point in enumerate(points):
            spec = Spec(ruleset, players, tuple(sorted(point.items())), policy, skill)
            for i in range(min(transcripts, games)):
                path = out / "transcripts" / f"point{k + 1}-game{i + 1}.yaml"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(yaml.safe_dump(transcript(spec, game_seed(seed, i)), allow_unicode=True, sort_keys=False),
                                encoding="utf-8")
                written.append(path)
        if keys:
            png = out / f"sweep_{'_'.join(keys)}.png"
            plot_sweep(png, f"{ruleset}, {players} players, {policy} play", [_label(p, keys) for p in points], summaries)
            written.append(png)
        shown = written if len(written) <= 4 else [*written[:3], f"... ({len(written) - 3} more)"]
        console.print("wrote " + ", ".join(str(p) for p in shown))


def _play(console: Console, ruleset: str, players: int, games: int, policy: str, skill: float, seed: int, jobs: int,
          scheduler: str | None, points: list[dict[str, Any]], keys: list[str], rows: list[tuple[dict[str, Any], GameResult]],
          summaries: list[Summary], pool: ProcessPoolExecutor | None) -> None:
    """Play every sweep point with a progress bar, print its figures, collect its games in ``rows``."""
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as progress:
        for point in points:
            label = _label(point, keys)
            task = progress.add_task(ruleset + (f" {label}" if keys else ""), total=games)  # not "defaults" for a file's own
            spec = Spec(ruleset, players, tuple(sorted(point.items())), policy, skill)

            # Rich draws no bar when the output is not a terminal (a log, a pipe): a plain line on stderr instead
            plain = None if console.is_terminal else LineProgress(ruleset + (f" {label}" if keys else ""), games,
                                                                  lambda line: typer.echo(line, err=True))

            def advance(n: int, task: TaskID = task, plain: LineProgress | None = plain) -> None:
                progress.advance(task, n)
                if plain is not None:
                    plain.advance(n)

            try:
                results = run(spec, games, seed, jobs=jobs, scheduler=scheduler, advance=advance, pool=pool)
            except SetupError as exc:
                progress.stop()
                console.print(f"[red]cannot simulate:[/red] {exc}")
                raise typer.Exit(2) from None
            s = summarise(ruleset, results)
            summaries.append(s)
            rows += [(point, r) for r in results]
            _print(console, ruleset, players, games, policy, skill, seed, point, s)


def _print(console: Console, ruleset: str, players: int, games: int, policy: str, skill: float, seed: int,
           point: dict[str, Any], s: Summary) -> None:
    shown = shown_params(point)
    how = f"{policy} play" + (f", skill {skill:g}" if policy != "random" else "")
    console.print(_table(f"{ruleset}, {players} players, {shown}", f"{games_words(games)}, {how}, seed {seed}", s))
    console.print(f"game length: {s.phases[0]:.1f} phases (median {s.phases[1]:g}), "
                  f"{s.rounds[0]:.1f} rounds (median {s.rounds[1]:g})")
    console.print(deaths_line(s), highlight=False)
    notes = []
    if (extra := extra_line(s)) is not None:
        notes.append(extra)
    if s.unfinished:
        notes.append(f"{s.unfinished} games stopped unfinished")
    if s.rejected:
        notes.append(f"{s.rejected:.2f} refused commands per game (commands the rules refused, e.g. random play's)")
    for note in notes:
        console.print(note, highlight=False)
    console.print()
