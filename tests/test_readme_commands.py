"""The README's first commands, exactly as written, in a clean clone of the repository (the committed tree):

- ``scripts/demo`` installs forumbot into ``.venv`` without the test tools (a stand-in Python on PATH records
  what pip is asked for: no real install here) and runs ``forumbot demo`` with the script's arguments;
- ``pip install .`` then ``forumbot demo``, and ``forumbot rehearse my-season.toml`` (the file ``forumbot init``
  writes): the commands run with none of the test tools importable, up to the local forum (a stand-in that cannot
  start), which they report in one line.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: what `pip install .` leaves out: the test extra's packages (a runtime import of one would fail for a user)
TEST_ONLY = ("pytest", "hypothesis", "mypy", "ruff", "statsmodels", "matplotlib", "dask", "scipy", "psycopg")


def setup_commands(readme: str) -> list[str]:
    """The commands of the README's "Set-up on a fresh machine" section up to its test command, in order (its
    four-space-indented lines)."""
    section = readme.split("## Set-up on a fresh machine", 1)[1].split("Run the tests", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ") and line.strip()]


def test_the_readme_gives_the_demo_the_plain_install_and_the_rehearsal() -> None:
    assert setup_commands((ROOT / "README.md").read_text(encoding="utf-8")) == [
        "scripts/demo", "pip install .", "forumbot demo", "forumbot rehearse my-season.toml"]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    where = tmp_path_factory.mktemp("clone") / "forumbot"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(where)], check=True, capture_output=True)
    return where


# A stand-in for every Python on PATH: "-c CODE" succeeds (the version check), "-m venv DIR" makes DIR/bin/python
# (this script again) and DIR/bin/forumbot, "-m pip ..." and forumbot write their arguments to $STAND_IN_LOG.
STAND_IN = r'''#!/usr/bin/env bash
me="$(readlink -f "$0")"
case "$1" in
  -c) exit 0 ;;
  -m)
    if [ "$2" = venv ]; then
      mkdir -p "$3/bin" && cp "$me" "$3/bin/python"
      printf '#!/usr/bin/env bash\necho "forumbot $*" >> "$STAND_IN_LOG"\n' > "$3/bin/forumbot"
      chmod +x "$3/bin/forumbot"
      exit 0
    fi
    shift; echo "$*" >> "$STAND_IN_LOG" ;;
esac
'''


def test_scripts_demo_installs_only_what_running_needs(clone: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("python3.11", "python3.12", "python3.13", "python3"):
        (bin_dir / name).write_text(STAND_IN, encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    log = tmp_path / "log"
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "STAND_IN_LOG": str(log)}
    assert os.stat(clone / "scripts" / "demo").st_mode & stat.S_IXUSR
    for _ in range(2):  # the second run installs nothing again
        subprocess.run(["scripts/demo", "--keep"], cwd=clone, env=env, check=True, capture_output=True)
    calls = log.read_text(encoding="utf-8").splitlines()
    installs = [c for c in calls if c.startswith("pip install")]
    assert len(installs) == 1, calls
    assert re.search(r"-c constraints\.txt -e \.$", installs[0]), installs  # the package alone: no [test] extra
    assert calls.count("forumbot demo --keep") == 2, calls


# `forumbot ARGS...` as an installed forumbot runs it, none of the test tools importable, the local forum a
# stand-in that cannot start.
NO_TEST_TOOLS = '''
import sys
blocked = set(sys.argv[1].split(","))
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r} (pip install . leaves it out)")
sys.meta_path.insert(0, Blocker())
import forumbot.testforum as testforum
def start_forum(*args, **kwargs):
    raise testforum.HarnessError("no FlaskBB in this test (a stand-in)\\nthe log's tail")
testforum.start_forum = start_forum
from forumbot.cli import app
app(sys.argv[2:], prog_name="forumbot")
'''


def forumbot(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", NO_TEST_TOOLS, ",".join(TEST_ONLY), *args], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(cwd)})


def test_forumbot_demo_runs_without_the_test_tools(clone: Path) -> None:
    out = forumbot(clone, "demo", "--no-wait")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Starting a local FlaskBB" in out.stdout
    assert out.stderr.strip().splitlines()[-1] == \
        "error: could not start the local forum: no FlaskBB in this test (a stand-in)", out.stderr
    assert "Traceback" not in out.stderr


def test_forumbot_rehearse_my_season_runs_without_the_test_tools(clone: Path) -> None:
    assert forumbot(clone, "init", "--ruleset", "killer_club", "my-season.toml").returncode == 0
    out = forumbot(clone, "rehearse", "my-season.toml")
    assert out.returncode == 1, out.stdout + out.stderr
    assert out.stderr.strip().splitlines()[-1] == \
        "error: could not start the local forum: no FlaskBB in this test (a stand-in)", out.stderr
