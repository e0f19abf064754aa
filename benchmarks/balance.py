"""docs/balance.md and docs/images/balance_*.png: the rulebooks' open questions answered by the simulator.

Every figure is a run of ``forumbot simulate`` with the ``heuristic`` policy (``forumbot/simulate/heuristics/``)
at a stated skill, master seed :data:`SEED`; the doc prints, for every table, the command that makes each
of its figures (the same seeds give the same games on any number of processes). Run from the checkout:

    .venv/bin/python benchmarks/balance.py [--jobs 2] [--scale 1.0] [--out docs]

``--scale`` multiplies every game count (0.1 for a quick look; the committed doc is made with 1.0). The
whole generation is budgeted at about 20 minutes of CPU; its CPU time is measured (this process and its
workers) and written into the doc.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import pickle
import random
import resource
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forumbot.engine.game import Game, Setup, SetupError
from forumbot.simulate.actions import Action, Option
from forumbot.simulate.play import GameResult
from forumbot.simulate.policies import POLICIES, make_policy
from forumbot.simulate.run import Rate, Spec, Summary, run, summarise, wilson
from forumbot.simulate.view import View

SEED = 1

# --- what is simulated ------------------------------------------------------------------------------------
IV_SIZES = (12, 13)
IV_SKILLS = (0.0, 0.1, 0.2)
IV_RULES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("final four", {"vampire_rule": "final"}),
    ("1/4, 1 dawn", {"vampire_rule": "text", "hold_dawns": 1}),
    ("1/4, 2 dawns", {"vampire_rule": "text", "hold_dawns": 2}),
)
IV_STARVE = (2, 3)
IV_EXECUTIONS = (3, 4, 5)
IV_GAMES = 400

SUN_PLAYERS = 19
SUN_SKILLS = (0.2, 0.3, 0.4, 0.5)
SUN_THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45)
SUN_GAMES = 1000

KC_SIZES = tuple(range(8, 17))
KC_TEAMS = ((1, 1), (2, 2), (3, 3), (4, 4), (2, 3), (3, 2))
KC_SKILLS = (0.1, 0.25)
KC_GAMES = 300

VV_SIZES = tuple(range(13, 19))
VV_SKILLS = (0.25, 0.5, 0.75)
VV_GAMES = 400

HK_SIZES = tuple(range(6, 17))
HK_SKILLS = (0.5, 0.8)
HK_DISTRIBUTIONS = ("standard", "thirds")
HK_GAMES = 300

BASELINE = {"interview_vampire": 12, "sunlight": 19, "killer_club": 10, "vampire_village": 13, "human_kill": 9}
BASELINE_GAMES = 1000


# --- running ---------------------------------------------------------------------------------------------
@dataclass
class Point:
    """One simulated point: its spec, game count, summary and games."""

    spec: Spec
    games: int
    summary: Summary
    results: list[GameResult]

    def camp(self, name: str) -> Rate:
        """The camp's win rate (games won alone or with another camp), with its Wilson interval."""
        return self.summary.camps.get(name) or wilson(0, self.summary.games)


class Runner:
    """Runs specs on one shared pool of forked workers (children of this process, so that their CPU time
    is counted when they are reaped)."""

    def __init__(self, jobs: int, scale: float) -> None:
        self.jobs, self.scale = jobs, scale
        self.pool = (ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))
                     if jobs > 1 else None)
        self.games_played = 0

    def games(self, n: int) -> int:
        """A game count scaled by ``--scale``."""
        return max(10, round(n * self.scale))

    def point(self, spec: Spec, games: int) -> Point | None:
        """``games`` games of ``spec`` from :data:`SEED`; None when the ruleset refuses the set-up."""
        n = self.games(games)
        try:
            results = run(spec, n, SEED, jobs=self.jobs, pool=self.pool)
        except SetupError:
            return None
        self.games_played += n
        return Point(spec, n, summarise(spec.ruleset, results), results)

    def close(self) -> None:
        """Stop the workers (and reap them)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)


def cpu_seconds() -> float:
    """User + system CPU time of this process and its reaped children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


# --- formatting ------------------------------------------------------------------------------------------
def pct(r: Rate) -> str:
    """``48.3% (44.1–52.5)``: the rate and its 95% Wilson interval."""
    return f"{r.rate:.0%} ({r.low:.0%}–{r.high:.0%})"


def command(ruleset: str, players: int | str, games: int, skill: float | str, params: dict[str, Any] | None = None,
            sweep: dict[str, Sequence[Any]] | None = None, policy: str = "heuristic", extra: str = "") -> str:
    """The ``forumbot simulate`` command line that plays these games."""
    parts = ["forumbot simulate", ruleset, "-n", str(players), "-g", str(games), "--policy", policy]
    if policy != "random":
        parts += ["--skill", skill if isinstance(skill, str) else f"{skill:g}"]
    parts += ["--seed", str(SEED)]
    for k, v in (params or {}).items():
        parts.append(f"--param {k}={v}")
    for k, vs in (sweep or {}).items():
        parts.append(f"--sweep {k}=" + ",".join(str(v) for v in vs))
    return " ".join(parts) + extra


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _bars(ax: Any, xs: Sequence[float], rates: Sequence[Rate], label: str, shift: float = 0.0, **kw: Any) -> None:
    ax.errorbar([x + shift for x in xs], [r.rate for r in rates],
                yerr=[[max(0.0, r.rate - r.low) for r in rates], [max(0.0, r.high - r.rate) for r in rates]],
                marker="o", ms=3, capsize=2, lw=1, label=label, **kw)


