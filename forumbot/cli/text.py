"""Plain-text layout for the terminal."""

from __future__ import annotations

import re
import unicodedata


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (CJK characters take two)."""
    columns = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - columns)


# In Markdown: a backslash escape (forumbot.render.escape) or bold; in BBCode: a tag, or the zero-width
# space forumbot.render.escape puts after a "[" to stop one.
_MARKDOWN = re.compile(r"\\([\\`*_{}\[\]<>#|~&])|\*\*")
_BBCODE = re.compile(r"\[/?[a-z]+(?:=[^\]\n]*)?\]|(\[)\u200b", re.IGNORECASE)


def plain(text: str, markup: str) -> str:
    """``text`` rendered for the forum in ``markup`` (bbcode or markdown) as it reads in a terminal:
    Markdown escapes ("nobody\\_here") and bold marks, BBCode tags and escapes taken out."""
    pattern = _MARKDOWN if markup == "markdown" else _BBCODE
    return pattern.sub(lambda m: m.group(1) or "", text)
