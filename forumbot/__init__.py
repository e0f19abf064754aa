"""forumbot: a judge bot for play-by-post social-deduction games on web forums.

Importing the package makes the built-in rulesets (:mod:`forumbot.rulesets`) available to the engine's registry
(:func:`forumbot.engine.ruleset.get_ruleset`): they are imported and registered the first time the registry is read
(:mod:`forumbot.engine.builtin_rulesets`), so that a command that needs none (``forumbot --version``) does not pay for them;
the engine never imports the rulesets above it, and any code that names a ruleset by its id finds it.
"""

from forumbot.engine import builtin_rulesets as _builtin_rulesets


def _load_rulesets() -> None:
    import forumbot.rulesets  # noqa: F401  (registers the built-in rulesets)


_builtin_rulesets.load = _load_rulesets
