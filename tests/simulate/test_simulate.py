"""The simulator (issue 12): every ruleset plays to the end with both policies, runs are
deterministic for any number of processes or on a Dask cluster, the figures, and the command line."""

from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.engine.game import Game, Setup
from forumbot.simulate.actions import Action, legal_actions
from forumbot.simulate.play import play_game
from forumbot.simulate.policies import make_policy
from forumbot.simulate.run import Spec, game_seed, run, summarise, wilson

SIZES = {"interview_vampire": 12, "sunlight": 19, "killer_club": 10, "vampire_village": 13, "human_kill": 9}


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("ruleset", sorted(SIZES))
def test_every_ruleset_plays_to_a_winner(ruleset: str, policy: str) -> None:
    results = run(Spec(ruleset, SIZES[ruleset], policy=policy, skill=0.5), games=6, seed=1)
    assert len(results) == 6 and [r.seed for r in results] == [game_seed(1, i) for i in range(6)]
    for r in results:
        assert r.finished and r.winners, (r.seed, r.winner)  # none of these ends without a camp winning
        assert sum(r.roles.values()) == SIZES[ruleset] and r.phases > 0
    assert results[0].rejected == 0 or policy == "random"


def test_heuristic_plays_without_refusals() -> None:
    """The legal actions are what the rulesets accept: the heuristic's commands are never refused."""
    for ruleset, n in SIZES.items():
        for seed in range(3):
            r = play_game(ruleset, n, {}, seed, make_policy("heuristic", ruleset, 0.5))
            assert r.rejected == 0, (ruleset, seed, r.refused)


def test_legal_actions_follow_the_rules_phase() -> None:
    g = Game(Setup("killer_club", tuple(f"p{i}" for i in range(1, 11)), seed=5))
    g.start()
    assert all(legal_actions(g, s) == [] for s in range(1, 11))  # the prologue: nobody acts
    from forumbot.engine.types import Deadline

    g.apply(Deadline(g.phase.id))
    assert g.phase.kind == "night"
    by_role = {g.player(s).role: {o.key for o in legal_actions(g, s)} for s in range(1, 11)}
    assert by_role["killer"] == {"kill"} and by_role["police"] == {"check"} and by_role["civilian"] == set()
    police = [s for s in range(1, 11) if g.player(s).role == "police"]
    check = legal_actions(g, police[0])[0]
    assert not set(check.targets) & set(police)  # police never check each other


def test_action_text_reads_back() -> None:
    g = Game(Setup("interview_vampire", tuple(f"p{i}" for i in range(1, 13)), seed=0))
    assert Action("suck", (3, 11)).text(g) == "suck p3, p11"
    assert Action("clue", number=0).text(g) == "no clue" and Action("clue", number=2).text(g) == "clue 2"


def test_same_seed_same_figures_for_any_jobs() -> None:
    spec = Spec("interview_vampire", 12, policy="random")
    one = run(spec, games=24, seed=7, jobs=1)
    two = run(spec, games=24, seed=7, jobs=2)
    assert [(r.seed, r.winner, r.phases, r.deaths) for r in one] == [(r.seed, r.winner, r.phases, r.deaths) for r in two]
    assert summarise("interview_vampire", one) == summarise("interview_vampire", two)
    other = run(spec, games=24, seed=8, jobs=1)
    assert [r.phases for r in other] != [r.phases for r in one]


def test_dask_cluster_gives_the_same_figures() -> None:
    distributed = pytest.importorskip("dask.distributed")
    spec = Spec("killer_club", 10, policy="heuristic", skill=0.3)
    local = run(spec, games=10, seed=3)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None) as cluster:
        remote = run(spec, games=10, seed=3, scheduler=cluster.scheduler_address)
    assert summarise("killer_club", local) == summarise("killer_club", remote)
    assert [r.winner for r in local] == [r.winner for r in remote]


def test_wilson_interval() -> None:
    from scipy.stats import binomtest

    r = wilson(84, 100)
    assert r.rate == 0.84 and round(r.low, 4) == 0.7558 and round(r.high, 4) == 0.8990
    ci = binomtest(84, 100).proportion_ci(method="wilson")  # a second library agrees
    assert abs(ci.low - r.low) < 1e-9 and abs(ci.high - r.high) < 1e-9
    assert wilson(0, 10).low == 0.0 and 0.27 < wilson(0, 10).high < 0.28
    assert wilson(0, 0).games == 0


def test_summary_counts_camps_and_deaths() -> None:
    results = run(Spec("interview_vampire", 12), games=20, seed=2)
    s = summarise("interview_vampire", results)
    assert list(s.camps) == ["human", "vampire", "criminal", "none"]
    assert sum(r.wins for c, r in s.camps.items() if c != "none") >= 20  # a game may have two winning camps
    assert s.deaths and all(v > 0 for v in s.deaths.values())
    assert s.phases[0] == sum(r.phases for r in results) / 20


