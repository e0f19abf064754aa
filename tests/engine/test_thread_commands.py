"""Commands posted in the game thread, the same in every ruleset (issue 9, points 3 and 5): a command
the ruleset does not read from the thread is answered by PM that it was not counted (an event the
organiser sees in ``forumbot status``); one it does read is refused while the game is paused, as a
private message command is."""

from __future__ import annotations

import pytest

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message

KC_PLAYERS = tuple("ABCDEFGHIJKLMN")
KC_ROLES = {"A": "killer", "B": "killer", "C": "killer", "D": "police", "E": "police", "F": "police",
            "G": "helper", "H": "nurse"}


def killer_club(**params) -> Game:
    g = Game(Setup("killer_club", KC_PLAYERS, params, KC_ROLES, seed=1, organisers=("Org",)))
    g.start()
    return g


def to(step, name):
    return [r for r in step.replies if r.to == name]


def test_killer_club_kill_posted_in_the_thread_is_answered_by_pm():
    g = killer_club()
    g.apply(Deadline(0))  # the prologue closes: night 1
    assert g.phase.kind == "night"
    step = g.apply(Message("A", "杀 K", "thread"))
    [reply] = to(step, "A")
    assert reply.key == "common/command_in_thread" and reply.data["verb"] == "kill"
    assert [e.kind for e in step.events] == ["command_in_thread"]
    # not counted: the night passes with nobody killed by A's post
    step = g.apply(Deadline(g.phase.id))
    assert not any(e.kind == "player_out" and e.data["name"] == "K" for e in step.events)


def test_killer_club_vote_in_thread_by_pm_rules_is_answered():
    g = killer_club(vote_in_thread=False)
    g.apply(Deadline(0))
    g.apply(Deadline(g.phase.id))  # the night passes: the day's vote
    assert g.phase.kind == "vote"
    step = g.apply(Message("D", "投 A", "thread"))
    assert [r.key for r in to(step, "D")] == ["common/command_in_thread"]
    step = g.apply(Message("E", "我觉得 A 很可疑", "thread"))  # talk: no reply
    assert not step.replies and not step.events


def test_thread_vote_is_not_recorded_while_paused():
    g = killer_club(vote_in_thread=True)
    g.apply(Deadline(0))
    g.apply(Deadline(g.phase.id))
    assert g.phase.kind == "vote"
    g.apply(Message("Org", "暂停", "pm"))
    step = g.apply(Message("D", "投 A", "thread"))
    assert [r.key for r in to(step, "D")] == ["common/paused"]
    assert not any(e.kind == "ballot" for e in step.events)
    g.apply(Message("Org", "继续", "pm"))
    for voter in "DEFGHIJ":  # after resuming, thread votes count again
        g.apply(Message(voter, "投 A", "thread"))
    step = g.apply(Deadline(g.phase.id))
    assert any(e.kind == "player_out" and e.data["name"] == "A" for e in step.events)


def test_paused_thread_vote_in_interview_vampire_is_refused():
    players = tuple(f"P{i}" for i in range(1, 13))
    g = Game(Setup("interview_vampire", players, {}, None, seed=3, organisers=("Org",)))
    g.start()
    while g.phase.kind != "day" and not g.finished:
        g.apply(Deadline(g.phase.id))
    assert g.ruleset.reads_in_thread("vote")  # the day vote is declared as cast in the thread
    g.apply(Message("Org", "pause", "pm"))
    voter = g.name(g.alive()[0])
    step = g.apply(Message(voter, f"投 {g.name(g.alive()[1])}", "thread"))
    assert [r.key for r in to(step, voter)] == ["common/paused"]


@pytest.mark.parametrize("ruleset,players", [
    ("sunlight", tuple("ABCDEFG")),
    ("killer_club", KC_PLAYERS),
    ("vampire_village", tuple(f"P{i}" for i in range(1, 14))),
    ("interview_vampire", tuple(f"P{i}" for i in range(1, 13))),
    ("human_kill", tuple(f"P{i}" for i in range(1, 13))),
])
def test_every_ruleset_answers_a_command_posted_in_the_thread(ruleset, players):
    g = Game(Setup(ruleset, players, {}, None, seed=5, organisers=("Org",)))
    g.start()
    seat = g.alive()[0]
    step = g.apply(Message(g.name(seat), "状态", "thread"))
    assert [r.key for r in to(step, g.name(seat))] == ["common/command_in_thread"]
    assert step.events[0].kind == "command_in_thread" and step.events[0].data["verb"] == "status"


def test_a_withdrawal_announced_with_its_reason_in_a_speech_post_reaches_the_sage_election():
    """Rulebook 人类杀, the sage election: 「在这个过程中，任何玩家均可以选择宣布退选」 — a withdrawal announced in a
    speech post in the thread, followed by its reason (issue 25: 「我退选，当不了贤者」), is recorded as one."""
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message

    roles = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari"}
    g = Game(Setup("human_kill", tuple("ABCDEF"), roles=roles, params={"sage": True}))
    g.start()
    while g.phase.kind != "election":
        g.apply(Deadline(g.phase.id))
    step = g.apply(Message("A", "我退选，当不了贤者", "thread"))
    assert [e.data.get("seat") for e in step.events if e.kind == "withdrawn"] == [1]
    talk = g.apply(Message("B", "A说他要退选，当不了贤者", "thread"))  # reported: talk, not B's withdrawal
    assert not [e for e in talk.events if e.kind == "withdrawn"]
