"""A whole sunlight season (the rulebook's worked example) through the Discuz! adapter on the contract
fake, driven by the runtime's Bot with the test's clock: flood pacing, the current-second PM view,
relative PM times and double-escaped posts all on the way."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import yaml
from discuz_helpers import T0, Site

from forumbot.config import SeasonConfig
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import make_engine

EXAMPLE = Path(__file__).parents[2] / "transcripts" / "sunlight_worked_example.yaml"
PLAYERS = list("ABCDEFG")


def example_phases() -> list[list[tuple[str, str]]]:
    t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]


def make_config(tmp_path: Path, site: Site, players: list[str] = PLAYERS, poll: str = "1s") -> SeasonConfig:
    return SeasonConfig.model_validate({
        "name": "版杀 Discuz 测试",
        "ruleset": "sunlight",
        "locale": "en",
        "players": players,
        "roles": {players[2]: "killer"},
        "organisers": ["Org"],
        "forum": {"engine": "discuz", "base_url": site.fake.base, "username": "法官", "password_env": "X",
                  "forum_id": 3},
        "schedule": {"start": T0.replace(tzinfo=None).isoformat(), "default": "1h", "grace": "1s", "reminders": [],
                     "poll_interval": poll},
        "time_zone": "UTC",
        "seed": 7,
        "path": tmp_path / "season.toml",
    })


def test_worked_example_through_discuz(tmp_path):
    site = Site()
    for name in [*PLAYERS, "Org"]:
        site.fake.add_user(name)
    config = make_config(tmp_path, site)
    assert config.effective_markup == "bbcode" and config.forum.min_write_interval_seconds == 16
    forum = site.client(retries=0)
    clock = site.clock
    bot = Bot(config, forum, clock=clock, engine=make_engine(f"sqlite:///{tmp_path / 'season.db'}"),
              sleep=clock.advance)

    def catch_up() -> None:  # cycles every poll interval until the outbox is empty (writes 16 s apart)
        for _ in range(500):
            if not bot.store.outbox(("pending", "sending")):
                return
            clock.advance(1)
            bot.cycle()

    bot.cycle()  # start: the thread and the role PMs, 16 s apart, sent between reads
    catch_up()
    assert bot.thread_id in site.fake.threads
    clock.now = bot.deadline() + timedelta(seconds=2)
    bot.cycle()  # the prologue closes
    for messages in example_phases():
        clock.advance(3)
        for sender, text in messages:
            site.fake.player_pm(sender, "法官", text)
            clock.advance(0.5)
            bot.cycle()
        catch_up()
        clock.now = bot.deadline() + timedelta(seconds=2) if bot.deadline() else clock.now
        bot.cycle()
        catch_up()
    for _ in range(3):
        clock.advance(20)
        bot.cycle()

    g = bot.game
    assert g.finished and g.winner == "good"
    assert {g.name(s): v for s, v in g.ruleset.scores().items()} == {"A": 11, "B": 8, "C": 1.5, "D": 6, "E": 0, "F": 0, "G": 5}
    assert bot.done()
    judge_posts = [p for p in site.fake.threads[bot.thread_id].posts if p.author.name == "法官"]
    assert "final results" in judge_posts[-1].text and "27 / 73" in judge_posts[-1].text
    assert any("[b]" in p.text for p in judge_posts)  # the bot writes BBCode; players read it rendered
    read_back = forum.thread_posts(bot.thread_id)
    assert read_back[-1].post_id == judge_posts[-1].pid and "[b]" not in read_back[-1].text
    for name in PLAYERS:
        assert sum("welcome to" in pm.text for pm in site.fake.pms_to(name)) == 1
    # every command was read once, with its forum time no later than the truth, and answered
    inputs = [(row, inbound) for row, inbound in bot.store.inputs() if row.kind == "message"]
    assert len(inputs) == sum(len(p) for p in example_phases())
    sent = {p.pmid: p for p in site.fake.pms}
    for _, inbound in inputs:
        truth = sent[inbound.forum_id].dateline
        assert inbound.sent_at.timestamp() <= truth <= inbound.sent_at.timestamp() + 3
    outbox = {r.key: r for r in bot.store.outbox()}
    for row, inbound in inputs:
        first = outbox[f"{bot.store.season_id}:{row.seq}:0"]
        assert first.recipient == inbound.sender and first.status == "sent"
    # flood control was never hit: every write was paced
    assert not any(r.last_error for r in bot.store.outbox())
    site.close()


def test_a_stalled_new_thread_request_leaves_one_thread(tmp_path):
    """The forum created the thread but the answer never came (capture dup-thread/: the bot then opened a
    second one). The next cycle finds it in the board's list (forumdisplay) and uses it."""
    site = Site()
    for name in [*PLAYERS, "Org"]:
        site.fake.add_user(name)
    bot = Bot(make_config(tmp_path, site), site.client(retries=0), clock=site.clock,
              engine=make_engine(f"sqlite:///{tmp_path / 'season.db'}"), sleep=site.clock.advance)
    site.fake.stall.add("newthread")
    for _ in range(400):  # cycles every poll interval until the new-thread request went out
        bot.cycle()
        if site.fake.threads:
            break
        site.clock.advance(1)
    assert len(site.fake.threads) == 1 and bot.thread_id is None  # made on the forum, not known to the bot
    site.clock.advance(30)
    bot.cycle()
    assert bot.thread_id is None  # within the forum's request horizon: not looked for yet, not sent again
    site.clock.advance(31)
    bot.cycle()
    assert list(site.fake.threads) == [bot.thread_id]
    assert ("GET", "forumdisplay") in site.fake.log
    site.close()


def test_19_role_pms_go_out_without_one_flood_refusal(tmp_path):
    """The fake refuses as a real X3.5 does (a write 15.0 s after the previous one refused, 16.0 s after
    accepted: captures utf8-flood-posts/, utf8-pmflood/). Writes spaced 16 s from the answer to the previous
    one send all 19 role PMs first time; the last goes out near the floor of 18 × 16 s after the first."""
    import json

    site = Site()
    players = [f"玩家{i:02d}" for i in range(19)]
    for name in [*players, "Org"]:
        site.fake.add_user(name)
    refusals: list[str] = []
    handle = site.fake.handle

    def watch(request):
        response = handle(request)
        if response.headers.get("content-type", "").startswith("application/json"):
            val = (json.loads(response.content).get("Message") or {}).get("messageval", "")
            if val in ("post_flood_ctrl", "message_can_not_send_2"):
                refusals.append(val)
        return response

    site.fake.handle = watch
    bot = Bot(make_config(tmp_path, site, players, poll="60s"), site.client(retries=0), clock=site.clock,
              engine=make_engine(f"sqlite:///{tmp_path / 'season.db'}"), sleep=site.clock.sleep)
    for _ in range(60):
        bot.cycle()
        if all(site.fake.pms_to(name) for name in players):
            break
        site.clock.advance(5)
    role_pms = [min(site.fake.pms_to(name), key=lambda p: p.pmid) for name in players]
    assert refusals == []
    spread = max(p.dateline for p in role_pms) - min(p.dateline for p in role_pms)
    assert 18 * 16 <= spread <= 18 * 16 * 1.25
    site.close()
