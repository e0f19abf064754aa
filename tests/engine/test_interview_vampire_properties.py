"""Property tests: random interview_vampire transcripts (legal and illegal commands, thread posts, organiser
commands) never crash, replay the same every time, have a result whenever finished, and keep the
rulebook's invariants; games played sensibly always end with a result."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_transcripts import replay_random

from forumbot.render import Renderer
from forumbot.replay import parse_transcript, replay  # noqa: F401

NAMES = ["張三", "李四", "王五", "趙六", "孫七", "周八", "吳九", "鄭十", "Alice", "Bob Lee", "小明", "阿珍", "p13"]
VERBS = ["吸", "吸血", "suck", "轉化", "convert", "投", "vote", "狀態", "幫助", "殺", ""]
RESULTS = ("human", "vampire", "criminal", "draw")


@st.composite
def transcripts(draw):
    n = draw(st.integers(5, 13))
    players = NAMES[:n]
    order = draw(st.permutations(list(range(n))))
    k = draw(st.integers(1, max(1, (n - 1) // 2)))
    roles = {players[order[i]]: "vampire" for i in range(k)}
    if draw(st.booleans()) and n - k > 2:
        roles[players[order[k]]] = "criminal"
    senders = players + ["Stranger", "Org"]
    targets = players + ["Nobody", "1", "#2", "12號", "自己", ""]

    def message():
        verb = draw(st.sampled_from(VERBS))
        arg = " ".join(draw(st.lists(st.sampled_from(targets), max_size=3)))
        return [draw(st.sampled_from(senders)), f"{verb} {arg}".strip()]

    phases = []
    for _ in range(draw(st.integers(0, 14))):
        entry = {"messages": draw(st.lists(st.builds(message), max_size=14))}
        if draw(st.booleans()):
            entry["posts"] = draw(st.lists(st.builds(message), max_size=8))
        if draw(st.integers(0, 12)) == 0:
            entry["organiser"] = [["Org", draw(st.sampled_from(["罰分 1 潛水", "暫停", "繼續", "延長 1小時", "結束遊戲"]))]]
        phases.append(entry)
    params = {
        "starve_nights": draw(st.integers(2, 3)), "human_executions": draw(st.integers(1, 4)),
        "vampire_rule": draw(st.sampled_from(["final", "text"])), "night_executions": draw(st.integers(1, 3)),
    }
    return {"ruleset": "interview_vampire", "players": players, "roles": roles, "phases": phases, "params": params,
            "seed": draw(st.integers(0, 99)), "organisers": ["Org"], "others": ["Stranger"]}


run = replay_random

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(transcripts())
def test_random_transcripts_replay_deterministically(raw):
    en = Renderer("en", "bbcode")
    assert run(raw).to_json(en) == run(raw).to_json(en)


@SETTINGS
@given(transcripts())
def test_invariants(raw):
    result = run(raw)
    g = result.game
    iv = g.ruleset
    ended = any(e.kind == "organiser_end" for ph in result.phases for e in ph.step.events)
    if g.finished and not ended:
        assert g.winner in RESULTS or g.winner == ["human", "vampire"]
        _camps, _, over = iv.camps_check() if iv.camps or iv.reasons != ["max_nights"] else (iv.camps, [], True)
        assert over or iv.reasons == ["max_nights"]
    if not g.finished:
        assert iv.camps_check()[2] is False and iv.win_check() is None
    # a converted player is a vampire at once; a criminal never turns back; the dead stay dead
    for night in iv.nights:
        for b in night["biters"]:
            assert len(b["sucks"]) <= (1 if b["role"] == "criminal" else (3 if b["convert"] else 2))
            assert b["fed"] == (sum(s["ok"] for s in b["sucks"]) >= b["need"])
            if b["convert"] is not None:
                assert b["killed"] is None
    # every biter who acted and lived got exactly one dawn report per night; humans never get one
    for ph in result.phases:
        tos = [r.to for r in ph.step.replies if r.key == "interview_vampire/dawn_report"]
        assert len(tos) == len(set(tos))
    # no role before the final post
    for ph in result.phases:
        for p in ph.step.posts:
            if p.key != "interview_vampire/final":
                assert not list(_roles(p.data)), p.key


def _roles(value):
    """Role-like things anywhere in ``value``: a "role" key, or a role id as a value."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("role", "roles", "start"):
                yield k
            yield from _roles(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _roles(v)
    elif value in ("human", "vampire", "criminal"):
        yield value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transcripts())
def test_every_output_renders(raw):
    result = run(raw)
    for loc in ("zh-Hant", "zh-Hans", "en"):
        r = Renderer(loc, "markdown")
        for ph in result.phases:
            for o in ph.step.outputs:
                assert r.render(o.key, o.data).strip()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(6, 14), st.integers(0, 999), st.sampled_from(["final", "text"]))
def test_played_games_end_with_a_result(data, n, seed, rule):
    """Games where every biter sucks (and sometimes converts or votes) and everyone votes by day always end,
    by the rules, with a result, and the final post is made once."""
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message

    g = Game(Setup("interview_vampire", tuple(f"p{i}" for i in range(n)), seed=seed, params={"vampire_rule": rule}))
    steps = [g.start()]
    iv = g.ruleset
    for _ in range(200):
        if g.finished:
            break
        alive = [g.name(s) for s in g.alive()]
        msgs: list[tuple[str, str, str]] = []
        if g.phase.kind == "night":
            for b in iv.biters():
                me = g.name(b)
                others = [x for x in alive if x != me]
                last = iv.last_night.get(b)
                if g.player(b).role == "vampire" and last and last["fed"] and not last["converting"] and data.draw(st.booleans()):
                    pool = [g.name(t) for t in last["names"] if g.player(t).alive]
                    if pool:
                        msgs.append((me, f"转化 {data.draw(st.sampled_from(pool))}", "pm"))
                k = 1 if g.player(b).role == "criminal" else 2
                picks = data.draw(st.lists(st.sampled_from(others), min_size=0, max_size=k, unique=True)) if others else []
                if picks:
                    msgs.append((me, "吸 " + " ".join(picks), "pm"))
                if iv.crime_vote is not None and others:
                    msgs.append((me, f"投 {data.draw(st.sampled_from(others))}", "pm"))
        elif g.phase.kind == "day":
            for voter in alive:
                msgs.append((voter, f"投 {data.draw(st.sampled_from(alive))}", "thread"))
        for sender, text, channel in msgs:
            steps.append(g.apply(Message(sender, text, channel)))
        steps.append(g.apply(Deadline(g.phase.id)))
    assert g.finished
    assert g.winner in RESULTS or g.winner == ["human", "vampire"]
    assert sum(1 for s in steps for p in s.posts if p.key == "interview_vampire/final") == 1
