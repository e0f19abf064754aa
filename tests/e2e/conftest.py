"""The end-to-end tests' teardown: no bot a test started outlives it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from season_driver import RUNNING


@pytest.fixture(autouse=True)
def _stop_bots() -> Iterator[None]:
    yield
    for bot in list(RUNNING):
        bot.stop()
