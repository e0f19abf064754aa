"""End to end on a real FlaskBB: the rulebook's worked example through the forum, the same season
with the bot killed (SIGKILL) at random instants, and the awkward messages (late, duplicate,
impersonated, malformed, the dead posting, the forum down across a deadline).

The players act on each phase's post as they read it in the thread, not on the clock (issue 24): a crashy
run whose posts reach the forum late has its deadlines moved, and its players still write in the phase they
see, so it gets the calm run's messages in the calm run's phases. Waits last while the bot progresses."""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from fault_proxy import FaultProxy
from season_driver import (
    BotProcess,
    Players,
    bot_state,
    deadline_in,
    inboxes,
    judge_posts,
    mask_times,
    phase_posts,
    runaway,
    thread_of,
    wait_for,
    wait_until,
    write_season,
)

from forumbot.testforum import start_forum

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"
PLAYERS = list("ABCDEFG")
LENGTH = 15.0  # seconds a phase: seven players writing one after another fit in it on a loaded machine
WRITE_DELAY = 5.0  # seconds the fault proxy holds each of the judge's writes where a test needs a window open
STATE = threading.Lock()  # a season's database is opened (and migrated) by one thread at a time


def example_phases():
    t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]


def run_season(tmp: Path, forum, phases, kill_every: tuple[float, float] | None = None, seed: int = 0):
    """The season with players acting on the phase posts; ``kill_every``: the bot is SIGKILLed after a random
    time in that range (seconds) once it is up, and started again, until the season is over."""
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=4)
    config = write_season(tmp, forum, PLAYERS, start, LENGTH, {"C": "killer"}, ["Org"])
    bot = BotProcess(config, forum, tmp / "bot.log")
    bot.start()
    driver = Players(forum, phases, thread_id=lambda: thread_of(config), over=bot.finished, progress=bot.signs,
                     tail=bot.log_tail)
    sender = driver.thread()
    rng = random.Random(seed)
    while kill_every and not bot.exited():
        time.sleep(rng.uniform(*kill_every))
        if bot.exited():
            break
        bot.kill()
        bot.start()
    assert bot.wait(abort=runaway(bot, driver, len(phases))) == 0, bot.log_tail()
    wait_for(lambda: not sender.is_alive(), "the players to finish", bot.signs)
    assert not driver.errors, driver.errors
    return config, bot


def test_worked_example_through_flaskbb(tmp_path):
    with start_forum(players=[*PLAYERS, "Org"], judge="法官") as forum:
        config, _ = run_season(tmp_path, forum, example_phases())
        state = bot_state(config, forum.judge.password)
        g = state.game
        assert g.finished and g.winner == "good"
        assert {g.name(s): v for s, v in g.ruleset.scores().items()} == {"A": 11, "B": 8, "C": 1.5, "D": 6, "E": 0, "F": 0, "G": 5}
        posts = judge_posts(forum, state.thread_id)
        assert "final results" in posts[-1] and "27 / 73" in posts[-1] and "36.99%" in posts[-1]
        boxes = inboxes(forum, PLAYERS)
        for name in PLAYERS:
            assert sum("welcome to" in body for _, body in boxes[name]) == 1
        # every command got its reply: the first output of every message input, in the sender's inbox
        outbox = {r.key: r for r in state.store.outbox()}
        inputs = [(row, inbound) for row, inbound in state.store.inputs() if row.kind == "message"]
        assert len(inputs) == sum(len(p) for p in example_phases())
        for row, inbound in inputs:
            first = outbox[f"{state.store.season_id}:{row.seq}:0"]
            assert first.recipient == inbound.sender and first.status == "sent"
            assert (first.subject, first.body.strip()) in [(s, b.strip()) for s, b in boxes[inbound.sender]] or any(
                s == first.subject for s, _ in boxes[inbound.sender])
        # no role before the final post, none in the logs
        for text in posts[:-1]:
            assert "was the killer" not in text and "first killer" not in text and "successor killer" not in text
        log = (tmp_path / "bot.log").read_text(encoding="utf-8")
        for word in ("killer", "good citizen", "you_are_killer", "sunlight/role", "凶手"):
            assert word not in log
        assert forum.judge.password not in log


