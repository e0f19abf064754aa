"""Pictures with a post on a real Discuz! X3.5 (issue 13: a vote round's PNG chart with its result post).

Recorded on the dev X3.5 (UTF-8) by the adapter itself (captures ``utf8-attach/``: the judge opens a
thread, uploads a PNG, replies naming it; a player reads the thread back through the mobile API and the
web page and fetches the picture; ``utf8-attach-refused/``: the judge's group limited to 10000 bytes,
then without permission to upload). The cassette fails a test when the adapter asks what the real forum
was not asked.
"""

from __future__ import annotations

import hashlib

import pytest
from cassette import Cassette, capture, load
from discuz_helpers import Site, replay

from forumbot.forums import discuz_api as api
from forumbot.forums.base import ImageForum
from forumbot.forums.discuz import _upload_answer
from forumbot.forums.errors import LayoutChanged, NotAllowed, SendFailed

BODY = "【第 1 轮投票结果】\nC 得 11 分，被投出。"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 20333  # the recorded upload had 20341 bytes


def tape(*parts: str, user: str | None = "法官") -> Cassette:
    return Cassette([e for p in parts for e in load(p, user)])


def test_the_adapter_uploads_the_png_then_names_it_in_the_reply():
    """As recorded: checkpost (version 3) gives the upload hash, forumupload takes a multipart form and
    answers DISCUZUPLOAD|0|4|1|0, the reply carries [attachimg]4[/attachimg] and attachnew[4]; reading
    the thread back gives the post's text alone (the picture is not part of what the player meant)."""
    c = tape("utf8-attach")
    judge, _ = replay(c, password="judgepass")
    assert isinstance(judge, ImageForum)
    tid = judge.create_thread(2, "实测七·投票图 133557", "投票图测试帖。\n第 1 轮投票结果见下。")
    assert tid == 8
    aid = judge.upload_image(tid, "vote-7.png", PNG)
    assert aid == 4
    assert judge.write_wait_seconds() > 15  # the upload is not paced and does not restart the flood wait
    pid = judge.reply_with_images(tid, BODY, [aid])
    assert pid == 66
    check = c.sent("checkpost")[0]
    assert check.query["version"] == "3" and check.query["submodule"] == "checkpost" and check.query["fid"] == "2"
    upload = c.sent("forumupload")[0]
    assert upload.query == {"version": "4", "module": "forumupload", "fid": "2", "type": "image", "simple": "1"}
    assert upload.form["uid"] == "1" and upload.form["hash"] == "REDACTED"  # the hash checkpost gave (redacted)
    assert upload.form["Filedata"] == PNG
    assert 'filename="vote-7.png"' in upload.content.decode("latin-1")
    assert "bot" not in upload.headers["user-agent"].lower()  # Discuz! answers a "bot" 403 on the upload
    reply = c.sent("sendreply")[0].form
    assert reply["message"] == BODY + "\n[attachimg]4[/attachimg]" and reply["attachnew[4][description]"] == ""
    posts = judge.thread_posts(tid)
    assert posts[-1].post_id == 66 and posts[-1].text == BODY
    assert '<img src="http://127.0.0.1:8081/data/attachment/forum/' in posts[-1].raw_html
    assert c.unused() == []


def test_the_real_forum_shows_the_picture_to_players():
    """What the recording saw after the post: a player (group 新手上路) gets the picture inline from the
    mobile API and the web page, and the attachment URL serves exactly the uploaded bytes. (A guest does
    not see it: Discuz!'s guest group may not view pictures by default, see docs/discuz.md.)"""
    sent = capture("utf8-attach/007_post_forumupload_upload.json")["request"]["form"]["Filedata"]
    mobile = capture("utf8-attach/012_get_viewthread_player_readback.json")["json"]["Variables"]["postlist"]
    post = next(p for p in mobile if p["pid"] == "66")
    assert '<div class="img"><img src="http://127.0.0.1:8081/data/attachment/forum/' in post["message"]
    assert api.post_text(post["message"])[0] == BODY
    served = capture("utf8-attach/013_get_data_attachment_forum_202612_01_213557s93t688oa6az9wt5.png_attachment_png.json")
    assert served["_http"] == 200 and f"{sent['bytes']} bytes image/png sha256 {sent['sha256']}" in served["_nonjson"]
    assert sent["magic"] == "89504e470d0a1a0a"
    web = capture("utf8-attach/014_get_forum.php_web_viewthread.json")["_nonjson"]
    assert 'id="aimg_4" aid="4"' in web and 'zoomfile="data/attachment/forum/' in web


