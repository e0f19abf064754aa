"""Property tests: random killer_club transcripts (legal and illegal commands, thread posts, organiser
commands) never crash, replay the same every time, have a winner whenever the game finished by the
rules, and keep the rulebook's invariants."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_transcripts import replay_random

from forumbot.render import Renderer
from forumbot.replay import parse_transcript, replay  # noqa: F401

NAMES = ["張三", "李四", "王五", "趙六", "孫七", "周八", "吳九", "鄭十", "Alice", "Bob Lee", "小明", "阿珍", "p13", "p14"]
VERBS = ["殺", "杀", "kill", "驗", "查", "check", "問", "ask", "救", "save", "投", "vote", "狀態", "幫助", "接任", "線索 1", ""]
ROLE_SETS = [
    {0: "killer", 1: "killer", 2: "killer", 3: "police", 4: "police", 5: "police", 6: "helper", 7: "nurse"},
    {0: "killer", 1: "killer", 2: "police", 3: "police"},
    {0: "killer", 1: "police", 2: "nurse"},
]


@st.composite
def transcripts(draw):
    n = draw(st.integers(6, 14))
    players = NAMES[:n]
    order = draw(st.permutations(list(range(n))))
    roles = None
    fitting = [b for b in ROLE_SETS if len(b) < n and 2 * list(b.values()).count("killer") < n]
    if draw(st.booleans()):
        base = draw(st.sampled_from(fitting))
        roles = {players[order[i]]: r for i, r in base.items()}
    senders = players + ["Stranger", "Org"]
    targets = players + ["Nobody", "1", "#2", "12號", "自己", ""]

    def message():
        verb = draw(st.sampled_from(VERBS))
        arg = " ".join(draw(st.lists(st.sampled_from(targets), max_size=2)))
        return [draw(st.sampled_from(senders)), f"{verb} {arg}".strip()]

    phases = []
    for _ in range(draw(st.integers(0, 16))):
        entry = {"messages": draw(st.lists(st.builds(message), max_size=14))}
        if draw(st.booleans()):
            entry["posts"] = draw(st.lists(st.builds(message), max_size=3))
        if draw(st.integers(0, 12)) == 0:
            entry["organiser"] = [["Org", draw(st.sampled_from(["罰分 1 潛水", "暫停", "繼續", "延長 1小時"]))]]
        phases.append(entry)
    params = {
        "vote_in_thread": draw(st.booleans()), "tie_fallback": draw(st.sampled_from(["nobody", "draw"])),
        "votes": draw(st.integers(1, 3)),
    }
    if draw(st.booleans()):
        params["series"] = {"previous_first_victims": [players[0], players[0]]}
    return {"ruleset": "killer_club", "players": players, "roles": roles, "phases": phases, "params": params,
            "seed": draw(st.integers(0, 99)), "organisers": ["Org"], "others": ["Stranger"]}


run = replay_random

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(transcripts())
def test_random_transcripts_replay_deterministically(raw):
    en = Renderer("en", "bbcode")
    a = run(raw).to_json(en)
    b = run(raw).to_json(en)
    assert a == b


@SETTINGS
@given(transcripts())
def test_invariants(raw):
    result = run(raw)
    g = result.game
    kc = g.ruleset
    ended_by_organiser = any(e.kind == "organiser_end" for ph in result.phases for e in ph.step.events)
    if g.finished and not ended_by_organiser:
        assert g.winner in ("killer", "police")
        assert kc.win_check() is not None and kc.win_check()[0] == g.winner
    if not g.finished:
        assert kc.win_check() is None
    # at most one death at night, and a saved target never dies that night
    for night in kc.nights:
        if night["saved"]:
            assert night["victim"] is None and night["target"] == night["save"]
    # consecutive nights never have the same kill target nor the same save
    for a, b in zip(kc.nights, kc.nights[1:], strict=False):
        assert a["target"] is None or a["target"] != b["target"]
        assert a["save"] is None or a["save"] != b["save"]
    # last words only for the first N deaths
    words = [e.data["seat"] for ph in result.phases for e in ph.step.events if e.kind == "last_words"]
    assert len(words) == len(set(words)) <= kc.first.limit
    assert all(kc.first.allowed(s) for s in words)
    # no role before the final post
    for ph in result.phases:
        for p in ph.step.posts:
            if p.key != "killer_club/final":
                assert not any(isinstance(v, (list, tuple)) and any(isinstance(x, dict) and "role" in x for x in v)
                               for v in p.data.values())


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


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(6, 16), st.integers(0, 999), st.sampled_from(["nobody", "draw"]))
def test_played_games_end_with_a_winner(data, n, seed, fallback):
    """Games where players act sensibly (each night a kill order by some killer, checks, saves in the
    first nights; each day everyone votes among the living or the tied) always end, by the rules, with
    a winner, and the final post is made once."""
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message

    g = Game(Setup("killer_club", tuple(f"p{i}" for i in range(n)), seed=seed, params={"tie_fallback": fallback}))
    steps = [g.start()]
    kc = g.ruleset
    for _ in range(200):
        if g.finished:
            break
        alive = [g.name(s) for s in g.alive()]
        kind = g.phase.kind
        msgs: list[tuple[str, str]] = []
        if kind == "night":
            others = [g.name(s) for s in g.alive() if g.player(s).role != "killer" and not kc.night.repeats("killer", s)]
            if others:
                killer = data.draw(st.sampled_from([g.name(s) for s in g.living("killer")]))
                msgs.append((killer, f"殺 {data.draw(st.sampled_from(others))}"))
            for role, verb in (("police", "驗"), ("helper", "驗"), ("nurse", "救")):
                actors = [g.name(s) for s in g.living(role)]
                if actors and (role != "nurse" or g.phase.round <= 3) and data.draw(st.booleans()):
                    msgs.append((data.draw(st.sampled_from(actors)), f"{verb} {data.draw(st.sampled_from(alive))}"))
        elif kind in ("vote", "runoff"):
            pool = [g.name(s) for s in (kc.vote.candidates or g.alive())]
            for voter in alive:
                msgs.append((voter, f"投 {data.draw(st.sampled_from(pool))}"))
        elif kind == "choice" and data.draw(st.booleans()):
            msgs.append((g.name(kc.choice_by), f"殺 {g.name(data.draw(st.sampled_from(list(kc.choice_among))))}"))
        for sender, text in msgs:
            steps.append(g.apply(Message(sender, text)))
        steps.append(g.apply(Deadline(g.phase.id)))
    assert g.finished and g.winner in ("killer", "police")
    assert kc.win_check()[0] == g.winner
    assert sum(1 for s in steps for p in s.posts if p.key == "killer_club/final") == 1
