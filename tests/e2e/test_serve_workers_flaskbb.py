"""``forumbot serve`` with three workers on one PostgreSQL database, judging many short seasons on a real
FlaskBB; the worker holding the most seasons is SIGKILLed mid-season. Its seasons finish on the others, and
every season's posts and private messages are those of a calm run: none lost, none doubled.

Players follow each season's phase posts, not the clock: a player sends phase k's messages to a season's judge
once he reads phase k's opening post in that season's thread (a phase's clock starts when its post is on the
forum, so phases do not start at fixed times). The calm run of each season is the same season (same file, same
seed, the same players' messages in each phase, in the order the forum received them) judged by one bot on the
in-memory forum with a test clock, each phase's messages arriving once that phase's post is out: the outbox it
produces is compared with the outbox the workers produced (texts with their times masked); then every post and
private message on FlaskBB is matched against the workers' outbox rows marked sent (each exactly once).

Light by default for 2 CPU cores: FORUMBOT_SERVE_E2E_SEASONS seasons (default 6; the issue's figure is 20:
``FORUMBOT_SERVE_E2E_SEASONS=20``; phases lengthen with the number of seasons). Needs PostgreSQL
(FORUMBOT_TEST_POSTGRES, as .ci/run sets).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from season_driver import Stalled, deadline_in, file_signs, mask_times, phase_posts, wait_for, wait_until
from sqlalchemy import create_engine, text

from forumbot.config import SeasonConfig, load_config
from forumbot.forums.base import fingerprint
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import make_engine
from forumbot.testforum import start_forum
from forumbot.testforum.harness import free_port

pytestmark = pytest.mark.e2e

PG = os.environ.get("FORUMBOT_TEST_POSTGRES")
SEASONS = int(os.environ.get("FORUMBOT_SERVE_E2E_SEASONS", "6"))
WORKERS = 3
LENGTH = max(20.0, 3.0 * SEASONS)  # seconds a phase: every season's messages of a phase fit well inside it
PLAYERS = list("ABCDEFG")
EXAMPLE = Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"


def example_phases() -> list[list[tuple[str, str]]]:
    t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]


@pytest.fixture
def pg_url():
    if not PG:
        if os.environ.get("CI"):
            pytest.fail("CI must test PostgreSQL: FORUMBOT_TEST_POSTGRES is not set (see .ci/run)")
        pytest.skip("no PostgreSQL server (set FORUMBOT_TEST_POSTGRES, as .ci/run does)")
    name = f"fb_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    yield PG.rsplit("/", 1)[0] + "/" + name
    with admin.connect() as c:
        c.execute(text(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"))
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


def write_season(folder: Path, k: int, judge: str, forum, start: datetime) -> Path:
    path = folder / f"s{k:02d}.toml"
    path.write_text(f'''name = "s{k:02d}"
ruleset = "sunlight"
locale = "en"
time_zone = "UTC"
seed = {3 + k}
organisers = ["Org"]
players = [{", ".join(f'"{p}"' for p in PLAYERS)}]
roles = {{ "C" = "killer" }}

[forum]
engine = "flaskbb"
base_url = "{forum.base_url}"
username = "{judge}"
password_env = "FORUMBOT_E2E_PASSWORD_{k}"
forum_id = {forum.forum_id}
retries = 1
backoff_seconds = 0.2
timeout_seconds = 10
request_horizon_seconds = 3

[schedule]
start = {start.replace(tzinfo=None, microsecond=0).isoformat()}
default = "{LENGTH}s"
reminders = []
poll_interval = "1s"
grace = "1s"
outage = "300s"
vote_count_every = 0
vote_count_before = []
''', encoding="utf-8")
    return path


def calm_outbox(config: SeasonConfig, received: list, phase_of: list[int], folder: Path) -> list[tuple[str, str, str]]:
    """The season judged calmly on the in-memory forum with a test clock, the players' messages arriving in
    the order the forum received them (``received``: the judge's inbox on FlaskBB, in order), each once the
    phase it was sent in (``phase_of``, one per message) is open and its post out, as the players sent them:
    its outbox (kind, recipient, text with times masked), in order. (The players write in parallel, so the
    order of one phase's messages is the forum's, not the transcript's; the results post lists ballots in
    that order.)"""
    start = config.start_utc()
    assert start is not None
    now = [start - timedelta(seconds=5)]
    clock = lambda: now[0]  # noqa: E731 - the test clock
    forum = MemoryForum(username=config.forum.username, clock=clock)
    calm = config.model_copy(update={"database": f"sqlite:///{folder / (config.name + '-calm.db')}"})
    bot = Bot(calm, forum, clock=clock, engine=make_engine(calm.database_url),
              sleep=lambda s: now.__setitem__(0, now[0] + timedelta(seconds=s)))
    sends = [(k, m.sender, m.body) for m, k in zip(received, phase_of, strict=True)]
    end = start + timedelta(seconds=(len(example_phases()) + 6) * LENGTH)

    def visible(k: int) -> bool:  # phase k is open and its post is out: its players have read it
        return bot.started and not bot.game.finished and bot.game.phase.id >= k and bot.deadline() is not None

    while now[0] < end and not bot.done():
        while sends and visible(sends[0][0]):
            _, sender, body = sends.pop(0)
            forum.player_pm(sender, body, at=now[0])
        bot.cycle()
        # on to the next instant anything happens: the bot must act (a phase's post goes out at once here)
        wake = bot.next_wakeup()
        nxt = min([end] + ([wake] if wake else []))
        now[0] = max(now[0] + timedelta(seconds=0.1), nxt) if not (sends and visible(sends[0][0])) else now[0]
    assert bot.done(), "the calm run did not finish"
    return [(r.kind, r.recipient or "", mask_times(r.body)) for r in bot.store.outbox() if r.status != "note"]


def by_destination(rows: list[tuple[str, str, str]]) -> dict[str, list[str]]:
    """Texts in order per destination: the thread, each player's private messages (rows to different
    destinations may interleave differently: delivery keeps the order per destination only)."""
    out: dict[str, list[str]] = {}
    for kind, recipient, body in rows:
        out.setdefault("thread" if kind in ("post", "thread") else f"pm:{recipient}", []).append(body)
    return out


def leases(url: str) -> dict[str, tuple[str, int, bool]]:
    e = create_engine(url)
    try:
        with e.connect() as c:
            rows = c.execute(text("SELECT season, worker, epoch, archived FROM season_lease "
                                  "WHERE worker <> '' AND (archived OR expires_at > now())")).all()
    except Exception:
        return {}
    finally:
        e.dispose()
    return {r[0]: (r[1], int(r[2]), bool(r[3])) for r in rows}


SENDERS_A_PLAYER = 4  # each player writes to the seasons from this many sessions at once


def thread_of(url: str, season: str) -> int | None:
    """The thread season ``season`` opened (stored in the shared database), None until it has one."""
    e = create_engine(url)
    try:
        with e.connect() as c:
            row = c.execute(text("SELECT thread_id FROM season WHERE name = :n"), {"n": season}).first()
    except Exception:
        return None
    finally:
        e.dispose()
    return int(row[0]) if row and row[0] else None


def send_phases(forum, judges: list[str], phases, errors: list[str], over: Callable[[int], bool],
                sent: dict[str, list[tuple[str, int]]], url: str) -> threading.Thread:
    """Each phase's messages to every season's judge, sent once the player reads that phase's opening post in
    the season's thread (:func:`season_driver.phase_posts`): each player writes from :data:`SENDERS_A_PLAYER`
    sessions (logged in before the season), each to its share of the seasons one after another. ``over(k)``:
    season k is over (no post to wait for). ``sent[judge]`` gets (sender, phase) of each message in the order
    it was sent. Reported in ``errors`` (the test cannot conclude: such a message may count for either phase):
    a phase already over when its post was read, a message that reached the forum less than 2 s before the
    deadline its phase's post shows."""
    names = sorted({s for messages in phases for s, _ in messages})
    lanes = [(name, judges[i::SENDERS_A_PLAYER]) for name in names for i in range(SENDERS_A_PLAYER)]
    clients = [forum.client(name) for name, _ in lanes]
    for client in clients:
        client.login()

    def phase_post(client, index: int, judge: str, k: int, seen: dict[str, Any]):
        """Phase k's opening post in season ``index``'s thread, once this player reads it (None: game over)."""
        def check():
            if seen.get("thread") is None:
                seen["thread"] = thread_of(url, f"s{index:02d}")
            if seen["thread"] is not None:
                got = seen.setdefault("posts", [])
                got += client.thread_posts(seen["thread"], got[-1].post_id if got else None)
                if len(phase_posts(got, judge)) >= k:
                    return "open"
            return "over" if over(index) else None

        wait_for(check, f"the post opening phase {k} of season {index}", lambda: len(seen.get("posts", [])),
                 every=0.5)
        opened = phase_posts(seen.get("posts", []), judge)
        if len(opened) < k:
            return None
        if len(opened) > k:
            errors.append(f"season {index}: phase {k} was over when its players read the thread")
        return opened[k - 1]

    def one_lane(client, name: str, mine_judges: list[str]) -> None:
        seen: dict[str, dict[str, Any]] = {judge: {} for judge in mine_judges}
        for k, messages in enumerate(phases, start=1):
            mine = [body for sender, body in messages if sender == name]
            if not mine:
                continue
            for judge in mine_judges:
                index = judges.index(judge)
                post = phase_post(client, index, judge, k, seen[judge])
                if post is None:
                    errors.append(f"season {index} was over before phase {k}, which has messages")
                    continue
                deadline = deadline_in(post.text)
                for body in mine:
                    try:
                        client.send_pm(judge, "judge", body)
                        sent[judge].append((name, k))
                    except Exception as exc:
                        errors.append(f"{name} to {judge}: {exc}")
                    if deadline is not None and datetime.now(UTC) > deadline - timedelta(seconds=2):
                        errors.append(f"{name} to {judge} in phase {k}: sent less than 2 s before the deadline "
                                      "(the forum is too slow for this many seasons)")

    threads = [threading.Thread(target=one_lane, args=(c, n, js), daemon=True)
               for c, (n, js) in zip(clients, lanes, strict=True) if js]
    for t in threads:
        t.start()

    def join() -> None:
        for t in threads:
            t.join()
        for client in clients:
            client.close()

    joiner = threading.Thread(target=join, daemon=True)
    joiner.start()
    return joiner


