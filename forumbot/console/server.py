"""Serving the console beside the judging: uvicorn in a daemon thread of ``forumbot serve --console-port`` or
``forumbot run FILE --web``, on 127.0.0.1 unless told otherwise (behind a reverse proxy for anything else:
docs/console.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from pathlib import Path

from forumbot.console.auth import ConsoleAuth
from forumbot.console.console_file import ConsoleFileError
from forumbot.console.source import SeasonSource

log = logging.getLogger("forumbot")
#: the console's address as organisers reach it (behind a reverse proxy: https://...): the base of sign-in links
URL_ENV = "FORUMBOT_CONSOLE_URL"


class ConsoleError(Exception):
    """The console cannot start (its port is taken, its address is not this machine's): the message says which."""


def auth_for(source: SeasonSource) -> ConsoleAuth:
    """The logins of a console over ``source``: its console file in the served directory (the season file's
    folder), the address organisers reach it at from ``FORUMBOT_CONSOLE_URL`` (docs/runtime.md)."""
    import os

    if source.directory is not None:
        folder = source.directory
    else:
        assert source.files  # a source is a directory or season files
        folder = Path(source.files[0]).resolve().parent
    return ConsoleAuth(source, folder, public_url=os.environ.get(URL_ENV) or None)


class ConsoleServer:
    """The console app of ``source`` on ``host``:``port`` (0: any free port, see :attr:`port`). The socket is bound
    at construction, so a port in use is a :class:`ConsoleError` before anything else starts."""

    def __init__(self, source: SeasonSource, host: str = "127.0.0.1", port: int = 8080, public: bool = False) -> None:
        import uvicorn

        from forumbot.console.app import create_app

        try:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            self.socket = socket.socket(family, socket.SOCK_STREAM)
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.socket.bind((host, port))
        except OSError as exc:
            with contextlib.suppress(Exception):
                self.socket.close()
            raise ConsoleError(f"the console cannot listen on {host}:{port}: {exc.strerror or exc} "
                               "(is another program using the port? choose another with --console-port / --web-port)") from None
        self.host = host
        self.port = self.socket.getsockname()[1]
        try:
            app = create_app(source, auth=auth_for(source), public=public)
        except ConsoleFileError as exc:  # the served directory cannot hold the console's file (read-only...)
            self.socket.close()
            raise ConsoleError(f"the console cannot start: {exc}") from None
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))
        self.thread = threading.Thread(target=self._run, name="forumbot-console", daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self.server.serve(sockets=[self.socket]))
        except Exception:  # the judging goes on without its console
            log.exception("the console stopped")

    def start(self) -> ConsoleServer:
        self.thread.start()
        log.info("console on http://%s:%d/", self.host if ":" not in self.host else f"[{self.host}]", self.port)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        with contextlib.suppress(OSError):
            self.socket.close()


def directory_console(seasons_dir: Path, database: str | None, host: str, port: int, public: bool) -> ConsoleServer:
    """The console of every season of ``seasons_dir`` (``forumbot serve``)."""
    return ConsoleServer(SeasonSource(directory=seasons_dir, database=database), host, port, public)


def file_console(path: Path, database: str | None, host: str, port: int, public: bool) -> ConsoleServer:
    """The console of the one season of ``path`` (``forumbot run FILE --web``)."""
    return ConsoleServer(SeasonSource(files=[path], database=database), host, port, public)
