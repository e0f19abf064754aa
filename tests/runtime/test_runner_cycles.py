"""How often ``run_bot`` runs a cycle (issue 24.7): once per poll interval when the bot is idle, plus the
instants the game needs. Driven by a fake scheduler on the test clock: no wall-clock timing."""

from __future__ import annotations

import threading
from datetime import timedelta

from bot_helpers import Clock, make_season

from forumbot.runtime import runner

PLAYERS = list("ABCDEFG")


class FakeScheduler:
    """APScheduler as ``run_bot`` uses it ("date" and "interval" jobs, one executor thread), on ``clock`` for
    ``until`` seconds. A job is handed to the executor when it is due, even while another runs (APScheduler's
    scheduler thread submits due jobs while the executor works): replacing a job that was due already does not
    take back its run, and a job due while a job of the same id runs is skipped (``max_instances`` 1) — a date
    job then never runs."""

    clock: Clock
    until: float = 0.0

    def __init__(self, **_kw) -> None:
        self.jobs: dict[str, tuple] = {}
        self.submitted: list = []
        self.running = False
        self.current: str | None = None  # the id of the job running
        self.skipped = 0

    def add_job(self, func, trigger, *, id, run_date=None, seconds=None, next_run_time=None, replace_existing=False):
        old = self.jobs.get(id)
        if old is not None and old[0] <= self.clock.now:
            self.submitted.append((id, old[3]))  # it was due while the running job ran: already handed over
        at = run_date if trigger == "date" else next_run_time
        if trigger == "date" and at <= self.clock.now and id == self.current:
            self.skipped += 1  # due at once, while its own id still runs: skipped, and a date job is gone
            self.jobs.pop(id, None)
            return
        self.jobs[id] = (at, trigger, seconds, func)

    def shutdown(self, wait=True):
        self.running = False

    def start(self) -> None:
        self.running = True
        end = self.clock.now + timedelta(seconds=self.until)
        while self.running:
            due = [(at, job_id) for job_id, (at, *_rest) in self.jobs.items() if at <= self.clock.now]
            for _at, job_id in sorted(due):  # handed to the executor in time order
                self._hand_over(job_id)
            if self.submitted:
                self.current, func = self.submitted.pop(0)
                func()
                self.current = None
                continue
            if not self.jobs:
                return
            at, job_id = min((at, job_id) for job_id, (at, *_rest) in self.jobs.items())
            if at > end:
                return
            self.clock.now = max(self.clock.now, at)

    def _hand_over(self, job_id: str) -> None:
        at, trigger, seconds, func = self.jobs[job_id]
        if trigger == "date":
            del self.jobs[job_id]
        else:
            self.jobs[job_id] = (at + timedelta(seconds=seconds), trigger, seconds, func)
        self.submitted.append((job_id, func))


def _run(monkeypatch, s, seconds: float, cycle_seconds: float = 0.5) -> list:
    FakeScheduler.clock, FakeScheduler.until = s.clock, seconds
    monkeypatch.setattr(runner, "BlockingScheduler", FakeScheduler)
    monkeypatch.setattr(runner, "_now", s.clock)
    cycles: list = []
    cycle = s.bot.cycle

    def slow_cycle() -> None:  # a cycle takes time: the scheduler's clock moves on meanwhile
        s.clock.advance(0.01)
        cycle()
        s.clock.advance(cycle_seconds)

    s.bot.cycle = slow_cycle  # type: ignore[method-assign]
    runner.run_bot(s.bot, stop=threading.Event(), on_cycle=lambda b: cycles.append(s.clock.now))
    return [c - timedelta(seconds=0.01 + cycle_seconds) for c in cycles]  # when each cycle began


def test_an_idle_bot_runs_one_cycle_per_poll_interval(tmp_path, monkeypatch):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "1h", "poll_interval": "10s"})
    s.bot.cycle()  # started: the prologue runs an hour, nothing to do for the next 100 s
    began = s.clock.now
    cycles = _run(monkeypatch, s, 100)
    # one at the start, then one every 10 s (the old repeating job beside the one-off tick made ~20)
    assert len(cycles) == 11, cycles
    assert [(c - began).total_seconds() for c in cycles] == [10.0 * i for i in range(11)]


def test_a_deadline_between_polls_gets_its_own_cycle_and_the_rhythm_goes_on(tmp_path, monkeypatch):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "25s", "poll_interval": "10s",
                                                                   "grace": "1s"})
    s.bot.cycle()
    dl = s.bot.deadline()
    began = s.clock.now
    cycles = _run(monkeypatch, s, 40)
    at = [(c - began).total_seconds() for c in cycles]
    assert (dl - began).total_seconds() + 1 in at  # the deadline plus grace: a cycle of its own
    assert len(cycles) <= 40 / 10 + 1 + 2, at  # the poll rhythm and the deadline, nothing doubled
    assert s.bot.game.phase.kind == "vote"


def test_a_cycle_longer_than_the_poll_interval_is_followed_by_the_next_one(tmp_path, monkeypatch):
    """Each cycle takes 15 s of a 10 s interval: the next is due as the cycle ends, and must not be lost (with one
    job id it was skipped as a second instance of the running job, and the bot never ran again)."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "1h", "poll_interval": "10s"})
    s.bot.cycle()
    cycles = _run(monkeypatch, s, 100, cycle_seconds=15)
    assert len(cycles) >= 6, cycles  # one every 15 s
