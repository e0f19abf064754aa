"""Fixtures for engine tests."""

import pytest

from forumbot.render import Renderer


@pytest.fixture
def en() -> Renderer:
    return Renderer("en", "markdown")
