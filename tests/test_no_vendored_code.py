"""The repository holds only code written for forumbot (BRIEF: "NOTHING copied in"): a library comes from a
package registry at install time. This fails when a vendored library appears: a minified script or stylesheet,
a JavaScript or CSS file larger than ours, another project's LICENSE/NOTICE file, or a file whose opening
carries a third-party license header (``@license``, "Licensed under the ...", an MIT grant, SPDX)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: folders that are not the repository's own files (tools, caches, builds)
SKIP = {".git", ".venv", "venv", "node_modules", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".hypothesis"}
#: the file types a copied library would come as (captured forum pages in tests/ are data, in .json/.html)
CODE = {".js", ".mjs", ".cjs", ".css", ".py", ".j2", ".ts", ".map"}
#: our own scripts and stylesheets stay small; a bundled library is far larger
MAX_ASSET_BYTES = 40_000
LICENSE_HEADER = re.compile(r"@license|@preserve|Licensed under the|Permission is hereby granted|SPDX-License-Identifier"
                            r"|Copyright \(c\)|THE SOFTWARE IS PROVIDED", re.IGNORECASE)
LICENSE_FILE = re.compile(r"(^|[._-])(LICEN[CS]E|NOTICE|COPYING|THIRD[-_]PARTY)([._-]|$)", re.IGNORECASE)
THIS = Path(__file__).resolve()  # its patterns are the headers it looks for


def files(root: Path = ROOT) -> list[Path]:
    out = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if any(part in SKIP or part.endswith(".egg-info") for part in rel.parts) or not path.is_file() or path == THIS:
            continue
        out.append(path)
    return out


def vendored(root: Path = ROOT) -> list[str]:
    """Each file of ``root`` that looks copied from another project, with why."""
    found = []
    for path in files(root):
        rel = path.relative_to(root).as_posix()
        name = path.name
        if re.search(r"[.-]min\.(js|css|mjs)$", name) or name.endswith((".bundle.js", ".umd.js")):
            found.append(f"{rel}: a minified build")
        elif path.suffix in {".js", ".mjs", ".cjs", ".css", ".map"} and path.stat().st_size > MAX_ASSET_BYTES:
            found.append(f"{rel}: {path.stat().st_size} bytes of JavaScript/CSS")
        elif LICENSE_FILE.search(name) and rel != name:  # a project's own LICENSE sits at the root
            found.append(f"{rel}: another project's license file")
        elif path.suffix in CODE and LICENSE_HEADER.search(path.read_text(encoding="utf-8", errors="replace")[:3000]):
            found.append(f"{rel}: a third-party license header")
    return found


def test_the_repository_vendors_no_library():
    assert vendored() == []


def test_the_check_finds_a_copied_library(tmp_path):
    """The check itself: each kind of copied file is found; our own small files are not."""
    (tmp_path / "pkg" / "assets").mkdir(parents=True)
    (tmp_path / "pkg" / "assets" / "echarts.min.js").write_text("!function(t){}", encoding="utf-8")
    (tmp_path / "pkg" / "assets" / "big.js").write_text("var x = 1;\n" * 5000, encoding="utf-8")
    (tmp_path / "pkg" / "assets" / "lib.LICENSE").write_text("Apache License", encoding="utf-8")
    (tmp_path / "pkg" / "assets" / "LICENSE").write_text("MIT", encoding="utf-8")
    (tmp_path / "pkg" / "util.py").write_text("# Copyright (c) 2020 Someone\n# Licensed under the MIT license\n",
                                              encoding="utf-8")
    (tmp_path / "pkg" / "ours.py").write_text('"""Ours."""\n', encoding="utf-8")
    (tmp_path / "pkg" / "assets" / "report.css").write_text("body { margin: 0 }\n", encoding="utf-8")
    found = " ".join(vendored(tmp_path))
    for name in ("echarts.min.js", "big.js", "lib.LICENSE", "assets/LICENSE", "util.py"):
        assert name in found
    assert "ours.py" not in found and "report.css" not in found
