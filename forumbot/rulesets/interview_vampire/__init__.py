"""夜访吸血鬼 (interview_vampire): vampires that feed, kill over two nights, convert, starve and turn criminal.

Rulebook: ``shared/seeds/000_1ca77b1489a079c3.txt``; rulings: ``shared/seeds/README.md`` § interview_vampire;
for players and organisers: ``docs/interview_vampire.md``.

Timeline: a prologue (role PMs; no commands), then night 1, day 1, night 2, day 2... Each is a phase with
its own deadline and post. At night every vampire and criminal vampire (a *biter*) acts alone by PM:
``吸 A B`` (the sucks), ``转化 A`` (a conversion), ``投 A`` (the criminal vote, while a criminal lives).
Nothing takes effect before dawn, when the night is resolved all at once (:mod:`forumbot.engine.dawn`):
conversions, sucks (collisions fail), feeding, crimes, kills, starvation and the criminal vote's execution
(:mod:`forumbot.engine.votes`, :data:`CRIME_VOTE`); then each biter gets one private dawn report and the thread is told
only the names of the dead. The day is an open vote in the thread; the top name is put in the sun and dies
at nightfall if he is a vampire or a criminal.

No role is revealed before the final post, which reveals everything (who sucked whom, conversions,
crimes, the criminal votes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import Field

from forumbot.engine.actions import Action, Count, Distinct, Refusal, act, living, not_self
from forumbot.engine.dawn import DawnReports, NightPlans
from forumbot.engine.game import Game, SetupError
from forumbot.engine.ruleset import Params, Ruleset, register
from forumbot.engine.types import Step, Winner
from forumbot.engine.votes import BallotError, Vote, VoteRule
from forumbot.language.types import Command
from forumbot.rulesets.interview_vampire import events as ev

HUMAN, VAMPIRE, CRIMINAL = "human", "vampire", "criminal"
BITERS = (VAMPIRE, CRIMINAL)
SUCK, CONVERT = "suck", "convert"
#: The criminal vote (README § interview_vampire): 「a vampire has 2 votes (one name twice or two names), a
#: criminal 1; the top name, if a criminal, is executed at dawn; a tie or a non-criminal: nobody」; a
#: later ballot replaces the earlier one until dawn. The voters' weights are set each night.
CRIME_VOTE = VoteRule("criminal vote", split="spread", change="replace", last_tie="nobody")
#: The day vote (README § interview_vampire): 「Day: open vote in the thread, one each; the top name is put
#: in the sun and dies at nightfall if a vampire or criminal; a tie: nobody」 (the first vote stands).
DAY_VOTE = VoteRule("day vote", votes=1, last_tie="nobody")


class InterviewVampireParams(Params):
    """Season parameters; defaults are the README's rulings (those marked config)."""

    vampires: int = Field(1, ge=1, description="vampires at the start (the rulebook: 1)")
    starve_nights: int = Field(2, ge=1, le=5, description="hungry this many nights running: the biter starves at dawn (2 or 3)")
    human_executions: int = Field(4, ge=1, description="vampires or criminals put to death by day votes for the humans to win")
    vampire_rule: Literal["final", "text"] = Field(
        "final", description='"final": a vampire alive at final_players or fewer with at most final_criminals criminals alive; '
        '"text": the text\'s first rule (share at hold_dawns dawns running with half the criminals out, or night_executions)')
    final_players: int = Field(4, ge=2, description='"final" rule: living players at most')
    final_criminals: int = Field(1, ge=0, description='"final" rule: living criminals at most')
    vampire_share: float = Field(0.25, gt=0, lt=1, description='"text" rule: living vampires above this share of the living')
    hold_dawns: int = Field(2, ge=1, description='"text" rule: dawns running at which the share holds')
    night_executions: int = Field(3, ge=1, description='"text" rule: criminals executed by the night vote')
    will_phases: int = Field(1, ge=0, description="phases after a death in which the dead may post last words")
    max_nights: int = Field(30, ge=1, description="safety net: after this many nights the game ends with no camp winning")


