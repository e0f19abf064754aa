"""Many games: seeds, parallel runs (processes or a Dask cluster), win rates with Wilson intervals,
the CSV of every game and the sweep plots.

Game ``i`` of a run with master seed ``S`` has seed :func:`game_seed` ``(S, i)`` (``S × 1,000,003 +
i``, the formula of the former interview_vampire simulator), which drives its role draw and every
policy choice; each point of a sweep plays the same seeds (common random numbers: differences between
points come from the parameters, not the luck of the draw). Results are put back in game order, so the
figures are the same for any ``jobs`` and on any cluster.
"""

from __future__ import annotations

import csv
import itertools
import json
import multiprocessing
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forumbot.engine.ruleset import get_ruleset
from forumbot.simulate.play import GameResult, play_game
from forumbot.simulate.policies import make_policy


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run with master seed ``master``."""
    return master * 1_000_003 + index


@dataclass(frozen=True)
class Spec:
    """What to simulate: ``ruleset``, ``players``, ``params`` (overrides of the ruleset's parameters),
    ``policy`` ("random" or "heuristic") and ``skill`` (0..1, the village's reading of the talk)."""

    ruleset: str
    players: int
    params: tuple[tuple[str, Any], ...] = ()
    policy: str = "random"
    skill: float = 0.5

    @property
    def param_dict(self) -> dict[str, Any]:
        """``params`` as a dict."""
        return dict(self.params)


def play_seeds(spec: Spec, seeds: Sequence[int]) -> list[GameResult]:
    """Play one game per seed (a worker's chunk; module-level so that processes and Dask can ship it)."""
    policy = make_policy(spec.policy, spec.ruleset, spec.skill)
    return [play_game(spec.ruleset, spec.players, spec.param_dict, s, policy) for s in seeds]


def transcript(spec: Spec, seed: int) -> dict[str, Any]:
    """The game of ``spec`` with ``seed`` as a replay transcript (``forumbot replay`` plays it to the same end)."""
    result = play_game(spec.ruleset, spec.players, spec.param_dict, seed, make_policy(spec.policy, spec.ruleset, spec.skill),
                       record=True)
    assert result.transcript is not None
    return result.transcript


def _chunks(seeds: list[int], size: int) -> list[list[int]]:
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes for :func:`run`, to share between runs (a sweep). Workers
    come from a fork server that has imported the simulator: they do not inherit the parent's threads
    (the progress bar's) as plain fork would, and start without re-importing everything."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["forumbot.simulate.run", "forumbot.rulesets", "forumbot.language.parse"])
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)


def run(spec: Spec, games: int, seed: int = 0, *, jobs: int = 1, scheduler: str | None = None,
        advance: Callable[[int], None] | None = None, pool: ProcessPoolExecutor | None = None) -> list[GameResult]:
    """Play ``games`` games of ``spec`` (seeds from ``seed``) and return them in game order.

    ``jobs`` > 1: that many worker processes (:func:`process_pool`, or ``pool`` when given);
    ``scheduler``: the address of a Dask scheduler (``tcp://host:8786``, or a ``LocalCluster``'s) to run
    on instead. ``advance(n)`` is called as ``n`` more games finish (the progress bar). Raises
    :class:`~forumbot.engine.game.SetupError` for parameters the ruleset refuses (checked on the first
    game, before any worker starts)."""
    seeds = [game_seed(seed, i) for i in range(games)]
    if not seeds:
        return []
    first = play_seeds(spec, seeds[:1])  # a bad setup fails here, with the engine's message
    if advance:
        advance(1)
    rest = seeds[1:]
    workers = max(jobs, 1)
    size = max(1, min(250, len(rest) // (workers * 8) or 1))
    chunks = _chunks(rest, size)
    done: dict[int, list[GameResult]] = {}
    if scheduler:
        from dask.distributed import Client
        from dask.distributed import as_completed as dask_completed

        with Client(scheduler) as client:
            futures = {client.submit(play_seeds, spec, c, pure=False): i for i, c in enumerate(chunks)}
            for fut in dask_completed(futures):
                done[futures[fut]] = fut.result()
                if advance:
                    advance(len(done[futures[fut]]))
    elif (workers > 1 or pool is not None) and chunks:
        own = pool is None
        executor = process_pool(workers) if pool is None else pool
        try:
            pending = {executor.submit(play_seeds, spec, c): i for i, c in enumerate(chunks)}
            for fut in as_completed(pending):
                done[pending[fut]] = fut.result()
                if advance:
                    advance(len(done[pending[fut]]))
        finally:
            if own:
                executor.shutdown()
    else:
        for i, c in enumerate(chunks):
            done[i] = play_seeds(spec, c)
            if advance:
                advance(len(c))
    return first + [r for i in range(len(chunks)) for r in done[i]]


# --- figures -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rate:
    """``wins`` of ``games`` with the 95% Wilson interval ``low``..``high`` (statsmodels)."""

    wins: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        """wins / games (0 for no games)."""
        return self.wins / self.games if self.games else 0.0


def wilson(wins: int, games: int, alpha: float = 0.05) -> Rate:
    """``wins`` of ``games`` with its Wilson score interval at level 1 − ``alpha``
    (``statsmodels.stats.proportion.proportion_confint(method="wilson")``)."""
    from statsmodels.stats.proportion import proportion_confint

    if games == 0:
        return Rate(0, 0, 0.0, 1.0)
    low, high = proportion_confint(wins, games, alpha=alpha, method="wilson")
    return Rate(wins, games, float(low), float(high))


@dataclass
class Summary:
    """The figures of one run. ``camps``: camp -> :class:`Rate` of games that camp won (alone or with
    another; the ruleset's factions, then any other winner such as vampire_village's "lovers"), plus "none" (no camp won: a draw or the ruleset's safety net); ``phases``/``rounds``:
    mean and median game length; ``deaths``: reason -> mean players out for it per game;
    ``unfinished``: games stopped by the simulator's phase limit; ``rejected``: mean refused commands
    per game (random play sends some); ``extra``: the mean of each ruleset figure of :attr:`GameResult.extra` (sunlight's ``win_index``...)."""

    games: int
    camps: dict[str, Rate]
    phases: tuple[float, float]
    rounds: tuple[float, float]
    deaths: dict[str, float]
    unfinished: int
    rejected: float
    extra: dict[str, float] = field(default_factory=dict)


def camps_of(ruleset: str) -> list[str]:
    """The ruleset's camps (factions of its roles), in the order its roles are listed."""
    return list(dict.fromkeys(get_ruleset(ruleset).roles.values()))


def summarise(ruleset: str, results: Sequence[GameResult]) -> Summary:
    """The :class:`Summary` of ``results``."""
    n = len(results)
    # winners that are no role's faction (vampire_village's lovers) are camps too
    names = list(dict.fromkeys([*camps_of(ruleset), *sorted({w for r in results for w in r.winners})]))
    camps = {c: wilson(sum(1 for r in results if c in r.winners), n) for c in names}
    camps["none"] = wilson(sum(1 for r in results if not r.winners), n)
    deaths: Counter[str] = Counter()
    for r in results:
        deaths.update(r.deaths)
    phases = [r.phases for r in results]
    rounds = [r.rounds for r in results]
    extra: dict[str, float] = {}
    for key in dict.fromkeys(k for r in results for k in r.extra):
        values = [r.extra[key] for r in results if key in r.extra]
        extra[key] = statistics.fmean(values)
    return Summary(
        games=n, camps=camps,
        phases=(statistics.fmean(phases), statistics.median(phases)) if n else (0.0, 0.0),
        rounds=(statistics.fmean(rounds), statistics.median(rounds)) if n else (0.0, 0.0),
        deaths={k: v / n for k, v in sorted(deaths.items())} if n else {},
        unfinished=sum(1 for r in results if not r.finished),
        rejected=sum(r.rejected for r in results) / n if n else 0.0, extra=extra,
    )


# --- sweeps, CSV, plots ----------------------------------------------------------------------------------
def sweep_points(params: dict[str, Any], sweep: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every combination of the ``sweep`` values (in the order given, the last key varying fastest),
    each over ``params``; ``[params]`` when there is no sweep."""
    keys = list(sweep)
    return [{**params, **dict(zip(keys, values, strict=True))} for values in itertools.product(*sweep.values())]


def write_csv(path: Path, rows: Iterable[tuple[dict[str, Any], GameResult]]) -> None:
    """One line per game: its sweep point's parameters (JSON), seed, players, winner, phases, rounds,
    ``deaths_<reason>`` columns, rejected, actions, finished and ruleset extras."""
    rows = list(rows)
    reasons = sorted({k for _, r in rows for k in r.deaths})
    extras = sorted({k for _, r in rows for k in r.extra})
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["params", "seed", "players", "winner", "phases", "rounds",
                    *[f"deaths_{k}" for k in reasons], "rejected", "actions", "finished", *extras])
        for point, r in rows:
            w.writerow([json.dumps(point, sort_keys=True), r.seed, r.players, r.winner, r.phases, r.rounds,
                        *[r.deaths.get(k, 0) for k in reasons], r.rejected, r.actions, int(r.finished),
                        *[r.extra.get(k, "") for k in extras]])


def plot_sweep(path: Path, title: str, labels: list[str], summaries: list[Summary]) -> None:
    """A PNG of each camp's win rate (with its 95% Wilson interval as error bars) at each sweep point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(labels) + 3), 4.5))
    xs = list(range(len(labels)))
    camps = [c for c in summaries[0].camps if any(s.camps[c].wins for s in summaries)]
    for k, camp in enumerate(camps):
        rates = [s.camps[camp] for s in summaries]
        # statsmodels' bounds are a rounding off at 0% and 100% (high 0.9999999999999999 for 20/20):
        # matplotlib refuses negative error bars
        shift = (k - (len(camps) - 1) / 2) * 0.06
        ax.errorbar([x + shift for x in xs], [r.rate for r in rates],
                    yerr=[[max(0.0, r.rate - r.low) for r in rates], [max(0.0, r.high - r.rate) for r in rates]],
                    marker="o", capsize=3, label=camp)
    ax.set_xticks(xs, labels, rotation=30 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(title)
    ax.axhline(0.5, color="grey", lw=0.5, ls=":")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
