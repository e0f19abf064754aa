"""Every ``forumbot ... --help`` reads as plain text: no reST backticks, no markup eaten by rich, no
sentence broken where its source line ended."""

from __future__ import annotations

import inspect

import pytest
from typer.testing import CliRunner

from forumbot.cli import app, load_all

load_all()  # the commands' modules are imported when first needed: all of them here
COMMANDS = [c.name or c.callback.__name__ for c in app.registered_commands if c.callback is not None]


def _help(*args: str, columns: int = 100) -> str:
    res = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert res.exit_code == 0, res.output
    return res.output


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_has_no_markup_artefacts(command: str) -> None:
    out = _help(*([command] if command else []))
    # a line's padding before the box's right edge is not a doubled space in the text
    text = "\n".join(line.rstrip().removesuffix("│").rstrip() for line in out.splitlines())
    assert "``" not in text and "[]" not in text and "its  " not in text, out
    if command == "forum-check":
        assert "its [forum] table" in out


def test_command_list_keeps_each_summary_on_one_line() -> None:
    out = _help(columns=300)
    for info in app.registered_commands:
        assert info.callback is not None and info.name
        summary = " ".join(inspect.getdoc(info.callback).split("\n\n")[0].split())  # type: ignore[union-attr]
        line = next(line for line in out.splitlines() if line.startswith(f"│ {info.name} "))
        assert summary.split()[-1] in line, (info.name, line)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_flags_as_flags(command: str) -> None:
    out = _help(*([command] if command else []))
    assert "<bool>" not in out, out  # typer's rich help printed `--keep <bool>`, `--help <bool>`


def test_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output == f"forumbot {version('forumbot')}\n", res.output
