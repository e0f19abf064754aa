"""夜访吸血鬼 (interview_vampire): vampires that feed, kill over two nights, convert, starve and turn criminal.

Rulebook: 《夜访吸血鬼》 (its clauses are quoted where they are applied); rulings where it is open, for players
and organisers: docs/interview_vampire.md.

Timeline: a prologue (role PMs; no commands), then night 1, day 1, night 2, day 2... Each is a phase with
its own deadline and post. At night every vampire and criminal vampire (a *biter*) acts alone by PM (the
declarations: :mod:`~forumbot.rulesets.interview_vampire.actions`). Nothing takes effect before dawn, when
the night is resolved all at once (:meth:`InterviewVampire._dawn`); then each biter gets one private dawn
report and the thread is told only the names of the dead. The day is an open vote in the thread; the top
name is put in the sun and dies at nightfall if he is a vampire or a criminal
(:mod:`~forumbot.rulesets.interview_vampire.day`).

No role is revealed before the final post, which reveals everything (who sucked whom, conversions,
crimes, the criminal votes): :mod:`~forumbot.rulesets.interview_vampire.views`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from forumbot.engine.dawn import DawnReports, NightPlans
from forumbot.engine.game import Game, SetupError
from forumbot.engine.ruleset import Closer, Ruleset, register
from forumbot.engine.types import Step, Winner
from forumbot.engine.votes import Vote
from forumbot.rulesets.interview_vampire import actions, crimes, day, two_nights, views
from forumbot.rulesets.interview_vampire import events as ev
from forumbot.rulesets.interview_vampire.actions import ACTIONS, CONVERT, DAY_VOTE, SUCK
from forumbot.rulesets.interview_vampire.params import InterviewVampireParams
from forumbot.rulesets.interview_vampire.roles import BITERS, CRIMINAL, HUMAN, ROLES, VAMPIRE


@register
class InterviewVampire(Ruleset):
    """The interview_vampire ruleset (see the module docstring)."""

    id = "interview_vampire"
    day_rounds = True  # 「第 1 夜」「第 1 天」
    #: a vampire's night brief and dawn report (whom he bit, who drank), a conversion's role PM (``role``)
    knowledge = frozenset({"interview_vampire/night_brief", "interview_vampire/dawn_report"})
    rules_version = "2"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = InterviewVampireParams
    roles: ClassVar[dict[str, str]] = ROLES
    default_role = HUMAN
    phase_kinds = ("prologue", "night", "day")
    min_players = 5
    table_players = (12, 13)  # 《夜访吸血鬼》: 12-13 players, one vampire at the start
    actions = ACTIONS
    closers: ClassVar[dict[str, str | Closer]] = {"prologue": "_close_prologue", "night": "_dawn", "day": day.close_day}
    on_thread_command = day.on_thread_command

    role_reply_data, status_extras, final_data, summary = (
        views.role_reply_data, views.status_extras, views.final_data, views.summary)

    def __init__(self, game: Game, params: InterviewVampireParams) -> None:
        super().__init__(game, params)
        self.params: InterviewVampireParams = params
        self.plans = NightPlans()
        self.reports = DawnReports()
        self.crime_vote: Vote | None = None
        self.vote = Vote(DAY_VOTE)
        self.records: dict[int, two_nights.Record | None] = {}
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
        """「游戏刚开始的时候仅有1名吸血鬼」 (the season may deal more), the rest humans; vampires must be fewer
        than half."""
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
               **views.rule_data(self))

    # --- the thread -------------------------------------------------------------------------------
    def thread_vote(self) -> Vote | None:
        """The day vote while it is open: 「白天的投票仍是明投」, posted in the thread."""
        return self.vote if self.game.phase.kind == "day" else None

    # --- night ------------------------------------------------------------------------------------
    def biters(self) -> list[int]:
        """Living vampires and criminals, in seat order."""
        return [p.seat for p in self.game.players if p.alive and p.role in BITERS]

    def _close_prologue(self, out: Step) -> None:
        self.open_night(1, out)

    def open_night(self, round_: int, out: Step) -> None:
        """Nightfall: the orders of the last night lapse; the criminal vote opens
        (:mod:`~forumbot.rulesets.interview_vampire.crimes`); each biter is briefed by PM."""
        g = self.game
        g.open_phase("night", round_, round_, out)
        self.plans.clear()
        self.crime_vote = crimes.open_vote(self)
        g.post("interview_vampire/night_open", out, round=round_, alive=g.names(g.alive()))
        for seat in self.biters():
            g.reply(seat, "interview_vampire/night_brief", out, **views.night_brief(self, seat, round_))

    def _dawn(self, out: Step) -> None:
        """The night is resolved all at once, from the roles and the living as they were at nightfall (「天亮时」):

        - sucks: 「如果几个吸血鬼夜间都去吸同一个人的血，视为这几个吸血鬼都吸血失败」, and 「如果一个平民在夜间被转化
          为吸血鬼，那么此夜其他试图吸这个平民的血的吸血鬼都将被视为吸血失败」; every other suck succeeds;
        - fed: successful sucks reach the need (:func:`~forumbot.rulesets.interview_vampire.actions.need`);
          「连续两夜（或者三夜…）都吸不到足够人数的血，这个吸血鬼会〖饿死〗」 (``starve_nights``);
        - crimes: a vampire who sucked a vampire 「从下一天天亮起就转变为犯罪的吸血鬼」 (「吸血鬼吸犯罪的吸血鬼的血，
          不算吸同类的血」);
        - kills (:mod:`~forumbot.rulesets.interview_vampire.two_nights`), but 「吸血鬼在转化同伴的夜晚，他吸其他人的血不会产生杀死人的效果」, and
          「一旦吸血鬼杀人或转化同伴成功，所有连续吸血的记录就都被清零」 (a failed conversion restarts it too:
          docs/interview_vampire.md);
        - the criminal vote: the top name, if a criminal, is executed (:mod:`~forumbot.rulesets.interview_vampire.crimes`).

        Then 「天神会在每天天亮时秘密通知吸血鬼他昨夜是否喝满了血」 (one private report each), the converted get
        their new role PM, the thread is told the names of the dead, and the win check."""
        g, p = self.game, self.params
        round_ = g.phase.round
        biters = self.biters()
        role_then = {pl.seat: pl.role for pl in g.players}
        alive_then = set(g.alive())
        converted, convert_log = two_nights.conversions(self, biters, role_then, alive_then)
        contested = self.plans.contested(SUCK, among=biters)
        fed: dict[int, bool] = {}
        new_criminals: list[int] = []
        kills: dict[int, int] = {}
        starved: list[int] = []
        entries = []
        for b in biters:
            converting = b in convert_log
            names = tuple(t for t in self.plans.targets(b, SUCK) if t in alive_then)
            success = frozenset(t for t in names if t not in contested and not (t in converted and converted[t] != b))
            need = actions.need(self, b)  # read before the conversions and crimes take effect below
            fed[b] = len(success) >= need
            crime = role_then[b] == VAMPIRE and any(role_then[t] == VAMPIRE for t in success)
            if crime:
                new_criminals.append(b)
            killed = None if converting else two_nights.kill(self, b, names, success)
            if killed is not None:
                kills[b] = killed
            self.records[b] = None if (converting or killed is not None) else two_nights.Record(
                names, success, {t: role_then[t] for t in names})
            self.hungry[b] = 0 if fed[b] else self.hungry.get(b, 0) + 1
            starves = self.hungry[b] >= p.starve_nights
            if starves:
                starved.append(b)
            self.last_night[b] = {"round": round_, "names": names, "fed": fed[b], "converting": converting}
            entries.append(views.biter_night(self, b, role_then[b], names, success, contested, convert_log.get(b),
                                             need=need, fed=fed[b], crime=crime, killed=killed, starved=starves))
        executed, leading, counts = crimes.tally(self, role_then, alive_then)
        # the effects, all at once
        for b in new_criminals:
            g.player(b).role = CRIMINAL
            self.ever_criminals.append(b)
        for t, v in converted.items():
            g.player(t).role = VAMPIRE  # 「转化从下一天天亮时开始生效」
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
        self.nights.append(views.night_record(self, entries, converted, new_criminals, executed, counts, sorted(deaths)))
        out.events.append(ev.Dawn(round=round_, fed={str(b): f for b, f in fed.items()},
                                  converted={str(t): v for t, v in converted.items()}, criminals=new_criminals,
                                  kills={str(b): t for b, t in kills.items()}, starved=starved, executed=executed,
                                  dead=sorted(deaths)))
        views.send_dawn_reports(self, biters, fed, new_criminals, converted, leading, out)
        for t in sorted(converted):
            g.reply(t, "interview_vampire/role", out, **self.role_reply_data(t, converted=True))
        # the text's share rule counts dawns running (「“保持两夜”指的是两夜过后的天亮时杀手比重仍然符合条件」)
        self.share_streak = self.share_streak + 1 if len(g.living(VAMPIRE)) > p.vampire_share * len(g.alive()) else 0
        dead = g.names(sorted(deaths))
        if self.finish_if_won(out, dead_now=dead, when="dawn"):
            return
        if round_ >= p.max_nights:
            self._finish([], ["max_nights"], out, dead_now=dead, when="dawn")
            return
        day.open_day(self, round_, dead, out)

    # --- day --------------------------------------------------------------------------------------
    # --- winning ----------------------------------------------------------------------------------
    def win_check(self) -> tuple[Winner, str] | None:
        """``(winner, reasons joined by ",")`` when the game is over as it stands (:meth:`camps_check`,
        :meth:`_winner`), else None."""
        camps, reasons, over = self.camps_check()
        return (self._winner(camps), ",".join(reasons)) if over else None

    def camps_check(self) -> tuple[list[str], list[str], bool]:
        """(camps that win, reasons, game over). 胜利条件:

        - 【人类】「场上所有吸血鬼出局（不含犯罪的吸血鬼）；或者人类在白天的投票中累计处决了四名吸血鬼和犯罪的吸血鬼」
          (``human_executions``);
        - 【吸血鬼】 ``vampire_rule`` "final": 「只要有吸血鬼活进4人局，且存活的犯罪的吸血鬼最多只有1人」; "text":
          「活着的吸血鬼的人数…超过所有活着的玩家的人数的1/4，且保持两夜，同时半数的犯罪的吸血鬼已经出局…；或者吸血鬼在
          夜间的投票中累计处决了三名犯罪的吸血鬼」;
        - 【共同获胜】「人类和吸血鬼两个阵营同时达到胜利条件，也可以共同获胜」.

        A camp with no living member cannot win; when neither camp has a living member the game is over
        with no camp winning (docs/interview_vampire.md)."""
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

    def finish_if_won(self, out: Step, dead_now: list[str] | None = None, when: str = "") -> bool:
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
        criminals when one is alive (【平局】「活到游戏结束的犯罪的吸血鬼单独获胜。如果也没有犯罪的吸血鬼存活，则判为
        平局」), else "draw"."""
        if len(camps) == 2:
            return [HUMAN, VAMPIRE]
        if camps:
            return camps[0]
        return CRIMINAL if self.game.living(CRIMINAL) else "draw"

    def won(self, seat: int) -> bool:
        """Did ``seat`` win? Members of a winning camp (living or dead, by their last role) win; a criminal
        wins when alive at the end (【犯罪的吸血鬼】「每个犯罪的吸血鬼成功活到游戏结束，就视为这个犯罪的吸血鬼获胜」);
        nobody wins an organiser's end."""
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
        self.finish_if_won(out, when="penalty")

    def end_now(self, out: Step) -> None:
        self._finish([], [], out, when="organiser", ended=True)
