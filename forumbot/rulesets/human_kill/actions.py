"""What players of human_kill (人类杀) may do, declared once (:mod:`forumbot.engine.actions`): who may act,
when and on whom. The engine derives every check, the help and the reminders from these; the handlers
(:mod:`~forumbot.rulesets.human_kill.orders`) only record what passed.

Sources: the rulebook 《人类杀》, its appendix of roles and weather (the same game's public rules), and the
rulings on what they leave open (human_kill, dated).
"""

from __future__ import annotations

from typing import Any

from forumbot.engine.actions import Action, Count, Each, GateStep, Handler, Refusal, Standing, living, named, not_self
from forumbot.language.types import Command
from forumbot.rulesets.human_kill import orders
from forumbot.rulesets.human_kill.roles import DOREMY, IKU, MAMIZOU, REMILIA, RINNOSUKE, TAKERS, YUKARI
from forumbot.rulesets.human_kill.votes import SAGE_VOTE_KINDS, VOTE_KINDS

WINDOW_ROLE = {"iku": IKU, "remilia": REMILIA, "mamizou": MAMIZOU, "yukari": YUKARI, "doremy": DOREMY}
# --- the actions (forumbot.engine.actions): who may do what, when, on whom ------------------------------
# The judge of 人类杀 answers "you are out" and "you are sealed" before anything else (taking along and
# naming a successor aside), then the role, then the window: every gate below says so (_PLAYING).
_PLAYING: tuple[GateStep, ...] = ("alive", "who", "role", "phase", "extra")


def _not_sealed(rs: Any, seat: int) -> bool:
    """A banished Utsuho is alive but out of play (announced)."""
    return seat not in rs.sealed


def _playing(key: str, verbs: tuple[str, ...], handler: Handler, **kw: Any) -> Action:
    """An action of a player in play (alive, not sealed)."""
    kw.setdefault("order", _PLAYING)
    return Action(key, verbs, handler, who=_not_sealed, who_reason="sealed", **kw)


def _window(key: str, verbs: tuple[str, ...], handler: Handler, role: str, kind: str, **kw: Any) -> Action:
    """A role's action in its day window (its holder is reminded whether he has acted or not)."""
    kw.setdefault("owes", lambda rs, seat: True)
    return _playing(key, verbs, handler, roles=(role,), phases=(kind,), **kw)


_ONE_LIVING = (Count(1, 1), living())


