"""The declared actions (forumbot.engine.actions): one check, help and pending derived from them."""

from __future__ import annotations

from killer_club_helpers import ROLES, play

from forumbot.engine.actions import Action, Count, judge, legal_targets, living, not_self, pending
from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline
from forumbot.language.types import Command


def _night() -> Game:
    g = Game(Setup("killer_club", tuple("ABCDEFGHIJKLMN"), roles=ROLES))
    g.start()
    g.apply(Deadline(g.phase.id))
    assert g.phase.kind == "night"
    return g


def test_the_gate_runs_role_alive_who_phase_in_that_order() -> None:
    g = _night()
    a = Action("x", ("kill",), "_kill", phases=("vote",), roles=("killer",))
    # a civilian at night: the role is refused before the phase
    assert a.gate(g.ruleset, 9, Command("kill", (1,))).reason == "not_your_role"  # type: ignore[union-attr]
    assert a.gate(g.ruleset, 1, Command("kill", (9,))).reason == "wrong_phase"  # type: ignore[union-attr]
    other = Action("x", ("kill",), "_kill", phases=("vote",), roles=("killer",), order=("phase", "role", "alive", "who"))
    assert other.gate(g.ruleset, 9, Command("kill", (1,))).reason == "wrong_phase"  # type: ignore[union-attr]


def test_target_rules_run_in_their_declared_order() -> None:
    g = _night()
    a = Action("x", ("kill",), "_kill", targets=(Count(1, 1), not_self("kill_self"), living()))
    assert a.rules(g.ruleset, 1, Command("kill", (1, 2))).reason == "one_target"  # type: ignore[union-attr]
    assert a.rules(g.ruleset, 1, Command("kill", (1,))).reason == "kill_self"  # type: ignore[union-attr]
    assert a.rules(g.ruleset, 1, Command("kill", (9,))) is None


def test_unknown_verb_and_the_chosen_action() -> None:
    g = _night()
    action, refusal = judge(g.ruleset, 9, Command("suck", (1,)))
    assert action is None and refusal is not None and refusal.reason == "not_in_game"
    action, refusal = judge(g.ruleset, 1, Command("kill", (9,)))
    assert action is not None and action.key == "kill" and refusal is None


def test_help_pending_and_legal_targets_come_from_the_declaration() -> None:
    g = _night()
    kc = g.ruleset
    assert kc.help_data(1)["verbs"] == ["kill", "status", "help"]
    assert kc.help_data(8)["verbs"] == ["ask", "save", "status", "help"]
    assert kc.help_data(9)["verbs"] == ["status", "help"]
    assert pending(kc) == [1, 2, 3, 4, 5, 6, 8]  # killers, police, nurse; not the helper
    check = next(a for a in kc.actions if a.key == "check")
    targets, least, most = legal_targets(kc, 4, check, [p.seat for p in g.players])
    assert (least, most) == (1, 1) and 4 not in targets and 5 not in targets and 1 in targets  # police know police
    save = next(a for a in kc.actions if a.key == "save")
    assert 8 in legal_targets(kc, 8, save, [p.seat for p in g.players])[0]  # the nurse may save herself


def test_a_pm_vote_where_votes_are_posted_is_refused_before_anything_else() -> None:
    r = play([[["A", "杀 I"]], [["N", "投 A"]]], params={"vote_in_thread": True})
    assert [x.data["reason"] for ph in r.phases for x in ph.step.replies if x.key == "killer_club/rejected"] == \
        ["vote_in_thread"]
