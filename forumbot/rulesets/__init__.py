"""The built-in rulesets, one module each; importing this package registers them."""

from forumbot.rulesets import sunlight  # noqa: F401