def _iku_left(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    return Refusal("iku_spent") if rs.iku_spent else None


def _yukari_left(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """Each of Yukari's powers works once a game."""
    return Refusal("used_up", {"what": cmd.verb}) if cmd.verb in rs.yukari_used else None


def _not_kaisei(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """快晴: the exorcism target is protected neither by Mamizou's disguise nor by Yukari's save."""
    return Refusal("kaisei") if rs.w("kaisei") else None


def _save_help(rs: Any, seat: int) -> str | None:
    """Yukari is offered the save only while she holds it and was told a target she may save (her prompt:
    the exorcism target when it would succeed, else "nobody will be exorcised"): not under 快晴."""
    return None if "save" in rs.yukari_used or rs.w("kaisei") or rs.day.exorcised is None else "save"


def _already_checked(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    return None if rs.day.check_done is None else Refusal("already_checked", {"target": rs.game.name(rs.day.check_done)})


def _dream_targets(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """One or two players (a name written twice counts once), neither Doremy nor a dead player."""
    g = rs.game
    targets = tuple(dict.fromkeys(cmd.targets))
    if not 1 <= len(targets) <= 2:
        return Refusal("two_targets", {"count": len(cmd.targets)})
    for t in targets:
        if t == seat:
            return Refusal("dream_self")
        if not g.player(t).alive:
            return Refusal("dead_target", {"target": g.name(t)})
    return None


def _exorcist(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """The exorcism is the living humans' and Reimu's; Rinnosuke waits until he is the last human."""
    if rs.exorcism.may_vote(seat):
        return None
    role = rs.game.player(seat).role
    return Refusal("rinnosuke_waits" if role == RINNOSUKE else "not_your_role", {"role": role})


def _withdraw_closed(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """Withdrawals close when the vote opens: no ballot is ever dropped for a late withdrawal."""
    return Refusal("withdraw_closed") if rs.election is not None and rs.game.phase.kind in SAGE_VOTE_KINDS else None


def _pleading(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """In the pleas only the tied may withdraw."""
    if rs.game.phase.kind == "sage_pleas" and seat not in (rs.election.candidates or ()):
        return Refusal("not_candidate_self")
    return None


def _already_withdrawn(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    e = rs.election
    return Refusal("already_withdrawn") if e.candidates is None or seat not in e.candidates else None


def _the_sage(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    return None if seat == rs.sage else Refusal("not_sage")


def _start(rs: Any, seat: int) -> list[int]:
    """Where the sage may start the speaking order: one who died this round, or himself."""
    return list(rs.round_dead or [seat])


def _dying(rs: Any) -> list[int]:
    return [d for d, _ in rs.souten["chain"]]


def _not_dying(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    return Refusal("you_are_dying") if seat in _dying(rs) else None


def _vote_of(rs: Any) -> Any:
    """The vote now open (the banish vote, or the sage's): :meth:`HumanKill.open_vote`."""
    return rs.open_vote()


def _a_voter(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    return None if _vote_of(rs).may_vote(seat) else Refusal("not_a_voter")


def _already_voted(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    v = _vote_of(rs)
    existing = v.ballot_of(seat)
    if existing is None or v.allow_change:
        return None
    return Refusal("already_voted", {"target": rs.game.name(existing.choices[0]) if existing.choices else None})


def _vote_help(key: str) -> Any:
    """Every player in play sees the banish vote; in the sage's vote only its voters."""
    return lambda rs, seat: key if rs.game.phase.kind in VOTE_KINDS or _vote_of(rs).may_vote(seat) else None


def _owes_ballot(rs: Any, seat: int) -> bool:
    v = _vote_of(rs)
    return bool(v.may_vote(seat) and v.ballot_of(seat) is None)


# --- what each records (the status reply): his own orders only, and the day's orders of his role --------
def _one(target: int | None) -> Standing | None:
    return Standing((target,)) if target is not None else None


def _ballot(ballot: Any) -> Standing | None:
    """A ballot as a standing: an abstention (弃权) names nobody."""
    if ballot is None:
        return None
    return Standing(tuple(ballot.choices), note=None if ballot.choices else "abstain")


def _exorcism_ballot(rs: Any, seat: int) -> Standing | None:
    """His own exorcism ballot (the team's others are relayed to him as they come, not repeated here)."""
    return _ballot(rs.exorcism.ballot_of(seat))


def _vote_ballot(rs: Any, seat: int) -> Standing | None:
    """His ballot in the vote now open (the banish vote or the sage's)."""
    v = _vote_of(rs)
    return _ballot(v.ballot_of(seat)) if v is not None else None


def _iku_choice(rs: Any, seat: int) -> Standing | None:
    """Iku's choice today: note "cancel" (today's weather) or "foresee" (tomorrow's)."""
    return Standing(note=rs.day.iku_choice) if rs.day.iku_choice else None


def _check_done(rs: Any, seat: int) -> Standing | None:
    """Remilia's check today and what it showed her (note: "human", "youkai", "other", or "failed" under
    烈日), as she was told at once."""
    target = rs.day.check_done
    if target is None:
        return None
    entry = next((e for e in reversed(rs.log) if e["action"] == "check" and e["round"] == rs.round), None)
    seen = "failed" if entry is None or entry["failed"] else entry["result"]
    return Standing((target,), note=seen)


def _withdrawn(rs: Any, seat: int) -> Standing | None:
    """Whether he has withdrawn from the sage election (note "withdrawn"; None: he stands)."""
    e = rs.election
    if e is None or (e.candidates is not None and seat in e.candidates):
        return None
    return Standing(note="withdrawn")


def _speaking_order(rs: Any, seat: int) -> Standing | None:
    """The sage's choice of tonight's order: where it starts, note "clockwise" or "anticlockwise"."""
    choice = rs.day.order_choice
    if choice is None:
        return None
    start, clockwise = choice
    return Standing((start,), note="clockwise" if clockwise else "anticlockwise")


def _stand_in_offer(rs: Any, seat: int) -> Standing | None:
    """苍天: whom he offers to go out in the place of (None: no offer, or taken back)."""
    offer = rs.souten["volunteers"].get(seat) if rs.souten else None
    return Standing((offer[0],)) if offer else None


def _successor(rs: Any, seat: int) -> Standing | None:
    """The successor named by the sage (beforehand) or by a sage out at nightfall (the succession window):
    only to him."""
    return _one(rs.successor) if seat in (rs.sage, rs.succession_from) else None


_VOTE = {"phases": VOTE_KINDS + SAGE_VOTE_KINDS, "when": lambda rs: rs.game.phase.kind in VOTE_KINDS or rs.election is not None,
         "claims": "phase", "again": "refused", "already": _already_voted, "owes": _owes_ballot,
         "standing": _vote_ballot}
_EXORCISM = {"phases": ("exorcism",), "claims": "phase", "gates": (_exorcist,),
             "owes": lambda rs, seat: rs.exorcism.ballot_of(seat) is None, "standing": _exorcism_ballot}
_SOUTEN = {"phases": ("souten",), "when": lambda rs: rs.souten is not None, "gates": (_not_dying,),
           "standing": _stand_in_offer}

ACTIONS = (
    # a sage elected today and out names his successor in the succession window
    Action("successor_now", ("successor",), orders.successor_now, phases=("succession",), alive=None,
           who=lambda rs, seat: seat == rs.succession_from,
           targets=(*_ONE_LIVING, named("sealed_target", lambda rs, seat, t: t not in rs.sealed)),
           help=lambda rs, seat: "successor", standing=_successor, owes=lambda rs, seat: rs.successor is None),
    _playing("exorcise", ("exorcise", "vote"), orders.exorcise, targets=_ONE_LIVING, **_EXORCISM),
    _playing("abstain", ("abstain",), orders.exorcise, **_EXORCISM),
    _window("cancel_weather", ("cancel_weather",), orders.iku, IKU, "iku", gates=(_iku_left,), standing=_iku_choice),
    _window("foresee", ("foresee",), orders.iku, IKU, "iku", gates=(_iku_left,), standing=_iku_choice),
    _window("check", ("check",), orders.check, REMILIA, "remilia",  # 梅雨: the dead may be checked
            targets=(Count(1, 1), named("dead_target", lambda rs, seat, t: rs.game.player(t).alive or rs.w("baiu")),
                     not_self("check_self")),
            again="refused", already=_already_checked, standing=_check_done),
    _window("disguise", ("disguise",), orders.disguise, MAMIZOU, "mamizou",
            targets=(*_ONE_LIVING, not_self("disguise_self"),
                     named("repeat_disguise", lambda rs, seat, t: t != rs.last_disguise or rs.w("baiu"))),
            standing=lambda rs, seat: _one(rs.day.disguise)),
    _window("save", ("save",), orders.yukari, YUKARI, "yukari",
            targets=(_yukari_left, *_ONE_LIVING, _not_kaisei,
                     named("not_exorcised", lambda rs, seat, t: t == rs.day.exorcised),
                     Each(lambda rs, seat, t: t != seat or rs.w("baiu"), "save_self")),
            help=_save_help, offers_self=True,
            standing=lambda rs, seat: _one(rs.day.yukari_save)),
    _window("kill", ("kill",), orders.yukari, YUKARI, "yukari", targets=(_yukari_left, *_ONE_LIVING, not_self("kill_self")),
            help=lambda rs, seat: None if "kill" in rs.yukari_used else "kill", standing=lambda rs, seat: _one(rs.day.yukari_kill)),
    _window("dream", ("dream",), orders.dream, DOREMY, "doremy", targets=(_dream_targets,), offer_most=lambda rs, seat: 2,
            standing=lambda rs, seat: Standing(rs.day.dream) if rs.day.dream else None),
    _playing("withdraw", ("withdraw",), orders.withdraw, phases=("election", "sage_pleas"), when=lambda rs: rs.election is not None,
             gates=(_withdraw_closed, _pleading), order=("alive", "who", "extra", "phase"),
             again="refused", already=_already_withdrawn, standing=_withdrawn),
    _playing("vote", ("vote",), orders.vote,
             targets=(_a_voter, *_ONE_LIVING,
                      Each(lambda rs, seat, t: _vote_of(rs).eligible(t) and t not in rs.sealed, "not_candidate",
                           lambda rs, seat, bad: {"target": rs.game.name(bad[0]),
                                                  "candidates": rs.game.names(_vote_of(rs).candidates or rs.playing())})),
             help=_vote_help("vote"), **_VOTE),
    _playing("vote_abstain", ("abstain",), orders.vote, targets=(_a_voter,), help=_vote_help("abstain"), **_VOTE),
    _playing("clockwise", ("clockwise",), orders.order, phases=("order",), gates=(_the_sage,),
             targets=(Count(1, 1), named("bad_start", lambda rs, seat, t: t in _start(rs, seat),
                                          allowed=lambda rs: rs.game.names(_start(rs, rs.sage)))),
             help=lambda rs, seat: "order", option_key="clockwise", offers_self=True, standing=_speaking_order,
             owes=lambda rs, seat: rs.day.order_choice is None),
    _playing("anticlockwise", ("anticlockwise",), orders.order, phases=("order",), gates=(_the_sage,),
             targets=(Count(1, 1), named("bad_start", lambda rs, seat, t: t in _start(rs, seat),
                                          allowed=lambda rs: rs.game.names(_start(rs, rs.sage)))),
             help=lambda rs, seat: "order", option_key="anticlockwise", offers_self=True, standing=_speaking_order),
    # 苍天: go out in the place of one of the dying (替 X), or take the offer back (弃权)
    _playing("stand_in", ("stand_in",), orders.stand_in,
             targets=(*_ONE_LIVING, Each(lambda rs, seat, t: t in _dying(rs), "not_dying",
                                         lambda rs, seat, bad: {"target": rs.game.name(bad[0]),
                                                                "dying": rs.game.names(sorted(_dying(rs)))})), **_SOUTEN),
    _playing("stand_in_abstain", ("abstain",), orders.stand_in, claims="phase", help=lambda rs, seat: None, **_SOUTEN),
    # 取消投票: with ``change_vote`` the standing banish or sage ballot is withdrawn (the vote's rule, the
    # engine's hook) and outside those votes it is refused as out of phase; without it the first ballot stands
    # (the hook's reply says so)
    Action("unvote", ("unvote",), lambda rs, seat, cmd, out: rs.on_unvote(seat, cmd, out), alive=None,
           when=lambda rs: not rs.params.change_vote or rs.open_vote() is not None,
           help=lambda rs, seat: None, standing=lambda rs, seat: None),
    Action("take", ("take",), orders.take, roles=TAKERS, targets=(*_ONE_LIVING, not_self("take_self")),
           help=lambda rs, seat: None if seat in rs.sealed else "take", standing=lambda rs, seat: _one(rs.takes.get(seat))),
    Action("successor", ("successor",), orders.successor, alive=None,
           who=lambda rs, seat: seat == rs.sage and rs.game.player(seat).alive, who_reason="not_sage",
           targets=(*_ONE_LIVING, not_self("successor_self")), primary=True,
           help=lambda rs, seat: None if seat in rs.sealed else "successor", standing=_successor),
)


def unknown_verb(rs: Any, seat: int, cmd: Command) -> Refusal:
    """A verb of no action here: the player out or sealed is told so first."""
    if not rs.game.player(seat).alive:
        return Refusal("you_are_out")
    if seat in rs.sealed:
        return Refusal("sealed")
    return Refusal("not_in_game")
