"""殺人遊戲 (killer_club): the club game of 殺手 / 警察 / 護士 / 殺助 / 水民, night actions by private message.

Rulebook: the club's 殺人遊戲 rules (「設置5種身份——殺手、警察、護士、殺助、水民」, its game procedure and notes
1–4); rulings where it is open, for players and organisers: ``docs/killer_club.md``.

Timeline: a prologue (role PMs; no commands), then night 1, day 1, night 2, day 2... Each of these is a
phase with its own deadline and post: ``night`` (round r), ``vote`` (the day vote of day r), up to two
``runoff`` phases among the tied, and a ``choice`` phase when the third vote ties and that night's
victim names one of the tied to die with him. The shared mechanics are the engine's:
:mod:`forumbot.engine.night` (team orders relayed to teammates, once-a-night answers, no-repeat rules),
:mod:`forumbot.engine.votes` (the day vote and its run-offs), :mod:`forumbot.engine.lastwords` (the first N
deaths), :mod:`forumbot.engine.speaking` (the day's speaking order), :mod:`forumbot.engine.series`
(standings and the first-night victim rule across a series of games).

This module holds the set-up, the night, the deaths and the win rule; ``day`` holds the day (the vote, its
run-offs, the night victim's choice). The package declares the rest: ``params`` (the season's parameters),
``roles`` (roles, sides and counts), ``actions`` (the day vote, who may do what and what it records and
tells), ``views`` (what posts and replies show), ``events`` (the facts).

No role is revealed before the final post, not even at death.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from forumbot.engine.game import Game, SetupError
from forumbot.engine.lastwords import FirstDeaths
from forumbot.engine.night import NightActions
from forumbot.engine.orders import Order
from forumbot.engine.ruleset import Closer, Ruleset, register
from forumbot.engine.series import repeated_victim
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote
from forumbot.rulesets.killer_club import day, roles, views
from forumbot.rulesets.killer_club import events as ev
from forumbot.rulesets.killer_club.actions import ACTIONS, DAY_VOTE, answer_helper
from forumbot.rulesets.killer_club.params import KillerClubParams, SeriesParams
from forumbot.rulesets.killer_club.roles import CIVILIAN, FACTION, HELPER, KILLER, NURSE, POLICE, ROLES, preset_counts

__all__ = ["KillerClub", "KillerClubParams", "SeriesParams", "preset_counts"]


@register
class KillerClub(Ruleset):
    """The killer_club ruleset (see the module docstring)."""

    id = "killer_club"
    day_rounds = True  # 「第 1 夜」「第 1 天」
    #: the police's and the helper's checks, the doctor's and the killers' orders relayed to the team
    knowledge = frozenset({"killer_club/check_result", "killer_club/ask_result", "killer_club/order_relayed"})
    rules_version = "2"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = KillerClubParams
    roles: ClassVar[dict[str, str]] = dict(FACTION)
    default_role = CIVILIAN
    phase_kinds = ("prologue", "night", "vote", "runoff", "choice")
    min_players = 6
    table_players = (8, None)  # the rulebook's note 1: fewer than 8 players is thin; larger games add killers
    actions = ACTIONS
    closers: ClassVar[Mapping[str, str | Closer]] = {
        "prologue": "_close_prologue", "night": "_close_night", "vote": day.close_vote, "runoff": day.close_vote,
        "choice": day.close_choice,
    }
    role_reply_data = views.role_reply_data
    status_extras = views.status_extras
    final_data = views.final_data
    summary = views.summary

    def __init__(self, game: Game, params: KillerClubParams) -> None:
        super().__init__(game, params)
        self.params: KillerClubParams = params
        self.night = NightActions()
        self.vote = Vote(replace(DAY_VOTE, votes=params.votes))
        self.first = FirstDeaths(0)
        self.start_counts: dict[str, int] = {}
        self.helper_waiting: Order | None = None  # the helper's check, until the killers order the kill
        self.tonight: dict[str, Order] = {}  # the checks and the ask of this night, for the final post
        self.night_victim: int | None = None
        self.last_death: int | None = None
        self.first_night_victim: int | None = None
        self.choice_by: int | None = None
        self.choice_among: tuple[int, ...] = ()
        self.choice: int | None = None
        self.nights: list[dict[str, Any]] = []
        self.deaths: list[dict[str, Any]] = []

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
            limit = roles.last_words_limit(self.start_counts[KILLER], len(g.players))
        self.first = FirstDeaths(limit)
        out.events.append(ev.Setup(counts=self.start_counts, last_words=limit, banned_first_victim=self.banned))
        for p in g.players:
            g.reply(p.seat, "killer_club/role", out, **self.role_reply_data(p.seat))
        g.post("killer_club/opening", out, **views.opening_data(self))

    @property
    def banned(self) -> str | None:
        """The player the killers may not kill on night 1 (the series rule), if any and in this game."""
        s = self.params.series
        name = repeated_victim(s.previous_first_victims, s.limit)
        return name if name is not None and self.game.seat_of(name) is not None else None

    # --- the thread -------------------------------------------------------------------------------
    def thread_vote(self) -> Vote | None:
        """With ``vote_in_thread``, the day vote (or run-off) while it is open."""
        if self.params.vote_in_thread and self.game.phase.kind in ("vote", "runoff"):
            return self.vote
        return None

    def may_leave_will(self, seat: int) -> bool:
        """The engine's last-words hook: only the first N players to die."""
        return self.first.allowed(seat)

    # --- phases -----------------------------------------------------------------------------------
    def _close_prologue(self, out: Step) -> None:
        self.open_night(1, out)

    def open_night(self, round_: int, out: Step) -> None:
        """Night ``round_`` opens: no orders yet; the post says who is alive and which roles act."""
        g = self.game
        g.open_phase("night", round_, round_, out)
        self.night_victim = None
        self.tonight = {}
        g.post("killer_club/night_open", out, **views.night_open_data(self, round_))

    def _close_night(self, out: Step) -> None:
        """The night's close: the killers' standing order kills unless the nurse saved the same player
        (「若暗殺的人被護士所救，則此人不死，暗殺無效」); a dead nurse saves nobody."""
        g = self.game
        round_ = g.phase.round
        if self.helper_waiting is not None:
            answer_helper(self, out)
        standing = self.night.close((KILLER, NURSE))
        kill, save = standing.get(KILLER), standing.get(NURSE)
        if save is not None and not g.player(save.actor).alive:
            save = None
        target = kill.target if kill is not None and g.player(kill.target).alive else None
        saved = target is not None and save is not None and save.target == target
        victim = None if (target is None or saved) else target
        self.nights.append(views.night_record(self, target, saved, save, victim))
        out.events.append(ev.NightClosed(round=round_, target=target, saved=saved, victim=victim))
        if round_ == 1:
            self.first_night_victim = victim
        self.night_victim = victim
        if victim is not None and self.death(victim, "killed", out):
            return
        day.open_day(self, round_, out)

    # --- deaths and the end -----------------------------------------------------------------------
    def death(self, seat: int, how: str, out: Step) -> bool:
        """``seat`` dies (by night or by vote): counted for last words, then the win check. True when
        the game is over."""
        g = self.game
        g.remove(seat, how, out)
        self.first.record(seat)
        self.last_death = seat
        self.deaths.append({"round": g.phase.round, "seat": seat, "how": how})
        return self.check_win(out)

    def win_check(self) -> tuple[str, str] | None:
        """(winner, reason) when a side has won, else None. All killers dead: the police side
        (「殺手若都被殺，殺手失敗，警察獲勝」); killers at least as many as everyone else alive, all police
        dead (「警察若都被殺…殺手都獲勝」), or all civilians dead: the killer side (a role nobody was dealt
        never counts as "all dead")."""
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
