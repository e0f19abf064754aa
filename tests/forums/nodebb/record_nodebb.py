"""Records a scenario of ``nodebb_scenarios.py`` on a live NodeBB into ``captures/<scenario>/``.

Usage (a NodeBB of your own on 127.0.0.1; nothing of NodeBB is kept, only its answers)::

    NODEBB_URL=http://127.0.0.1:4590 NODEBB_ACCOUNTS=/path/accounts.json \\
        .venv/bin/python tests/forums/nodebb/record_nodebb.py SCENARIO '{"tid": 5, "cid": 2}'

``accounts.json`` maps each account name to ``{"password": ..., "token": ...}`` (a token only where the
scenario uses one). The scenario's result is printed; the tests replay the files and assert on it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from pprint import pprint

sys.path.insert(0, str(Path(__file__).parent))

from nodebb_cassette import CAPTURES, Recorder
from nodebb_scenarios import SCENARIOS

from forumbot.forums.nodebb import NodeBBForum


def main() -> None:
    scenario, ctx = sys.argv[1], json.loads(sys.argv[2] if len(sys.argv) > 2 else "{}")
    base = os.environ.get("NODEBB_URL", "http://127.0.0.1:4590")
    accounts = json.loads(Path(os.environ["NODEBB_ACCOUNTS"]).read_text("utf-8"))
    shutil.rmtree(CAPTURES / scenario, ignore_errors=True)
    counter = [0]

    def make(user: str, **kwargs):
        auth = kwargs.pop("auth", "session")
        secret = kwargs.pop("secret", None) or accounts[user]["token" if auth == "token" else "password"]
        kwargs.setdefault("retries", 0)
        return NodeBBForum(base, user, secret, auth=auth, transport=Recorder(scenario, user, counter), **kwargs)

    started = time.monotonic()
    result = SCENARIOS[scenario](make, ctx)
    pprint(result)
    (CAPTURES / scenario / "_ctx.json").write_text(json.dumps(ctx) + "\n", "utf-8")
    print(f"{counter[0]} exchanges in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
