"""Fixtures for the forum-layer tests: one real FlaskBB per test session, extra ones on demand."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from forumbot.forums.flaskbb import FlaskBBForum
from forumbot.testforum import RunningForum, start_forum

PLAYERS = ("小明", "小红", "alice", "bob", "王大锤")
SIGNATURES = {"小红": "*签名档：好人一生平安*"}
PAGES = Path(__file__).with_name("pages")


@pytest.fixture(scope="session")
def forum() -> Iterator[RunningForum]:
    """The shared test forum (quota off). Tests must not stop it; each makes its own threads."""
    with start_forum(players=PLAYERS, signatures=SIGNATURES) as running:
        yield running


@pytest.fixture
def make_forum() -> Iterator[Callable[..., RunningForum]]:
    """Starts an extra forum (for stop/restart or quota tests) with ``start_forum(**kwargs)``; closed after."""
    started: list[RunningForum] = []

    def make(**kwargs) -> RunningForum:
        kwargs.setdefault("players", PLAYERS[:3])
        running = start_forum(**kwargs)
        started.append(running)
        return running

    yield make
    for running in started:
        running.close()


@pytest.fixture
def clients() -> Iterator[list[FlaskBBForum]]:
    """A list the test appends its adapters to; they are closed after the test."""
    made: list[FlaskBBForum] = []
    yield made
    for client in made:
        client.close()


@pytest.fixture
def judge(forum: RunningForum, clients: list[FlaskBBForum]) -> FlaskBBForum:
    """A fresh adapter for the judge of the shared forum (no retries: failures show at once)."""
    client = forum.client(retries=0)
    clients.append(client)
    return client


@pytest.fixture
def player(forum: RunningForum, clients: list[FlaskBBForum]) -> Callable[[str], FlaskBBForum]:
    """``player(name)``: an adapter logged in as that player of the shared forum."""

    def make(name: str) -> FlaskBBForum:
        client = forum.client(name, retries=0)
        clients.append(client)
        return client

    return make
