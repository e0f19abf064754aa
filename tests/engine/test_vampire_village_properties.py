"""Property tests: random vampire_village transcripts (legal and illegal commands, thread posts, organiser
commands) never crash, replay the same every time, have a winner whenever the game finished by the
rules, keep the rulebook's invariants, and every output renders."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_transcripts import replay_random

from forumbot.render import Renderer
from forumbot.replay import parse_transcript, replay  # noqa: F401

NAMES = ["張三", "李四", "王五", "趙六", "孫七", "周八", "吳九", "鄭十", "Alice", "Bob Lee", "小明", "阿珍", "p13", "p14",
         "p15", "p16", "p17", "p18"]
VERBS = ["殺", "kill", "驗", "連", "守", "救", "毒", "吹", "開槍", "傳警徽", "自殺", "投", "vote", "狀態", "幫助", "接任", "問", ""]
FULL = ["vampire", "vampire", "vampire", "seer", "cupid", "witch", "guard", "hunter", "elder", "piper"]


@st.composite
def transcripts(draw):
    n = draw(st.integers(4, 18))
    players = NAMES[:n]
    roles = None
    if n < 13 or draw(st.booleans()):
        k = draw(st.integers(1, max(1, min(len(FULL), n - 1))))
        base = FULL[:k] if draw(st.booleans()) else draw(st.permutations(FULL))[:k]
        if "vampire" not in base:
            base = ["vampire"] + base[: n - 2]
        order = draw(st.permutations(players))
        roles = dict(zip(order, base, strict=False))
    senders = players + ["Stranger", "Org"]
    targets = players + ["Nobody", "1", "#2", "自己", ""]

    def message():
        verb = draw(st.sampled_from(VERBS))
        arg = " ".join(draw(st.lists(st.sampled_from(targets), max_size=3)))
        return [draw(st.sampled_from(senders)), f"{verb} {arg}".strip()]

    phases = []
    for _ in range(draw(st.integers(0, 20))):
        entry = {"messages": draw(st.lists(st.builds(message), max_size=14))}
        if draw(st.booleans()):
            entry["posts"] = draw(st.lists(st.builds(message), max_size=3))
        if draw(st.integers(0, 12)) == 0:
            entry["organiser"] = [["Org", draw(st.sampled_from(["罰分 1 潛水", "暫停", "繼續", "延長 1小時", "結束遊戲"]))]]
        phases.append(entry)
    params = {"guard_and_save": draw(st.sampled_from(["lives", "dies"])), "tie_fallback": draw(st.sampled_from(["nobody", "draw"])),
              "team_order": draw(st.sampled_from(["last", "first"])), "reveal_roles_at_death": draw(st.booleans())}
    return {"ruleset": "vampire_village", "players": players, "roles": roles, "phases": phases, "params": params,
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
    vv = g.ruleset
    ended_by_organiser = any(e.kind == "organiser_end" for ph in result.phases for e in ph.step.events)
    if g.finished and not ended_by_organiser:
        assert g.winner in ("villagers", "vampires", "piper", "lovers")
        assert vv.win_check() is not None and vv.win_check()[0] == g.winner
        scores = vv.scores()
        assert set(abs(v) for v in scores.values()) == {vv.start_counts["vampire"] * (2 if g.winner in ("piper", "lovers") else 1)}
    if not g.finished:
        assert vv.win_check() is None
    # lovers die together
    for a, b in vv.links.pairs:
        assert g.player(a).alive == g.player(b).alive
    # each potion at most once
    used = [e.data["kind"] for ph in result.phases for e in ph.step.events if e.kind == "potion"]
    assert used.count("save") <= 1 and used.count("poison") <= 1
    # the guard never protects the same player two nights running
    guards = [n["guard"] for n in vv.nights]
    assert all(a is None or a != b for a, b in itertools.pairwise(guards))
    # at most one self-kill a night, never on night 1
    for n in vv.nights:
        assert n["round"] > 1 or n["selfkill"] is None
    # no role before the final post unless the season says so
    if not raw["params"]["reveal_roles_at_death"]:
        for ph in result.phases:
            for p in ph.step.posts:
                if p.key != "vampire_village/final":
                    assert all(d.get("role") is None for d in p.data.get("dead", []))


@SETTINGS
@given(transcripts())
def test_every_private_message_gets_a_reply(raw):
    result = run(raw)
    for entry, outcome in zip(raw["phases"], result.phases[1:], strict=False):
        senders = [m[0] for m in entry["messages"]]
        replied = [r.to for r in outcome.step.replies]
        for s in set(senders):
            assert replied.count(s) >= senders.count(s)


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
@given(st.data(), st.integers(13, 18), st.integers(0, 999))
def test_played_games_end_with_a_winner(data, n, seed):
    """Games where players act sensibly (cupid links, the vampires kill, the others act, everyone votes)
    always end by the rules with a winner, and the final post is made once."""
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message

    g = Game(Setup("vampire_village", tuple(f"p{i}" for i in range(n)), seed=seed))
    steps = [g.start()]
    vv = g.ruleset
    for _ in range(300):
        if g.finished:
            break
        alive = [g.name(s) for s in g.alive()]
        kind = g.phase.kind
        msgs: list[tuple[str, str]] = []
        pick = lambda pool: data.draw(st.sampled_from(pool))  # noqa: E731
        if kind == "cupid" and g.living("cupid") and data.draw(st.booleans()):
            a, b = data.draw(st.lists(st.sampled_from(alive), min_size=2, max_size=2, unique=True))
            msgs.append((g.name(g.living("cupid")[0]), f"連 {a} {b}"))
        elif kind == "night":
            others = [g.name(s) for s in g.alive() if g.player(s).role != "vampire"]
            if others:
                msgs.append((pick([g.name(s) for s in g.living("vampire")]), f"殺 {pick(others)}"))
            if len(g.living("vampire")) > 1 and data.draw(st.integers(0, 5)) == 0:
                msgs.append((pick([g.name(s) for s in g.living("vampire")]), "自殺"))
            for role, verb in (("guard", "守"), ("seer", "驗"), ("piper", "吹")):
                if g.living(role):
                    msgs.append((g.name(g.living(role)[0]), f"{verb} {pick(alive)}"))
        elif kind == "witch" and g.living("witch"):
            msgs.append((g.name(g.living("witch")[0]), pick([f"毒 {pick(alive)}", "救 " + pick(alive), "狀態"])))
        elif kind in ("election", "vote", "runoff"):
            pool = [g.name(s) for s in (vv.vote.candidates or g.alive())]
            for voter in alive:
                msgs.append((voter, f"投 {pick(pool)}"))
        elif kind in ("shot", "successor") and vv.windows.current and vv.windows.current.seat and data.draw(st.booleans()):
            msgs.append((g.name(vv.windows.current.seat), ("開槍 " if kind == "shot" else "傳警徽 ") + pick(alive)))
        for sender, text in msgs:
            steps.append(g.apply(Message(sender, text)))
        steps.append(g.apply(Deadline(g.phase.id)))
    assert g.finished and g.winner in ("villagers", "vampires", "piper", "lovers")
    assert vv.win_check()[0] == g.winner
    assert sum(1 for s in steps for p in s.posts if p.key == "vampire_village/final") == 1