def test_sigkill_twenty_times_gives_the_same_posts_and_private_messages(tmp_path):
    results: dict = {}
    failures: dict = {}

    def one(label, kill_every, seed):
        folder = tmp_path / label
        folder.mkdir()
        try:
            with start_forum(players=[*PLAYERS, "Org"], judge="法官") as forum:
                config, bot = run_season(folder, forum, example_phases(), kill_every, seed)
                with STATE:
                    state = bot_state(config, forum.judge.password)
                results[label] = (
                    [mask_times(p) for p in judge_posts(forum, state.thread_id)],
                    {n: [(s, mask_times(b)) for s, b in box] for n, box in inboxes(forum, PLAYERS + ["Org"]).items()},
                    bot.kills,
                )
        except BaseException as exc:  # reported by the test's thread, with the run it happened in
            failures[label] = exc

    threads = [threading.Thread(target=one, args=("calm", None, 0)),
               threading.Thread(target=one, args=("crashy", (0.4, 3.2), 17))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()  # each run ends: its waits fail on their own when the bot or the forum stops progressing
    for label, exc in failures.items():
        raise AssertionError(f"the {label} run failed: {exc}") from exc
    calm, crashy = results["calm"], results["crashy"]
    assert crashy[2] >= 20, f"only {crashy[2]} kills"
    assert crashy[0] == calm[0]
    assert crashy[1] == calm[1]


def test_late_duplicate_impersonated_malformed_dead_and_forum_down(tmp_path):
    """Every step waits for the post opening its phase; the two that depend on time are set against the
    deadline the phase's post shows, with the forum slow on purpose where a window must stay open: the late
    vote goes out after the deadline while the judge's writes take WRITE_DELAY s (the round's result post
    cannot be out before it), and the forum is stopped before the kill round's deadline and started after."""
    with start_forum(players=[*PLAYERS, "Org", "Mallory", "Reader"], judge="法官") as forum, \
            FaultProxy(forum.base_url) as proxy:
        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=4)
        config = write_season(tmp_path, forum, PLAYERS, start, LENGTH, {"C": "killer"}, ["Org"],
                              base_url=proxy.base_url, timeout=WRITE_DELAY + 15)
        bot = BotProcess(config, forum, tmp_path / "bot.log")
        bot.start()
        clients = {n: forum.client(n) for n in [*PLAYERS, "Org", "Mallory", "Reader"]}
        judge = forum.judge.name
        thread = wait_for(lambda: thread_of(config), "the game thread", bot.signs, tail=bot.log_tail)

        def pm(sender, text):
            return clients[sender].send_pm(judge, "judge", text)

        def phase_post(k):
            """Phase k's opening post, as a player reading the thread sees it (waits for it)."""
            def seen():
                found = phase_posts(clients["Reader"].thread_posts(thread), judge)
                return found[k - 1] if len(found) >= k else None
            return wait_for(seen, f"the post opening phase {k}", bot.signs, tail=bot.log_tail)

        try:
            deadline = deadline_in(phase_post(1).text)  # vote round 1
            # One thread a sender, A's two in order: sent one after another, nine PMs can take longer
            # than the 10 s round on a loaded machine, and the last ones would be late.
            sends = {"A": ["投 B", "投 D"],  # the second is a duplicate: no changes
                     "Mallory": ["投 A"],  # not a player
                     "Org": ["投 B"],  # an organiser pretending to vote
                     "D": ["投 Zorro"],  # malformed
                     **{voter: ["投 A"] for voter in "BEFG"}}
            proofs: list = []
            senders = [threading.Thread(target=lambda n=n, texts=texts: proofs.extend(pm(n, t) for t in texts))
                       for n, texts in sends.items()]
            for t in senders:
                t.start()
            for t in senders:
                t.join()
            assert len(proofs) == 9 and max(p.time_utc for p in proofs) <= deadline, "the voters were too slow for the test"
            proxy.delay_write = WRITE_DELAY  # from now on the round's result post takes that long to land
            wait_until(deadline + timedelta(seconds=1))  # after the deadline (the forum's times are to the second)
            late = pm("C", "投 A")
            opened_2 = phase_post(2)  # clue poll after round 1
            proxy.delay_write = 0.0
            assert deadline < late.time_utc < opened_2.time_utc, "the late vote was not between the deadline and the post"
            clients["A"].reply(thread, "My last words: it was C.")
            clients["A"].reply(thread, "And one more thing...")  # the dead may not post again
            deadline = deadline_in(phase_post(3).text)  # kill round 2
            kill = pm("C", "杀 D")
            forum.stop()  # the forum is down across the deadline
            assert kill.time_utc < deadline and datetime.now(UTC) < deadline, "the kill round was over before the test stopped the forum"
            wait_until(deadline + timedelta(seconds=4))
            forum.start()
            phase_post(4)  # vote round 3
            pm("Org", "结束游戏")  # before vote round 3's deadline
            assert bot.wait(abort=runaway(bot, None, 4)) == 0, bot.log_tail()
        finally:
            bot.stop()
            for c in clients.values():
                c.close()
        state = bot_state(config, forum.judge.password)
        g, sl = state.game, state.game.ruleset
        v1 = sl.s.votes[0]
        assert v1.received == {1: 12, 2: 3} and v1.out == 1  # A's first ballot stands; Org's and Mallory's do not count
        assert g.player(4).out_reason == "killed"  # the kill sent before the forum went down counted
        assert sl.strikes.of(2) == 0
        boxes = inboxes(forum, ["A", "C", "D", "Org", "Mallory"])
        assert any("cannot be changed" in b for _, b in boxes["A"])
        assert any("not a player" in b for _, b in boxes["Mallory"])
        assert any("organiser of this game, not a player" in b for _, b in boxes["Org"])
        assert any("Zorro" in b for _, b in boxes["D"])
        assert any("late" in b for _, b in boxes["C"])
        assert any("posted in the game thread again" in b for _, b in boxes["Org"])
        assert g.player(1).will_used  # A's first post was the last words
        assert g.finished and g.phase.kind == "vote" and len(sl.s.votes) == 1
