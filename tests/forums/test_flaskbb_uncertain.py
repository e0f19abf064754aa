"""FlaskBB answers that are neither the expected result nor a refusal make a write uncertain, not refused
(issue 9.6): the runtime looks for it after the request horizon instead of reporting a failure or
sending it again at once. No network: the pages are recorded ones."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from forumbot.forums.errors import NoSuchUser, SendFailed, WriteUncertain
from forumbot.forums.flaskbb import FlaskBBForum

PAGES = Path(__file__).with_name("pages")


def forum_answering(post_answer: httpx.Response) -> FlaskBBForum:
    page = (PAGES / "inbox.html").read_text(encoding="utf-8")

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return post_answer
        return httpx.Response(200, text=page)

    forum = FlaskBBForum("http://forum.test", "法官", "pw", retries=0)
    forum.http.client = httpx.Client(base_url="http://forum.test", transport=httpx.MockTransport(handler))
    forum._logged_in = True
    return forum


@pytest.mark.parametrize("answer", [httpx.Response(200, text="<html><body>busy, try later</body></html>"),
                                    httpx.Response(302, headers={"location": "/conversations/sent"})])
def test_an_answer_that_is_not_the_result_is_uncertain(answer):
    forum = forum_answering(answer)  # a page without the form or its errors; "sent" but not in the sent box
    with pytest.raises(WriteUncertain):
        forum.send_pm("小明", "第三季 · 法官", "你的身份")


def test_a_form_error_is_still_a_refusal():
    form = ('<html><body><nav class="flaskbb-navbar"><div class="btn-group"><a class="btn" href="/user/法官">法官</a>'
            '</div></nav><form><input name="csrf_token" value="t"><div class="invalid-feedback">'
            'The username you entered does not exist.</div></form></body></html>')
    forum = forum_answering(httpx.Response(200, text=form))
    with pytest.raises(SendFailed) as caught:
        forum.send_pm("没有这个人", "s", "b")
    assert isinstance(caught.value, NoSuchUser)
