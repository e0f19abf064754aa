"""The FlaskBB virtualenv (Python 3.12) and the template database, built once and cached.

Cache: ``$FORUMBOT_CACHE_DIR`` or ``$XDG_CACHE_HOME/forumbot`` or ``~/.cache/forumbot``. Everything is rebuilt
from nothing when absent or when the pinned versions change (about 20 s for the venv, 2 s for the template);
a file lock makes concurrent builders wait for each other. A build step fails when it stops making progress
(output, CPU time) for minutes, not after a fixed time.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REQUIREMENTS = ("flaskbb==3.0.0rc5", "flaskbb-plugin-conversations==3.0.7", "waitress==3.0.2")
FORUM_MAIN = Path(__file__).with_name("_forum_main.py")
_STAMP = "forumbot-forum-venv.txt"


class HarnessError(RuntimeError):
    """The test forum could not be built or started; the message says why and what to do."""


def cache_dir() -> Path:
    """The cache directory (created)."""
    if os.environ.get("FORUMBOT_CACHE_DIR"):
        base = Path(os.environ["FORUMBOT_CACHE_DIR"])
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "forumbot"
    base.mkdir(parents=True, exist_ok=True)
    return base


def find_python312() -> str:
    """A working Python 3.12 interpreter: ``$FORUMBOT_PYTHON312``, ``python3.12`` on PATH, or pyenv's.

    Raises HarnessError when there is none.
    """
    candidates = [os.environ.get("FORUMBOT_PYTHON312", "")]
    candidates.append(shutil.which("python3.12") or "")
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    candidates += [str(p) for p in sorted(pyenv_root.glob("versions/3.12*/bin/python3.12"), reverse=True)]
    candidates += ["/usr/bin/python3.12", "/usr/local/bin/python3.12"]
    for candidate in filter(None, candidates):
        try:
            out = subprocess.run(
                [candidate, "-c", "import sys; print(sys.version_info[:2] == (3, 12))"],
                capture_output=True, text=True, timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and out.stdout.strip() == "True":
            return candidate
    raise HarnessError(
        "The test forum (FlaskBB 3.0) needs Python 3.12, and none was found. Install python3.12 "
        "(e.g. `apt-get install python3.12-venv` or `pyenv install 3.12`) or point FORUMBOT_PYTHON312 at one."
    )


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(cmd: list[str], what: str, stall_seconds: float) -> None:
    """Runs ``cmd`` to its end, however long it takes while it makes progress (output, CPU time); raises
    HarnessError when it fails, or when nothing progressed for ``stall_seconds`` (then it is killed)."""
    from forumbot.testforum.harness import StartWatch

    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        watch = StartWatch(proc.pid, Path(log.name), stall_seconds, give_up_seconds=4 * 3600)
        while proc.poll() is None:
            if problem := watch.stuck():
                proc.kill()
                proc.wait()
                raise HarnessError(f"{what}: {problem}")
            time.sleep(0.2)
        log.seek(0)
        output = log.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = output.strip().splitlines()[-15:]
        raise HarnessError(f"{what} failed (exit {proc.returncode}):\n" + "\n".join(tail))


def ensure_forum_python() -> Path:
    """The interpreter of the FlaskBB venv, building the venv first if needed. Raises HarnessError."""
    root = cache_dir()
    venv = root / "flaskbb-venv"
    python = venv / "bin" / "python"
    wanted = "\n".join(REQUIREMENTS)
    stamp = venv / _STAMP
    if stamp.is_file() and stamp.read_text() == wanted and python.exists():
        return python
    with _locked(root / "flaskbb-venv.lock"):
        if stamp.is_file() and stamp.read_text() == wanted and python.exists():
            return python
        shutil.rmtree(venv, ignore_errors=True)
        _run([find_python312(), "-m", "venv", str(venv)], "creating the FlaskBB virtualenv", 300)
        _run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *REQUIREMENTS],
            "installing FlaskBB (pip)", 900,
        )
        stamp.write_text(wanted)
    return python


def ensure_template_db() -> Path:
    """A freshly installed FlaskBB database (schema, groups, settings, conversations plugin), cached."""
    python = ensure_forum_python()
    root = cache_dir()
    key = "-".join(r.split("==")[1] for r in REQUIREMENTS)
    template = root / f"template-{key}-{_script_version()}.sqlite"
    if template.is_file():
        return template
    with _locked(root / "template.lock"):
        if template.is_file():
            return template
        work = root / "template-build"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        _run([str(python), str(FORUM_MAIN), "init", str(work / "forum.sqlite")], "creating the FlaskBB database", 300)
        shutil.move(str(work / "forum.sqlite"), template)
        shutil.rmtree(work, ignore_errors=True)
    return template


def _script_version() -> str:
    import hashlib

    return hashlib.sha256(FORUM_MAIN.read_bytes()).hexdigest()[:10]


if __name__ == "__main__":  # python -m forumbot.testforum.venv: build the cache now
    print(ensure_template_db(), file=sys.stdout)
