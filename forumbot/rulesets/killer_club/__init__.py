"""殺人遊戲 (killer_club): the club game of 殺手 / 警察 / 護士 / 殺助 / 水民, night actions by private message.

Rulebook: ``shared/seeds/004_5ab5d5b6b9eb9ce6.txt``; rulings: ``shared/seeds/README.md`` § killer_club;
for players and organisers: ``docs/killer_club.md``.

Timeline: a prologue (role PMs; no commands), then night 1, day 1, night 2, day 2... Each of these is a
phase with its own deadline and post: ``night`` (round r), ``vote`` (the day vote of day r), up to two
``runoff`` phases among the tied, and a ``choice`` phase when the third vote ties and that night's
victim names one of the tied to die with him. The shared mechanics are the engine's:
:mod:`forumbot.engine.night` (team orders relayed to teammates, once-a-night answers, no-repeat rules),
:mod:`forumbot.engine.votes` (the day vote and its run-offs, declared in :data:`DAY_VOTE`), :mod:`forumbot.engine.lastwords` (the first N
deaths), :mod:`forumbot.engine.speaking` (the day's speaking order), :mod:`forumbot.engine.series`
(standings and the first-night victim rule across a series of games).

No role is revealed before the final post, not even at death.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from forumbot.engine.actions import Action, Count, Refusal, act, living, named, not_self
from forumbot.engine.game import Game, SetupError
from forumbot.engine.lastwords import FirstDeaths
from forumbot.engine.night import NightActions, tell
from forumbot.engine.orders import Order
from forumbot.engine.ruleset import Params, Ruleset, register
from forumbot.engine.series import repeated_victim
from forumbot.engine.speaking import speaking_order
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote, VoteOutcome, VoteRule
from forumbot.language.types import Command
from forumbot.rulesets.killer_club import events as ev

KILLER, POLICE, HELPER, NURSE, CIVILIAN = "killer", "police", "helper", "nurse", "civilian"
ROLES = (KILLER, POLICE, HELPER, NURSE, CIVILIAN)
#: The two sides: the helper plays for the killers; the nurse and the civilians for the police.
FACTION = {KILLER: KILLER, HELPER: KILLER, POLICE: POLICE, NURSE: POLICE, CIVILIAN: POLICE}
#: Commands of each role at night (the day vote is everyone's).
NIGHT_VERBS = {KILLER: ["kill"], POLICE: ["check"], HELPER: ["check"], NURSE: ["ask", "save"], CIVILIAN: []}
#: The day vote (README § killer_club): 「one vote each, no abstention; the most votes is executed. A tie: the
#: tied players plead and everyone alive votes again, among the tied only; tied again: everyone speaks again
#: and a third vote among the tied; a third tie: that night's victim names one of the tied to die with them
#: ... No night victim that night: nobody is executed (config: a seeded draw among the tied)」. ``votes`` and
#: the last tie's policy (the night victim as chooser, else ``tie_fallback``; ``tie_fallback`` again when the
#: chooser names nobody in time) are set when the day opens.
DAY_VOTE = VoteRule("day vote", votes=3, last_tie="chooser", change="first_stands", abstain=False)


def preset_counts(n: int) -> dict[str, int]:
    """The role counts for ``n`` players (the judge not counted), as the rulebook's note 1 scales them:

    ====== ======= ====== ====== ===== =========
    n      killers police helper nurse civilians
    ====== ======= ====== ====== ===== =========
    6–7    1       1      0      0     n − 2
    8–12   2       2      0      0     n − 4
    13–16  3       3      1      1     n − 8
    17–20  4       4      1      1     n − 10
    21–24  5       5      1      1     n − 12
    ====== ======= ====== ====== ===== =========

    and on: one more killer and one more police for every 4 players from 13 (14 is the standard
    game: 3, 3, 1, 1, 6; about 10 players: 2 killers, 2 police, no helper, no nurse).
    """
    if n < 8:
        k, extras = 1, 0
    elif n <= 12:
        k, extras = 2, 0
    else:
        k, extras = 3 + (n - 13) // 4, 1
    return {KILLER: k, POLICE: k, HELPER: extras, NURSE: extras, CIVILIAN: n - 2 * k - 2 * extras}


def last_words_limit(killers: int, n_players: int) -> int:
    """N, the number of first deaths that leave last words (note 4): the number of killers at the
    start, or 3 with 2 killers and 11–12 players."""
    if killers == 2 and n_players in (11, 12):
        return 3
    return killers


class SeriesParams(BaseModel):
    """A game in a series with the same roster. ``previous_first_victims``: the first-night victims
    of the series' earlier games, oldest first (a name, or null when nobody died on night 1);
    ``limit``: the same player may not be the first-night victim this many games running."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    previous_first_victims: tuple[str | None, ...] = ()
    limit: int = Field(3, ge=2)


