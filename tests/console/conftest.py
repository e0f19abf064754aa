"""The console's tests use the runtime tests' seasons on the in-memory forum (tests/runtime/bot_helpers.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "runtime"))
