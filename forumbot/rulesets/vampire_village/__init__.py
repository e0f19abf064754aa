"""吸血鬼村莊 (vampire_village): vampires against a village of seer, cupid, witch, guard, hunter, elder and
piper, with lovers and an elected sheriff; night actions by private message.

Rulebook: 《吸血鬼村莊》 (its clauses are quoted where they are applied); rulings where it is open, for
players and organisers: docs/vampire_village.md. Declarations: :mod:`~forumbot.rulesets.vampire_village.roles`,
:mod:`~forumbot.rulesets.vampire_village.actions`; what posts show: :mod:`~forumbot.rulesets.vampire_village.views`.

Timeline (【游戲流程】): a prologue (role PMs; no commands), then on night 1 a ``cupid`` phase (when a cupid
was dealt), and every night a ``night`` phase (guard, seer, vampires' kill and self-kill, piper) and a
``witch`` phase (when a witch was dealt: she is told the victim and may save or poison). Dawn announces the
dead and the day's speaking order; after every batch of deaths the hunter's ``shot`` window opens while a
hidden hunter may still shoot (whoever died: docs/vampire_village.md), then each dead sheriff's
``successor``; day 1 has the sheriff's ``election`` (a revote among the tied is another ``election``
phase); then the day ``vote`` and its ``runoff``. A vampire's self-kill skips the next day's talk and vote.

Shared mechanics: :mod:`forumbot.engine.night` (team orders, once-a-night answers, no-repeat rules),
:mod:`forumbot.engine.votes`, :mod:`forumbot.engine.potions` (the witch's potions), :mod:`forumbot.engine.links`
(the lovers' linked deaths), :mod:`forumbot.engine.title` (the sheriff) and :mod:`forumbot.engine.triggers`
(windows opened by deaths).
"""

from __future__ import annotations

from typing import Any, ClassVar

from forumbot.engine.game import Game, SetupError
from forumbot.engine.links import Links
from forumbot.engine.night import NightActions, tell
from forumbot.engine.potions import Potions
from forumbot.engine.ruleset import Closer, Ruleset, register
from forumbot.engine.speaking import speaking_order
from forumbot.engine.title import Title
from forumbot.engine.triggers import Windows
from forumbot.engine.types import Step, Winner
from forumbot.engine.votes import Vote, seeded_draw
from forumbot.rulesets.vampire_village import events as ev
from forumbot.rulesets.vampire_village import views, votes, windows
from forumbot.rulesets.vampire_village.actions import ACTIONS, ELECTION
from forumbot.rulesets.vampire_village.params import VampireVillageParams
from forumbot.rulesets.vampire_village.roles import (
    CUPID,
    ELDER,
    FACTION,
    GUARD,
    HUNTER,
    LOVERS,
    PIPER,
    PIPER_WIN,
    POWER_ROLES,
    PRESETS,
    ROLES,
    SEER,
    VAMPIRE,
    VAMPIRES,
    VILLAGER,
    VILLAGERS,
    WITCH,
    deal,
)


