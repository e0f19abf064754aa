"""Regenerates tests/forums/pages/: real FlaskBB pages for the parser unit tests.

Run it after upgrading FlaskBB (``.venv/bin/python tests/forums/save_pages.py``), then re-run the tests:
a failure there shows what changed in the markup. Not a test module (pytest does not collect it).
"""

from __future__ import annotations

import sys
from pathlib import Path

from forumbot.testforum import start_forum

PAGES = Path(__file__).with_name("pages")


def main() -> int:
    PAGES.mkdir(exist_ok=True)
    with start_forum(players=["小明", "小红", "alice"], signatures={"小红": "*签名档：好人一生平安*"}, quota=True, quota_size=6) as forum:
        judge, ming, hong = forum.client(), forum.client("小明"), forum.client("小红")
        thread = judge.create_thread(forum.forum_id, "第一天 Day 1", "白天开始，请发言。\n\n**规则**见一楼。")
        ming.reply(thread, "> **[法官](/user/法官) wrote:**\n>\n> 白天开始\n\n投票 @alice\n\n理由：\n太安静了")
        hong.reply(thread, "我是好人 :smile:")
        edited = ming.reply(thread, "vote bob")
        ming.edit_post(edited, "vote 小红")
        forum.seed_posts(thread, [("alice", f"第 {i} 楼") for i in range(5, 24)])

        def save(name: str, client, path: str) -> None:
            if not client._logged_in:
                client.login()
            (PAGES / name).write_text(client.http.get(path).text, "utf-8")

        save("topic_page1.html", judge, f"/topic/{thread}")
        save("topic_page3.html", judge, f"/topic/{thread}?page=3")
        save("topic_player_view.html", ming, f"/topic/{thread}?page=2")
        guest = forum.client()
        guest._logged_in = True  # read as a guest, without logging in
        (PAGES / "topic_guest.html").write_text(guest.http.get(f"/topic/{thread}").text, "utf-8")
        (PAGES / "missing_topic.html").write_text(guest.http.get("/topic/99999").text, "utf-8")

        judge.send_pm("小明", "你的身份", "你是**狼人**。\n\n同伴：小红")
        ming.send_pm("法官", "夜间行动", "> 你是狼人\n\n刀 alice")
        hong.send_pm("法官", "查验", "查验 小明")
        save("inbox.html", judge, "/conversations/inbox")
        conversation = judge.private_messages()[0].conversation_id
        save("conversation.html", judge, f"/conversations/{conversation}/view")
        forum.seed_conversations("alice", "法官", "spam", "filling the box", count=3)
        refused = judge.http.post(
            "/conversations/new",
            {"to_user": "小明", "subject": "x", "message": "y", "send_message": "Start", "csrf_token": judge._token("/conversations/new")},
        )
        (PAGES / "inbox_quota_refused.html").write_text(judge.http.get(refused.headers["location"]).text, "utf-8")
        login = guest.http.get("/auth/login")
        token = login.text.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
        failed = guest.http.post("/auth/login", {"login": "法官", "password": "wrong", "csrf_token": token})
        (PAGES / "login_failed.html").write_text(failed.text, "utf-8")
        for client in (judge, ming, hong, guest):
            client.close()
    print(f"saved {len(list(PAGES.glob('*.html')))} pages in {PAGES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