def _save(fig: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=90, metadata={"Software": None})
    _plt().close(fig)


# --- the sections ------------------------------------------------------------------------------------------
def interview_vampire(r: Runner) -> dict[str, Any]:
    """12 and 13 players: every starvation length × execution count × vampire rule, at each skill."""
    combos = [(label, {**rule, "starve_nights": s, "human_executions": e})
              for label, rule in IV_RULES for s in IV_STARVE for e in IV_EXECUTIONS]
    points: dict[tuple[int, float, int], Point] = {}
    for n in IV_SIZES:
        for skill in IV_SKILLS:
            for i, (_, params) in enumerate(combos):
                p = r.point(Spec("interview_vampire", n, tuple(params.items()), "heuristic", skill), IV_GAMES)
                assert p is not None
                points[n, skill, i] = p
    games = r.games(IV_GAMES)
    labels = [f"{lab}, starve {p['starve_nights']}, exec {p['human_executions']}" for lab, p in combos]
    best = {}
    for n in IV_SIZES:
        for skill in IV_SKILLS:
            i = min(range(len(combos)), key=lambda i: (abs(points[n, skill, i].camp("human").rate
                                                         - points[n, skill, i].camp("vampire").rate), i))
            best[n, skill] = (labels[i], points[n, skill, i])
    return {"combos": combos, "labels": labels, "points": points, "best": best, "games": games}


def sunlight(r: Runner) -> dict[str, Any]:
    """19 players: the win index of every game at each skill; the goods' win rate at each threshold."""
    points = {}
    for skill in SUN_SKILLS:
        p = r.point(Spec("sunlight", SUN_PLAYERS, (), "heuristic", skill), SUN_GAMES)
        assert p is not None
        points[skill] = p
    games = r.games(SUN_GAMES)
    index = {skill: sorted(float(g.extra["win_index"]) for g in p.results) for skill, p in points.items()}
    return {"points": points, "index": index, "games": games}


def median_interval(xs: list[float]) -> tuple[float, float, float]:
    """The median of sorted ``xs`` and its distribution-free 95% interval (binomial order statistics)."""
    n = len(xs)
    half = 1.96 * (n ** 0.5) / 2
    lo, hi = max(0, int(n / 2 - half)), min(n - 1, int(n / 2 + half + 1))
    mid = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    return mid, xs[lo], xs[hi]


def killer_club(r: Runner) -> dict[str, Any]:
    """8 to 16 players: killers/police counts (helper and nurse as the preset), at each skill."""
    points: dict[tuple[int, tuple[int, int], float], Point] = {}
    for skill in KC_SKILLS:
        for n in KC_SIZES:
            for k, p in KC_TEAMS:
                pt = r.point(Spec("killer_club", n, (("killers", k), ("police", p)), "heuristic", skill), KC_GAMES)
                if pt is not None:
                    points[n, (k, p), skill] = pt
    defaults = {}
    for n in KC_SIZES:
        roles = Counter(p.role for p in Game(Setup("killer_club", tuple(f"p{i}" for i in range(1, n + 1)), seed=SEED)).players)
        defaults[n] = (roles["killer"], roles["police"])
    games = r.games(KC_GAMES)
    return {"points": points, "defaults": defaults, "games": games}


def vampire_village(r: Runner) -> dict[str, Any]:
    """Each preset (13–18 players) at each skill."""
    points = {}
    for skill in VV_SKILLS:
        for n in VV_SIZES:
            pt = r.point(Spec("vampire_village", n, (), "heuristic", skill), VV_GAMES)
            assert pt is not None
            points[n, skill] = pt
    games = r.games(VV_GAMES)
    return {"points": points, "games": games}


def human_kill(r: Runner) -> dict[str, Any]:
    """6 to 16 players: the thirds rule against the standard table, at each skill."""
    points = {}
    for skill in HK_SKILLS:
        for dist in HK_DISTRIBUTIONS:
            for n in HK_SIZES:
                pt = r.point(Spec("human_kill", n, (("distribution", dist),), "heuristic", skill), HK_GAMES)
                if pt is not None:
                    points[n, dist, skill] = pt
    games = r.games(HK_GAMES)
    return {"points": points, "games": games}


def plot_interview_vampire(d: dict[str, Any], images: Path) -> None:
    """docs/images/balance_interview_vampire.png from the figures of :func:`interview_vampire`."""
    combos, labels, points, games = d["combos"], d["labels"], d["points"], d["games"]
    plt = _plt()
    fig, axes = plt.subplots(len(IV_SIZES), 1, figsize=(11, 4.2 * len(IV_SIZES)), sharex=True)
    for ax, n in zip(axes, IV_SIZES, strict=True):
        for k, skill in enumerate(IV_SKILLS):
            _bars(ax, range(len(combos)), [points[n, skill, i].camp("vampire") for i in range(len(combos))],
                  f"skill {skill:g}", shift=(k - 1) * 0.15)
        ax.axhline(0.5, color="grey", lw=0.5, ls=":")
        ax.set_ylim(0, 1)
        ax.set_ylabel("vampires' win rate")
        ax.set_title(f"interview_vampire, {n} players, heuristic play, {games} games per point")
        ax.legend(loc="upper left")
    axes[-1].set_xticks(range(len(combos)), labels, rotation=60, ha="right", fontsize=8)
    _save(fig, images / "balance_interview_vampire.png")


