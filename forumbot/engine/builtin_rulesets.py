"""Where the built-in rulesets come from, without the engine importing them: :mod:`forumbot` sets :data:`load`
(which imports :mod:`forumbot.rulesets`), and the ruleset registry (:func:`forumbot.engine.ruleset.get_ruleset`,
:func:`~forumbot.engine.ruleset.ruleset_ids`) calls it the first time it is read. So importing :mod:`forumbot` costs
nothing until a ruleset is needed (``forumbot --version`` never loads one), and any code that names a ruleset by its
id still finds it."""

from __future__ import annotations

from collections.abc import Callable

#: what registers the built-in rulesets, called once (then None)
load: Callable[[], None] | None = None


def ensure_loaded() -> None:
    """Register the built-in rulesets if that is not done yet."""
    global load
    if load is not None:
        loader, load = load, None
        loader()
