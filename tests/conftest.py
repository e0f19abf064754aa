"""Run-wide test settings.

``scripts/test`` runs the suite on two pytest-xdist workers (``--dist loadgroup``): every test that starts a real
FlaskBB (marker ``e2e``) goes to one group, so those run one at a time on one worker, as their wall-clock bounds
assume, while the other worker takes the rest of the suite."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group("flaskbb"))
