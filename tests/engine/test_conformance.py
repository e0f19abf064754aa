"""One conformance test over every registered ruleset (issue 11; OpenSpiel's ``random_sim_test``).

For each id in :func:`ruleset_ids` (never a list written here), random games with seeded player counts
from the ruleset's allowed range (:func:`conformance_driver.allowed_sizes`) are played by random legal
players (:func:`forumbot.simulate.actions.legal_actions`; every other game with its yes/no and
named-option parameters drawn at random: :func:`conformance_driver.varied_params`), with illegal commands sent at random points
(a verb the player may not use now, a dead target, a name beyond the roster, too many targets; a
thread vote out of its phase or for a dead player where votes are posted in the thread). Each
game must:

- end (a winner or none) within the driver's phase limit, opening only phases of its declared
  ``phase_kinds``;
- accept every legal action (each player sends at most one per phase): the help offers no more than
  the rules allow;
- refuse every illegal command with a reply to its sender alone, no thread post, one ``rejected``
  event naming the sender (a name beyond the roster is refused by the parser: a ``common/parse_error``
  reply and no event), and change nothing of the game's state;
- play the same legal game with and without the illegal commands (every output but the refusals
  identical: nobody else learns that a refused command was sent);
- before its end, never pair a player with a role or faction in a thread post, nor in a reply to
  anyone else (:func:`conformance_driver.role_mentions`), except in the messages by which the rulebook
  tells a role (the role PM, a check's result) or announces the role of a player who is out;
- replay identically: the same inputs to a fresh game give the same outputs, in this process and in
  one with another ``PYTHONHASHSEED``;
- render every refusal in every locale;
- answer ``status`` with the actions its ``help`` offers (derived from the declarations), each with
  what the player has recorded, rendering in every locale; every action declares what it records.

``CONFORMANCE_GAMES=50`` plays more games per ruleset (default 6).
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from conformance_driver import Record, allowed_sizes, play, replay_digest, role_mentions, varied_params

from forumbot.engine.actions import help_entries
from forumbot.engine.game import Game
from forumbot.engine.ruleset import get_ruleset, ruleset_ids
from forumbot.engine.types import Post, Reply
from forumbot.render import LOCALES, MARKUPS, renderer

GAMES = int(os.environ.get("CONFORMANCE_GAMES", "6"))

#: (ruleset, reply template) that tell a player a role by the rulebook: the role PM (one's own role,
#: and teammates the rulebook introduces) and the result of a check
TELLS = {
    ("sunlight", "sunlight/role"),
    ("killer_club", "killer_club/role"),
    ("killer_club", "killer_club/check_result"),  # 杀人游戏规则 § 警察: 验人结果法官私下告知
    ("vampire_village", "vampire_village/role"),
    ("vampire_village", "vampire_village/seer_result"),  # 预言家: 每晚验一人身份
    ("human_kill", "human_kill/role"),
    ("human_kill", "human_kill/check_result"),  # 蕾米莉亚: 查验一人阵营
    ("interview_vampire", "interview_vampire/role"),
}


def _announced(ruleset: str, game: Game, post: Post, name: str, role: str) -> bool:
    """Whether the rulebook has the thread announce that ``name`` (out of the game) was a ``role``:
    vampire_village's ``reveal_roles_at_death`` option (a dead player's role is announced); human_kill's
    花云 weather (the banished player's role is announced: docs/human_kill.md § What each player learns,
    from the roles table of 人类杀)."""
    if ruleset == "vampire_village":
        return bool(game.ruleset.params.reveal_roles_at_death)
    if ruleset == "human_kill":
        return post.key == "human_kill/banish_result" and post.data.get("revealed") == role
    return False


def _games(ruleset: str) -> list[tuple[int, int]]:
    """``(players, seed)`` for each game of ``ruleset``: counts spread over its allowed range."""
    sizes = allowed_sizes(ruleset)
    return [(sizes[(seed * 7) % len(sizes)], seed) for seed in range(GAMES)]


@cache
def _played(ruleset: str, n: int, seed: int, inject: bool = True) -> Record:
    return play(ruleset, n, seed, inject=inject, params=varied_params(ruleset, seed))


CASES = [(r, n, seed) for r in ruleset_ids() for n, seed in _games(r)]


def _id(case: tuple[str, int, int]) -> str:
    return f"{case[0]}-{case[1]}p-s{case[2]}"


@pytest.fixture(params=CASES, ids=_id)
def case(request: pytest.FixtureRequest) -> tuple[str, int, int]:
    return request.param


def test_every_ruleset_is_covered() -> None:
    assert {r for r, _, _ in CASES} == set(ruleset_ids()) and len(ruleset_ids()) >= 5


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_illegal_commands_are_sent(ruleset: str) -> None:
    """The games of every ruleset try every kind of illegal command the driver has."""
    kinds = {il.kind for n, seed in _games(ruleset) for il in _played(ruleset, n, seed).illegal.values()}
    assert kinds >= {"verb", "out_of_range"}, kinds


def test_game_ends(case: tuple[str, int, int]) -> None:
    rec = _played(*case)
    assert rec.game.finished
    assert sum(1 for s in rec.steps for e in s.events if e.kind == "game_over") == 1
    declared = set(type(rec.game.ruleset).phase_kinds)
    assert {ph.kind for ph in rec.game.phases} <= declared  # what a season's schedule may name


def test_legal_actions_are_accepted(case: tuple[str, int, int]) -> None:
    """What the help offers a player (:func:`~forumbot.simulate.actions.legal_actions`) is what the rules
    accept: each player's one action of a phase is never refused."""
    assert _played(*case).refused_legal == []


