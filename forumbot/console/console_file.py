"""The console's own file, ``.forumbot-console.json`` in the directory it serves (``forumbot serve DIR``: DIR;
``forumbot run FILE --web``: FILE's folder), readable by its owner only (mode 0600). It holds:

- ``secret``: the key that signs the session cookies (made on first use; ``FORUMBOT_CONSOLE_SECRET`` in the
  environment takes its place, e.g. for several workers behind one proxy);
- ``passwords``: organiser's forum name -> the argon2id hash of their console password
  (``forumbot console-password``);
- ``epochs``: organiser's forum name -> a number that grows at each logout and password change: a session
  made under an older number is over, in whichever browser it is (the session cookie alone cannot be
  taken back);
- ``links``: the sign-in links not used yet: the SHA-256 of the link's token -> who it signs in, the
  SHA-256 of the browser's nonce it is bound to, and when it expires (seconds since the epoch). A token
  itself is never stored here.

Every change is a read-modify-write under an exclusive lock (``.forumbot-console.lock`` beside it) and lands
by an atomic rename, so two processes never lose each other's change and a crash leaves the old file or
the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

FILE_NAME = ".forumbot-console.json"
LOCK_NAME = ".forumbot-console.lock"
SECRET_ENV = "FORUMBOT_CONSOLE_SECRET"


class ConsoleFileError(OSError):
    """The console file cannot be read or written; the message names the file and why."""


class ConsoleFile:
    """The console file of ``folder`` (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        self._lock_path = self.folder / LOCK_NAME

    @contextlib.contextmanager
    def _locked(self, shared: bool = False) -> Iterator[None]:
        """The lock file held: shared by readers (every page asks who is logged in), exclusive for a change."""
        try:
            fd = os.open(self._lock_path, os.O_CREAT | os.O_RDWR, 0o600)
        except OSError as exc:
            raise ConsoleFileError(f"{self._lock_path}: cannot be opened: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise ConsoleFileError(f"{self.path}: cannot be read: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except ValueError:
            raise ConsoleFileError(f"{self.path}: is not the console's JSON file (remove it to start afresh: "
                                   "console passwords must then be set again)") from None
        if not isinstance(data, dict):
            raise ConsoleFileError(f"{self.path}: is not the console's JSON file")
        return data

    def _write(self, data: dict[str, Any]) -> None:
        try:
            fd, tmp = tempfile.mkstemp(prefix=".forumbot-console.", suffix=".tmp", dir=self.folder)
            with os.fdopen(fd, "w", encoding="utf-8") as out:  # mkstemp makes it 0600
                json.dump(data, out, ensure_ascii=False, indent=1, sort_keys=True)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)
            raise ConsoleFileError(f"{self.path}: cannot be written: {exc.strerror}") from None

    def read(self) -> dict[str, Any]:
        """The file's content as it is now (empty when there is no file)."""
        with self._locked(shared=True):
            return self._read()

    def change(self, edit: Callable[[dict[str, Any]], Any]) -> Any:
        """Apply ``edit`` to the content under the lock and write it back (only when ``edit`` changed it);
        returns what ``edit`` returned."""
        with self._locked():
            data = self._read()
            before = json.dumps(data, sort_keys=True)
            result = edit(data)
            if json.dumps(data, sort_keys=True) != before:
                self._write(data)
            return result

    # --- what it holds ------------------------------------------------------------------------------
    def secret(self) -> str:
        """The session-signing secret: ``FORUMBOT_CONSOLE_SECRET``, else the file's (made and stored on first use)."""
        if env := os.environ.get(SECRET_ENV):
            return env

        def ensure(data: dict[str, Any]) -> str:
            if not isinstance(data.get("secret"), str) or len(data["secret"]) < 32:
                data["secret"] = secrets.token_urlsafe(48)
            return data["secret"]

        return self.change(ensure)

    def password_hash(self, name: str) -> str | None:
        """The stored argon2id hash of ``name``'s console password, or None."""
        value = self.read().get("passwords", {}).get(name)
        return value if isinstance(value, str) else None

    def set_password_hash(self, name: str, hashed: str | None) -> None:
        """Store ``hashed`` as ``name``'s console password hash (None: remove it); ``name``'s sessions end."""

        def edit(data: dict[str, Any]) -> None:
            passwords = data.setdefault("passwords", {})
            if hashed is None:
                passwords.pop(name, None)
            else:
                passwords[name] = hashed
            epochs = data.setdefault("epochs", {})  # a password changed or removed ends the sessions it opened
            epochs[name] = int(epochs.get(name, 0)) + 1

        self.change(edit)

    def epoch(self, name: str) -> int:
        """``name``'s login epoch: a session made under an older one is over (0 when never changed)."""
        value = self.read().get("epochs", {}).get(name, 0)
        return value if isinstance(value, int) else 0

    def end_sessions(self, name: str) -> None:
        """End every session of ``name``, in every browser (a logout, a new or removed password)."""

        def edit(data: dict[str, Any]) -> None:
            epochs = data.setdefault("epochs", {})
            epochs[name] = int(epochs.get(name, 0)) + 1

        self.change(edit)

    def password_names(self) -> list[str]:
        """The names that have a console password."""
        return sorted(self.read().get("passwords", {}))
