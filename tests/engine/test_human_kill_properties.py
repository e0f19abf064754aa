"""human_kill property tests: random games never crash, replay identically, and have a winner
whenever they finish (unless the organiser ended them)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message

VERBS = ["退治", "放逐", "投", "验", "伪装", "救", "杀", "梦", "带走", "接任", "顺时针", "逆时针", "替"]
BARE = ["弃权", "退选", "状态", "帮助"]


@st.composite
def games(draw):
    n = draw(st.integers(6, 16))
    names = tuple(f"P{i}" for i in range(1, n + 1))
    params = {"sage": draw(st.booleans()), "weather": draw(st.booleans())}
    seed = draw(st.integers(0, 10_000))
    script = []
    for _ in range(draw(st.integers(5, 60))):
        msgs = []
        for _ in range(draw(st.integers(0, 2 * n))):
            who = draw(st.sampled_from(names))
            if draw(st.booleans()):
                text = draw(st.sampled_from(BARE))
            else:
                k = draw(st.integers(1, 2))
                text = draw(st.sampled_from(VERBS)) + " " + " ".join(f"{draw(st.integers(1, n))}号" for _ in range(k))
            msgs.append((who, text, draw(st.sampled_from(["pm", "pm", "pm", "thread"]))))
        script.append(msgs)
    return names, params, seed, script


def run(names, params, seed, script):
    g = Game(Setup("human_kill", names, params=params, seed=seed))
    log = [g.start()]
    for msgs in script:
        if g.finished:
            break
        for who, text, channel in msgs:
            log.append(g.apply(Message(who, text, channel)))
        log.append(g.apply(Deadline(g.phase.id)))
    return g, log


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_games(game):
    _names, _params, _seed, _script = game
    g, log = run(*game)
    if g.finished:
        assert g.winner in ("human", "youkai", "parsee", "doremy")
    g2, log2 = run(*game)
    assert [(e.kind, e.data) for s in log for e in s.events] == [(e.kind, e.data) for s in log2 for e in s.events]
    assert [o for s in log for o in s.outputs] == [o for s in log2 for o in s.outputs]
    assert g.winner == g2.winner


@settings(max_examples=20, deadline=None)
@given(st.integers(6, 16), st.integers(0, 1000), st.booleans(), st.booleans())
def test_games_with_only_deadlines_end_or_go_on(n, seed, sage, weather):
    names = tuple(f"P{i}" for i in range(1, n + 1))
    g = Game(Setup("human_kill", names, params={"sage": sage, "weather": weather}, seed=seed))
    g.start()
    for _ in range(60):
        g.apply(Deadline(g.phase.id))
    assert not g.finished  # nobody votes: nobody ever goes out
