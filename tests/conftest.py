"""For every test: the root logger as the test found it.

``forumbot serve`` (and ``run``) set the process's logging up on stderr, as a command should; a test that invokes
them through typer's CliRunner leaves a handler on the runner's stream, which is closed once the test ends, and
every later test's log line would then print a logging error ("I/O operation on closed file") into its output.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _root_logger_restored() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    for handler in root.handlers[:]:
        # pytest's own capture handlers come and go with each test phase: pytest removes them itself
        if handler not in handlers and not type(handler).__module__.startswith("_pytest"):
            root.removeHandler(handler)
    root.setLevel(level)
