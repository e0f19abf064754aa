"""Rendered post HTML → the text a player meant."""

from __future__ import annotations

import pytest

from forumbot.forums.html_text import html_to_text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<p>投票 <strong>alice</strong></p>", "投票 alice"),
        ("<p>line one<br/>\nline two</p><p>next paragraph</p>", "line one\nline two\n\nnext paragraph"),
        ("<blockquote><p>法官 wrote:</p><p>vote bob</p></blockquote><p>vote alice</p>", "vote alice"),
        ('<p>hi</p><div class="post-signature"><hr/><p>签名</p></div>', "hi"),
        ('<p><a href="/user/alice">@alice</a> 你好</p>', "@alice 你好"),
        ("<ul><li>one</li><li>two</li></ul>", "one\n\ntwo"),
        ("<pre><code>a  b\n c</code></pre>", "a b\nc"),
        ('<p>ok <img alt="😀" src="x.svg"/></p>', "ok 😀"),
        ("<p>a</p><!-- Signature Begin --><!-- Signature End -->", "a"),
        ('<p>x</p><button hidden="">Show full quote</button>', "x"),
        ("<p>&lt;b&gt;raw&lt;/b&gt; [b]bb[/b]</p>", "<b>raw</b> [b]bb[/b]"),
        ("", ""),
    ],
)
def test_html_to_text(html, text):
    assert html_to_text(html) == text