class KillerClubParams(Params):
    """Season parameters of killer_club; defaults are the rulebook's (README rulings marked config)."""

    killers: int | None = Field(None, ge=1, description="killers (default: the preset for the player count)")
    police: int | None = Field(None, ge=1, description="police (default: the preset)")
    helper: int | None = Field(None, ge=0, le=1, description="killer helper, 0 or 1 (default: the preset)")
    nurse: int | None = Field(None, ge=0, le=1, description="nurse, 0 or 1 (default: the preset)")
    last_words: int | None = Field(None, ge=0, description="first deaths that leave last words (default: note 4)")
    will_phases: int = Field(1, ge=0, description="phases after a death in which the last words may be posted")
    vote_in_thread: bool = Field(False, description="day votes are posted in the thread instead of sent by PM")
    votes: int = Field(3, ge=1, description="votes in a day before the last-tie rule (the first + run-offs)")
    tie_fallback: Literal["nobody", "draw"] = Field(
        "nobody", description="last tie with no night victim (or no choice in time): nobody dies, or a seeded draw")
    series: SeriesParams = Field(default_factory=SeriesParams, description="the series this game belongs to")


# --- the actions (forumbot.engine.actions): who may do what, when, on whom ------------------------------
def _already_checked(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """One check a night per team (police; helper): the second is told the first's answer."""
    g = rs.game
    role = g.player(seat).role
    done = rs.night.once(f"check:{role}")
    if done is None:
        return None
    return Refusal("already_checked", {
        "target": g.name(done.target), "by": g.name(done.actor),
        "is_killer": g.player(done.target).role == KILLER if role == POLICE or rs.helper_waiting is None else None})


def _already_asked(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    done = rs.night.once("ask")
    if done is None:
        return None
    return Refusal("already_asked", {"target": rs.game.name(done.target), "is_police": rs.game.player(done.target).role == POLICE})


def _ask_before_save(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """The nurse may not ask once she has saved someone tonight."""
    return Refusal("ask_after_save") if rs.night.of(NURSE) is not None else None


def _already_voted(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    existing = rs.vote.ballot_of(seat)
    if existing is None or rs.vote.allow_change:
        return None
    return Refusal("already_voted", {"target": rs.game.name(existing.choices[0])})


_HEAD = (Count(1, 1), living())

ACTIONS = (
    Action("kill", ("kill",), "_kill", phases=("night",), roles=(KILLER,),
           targets=(*_HEAD, named("repeat_kill", lambda rs, seat, t: not rs.night.repeats(KILLER, t)),
                    named("series_victim", lambda rs, seat, t: not (rs.game.phase.round == 1 and rs.banned == rs.game.name(t)),
                            limit=lambda rs: rs.params.series.limit)),
           owes=lambda rs, seat: rs.night.of(KILLER) is None),
    Action("check", ("check",), "_check", phases=("night",), roles=(POLICE, HELPER),
           targets=(*_HEAD, not_self("check_self"),  # police know each other (role PM)
                    named("check_teammate", lambda rs, seat, t: not (rs.game.player(seat).role == POLICE == rs.game.player(t).role))),
           again="refused", already=_already_checked,
           owes=lambda rs, seat: rs.game.player(seat).role == POLICE and rs.night.once("check:police") is None),
    Action("ask", ("ask",), "_ask", phases=("night",), roles=(NURSE,), targets=(*_HEAD, not_self("ask_self")),
           again="refused", already=_already_asked, checks=(_ask_before_save,)),
    Action("save", ("save",), "_save", phases=("night",), roles=(NURSE,),
           targets=(*_HEAD, named("repeat_save", lambda rs, seat, t: not rs.night.repeats(NURSE, t))),
           owes=lambda rs, seat: rs.night.of(NURSE) is None, offers_self=True),
    Action("vote", ("vote",), "_vote", phases=("vote", "runoff"),
           channel=lambda rs: "thread" if rs.params.vote_in_thread else "pm",
           targets=(*_HEAD, named("not_candidate", lambda rs, seat, t: rs.vote.eligible(t),
                                    candidates=lambda rs: rs.game.names(rs.vote.candidates or ()))),
           again="refused", already=_already_voted,
           help=lambda rs, seat: "vote_thread" if rs.params.vote_in_thread else "vote",
           owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
    # the night victim names one of the tied (a dead player's action); ``kill X`` or ``vote X``
    Action("choose", ("kill", "vote"), "_choose", phases=("choice",), alive=None, who=lambda rs, seat: seat == rs.choice_by,
           targets=(Count(1, 1), named("not_candidate", lambda rs, seat, t: t in rs.choice_among and rs.game.player(t).alive,
                                         candidates=lambda rs: rs.game.names(rs.choice_among))),
           again="replaces", owes=lambda rs, seat: rs.choice is None),
)


@register
class KillerClub(Ruleset):
    """The killer_club ruleset (see the module docstring)."""

    id = "killer_club"
    rules_version = "1"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = KillerClubParams
    roles: ClassVar[dict[str, str]] = dict(FACTION)
    default_role = CIVILIAN
    phase_kinds = ("prologue", "night", "vote", "runoff", "choice")
    min_players = 6
    actions = ACTIONS

    def __init__(self, game: Game, params: KillerClubParams) -> None:
        super().__init__(game, params)
        self.params: KillerClubParams = params
        self.night = NightActions()
        self.vote = Vote(replace(DAY_VOTE, votes=params.votes))
        self.first = FirstDeaths(0)
        self.start_counts: dict[str, int] = {}
        self.helper_waiting: Order | None = None
        self.night_victim: int | None = None
        self.last_death: int | None = None
        self.first_night_victim: int | None = None
        self.choice_by: int | None = None
        self.choice_among: tuple[int, ...] = ()
        self.choice: int | None = None
        self.win_reason: str | None = None
        self.nights: list[dict[str, Any]] = []
        self.deaths: list[dict[str, Any]] = []
        self._tonight: dict[str, Any] = {}

    # --- set-up -----------------------------------------------------------------------------------
    def role_counts(self, n_players: int) -> dict[str, int]:
        """The preset for ``n_players`` (:func:`preset_counts`), with the season's overrides;
        civilians fill the rest."""
        counts = preset_counts(n_players)
        p = self.params
        for role, value in ((KILLER, p.killers), (POLICE, p.police), (HELPER, p.helper), (NURSE, p.nurse)):
            if value is not None:
                counts[role] = value
        counts[CIVILIAN] = n_players - sum(counts[r] for r in (KILLER, POLICE, HELPER, NURSE))
        if counts[CIVILIAN] < 0:
            raise SetupError(f"the role counts {counts} need more than {n_players} players")
        return counts

    def start(self, out: Step) -> None:
        g = self.game
        self.start_counts = {r: sum(1 for p in g.players if p.role == r) for r in ROLES}
        if not self.start_counts[KILLER] or not self.start_counts[POLICE]:
            raise SetupError("killer_club needs at least one killer and one police in the draw")
        if 2 * self.start_counts[KILLER] >= len(g.players):
            raise SetupError("killer_club needs fewer killers than other players (else the killers have already won)")
        if self.start_counts[HELPER] > 1 or self.start_counts[NURSE] > 1:
            raise SetupError("killer_club has at most one helper and one nurse")
        limit = self.params.last_words
        if limit is None:
            limit = last_words_limit(self.start_counts[KILLER], len(g.players))
        self.first = FirstDeaths(limit)
        out.events.append(ev.Setup(counts=self.start_counts, last_words=limit, banned_first_victim=self.banned))
        for p in g.players:
            g.reply(p.seat, "killer_club/role", out, **self.role_reply_data(p.seat))
        g.post(
            "killer_club/opening", out, players=[p.name for p in g.players], counts=self.start_counts,
            last_words=limit, vote_in_thread=self.params.vote_in_thread, votes=self.params.votes,
            tie_fallback=self.params.tie_fallback, banned=self.banned,
        )

    @property
    def banned(self) -> str | None:
        """The player the killers may not kill on night 1 (the series rule), if any and in this game."""
        s = self.params.series
        name = repeated_victim(s.previous_first_victims, s.limit)
        return name if name is not None and self.game.seat_of(name) is not None else None

    def team(self, role: str) -> list[int]:
        """Every seat dealt ``role`` (dead included), in seat order."""
        return [p.seat for p in self.game.players if p.role == role]

    def role_reply_data(self, seat: int) -> dict[str, Any]:
        g = self.game
        role = g.player(seat).role
        mates = [s for s in self.team(role) if s != seat] if role in (KILLER, POLICE) else []
        return {
            "name": g.name(seat), "seat": seat, "role": role, "teammates": g.names(mates),
            "players": [p.name for p in g.players], "verbs": NIGHT_VERBS[role], "counts": self.start_counts,
            "vote_in_thread": self.params.vote_in_thread, "last_words": self.first.limit,
            "example": g.name(next((p.seat for p in g.players if p.seat != seat and p.seat not in mates), seat)),
        }

    # --- commands ---------------------------------------------------------------------------------
    # Every check of who may act, when and on whom is declared in ACTIONS (module level, above the class);
    # the handlers only carry out what passed.
    def reads_in_thread(self, verb: str) -> bool:
        """With ``vote_in_thread`` a vote posted in the thread counts; every other command goes by PM."""
        return verb == "vote" and self.params.vote_in_thread

    def thread_vote(self) -> Vote | None:
        """With ``vote_in_thread``, the day vote (or run-off) while it is open."""
        if self.params.vote_in_thread and self.game.phase.kind in ("vote", "runoff"):
            return self.vote
        return None

    def on_thread_post(self, seat: int, text: str, out: Step) -> None:
        """Last words and dead players' posts (the engine's rule); with ``vote_in_thread``, a living
        player's post that is a vote command is his vote. Any other post is talk."""
        g = self.game
        if not g.player(seat).alive:
            g.dead_player_post(seat, out)
            return
        if not self.params.vote_in_thread:
            return
        cmd = g.read_thread(seat, text, {"vote", "unvote", "nolynch"})
        g.thread_error(seat, cmd, out)
        if isinstance(cmd, Command) and not g.vote_command(seat, cmd, out):
            act(self, seat, cmd, out, "thread")

    def may_leave_will(self, seat: int) -> bool:
        """The engine's last-words hook: only the first N players to die."""
        return self.first.allowed(seat)

    def _kill(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        previous = self.night.of(KILLER)
        mates = [s for s in self.team(KILLER) if s != seat and g.player(s).alive]
        g.reply(
            seat, "killer_club/order_recorded", out, verb="kill", round=g.phase.round, target=g.name(target),
            replaced=g.name(previous.target) if previous and previous.target != target else None, relayed=g.names(mates),
            read_as=g.read_as(cmd),
        )
        self.night.order(g, KILLER, self.team(KILLER), Order(seat, "kill", target), out, "killer_club/order_relayed", round=g.phase.round)
        if self.helper_waiting is not None:
            self._answer_helper(out)

    def _check(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        role = g.player(seat).role
        key = f"check:{role}"
        order = Order(seat, "check", target)
        self.night.use(key, order)
        self._tonight[key] = order
        out.events.append(ev.Check(role=role, seat=seat, target=target, round=g.phase.round))
        if role == POLICE:
            living = [s for s in self.team(POLICE) if g.player(s).alive]
            tell(
                g, living, "killer_club/check_result", out, role=POLICE, by=g.name(seat), target=g.name(target),
                is_killer=g.player(target).role == KILLER, round=g.phase.round, read_as=g.read_as(cmd),
            )
        elif self.night.of(KILLER) is not None:
            self.helper_waiting = order
            self._answer_helper(out, read_as=g.read_as(cmd))
        else:
            self.helper_waiting = order
            g.reply(seat, "killer_club/check_waiting", out, target=g.name(target), round=g.phase.round, read_as=g.read_as(cmd))

    def _answer_helper(self, out: Step, read_as: list[dict[str, str]] | None = None) -> None:
        """The helper's check, answered once the killers have ordered the night's kill (or at the
        night's deadline when they never do)."""
        g = self.game
        order, self.helper_waiting = self.helper_waiting, None
        if order is None or not g.player(order.actor).alive:
            return
        g.reply(
            order.actor, "killer_club/check_result", out, role=HELPER, by=g.name(order.actor), target=g.name(order.target),
            is_killer=g.player(order.target).role == KILLER, round=g.phase.round, read_as=read_as or [],
        )

    def _ask(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        order = Order(seat, "ask", target)
        self.night.use("ask", order)
        self._tonight["ask"] = order
        out.events.append(ev.Ask(seat=seat, target=target, round=g.phase.round))
        g.reply(seat, "killer_club/ask_result", out, target=g.name(target), is_police=g.player(target).role == POLICE,
                round=g.phase.round, read_as=g.read_as(cmd))

    def _save(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        previous = self.night.order(g, NURSE, [seat], Order(seat, "save", target), out, "killer_club/order_relayed")
        g.reply(seat, "killer_club/save_recorded", out, target=g.name(target), myself=target == seat,
                replaced=g.name(previous.target) if previous and previous.target != target else None, round=g.phase.round,
                read_as=g.read_as(cmd))

    def _vote(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        self.vote.cast(seat, (target,))
        out.events.append(ev.Ballot(round=g.phase.round, number=self.vote.number, voter=seat, choice=target))
        g.reply(seat, "killer_club/vote_recorded", out, round=g.phase.round, number=self.vote.number,
                target=g.name(target), read_as=g.read_as(cmd))

    def _choose(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        previous, self.choice = self.choice, target
        out.events.append(ev.VictimChoice(seat=seat, chosen=target))
        g.reply(seat, "killer_club/choice_recorded", out, target=g.name(target),
                replaced=g.name(previous) if previous and previous != target else None, read_as=g.read_as(cmd))

    # --- phases -----------------------------------------------------------------------------------
    closers: ClassVar[dict[str, str]] = {
        "prologue": "_close_prologue", "night": "_close_night", "vote": "_close_vote", "runoff": "_close_vote",
        "choice": "_close_choice",
    }

    def _close_prologue(self, out: Step) -> None:
        self._open_night(1, out)

    def _open_night(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("night", round_, round_, out)
        self.night_victim = None
        self._tonight = {}
        c = self.start_counts
        g.post("killer_club/night_open", out, round=round_, alive=g.names(g.alive()),
               helper=c[HELPER] > 0, nurse=c[NURSE] > 0, banned=self.banned if round_ == 1 else None)

    def _close_night(self, out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        if self.helper_waiting is not None:
            self._answer_helper(out)
        standing = self.night.close((KILLER, NURSE))
        kill, save = standing.get(KILLER), standing.get(NURSE)
        if save is not None and not g.player(save.actor).alive:
            save = None
        target = kill.target if kill is not None and g.player(kill.target).alive else None
        saved = target is not None and save is not None and save.target == target
        victim = None if (target is None or saved) else target
        record = {
            "round": round_, "target": g.name(target) if target else None, "saved": saved,
            "save": g.name(save.target) if save else None, "victim": g.name(victim) if victim else None,
        }
        for key, label in (("check:police", "police_check"), ("check:helper", "helper_check"), ("ask", "ask")):
            order = self._tonight.get(key)
            record[label] = g.name(order.target) if order else None
        self.nights.append(record)
        out.events.append(ev.NightClosed(round=round_, target=target, saved=saved, victim=victim))
        if round_ == 1:
            self.first_night_victim = victim
        self.night_victim = victim
        if victim is not None and self._death(victim, "killed", out):
            return
        self._open_day(round_, out)

    def _open_day(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("vote", round_, round_, out)
        victim = self.night_victim
        last_tie = "chooser" if victim is not None else self.params.tie_fallback
        self.vote = Vote(replace(DAY_VOTE, votes=self.params.votes, last_tie=last_tie,
                                 no_choice=self.params.tie_fallback))
        order = speaking_order(g.alive(), self.last_death, len(g.players))
        g.post("killer_club/day_open", out, round=round_, victim=g.name(victim) if victim else None,
               last_words=victim is not None and self.first.allowed(victim), order=g.names(order),
               alive=g.names(g.alive()), vote_in_thread=self.params.vote_in_thread, votes=self.params.votes)

    def _close_vote(self, out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        outcome = self.vote.close(g.alive())
        out.events.append(ev.VoteClosed(round=round_, number=outcome.number, vote_kind=outcome.kind, chosen=outcome.chosen, tied=list(outcome.tied)))
        decision = self.vote.decide(g, outcome, f"tie:{round_}", out)
        result = "choice" if decision.how == "chooser" else decision.how
        chosen = decision.chosen
        if chosen is not None:
            self.first.record(chosen)  # counted now so the post can say whether he leaves last words
        self._post_vote_result(outcome, result, chosen, out)
        if chosen is not None and self._death(chosen, "voted" if result == "decided" else "drawn", out):
            return
        if result == "runoff":
            self.vote.next(outcome.tied)
            g.open_phase("runoff", round_, round_, out)
            order = speaking_order(g.alive(), self.last_death, len(g.players))
            g.post("killer_club/runoff_open", out, round=round_, number=self.vote.number, candidates=g.names(outcome.tied),
                   order=g.names(order), last=self.vote.runoffs_left == 0, vote_in_thread=self.params.vote_in_thread,
                   victim=g.name(self.night_victim) if self.night_victim else None, fallback=self.params.tie_fallback)
        elif result == "choice":
            victim = self.night_victim
            assert victim is not None
            self.choice_by, self.choice_among, self.choice = victim, outcome.tied, None
            g.open_phase("choice", round_, round_, out)
            g.post("killer_club/choice_open", out, round=round_, victim=g.name(victim), candidates=g.names(outcome.tied))
            g.reply(victim, "killer_club/choice_prompt", out, round=round_, candidates=g.names(outcome.tied))
        else:
            self._open_night(round_ + 1, out)

    def _post_vote_result(self, outcome: VoteOutcome, result: str, chosen: int | None, out: Step) -> None:
        g = self.game
        counts = outcome.counts
        g.post(
            "killer_club/vote_result", out, round=g.phase.round, number=outcome.number, result=result,
            ballots=[{"voter": g.name(b.voter), "choice": g.name(b.choices[0])} for b in outcome.ballots],
            counts=[{"name": g.name(s), "votes": int(v)} for s, v in counts],
            chosen=g.name(chosen) if chosen else None, tied=g.names(outcome.tied),
            victim=g.name(self.night_victim) if self.night_victim else None,
            last_words=chosen is not None and self.first.allowed(chosen),
            missing=g.names([s for s in g.alive() if s not in {b.voter for b in outcome.ballots}]),
        )

    def _close_choice(self, out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        choice = self.choice if self.choice is not None and g.player(self.choice).alive else None
        among = [s for s in self.choice_among if g.player(s).alive]
        decision = self.vote.named(g, choice, among, f"choice:{round_}", out)
        how, chosen = decision.how, decision.chosen
        victim = self.choice_by
        self.choice_by, self.choice_among, self.choice = None, (), None
        out.events.append(ev.ChoiceClosed(round=round_, chosen=chosen, how=how))
        if chosen is not None:
            self.first.record(chosen)  # counted now so the post can say whether he leaves last words
        g.post("killer_club/choice_result", out, round=round_, victim=g.name(victim) if victim else None,
               chosen=g.name(chosen) if chosen else None, how=how,
               last_words=bool(chosen and self.first.allowed(chosen)))
        if chosen is not None and self._death(chosen, "chosen" if how == "named" else "drawn", out):
            return
        self._open_night(round_ + 1, out)

    # --- deaths and the end -----------------------------------------------------------------------
    def _death(self, seat: int, how: str, out: Step) -> bool:
        """``seat`` dies (by night or by vote): counted for last words, then the win check. True when
        the game is over."""
        g = self.game
        g.remove(seat, how, out)
        self.first.record(seat)
        self.last_death = seat
        self.deaths.append({"round": g.phase.round, "seat": seat, "how": how})
        return self.check_win(out)

    def win_check(self) -> tuple[str, str] | None:
        """(winner, reason) when a side has won, else None. All killers dead: the police side;
        killers at least as many as everyone else alive, all police dead, or all civilians dead:
        the killer side (a role nobody was dealt never counts as "all dead")."""
        g = self.game
        alive = g.alive()
        killers = len(g.living(KILLER))
        if killers == 0:
            return POLICE, "killers_dead"
        if killers >= len(alive) - killers:
            return KILLER, "killers_outnumber"
        if self.start_counts.get(POLICE) and not g.living(POLICE):
            return KILLER, "police_dead"
        if self.start_counts.get(CIVILIAN) and not g.living(CIVILIAN):
            return KILLER, "civilians_dead"
        return None

    def on_removed(self, seat: int, out: Step) -> None:
        """A player removed by the organiser: the win check (he leaves no last words)."""
        g = self.game
        if g.finished:
            return
        if self.helper_waiting is not None and self.helper_waiting.actor == seat:
            self.helper_waiting = None
        self.check_win(out)

    def end_now(self, out: Step) -> None:
        self.finish_game(None, None, out)

    def final_data(self) -> dict[str, Any]:
        """The final post: the winner and why, every player's role and fate, and each night's actions."""
        g = self.game
        died = {d["seat"]: d for d in self.deaths}
        players = []
        for p in g.players:
            d = died.get(p.seat)
            players.append({
                "seat": p.seat, "name": p.name, "role": p.role, "faction": FACTION[p.role], "alive": p.alive,
                "out": p.out_reason, "round": d["round"] if d else None,
                "won": g.winner is not None and FACTION[p.role] == g.winner,
            })
        return {"winner": g.winner, "reason": self.win_reason, "players": players, "nights": self.nights}

    # --- reporting --------------------------------------------------------------------------------
    def status_data(self, seat: int) -> dict[str, Any]:
        g = self.game
        role = g.player(seat).role
        kind = g.phase.kind
        data: dict[str, Any] = {"phase": kind, "round": g.phase.round, "alive": g.player(seat).alive, "role": role,
                                "teammates": self.role_reply_data(seat)["teammates"], "kill": None, "check": None,
                                "ask": None, "save": None, "vote": None, "choice_due": False, "choice": None}
        if kind == "night":
            kill = self.night.of(KILLER) if role == KILLER else None
            check = self.night.once(f"check:{role}") if role in (POLICE, HELPER) else None
            ask = self.night.once("ask") if role == NURSE else None
            save = self.night.of(NURSE) if role == NURSE else None
            data.update(kill=g.name(kill.target) if kill else None, check=g.name(check.target) if check else None,
                        ask=g.name(ask.target) if ask else None, save=g.name(save.target) if save else None)
        if kind in ("vote", "runoff"):
            ballot = self.vote.ballot_of(seat)
            data["vote"] = g.name(ballot.choices[0]) if ballot else None
        if kind == "choice" and seat == self.choice_by:
            data.update(choice_due=True, choice=g.name(self.choice) if self.choice else None)
        return data

    def summary(self) -> dict[str, Any]:
        g = self.game
        return {
            "winner": g.winner, "reason": self.win_reason,
            "first_night_victim": g.name(self.first_night_victim) if self.first_night_victim else None,
        }