def test_random_policy_is_seeded() -> None:
    a = play_game("sunlight", 19, {}, 11, make_policy("random", "sunlight"))
    b = play_game("sunlight", 19, {}, 11, make_policy("random", "sunlight"))
    assert a == b
    assert a.extra["win_index"] >= 0


def test_unknown_policy() -> None:
    with pytest.raises(ValueError, match="known: random, heuristic"):
        make_policy("clever", "sunlight")
    assert make_policy("random", "sunlight").choose(None, [], random.Random(0)) is None  # type: ignore[arg-type]


def test_cli_prints_rates_and_writes_csv_and_plot(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["simulate", "interview_vampire", "--players", "12", "--games", "8",
                                   "--sweep", "starve_nights=2,3", "--param", "human_executions=4",
                                   "--seed", "1", "--out", str(tmp_path), "--transcripts", "1"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "95% interval (Wilson)" in res.output and "human" in res.output
    assert "starve_nights=3" in res.output and "deaths per game" in res.output and "game length" in res.output
    rows = list(csv.DictReader((tmp_path / "games.csv").open(encoding="utf-8")))
    assert len(rows) == 16 and {r["seed"] for r in rows} == {str(game_seed(1, i)) for i in range(8)}
    assert all(r["winner"] for r in rows)
    assert (tmp_path / "sweep_starve_nights.png").read_bytes()[:4] == b"\x89PNG"
    from forumbot.replay import load_transcript, replay

    second_point = [r for r in rows if r["params"] == '{"human_executions": 4, "starve_nights": 3}']
    g = replay(load_transcript(tmp_path / "transcripts" / "point2-game1.yaml")).game
    assert "+".join(g.winner if isinstance(g.winner, list) else [g.winner]) == second_point[0]["winner"]


def test_cli_bad_parameter_is_a_clear_message() -> None:
    res = CliRunner().invoke(app, ["simulate", "interview_vampire", "--players", "12", "--games", "2",
                                   "--param", "starve_nightz=2"], env={"COLUMNS": "200"})
    assert res.exit_code == 2 and "unknown parameter" in res.output and "Traceback" not in res.output


def test_interview_vampire_table_is_seeded_and_reports_rates() -> None:
    from forumbot.simulate.interview_vampire_table import simulate, table

    a = simulate({}, games=6, seed=2)
    assert a == simulate({}, games=6, seed=2)
    assert abs(sum(a[k] for k in ("human", "vampire", "both", "criminal", "draw")) - 1) < 1e-9
    assert a["nights"] > 0
    assert table(games=2, seed=0, accuracy=0.2).count("\n") == 10  # a header, a rule and the nine choices


def test_a_winner_that_is_no_faction_is_a_camp() -> None:
    results = run(Spec("vampire_village", 13), games=40, seed=5)
    s = summarise("vampire_village", results)
    lovers = sum(1 for r in results if r.winner == "lovers")
    assert lovers > 0 and s.camps["lovers"].wins == lovers
    assert sum(r.wins for r in s.camps.values()) == 40


def test_a_view_holds_only_what_its_player_was_sent() -> None:
    from forumbot.simulate import play as play_module

    seen: list[tuple[str, list[str]]] = []
    original = play_module.View.receive

    def receive(view, reply):  # type: ignore[no-untyped-def]
        seen.append((view.name, [reply.to]))
        original(view, reply)

    play_module.View.receive = receive  # type: ignore[method-assign]
    try:
        play_game("killer_club", 10, {}, 4, make_policy("heuristic", "killer_club", 0.5))
    finally:
        play_module.View.receive = original  # type: ignore[method-assign]
    assert seen and all([name] == to for name, to in seen)


@pytest.mark.parametrize("ruleset", sorted(SIZES))
def test_whoever_the_ruleset_waits_for_has_legal_actions(ruleset: str) -> None:
    """``pending()`` (whom the judge reminds) and the help entries the legal actions come from agree:
    nobody is waited for who could not act, phase by phase of simulated games."""
    from forumbot.engine.types import Deadline, Message

    for seed in range(3):
        sim = play_game(ruleset, SIZES[ruleset], {}, seed, make_policy("random", ruleset), record=True)
        assert sim.transcript is not None
        g = Game(Setup(ruleset, tuple(sim.transcript["players"]), seed=seed))
        g.start()
        for entry in sim.transcript["phases"]:
            assert entry["phase"] == g.phase.kind
            for seat in g.ruleset.pending():
                if g.phase.kind == "yukari":
                    # human_kill's pending() names Yukari in her window even with both powers spent or
                    # nobody exorcised to save (she may only pass): a reminder, not a legal action
                    continue
                assert legal_actions(g, seat), (seed, g.phase, seat, g.player(seat).role)
            for name, text in entry.get("messages", []):
                g.apply(Message(name, text, "pm"))
            for name, text in entry.get("posts", []):
                g.apply(Message(name, text, "thread"))
            g.apply(Deadline(g.phase.id))
        assert g.finished and g.winner is not None


def test_cli_on_a_dask_cluster_prints_the_same_figures() -> None:
    distributed = pytest.importorskip("dask.distributed")
    args = ["simulate", "sunlight", "--players", "19", "--games", "6", "--policy", "heuristic", "--seed", "4"]
    local = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None) as cluster:
        remote = CliRunner().invoke(app, [*args, "--scheduler", cluster.scheduler_address], env={"COLUMNS": "200"})
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    # stdout only: Dask's own logging may write to stderr when its client closes (a 'Logging error' once its
    # handler's stream is gone), which is no figure of ours
    assert local.stdout == remote.stdout and "win index" in local.stdout


def test_sunlight_ballots_use_every_place() -> None:
    from forumbot.simulate.view import View

    g = Game(Setup("sunlight", tuple(f"p{i}" for i in range(1, 20)), seed=2))
    g.start()
    from forumbot.engine.types import Deadline

    while g.phase.kind != "vote":
        g.apply(Deadline(g.phase.id))
    options = legal_actions(g, 1)
    assert [o.key for o in options] == ["vote"] and options[0].most == len(g.ruleset.params.points)
    view = View(1, "p1", "sunlight", alive=tuple(g.alive()))
    action = make_policy("heuristic", "sunlight", 0.0).choose(view, options, random.Random(0))
    assert action is not None and len(action.targets) == options[0].most and 1 not in action.targets


#: the table sizes issue 12 asks figures for
RANGES = {"killer_club": range(8, 17), "vampire_village": range(13, 19), "human_kill": range(6, 17),
          "sunlight": (19,), "interview_vampire": (12, 13)}


@pytest.mark.parametrize("ruleset", sorted(RANGES))
def test_every_table_size_plays_without_refusals(ruleset: str) -> None:
    for n in RANGES[ruleset]:
        for r in run(Spec(ruleset, n, policy="heuristic"), games=2, seed=n):
            assert r.finished and r.winners and r.rejected == 0, (n, r.seed, r.refused)


@pytest.mark.parametrize(("module", "extra_args"), [
    ("statsmodels", []),
    ("matplotlib", ["--sweep", "starve_nights=2,3", "--out", "OUT"]),
    ("dask.distributed", ["--scheduler", "tcp://127.0.0.1:1"]),
])
def test_cli_without_the_simulate_extra_says_how_to_install_it(module: str, extra_args: list[str], tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``pip install .`` leaves out the extra ``simulate``: one line saying how to install it, exit 2."""
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    args = [str(tmp_path) if a == "OUT" else a for a in extra_args]
    res = CliRunner().invoke(app, ["simulate", "interview_vampire", "-n", "12", "-g", "2", *args], env={"COLUMNS": "200"})
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "pip install 'forumbot[simulate]'" in res.output and module in res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


def test_plot_sweep_with_a_100_and_a_0_percent_point(tmp_path: Path) -> None:
    """statsmodels' Wilson bound for 20/20 is 0.9999999999999999 (< rate): the error bars are clamped at 0."""
    from forumbot.simulate.run import Summary, plot_sweep

    def summary(wins: int) -> Summary:
        return Summary(20, {"human": wilson(wins, 20), "vampire": wilson(20 - wins, 20)}, (1.0, 1.0), (1.0, 1.0),
                       {}, 0, 0.0)

    assert wilson(20, 20).high < 1.0 or wilson(0, 20).low > 0.0  # the rounding this test is about
    png = tmp_path / "sweep.png"
    plot_sweep(png, "t", ["a=1", "a=2"], [summary(20), summary(0)])
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("sweep", "said"), [
    ("human_executions=", "write --sweep human_executions=a,b,c"),
    ("starve_nights= , ", "write --sweep starve_nights=a,b,c"),
    ("nonsense=,", "unknown parameter 'nonsense'"),
    ("nonsense=1,2", "unknown parameter 'nonsense'"),
])
def test_cli_empty_or_unknown_sweep_is_an_error(sweep: str, said: str) -> None:
    res = CliRunner().invoke(app, ["simulate", "interview_vampire", "-n", "12", "-g", "2", "--sweep", sweep],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 2, res.output
    assert said in " ".join(res.output.split()) and "Traceback" not in res.output
    if "unknown" in said:
        assert "starve_nights" in res.output  # names the parameters


def test_cli_table_title_does_not_wrap_mid_phrase() -> None:
    """In an 80-column terminal the title and its caption each stay on one line."""
    res = CliRunner().invoke(app, ["simulate", "interview_vampire", "-n", "12", "-g", "3", "--policy", "heuristic",
                                   "--skill", "0.2", "--sweep", "starve_nights=2"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = [line.strip() for line in res.output.splitlines()]
    assert "interview_vampire, 12 players, starve_nights=2" in lines
    assert "3 games, heuristic play, skill 0.2, seed 0" in lines