def test_three_workers_on_postgresql_one_killed_mid_season_nothing_lost_nothing_doubled(tmp_path, pg_url):
    judges = [f"J{k}" for k in range(SEASONS)]
    phases = example_phases()
    with start_forum(players=[*PLAYERS, "Org", *judges[1:]], judge=judges[0]) as forum:
        folder = tmp_path / "seasons"
        folder.mkdir()
        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=25)
        paths = [write_season(folder, k, j, forum, start) for k, j in enumerate(judges)]
        passwords = {f"FORUMBOT_E2E_PASSWORD_{k}": (forum.judge if k == 0 else forum.players[j]).password
                     for k, j in enumerate(judges)}
        env = {**os.environ, **passwords}
        ports = [free_port() for _ in range(WORKERS)]
        logs = [tmp_path / f"worker{i}.log" for i in range(WORKERS)]
        procs: list[subprocess.Popen] = []
        victim = -1
        for i in range(WORKERS):
            with open(logs[i], "wb") as out:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "forumbot", "serve", str(folder), "--database", pg_url, "--worker", f"w{i}",
                     "--lease", "6s", "--scan", "1s", "--metrics-port", str(ports[i])],
                    stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True))

        def tails() -> str:
            return "\n".join(f"--- worker {i}\n" + "\n".join(p.read_text(encoding="utf-8").splitlines()[-40:])
                             for i, p in enumerate(logs))

        try:
            def workers_signs():
                return file_signs(*logs), [p.poll() for p in procs]

            # as long as it takes while the workers log what they do (a busy machine is slow, not stuck)
            with contextlib.suppress(Stalled):
                wait_for(lambda: len(leases(pg_url)) >= SEASONS, "every season taken", workers_signs)
            held = leases(pg_url)
            assert len(held) == SEASONS, f"not every season was taken: {held}\n{tails()}"
            errors: list[str] = []
            sent: dict[str, list[tuple[str, int]]] = {judge: [] for judge in judges}
            sender = send_phases(forum, judges, phases, errors,
                                 lambda index: (folder / "done" / paths[index].name).exists(), sent, pg_url)
            # mid-season (the second vote round), SIGKILL the worker holding the most seasons
            wait_until(start + timedelta(seconds=2.5 * LENGTH))
            by_worker = Counter(w for w, _, archived in leases(pg_url).values() if not archived)
            victim_name, count = by_worker.most_common(1)[0]
            assert count >= 1
            victim = int(victim_name.removeprefix("w"))
            victim_seasons = {s for s, (w, _, _) in leases(pg_url).items() if w == victim_name}
            os.killpg(procs[victim].pid, signal.SIGKILL)
            procs[victim].wait()
            # every season finishes and is archived by the survivors
            def all_archived() -> bool:
                state = leases(pg_url)
                return len(state) == SEASONS and all(a for _, _, a in state.values())

            with contextlib.suppress(Stalled):
                wait_for(all_archived, "every season archived", workers_signs, every=1.0)
            state = leases(pg_url)
            assert all(a for _, _, a in state.values()) and len(state) == SEASONS, f"{state}\n{tails()}"
            wait_for(lambda: not sender.is_alive(), "the players to finish", workers_signs)
            assert not errors, errors  # before comparing: a message late for the test makes any game legitimate
            for s in victim_seasons:
                worker, epoch, _ = state[s]
                assert worker != victim_name and epoch >= 2, (s, state[s])  # taken over, then finished
            survivor = next(i for i in range(WORKERS) if i != victim)
            health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{ports[survivor]}/healthz", timeout=120).read())
            assert health["ok"]
            metrics = urllib.request.urlopen(f"http://127.0.0.1:{ports[survivor]}/metrics", timeout=120).read().decode()
            assert "forumbot_deadline_lag_seconds_bucket" in metrics
        finally:
            for p in procs:
                if p.poll() is None:
                    p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
        for i, p in enumerate(procs):
            if i != victim:
                assert p.returncode == 0, tails()
        for log in logs:
            assert "Traceback" not in log.read_text(encoding="utf-8"), tails()
        assert sorted(x.name for x in (folder / "done").glob("*.toml")) == sorted(x.name for x in paths)

        reader = forum.client()
        try:
            for k, judge in enumerate(judges):
                config = load_config(folder / "done" / paths[k].name).model_copy(update={"database": pg_url})
                os.environ.update(passwords)
                bot = Bot(config, None)  # type: ignore[arg-type]  # the stored season, no forum
                assert bot.game.finished, config.name
                rows = [r for r in bot.store.outbox() if r.status != "note"]
                assert all(r.status == "sent" for r in rows), [(r.kind, r.status) for r in rows if r.status != "sent"]
                # the same posts and private messages as the calm run
                judge_client = forum.client() if k == 0 else forum.client(judge)
                try:
                    received = sorted((m for m in judge_client.private_messages() if m.sender != judge),
                                      key=lambda m: m.message_id)
                finally:
                    judge_client.close()
                assert len(received) == sum(len(p) for p in phases)
                # each message's phase: a player's messages to one judge reached it in the order he sent them
                queues: dict[str, list[int]] = {}
                for name, phase in sent[judge]:
                    queues.setdefault(name, []).append(phase)
                phase_of = [queues[m.sender].pop(0) for m in received]
                calm = calm_outbox(load_config(paths[k].parent / "done" / paths[k].name), received, phase_of, tmp_path)
                inputs = [(i.seq, i.kind, i.at.isoformat(), m and (m.sender, m.text, m.earliest.isoformat(), m.latest.isoformat()))
                          for i, m in bot.store.inputs()]
                got = [(r.kind, r.recipient or "", mask_times(r.body)) for r in rows]
                if by_destination(got) != by_destination(calm):
                    (tmp_path / f"{config.name}-inputs.json").write_text(json.dumps(inputs, ensure_ascii=False, indent=1))
                    (tmp_path / "workers.log").write_text(tails())
                    (tmp_path / f"{config.name}-outboxes.json").write_text(json.dumps(
                        {"workers": by_destination(got), "calm": by_destination(calm)}, ensure_ascii=False, indent=1))
                assert by_destination(got) == by_destination(calm), f"{config.name}: see {tmp_path}"
                # each of them on the forum exactly once: posts in the thread, messages in the inboxes
                posts = [fingerprint(p.text) for p in reader.thread_posts(bot.thread_id) if p.author == judge]
                assert posts == [fingerprint(r.body) for r in rows if r.kind in ("thread", "post")], config.name
                for name in [*PLAYERS, "Org"]:
                    client = forum.client(name)
                    try:
                        got = Counter(fingerprint(m.body) for m in client.private_messages() if m.sender == judge)
                    finally:
                        client.close()
                    want = Counter(fingerprint(r.body) for r in rows if r.kind == "pm" and r.recipient == name)
                    assert got == want, (config.name, name)
        finally:
            reader.close()