def test_illegal_commands_are_refused_and_change_nothing(case: tuple[str, int, int]) -> None:
    rec = _played(*case)
    for i, il in rec.illegal.items():
        where = f"{_id(case)} input {i}: {il.sender} ({rec.game.player(il.seat).role}) sent {il.text!r} in {il.phase}"
        step = il.step
        assert step.outputs and all(isinstance(o, Reply) and o.to == il.sender for o in step.outputs), where
        if il.kind == "out_of_range":
            assert [o.key for o in step.outputs] == ["common/parse_error"] and not step.events, where
        else:
            assert [e.kind for e in step.events] == ["rejected"], (where, step.events, step.outputs)
            assert step.events[0].data["seat"] == il.seat, where
            assert step.outputs[0].key.endswith("/rejected"), where
        assert not il.changed, (where, il.changed)


def test_refusals_change_nothing_for_anyone_else(case: tuple[str, int, int]) -> None:
    with_illegal, without = _played(*case), _played(*case, inject=False)
    assert with_illegal.legal_outputs() == without.legal_outputs()


def test_no_role_named_before_the_end(case: tuple[str, int, int]) -> None:
    ruleset = case[0]
    cls = get_ruleset(ruleset)
    roles = frozenset(cls.roles) | frozenset(cls.roles.values())
    rec = _played(*case)
    names = frozenset(p.name for p in rec.game.players)
    out: set[str] = set()  # players out of the game so far
    for i, step in enumerate(rec.steps):
        if any(e.kind == "game_over" for e in step.events):
            break
        out |= {e.data["name"] for e in step.events if e.kind == "player_out"}
        for o in step.outputs:
            if isinstance(o, Reply):
                if (ruleset, o.key) in TELLS:
                    continue
                mentions = role_mentions(o.data, roles, names - {o.to})
            else:
                mentions = [(n, r) for n, r in role_mentions(o.data, roles, names)
                            if not (n in out and _announced(ruleset, rec.game, o, n, r))]
            assert not mentions, (f"{_id(case)} input {i} {rec.inputs[i]}", o, mentions)


def test_refusals_render_in_every_locale(case: tuple[str, int, int]) -> None:
    rec = _played(*case)
    for il in rec.illegal.values():
        for o in il.step.outputs:
            for locale in LOCALES:
                for markup in MARKUPS:
                    text = renderer(locale, markup).render(o.key, o.data).strip()
                    # a reason without a text of its own ends in the bare reason id (common/rejected.j2)
                    assert text and text.splitlines()[-1].replace("\\", "").rstrip(".。") != o.data.get("reason")


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_action_declares_what_it_records(ruleset: str) -> None:
    """The status reply shows each open action's standing choice (forumbot.engine.actions.status_entries)."""
    missing = [a.key for a in get_ruleset(ruleset).actions if a.standing is None]
    assert not missing


def test_status_lists_what_help_offers(case: tuple[str, int, int]) -> None:
    """At every point of the game each player's status lists the actions his help offers, in its order;
    whenever a phase opens, every player's status renders (one locale and markup in turn)."""
    rec = _played(*case)
    styles = [(locale, markup) for locale in LOCALES for markup in MARKUPS]
    rendered = []

    def visit(game: Game, i: int) -> None:
        if game.finished:
            return
        rs = game.ruleset
        for p in game.players:
            data = rs.status_data(p.seat)
            assert [a["action"] for a in data["actions"]] == help_entries(rs, p.seat), (_id(case), i, p.name)
            if rec.inputs[i][0] in ("start", "deadline"):
                locale, markup = styles[len(rendered) % len(styles)]
                rendered.append(renderer(locale, markup).render(f"{case[0]}/status", data).strip())
                assert rendered[-1], (_id(case), i, p.name)

    replay_digest(*case, rec.inputs, varied_params(case[0], case[2]), visit=visit)
    assert rendered


def test_replays_identically(case: tuple[str, int, int]) -> None:
    rec = _played(*case)
    assert replay_digest(*case, rec.inputs, varied_params(case[0], case[2])) == rec.digest()


_HASHSEED_SCRIPT = """
import json, sys
sys.path.insert(0, {here!r})
from conformance_driver import allowed_sizes, play
out = {{}}
for r in json.loads(sys.argv[1]):
    n = allowed_sizes(r)[0]
    out[r] = play(r, n, 1).digest()
print(json.dumps(out))
"""


def test_replays_identically_across_hash_seeds() -> None:
    """One game per ruleset played in two processes with different ``PYTHONHASHSEED``: the same
    digest (no set or dict order leaks into what the judge sends)."""
    here = str(Path(__file__).parent)
    script = _HASHSEED_SCRIPT.format(here=here)
    digests = []
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        res = subprocess.run([sys.executable, "-c", script, __import__("json").dumps(ruleset_ids())],
                             capture_output=True, text=True, env=env, check=True)
        digests.append(res.stdout)
    assert digests[0] == digests[1]
    assert set(__import__("json").loads(digests[0])) == set(ruleset_ids())
