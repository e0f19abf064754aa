"""The console served by uvicorn beside the judging: on 127.0.0.1 by default, a port in use is one line."""

from __future__ import annotations

import socket

import httpx
import pytest
from console_helpers import running_season
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.console.server import ConsoleError, ConsoleServer, file_console


def test_the_console_answers_on_127_0_0_1_and_stops(tmp_path):
    path, _ = running_season(tmp_path)
    server = file_console(path, None, "127.0.0.1", 0, public=True).start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        for _ in range(100):  # uvicorn starts in its thread
            try:
                home = httpx.get(f"{base}/", follow_redirects=False, timeout=2)
                break
            except httpx.ConnectError:
                server.thread.join(0.05)
        assert home.status_code == 303 and home.headers["location"].startswith("/login?next=")
        public = httpx.get(f"{base}/public/春季赛", timeout=2)
        assert public.status_code == 200 and "春季赛" in public.text
    finally:
        server.stop()
    assert not server.thread.is_alive()


def test_a_port_in_use_is_one_clear_error(tmp_path):
    path, _ = running_season(tmp_path)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        with pytest.raises(ConsoleError, match=f"cannot listen on 127.0.0.1:{port}"):
            ConsoleServer.__init__(object.__new__(ConsoleServer), source=None, port=port)  # type: ignore[arg-type]
        res = CliRunner().invoke(app, ["serve", str(tmp_path), "--console-port", str(port)])
        assert res.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in res.output, res.output
        assert "Traceback" not in res.output
        res = CliRunner().invoke(app, ["run", str(path), "--web", "--web-port", str(port)], env={"NOPE": "pw"})
        assert res.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in res.output, res.output
    finally:
        taken.close()
