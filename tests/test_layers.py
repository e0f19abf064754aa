"""Layers import downward only (every import in forumbot/, at module level or inside a function, read with ast).

From the bottom: the command language; the pure engine and the rulesets (no forum, runtime, command line,
configuration or rendering); the forum adapters (no game, runtime or command line); configuration, rendering,
replay, simulation; the runtime (with its database migrations); the report; the command line, which nothing
imports. And no cycle between forumbot's packages.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "forumbot"

#: what each layer must never import (top-level names inside forumbot)
_ABOVE_THE_GAME = {"forums", "runtime", "migrations", "cli", "config", "render", "report", "replay", "simulate",
                   "testforum"}
FORBIDDEN: dict[str, set[str]] = {
    "language": _ABOVE_THE_GAME | {"engine", "rulesets"},
    "engine": _ABOVE_THE_GAME | {"rulesets"},
    "rulesets": _ABOVE_THE_GAME,
    "forums": {"language", "engine", "rulesets", "runtime", "migrations", "cli", "config", "render", "report",
               "replay", "simulate"},
    "config": {"runtime", "migrations", "cli", "report"},
    "render": {"runtime", "cli", "report", "config"},
    "replay": {"runtime", "cli", "report"},
    "runtime": {"cli", "report"},
    "report": {"cli"},
    "rehearse": {"cli", "report", "testforum"},
    "vote_chart": {"forums", "runtime", "migrations", "cli", "config", "report", "replay", "simulate"},
}
#: packages that form one layer together (the runtime's database and its migrations)
SAME_LAYER = {"migrations": "runtime"}


def _imports() -> dict[str, set[tuple[str, str]]]:
    """Top-level package of forumbot -> {(imported top-level package, "file:line")}."""
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[:2] == ("migrations", "versions"):
            continue
        layer = rel.parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + ([f"{node.module}.{a.name}" for a in node.names] if node.module == "forumbot"
                                         else [])
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "forumbot" and len(parts) > 1 and parts[1] != layer:
                    found[layer].add((parts[1], f"{rel}:{node.lineno}"))
    return found


IMPORTS = _imports()


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_downward_only(layer):
    wrong = sorted(f"{where} imports forumbot.{target}" for target, where in IMPORTS.get(layer, ())
                   if target in FORBIDDEN[layer])
    assert not wrong, f"{layer} must not import {', '.join(sorted(FORBIDDEN[layer]))}:\n" + "\n".join(wrong)


def test_nothing_imports_the_command_line():
    wrong = sorted(where for layer, targets in IMPORTS.items() if layer not in ("cli", "__main__")
                   for target, where in targets if target == "cli")
    assert not wrong, "only forumbot/__main__.py may import forumbot.cli:\n" + "\n".join(wrong)


def test_no_cycle_between_packages():
    graph: dict[str, set[str]] = defaultdict(set)
    for layer, targets in IMPORTS.items():
        if layer == "__init__":  # the package root registers the rulesets: the composition root, above all
            continue
        for target, _ in targets:
            a, b = SAME_LAYER.get(layer, layer), SAME_LAYER.get(target, target)
            if a != b:
                graph[a].add(b)

    def cycle_from(start: str, node: str, path: list[str]) -> list[str] | None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                return [*path, nxt]
            if nxt not in path:
                found = cycle_from(start, nxt, [*path, nxt])
                if found:
                    return found
        return None

    cycles = [c for start in sorted(graph) if (c := cycle_from(start, start, [start]))]
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_checker_sees_imports():
    """The walk finds real imports, lazy ones included, so an empty result above means something."""
    assert any(t == "engine" and w.startswith("rulesets/sunlight/__init__.py") for t, w in IMPORTS["rulesets"])

