"""The package's metadata: every dependency pyproject.toml declares is pinned in constraints.txt (what CI
installs), at a version pyproject.toml allows; the wheel ships the templates and example season files."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from forumbot.resources import package_dir

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not name==version"
            pins[canonicalize_name(name)] = version
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = [r for group in project["optional-dependencies"].values() for r in group]
    return [Requirement(r) for r in project["dependencies"] + extras]


def test_every_dependency_is_pinned_at_an_allowed_version():
    pins = _pins()
    for req in _declared():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is in pyproject.toml but not in constraints.txt: run scripts/lock"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {req.name}=={pins[name]}, outside pyproject.toml's {req.specifier}: run scripts/lock")


def test_resources_are_inside_the_package():
    pkg = ROOT / "forumbot"
    assert package_dir("templates") == pkg / "templates"
    assert (package_dir("templates") / "en" / "_macros.j2").is_file()
    assert sorted(p.name for p in package_dir("config_examples").glob("*.example.toml"))
    assert (package_dir("report/assets") / "report.css").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert {"templates/**/*", "config_examples/*.toml", "report/assets/*"} <= set(data["forumbot"])


def test_the_wheel_ships_every_resource(tmp_path):
    """The built wheel holds every template, example season file and report asset of the checkout (the
    installed program reads them from the package: scripts/check-wheel runs it in a fresh venv)."""
    import subprocess
    import sys
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--disable-pip-version-check",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    [wheel] = tmp_path.glob("forumbot-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    wanted = {p.relative_to(ROOT).as_posix() for folder in ("templates", "config_examples", "report/assets")
              for p in (ROOT / "forumbot" / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert len(wanted) > 300 and not wanted - shipped, sorted(wanted - shipped)[:10]
    assert not any(name.startswith(("templates/", "config/")) for name in shipped)


def test_example_season_files_name_no_checkout_path():
    """A wheel has no forumbot/config_examples/ folder: an example that ``forumbot init`` does not write
    (init puts its own path in the ruleset examples) says THIS_FILE."""
    from forumbot.engine.ruleset import ruleset_ids

    examples = Path(__file__).parents[1] / "forumbot" / "config_examples"
    others = [p for p in examples.glob("*.toml") if p.name.removesuffix(".example.toml") not in ruleset_ids()]
    assert others
    for path in others:
        text = path.read_text(encoding="utf-8")
        assert "config_examples/" not in text and "forumbot check THIS_FILE" in text, path.name
