"""End to end on a real FlaskBB: the rulebook's worked example through the forum, the same season
with the bot killed (SIGKILL) at random instants, and the awkward messages (late, duplicate,
impersonated, malformed, the dead posting, the forum down across a deadline)."""

from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from season_driver import BotProcess, Players, bot_state, inboxes, judge_posts, mask_times, wait_until, write_season

from forumbot.testforum import start_forum

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"
PLAYERS = list("ABCDEFG")
LENGTH = 10.0


def example_phases():
    t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]


def run_season(tmp: Path, forum, start, phases, kill_every: tuple[float, float] | None = None, seed: int = 0):
    config = write_season(tmp, forum, PLAYERS, start, LENGTH, {"C": "killer"}, ["Org"])
    bot = BotProcess(config, forum, tmp / "bot.log")
    bot.start()
    driver = Players(forum, start, LENGTH, phases)
    sender = driver.thread()
    end = start + timedelta(seconds=(len(phases) + 1) * LENGTH + 30)
    rng = random.Random(seed)
    while datetime.now(UTC) < end and not bot.finished():
        if kill_every:
            time.sleep(rng.uniform(*kill_every))
            if bot.finished():
                break
            bot.kill()
            bot.start()
        else:
            time.sleep(0.5)
    sender.join(timeout=30)
    assert bot.wait(timeout=60) == 0, (tmp / "bot.log").read_text()
    assert not driver.errors, driver.errors
    return config, bot


def test_worked_example_through_flaskbb(tmp_path):
    with start_forum(players=[*PLAYERS, "Org"], judge="法官") as forum:
        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=4)
        config, _ = run_season(tmp_path, forum, start, example_phases())
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
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=12)
    results = {}

    def one(label, kill_every, seed):
        folder = tmp_path / label
        folder.mkdir()
        with start_forum(players=[*PLAYERS, "Org"], judge="法官") as forum:
            config, bot = run_season(folder, forum, start, example_phases(), kill_every, seed)
            state = bot_state(config, forum.judge.password)
            results[label] = (
                [mask_times(p) for p in judge_posts(forum, state.thread_id)],
                {n: [(s, mask_times(b)) for s, b in box] for n, box in inboxes(forum, PLAYERS + ["Org"]).items()},
                bot.kills,
            )

    threads = [threading.Thread(target=one, args=("calm", None, 0)),
               threading.Thread(target=one, args=("crashy", (0.4, 3.2), 17))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=400)
    calm, crashy = results["calm"], results["crashy"]
    assert crashy[2] >= 20, f"only {crashy[2]} kills"
    assert crashy[0] == calm[0]
    assert crashy[1] == calm[1]


def test_late_duplicate_impersonated_malformed_dead_and_forum_down(tmp_path):
    with start_forum(players=[*PLAYERS, "Org", "Mallory"], judge="法官") as forum:
        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=4)
        config = write_season(tmp_path, forum, PLAYERS, start, LENGTH, {"C": "killer"}, ["Org"])
        bot = BotProcess(config, forum, tmp_path / "bot.log")
        bot.start()
        clients = {n: forum.client(n) for n in [*PLAYERS, "Org", "Mallory"]}
        judge = forum.judge.name

        def pm(sender, text):
            clients[sender].send_pm(judge, "judge", text)

        def phase_start(k):
            return start + timedelta(seconds=k * LENGTH)

        try:
            wait_until(phase_start(1) + timedelta(seconds=1))  # vote round 1
            # One thread a sender, A's two in order: sent one after another, nine PMs can take longer
            # than the 10 s round on a loaded machine, and the last ones would be late.
            sends = {"A": ["投 B", "投 D"],  # the second is a duplicate: no changes
                     "Mallory": ["投 A"],  # not a player
                     "Org": ["投 B"],  # an organiser pretending to vote
                     "D": ["投 Zorro"],  # malformed
                     **{voter: ["投 A"] for voter in "BEFG"}}
            senders = [threading.Thread(target=lambda n=n, texts=texts: [pm(n, t) for t in texts])
                       for n, texts in sends.items()]
            for t in senders:
                t.start()
            for t in senders:
                t.join(timeout=30)
            wait_until(phase_start(2) + timedelta(seconds=0.5))  # 0.5 s after the deadline
            pm("C", "投 A")  # late
            state = None
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:  # the thread exists once the bot has posted
                state = bot_state(config, forum.judge.password)
                if state.thread_id and state.game.phase.kind == "poll":
                    break
                time.sleep(0.5)
            thread = state.thread_id
            clients["A"].reply(thread, "My last words: it was C.")
            clients["A"].reply(thread, "And one more thing...")  # the dead may not post again
            wait_until(phase_start(3) + timedelta(seconds=1))  # kill round 2
            pm("C", "杀 D")
            wait_until(phase_start(4) - timedelta(seconds=3))
            forum.stop()  # the forum is down across the deadline
            wait_until(phase_start(4) + timedelta(seconds=4))
            forum.start()
            wait_until(phase_start(4) + timedelta(seconds=5.5))
            pm("Org", "结束游戏")  # before vote round 3's deadline
            assert bot.wait(timeout=60) == 0, (tmp_path / "bot.log").read_text()
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
