"""The stand-in forum of the tests of the test forum's harness: plain Python, no FlaskBB, started the way
FlaskBB is (``harness.FORUM_MAIN`` with the instance folder as its second argument)."""

from __future__ import annotations

_HEAD = '''
import http.server, json, os, sys, time
from pathlib import Path
instance = Path(sys.argv[2])
spec = json.loads((instance / "harness.json").read_text("utf-8"))
'''

_SERVE = '''
(instance / "setup.json").write_text(json.dumps({"forum_id": 1, "users": {}}))
class Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
print("serving", flush=True)
http.server.HTTPServer(("127.0.0.1", spec["port"]), Ok).serve_forever()
'''


def stand_in_forum(start: str) -> str:
    """The stand-in's script (Python source): it reads its ``harness.json``, runs ``start`` (top-level lines,
    with ``instance``, ``spec``, ``os``, ``sys`` and ``time`` at hand: a start made slow, stuck or dead on
    purpose), then writes ``setup.json``, logs "serving" (as FlaskBB's main does) and answers every GET with
    200 "ok" on the spec's port."""
    return _HEAD + start.strip("\n") + "\n" + _SERVE.lstrip("\n")