def plot_sunlight(d: dict[str, Any], images: Path) -> None:
    """docs/images/balance_sunlight.png from the figures of :func:`sunlight`."""
    index, games = d["index"], d["games"]
    plt = _plt()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    bins = [i / 40 for i in range(0, 41)]
    for skill in SUN_SKILLS:
        left.hist(index[skill], bins=bins, histtype="step", label=f"skill {skill:g}")
        grid = [i / 100 for i in range(0, 101)]
        right.plot(grid, [sum(1 for x in index[skill] if x >= t) / len(index[skill]) for t in grid], label=f"skill {skill:g}")
    for ax in (left, right):
        ax.axvline(0.35, color="red", lw=0.8, ls="--", label="rulebook 35%")
    right.axhline(0.5, color="grey", lw=0.5, ls=":")
    left.set_xlabel("win index (goods' points on the killer / all ballot points)")
    left.set_ylabel("games")
    left.set_title(f"sunlight, {SUN_PLAYERS} players: win index, {games} games per skill")
    right.set_xlabel("threshold")
    right.set_ylabel("goods' win rate (index ≥ threshold)")
    right.set_title("goods' win rate by threshold")
    left.legend(fontsize=8)
    right.legend(fontsize=8)
    _save(fig, images / "balance_sunlight.png")


def plot_killer_club(d: dict[str, Any], images: Path) -> None:
    """docs/images/balance_killer_club.png from the figures of :func:`killer_club`."""
    points, games = d["points"], d["games"]
    plt = _plt()
    fig, axes = plt.subplots(1, len(KC_SKILLS), figsize=(11, 4.2), sharey=True)
    for ax, skill in zip(axes, KC_SKILLS, strict=True):
        for j, team in enumerate(KC_TEAMS):
            xs = [n for n in KC_SIZES if (n, team, skill) in points]
            _bars(ax, xs, [points[n, team, skill].camp("killer") for n in xs], f"{team[0]} killers / {team[1]} police",
                  shift=(j - 2.5) * 0.06)
        ax.axhline(0.5, color="grey", lw=0.5, ls=":")
        ax.set_ylim(0, 1)
        ax.set_xlabel("players")
        ax.set_title(f"killer_club, skill {skill:g}, {games} games per point")
    axes[0].set_ylabel("killers' win rate")
    axes[0].legend(fontsize=7)
    _save(fig, images / "balance_killer_club.png")


def plot_vampire_village(d: dict[str, Any], images: Path) -> None:
    """docs/images/balance_vampire_village.png from the figures of :func:`vampire_village`."""
    points, games = d["points"], d["games"]
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for k, skill in enumerate(VV_SKILLS):
        _bars(ax, VV_SIZES, [points[n, skill].camp("villagers") for n in VV_SIZES], f"skill {skill:g}", shift=(k - 1) * 0.08)
    ax.axhline(0.5, color="grey", lw=0.5, ls=":")
    ax.set_ylim(0, 1)
    ax.set_xlabel("players (the rulebook's preset)")
    ax.set_ylabel("villagers' win rate")
    ax.set_title(f"vampire_village presets, heuristic play, {games} games per point")
    ax.legend()
    _save(fig, images / "balance_vampire_village.png")


def plot_human_kill(d: dict[str, Any], images: Path) -> None:
    """docs/images/balance_human_kill.png from the figures of :func:`human_kill`."""
    points, games = d["points"], d["games"]
    plt = _plt()
    fig, axes = plt.subplots(1, len(HK_SKILLS), figsize=(11, 4.2), sharey=True)
    for ax, skill in zip(axes, HK_SKILLS, strict=True):
        for j, dist in enumerate(HK_DISTRIBUTIONS):
            xs = [n for n in HK_SIZES if (n, dist, skill) in points]
            _bars(ax, xs, [points[n, dist, skill].camp("human") for n in xs], dist, shift=(j - 0.5) * 0.1)
        ax.axhline(0.5, color="grey", lw=0.5, ls=":")
        ax.set_ylim(0, 1)
        ax.set_xlabel("players")
        ax.set_title(f"human_kill, youkai skill {skill:g}, {games} games per point")
    axes[0].set_ylabel("humans' win rate")
    axes[0].legend()
    _save(fig, images / "balance_human_kill.png")


def baseline(r: Runner) -> dict[str, Point]:
    """Random play at each ruleset's usual size: the floor the heuristic is compared with."""
    out = {}
    for ruleset, n in BASELINE.items():
        pt = r.point(Spec(ruleset, n, (), "random", 0.0), BASELINE_GAMES)
        assert pt is not None
        out[ruleset] = pt
    return out


class _NoConversion:
    """interview_vampire's heuristic with conversions taken out (a sensitivity check of the model's
    choice to convert; not a policy of the command line)."""

    def __init__(self, ruleset: str, skill: float) -> None:
        self.inner = make_policy("heuristic", ruleset, skill)

    def choose(self, view: View, legal_actions: list[Option], rng: random.Random) -> Action | None:
        return self.inner.choose(view, [o for o in legal_actions if o.key != "convert"], rng)


