"""Plain-text layout for the terminal."""

from __future__ import annotations

import unicodedata


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (CJK characters take two)."""
    columns = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - columns)