@dataclass(frozen=True)
class Record:
    """A biter's night, kept for the next night's kill and conversion rules. ``names``: the sucks named;
    ``success``: those that succeeded; ``roles``: each target's role that night."""

    names: tuple[int, ...]
    success: frozenset[int]
    roles: dict[int, str]


# --- the actions (forumbot.engine.actions): who may do what, when, on whom ------------------------------
def _biter_role(rs: Any, seat: int, cmd: Command) -> Refusal:
    """A criminal asking to convert is told that criminals do not convert; anyone else, that it is not his role."""
    role = rs.game.player(seat).role
    return Refusal("criminal_cannot_convert" if role == CRIMINAL and cmd.verb == CONVERT else "not_your_role",
                   {"role": role})


def _convert_and_suck(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """Nobody is both sucked and converted by the same vampire in one night (either order)."""
    g = rs.game
    if cmd.verb == SUCK:
        converting = rs.plans.targets(seat, CONVERT)
        if converting and converting[0] in cmd.targets:
            return Refusal("convert_and_suck", {"target": g.name(converting[0])})
    elif cmd.targets[0] in rs.plans.targets(seat, SUCK):
        return Refusal("convert_and_suck", {"target": g.name(cmd.targets[0])})
    return None


def _too_many(rs: Any, seat: int, cmd: Command) -> dict[str, Any]:
    role = rs.game.player(seat).role
    return {"count": len(cmd.targets), "most": rs._need(seat), "criminal": role == CRIMINAL,
            "converting": bool(rs.plans.targets(seat, CONVERT))}


def _may_convert_now(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """A conversion needs a record of last night: fed, not converting, and the target among those sucked."""
    g = rs.game
    target = cmd.targets[0]
    last = rs.last_night.get(seat)
    if last is None or last["round"] != g.phase.round - 1:
        return Refusal("no_record")
    if last["converting"]:
        return Refusal("converted_last_night")
    if not last["fed"]:
        return Refusal("not_fed")
    if target not in last["names"]:
        return Refusal("not_sucked", {"target": g.name(target), "sucked": g.names(last["names"])})
    return None


def _withdrawable(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """取消转化 needs a standing conversion, and a suck order of at most 2 (the most without one)."""
    if rs.plans.of(seat, CONVERT) is None:
        return Refusal("no_conversion")
    sucks = rs.plans.targets(seat, SUCK)
    if len(sucks) > 2:
        return Refusal("too_many_without_conversion", {"sucks": rs.game.names(sucks)})
    return None


def _crime_ballot(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """The criminal vote exists (once a criminal appeared) and the ballot fits the voter's votes."""
    if rs.crime_vote is None:
        return Refusal("no_crime_vote")
    try:
        rs.crime_vote.spread(seat, cmd.targets)
    except BallotError:
        return Refusal("too_many_votes", {"most": int(rs.crime_vote.weight_of(seat))})
    return None


def _already_voted(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    existing = rs.vote.ballot_of(seat)
    return None if existing is None else Refusal("already_voted", {"target": rs.game.name(existing.choices[0])})


def _is_criminal(rs: Any, seat: int) -> bool:
    return bool(rs.game.player(seat).role == CRIMINAL)


ACTIONS = (
    Action("suck", (SUCK,), "_suck", phases=("night",), roles=BITERS, role_reason=_biter_role,
           targets=(Count(1, None), living(), Distinct("repeat_target"), not_self("suck_self"), _convert_and_suck,
                    Count(1, lambda rs, seat: rs._need(seat), "too_many", _too_many)),
           help=lambda rs, seat: "suck_criminal" if _is_criminal(rs, seat) else "suck",
           owes=lambda rs, seat: rs.plans.of(seat, SUCK) is None),
    Action("convert", (CONVERT,), "_convert", phases=("night",), roles=(VAMPIRE,), role_reason=_biter_role,
           form=lambda cmd: cmd.number != 0,
           targets=(Count(1, None), living(), Count(1, 1), not_self("convert_self")),
           checks=(_may_convert_now, _convert_and_suck)),
    Action("convert_withdraw", (CONVERT,), "_withdraw_convert", phases=("night",), roles=(VAMPIRE,),
           role_reason=_biter_role, form=lambda cmd: cmd.number == 0, checks=(_withdrawable,), help=lambda rs, seat: None),
    # the judge of 夜访吸血鬼 checks the phase first: a human's night vote is "not your role", a day one "wrong phase"
    Action("crime_vote", ("vote",), "_crime_vote", phases=("night",), roles=BITERS, order=("phase", "role", "alive", "who"),
           targets=(Count(1, None), living()), checks=(_crime_ballot,),
           offer_most=lambda rs, seat: int(rs.crime_vote.weight_of(seat)),
           help=lambda rs, seat: None if rs.crime_vote is None else
           "crime_vote_criminal" if _is_criminal(rs, seat) else "crime_vote"),
    Action("vote_thread", ("vote",), "_day_vote", phases=("day",), channel="thread",
           targets=(Count(1, 1), living()), again="refused", already=_already_voted,
           owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
)


@register
class InterviewVampire(Ruleset):
    """The interview_vampire ruleset (see the module docstring)."""

    id = "interview_vampire"
    rules_version = "1"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = InterviewVampireParams
    roles: ClassVar[dict[str, str]] = {HUMAN: HUMAN, VAMPIRE: VAMPIRE, CRIMINAL: CRIMINAL}
    default_role = HUMAN
    phase_kinds = ("prologue", "night", "day")
    min_players = 5
    actions = ACTIONS

    def __init__(self, game: Game, params: InterviewVampireParams) -> None:
        super().__init__(game, params)
        self.params: InterviewVampireParams = params
        self.plans = NightPlans()
        self.reports = DawnReports()
        self.crime_vote: Vote | None = None
        self.vote = Vote(DAY_VOTE)
        self.records: dict[int, Record | None] = {}
        self.last_night: dict[int, dict[str, Any]] = {}  # what each biter knows of his last night
        self.hungry: dict[int, int] = {}
        self.converted: dict[int, list[int]] = {}  # converter -> the players he converted
        # converter -> everyone he made drink his blood, the conversion taken or not: what he knows
        self.made_drink: dict[int, list[int]] = {}
        self.start_roles: dict[int, str] = {}
        self.ever_criminals: list[int] = []
        self.criminals_told = False
        self.day_executions = 0
        self.night_executions_done = 0
        self.share_streak = 0
        self.camps: list[str] = []
        self.reasons: list[str] = []
        self.nights: list[dict[str, Any]] = []
        self.days: list[dict[str, Any]] = []
        self.deaths: dict[int, dict[str, Any]] = {}

    # --- set-up -----------------------------------------------------------------------------------
    def role_counts(self, n_players: int) -> dict[str, int]:
        v = self.params.vampires
        if 2 * v >= n_players:
            raise SetupError(f"{v} vampires need more than {2 * v} players")
        return {VAMPIRE: v, HUMAN: n_players - v, CRIMINAL: 0}

    def start(self, out: Step) -> None:
        g = self.game
        self.start_roles = {p.seat: p.role for p in g.players}
        vamps = [p.seat for p in g.players if p.role == VAMPIRE]
        if not vamps:
            raise SetupError("interview_vampire needs at least one vampire in the draw")
        if not any(p.role == HUMAN for p in g.players):
            raise SetupError("interview_vampire needs at least one human in the draw")
        self.ever_criminals = [p.seat for p in g.players if p.role == CRIMINAL]
        out.events.append(ev.Setup(vampires=len(vamps), criminals=len(self.ever_criminals)))
        for p in g.players:
            g.reply(p.seat, "interview_vampire/role", out, **self.role_reply_data(p.seat))
        g.post("interview_vampire/opening", out, players=[p.name for p in g.players], vampires=len(vamps),
               **self._rule_data())

    def _rule_data(self) -> dict[str, Any]:
        p = self.params
        return {"starve_nights": p.starve_nights, "human_executions": p.human_executions, "vampire_rule": p.vampire_rule,
                "final_players": p.final_players, "final_criminals": p.final_criminals,
                "share": f"{p.vampire_share:g}", "share_pct": round(p.vampire_share * 100), "hold_dawns": p.hold_dawns,
                "night_executions": p.night_executions}

    def role_reply_data(self, seat: int, converted: bool = False) -> dict[str, Any]:
        g = self.game
        role = g.player(seat).role
        example = next((p.name for p in g.players if p.seat != seat), g.name(seat))
        example2 = next((p.name for p in g.players if p.seat != seat and p.name != example), example)
        return {
            "name": g.name(seat), "seat": seat, "role": role, "converted": converted,
            "players": [p.name for p in g.players], "example": example, "example2": example2,
            "converts": g.names(self.made_drink.get(seat, [])), "criminals_exist": bool(self.ever_criminals),
            **self._rule_data(),
        }

    # --- commands ---------------------------------------------------------------------------------
    # Every check of who may act, when and on whom is declared in ACTIONS (module level, below the class);
    # the handlers only record what passed.
    thread_verbs = frozenset({"vote"})

    def thread_vote(self) -> Vote | None:
        """The day vote while it is open: 夜访吸血鬼 has it posted in the thread."""
        return self.vote if self.game.phase.kind == "day" else None

    def on_thread_post(self, seat: int, text: str, out: Step) -> None:
        """Last words and dead players' posts (the engine's rule); in the day, a living player's post
        that is a vote command is his vote. Any other post is talk."""
        g = self.game
        if not g.player(seat).alive:
            g.dead_player_post(seat, out)
            return
        cmd = g.read_thread(seat, text, {"vote", "unvote", "nolynch"})
        if isinstance(cmd, Command):
            if g.phase.kind != "day":
                self.refuse(seat, cmd, "wrong_phase", out)
            elif not g.vote_command(seat, cmd, out):
                act(self, seat, cmd, out, "thread")
        elif g.phase.kind == "day":
            g.thread_error(seat, cmd, out)  # day votes are cast only here: never lost silently

    def _suck(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        targets = cmd.targets
        previous = self.plans.set(seat, SUCK, targets)
        out.events.append(ev.SuckPlan(seat=seat, targets=list(targets), round=g.phase.round))
        g.reply(seat, "interview_vampire/suck_recorded", out, round=g.phase.round, targets=g.names(targets),
                replaced=g.names(previous.targets) if previous else None, need=self._need(seat),
                read_as=g.read_as(cmd))

    def _need(self, seat: int) -> int:
        """Successful sucks ``seat`` needs tonight to be fed (also the most he may name)."""
        if self.game.player(seat).role == CRIMINAL:
            return 1
        return 3 if self.plans.of(seat, CONVERT) else 2

    def _convert(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        sucks = self.plans.targets(seat, SUCK)
        previous = self.plans.set(seat, CONVERT, (target,))
        out.events.append(ev.ConvertPlan(seat=seat, target=target, round=g.phase.round))
        g.reply(seat, "interview_vampire/convert_recorded", out, round=g.phase.round, target=g.name(target),
                replaced=g.name(previous.targets[0]) if previous and previous.targets[0] != target else None,
                sucks=g.names(sucks), read_as=g.read_as(cmd), withdrawn=False)

    def _withdraw_convert(self, seat: int, cmd: Command, out: Step) -> None:
        """取消转化: the standing conversion is withdrawn (README ruling 2026-12); his need goes back to 2
        and his sucks may kill again."""
        g = self.game
        plan = self.plans.of(seat, CONVERT)
        assert plan is not None
        sucks = self.plans.targets(seat, SUCK)
        self.plans.drop(seat, CONVERT)
        out.events.append(ev.ConvertWithdrawn(seat=seat, target=plan.targets[0], round=g.phase.round))
        g.reply(seat, "interview_vampire/convert_recorded", out, round=g.phase.round, target=g.name(plan.targets[0]),
                withdrawn=True, replaced=None, sucks=g.names(sucks), read_as=[])

    def _crime_vote(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        assert self.crime_vote is not None
        ballot = self.crime_vote.cast(seat, cmd.targets)
        assert ballot is not None  # a later criminal-vote ballot replaces the earlier one
        out.events.append(ev.CrimeBallot(voter=seat, choices=list(ballot.choices), votes=list(ballot.shares), round=g.phase.round))
        g.reply(seat, "interview_vampire/vote_recorded", out, night=True, round=g.phase.round,
                votes=[{"name": g.name(c), "votes": v} for c, v in zip(ballot.choices, ballot.shares, strict=False)],
                read_as=g.read_as(cmd))

    def _day_vote(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        self.vote.cast(seat, (target,))
        out.events.append(ev.Ballot(round=g.phase.round, voter=seat, choice=target))
        g.reply(seat, "interview_vampire/vote_recorded", out, night=False, round=g.phase.round,
                votes=[{"name": g.name(target), "votes": 1}], read_as=g.read_as(cmd))

    # --- phases -----------------------------------------------------------------------------------
    def close_phase(self, out: Step) -> None:
        kind = self.game.phase.kind
        if kind == "prologue":
            self._open_night(1, out)
        elif kind == "night":
            self._dawn(out)
        elif kind == "day":
            self._dusk(out)

    def biters(self) -> list[int]:
        """Living vampires and criminals, in seat order."""
        g = self.game
        return [p.seat for p in g.players if p.alive and p.role in BITERS]

    def _open_night(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("night", round_, round_, out)
        self.plans.clear()
        # 「一旦场上出现了犯罪的吸血鬼」: every night from then on, whether one still lives or not (README
        # ruling 2026-12): holding it only while one lives would tell every voter so
        self.crime_vote = Vote(CRIME_VOTE, weights={s: 2 if g.player(s).role == VAMPIRE else 1 for s in self.biters()}) \
            if self.ever_criminals else None
        g.post("interview_vampire/night_open", out, round=round_, alive=g.names(g.alive()))
        for seat in self.biters():
            role = g.player(seat).role
            last = self.last_night.get(seat)
            # the living among those he sucked last night: the dead were announced at dawn
            living = [t for t in last["names"] if g.player(t).alive] if last else []
            may_convert = (role == VAMPIRE and last is not None and last["round"] == round_ - 1 and last["fed"]
                           and not last["converting"] and bool(living))
            g.reply(seat, "interview_vampire/night_brief", out, round=round_, role=role, need=1 if role == CRIMINAL else 2,
                    most=1 if role == CRIMINAL else 2, hungry=self.hungry.get(seat, 0), starve_nights=self.params.starve_nights,
                    may_convert=may_convert, convert_from=g.names(living) if may_convert else [],
                    crime_vote=self.crime_vote is not None, votes=2 if role == VAMPIRE else 1)

    def _dawn(self, out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        biters = self.biters()
        role_then = {p.seat: p.role for p in g.players}
        alive_then = set(g.alive())
        # conversions: valid by last night's record; two converters on one target fail
        attempts: dict[int, list[int]] = {}
        for v in biters:
            plan = self.plans.of(v, CONVERT)
            if plan is not None and role_then[v] == VAMPIRE:
                attempts.setdefault(plan.targets[0], []).append(v)
        converted: dict[int, int] = {}
        convert_log: dict[int, dict[str, Any]] = {}
        for t, vs in attempts.items():
            for v in vs:
                self.made_drink.setdefault(v, []).append(t)
                ok = len(vs) == 1 and t in alive_then and role_then[t] == HUMAN and self._may_convert(v, t)
                convert_log[v] = {"target": g.name(t), "ok": ok}
                if ok:
                    converted[t] = v
        converting = {v for vs in attempts.values() for v in vs}
        contested = self.plans.contested(SUCK, among=biters)
        fed: dict[int, bool] = {}
        new_criminals: list[int] = []
        kills: dict[int, int] = {}
        starved: list[int] = []
        entries = []
        for b in biters:
            names = tuple(t for t in self.plans.targets(b, SUCK) if t in alive_then)
            success = frozenset(t for t in names if t not in contested and not (t in converted and converted[t] != b))
            need = 1 if role_then[b] == CRIMINAL else (3 if b in converting else 2)
            fed[b] = len(success) >= need
            crime = role_then[b] == VAMPIRE and any(role_then[t] == VAMPIRE for t in success)
            if crime:
                new_criminals.append(b)
            killed = None
            rec = self.records.get(b)
            if b not in converting and rec is not None:
                repeats = set(rec.names) & set(names)
                if len(repeats) == 1:
                    t = repeats.pop()
                    if t in rec.success and t in success:
                        killed = t
                        kills[b] = t
            self.records[b] = None if (b in converting or killed is not None) else Record(
                names, success, {t: role_then[t] for t in names})
            self.hungry[b] = 0 if fed[b] else self.hungry.get(b, 0) + 1
            starves = self.hungry[b] >= self.params.starve_nights
            if starves:
                starved.append(b)
            self.last_night[b] = {"round": round_, "names": names, "fed": fed[b], "converting": b in converting}
            entries.append({
                "biter": g.name(b), "role": role_then[b],
                "sucks": [{"name": g.name(t), "ok": t in success,
                           "why": None if t in success else ("collision" if t in contested else "converted")} for t in names],
                "convert": convert_log.get(b), "need": need, "fed": fed[b], "crime": crime,
                "killed": g.name(killed) if killed else None, "starved": starves,
            })
        # the criminal vote
        executed: int | None = None
        leading: list[int] = []
        counts: list[tuple[int, float]] = []
        if self.crime_vote is not None:
            tally = self.crime_vote.close(None)  # the top name, not tied, among every name written
            leading, counts = self.crime_vote.leading(3), tally.counts
            if tally.chosen is not None and role_then[tally.chosen] == CRIMINAL and tally.chosen in alive_then:
                executed = tally.chosen
        # effects, all at once
        for b in new_criminals:
            g.player(b).role = CRIMINAL
            self.ever_criminals.append(b)
        for t, v in converted.items():
            g.player(t).role = VAMPIRE
            self.converted.setdefault(v, []).append(t)
            self.records[t], self.hungry[t] = None, 0
        deaths: dict[int, str] = {}
        for t in kills.values():
            deaths.setdefault(t, "killed")
        for b in starved:
            deaths.setdefault(b, "starved")
        if executed is not None:
            deaths[executed] = "executed"
            self.night_executions_done += 1
        for seat in sorted(deaths):
            g.remove(seat, deaths[seat], out)
            self.deaths[seat] = {"round": round_, "how": deaths[seat], "role": g.player(seat).role}
        self.nights.append({
            "round": round_, "biters": entries, "converted": [{"by": g.name(v), "name": g.name(t)} for t, v in sorted(converted.items())],
            "criminals": g.names(new_criminals), "executed": g.name(executed) if executed else None,
            "vote": [{"name": g.name(c), "votes": n} for c, n in counts],
            "dead": g.names(sorted(deaths)),
        })
        out.events.append(ev.Dawn(round=round_, fed={str(b): f for b, f in fed.items()}, converted={str(t): v for t, v in converted.items()}, criminals=new_criminals, kills={str(b): t for b, t in kills.items()}, starved=starved, executed=executed, dead=sorted(deaths)))
        # private dawn reports to the living biters of the night
        first_criminals = bool(new_criminals) and not self.criminals_told
        voters = {b.voter for b in self.crime_vote.ballots} if self.crime_vote is not None else set()
        for b in biters:
            self.reports.add(b, fed=fed[b], criminal=b in new_criminals,
                             hungry=self.hungry[b], leading=g.names(leading) if b in voters else None)
        if first_criminals:
            self.criminals_told = True
            for s in self.biters():
                if s not in converted:
                    self.reports.add(s, criminals_exist=True)
        self.reports.send(g, "interview_vampire/dawn_report", out, self.biters(),
                          defaults={"fed": None, "criminal": False, "hungry": 0, "leading": None, "criminals_exist": False},
                          round=round_, starve_nights=self.params.starve_nights)
        for t in sorted(converted):
            g.reply(t, "interview_vampire/role", out, **self.role_reply_data(t, converted=True))
        # the text's share rule counts dawns running
        p = self.params
        vamps, alive = len(g.living(VAMPIRE)), len(g.alive())
        self.share_streak = self.share_streak + 1 if vamps > p.vampire_share * alive else 0
        dead = g.names(sorted(deaths))
        if self._check_win(out, dead_now=dead, when="dawn"):
            return
        if round_ >= p.max_nights:
            self._finish([], ["max_nights"], out, dead_now=dead, when="dawn")
            return
        self._open_day(round_, dead, out)

    def _may_convert(self, v: int, t: int) -> bool:
        """Last night ``v`` sucked two or more non-vampires successfully, a human among them, and ``t``."""
        rec = self.records.get(v)
        if rec is None:
            return False
        fed_on = [x for x in rec.success if rec.roles[x] != VAMPIRE]
        return len(fed_on) >= 2 and any(rec.roles[x] == HUMAN for x in fed_on) and t in rec.success and rec.roles[t] == HUMAN

    def _open_day(self, round_: int, dead: list[str], out: Step) -> None:
        g = self.game
        g.open_phase("day", round_, round_, out)
        self.vote = Vote(DAY_VOTE)
        g.post("interview_vampire/day_open", out, round=round_, dead=dead, alive=g.names(g.alive()))

    def _dusk(self, out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        outcome = self.vote.close(g.alive())
        chosen = outcome.chosen if outcome.kind == "decided" else None
        burns = chosen is not None and g.player(chosen).role in BITERS
        out.events.append(ev.VoteClosed(round=round_, vote_kind=outcome.kind, chosen=chosen, tied=list(outcome.tied), burns=burns))
        counts = outcome.counts
        self.days.append({"round": round_, "chosen": g.name(chosen) if chosen else None, "burned": burns,
                          "role": g.player(chosen).role if chosen else None})
        g.post(
            "interview_vampire/vote_result", out, round=round_, result=outcome.kind,
            ballots=[{"voter": g.name(b.voter), "choice": g.name(b.choices[0])} for b in outcome.ballots],
            counts=[{"name": g.name(s), "votes": int(v)} for s, v in counts],
            chosen=g.name(chosen) if chosen else None, tied=g.names(outcome.tied), burns=burns,
            missing=g.names([s for s in g.alive() if self.vote.ballot_of(s) is None]),
        )
        dead: list[str] = []
        if burns:
            assert chosen is not None
            self.day_executions += 1
            g.remove(chosen, "sun", out)
            self.deaths[chosen] = {"round": round_, "how": "sun", "role": g.player(chosen).role}
            dead = [g.name(chosen)]
        if self._check_win(out, dead_now=dead, when="dusk"):
            return
        self._open_night(round_ + 1, out)

    # --- winning ----------------------------------------------------------------------------------
    def win_check(self) -> tuple[Winner, str] | None:
        """``(winner, reasons joined by ",")`` when the game is over as it stands (:meth:`camps_check`,
        :meth:`_winner`), else None."""
        camps, reasons, over = self.camps_check()
        return (self._winner(camps), ",".join(reasons)) if over else None

    def camps_check(self) -> tuple[list[str], list[str], bool]:
        """(camps that win, reasons, game over): both camps may win together. A camp with no living
        member cannot win; when neither camp has a living member the game is over with no camp winning."""
        g, p = self.game, self.params
        humans, vamps, crims = g.living(HUMAN), g.living(VAMPIRE), g.living(CRIMINAL)
        camps, reasons = [], []
        if humans:
            if not vamps:
                camps.append(HUMAN)
                reasons.append("vampires_out")
            elif self.day_executions >= p.human_executions:
                camps.append(HUMAN)
                reasons.append("day_executions")
        if vamps:
            if p.vampire_rule == "final":
                if len(g.alive()) <= p.final_players and len(crims) <= p.final_criminals:
                    camps.append(VAMPIRE)
                    reasons.append("few_left")
            else:
                out_criminals = sum(1 for s in self.ever_criminals if not g.player(s).alive)
                if self.share_streak >= p.hold_dawns and 2 * out_criminals >= len(self.ever_criminals):
                    camps.append(VAMPIRE)
                    reasons.append("share_held")
                elif self.night_executions_done >= p.night_executions:
                    camps.append(VAMPIRE)
                    reasons.append("night_executions")
        over = bool(camps) or (not humans and not vamps)
        if over and not camps:
            reasons.append("no_camp")
        return camps, reasons, over

    def _check_win(self, out: Step, dead_now: list[str] | None = None, when: str = "") -> bool:
        camps, reasons, over = self.camps_check()
        if not over:
            return False
        self._finish(camps, reasons, out, dead_now=dead_now or [], when=when)
        return True

    def _finish(self, camps: list[str], reasons: list[str], out: Step, dead_now: list[str] | None = None,
                when: str = "", ended: bool = False) -> None:
        g = self.game
        self.camps, self.reasons = camps, reasons
        g.finish(None if ended else self._winner(camps), out)
        g.post("interview_vampire/final", out, **self.final_data(), dead_now=dead_now or [], when=when)

    def _winner(self, camps: list[str]) -> Winner:
        """``game.winner`` for the winning ``camps``: both camps as a list, one camp, or with none the
        criminals when one is alive, else "draw"."""
        if len(camps) == 2:
            return [HUMAN, VAMPIRE]
        if camps:
            return camps[0]
        return CRIMINAL if self.game.living(CRIMINAL) else "draw"

    def won(self, seat: int) -> bool:
        """Did ``seat`` win? Members of a winning camp (living or dead, by their last role) win; a
        criminal wins when alive at the end (with the winning camps, or alone); nobody wins an organiser's end."""
        g = self.game
        if not g.finished or g.winner is None:
            return False
        p = g.player(seat)
        if p.role == CRIMINAL:
            return p.alive
        return p.role in self.camps

    def on_removed(self, seat: int, out: Step) -> None:
        """A player removed by the organiser: his night plans lapse; the win check."""
        if self.game.finished:
            return
        self.plans.drop(seat, SUCK)
        self.plans.drop(seat, CONVERT)
        self._check_win(out, when="penalty")

    def end_now(self, out: Step) -> None:
        self._finish([], [], out, when="organiser", ended=True)

    def final_data(self) -> dict[str, Any]:
        """The final post: the winner and why, every player's roles and fate, every night and day."""
        g = self.game
        players = []
        for p in g.players:
            d = self.deaths.get(p.seat)
            players.append({
                "seat": p.seat, "name": p.name, "start": self.start_roles.get(p.seat, p.role), "role": p.role,
                "alive": p.alive, "out": p.out_reason, "round": d["round"] if d else None, "won": self.won(p.seat),
                "converts": g.names(self.converted.get(p.seat, [])),
            })
        won_criminals = [p.name for p in g.players if p.role == CRIMINAL and self.won(p.seat)]
        return {"winner": g.winner, "camps": self.camps, "criminals_won": won_criminals, "reasons": self.reasons, "players": players,
                "nights": self.nights, "days": self.days, "day_executions": self.day_executions,
                "night_executions": self.night_executions_done}

    # --- reporting --------------------------------------------------------------------------------
    def status_data(self, seat: int) -> dict[str, Any]:
        g = self.game
        role = g.player(seat).role
        kind = g.phase.kind
        data: dict[str, Any] = {
            "phase": kind, "round": g.phase.round, "alive": g.player(seat).alive, "role": role,
            "converts": g.names(self.made_drink.get(seat, [])), "sucks": None, "convert": None, "crime_vote": None,
            "crime_vote_open": False, "vote": None, "hungry": self.hungry.get(seat, 0), "starve_nights": self.params.starve_nights,
        }
        if kind == "night" and role in BITERS:
            plan = self.plans.of(seat, SUCK)
            conv = self.plans.of(seat, CONVERT)
            ballot = self.crime_vote.ballot_of(seat) if self.crime_vote is not None else None
            data.update(sucks=g.names(plan.targets) if plan else None, convert=g.name(conv.targets[0]) if conv else None,
                        crime_vote_open=self.crime_vote is not None,
                        crime_vote=g.names(ballot.choices) if ballot else None)
        if kind == "day":
            day_ballot = self.vote.ballot_of(seat)
            data["vote"] = g.name(day_ballot.choices[0]) if day_ballot else None
        return data

    def summary(self) -> dict[str, Any]:
        return {"winner": self.game.winner, "camps": self.camps, "reasons": self.reasons,
                "day_executions": self.day_executions, "night_executions": self.night_executions_done}

