"""forumbot: a judge bot for play-by-post social-deduction games on web forums.

Importing the package registers the built-in rulesets (:mod:`forumbot.rulesets`) with the engine's registry
(:func:`forumbot.engine.ruleset.register`): the engine never imports the rulesets above it, and any code that
names a ruleset by its id finds it.
"""

import forumbot.rulesets  # noqa: F401  (registers the built-in rulesets)
