"""Season leases between ``forumbot serve`` workers on PostgreSQL: one holder at a time, takeover after
expiry with a new epoch, the old holder's writes refused in their own transaction, renewals, shares.
Skipped without a PostgreSQL server (FORUMBOT_TEST_POSTGRES; .ci/run starts one)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import text
from sqlmodel import Session, select

from forumbot.migrations import upgrade
from forumbot.runtime.store import OutboxRow, Store, make_engine
from forumbot.serve.lease import LeaseLost, Leases
from forumbot.serve.pacing import ForumPace

pytestmark = pytest.mark.parametrize("db_url", ["postgres"], indirect=True)


def _expire(engine, season: str, seconds_left: float = -1.0) -> None:
    """Move ``season``'s lease expiry to ``seconds_left`` from now (negative: past) on the database's clock:
    a worker that stopped renewing, without sleeping through a lease time (a loaded machine may pause a test
    for longer than a short lease, which made the test fail for the wrong reason)."""
    with engine.begin() as c:
        c.execute(text("UPDATE season_lease SET expires_at = now() + CAST(:d AS interval) WHERE season = :s"),
                  {"d": f"{seconds_left} seconds", "s": season})


def _lapse_heartbeat(engine, worker: str) -> None:
    with engine.begin() as c:
        c.execute(text("UPDATE serve_worker SET expires_at = now() - interval '1 second' WHERE worker = :w"),
                  {"w": worker})


@pytest.fixture
def engine(db_url):
    e = make_engine(db_url)
    upgrade(e)
    yield e
    e.dispose()


def test_one_holder_at_a_time_and_takeover_after_expiry_with_a_new_epoch(engine):
    a, b = Leases(engine, "a", lease_seconds=30.0), Leases(engine, "b", lease_seconds=30.0)
    lease_a = a.try_acquire("s1")
    assert lease_a is not None and lease_a.epoch == 1
    assert b.try_acquire("s1") is None  # held and valid
    assert a.try_acquire("s1") == lease_a  # ours already: same epoch
    assert a.renew(lease_a)
    _expire(engine, "s1")  # a stops renewing (it died) and its lease runs out
    lease_b = b.try_acquire("s1")
    assert lease_b is not None and lease_b.epoch == 2 and lease_b.worker == "b"
    assert not a.renew(lease_a)  # a finds out it lost the season
    assert a.try_acquire("s1") is None


def test_a_stale_holder_cannot_claim_an_outbox_row(engine):
    a, b = Leases(engine, "a", lease_seconds=30.0, margin_seconds=0.1), Leases(engine, "b", lease_seconds=30.0)
    store = Store.open_season(engine, "s1", "seed", {})
    store.queue([OutboxRow(season_id=0, key="k1", kind="post", body="hello")])
    row = store.outbox()[0]
    lease_a = a.try_acquire("s1")
    assert lease_a is not None
    store.guard = a.guard(lease_a)
    store.update_outbox(row.id, status="sending", attempts=1)  # held: the claim commits
    store.update_outbox(row.id, status="pending", attempts=1)
    _expire(engine, "s1")
    assert b.try_acquire("s1") is not None  # b takes over
    with pytest.raises(LeaseLost):
        store.update_outbox(row.id, status="sending", attempts=2)  # a, paused past its lease, wakes up
    with Session(engine) as s:
        stored = s.exec(select(OutboxRow).where(OutboxRow.key == "k1")).one()
    assert stored.status == "pending" and stored.attempts == 1  # refused inside its transaction: nothing written


def test_a_write_needs_the_lease_valid_for_the_margin(engine):
    a = Leases(engine, "a", lease_seconds=30.0, margin_seconds=10.0)
    store = Store.open_season(engine, "s1", "seed", {})
    lease = a.try_acquire("s1")
    assert lease is not None
    store.guard = a.guard(lease)
    store.set_cursor("x", 1)
    _expire(engine, "s1", 5.0)  # 5 s left < the 10 s margin: a write now could outlive the lease
    with pytest.raises(LeaseLost):
        store.set_cursor("x", 2)
    assert a.renew(lease)
    store.set_cursor("x", 3)
    assert store.cursor("x") == 3


def test_workers_racing_for_free_seasons_each_get_a_season_once(engine):
    workers = [Leases(engine, f"w{i}", lease_seconds=30.0) for i in range(4)]
    won: dict[str, list[str]] = {w.worker: [] for w in workers}
    seasons = [f"s{i}" for i in range(12)]

    def grab(w: Leases) -> None:
        for s in seasons:
            if w.try_acquire(s) is not None:
                won[w.worker].append(s)

    threads = [threading.Thread(target=grab, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    taken = sorted(s for got in won.values() for s in got)
    assert taken == sorted(seasons)  # every season exactly once
    holders = Leases(engine, "status").holders()
    assert {s: h[0] for s, h in holders.items()} == {s: w for w, got in won.items() for s in got}


def test_archived_seasons_are_never_taken_and_a_clean_stop_frees_the_rest(engine):
    a, b = Leases(engine, "a", lease_seconds=30.0), Leases(engine, "b", lease_seconds=30.0)
    one, two = a.try_acquire("one"), a.try_acquire("two")
    assert one is not None and two is not None
    a.release(one, archived=True)
    assert b.try_acquire("one") is None and b.archived("one")
    assert b.try_acquire("two") is None
    a.leave()  # SIGTERM: leases end now instead of after 30 s
    assert b.try_acquire("two") is not None


def test_the_share_of_each_worker_follows_the_live_workers(engine):
    a, b = Leases(engine, "a", lease_seconds=30.0), Leases(engine, "b", lease_seconds=30.0)
    assert a.heartbeat() == 1
    assert b.heartbeat() == 2
    assert a.share(20, 2) == 10 and a.share(20, 3) == 7 and a.share(0, 2) == 1
    _lapse_heartbeat(engine, "b")
    assert a.heartbeat() == 1  # b's heartbeat lapsed: a may hold every season


def test_the_pace_of_an_account_is_shared_between_workers_through_its_row(engine):
    one, two = ForumPace("http://d|judge", 0.5, engine), ForumPace("http://d|judge", 0.5, engine)
    assert one.acquire(timeout=1)
    assert not two.acquire(timeout=0.2)  # the other worker holds the row for its write
    one.hold_pms(3600)
    one.release(wrote=True)
    assert two.acquire(timeout=1)
    assert 0.3 < two.wait_seconds() <= 0.5  # the other worker's write was just answered
    assert two.pms_held()
    two.release(wrote=False)
    assert ForumPace("http://d|judge", 0.5, engine).pms_held()
