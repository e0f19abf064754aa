"""人类杀 (human_kill): a reverse werewolf. The humans hide among the youkai and exorcise one player
each day by private vote; each night everyone speaks and votes to banish one suspected human.

Rulebook: 《人类杀》; roles, distribution and weather: its appendix (the same game's public rules); the
rulings on what they leave open are dated (2026-12); for players and organisers: ``docs/human_kill.md``.
This module holds set-up, the core rules' resolution (the day windows, nightfall, the banish vote) and
the win rule; the two optional rules have a module each: ``sage`` (贤者) and ``weather`` (天气, with Iku and
苍天). The package declares the rest: ``params`` (the season's parameters), ``roles`` (roles, factions,
tables, weather), ``votes`` (the three votes), ``actions`` (who may do what), ``orders`` (what an accepted
command records), ``state`` (the day's orders), ``views`` (what posts and replies show), ``events`` (the
facts).

Timeline of round r: the day actors' windows, each its own phase (``remilia``, ``mamizou``,
``exorcism``, ``yukari``, ``doremy``: only those of roles dealt in this game, every day, whether the
holder lives or not, so a window tells nothing); on round 1 with the sage rule ``election``,
``sage_vote`` and perhaps ``sage_pleas`` (the tied speak, may withdraw) and ``sage_runoff``; at
nightfall the day's dead are announced (no cause, no role; under 苍天 first ``souten``, where
volunteers may go out in the place of the dying), perhaps ``succession`` (a sage elected that day and
out names his successor), then ``order`` (the sage picks the speaking order, when there is a sage)
and ``banish`` (speak, then vote), perhaps ``banish_runoff`` (and ``souten`` again when someone is
banished under 苍天). Shared mechanics: :mod:`forumbot.engine.votes` (the exorcism, the banish vote
and the sage election, declared in :mod:`.votes`),
:mod:`forumbot.engine.modifiers` (the weather),
:mod:`forumbot.engine.table` (speaking orders round the table).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from forumbot.engine.game import Game, SetupError
from forumbot.engine.modifiers import chance
from forumbot.engine.ruleset import Closer, Ruleset, register
from forumbot.engine.table import round_table
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote
from forumbot.language.types import Command
from forumbot.rulesets.human_kill import events as ev
from forumbot.rulesets.human_kill import sage, views, weather
from forumbot.rulesets.human_kill.actions import ACTIONS, WINDOW_ROLE, unknown_verb
from forumbot.rulesets.human_kill.params import HumanKillParams
from forumbot.rulesets.human_kill.roles import (
    ALL_GREAT,
    DAY_ORDER,
    DOREMY,
    FACTION,
    HUMAN,
    HUMAN_SIDE,
    IKU,
    MAMIZOU,
    PARSEE,
    REIMU,
    RINNOSUKE,
    ROLES,
    STANDARD,
    TAKERS,
    UTSUHO,
    YOUKAI,
    YUKARI,
    row_counts,
    thirds_counts,
)
from forumbot.rulesets.human_kill.state import Day
from forumbot.rulesets.human_kill.votes import BANISH, EXORCISM, SAGE_ELECTION, SAGE_VOTE_KINDS, VOTE_KINDS

__all__ = ["BANISH", "EXORCISM", "SAGE_ELECTION", "HumanKill", "HumanKillParams"]


@register
class HumanKill(Ruleset):
    """The human_kill ruleset (see the module docstring)."""

    id = "human_kill"
    #: checks, exorcisms, Yukari's target, nightmares, forecasts and the team's relayed orders
    knowledge = frozenset({"human_kill/check_result", "human_kill/exorcise_result", "human_kill/yukari_target",
                           "human_kill/nightmare", "human_kill/foresight", "human_kill/relayed"})
    rules_version = "2"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = HumanKillParams
    roles: ClassVar[dict[str, str]] = dict(FACTION)
    default_role = YOUKAI
    phase_kinds = ("prologue", "iku", "remilia", "mamizou", "exorcism", "yukari", "doremy", "election", "sage_vote",
                   "sage_pleas", "sage_runoff", "succession", "souten", "order", "banish", "banish_runoff")
    min_players = 6
    table_players = (min(STANDARD), max(STANDARD))  # the appendix's table: 6-16 players
    actions = ACTIONS
    role_reply_data = views.role_reply_data
    status_extras = views.status_extras
    final_data = views.final_data
    summary = views.summary
    unknown_verb = unknown_verb
    closers: ClassVar[dict[str, str | Closer]] = {
        "prologue": "_open_first_day", **dict.fromkeys(DAY_ORDER, "_close_window"), "election": sage.close_election,
        **dict.fromkeys(SAGE_VOTE_KINDS, sage.close_vote), "sage_pleas": sage.close_pleas,
        "succession": sage.close_succession, "souten": weather.close_souten, "order": "_open_banish",
        **dict.fromkeys(VOTE_KINDS, "_close_banish")}
    #: The last-words window counts the phases in which players speak in the thread, not the day
    #: windows (no talk by day), the sage votes, nor the sage's order window (ruling 2026-12).
    will_skips = DAY_ORDER + ("sage_vote", "sage_runoff", "succession", "souten", "order")

    def __init__(self, game: Game, params: HumanKillParams) -> None:
        super().__init__(game, params)
        self.params: HumanKillParams = params
        self.counts: dict[str, int] = {}
        self.windows: list[str] = []
        self.seating: list[int] = []
        self.round = 0
        self.weather: str | None = None
        self.weather_shown: str | None = None
        self.weathers: list[dict[str, Any]] = []
        self.day = Day()                      # the day's orders, until the next day
        self.iku_spent = False                # she cancelled a weather: her ability is gone for good
        self.foretold: dict[int, str | None] = {}  # round -> its weather, drawn early because Iku foresaw it
        self.exorcism = Vote(EXORCISM, voters=())
        self.last_disguise: int | None = None
        self.yukari_used: set[str] = set()
        self.nightmare: list[int] = []
        self.takes: dict[int, int] = {}
        self.successor: int | None = None
        self.sage: int | None = None
        self.fresh_sage: int | None = None    # elected this round, before nightfall: no chance yet to name a successor
        self.succession_from: int | None = None  # a fresh sage out at nightfall, choosing his successor now
        self.souten: dict[str, Any] | None = None  # 苍天: the dying, the volunteers, what to do after
        self.election: Vote | None = None     # the sage election
        self.vote = Vote(BANISH)
        self.round_dead: list[int] = []
        self.sealed: dict[int, bool] = {}     # Utsuho banished: seat -> has spoken her one post
        self.out_round: dict[int, int] = {}
        self.deaths: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.win_reason: str | None = None

    # --- set-up -----------------------------------------------------------------------------------
    def table_sizes(self) -> tuple[int, int | None]:
        """The appendix's table (6-16 players), widened by the rows the season's ``params.table`` adds."""
        sizes = set(STANDARD) | set(self.params.table)
        return min(sizes), max(sizes)

    def role_counts(self, n_players: int) -> dict[str, int]:
        """The standard table's row for ``n_players`` (the appendix; a season may replace rows), or the
        rulebook's thirds (准备游戏: 「全体人类、普通妖怪和大妖怪的数量应该近似相当。若出现不是 3 的倍数的情况，
        应该优先加入普通妖怪，其次是大妖怪」); then each ``extra_great`` in an ordinary youkai's place."""
        rng = self.game.rng("distribution")
        row = self.params.table.get(n_players) or STANDARD.get(n_players)
        if self.params.distribution == "thirds" or row is None:
            counts = thirds_counts(n_players, rng)
        else:
            counts = row_counts(row, rng)
        for r in self.params.extra_great:
            if counts[YOUKAI] < 1:
                raise SetupError(f"human_kill: no ordinary youkai left for {r} to replace ({n_players} players)")
            counts[YOUKAI] -= 1
            counts[r] += 1
        if sum(counts.values()) != n_players:
            raise SetupError(f"the human_kill row for {n_players} players deals {sum(counts.values())} roles")
        return counts

    def start(self, out: Step) -> None:
        """Check the draw (a human and a youkai at least; at most one of each special role; Iku only with
        the weather), fix the day windows (the roles dealt, whether their holder lives or not: a window
        tells nothing) and the seating, send the role PMs and post the opening."""
        g = self.game
        self.counts = {r: sum(1 for p in g.players if p.role == r) for r in ROLES}
        if not any(self.counts[r] for r in HUMAN_SIDE) or not any(self.counts[r] for r in (YOUKAI,) + ALL_GREAT):
            raise SetupError("human_kill needs at least one human and one youkai in the draw")
        if self.counts[IKU] and not self.params.weather:
            raise SetupError("human_kill: Iku acts on the weather; deal her only with weather = true")
        for r in ALL_GREAT + (PARSEE, DOREMY, REIMU, RINNOSUKE):
            if self.counts[r] > 1:
                raise SetupError(f"human_kill has at most one {r}")
        self.windows = [w for w in DAY_ORDER if w == "exorcism" or self.counts[WINDOW_ROLE[w]]]
        self.seating = [p.seat for p in g.players]
        out.events.append(ev.Setup(counts=self.counts, windows=self.windows))
        for p in g.players:
            g.reply(p.seat, "human_kill/role", out, **self.role_reply_data(p.seat))
        g.post("human_kill/opening", out, **views.opening_data(self))

    def seats_of(self, *roles: str) -> list[int]:
        return [p.seat for p in self.game.players if p.role in roles]

    def exorcists(self) -> list[int]:
        """Who exorcises today (「人类阵营玩家共同投票选出一名任意未出局玩家并将其退治」): the living humans and
        Reimu; Rinnosuke only as the last human (the appendix)."""
        g = self.game
        team = [s for s in self.seats_of(HUMAN, REIMU) if g.player(s).alive]
        if team:
            return team
        return [s for s in self.seats_of(RINNOSUKE) if g.player(s).alive]

    # --- helpers ----------------------------------------------------------------------------------
    def active(self, seat: int) -> bool:
        """Alive and not a banished Utsuho."""
        return self.game.player(seat).alive and seat not in self.sealed

    def playing(self) -> list[int]:
        return [s for s in self.game.alive() if s not in self.sealed]

    def w(self, name: str) -> bool:
        """Is today's weather ``name``?"""
        return self.params.weather and self.weather == name

    def on_no_lynch(self, seat: int, cmd: Command, out: Step) -> None:
        """No lynch is this rulebook's abstention (弃权): read as ``abstain``."""
        self.on_command(seat, Command("abstain"), out)

    def open_vote(self) -> Vote | None:
        """The banish vote or the sage's, while it is cast."""
        kind = self.game.phase.kind
        if kind in VOTE_KINDS:
            return self.vote
        return self.election if kind in SAGE_VOTE_KINDS else None

    thread_verbs = frozenset({"withdraw"})

    def on_thread_post(self, seat: int, text: str, out: Step) -> bool:
        """The talk rules: last words and dead players' posts (the engine's rule); a banished Utsuho's one
        post; 浓雾: long posts are reported to the organisers. A post they do not spend is then read for
        「退选」 (:attr:`thread_verbs`: in the sage election it withdraws; the engine reads it)."""
        g = self.game
        if super().on_thread_post(seat, text, out):
            return True
        if seat in self.sealed:
            if not self.sealed[seat]:
                self.sealed[seat] = True
                out.events.append(ev.UtsuhoSpeech(seat=seat))
            else:
                out.events.append(ev.SealedPost(seat=seat, name=g.name(seat)))
                for org in g.organisers:
                    g.reply(org, "human_kill/sealed_post", out, player=g.name(seat))
            return True
        if self.w("noumu") and len(text.strip()) > self.params.noumu_limit:
            out.events.append(ev.LongPost(seat=seat, length=len(text.strip())))
            for org in g.organisers:
                g.reply(org, "human_kill/long_post", out, player=g.name(seat), length=len(text.strip()),
                        limit=self.params.noumu_limit)
        return False

    def may_leave_will(self, seat: int) -> bool:
        """The engine's last-words hook: players out in the first ``last_words_rounds`` rounds
        (遗言: 「当一名玩家在前两回合内出局时，该玩家会获得一次发表遗言的机会」)."""
        return self.out_round.get(seat, 99) <= self.params.last_words_rounds

    # --- phases -----------------------------------------------------------------------------------
    def _open_first_day(self, out: Step) -> None:
        self._open_day(1, out)

    def _open_day(self, round_: int, out: Step) -> None:
        self.round = round_
        self.round_dead = []
        self.last_disguise, self.day = self.day.disguise, Day()
        self.weather = self.weather_shown = None
        if self.windows[0] == "iku":
            # Iku acts before the weather is announced: the day's first post is her window, without the
            # weather; the weather comes with the next window (or is cancelled).
            return self.open_window("iku", out, first=True)
        weather.open_day(self, self.windows[0], out)

    def open_window(self, kind: str, out: Step, first: bool = False, reshuffled: bool = False,
                     cancelled: bool = False) -> None:
        g = self.game
        g.open_phase(kind, self.round, self.round, out)
        data: dict[str, Any] = {}
        if kind == "exorcism":
            self.exorcism = Vote(replace(EXORCISM, last_tie=self.params.exorcise_tie), voters=tuple(self.exorcists()))
        if kind == "yukari":
            for s in g.living(YUKARI):
                g.reply(s, "human_kill/yukari_target", out, round=self.round,
                        target=g.name(self.day.exorcised) if self.day.exorcised else None, kaisei=self.w("kaisei"),
                        save_left="save" not in self.yukari_used, kill_left="kill" not in self.yukari_used)
        if cancelled:
            data["cancelled"] = True
        g.post("human_kill/window", out, kind=kind, round=self.round, first=first, weather=self.weather_shown if first else None,
               seating=g.names(self.seating) if reshuffled else None, alive=g.names(g.alive()), **data)

    def _close_window(self, out: Step) -> None:
        """A day window closes: the exorcism is decided, Iku's choice takes effect; the next window opens
        (the first after Iku's with the day's weather), or the sage election on round 1, or nightfall."""
        kind = self.game.phase.kind
        if kind == "exorcism":
            self._close_exorcism(out)
        i = self.windows.index(kind)
        if kind == "iku":
            cancelling = self.day.iku_choice == "cancel" and bool(self.game.living(IKU))
            weather.close_iku(self, out)
            return weather.open_day(self, self.windows[i + 1], out, cancelled=cancelling)
        if i + 1 < len(self.windows):
            return self.open_window(self.windows[i + 1], out)
        if self.round == 1 and self.params.sage and self.election is None:
            return sage.open_election(self, out)
        self.nightfall(out)

    def _close_exorcism(self, out: Step) -> None:
        """The humans' choice is decided (:data:`.votes.EXORCISM`; 「若所有人类阵营玩家弃票，则本回合将不会有
        玩家遭到退治」); Mamizou's disguise of the target protects him (not under 快晴; 烈日 may foil it).
        The target goes out at nightfall (「被退治的玩家将会在夜幕降临时被宣布出局」)."""
        g = self.game
        outcome = self.exorcism.close(g.alive())
        decision = self.exorcism.decide(g, outcome, f"exorcise:{self.round}", out)
        target = decision.chosen
        how = {"decided": "plurality", "drawn": "drawn", "nobody": "tie"}.get(
            decision.how, "abstained" if outcome.ballots else "no_votes")
        protected = False
        if target is not None and target == self.day.disguise and not self.w("kaisei") and g.living(MAMIZOU):
            protected = not weather.fails(self, "disguise", target, out)
        self.day.exorcised = None if (target is None or protected) else target
        out.events.append(ev.ExorcismClosed(round=self.round, target=target, how=how, protected=protected))
        self.log.append({"round": self.round, "action": "exorcise", "target": g.name(target) if target else None,
                         "how": how, "protected": protected,
                         "disguise": g.name(self.day.disguise) if self.day.disguise else None})
        for s in self.exorcism.voters or ():
            if g.player(s).alive:
                g.reply(s, "human_kill/exorcise_result", out, round=self.round, target=g.name(target) if target else None,
                        how=how, tied=g.names(outcome.tied))

    # --- nightfall ----------------------------------------------------------------------------------
    def nightfall(self, out: Step) -> None:
        """The day's actions take effect: the exorcised goes out unless Yukari saved him; Yukari's border
        kills; Doremy's dreams catch the living she named (each may fail under 烈日); those Reimu and Yuuka
        take go with them. Under 苍天 volunteers may first stand in for the dying; then the dead are
        announced (「在一个夜晚开始时，立刻公布所有在白天死亡的玩家」)."""
        g = self.game
        dying: list[tuple[int, str]] = []
        if self.day.exorcised is not None:
            saved: bool | list[int] = self.day.yukari_save == self.day.exorcised and g.living(YUKARI)
            if saved:
                self.yukari_used.add("save")
                saved = not weather.fails(self, "save", self.day.exorcised, out)
            if self.day.yukari_save is not None:
                self.log.append({"round": self.round, "action": "yukari_save", "target": g.name(self.day.exorcised),
                                 "saved": bool(saved)})
            if not saved:
                dying.append((self.day.exorcised, "exorcised"))
        if self.day.yukari_kill is not None and g.living(YUKARI):
            self.yukari_used.add("kill")
            ok = not weather.fails(self, "kill", self.day.yukari_kill, out)
            self.log.append({"round": self.round, "action": "yukari_kill", "target": g.name(self.day.yukari_kill), "ok": ok})
            if ok and g.player(self.day.yukari_kill).alive:
                dying.append((self.day.yukari_kill, "border"))
        if self.day.dream and g.living(DOREMY):
            caught = [t for t in self.day.dream if g.player(t).alive and not weather.fails(self, "dream", t, out)]
            self.log.append({"round": self.round, "action": "dream", "targets": g.names(self.day.dream), "caught": g.names(caught)})
            for t in caught:
                if t not in self.nightmare:
                    self.nightmare.append(t)
            for t in caught:
                g.reply(t, "human_kill/nightmare", out, round=self.round, others=g.names([c for c in caught if c != t]))
        chain = self._with_takes(dying)
        if chain and self.w("souten"):
            return weather.open_souten(self, chain, "nightfall", out)
        self.settle_nightfall(chain, out)

    def settle_nightfall(self, chain: list[tuple[int, str]], out: Step,
                          subs: list[tuple[int, int]] | None = None) -> None:
        """The day's dead go out (``chain``: who and why, takes included; ``subs``: 苍天's
        substitutions, already announced with the dead when not None), then the win check, the
        succession of a sage elected today, the sage's order and the banish vote."""
        dead = self.remove_all(chain, out)
        self.fresh_sage = None
        self.round_dead = sorted(dead)
        if subs is not None:
            weather.post_souten_result(self, dead, subs, out)
        if self.check_win(out):
            return
        self.night_order(out, announce=subs is None)

    def night_order(self, out: Step, announce: bool) -> None:
        """After the nightfall deaths: the succession window of a sage elected today who is out, the
        sage's order window, or straight to the banish vote. ``announce``: the post names the dead."""
        if self.succession_from is not None:
            return sage.open_succession(self, out, announce)
        if self.sage is not None and not self.w("tenkiame") and not self.w("donten"):
            return sage.open_order(self, out, announce)
        self._open_banish(out, announce=announce)

    def will(self, seats: list[int]) -> list[str]:
        return [self.game.name(s) for s in seats if self.may_leave_will(s)]

    def _with_takes(self, dying: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """``dying`` (seat, cause), the living only, each once, followed by those Reimu and Yuuka
        take with them (cause "taken"; not when they die by Yukari's border), in order."""
        g = self.game
        chain: list[tuple[int, str]] = []
        queue = list(dying)
        while queue:
            seat, how = queue.pop(0)
            if not g.player(seat).alive or any(seat == c for c, _ in chain):
                continue
            chain.append((seat, how))
            if g.player(seat).role in TAKERS and how != "border":
                t = self.takes.get(seat)
                if t is not None and g.player(t).alive:
                    queue.append((t, "taken"))
        return chain

    def remove_all(self, chain: list[tuple[int, str]], out: Step) -> list[int]:
        """Remove every one of ``chain`` (seat, cause) at once (「当多名玩家同时死亡时，他们将同时发表各自的遗言」)
        and settle the sage's title (:func:`.sage.leaves`). Returns every seat removed."""
        g = self.game
        removed: list[int] = []
        for seat, how in chain:
            if not g.player(seat).alive:
                continue
            g.remove(seat, how, out)
            self.sealed.pop(seat, None)
            removed.append(seat)
            self.out_round[seat] = self.round
            self.deaths.append({"round": self.round, "seat": seat, "how": how})
        if self.sage in removed:
            sage.leaves(self, out)
        return removed

    def _speaking_order(self) -> list[int]:
        """Tonight's speakers in order: the sage's choice when it stands (from himself he speaks last:
        「贤者永远都是本轮最后一位发言的玩家」); else from the lowest-numbered of the day's dead, or of the
        living when nobody died (「以出局玩家中编号最小的那名玩家为起点…」), round the table."""
        alive = self.playing()
        choice = sage.order_choice(self)
        if choice is not None:
            start, cw = choice
            order = round_table(self.seating, alive, start, clockwise=cw, include_start=False)
            return order + [start] if start == self.sage and start in alive else order
        if self.round_dead:
            return round_table(self.seating, alive, min(self.round_dead), include_start=False)
        return round_table(self.seating, alive, min(alive) if alive else 1)

    def _open_banish(self, out: Step, announce: bool = False) -> None:
        """The banish vote opens (:data:`.votes.BANISH`; one vote under 凪): everyone in play speaks in
        order, then votes (「所有未出局玩家对所有未出局玩家进行一轮放逐投票，允许弃票」)."""
        g = self.game
        order = self._speaking_order()
        chosen_by_sage = sage.order_choice(self) is not None
        g.open_phase("banish", self.round, self.round, out)
        votes = 1 if self.w("nagi") else self.params.banish_votes
        self.vote = Vote(replace(BANISH, votes=votes, change="replace" if self.params.change_vote else "first_stands"),
                         voters=tuple(self.playing()))
        g.post("human_kill/nightfall", out, round=self.round, dead=g.names(self.round_dead) if announce else None,
               last_words=self.will(self.round_dead) if announce else [], sage=g.name(self.sage) if self.sage else None,
               order=g.names(order), by_sage=chosen_by_sage, donten=self.w("donten"), alive=g.names(g.alive()),
               votes=votes, nagi=self.w("nagi"), sage_weight=self.params.sage_weight if self.sage and not self.w("tenkiame") else None)

    def _close_banish(self, out: Step) -> None:
        """The banish vote closes (台风 may blow ballots away): 「获得票数最高的玩家立刻出局」, a tie goes to a
        run-off among the tied, a tie again banishes nobody. A banished Utsuho is sealed instead, once a
        game; a banished Parsee takes with her everyone who voted for her (the appendix). Under 苍天 the
        dying wait for volunteers."""
        g = self.game
        v = self.vote
        if self.w("taifuu"):
            v.void_ballots(lambda b: bool(b.choices) and chance(g, self.params.fail_chance,
                                                                f"taifuu:{self.round}:{v.number}:{b.voter}", out))
        outcome = v.close(self.playing())
        out.events.append(ev.BanishClosed(round=self.round, number=outcome.number, vote_kind=outcome.kind, chosen=outcome.chosen, tied=list(outcome.tied)))
        chosen = outcome.chosen
        dying: list[tuple[int, str]] = []
        utsuho = parsee = False
        if chosen is not None:
            role = g.player(chosen).role
            if role == UTSUHO and chosen not in self.sealed and not any(d.get("utsuho") for d in self.log if d["action"] == "banish"):
                utsuho = True
                self.sealed[chosen] = False
            else:
                dying.append((chosen, "banished"))
                if role == PARSEE:
                    parsee = True
                    for b in outcome.ballots:
                        if b.choices == (chosen,) and not b.void and b.voter != chosen:
                            dying.append((b.voter, "envy"))
        self.log.append({"round": self.round, "action": "banish", "number": outcome.number, "kind": outcome.kind,
                         "chosen": g.name(chosen) if chosen else None, "utsuho": utsuho})
        chain = self._with_takes(dying)
        souten = bool(chain) and self.w("souten")
        dead = [] if souten else self.remove_all(chain, out)
        g.post("human_kill/banish_result", out, **views.banish_result_data(self, outcome, dead, utsuho, souten))
        if souten:
            return weather.open_souten(self, chain, "banish", out, chosen=chosen, parsee=parsee)
        if outcome.kind == "runoff":
            if self.check_win(out):
                return
            v.next(outcome.tied, voters=tuple(self.playing()))
            g.open_phase("banish_runoff", self.round, self.round, out)
            order = round_table(self.seating, list(outcome.tied), min(outcome.tied))
            g.post("human_kill/banish_runoff", out, round=self.round, number=v.number, candidates=g.names(outcome.tied),
                   order=g.names(order), last=v.runoffs_left == 0)
            return
        self.after_banish(chosen, parsee, out)

    def after_banish(self, chosen: int | None, parsee: bool, out: Step) -> None:
        """After the night's banishment: Parsee's win (her banishment took everyone else out; a
        banished Utsuho counts as alive, ruling 2026-12), the other wins, then the next day."""
        g = self.game
        if parsee and chosen is not None and not set(g.alive()) - {chosen}:
            return self.finish_game(PARSEE, "parsee_envy", out)
        if self.check_win(out):
            return
        self._open_day(self.round + 1, out)

    # --- win and the end --------------------------------------------------------------------------
    def win_check(self) -> tuple[str, str] | None:
        """(winner, reason) or None (rulebook, 阵营: 「其他阵营角色的获胜结算往往拥有更高的优先级」; the
        humans: 「7 人或以下…清剿…8 人或以上…重创」; the youkai: 「所有人类阵营的玩家全部出局」). Other factions first (Doremy: every other living player is in
        a nightmare), then the youkai (every human out; also when the humans' condition is met at
        the same time), then the humans (below ``human_threshold`` players every non-human out; from
        it all ordinary youkai or all great youkai out). Utsuho banished still counts as alive; a
        role nobody was dealt never counts as "all out"."""
        g = self.game
        alive = g.alive()
        for d in g.living(DOREMY):
            others = [s for s in alive if s != d]
            if others and all(s in self.nightmare for s in others):
                return DOREMY, "doremy_dream"
        humans = [s for s in alive if FACTION[g.player(s).role] == "human"]
        if not humans:
            return "youkai", "humans_out"
        if len(g.players) < self.params.human_threshold:
            if all(FACTION[g.player(s).role] == "human" for s in alive):
                return "human", "cleared"
        else:
            dealt_ordinary = self.counts.get(YOUKAI, 0) > 0
            dealt_great = any(self.counts.get(r, 0) for r in ALL_GREAT)
            if dealt_ordinary and not g.living(YOUKAI):
                return "human", "ordinary_out"
            if dealt_great and not any(g.living(r) for r in ALL_GREAT):
                return "human", "great_out"
        return None

    def on_removed(self, seat: int, out: Step) -> None:
        g = self.game
        if g.finished:
            return
        self.sealed.pop(seat, None)
        self.out_round[seat] = self.round
        if seat == self.sage:
            self.sage = None
        self.check_win(out)

