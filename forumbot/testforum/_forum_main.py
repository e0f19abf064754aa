"""The forum side of the test harness: runs *inside the FlaskBB virtualenv* (Python 3.12), never in forumbot's.

Stdlib + FlaskBB only; it must not import forumbot. Two sub-commands:

``init DB``
    Creates a FlaskBB database (schema, groups, default settings, the conversations plugin enabled and
    migrated) in the SQLite file DB. The harness runs this once and caches the file as a template.

``serve INSTANCE``
    Reads ``INSTANCE/harness.json``, sets the forum up on first start (plugin settings, judge, players,
    category and game forum; the ids go to ``INSTANCE/setup.json``), adds the token-protected seeding
    endpoints under ``/_harness/`` and serves on 127.0.0.1 with waitress until terminated.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import ClassVar

os.environ.setdefault("FLASKBB_USE_DEFAULT_LOGGING", "False")


def _config(db_path: str, secret: str = "harness-init-secret", port: int = 0) -> type:
    class HarnessConfig:
        SQLALCHEMY_DATABASE_URI = "sqlite:///" + db_path
        SECRET_KEY = secret
        WTF_CSRF_SECRET_KEY = secret + "-csrf"
        USE_DEFAULT_LOGGING = False
        LOG_DEFAULT_CONF = None
        TRUSTED_HOSTS: ClassVar[list[str]] = ["127.0.0.1", "localhost", f"127.0.0.1:{port}", f"localhost:{port}"]
        RATELIMIT_STORAGE_URI = "memory://"
        RATELIMIT_ENABLED = False
        CACHE_TYPE = "SimpleCache"
        REDIS_ENABLED = False
        DEBUG = False
        TESTING = False
        SEND_LOGS = False
        EMOJI_BASE_URL = None
        CELERY_CONFIG: ClassVar[dict[str, object]] = {
            "broker_url": "memory://",
            "result_backend": "cache+memory://",
            "task_always_eager": True,
        }

    return HarnessConfig


def init(db_path: str) -> None:
    """Creates the database in ``db_path`` (which must not exist)."""
    from flaskbb import create_app
    from flaskbb.extensions import db
    from flaskbb.plugins.models import PluginRegistry
    from flaskbb.plugins.utils import apply_plugin_migrations
    from flaskbb.utils.populate import create_default_groups, create_default_settings, create_latest_db

    instance = str(Path(db_path).parent)
    app = create_app(_config(db_path), instance)
    with app.app_context():
        create_latest_db()
        create_default_groups()
        create_default_settings()
        plugin = db.session.query(PluginRegistry).filter_by(name="conversations").one_or_none()
        if plugin is None:
            plugin = PluginRegistry(name="conversations")
        plugin.enabled = True
        db.session.add(plugin)
        db.session.commit()
        apply_plugin_migrations("conversations")


def _setup(spec: dict) -> dict:
    """First start: plugin settings, accounts, forum. Returns the ids for setup.json."""
    from flaskbb.extensions import db
    from flaskbb.forum.models import Category, Forum
    from flaskbb.plugins.models import PluginRegistry
    from flaskbb.settings.models import Setting
    from flaskbb.utils.populate import create_user

    PluginRegistry.query.filter_by(name="conversations").one().add_settings()
    Setting.update("auth", {"AUTH_RATELIMIT_ENABLED": False})
    Setting.update(
        "conversations",
        {"MESSAGE_QUOTA_ENABLED": bool(spec["quota"]), "MESSAGE_QUOTA": int(spec["quota_size"])},
    )
    Setting.update("general", {"POSTS_PER_PAGE": int(spec["posts_per_page"])})
    users = {}
    judge = spec["judge"]
    users[judge["name"]] = create_user(judge["name"], judge["password"], judge["email"], "admin").id
    for player in spec["players"]:
        user = create_user(player["name"], player["password"], player["email"], "member")
        if player.get("signature"):
            user.signature = player["signature"]
            user.save()
        users[player["name"]] = user.id
    category = Category(title=spec["category_title"], position=1)
    category.save()
    forum = Forum(title=spec["forum_title"], description="forumbot test forum", category_id=category.id)
    forum.save()
    db.session.commit()
    return {"forum_id": forum.id, "category_id": category.id, "users": users}


def _harness_blueprint(token: str):
    from flask import Blueprint, abort, jsonify, request
    from flaskbb.extensions import csrf, db
    from flaskbb.forum.models import Post, Topic
    from flaskbb.user.models import User

    bp = Blueprint("forumbot_harness", __name__, url_prefix="/_harness")

    @bp.before_request
    def _check_token():
        if request.headers.get("X-Harness-Token") != token:
            abort(403)

    @bp.post("/posts")
    def add_posts():
        """Body: {topic_id, posts: [[username, markdown], ...]} -> {post_ids: [...]}, oldest first."""
        data = request.get_json()
        topic = db.session.get(Topic, int(data["topic_id"]))
        if topic is None:
            abort(404)
        users = {u.username: u for u in User.query.all()}
        ids = []
        for username, content in data["posts"]:
            post = Post(content=content)
            post.save(user=users[username], topic=topic)
            ids.append(post.id)
        return jsonify({"post_ids": ids})

    @bp.post("/conversations")
    def add_conversations():
        """Body: {from, to, subject, message, count} -> {count}: conversations stored in both boxes."""
        import uuid

        from conversations.models import Conversation, Message
        from conversations.utils import invalidate_cache

        data = request.get_json()
        sender = User.query.filter_by(username=data["from"]).one()
        receiver = User.query.filter_by(username=data["to"]).one()
        for _ in range(int(data.get("count", 1))):
            shared = uuid.uuid4()
            for owner, unread in ((sender, False), (receiver, True)):
                conv = Conversation(
                    subject=data["subject"], from_user_id=sender.id, to_user_id=receiver.id,
                    user_id=owner.id, shared_id=shared, unread=unread,
                )
                conv.save(message=Message(message=data["message"], user_id=sender.id))
        invalidate_cache(sender.id)
        invalidate_cache(receiver.id)
        return jsonify({"count": int(data.get("count", 1))})

    csrf.exempt(bp)
    return bp


def _step(what: str) -> None:
    print(f"starting: {what}", flush=True)


def serve(instance: str) -> None:
    """Sets up (first start only) and serves the forum of ``instance`` until terminated."""
    inst = Path(instance)
    spec = json.loads((inst / "harness.json").read_text("utf-8"))
    _step("importing FlaskBB")  # each step a line: the harness waits as long as the log advances
    from flaskbb import create_app

    _step("creating the app")
    app = create_app(_config(str(inst / "forum.sqlite"), spec["secret_key"], spec["port"]), str(inst))
    setup_file = inst / "setup.json"
    if not setup_file.exists():
        _step("setting the forum up")
        with app.app_context():
            result = _setup(spec)
        tmp = setup_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(result, ensure_ascii=False), "utf-8")
        tmp.replace(setup_file)
    app.register_blueprint(_harness_blueprint(spec["harness_token"]))

    _step("importing waitress")
    import waitress

    print(f"serving on http://127.0.0.1:{spec['port']}", flush=True)
    waitress.serve(app, host="127.0.0.1", port=spec["port"], threads=4, ident="flaskbb", _quiet=True)


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "init":
        init(argv[1])
        return 0
    if len(argv) == 2 and argv[0] == "serve":
        serve(argv[1])
        return 0
    print("usage: _forum_main.py init DB | serve INSTANCE", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
