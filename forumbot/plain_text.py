"""A post's text as it reads without its markup (the terminal's ``forumbot status``, the console's pages)."""

from __future__ import annotations

import re

# In Markdown: a backslash escape (forumbot.render.escape) or bold; in BBCode: a tag, or the zero-width
# space forumbot.render.escape puts after a "[" to stop one.
_MARKDOWN = re.compile(r"\\([\\`*_{}\[\]<>#|~&])|\*\*")
_BBCODE = re.compile(r"\[/?[a-z]+(?:=[^\]\n]*)?\]|(\[)\u200b", re.IGNORECASE)


def plain(text: str, markup: str) -> str:
    """``text`` rendered for the forum in ``markup`` (bbcode or markdown) as it reads in a terminal:
    Markdown escapes ("nobody\\_here") and bold marks, BBCode tags and escapes taken out."""
    pattern = _MARKDOWN if markup == "markdown" else _BBCODE
    return pattern.sub(lambda m: m.group(1) or "", text)
