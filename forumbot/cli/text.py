"""Plain-text layout for the terminal."""

from __future__ import annotations

import unicodedata

from forumbot.plain_text import plain  # noqa: F401  (the terminal shows posts as forumbot.plain_text reads them)


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (CJK characters take two)."""
    columns = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - columns)