@register
class VampireVillage(Ruleset):
    """The vampire_village ruleset (see the module docstring)."""

    id = "vampire_village"
    #: the seer's results, the lovers', the charmed's and the powers-lost notices, the team's relayed orders
    knowledge = frozenset({"vampire_village/seer_result", "vampire_village/lovers", "vampire_village/charmed",
                           "vampire_village/powers_lost", "vampire_village/relayed"})
    rules_version = "2"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = VampireVillageParams
    roles: ClassVar[dict[str, str]] = dict(FACTION)
    default_role = VILLAGER
    phase_kinds = ("prologue", "cupid", "night", "witch", "shot", "successor", "election", "vote", "runoff")
    #: the death windows do not use up the last-words window (the dead speak when the others do)
    will_skips = ("shot", "successor")
    min_players = 4
    table_players = (min(PRESETS), max(PRESETS))  # 【參加人數及職業配置】: 13-18 players
    actions = ACTIONS
    closers: ClassVar[dict[str, str | Closer]] = {
        "prologue": "_close_prologue", "cupid": "_close_cupid", "night": "_close_night", "witch": "_dawn",
        "election": votes.close_election, "vote": votes.close_vote, "runoff": votes.close_vote,
        "shot": windows.close_window, "successor": windows.close_window}
    role_reply_data, status_extras, final_data, summary = (
        views.role_reply_data, views.status_extras, views.final_data, views.summary)

    def __init__(self, game: Game, params: VampireVillageParams) -> None:
        super().__init__(game, params)
        self.params: VampireVillageParams = params
        self.night = NightActions()
        self.potions = Potions({"save": 1, "poison": 1})
        self.links = Links()
        self.sheriff = Title("sheriff", weight=2)
        self.windows = Windows()
        self.vote = Vote(ELECTION)
        self.start_counts: dict[str, int] = {}
        self.lives: dict[int, int] = {}
        self.charmed: set[int] = set()
        self.powers_lost = False
        # who was told he is charmed, that his power is gone (the living only): what his status may repeat
        self.told_charmed: set[int] = set()
        self.told_powers_lost: set[int] = set()
        self.link_choice: tuple[int, int] | None = None
        self.charm_choice: tuple[int, ...] = ()
        self.selfkill: int | None = None
        self.kill_target: int | None = None
        self.guarded: int | None = None
        self.witch_told: int | None = None
        self.window_choice: int | None = None
        self.hunter_shot = False
        self.skip_day = False
        self.after = "night"
        self.elected = False
        self.win_reason: str | None = None
        self.nights: list[dict[str, Any]] = []
        self.deaths: list[dict[str, Any]] = []
        self.tonight: dict[str, Any] = {}  # this night's record, for the final post

    # --- set-up -----------------------------------------------------------------------------------
    def role_counts(self, n_players: int) -> dict[str, int]:
        """The preset for ``n_players`` with the season's ``counts`` (:func:`~forumbot.rulesets.vampire_village.roles.deal`)."""
        return deal(n_players, self.params.counts)

    def start(self, out: Step) -> None:
        """Role PMs and the opening post; the elder starts with his lives (「長老有兩條命」)."""
        g = self.game
        self.start_counts = {r: sum(1 for p in g.players if p.role == r) for r in ROLES}
        c = self.start_counts
        if not c[VAMPIRE] or c[VAMPIRE] == len(g.players):
            raise SetupError("vampire_village needs at least one vampire and one other player")
        if any(c[r] > 1 for r in (SEER, CUPID, WITCH, GUARD, HUNTER, ELDER, PIPER)):
            raise SetupError("vampire_village has at most one of each special role")
        self.lives = {s: self.params.elder_lives for s in self.team(ELDER)}
        out.events.append(ev.Setup(counts=c))
        for p in g.players:
            g.reply(p.seat, "vampire_village/role", out, **self.role_reply_data(p.seat))
        g.post("vampire_village/opening", out, players=[p.name for p in g.players], counts=c, **views.rules_data(self))

    def role_of(self, seat: int) -> str:
        return self.game.player(seat).role

    def may_leave_will(self, seat: int) -> bool:
        """The engine's last-words hook."""
        return self.params.last_words

    # --- the night --------------------------------------------------------------------------------
    def _close_prologue(self, out: Step) -> None:
        self._open_night(1, out)

    def _open_night(self, round_: int, out: Step) -> None:
        """Nightfall (「系統將宣布天黑了」): on night 1 the cupid's phase first (「丘比特選情侶（僅第一天）」)."""
        g = self.game
        self.tonight = {"round": round_}
        self.selfkill, self.charm_choice, self.kill_target, self.guarded, self.witch_told = None, (), None, None, None
        if round_ == 1 and self.start_counts[CUPID]:
            g.open_phase("cupid", round_, round_, out)
            self.link_choice = None
            g.post("vampire_village/night_open", out, stage="cupid", round=round_, alive=g.names(g.alive()))
            return
        self._open_night_phase(round_, out)

    def _open_night_phase(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("night", round_, round_, out)
        c = self.start_counts
        g.post("vampire_village/night_open", out, stage="night", round=round_, alive=g.names(g.alive()),
               guard=c[GUARD] > 0, seer=c[SEER] > 0, piper=c[PIPER] > 0, selfkill=round_ > 1)

    def _close_cupid(self, out: Step) -> None:
        """「情侶相認（僅第一天），但是不知道彼此身份」: a living cupid's two living lovers learn each other's names;
        「如果丘比特不選則沒有情侶」."""
        g = self.game
        pair = self.link_choice
        cupid = self.team(CUPID)
        if pair is not None and cupid and g.player(cupid[0]).alive and all(g.player(s).alive for s in pair):
            a, b = pair
            self.links.link(a, b)
            self.tonight["lovers"] = g.names(pair)
            out.events.append(ev.Lovers(seats=[a, b]))
            g.reply(a, "vampire_village/lovers", out, lover=g.name(b))
            g.reply(b, "vampire_village/lovers", out, lover=g.name(a))
        else:
            out.events.append(ev.Lovers(seats=[]))
        self._open_night_phase(1, out)

    def _close_night(self, out: Step) -> None:
        """The guard's, the vampires' and the piper's orders stand (a dead actor's or a lost power's lapse);
        then the witch's phase: 「如果當晚有被吸血鬼殺死的玩家，女巫可以選擇用解藥救他」 — she is told the victim
        only when the kill would succeed (not guarded), or under 同守同救 when guarded too."""
        g = self.game
        kill, guard = self.night.of(VAMPIRE), self.night.of(GUARD)  # the night closes at dawn, after the witch
        if guard is not None and (not g.player(guard.actor).alive or self.powers_lost):
            guard = None
        target = kill.target if kill is not None and g.living(VAMPIRE) and g.player(kill.target).alive else None
        self.kill_target = target
        self.guarded = guard.target if guard else None
        piper = self.team(PIPER)
        if not (piper and g.player(piper[0]).alive and not self.powers_lost):
            self.charm_choice = ()
        self.tonight.update(
            kill=g.name(target) if target else None, guard=g.name(self.guarded) if self.guarded else None,
            check=g.name(self.tonight["check"]) if self.tonight.get("check") else None,
            charm=g.names(self.charm_choice), selfkill=g.name(self.selfkill) if self.selfkill else None,
        )
        if not self.start_counts[WITCH]:
            return self._dawn(out)
        g.open_phase("witch", g.phase.round, g.phase.round, out)
        g.post("vampire_village/night_open", out, stage="witch", round=g.phase.round, alive=g.names(g.alive()))
        witch = self.team(WITCH)[0]
        if g.player(witch).alive and not self.powers_lost and self.potions.any():
            told = None
            if self.potions.has("save") and target is not None and self._would_die(target, saved=False):
                told = target
            if self.potions.has("save") and target is not None and self.params.guard_and_save == "dies" and target == self.guarded \
                    and not self._elder_absorbs(target):
                told = target  # 同守同救: the witch is told the target even when guarded, and saving him kills him
            self.witch_told = told
            g.reply(witch, "vampire_village/prompt", out, kind="witch", round=g.phase.round,
                    victim=g.name(told) if told else None, save=self.potions.has("save"), poison=self.potions.has("poison"))

    def _elder_absorbs(self, seat: int) -> bool:
        """「吸血鬼每殺一次長老少一條命」: an elder with more than one life left survives a vampire kill by losing one."""
        return self.role_of(seat) == ELDER and self.lives.get(seat, 0) > 1

    def _would_die(self, seat: int, saved: bool) -> bool:
        """Does the vampires' kill on ``seat`` succeed tonight? 「此人當晚不能被吸血鬼殺死」 when guarded, unless
        saved too under 同守同救 (``guard_and_save`` "dies")."""
        if seat == self.guarded:
            return saved and self.params.guard_and_save == "dies"
        if self._elder_absorbs(seat):
            return False
        return not saved

    def _dawn(self, out: Step) -> None:
        """「法官宣布夜里所有死亡的人」: the witch's potion is used; the vampires' victim dies unless guarded or
        saved; the elder loses a life (「沒有命時，長老死亡，此時女巫可以用解藥…救活長老，但是只剩下一條命」); the
        poisoned and a self-killed vampire die (「自殺不能被女巫救活」); the piper's charms take. Then the day
        post with the speaking order, unless a self-kill skips the day (「如果有吸血鬼選擇了自殺，則直接進入天黑」)."""
        g = self.game
        round_ = g.phase.round
        witch = self.night.close((VAMPIRE, GUARD, WITCH)).get(WITCH)
        if witch is not None and (not g.player(witch.actor).alive or self.powers_lost):
            witch = None
        batch: list[tuple[int, str]] = []
        saved = False
        target = self.kill_target
        if witch is not None:
            self.potions.use(witch.verb)
            self.tonight[witch.verb] = g.name(witch.target)
            out.events.append(ev.Potion(potion=witch.verb, target=witch.target, round=round_))
            saved = witch.verb == "save" and witch.target == target
        if target is not None and g.player(target).alive:
            if self.role_of(target) == ELDER and target != self.guarded:
                self.lives[target] -= 1
                out.events.append(ev.ElderLife(seat=target, lives=self.lives[target]))
                if self.lives[target] <= 0:
                    if saved:
                        self.lives[target] = 1
                    else:
                        batch.append((target, "killed"))
            elif self._would_die(target, saved):
                batch.append((target, "killed"))
        if witch is not None and witch.verb == "poison":
            batch.append((witch.target, "poisoned"))
        if self.selfkill is not None:
            batch.append((self.selfkill, "selfkill"))
        self.skip_day = self.selfkill is not None
        charmed_now = [s for s in self.charm_choice if g.player(s).alive and s not in self.charmed]
        self.charmed.update(charmed_now)
        if charmed_now:
            out.events.append(ev.Charmed(seats=charmed_now, round=round_))
        lost_before = self.powers_lost
        dead = self.die(batch, out)
        self.tonight["dead"] = g.names(dead)
        self.nights.append(dict(self.tonight))
        out.events.append(ev.NightClosed(round=round_, target=target, guarded=self.guarded, saved=saved, dead=dead))
        # 「從被殺者的下一位開始…順時針」: from the seat after the first of the dead as announced (never
        # the vampires' victim in particular: that would tell who was poisoned), else from seat 1
        over = self.win_check() is not None
        order = [] if over or self.skip_day else speaking_order(g.alive(), min(dead) if dead else None, len(g.players))
        g.post("vampire_village/day_open", out, round=round_, dead=views.dead_data(self, dead), skip=self.skip_day,
               election=round_ == 1 and not self.elected, alive=g.names(g.alive()), over=over, order=g.names(order),
               sheriff=g.name(self.sheriff.holder) if self.sheriff.holder else None)
        if self.params.tell_charmed:
            told = [s for s in charmed_now if g.player(s).alive]
            self.told_charmed.update(told)
            tell(g, told, "vampire_village/charmed", out, round=round_)
        self.tell_powers_lost(lost_before, out)
        if self.check_win(out):
            return
        self.after = "night" if self.skip_day else ("election" if round_ == 1 and not self.elected else "vote")
        self.go_on(out)

    def tell_powers_lost(self, before: bool, out: Step) -> None:
        g = self.game
        if self.powers_lost and not before:
            seats = [s for r in POWER_ROLES for s in g.living(r)]
            self.told_powers_lost.update(seats)
            tell(g, sorted(seats), "vampire_village/powers_lost", out)

    # --- deaths and their windows -----------------------------------------------------------------
    def die(self, batch: list[tuple[int, str]], out: Step) -> list[int]:
        """Everyone in ``batch`` dies (seat, cause), with their lovers (「當兩個相愛的人其中一個被票死、殺死或者毒死，
        另一個人則必須殉情」); the elder's death by the village (「被女巫毒殺、獵人獵殺、投票推出」) takes the villagers'
        powers; the batch queues the hunter's window
        (:func:`~forumbot.rulesets.vampire_village.windows.shot_window_due`), then a window for each sheriff who
        died (「警長如果死亡，他可以立即選擇（必須）一名沒有死亡的玩家繼承為警長」). Returns the dead, in order."""
        g = self.game
        dead: list[int] = []
        successors: list[int] = []
        queue = list(batch)
        while queue:
            seat, cause = queue.pop(0)
            if not g.player(seat).alive:
                continue
            g.remove(seat, cause, out)
            dead.append(seat)
            self.deaths.append({"round": g.phase.round, "seat": seat, "how": cause, "phase": g.phase.kind})
            if self.role_of(seat) == ELDER and cause in ("poisoned", "shot", "voted", "drawn") and not self.powers_lost:
                self.powers_lost = True
                out.events.append(ev.PowersLost(elder=seat, cause=cause))
            for partner in self.links.chain([seat], g.alive()):
                queue.append((partner, "lover"))
            if self.sheriff.holder == seat:
                successors.append(seat)
        if dead and windows.shot_window_due(self, dead):
            hunters = [s for s in dead if self.role_of(s) == HUNTER]
            self.windows.add("shot", hunters[0] if hunters else 0)
        for seat in successors:
            self.windows.add("successor", seat)
        return dead

    def go_on(self, out: Step) -> None:
        """Open the next window a death made, or go on with the game (``self.after``)."""
        g = self.game
        while not g.finished:
            w = self.windows.pop()
            if w is None:
                break
            if windows.open_window(self, w, out):
                return
        if g.finished:
            return
        if self.after in ("election", "vote"):
            votes.open_vote(self, self.after, out)
        else:
            self._open_night(g.phase.round + 1, out)

    # --- the end ----------------------------------------------------------------------------------
    def mixed_lovers(self) -> tuple[int, int] | None:
        """The lovers when they are a vampire and a villager, else None."""
        for a, b in self.links.pairs:
            if FACTION[self.role_of(a)] != FACTION[self.role_of(b)]:
                return a, b
        return None

    def win_check(self) -> tuple[str, str] | None:
        """(winner, reason) when someone has won, else None. 【游戲勝負判定方法】, in order: the piper
        (「自己還活著，除自己外所有的還活著的玩家都被施了魔法」), the lovers (「在情侶為一個是吸血鬼，另一個是村民的
        情況下，當除他們之外所有人被殺死」), the villagers (「吸血鬼一方全部死亡」), the vampires (「所有的普通村民與
        長老被殺死」)."""
        g = self.game
        alive = g.alive()
        piper = g.living(PIPER)
        if piper and len(alive) > 1 and all(s in self.charmed for s in alive if s != piper[0]):
            return PIPER_WIN, "all_charmed"
        mixed = self.mixed_lovers()
        if mixed is not None and set(alive) == set(mixed):
            return LOVERS, "lovers_last"
        if not g.living(VAMPIRE):
            return VILLAGERS, "vampires_dead"
        if not g.living(VILLAGER) and not g.living(ELDER):
            return VAMPIRES, "villagers_dead"
        return None

    def finish_game(self, winner: Winner, reason: str | None, out: Step) -> None:
        self.windows.clear()  # no death window stays open after the end
        super().finish_game(winner, reason, out)

    def on_removed(self, seat: int, out: Step) -> None:
        """A player removed by the organiser: his lover dies with him, a sheriff's badge is drawn at
        once, then the win check (no hunter's shot)."""
        g = self.game
        if g.finished:
            return
        dead = [seat] + self.links.chain([seat], g.alive())
        for s in dead[1:]:
            g.remove(s, "lover", out)
            self.deaths.append({"round": g.phase.round, "seat": s, "how": "lover", "phase": g.phase.kind})
        self.deaths.append({"round": g.phase.round, "seat": seat, "how": "penalty", "phase": g.phase.kind})
        if self.sheriff.holder in dead and g.alive():
            self.sheriff.give(seeded_draw(g, g.alive(), f"successor:{seat}:{g.phase.id}", out), "drawn", out)
        self.check_win(out)

    def won(self, seat: int) -> bool:
        """A piper's or the lovers' win is theirs alone (「其他人失敗」); otherwise the winning side's members win."""
        g = self.game
        if g.winner == PIPER_WIN:
            return g.player(seat).role == PIPER
        if g.winner == LOVERS:
            return seat in (self.mixed_lovers() or ())
        return super().won(seat)

    def winners(self) -> set[int]:
        """The seats that won (empty when nobody did): the piper alone, the mixed lovers alone, or the winning
        side but a mixed pair's members."""
        g = self.game
        w = g.winner
        mixed = set(self.mixed_lovers() or ())
        if w == PIPER_WIN:
            return set(self.team(PIPER))
        if w == LOVERS:
            return mixed
        if w in (VILLAGERS, VAMPIRES):
            return {p.seat for p in g.players if FACTION[p.role] == w and p.seat not in mixed}
        return set()

    def scores(self) -> dict[int, int]:
        """【游戲積分規則】: 「以游戲中吸血鬼的數量作為基本分數，若吹笛者、情侶勝利，則最終分數 = 基本分數 * 2…勝利方
        增加最終分數，失敗方減掉最終分數」."""
        g = self.game
        if g.winner is None:
            return {p.seat: 0 for p in g.players}
        final = self.start_counts[VAMPIRE] * (2 if g.winner in (PIPER_WIN, LOVERS) else 1)
        won = self.winners()
        return {p.seat: final if p.seat in won else -final for p in g.players}
