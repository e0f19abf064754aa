"""A whole season through a fault-injecting proxy in front of a real FlaskBB (issue 9, acceptance): with
25% of the bot's POSTs held past its timeout and then performed, and with 20% of its requests failing,
nothing is lost, nothing is doubled, the result, the posts and the private messages are those of a calm
run, and no deadline is handled later than two poll intervals (plus the grace). After the game each
player's inbox holds one conversation with the judge, and the judge's one per player (issue 9.9)."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from fault_proxy import FaultProxy
from season_driver import (
    BotProcess,
    Players,
    bot_state,
    conversations_with_judge,
    inboxes,
    judge_posts,
    mask_times,
    write_season,
)

from forumbot.runtime.store import aware
from forumbot.testforum import start_forum

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"
PLAYERS = list("ABCDEFG")
LENGTH = 20.0
POLL = 3.0
GRACE = 1.0
TIMEOUT = 3.0
STATE = threading.Lock()  # the season's database is opened (and migrated) by one thread at a time
FIGURES = Path("/tmp/forumbot-faulty-forum-figures.json")  # for the report; not part of the project


def example_phases():
    t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]


def thread_of(config: Path) -> int | None:
    """The season's thread once the bot opened it (read from its database, one thread at a time)."""
    with STATE:
        state = bot_state(config, "unused")
        return state.thread_id


def season(folder: Path, label: str, start: datetime, faults: dict | None, results: dict) -> None:
    folder.mkdir()
    phases = example_phases()
    with start_forum(players=[*PLAYERS, "Org"], judge="法官") as forum:
        proxy = FaultProxy(forum.base_url, seed=7, **faults).start() if faults else None
        try:
            config = write_season(folder, forum, PLAYERS, start, LENGTH, {"C": "killer"}, ["Org"], name=label,
                                  base_url=proxy.base_url if proxy else None, poll_interval=f"{POLL}s",
                                  timeout=TIMEOUT, retries=3, forum_extra="request_horizon_seconds = 8")
            bot = BotProcess(config, forum, folder / "bot.log")
            bot.start()
            driver = Players(forum, start, LENGTH, phases, season=label, reply_in_conversation=True,
                             wait_for_judge=8.0, wait_for_post=8.0, thread_id=lambda: thread_of(config))
            sender = driver.thread()
            end = start + timedelta(seconds=(len(phases) + 1) * LENGTH + 240)
            while datetime.now(UTC) < end and not bot.finished():
                time.sleep(0.5)
            sender.join(timeout=30)
            code = bot.wait(timeout=5) if bot.finished() else None
            bot.stop()
        finally:
            if proxy:
                proxy.close()
        with STATE:
            state = bot_state(config, forum.judge.password)
        outbox = state.store.outbox()
        lags = []
        for row, _ in state.store.inputs():
            if row.kind == "deadline":
                made = [aware(r.created_at) for r in outbox if r.key.startswith(f"{state.store.season_id}:{row.seq}:")]
                if made:
                    lags.append((min(made) - aware(row.at)).total_seconds())
        boxes = inboxes(forum, PLAYERS + ["Org"])
        results[label] = {
            "code": code, "errors": driver.errors, "log": (folder / "bot.log").read_text(encoding="utf-8"),
            "finished": state.game.finished, "winner": state.game.winner,
            "scores": {state.game.name(s): v for s, v in state.game.ruleset.scores().items()} if state.game.finished else {},
            "posts": [mask_times(p) for p in judge_posts(forum, state.thread_id)],
            "pms": {n: Counter(mask_times(b) for _, b in box) for n, box in boxes.items()},
            "statuses": Counter(r.status for r in outbox),
            "post_rows": sum(r.kind == "post" and r.status == "sent" for r in outbox),
            "pm_rows": Counter(r.recipient for r in outbox if r.kind == "pm" and r.status == "sent"),
            "lags": lags,
            "conversations": conversations_with_judge(forum, PLAYERS, label),
            "all_subjects": {n: sorted({(m.sender, m.subject, m.conversation_id) for m in c.private_messages()})
                             for n, c in [(forum.judge.name, forum.client())]},
            "faults": dict(proxy.counts) if proxy else {},
        }


def test_a_season_through_late_writes_and_failing_requests_is_the_calm_season(tmp_path):
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=25)
    results: dict = {}
    runs = {"calm": None,
            "held": {"hold_post": 0.25, "hold_seconds": TIMEOUT + 1.5},
            "failing": {"fail": 0.20}}
    threads = [threading.Thread(target=season, args=(tmp_path / label, label, start, faults, results))
               for label, faults in runs.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=900)
    FIGURES.write_text(json.dumps({k: {"faults": v["faults"], "lags": v["lags"], "statuses": v["statuses"],
                                       "subjects": v["all_subjects"]}
                                   for k, v in results.items()}, indent=1, default=str, ensure_ascii=False),
                       encoding="utf-8")
    for label, r in results.items():
        Path(f"/tmp/forumbot-faulty-{label}.log").write_text(r["log"], encoding="utf-8")
    calm = results["calm"]
    assert calm["finished"] and calm["winner"] == "good", calm["log"][-3000:]
    assert calm["scores"] == {"A": 11, "B": 8, "C": 1.5, "D": 6, "E": 0, "F": 0, "G": 5}
    for label in ("calm", "held", "failing"):
        r = results[label]
        assert r["code"] == 0 and not r["errors"], (label, r["errors"], r["log"][-3000:])
        assert (r["winner"], r["scores"]) == (calm["winner"], calm["scores"]), label
        assert set(r["statuses"]) <= {"sent", "note"}, (label, r["statuses"])  # 0 lost
        assert len(r["posts"]) == r["post_rows"] + 1, label  # the opening post + one per post row: 0 doubled
        for name in PLAYERS + ["Org"]:
            assert sum(r["pms"][name].values()) == r["pm_rows"][name], (label, name)  # 0 doubled, 0 lost
        assert r["posts"] == calm["posts"], label  # the same posts, in the same order
        assert r["pms"] == {n: c for n, c in calm["pms"].items()}, label  # the same private messages
        assert max(r["lags"]) <= 2 * POLL + GRACE, (label, r["lags"])
        conv = r["conversations"]
        for name in PLAYERS:
            assert len(conv[name].get("法官", set())) == 1, (label, name, conv[name])  # one conversation
            assert len(conv["法官"].get(name, set())) == 1, (label, name, conv["法官"])  # one per player
    assert results["held"]["faults"].get("POST held", 0) >= 5
    assert sum(v for k, v in results["failing"]["faults"].items() if not k.endswith(" ok")) >= 20