POLICIES.setdefault("heuristic_no_conversion", _NoConversion)  # inherited by the forked workers

NO_CONVERSION_RULES = (("final four", {"vampire_rule": "final"}), ("1/4, 2 dawns", {"vampire_rule": "text", "hold_dawns": 2}))


def no_conversion(r: Runner) -> dict[tuple[int, str, str], Point]:
    """interview_vampire at skill 0, starvation 2, 4 executions: vampires who convert (the heuristic) and
    vampires who never do."""
    out = {}
    for n in IV_SIZES:
        for label, rule in NO_CONVERSION_RULES:
            for policy in ("heuristic", "heuristic_no_conversion"):
                pt = r.point(Spec("interview_vampire", n, tuple(rule.items()), policy, 0.0), IV_GAMES)
                assert pt is not None
                out[n, label, policy] = pt
    return out


# --- the document ----------------------------------------------------------------------------------------------
def render(iv: dict[str, Any], sun: dict[str, Any], kc: dict[str, Any], vv: dict[str, Any], hk: dict[str, Any],
           base: dict[str, Point], sensitivity: dict[tuple[int, str, str], Point], cpu: float, wall: float, games: int,
           argv: str) -> str:
    """docs/balance.md."""
    from forumbot.simulate.run import camps_of

    out: list[str] = []
    w = out.append
    w("# Balance: the rulebooks' open questions, simulated\n")
    w("- [English](#english) · [简体中文](#简体中文) · [Tables](#tables)\n")
    w(f"Generated by `{argv}` (`benchmarks/balance.py`, master seed {SEED}): {games:,} games, "
      f"{cpu / 60:.1f} minutes of CPU ({wall / 60:.1f} minutes on the clock). Every figure is a win rate with its "
      "95% Wilson interval in brackets; each table says the game count, the policy, the skill and the command "
      "that plays its games (`forumbot simulate`, [simulate.md](simulate.md)). The same seed gives the same games "
      "for any `--jobs`, so the commands reproduce the figures exactly.\n")

    # answers, computed
    def iv_effects(lang: str) -> str:
        def mean(pred: Any) -> float:
            ps = [p.camp("vampire").rate for (n, sk, i), p in iv["points"].items() if pred(iv["combos"][i])]
            return sum(ps) / len(ps)
        starve = [(s_, mean(lambda c, s_=s_: c[1]["starve_nights"] == s_)) for s_ in IV_STARVE]
        execs = [(e, mean(lambda c, e=e: c[1]["human_executions"] == e)) for e in IV_EXECUTIONS]
        rules = [(lab, mean(lambda c, lab=lab: c[0] == lab)) for lab, _ in IV_RULES]
        if lang == "zh":
            return ("饥饿 " + " / ".join(f"{s_} 晚 {m:.0%}" for s_, m in starve) + "；处决 "
                    + " / ".join(f"{e} 次 {m:.0%}" for e, m in execs) + "；规则 " + " / ".join(f"{lab} {m:.0%}" for lab, m in rules))
        return ("with starvation after " + " / ".join(f"{s_} nights {m:.0%}" for s_, m in starve) + "; with "
                + " / ".join(f"{e} executions {m:.0%}" for e, m in execs) + "; under the rule "
                + " / ".join(f"{lab} {m:.0%}" for lab, m in rules))

    iv_lines_en, iv_lines_zh = [], []
    for n in IV_SIZES:
        for skill in IV_SKILLS:
            label, p = iv["best"][n, skill]
            v = p.camp("vampire")
            uneven_en = "" if v.low <= 0.5 <= v.high else (" (not even: no choice simulated is)" if v.high < 0.5
                                                           else " (not even: the vampires are ahead)")
            uneven_zh = "" if v.low <= 0.5 <= v.high else ("（仍不均衡：所模拟的选择都不均衡）" if v.high < 0.5 else "（不均衡：吸血鬼占优）")
            iv_lines_en.append(f"  - {n} players, skill {skill:g}: **{label}** — humans {pct(p.camp('human'))}, "
                               f"vampires {pct(v)}{uneven_en}")
            iv_lines_zh.append(f"  - {n} 人，skill {skill:g}：**{label}** —— 人类 {pct(p.camp('human'))}，"
                               f"吸血鬼 {pct(v)}{uneven_zh}")
    sun_rows = []
    sun_en, sun_zh = [], []
    for skill in SUN_SKILLS:
        xs = sun["index"][skill]
        med, lo, hi = median_interval(xs)
        at35 = sun["points"][skill].camp("good")
        sun_rows.append((skill, med, lo, hi, at35))
        sun_en.append(f"  - skill {skill:g}: threshold for 50% = **{med:.1%}** (95% {lo:.1%}–{hi:.1%}); at 35% the "
                      f"goods win {pct(at35)}")
        sun_zh.append(f"  - skill {skill:g}：好人胜率 50% 的门槛 = **{med:.1%}**（95% {lo:.1%}–{hi:.1%}）；"
                      f"35% 时好人胜率 {pct(at35)}")
    def crossing(lang: str) -> str:
        for (s0, m0, *_), (s1, m1, *_) in itertools.pairwise(sun_rows):
            if (m0 - 0.35) * (m1 - 0.35) <= 0 and m1 != m0:
                at = s0 + (0.35 - m0) * (s1 - s0) / (m1 - m0)
                return (f"for a table whose skill is about {at:.2f} (the median index crosses 35% between skill "
                        f"{s0:g} and {s1:g})" if lang == "en" else
                        f"对应 skill 约 {at:.2f} 的桌子（中位指数在 skill {s0:g} 与 {s1:g} 之间越过 35%）")
        return ("at none of the skills simulated (the median never crosses 35% between them)" if lang == "en"
                else "不对应所模拟的任何 skill（中位指数在其间没有越过 35%）")

    kc_best: dict[tuple[int, float], tuple[tuple[int, int], Point]] = {}
    for skill in KC_SKILLS:
        for n in KC_SIZES:
            cands = [(team, kc["points"][n, team, skill]) for team in KC_TEAMS if (n, team, skill) in kc["points"]]
            kc_best[n, skill] = min(cands, key=lambda tp: (abs(tp[1].camp("killer").rate - 0.5), tp[0]))
    kc_en = [f"  - skill {skill:g}: " + ", ".join(f"{n}: {kc_best[n, skill][0][0]}/{kc_best[n, skill][0][1]}"
                                                     for n in KC_SIZES) for skill in KC_SKILLS]

    w("## English\n")
    w("**What the simulated play is, and what it is not.** Every game is played through the bot's own engine "
      "(the rulesets, the command parser, the deadlines of a real season). Each player is a *heuristic*: a short "
      "rule of thumb per role (`forumbot/simulate/heuristics/<ruleset>.py`, each citing the rulebook clause it plays "
      "to) that uses exactly what that player has been told — his role PM, his results, the thread — and nothing "
      "else (a test forges other players' messages and checks that no decision changes). Police and seers act on "
      "their checks, killers and vampires spare their teammates and avoid the saves they can foresee, informed "
      "teams agree on one target. What no simulator can play is the *talk*: persuasion, claims, bluffs, reading "
      "tone. It is replaced by one number, the **skill**: when a player who does not know the bad camp votes (or "
      "shoots, or poisons), the table talk points him at a real enemy with probability *skill*, otherwise he picks "
      "among the players he does not know to be friends at random. So skill 0 is a village that reads nothing and "
      "skill 1 a village that always knows. The figures therefore **compare parameter choices under the same "
      "play**; they do not predict the win rate of real players, whose skill is unknown and differs between the "
      "camps (the bad camp also talks, which the model leaves out). Where a choice is best at every skill, that "
      "is a robust answer; where the answer moves with skill, the rulebook's choice depends on how well its "
      "players read each other. Random play (everyone uniformly at random among legal actions) is given as the "
      "floor.\n")
    w("**Answers.**\n")
    w("- **夜访吸血鬼 (interview_vampire), 12 and 13 players** — the most even of the 18 choices (rule × "
      "starvation × executions), by the gap between the humans' and the vampires' win rates:")
    w("\n".join(iv_lines_en))
    w("  Averaged over the other choices, both sizes and the skills, the vampires win " + iv_effects("en")
      + ". See [the tables](#interview_vampire-夜访吸血鬼) and `docs/images/balance_interview_vampire.png`.\n")
    converting_costs = sum(p.camp("vampire").rate * (1 if pol == "heuristic_no_conversion" else -1)
                           for (_, _, pol), p in sensitivity.items()) > 0
    sens_en = "; ".join(
        f"{n} players, {label}: converting {pct(sensitivity[n, label, 'heuristic'].camp('vampire'))}, never converting "
        f"{pct(sensitivity[n, label, 'heuristic_no_conversion'].camp('vampire'))}"
        for n in IV_SIZES for label, _ in NO_CONVERSION_RULES)
    w("  **How much this depends on the vampires' play.** The heuristic vampire converts at his first chance and "
      "then one chance in three (the rule's parameters are about conversions, criminals and starvation, which a "
      "vampire who never converts never meets). A sensitivity check at skill 0, starvation 2, 4 executions "
      f"({sensitivity[IV_SIZES[0], NO_CONVERSION_RULES[0][0], 'heuristic'].games} games each; the vampires' win "
      f"rate): {sens_en}. " + ("Conversions cost the vampires in this model (new biters collide and starve), so "
                               "the vampires' rates above are those of vampires who convert, not the best the "
                               "vampires can do.\n" if converting_costs else
                               "Converting does not cost the vampires here, so the rates above are not held down by it.\n"))
    w(f"- **阳光下的罪恶 (sunlight), {SUN_PLAYERS} players** — the win index is the share of all ballot points the "
      "goods put on the killer; its distribution moves with how well the goods read the killer. The threshold "
      "that gives the goods 50% is the median of the index:")
    w("\n".join(sun_en))
    w("  The rulebook's 35% is the even threshold " + crossing("en") + ". In this model the threshold does not change the play (the "
      "heuristic does not use clue 3, the only thing it shows), so the goods' win rate at any threshold is read "
      "off the same games.\n")
    w("- **killer_club, 8 to 16 players** — the killers/police counts (helper and nurse as the preset: both from "
      "13) whose killers' win rate is nearest 50%, by player count:")
    w("\n".join(kc_en))
    w("  Against the bot's preset (" + ", ".join(f"{n}: {k}/{p}" for n, (k, p) in kc["defaults"].items())
      + "); see [the table](#killer_club).\n")
    vv_en = []
    for n in VV_SIZES:
        vv_en.append(f"{n}: " + ", ".join(f"{pct(vv['points'][n, s].camp('villagers'))} at skill {s:g}" for s in VV_SKILLS))
    w("- **吸血鬼村莊 (vampire_village), each preset** — the villagers' win rate: " + "; ".join(vv_en) + ".\n")
    hk_en = []
    for skill in HK_SKILLS:
        th = [f"{n}: {pct(hk['points'][n, 'thirds', skill].camp('human'))}" for n in HK_SIZES if (n, "thirds", skill) in hk["points"]]
        hk_en.append(f"  - youkai skill {skill:g}, thirds: " + ", ".join(th))
    w("- **人类杀 (human_kill), the thirds rule from 6 to 16** — the humans' win rate (the humans are the "
      "informed third; the youkai read them with the skill):")
    w("\n".join(hk_en))
    def by_remainder(dist: str) -> list[tuple[int, float]]:
        out = []
        for rem in range(3):
            ps = [p.camp("human").rate for (n, d, _), p in hk["points"].items() if d == dist and n % 3 == rem]
            out.append((rem, sum(ps) / len(ps)))
        return out

    rem_en = "; ".join(f"{dist}: " + ", ".join(f"N mod 3 = {r} {m:.0%}" for r, m in by_remainder(dist))
                       for dist in HK_DISTRIBUTIONS)
    w("  Mean humans' win rate over the counts and both skills, by the remainder of the player count divided by 3 "
      f"(the thirds rule gives the remainder to the youkai): {rem_en}. Compared with the standard table in "
      "[the table](#human_kill-人类杀).\n")

    w("## 简体中文\n")
    w("**模拟的玩法是什么、不是什么。** 每一局都经由机器人自己的规则引擎进行（规则集、指令解析、截止时间与正式赛季相同）。"
      "每名玩家按“启发式”行动：每个角色一条简短的经验规则（`forumbot/simulate/heuristics/<规则集>.py`，各自注明依据的规则条文），"
      "只使用该玩家被告知的信息——身份私信、查验结果、游戏帖——别无其他（有测试伪造其他玩家的私信并确认决定不变）。"
      "警察与预言家按查验结果行动，杀手与吸血鬼不伤队友、避开可预见的救人，知道彼此的队伍统一目标。"
      "模拟器无法进行的是**讨论**：说服、跳身份、诈、读语气。它被一个数字代替，即 **skill**："
      "不知道坏人阵营的玩家投票（或开枪、下毒）时，讨论以 skill 的概率把他引向真正的敌人，否则他在不确定是友方的玩家中随机选择。"
      "skill 0 是完全读不出人的村子，skill 1 是永远知道的村子。因此这些数字是**在同样的玩法下比较参数**，"
      "不能预测真人的胜率（真人的水平未知，而且两个阵营不同；坏人也会发言，模型没有包括）。"
      "在各个 skill 下都最好的选择是稳健的答案；随 skill 变化的答案说明规则的选择取决于玩家互相读人的能力。"
      "随机玩法（所有人在合法操作中均匀随机）作为下限列出。\n")
    w("**结论。**\n")
    w("- **夜访吸血鬼，12 与 13 人**——18 种选择（胜利规则 × 饥饿夜数 × 处决次数）中最均衡的（按人类与吸血鬼胜率之差）：")
    w("\n".join(iv_lines_zh))
    w("  对其他选择、两种人数和各 skill 取平均，吸血鬼胜率：" + iv_effects("zh") + "。\n")
    sens_zh = "；".join(
        f"{n} 人、{label}：转化 {pct(sensitivity[n, label, 'heuristic'].camp('vampire'))}，从不转化 "
        f"{pct(sensitivity[n, label, 'heuristic_no_conversion'].camp('vampire'))}"
        for n in IV_SIZES for label, _ in NO_CONVERSION_RULES)
    w("  **这些结果在多大程度上取决于吸血鬼的玩法。** 启发式吸血鬼在第一次有机会时转化，之后每次机会以三分之一的概率转化"
      "（规则的参数关乎转化、罪犯和饥饿，从不转化的吸血鬼不会遇到它们）。在 skill 0、饥饿 2 晚、处决 4 次下的敏感性检验"
      f"（各 {sensitivity[IV_SIZES[0], NO_CONVERSION_RULES[0][0], 'heuristic'].games} 局；吸血鬼胜率）：{sens_zh}。"
      + ("在本模型中转化对吸血鬼不利（新的吸血者互相撞车而饿死），所以上面的吸血鬼胜率是会转化的吸血鬼的胜率，而不是吸血鬼的最佳成绩。\n"
         if converting_costs else "在这里转化并不降低吸血鬼的胜率。\n"))
    w(f"- **阳光下的罪恶，{SUN_PLAYERS} 人**——胜利指数是好人投给杀手的分数占全部选票分数的比例，其分布随好人读出杀手的能力移动。"
      "使好人胜率为 50% 的门槛就是指数的中位数：")
    w("\n".join(sun_zh))
    w("  规则书的 35% " + crossing("zh") + "。在本模型中门槛不改变玩法（启发式不使用线索 3，"
      "门槛只影响线索 3），所以任一门槛下的好人胜率都从同一批对局读出。\n")
    kc_zh = [f"  - skill {skill:g}：" + "，".join(f"{n} 人 {kc_best[n, skill][0][0]}/{kc_best[n, skill][0][1]}"
                                                 for n in KC_SIZES) for skill in KC_SKILLS]
    w("- **杀手俱乐部，8 至 16 人**——杀手胜率最接近 50% 的杀手/警察人数（杀助、护士按预设：13 人起各 1）：")
    w("\n".join(kc_zh))
    w("  机器人的预设为：" + "，".join(f"{n} 人 {k}/{p}" for n, (k, p) in kc["defaults"].items()) + "。\n")
    vv_zh = [f"{n} 人：" + "，".join(f"skill {s:g} 时 {pct(vv['points'][n, s].camp('villagers'))}" for s in VV_SKILLS)
             for n in VV_SIZES]
    w("- **吸血鬼村莊，各预设**——村民胜率：" + "；".join(vv_zh) + "。\n")
    hk_zh = [line.replace("youkai skill", "妖怪 skill").replace("thirds", "三分法") for line in hk_en]
    w("- **人类杀，6 至 16 人的三分法**——人类胜率（人类是知情的三分之一；妖怪以 skill 读人）：")
    w("\n".join(hk_zh))
    rem_zh = "；".join(("标准" if dist == "standard" else "三分法") + "："
                       + "，".join(f"人数除以 3 余 {r} 时 {m:.0%}" for r, m in by_remainder(dist)) for dist in HK_DISTRIBUTIONS)
    w(f"  按人数除以 3 的余数（三分法把余数给妖怪），对各人数和两种 skill 取平均的人类胜率：{rem_zh}。与标准配置的比较见下表。\n")

    w("## Tables\n")
    w("Cells: win rate (95% Wilson interval). 单元格：胜率（95% Wilson 置信区间）。\n")
    # random floor
    w("### Random play (the floor) / 随机玩法（下限）\n")
    w(f"{next(iter(base.values())).games:,} games each, policy random, seed {SEED}.\n")
    rows = []
    for ruleset, p in base.items():
        camps = [c for c in (*camps_of(ruleset), *p.summary.camps) if c != "none"]
        shown = ", ".join(f"{c} {pct(p.camp(c))}" for c in dict.fromkeys(camps) if p.camp(c).wins)
        rows.append([ruleset, str(BASELINE[ruleset]), shown,
                     f"`{command(ruleset, BASELINE[ruleset], p.games, 0, policy='random')}`"])
    w(table(["ruleset", "players", "wins", "command"], rows) + "\n")

    # interview_vampire
    w("### interview_vampire 夜访吸血鬼\n")
    w("![interview_vampire](images/balance_interview_vampire.png)\n")
    w(f"{iv['games']} games per cell, heuristic play. Cells: humans / vampires. Commands, for each players N and "
      "skill S:\n")
    for rule_label, rule in IV_RULES:
        w(f"- {rule_label}: `" + command("interview_vampire", "N", iv["games"], "S", rule,
                                          {"starve_nights": IV_STARVE, "human_executions": IV_EXECUTIONS}) + "`")
    w("")
    for n in IV_SIZES:
        w(f"**{n} players**\n")
        rows = []
        for i, label in enumerate(iv["labels"]):
            cells = []
            for skill in IV_SKILLS:
                p = iv["points"][n, skill, i]
                cells.append(f"{pct(p.camp('human'))} / {pct(p.camp('vampire'))}")
            rows.append([label, *cells])
        w(table(["rule, starvation, executions", *[f"skill {s:g}" for s in IV_SKILLS]], rows) + "\n")

    # sunlight
    w("### sunlight 阳光下的罪恶\n")
    w("![sunlight](images/balance_sunlight.png)\n")
    w(f"{sun['games']} games per skill, {SUN_PLAYERS} players, heuristic play; command: `"
      + command("sunlight", SUN_PLAYERS, sun["games"], "S", extra=" --out DIR") + "` (the win index of every game is "
      "in DIR/games.csv). The goods' win rate at threshold *t* is the share of games with index ≥ *t*.\n")
    rows = []
    for skill, med, lo, hi, at35 in sun_rows:
        xs = sun["index"][skill]
        qs = [xs[min(len(xs) - 1, int(q * len(xs)))] for q in (0.1, 0.25, 0.75, 0.9)]
        rows.append([f"{skill:g}", f"{med:.1%} ({lo:.1%}–{hi:.1%})", " / ".join(f"{q:.1%}" for q in qs), pct(at35)])
    w(table(["skill", "median index = 50% threshold (95%)", "index 10% / 25% / 75% / 90%", "goods at 35%"], rows) + "\n")
    rows = []
    for skill in SUN_SKILLS:
        xs = sun["index"][skill]
        rows.append([f"{skill:g}", *[pct(wilson(sum(1 for x in xs if x >= t), len(xs))) for t in SUN_THRESHOLDS]])
    w(table(["skill \\ threshold", *[f"{t:.0%}" for t in SUN_THRESHOLDS]], rows) + "\n")

    # killer_club
    w("### killer_club\n")
    w("![killer_club](images/balance_killer_club.png)\n")
    w(f"{kc['games']} games per cell, heuristic play; killers' win rate; helper and nurse as the preset (one each "
      "from 13 players); a blank cell is a count the ruleset refuses (as many killers as the others). Command for "
      "N players, K killers, P police, skill S: `" + command("killer_club", "N", kc["games"], "S",
                                                             {"killers": "K", "police": "P"}) + "`\n")
    for skill in KC_SKILLS:
        w(f"**skill {skill:g}**\n")
        rows = []
        for n in KC_SIZES:
            cells = []
            for team in KC_TEAMS:
                p = kc["points"].get((n, team, skill))
                mark = "**" if p is not None and kc_best[n, skill][0] == team else ""
                cells.append(f"{mark}{pct(p.camp('killer'))}{mark}" if p else "")
            rows.append([str(n), f"{kc['defaults'][n][0]}/{kc['defaults'][n][1]}", *cells])
        w(table(["players", "preset", *[f"{k}/{p}" for k, p in KC_TEAMS]], rows) + "\n")

    # vampire_village
    w("### vampire_village 吸血鬼村莊\n")
    w("![vampire_village](images/balance_vampire_village.png)\n")
    w(f"{vv['games']} games per cell, the rulebook's preset for each count, heuristic play. Cells: villagers / "
      "vampires (/ piper or lovers when they won). Command: `" + command("vampire_village", "N", vv["games"], "S") + "`\n")
    rows = []
    for n in VV_SIZES:
        cells = []
        for skill in VV_SKILLS:
            p = vv["points"][n, skill]
            others = [c for c in p.summary.camps if c not in ("villagers", "vampires", "none") and p.camp(c).wins]
            cells.append(" / ".join([pct(p.camp("villagers")), pct(p.camp("vampires")),
                                     *[f"{c} {pct(p.camp(c))}" for c in others]]))
        rows.append([str(n), *cells])
    w(table(["players", *[f"skill {s:g}" for s in VV_SKILLS]], rows) + "\n")

    # human_kill
    w("### human_kill 人类杀\n")
    w("![human_kill](images/balance_human_kill.png)\n")
    w(f"{hk['games']} games per cell, heuristic play; humans' win rate (other camps: youkai, Parsee, Doremy). "
      "Command: `" + command("human_kill", "N", hk["games"], "S", {"distribution": "D"}) + "` with D = standard or "
      "thirds.\n")
    rows = []
    for n in HK_SIZES:
        cells = []
        for skill in HK_SKILLS:
            for dist in HK_DISTRIBUTIONS:
                p = hk["points"].get((n, dist, skill))
                cells.append(pct(p.camp("human")) if p else "")
        rows.append([str(n), *cells])
    w(table(["players", *[f"{d}, skill {s:g}" for s in HK_SKILLS for d in HK_DISTRIBUTIONS]], rows) + "\n")
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> None:
    """Simulate everything, draw the plots, write docs/balance.md."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every game count (a quick look: 0.1)")
    ap.add_argument("--out", type=Path, default=Path("docs"), help="where balance.md and images/ go")
    ap.add_argument("--cache", type=Path, help="keep the figures in this file (pickle) for --render-only")
    ap.add_argument("--render-only", action="store_true", help="write the doc from --cache without simulating")
    args = ap.parse_args(argv)
    cli = "python benchmarks/balance.py" + (f" --scale {args.scale:g}" if args.scale != 1 else "") + f" --jobs {args.jobs}"
    images = args.out / "images"
    if args.render_only:
        with args.cache.open("rb") as f:
            figures = pickle.load(f)
    else:
        start = time.perf_counter()
        r = Runner(args.jobs, args.scale)
        try:
            sections = []
            for name, fn in (("interview_vampire", interview_vampire), ("sunlight", sunlight), ("killer_club", killer_club),
                             ("vampire_village", vampire_village), ("human_kill", human_kill)):
                t = time.perf_counter()
                sections.append(fn(r))
                print(f"{name}: done in {time.perf_counter() - t:.0f} s, CPU so far {cpu_seconds():.0f} s", flush=True)
            base = baseline(r)
            sensitivity = no_conversion(r)
        finally:
            r.close()
        for section in sections:  # only sunlight's games are needed once summarised (its win indices)
            for p in section["points"].values():
                if p.spec.ruleset != "sunlight":
                    p.results = []
        figures = {"sections": sections, "base": base, "sensitivity": sensitivity, "cpu": cpu_seconds(),
                   "wall": time.perf_counter() - start, "games": r.games_played, "cli": cli}
        if args.cache:
            with args.cache.open("wb") as f:
                pickle.dump(figures, f)
    for plot, section in zip((plot_interview_vampire, plot_sunlight, plot_killer_club, plot_vampire_village,
                              plot_human_kill), figures["sections"], strict=True):
        plot(section, images)
    text = render(*figures["sections"], figures["base"], figures["sensitivity"], figures["cpu"], figures["wall"],
                  figures["games"], figures["cli"])
    (args.out / "balance.md").write_text(text, encoding="utf-8")
    print(f"wrote {args.out / 'balance.md'}: {figures['games']} games, {figures['cpu']:.0f} s CPU")


if __name__ == "__main__":
    main()
