"""Files shipped inside the package (templates, example season files, report assets), found with
:mod:`importlib.resources` so that an installed wheel works outside the repository."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def package_dir(name: str) -> Path:
    """The folder ``forumbot/<name>`` of the installed package as a filesystem path.

    Jinja2's loaders and the copy of report assets need real paths; a wheel is always installed unpacked,
    so the package's resources are files. Raises FileNotFoundError when the folder is missing (a broken
    install), naming it.
    """
    path = Path(str(files("forumbot").joinpath(name)))
    if not path.is_dir():
        raise FileNotFoundError(f"forumbot is installed without its {name}/ folder ({path}); reinstall it")
    return path
