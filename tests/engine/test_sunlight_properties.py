"""Property tests: random legal and illegal sunlight transcripts never crash, always replay the same,
and keep the rulebook's scoring invariants (shared/seeds/001, 「每投票轮个人积分」「每投票轮总分值」)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_transcripts import replay_random

from forumbot.render import Renderer
from forumbot.replay import parse_transcript, replay  # noqa: F401

NAMES = ["张三", "李四", "王五", "趙六", "Alice", "Bob Lee", "player7", "小明", "阿珍"]
VERBS = ["投", "投票：", "vote", "杀", "殺", "kill", "接任", "线索", "clue", "状态", "help", "", "罚分"]


@st.composite
def transcripts(draw):
    n = draw(st.integers(4, 9))
    players = NAMES[:n]
    killer = draw(st.sampled_from(players))
    senders = players + ["Stranger", "Judge"]
    targets = players + ["Nobody", "1", "#2", "12号", ""]

    def message():
        verb = draw(st.sampled_from(VERBS))
        if verb in ("线索", "clue"):
            arg = str(draw(st.integers(-1, 4)))
        else:
            arg = draw(st.sampled_from([",", " ", "，", "、"])).join(draw(st.lists(st.sampled_from(targets), max_size=3)))
        return [draw(st.sampled_from(senders)), f"{verb} {arg}".strip()]

    phases = []
    for _ in range(draw(st.integers(0, 14))):
        entry = {"messages": draw(st.lists(st.builds(message), max_size=12))}
        if draw(st.booleans()):
            entry["posts"] = [[draw(st.sampled_from(players)), "last words?"]]
        phases.append(entry)
    params = {"win_threshold": draw(st.sampled_from([0.0, 0.35, 0.5, 1.0]))}
    return {"ruleset": "sunlight", "players": players, "roles": {killer: "killer"}, "phases": phases,
            "params": params, "seed": draw(st.integers(0, 99)), "organisers": ["Judge"], "others": ["Stranger"]}


run = replay_random

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(transcripts())
def test_random_transcripts_replay_deterministically(raw):
    en = Renderer("en")
    a = run(raw).to_json(en)
    b = run(raw).to_json(en)
    assert a == b
    assert 0 <= a["win_index"] <= 1


@SETTINGS
@given(transcripts())
def test_scoring_invariants(raw):
    result = run(raw)
    sl = result.game.ruleset
    for v in sl.s.votes:
        n = v.n
        for _voter, score in v.good_scores.items():
            assert -5 <= score <= 3 and score in (-5, -3, -1, 1, 3)
        killer_voted = any(b.voter == v.killer for b in v.ballots if not b.void)
        low = 3 - 1.5 * n if killer_voted else -1.5 * n
        assert low <= v.killer_score <= 1.5 * n
        total = sum(v.total.values())
        assert 3 * n <= total <= 5 * n
        goods = len(v.correct)
        assert 0 <= sum(v.correct.values()) <= 3 * goods
    correct, total = sl.win_sums()
    assert 0 <= correct <= total
    if result.game.finished:
        scores = sl.scores()
        for p in result.game.players:
            if p.out_reason == "suicide" and p.seat not in result.game.penalties:
                assert scores[p.seat] == -20
        ranks = sl.ranks()
        assert min(ranks.values()) == 1


@SETTINGS
@given(transcripts())
def test_every_private_message_gets_a_reply(raw):
    result = run(raw)
    for entry, outcome in zip(raw["phases"], result.phases[1:], strict=False):
        senders = [m[0] for m in entry["messages"]]
        replied = [r.to for r in outcome.step.replies]
        # every sender got at least as many replies as messages sent (deadline PMs may add more)
        for s in set(senders):
            assert replied.count(s) >= senders.count(s)
