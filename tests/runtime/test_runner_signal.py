"""SIGTERM stops ``run_bot`` whatever the scheduler is doing when it comes. The handler used to shut the
scheduler down in the signal's own context; when the signal came while the scheduler's main thread was
handing a job to its worker (holding the executor's lock), the shutdown waited for that lock forever and
``forumbot run`` or ``forumbot demo`` hung until killed (seen once in ten stops of the demo)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

# A bot on a memory forum; the signal is raised exactly while the executor takes a job (its lock held).
SCRIPT = '''
import logging, signal, sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from bot_helpers import make_config
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.runner import run_bot
from forumbot.runtime.store import make_engine

submit = ThreadPoolExecutor.submit
submitted = []

def submit_then_signal(self, *args, **kwargs):
    submitted.append(1)
    if len(submitted) != 2:
        return submit(self, *args, **kwargs)
    with self._shutdown_lock:  # what submit holds while it starts a worker
        signal.raise_signal(getattr(signal, sys.argv[3]))
    return submit(self, *args, **kwargs)

ThreadPoolExecutor.submit = submit_then_signal
logging.basicConfig(level=logging.INFO)
folder = Path(sys.argv[2])
config = make_config(folder, ["A", "B", "C", "D"], schedule={"poll_interval": "0.2s"})
bot = Bot(config, MemoryForum("judge"), engine=make_engine(f"sqlite:///{folder / 'season.db'}"))
run_bot(bot)
print("run_bot returned", flush=True)
'''


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_stop_signal_while_the_scheduler_hands_over_a_job_stops_the_bot(tmp_path: Path, signame: str) -> None:
    try:
        done = subprocess.run([sys.executable, "-c", SCRIPT, str(Path(__file__).parent), str(tmp_path), signame],
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as hung:
        raise AssertionError(f"run_bot did not stop: {hung.stdout!r} {hung.stderr!r}") from None
    assert done.returncode == 0 and "run_bot returned" in done.stdout, done.stdout + done.stderr
    assert "stopped by a signal" in done.stderr, done.stderr


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_serve_stops_on_a_stop_signal(tmp_path: Path, signame: str) -> None:
    """``forumbot serve`` (an empty directory) stops cleanly, exit 0, on SIGTERM and on SIGHUP (a closed
    terminal: it used to die at once, without its log line)."""
    proc = subprocess.Popen([sys.executable, "-m", "forumbot", "serve", str(tmp_path)],
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        assert "serving" in proc.stderr.readline()  # its handlers are in place
        proc.send_signal(getattr(signal, signame))
        assert proc.wait(timeout=60) == 0
        assert "stopped serving" in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
