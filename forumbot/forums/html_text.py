"""Rendered post HTML → the text a player meant.

Quotes (``blockquote``), signatures, buttons, scripts and comments are dropped; block elements become
paragraphs separated by a blank line; ``<br>`` becomes a newline (source newlines are spaces, as in
HTML, except inside ``<pre>``); images become their ``alt`` text
(emoji); everything else keeps only its text. Whitespace inside a line is collapsed.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Comment, NavigableString, Tag

from forumbot.forums.errors import BrokenPage

_DROP_TAGS = {"blockquote", "button", "script", "style", "template", "form", "input", "textarea", "select"}
_DROP_CLASSES = {"post-signature", "signature", "quote", "bbcode_quote", "attachments"}
_BLOCK_TAGS = {
    "p", "div", "li", "ul", "ol", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr",
    "section", "article", "dl", "dt", "dd", "hr", "details", "summary",
}
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")


def html_to_text(html: str | Tag) -> str:
    """Returns the plain text of ``html`` (a string or a parsed element), as described in the module doc."""
    root = BeautifulSoup(html, "lxml") if isinstance(html, str) else html
    parts: list[str] = []
    _walk(root, parts)
    return _tidy("".join(parts))


def _walk(node: Tag, out: list[str], pre: bool = False) -> None:
    for child in node.children:
        if isinstance(child, Comment):
            continue
        if isinstance(child, NavigableString):
            out.append(str(child) if pre else str(child).replace("\n", " "))
            continue
        if not isinstance(child, Tag):
            continue
        name = child.name.lower()
        classes = set(child.get("class") or [])
        if name in _DROP_TAGS or classes & _DROP_CLASSES or child.has_attr("hidden"):
            continue
        if name == "br":
            out.append("\n")
        elif name == "img":
            out.append(str(child.get("alt") or ""))
        elif name in _BLOCK_TAGS:
            out.append("\n\n")
            _walk(child, out, pre or name == "pre")
            out.append("\n\n")
        else:
            _walk(child, out, pre)


def _tidy(text: str) -> str:
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


_HTML_END = re.compile(r"</html>\s*\Z", re.I)


def require_whole_page(text: str, url: str, mark: str) -> None:
    """Raises :class:`~forumbot.forums.errors.BrokenPage` unless ``text`` is a whole page of the forum: it
    ends with ``</html>`` (a page cut short does not; lxml would parse what arrived and a message cut in the
    middle would read as a shorter message) and contains ``mark``, a string every page of the engine has
    (``flaskbb-navbar``, ``id="phpbb"``; a proxy's error page served with 200 has neither)."""
    if not _HTML_END.search(text[-200:]):
        raise BrokenPage(url, "the end of the page '</html>'")
    if mark not in text:
        raise BrokenPage(url, f"the forum's page structure ({mark!r})")
