"""A whole season through a fault-injecting proxy in front of a real FlaskBB (issue 9, acceptance): with
25% of the bot's POSTs held past its timeout and then performed, with 20% of its requests failing, and with
every request answered SLOW seconds late, nothing is lost, nothing is doubled, the result, the posts and
the private messages are those of a calm run. After the game each player's inbox holds one conversation
with the judge, and the judge's one per player (issue 9.9).

Deadlines are judged in the bot's own terms, not the machine's speed (issue 24): every deadline is handled
by the first or second poll after its grace (the proxy counts the bot's successful reads of its inbox
between the two instants; each failed request may cost one more), and never before a read begun after the
grace was answered (the slow forum: at least grace + SLOW after the deadline, as the bot's database says).
Players act on each phase's post as they read it in the thread. The lags in seconds are written to
/tmp/forumbot-faulty-forum-figures.json for the report; timing figures belong to benchmarks/."""

from __future__ import annotations

import json
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs

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
    runaway,
    thread_of,
    wait_for,
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
SLOW = 1.0  # seconds the slow forum adds to every answer
INBOX = "/conversations/inbox"  # the first page of the judge's inbox: read once a poll
STATE = threading.Lock()  # the season's database is opened (and migrated) by one thread at a time
FIGURES = Path("/tmp/forumbot-faulty-forum-figures.json")  # for the report; not part of the project


def example_phases():
    t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]


def first_inbox_page(path: str) -> bool:
    """Whether ``path`` is the first page of the inbox (read once a poll), with or without ``?page=1``."""
    where, _, query = path.partition("?")
    return where == INBOX and parse_qs(query).get("page", ["1"]) == ["1"]


def season(folder: Path, label: str, faults: dict, results: dict) -> None:
    folder.mkdir()
    phases = example_phases()
    with start_forum(players=[*PLAYERS, "Org"], judge="法官") as forum, \
            FaultProxy(forum.base_url, seed=7, **faults) as proxy:  # the calm run's proxy only counts
        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=4)
        config = write_season(folder, forum, PLAYERS, start, LENGTH, {"C": "killer"}, ["Org"], name=label,
                              base_url=proxy.base_url, poll_interval=f"{POLL}s",
                              timeout=TIMEOUT + (SLOW if faults.get("delay_all") else 0), retries=3,
                              forum_extra="request_horizon_seconds = 8")
        bot = BotProcess(config, forum, folder / "bot.log")
        bot.start()
        driver = Players(forum, phases, thread_id=lambda: thread_of(config), over=bot.finished, progress=bot.signs,
                         tail=bot.log_tail, season=label, reply_in_conversation=True, wait_for_judge=True)
        sender = driver.thread()
        try:
            code = bot.wait(abort=runaway(bot, driver, len(phases)))
            wait_for(lambda: not sender.is_alive(), "the players to finish", bot.signs)
        finally:
            bot.stop()
        with STATE:
            state = bot_state(config, forum.judge.password)
        outbox = state.store.outbox()
        grace = timedelta(seconds=GRACE)
        lags, polls = [], []
        for row, _ in state.store.inputs():
            if row.kind == "deadline":
                made = [aware(r.created_at) for r in outbox if r.key.startswith(f"{state.store.season_id}:{row.seq}:")]
                if made:
                    dl, handled = aware(row.at), min(made)
                    lags.append((handled - dl).total_seconds())
                    seen = proxy.between(dl + grace, handled)
                    ok = sum(m == "GET" and first_inbox_page(p) and status == 200 for m, p, _, status in seen)
                    failed = sum(status == 0 or status >= 500 for *_, status in seen)
                    polls.append((ok, failed))
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
            "lags": lags, "polls": polls,
            "conversations": conversations_with_judge(forum, PLAYERS, label),
            "all_subjects": {n: sorted({(m.sender, m.subject, m.conversation_id) for m in c.private_messages()})
                             for n, c in [(forum.judge.name, forum.client())]},
            "faults": dict(proxy.counts) if faults else {},
        }


def test_a_season_through_late_writes_failing_requests_and_a_slow_forum_is_the_calm_season(tmp_path):
    results: dict = {}
    failures: dict = {}
    runs = {"calm": {},
            "held": {"hold_post": 0.25, "hold_seconds": TIMEOUT + 1.5},
            "failing": {"fail": 0.20},
            "slow": {"delay_all": SLOW}}

    def one(label: str, faults: dict) -> None:
        try:
            season(tmp_path / label, label, faults, results)
        except BaseException as exc:  # reported below, with the run it happened in
            failures[label] = exc

    threads = [threading.Thread(target=one, args=(label, faults)) for label, faults in runs.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()  # each run ends: its waits fail on their own when the bot or the forum stops progressing
    for label, exc in failures.items():
        raise AssertionError(f"the {label} run failed: {exc}") from exc
    FIGURES.write_text(json.dumps({k: {"faults": v["faults"], "lags": v["lags"], "polls": v["polls"],
                                       "statuses": v["statuses"], "subjects": v["all_subjects"]}
                                   for k, v in results.items()}, indent=1, default=str, ensure_ascii=False),
                       encoding="utf-8")
    for label, r in results.items():
        Path(f"/tmp/forumbot-faulty-{label}.log").write_text(r["log"], encoding="utf-8")
    calm = results["calm"]
    assert calm["finished"] and calm["winner"] == "good", calm["log"][-3000:]
    assert calm["scores"] == {"A": 11, "B": 8, "C": 1.5, "D": 6, "E": 0, "F": 0, "G": 5}
    for label in runs:
        r = results[label]
        assert r["code"] == 0 and not r["errors"], (label, r["errors"], r["log"][-3000:])
        assert (r["winner"], r["scores"]) == (calm["winner"], calm["scores"]), label
        assert set(r["statuses"]) <= {"sent", "note"}, (label, r["statuses"])  # 0 lost
        assert len(r["posts"]) == r["post_rows"] + 1, label  # the opening post + one per post row: 0 doubled
        for name in PLAYERS + ["Org"]:
            assert sum(r["pms"][name].values()) == r["pm_rows"][name], (label, name)  # 0 doubled, 0 lost
        assert r["posts"] == calm["posts"], label  # the same posts, in the same order
        assert r["pms"] == {n: c for n, c in calm["pms"].items()}, label  # the same private messages
        assert len(r["polls"]) == len(calm["polls"]) > 0, label
        for ok, failed in r["polls"]:  # handled by the first or second read after the grace
            assert 1 <= ok <= 2 + failed, (label, r["polls"])
        assert min(r["lags"]) >= GRACE, (label, r["lags"])  # never closed before its grace was read
        conv = r["conversations"]
        for name in PLAYERS:
            assert len(conv[name].get("法官", set())) == 1, (label, name, conv[name])  # one conversation
            assert len(conv["法官"].get(name, set())) == 1, (label, name, conv["法官"])  # one per player
    assert min(results["slow"]["lags"]) >= GRACE + SLOW, results["slow"]["lags"]  # a read begun after the grace
    assert results["held"]["faults"].get("POST held", 0) >= 5
    assert sum(v for k, v in results["failing"]["faults"].items() if not k.endswith(" ok")) >= 20