def test_a_picture_larger_than_the_group_allows_is_refused_as_sendfailed():
    c = tape("utf8-attach-refused/002_get_login_too_large.json", "utf8-attach-refused/003_post_login_too_large.json",
             "utf8-attach-refused/004_get_forumindex_too_large.json", "utf8-attach-refused/005_get_viewthread_too_large.json",
             "utf8-attach-refused/006_get_checkpost_too_large.json", "utf8-attach-refused/007_post_forumupload_too_large.json")
    judge, _ = replay(c, password="judgepass")
    with pytest.raises(SendFailed, match=r"largest attachment.*10000.*status 3"):
        judge.upload_image(8, "vote-8.png", PNG)
    assert c.unused() == []


def test_no_permission_to_upload_is_notallowed_without_an_upload():
    """checkpost without ``allowupload`` (the group may not upload): refused before uploading anything."""
    c = tape("utf8-attach-refused/002_get_login_too_large.json", "utf8-attach-refused/003_post_login_too_large.json",
             "utf8-attach-refused/004_get_forumindex_too_large.json", "utf8-attach-refused/005_get_viewthread_too_large.json",
             "utf8-attach-refused/008_get_checkpost_no_permission.json")
    judge, _ = replay(c, password="judgepass")
    with pytest.raises(NotAllowed, match="may not upload PNG"):
        judge.upload_image(8, "vote-9.png", PNG)
    assert c.sent("forumupload") == []


def test_the_uploaders_own_answers():
    """DISCUZUPLOAD statuses as recorded (0: the aid; 3: too large; 6: no permission) and the others of
    Discuz!'s uploader; an empty answer is a refused upload hash; HTTP 403 a client taken for a robot."""
    ok = capture("utf8-attach/007_post_forumupload_upload.json")["_nonjson"]
    assert _upload_answer(ok, 200, "x") == 4
    with pytest.raises(SendFailed, match="limit 10000"):
        _upload_answer(capture("utf8-attach-refused/007_post_forumupload_too_large.json")["_nonjson"], 200, "x")
    with pytest.raises(NotAllowed, match="status 6"):
        _upload_answer(capture("utf8-attach-refused/010_post_forumupload_no_permission_direct.json")["_nonjson"], 200, "x")
    with pytest.raises(NotAllowed, match=r"extension|allowed attachment type"):
        _upload_answer("DISCUZUPLOAD|1|0|0|0", 200, "x")
    with pytest.raises(NotAllowed, match="hash"):
        _upload_answer("", 200, "x")
    with pytest.raises(NotAllowed, match="robot"):
        _upload_answer("", 403, "x")
    with pytest.raises(LayoutChanged):
        _upload_answer("<html>error</html>", 200, "x")


def test_the_fake_discuz_keeps_uploads_unused_until_a_reply_names_them():
    site = Site()
    judge = site.client()
    tid = judge.create_thread(3, "投票图", "正文正文正文")
    aid = judge.upload_image(tid, "vote.png", PNG)
    assert site.fake.unused == {aid} and hashlib.sha256(site.fake.attachments[aid][1]).digest() == hashlib.sha256(PNG).digest()
    site.clock.advance(16)
    pid = judge.reply_with_images(tid, BODY, [aid])
    assert site.fake.unused == set()
    post = next(p for p in site.fake.threads[tid].posts if p.pid == pid)
    assert post.attachments == [aid] and f"[attachimg]{aid}[/attachimg]" in post.text
    site.close()
