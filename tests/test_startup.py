"""Start-up imports only what a command uses (issue 30: ``forumbot --version`` imported every forum adapter, httpx,
rich and all five rulesets, 0.7 s of CPU): the commands' modules are imported when one of their commands runs
(:mod:`forumbot.cli`), the rulesets when the registry is first read (:mod:`forumbot.engine.builtin_rulesets`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from forumbot.cli import COMMANDS, MODULES, load_all
from forumbot.cli.root import app

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("httpx", "rich", "sqlalchemy", "jinja2", "bs4", "forumbot.rulesets", "forumbot.engine.game",
         "forumbot.forums.discuz_api")


def _imported(*args: str) -> set[str]:
    """The modules a fresh interpreter has imported after ``forumbot ARGS``."""
    code = ("import json, sys\nfrom forumbot.cli import app\nsys.argv = ['forumbot', *json.loads(sys.argv[1])]\n"
            "try:\n    app()\nexcept SystemExit:\n    pass\nprint(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(args)], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_version_imports_no_adapter_library_or_ruleset() -> None:
    imported = _imported("--version")
    assert not {m for m in imported for h in HEAVY if m == h or m.startswith(h + ".")}
    assert "forumbot.cli.season" not in imported and "forumbot.cli.simulate" not in imported


def test_check_imports_the_rulesets_but_no_forum_or_database_library() -> None:
    imported = _imported("check", str(ROOT / "forumbot" / "config_examples" / "sunlight.example.toml"))
    assert "forumbot.rulesets.sunlight" in imported  # the season file is checked against its ruleset
    assert not {m for m in imported for h in ("httpx", "rich", "sqlalchemy", "bs4", "forumbot.cli.simulate")
                if m == h or m.startswith(h + ".")}


def test_each_command_is_found_in_the_module_the_registry_names() -> None:
    load_all()
    where = {info.name: info.callback.__module__ for info in app.registered_commands if info.callback is not None}
    assert {name: f"forumbot.cli.{module}" for name, module in COMMANDS.items()} == {
        name: module for name, module in where.items() if name in COMMANDS}
    assert {module.rsplit(".", 1)[-1] for module in where.values()} <= set(MODULES)
